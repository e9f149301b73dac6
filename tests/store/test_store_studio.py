"""The studio folder: init is idempotent; find_studio follows DESIGN §3's order."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bunzai.errors import BunzaiError
from bunzai.model import KIND_NAMES
from bunzai.store.studio import Studio, find_studio, init_studio


def test_init_creates_the_layout_and_settings(tmp_path: Path) -> None:
    studio, created = init_studio(tmp_path / "s")
    assert created
    assert studio.root == (tmp_path / "s").absolute()
    assert tomllib.loads((studio.root / "bunzai.toml").read_text("utf-8")) == {"studio": {"format": 1}}
    for kind in KIND_NAMES:
        assert (studio.root / kind).is_dir()
    for folder in (studio.assets_dir, studio.graveyard_dir, studio.export_dir, studio.locks_dir, studio.drafts_dir):
        assert folder.is_dir()
    assert studio.drafts_dir == studio.root / ".bunzai" / "drafts"


def test_init_is_idempotent_and_never_rewrites_settings(tmp_path: Path) -> None:
    studio, _ = init_studio(tmp_path / "s")
    settings = studio.root / "bunzai.toml"
    settings.write_text('[studio]\nformat = 1\nnote = "mine"\n', "utf-8")
    (studio.root / "lorebook").rmdir()
    again, created = init_studio(tmp_path / "s")
    assert not created and again == studio
    assert "mine" in settings.read_text("utf-8")
    assert (studio.root / "lorebook").is_dir()


def test_init_refuses_a_file_in_the_way(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    with pytest.raises(BunzaiError) as caught:
        init_studio(tmp_path / "file")
    assert caught.value.code == "studio_missing"


@pytest.mark.parametrize(
    ("where", "code"),
    [("file/deeper", "studio_missing"), ("x" * 300, "invalid_input")],  # too long: the name is the user's to shorten
    ids=["a-file-on-the-way", "a-name-too-long"],
)
def test_init_where_no_folder_can_be_made_is_a_coded_refusal(tmp_path: Path, where: str, code: str) -> None:
    (tmp_path / "file").write_text("x")
    with pytest.raises(BunzaiError) as caught:  # both were internal errors (NotADirectoryError, OSError)
        init_studio(tmp_path / where)
    assert caught.value.code == code and str(tmp_path / where) in caught.value.message
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]


def test_init_where_the_system_refuses_keeps_the_code_of_its_errno(tmp_path: Path, monkeypatch) -> None:
    import errno

    def refused(self, *args, **kwargs):
        raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(self))

    monkeypatch.setattr(Path, "mkdir", refused)
    with pytest.raises(BunzaiError) as caught:
        init_studio(tmp_path / "s")
    assert caught.value.code == "studio_read_only" and str(tmp_path / "s") in caught.value.message


@pytest.fixture
def places(tmp_path: Path) -> dict[str, Path]:
    explicit, _ = init_studio(tmp_path / "explicit")
    from_env, _ = init_studio(tmp_path / "env")
    upward, _ = init_studio(tmp_path / "upward")
    nested = upward.root / "character" / "deeper"
    nested.mkdir()
    nowhere = tmp_path / "nowhere" / "deep"
    nowhere.mkdir(parents=True)
    return {
        "explicit": explicit.root,
        "env": from_env.root,
        "upward": upward.root,
        "nested": nested,
        "nowhere": nowhere,
        "home": tmp_path / "home",
    }


def test_find_prefers_explicit_studio_over_env_and_cwd(places: dict[str, Path]) -> None:
    found = find_studio(
        str(places["explicit"]), env={"BUNZAI_STUDIO": str(places["env"])}, cwd=places["nested"], home=places["home"]
    )
    assert found == Studio(places["explicit"])


def test_find_uses_env_when_no_explicit_studio(places: dict[str, Path]) -> None:
    found = find_studio(None, env={"BUNZAI_STUDIO": str(places["env"])}, cwd=places["nested"], home=places["home"])
    assert found == Studio(places["env"])


def test_find_walks_upward_from_cwd_when_no_explicit_or_env(places: dict[str, Path]) -> None:
    found = find_studio(None, env={"BUNZAI_STUDIO": ""}, cwd=places["nested"], home=places["home"])
    assert found == Studio(places["upward"])


def test_find_falls_back_to_home_studio_created_on_first_use(places: dict[str, Path]) -> None:
    home_studio = places["home"] / ".bunzai" / "studio"
    assert not home_studio.exists()
    found = find_studio(None, env={}, cwd=places["nowhere"], home=places["home"])
    assert found == Studio(home_studio)
    assert (home_studio / "bunzai.toml").is_file()
    assert find_studio(None, env={}, cwd=places["nowhere"], home=places["home"]) == found


@pytest.mark.parametrize("source", ["explicit", "env"])
def test_find_refuses_a_named_folder_without_studio(places: dict[str, Path], source: str) -> None:
    missing = places["nowhere"]  # exists, but holds no bunzai.toml
    for target in (missing, missing / "absent"):
        explicit = str(target) if source == "explicit" else None
        env = {"BUNZAI_STUDIO": str(target)} if source == "env" else {}
        with pytest.raises(BunzaiError) as caught:
            find_studio(explicit, env=env, cwd=places["nested"], home=places["home"])
        assert caught.value.code == "studio_missing"
        assert "bunzai init" in caught.value.hint
    assert not places["home"].exists()


def test_relative_studio_paths_are_taken_from_cwd(places: dict[str, Path]) -> None:
    base = places["explicit"].parent
    assert find_studio("explicit", env={}, cwd=base, home=places["home"]) == Studio(places["explicit"])
    assert find_studio(None, env={"BUNZAI_STUDIO": "env"}, cwd=base, home=places["home"]) == Studio(places["env"])


@given(
    st.lists(st.sampled_from(["a", "b c", ".", "..", "", "x.y", ".hidden", "é"]), max_size=6),
    st.sampled_from(["/", "//", "///"]),
    st.booleans(),
)
def test_upward_names_the_folders_pathlib_names(parts: list[str], head: str, trailing: bool) -> None:
    from pathlib import PurePosixPath

    from bunzai.store.studio import upward

    start = head + "/".join(parts) + ("/" if trailing else "")
    path = PurePosixPath(start)
    assert upward(start) == [str(folder) for folder in (path, *path.parents)]


def test_a_studio_given_as_a_file_is_not_told_to_init_it(tmp_path: Path) -> None:
    studio, _ = init_studio(tmp_path / "s")
    (tmp_path / "card.json").write_text("{}")
    with pytest.raises(BunzaiError) as caught:
        find_studio(tmp_path / "s" / "bunzai.toml", env={}, cwd=tmp_path, home=tmp_path)
    assert caught.value.code == "studio_missing"
    assert caught.value.hint == f"give --studio the folder that holds it: {studio.root}"
    with pytest.raises(BunzaiError) as caught:
        find_studio(None, env={"BUNZAI_STUDIO": str(tmp_path / "card.json")}, cwd=tmp_path, home=tmp_path)
    assert caught.value.hint == "it is a file, not a folder: give BUNZAI_STUDIO a studio's folder"
    with pytest.raises(BunzaiError) as caught:  # below a file: `bunzai init` there would be refused too
        find_studio(tmp_path / "card.json" / "sub" / "s", env={}, cwd=tmp_path, home=tmp_path)
    assert caught.value.hint == f"{tmp_path / 'card.json'} is a file, not a folder: give --studio a studio's folder"
