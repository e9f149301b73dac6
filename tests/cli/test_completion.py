"""Shell completion: commands, options, kinds, format ids, engines and piece refs from the studio."""

from __future__ import annotations

import subprocess

import pytest
from testkit import bunzai_executable


def complete(bunzai, line: str) -> list[str]:
    """What bash completion offers for `line` (the word being completed is its last)."""
    words = line.split(" ")
    env = bunzai.env() | {"_BUNZAI_COMPLETE": "complete_bash", "COMP_WORDS": line, "COMP_CWORD": str(len(words) - 1)}
    proc = subprocess.run(bunzai_executable(), env=env, capture_output=True, cwd=bunzai.cwd, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.decode("utf-8").split()


@pytest.fixture
def shelf(bunzai):
    for name in ("Seraphina", "Serge"):
        draft = bunzai("create", "character", "--input", f'{{"name": "{name}"}}', check=True).stdout
        bunzai("apply", "--yes", input=draft, check=True)
    draft = bunzai("create", "lorebook", "--input", '{"name": "Eldoria"}', check=True).stdout
    bunzai("apply", "--yes", input=draft, check=True)
    return bunzai


@pytest.mark.parametrize(
    ("line", "offered"),
    [
        ("bunzai read se", ["seraphina", "serge"]),
        ("bunzai read character/ser", ["character/seraphina", "character/serge"]),
        ("bunzai read eld", ["eldoria"]),
        ("bunzai bury seraph", ["seraphina"]),
        ("bunzai export serg", ["serge"]),
        ("bunzai li", ["list"]),
        ("bunzai list --ki", ["--kind"]),
        ("bunzai list --kind lo", ["lorebook"]),
        ("bunzai create ch", ["character"]),
        ("bunzai export seraphina --to sillytavern.card.p", ["sillytavern.card.png"]),
        ("bunzai transfer seraphina --to x --engine risu", ["risuai"]),
        ("bunzai draft sh", ["show"]),
    ],
)
def test_completion_offers(shelf, line, offered):
    assert complete(shelf, line) == offered


def test_studio_option_chooses_where_refs_come_from(shelf, tmp_path):
    other = tmp_path / "other"
    shelf("init", str(other), check=True)
    assert complete(shelf, f"bunzai --studio {other} read se") == []
    assert complete(shelf, f"bunzai read --studio {other} se") == []  # after the command, as it runs


def test_studio_option_after_the_command_is_where_refs_come_from(shelf, tmp_path):
    other = tmp_path / "other"
    shelf("init", str(other), check=True)
    draft = shelf("--studio", str(other), "create", "character", "--input", '{"name": "Selene"}', check=True).stdout
    shelf("--studio", str(other), "apply", "--yes", input=draft, check=True)
    assert complete(shelf, f"bunzai read --studio {other} se") == ["selene"]
    assert complete(shelf, f"bunzai read --studio={other} se") == ["selene"]


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("bunzai read --studio /tmp/s se", ["bunzai", "read", "--studio", "/tmp/s", "se"]),
        ('bunzai read --studio "/my studio" se', ["bunzai", "read", "--studio", "/my studio", "se"]),
        ("bunzai read --studio '/my studio", ["bunzai", "read", "--studio", "/my studio"]),  # still being typed
        ("bunzai read --studio my\\ studio se", ["bunzai", "read", "--studio", "my studio", "se"]),
        ("bunzai read se\\", ["bunzai", "read", "se"]),  # a trailing escape: the word as typed
        ("bunzai read #se", ["bunzai", "read", "#se"]),  # no comments in a line being typed
        ("", []),
    ],
)
def test_shell_words_split_the_line_being_typed(line, words):
    from bunzai.cli.completion import shell_words

    assert shell_words(line) == words


def test_studio_with_a_space_after_the_command_is_where_refs_come_from(shelf, tmp_path):
    other = tmp_path / "other studio"
    shelf("init", str(other), check=True)
    draft = shelf("--studio", str(other), "create", "character", "--input", '{"name": "Selene"}', check=True).stdout
    shelf("--studio", str(other), "apply", "--yes", input=draft, check=True)
    words = ["bunzai", "read", "--studio", f'"{other}"', "se"]
    env = shelf.env() | {"_BUNZAI_COMPLETE": "complete_bash", "COMP_WORDS": " ".join(words), "COMP_CWORD": "4"}
    proc = subprocess.run(bunzai_executable(), env=env, capture_output=True, cwd=shelf.cwd, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.decode("utf-8").split() == ["selene"]


def test_no_studio_completes_nothing_and_creates_nothing(bare_bunzai):
    assert complete(bare_bunzai, "bunzai read se") == []
    assert not (bare_bunzai.home / ".bunzai").exists()


def test_install_completion_for_bash(bare_bunzai):
    """Typer finds the shell among the command's parent processes, so it is run from bash (a
    test run started outside any shell, in the background, would find none)."""
    # (`; exit $?` keeps bash from replacing itself with the command, which would leave no bash)
    command = " ".join(f"'{part}'" for part in bunzai_executable()) + " --install-completion; exit $?"
    installed = subprocess.run(
        ["bash", "-c", command], env=bare_bunzai.env(), cwd=bare_bunzai.cwd, capture_output=True, text=True, timeout=60
    )
    assert installed.returncode == 0, installed.stdout + installed.stderr
    script = bare_bunzai.home / ".bash_completions" / "bunzai.sh"
    assert "_BUNZAI_COMPLETE=complete_bash" in script.read_text()
    assert str(script) in (bare_bunzai.home / ".bashrc").read_text()
