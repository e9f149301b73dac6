"""A folder deeper than the walk goes is named apart on stderr, and only such folders are."""

from __future__ import annotations

from testkit import v2_card_png

from bunzai import limits


def test_the_folders_too_deep_to_walk_are_named_and_a_file_called_deeper_is_not(bunzai, tmp_path):
    library = tmp_path / "library"
    deep = library
    for level in range(limits.FOLDER_WALK_MAX_DEPTH + 1):
        deep = deep / f"level{level:02d}"
    deep.mkdir(parents=True)
    (deep / "Mira.png").write_bytes(v2_card_png("Mira"))
    (library / "Ada.png").write_bytes(v2_card_png("Ada", seed=2))
    # Skipped with its reader's message, which begins with its name: before, any skip whose
    # reason began with "deeper" was counted as a folder too deep to walk.
    (library / "deeper notes.txt").write_text("not a piece\n")
    drafts = bunzai("import", str(library))
    assert drafts.code == 0, drafts.stderr
    assert [line["target"]["id"] for line in drafts.lines] == ["ada"]
    assert "bunzai: skipped 2 file(s) or folder(s): deeper notes.txt, level16" in drafts.stderr
    assert (
        f"bunzai: 1 folder(s) lie deeper than {limits.FOLDER_WALK_MAX_DEPTH} levels and were not walked: "
        "level16; import them on their own"
    ) in drafts.stderr
