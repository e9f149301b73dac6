"""`bunzai --studio DIR init` makes DIR the studio, as every other command takes --studio for its
studio: it made the current folder one, and the next command, given the same --studio, found none.
BUNZAI_STUDIO, a standing choice, is the folder when no DIR is given."""

from __future__ import annotations


def test_init_makes_the_folder_studio_names(bare_bunzai, tmp_path):
    bare_bunzai.cwd = tmp_path
    made = bare_bunzai("--studio", "lib", "init", check=True).json
    assert made == {"studio": str(tmp_path / "lib"), "created": True}
    assert not (tmp_path / "bunzai.toml").exists()
    assert bare_bunzai("--studio", "lib", "list", check=True).json["count"] == 0
    after = bare_bunzai("init", "--studio", "other", check=True).json  # given after the command too
    assert after["studio"] == str(tmp_path / "other")


def test_init_refuses_two_folders_and_takes_one_named_twice(bare_bunzai, tmp_path):
    bare_bunzai.cwd = tmp_path
    refused = bare_bunzai("--studio", "lib", "init", "elsewhere")
    assert refused.code == 2 and refused.json["error"]["code"] == "usage"
    assert not (tmp_path / "lib").exists() and not (tmp_path / "elsewhere").exists()
    assert bare_bunzai("--studio", "lib", "init", "lib", check=True).json["created"] is True
    (tmp_path / "sub").mkdir()
    spelled = bare_bunzai("--studio", "sub/../lib", "init", str(tmp_path / "lib"), check=True).json
    assert spelled["created"] is False  # one folder, spelled two ways
    # an empty --studio names no folder, as for every other command
    assert bare_bunzai("--studio", "", "init", "lib", check=True).json["created"] is False


def test_init_makes_the_folder_bunzai_studio_names_unless_a_folder_is_given(bare_bunzai, tmp_path):
    bare_bunzai.cwd = tmp_path
    env = bare_bunzai.env()
    bare_bunzai.env = lambda: env | {"BUNZAI_STUDIO": str(tmp_path / "standing")}
    assert bare_bunzai("init", check=True).json["studio"] == str(tmp_path / "standing")
    assert bare_bunzai("init", "given", check=True).json["studio"] == str(tmp_path / "given")  # DIR outranks it
    assert not (tmp_path / "bunzai.toml").exists()
