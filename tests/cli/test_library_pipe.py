"""A whole library through one pipe: `bunzai import DIR | bunzai apply --yes` (issue 9)."""

from __future__ import annotations

import base64
import json
import subprocess
from pathlib import Path

from testkit import bunzai_executable, v2_card_png

from bunzai.store.doctor import examine
from bunzai.store.studio import Studio


def pipe(bunzai, *import_args: str, apply_args: tuple[str, ...] = ("--yes",)) -> tuple[int, int, list, str]:
    """Run import | apply as one shell pipe; (import exit, apply exit, apply's lines, import's stderr)."""
    importer = subprocess.Popen(
        bunzai_executable() + ["import", *import_args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=bunzai.env(),
        cwd=bunzai.cwd,
        start_new_session=True,
    )
    applier = subprocess.run(
        bunzai_executable() + ["apply", *apply_args],
        stdin=importer.stdout,
        capture_output=True,
        env=bunzai.env(),
        cwd=bunzai.cwd,
        start_new_session=True,
        timeout=300,
    )
    importer.stdout.close()
    errors = importer.stderr.read().decode()
    importer.wait(timeout=60)
    lines = [json.loads(line) for line in applier.stdout.decode().splitlines() if line.strip()]
    return importer.returncode, applier.returncode, lines, errors


def write_cards(folder: Path, names: list[str]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for index, name in enumerate(names):
        (folder / f"card-{index:04d}.png").write_bytes(v2_card_png(name, seed=index))


def test_three_hundred_cards_go_through_one_pipe_in_bounded_files(bunzai, tmp_path: Path) -> None:
    write_cards(tmp_path / "cards", [f"Keeper {n}" for n in range(300)])
    imported, applied, lines, errors = pipe(bunzai, str(tmp_path / "cards"))
    assert (imported, applied) == (0, 0)
    assert [line["status"] for line in lines] == ["applied"] * 300
    assert errors == ""  # no progress is drawn when stderr is not a terminal
    studio = bunzai.studio
    assert len(list((studio / "character").glob("*.json"))) == 300
    files = [p for p in studio.rglob("*") if p.is_file() and p.name not in ("bunzai.toml", "changes.jsonl")]
    assert len(files) <= 3 * 300
    assert not list(studio.rglob("*.lock"))
    assert examine(Studio(studio))["clean"]


def test_import_drafts_name_media_by_place_and_apply_stores_the_bytes(bunzai, tmp_path: Path) -> None:
    write_cards(tmp_path, ["Ada"])
    card = tmp_path / "card-0000.png"
    [draft] = bunzai("import", str(card), check=True).lines
    [attachment] = [a for a in draft["attachments"].values() if "spans" not in a["from"]]
    assert attachment["from"] == {"path": str(card)} and "base64" not in attachment
    assert len(json.dumps(draft)) < 2 * len(card.read_bytes()) + 4000  # no base64 copy of the image
    done = bunzai("apply", "--yes", input=json.dumps(draft))
    assert done.json["status"] == "applied"
    for sha, item in draft["attachments"].items():
        assert (bunzai.studio / "assets" / f"{sha}.{item['ext']}").is_file()


def test_a_source_changed_or_gone_since_the_draft_is_refused_and_nothing_is_written(bunzai, tmp_path: Path) -> None:
    write_cards(tmp_path, ["Ada", "Bob"])
    drafts = {}
    for index in (0, 1):
        [drafts[index]] = bunzai("import", str(tmp_path / f"card-{index:04d}.png"), check=True).lines
    (tmp_path / "card-0000.png").write_bytes(v2_card_png("Ada", seed=99))
    (tmp_path / "card-0001.png").unlink()
    changed = bunzai("apply", "--yes", input=json.dumps(drafts[0]))
    gone = bunzai("apply", "--yes", input=json.dumps(drafts[1]))
    assert (changed.code, changed.json["status"], changed.json["reason"]) == (1, "failed", "source_changed")
    assert (gone.code, gone.json["status"], gone.json["reason"]) == (1, "failed", "source_missing")
    assert not list((bunzai.studio / "character").iterdir())
    assert not [p for p in (bunzai.studio / "assets").iterdir() if not p.name.startswith(".")]


def test_drafts_made_elsewhere_may_still_carry_their_media_inline(bunzai, tmp_path: Path) -> None:
    write_cards(tmp_path, ["Ada"])
    card = tmp_path / "card-0000.png"
    [draft] = bunzai("import", str(card), check=True).lines
    data = card.read_bytes()
    for item in draft["attachments"].values():
        spans = item["from"].get("spans", [[0, len(data)]])
        item["base64"] = base64.b64encode(b"".join(data[a:b] for a, b in spans)).decode()
        del item["from"], item["size"]
    card.unlink()
    assert bunzai("apply", "--yes", input=json.dumps(draft)).json["status"] == "applied"


def test_one_truncated_png_among_good_cards_is_one_error_document_and_the_rest_apply(bunzai, tmp_path: Path) -> None:
    write_cards(tmp_path / "cards", ["Ada", "Bob", "Cy"])
    whole = v2_card_png("Dee", seed=4)
    (tmp_path / "cards" / "card-0003.png").write_bytes(whole[: len(whole) - 30])
    imported, applied, lines, _ = pipe(bunzai, str(tmp_path / "cards"))
    assert imported == 1 and applied == 1
    assert sorted(line.get("status", "error") for line in lines) == ["applied", "applied", "applied", "error"]
    [error] = [line for line in lines if "error" in line]
    assert error["error"]["code"] == "corrupt_file" and error["error"]["details"]["path"].endswith("card-0003.png")


def test_a_folder_of_thousands_of_files_is_walked_without_a_cap(bunzai, tmp_path: Path) -> None:
    folder = tmp_path / "download"
    folder.mkdir()
    for n in range(2_100):
        (folder / f"note-{n:04d}.txt").write_text("not a card")
    (folder / "zz-card.png").write_bytes(v2_card_png("Ada"))
    done = bunzai("import", str(folder))
    assert done.code == 0
    assert [line["target"]["id"] for line in done.lines] == ["ada"]
    assert "skipped 2100" in done.stderr


def test_a_single_draft_still_answers_with_one_document(bunzai) -> None:
    draft = bunzai("create", "character", "--input", '{"name": "Ada"}', check=True).stdout
    done = bunzai("apply", "--yes", input=draft)
    assert done.code == 0 and done.json["status"] == "applied"


def test_progress_goes_to_a_terminal_on_stderr_and_never_touches_stdout(bunzai, tmp_path: Path) -> None:
    import os
    import pty

    write_cards(tmp_path / "cards", [f"Keeper {n}" for n in range(8)])
    quiet = bunzai("import", str(tmp_path / "cards"), check=True)
    master, slave = pty.openpty()
    proc = subprocess.run(
        bunzai_executable() + ["import", str(tmp_path / "cards")],
        stdout=subprocess.PIPE,
        stderr=slave,
        env=bunzai.env(),
        cwd=bunzai.cwd,
        timeout=60,
    )
    os.close(slave)
    shown = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:
            break
        if not chunk:
            break
        shown += chunk
    os.close(master)
    assert proc.returncode == 0
    assert b"importing 5" in shown and b"imported 8 in" in shown
    assert proc.stdout.decode() == quiet.stdout and quiet.stderr == ""
