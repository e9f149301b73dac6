"""`bunzai art`: a piece's portrait written to a new file, or drawn on kitty / iTerm2."""

from __future__ import annotations

import base64
import hashlib
import os
import pty
import subprocess

from testkit import bunzai_executable, v2_card_png

from bunzai.cli.terminal_image import can_draw, escape, protocol


def _with_ada(bunzai):
    card = bunzai.home / "ada-card.png"
    card.write_bytes(v2_card_png("Ada"))
    bunzai("apply", "--yes", input=bunzai("import", str(card)).stdout, check=True)
    return bunzai("read", "ada", check=True).json["piece"]["body"]["portrait"]


def test_art_writes_the_portrait_to_a_new_file_and_never_overwrites(bunzai) -> None:
    portrait = _with_ada(bunzai)
    done = bunzai("art", "ada", check=True).json
    written = bunzai.home / "ada.png"
    data = written.read_bytes()
    assert done == {
        "kind": "character",
        "id": "ada",
        "pointer": "/body/portrait",
        "path": "ada.png",
        "mime": "image/png",
        "size": len(data),
        "sha256": hashlib.sha256(data).hexdigest(),
        "shown": None,
    }
    assert done["sha256"] == portrait["sha256"] and data.startswith(b"\x89PNG")
    again = bunzai("art", "character/ada")
    assert again.code == 1 and again.json["error"]["code"] == "occupied" and written.read_bytes() == data
    other = bunzai("art", "ada", "--out", "sub-missing/x.png")
    assert other.code == 1 and other.json["error"]["code"] == "not_found"
    assert bunzai("art", "ada", "--out", "copy.png", check=True).json["path"] == "copy.png"
    assert (bunzai.home / "copy.png").read_bytes() == data


def test_a_piece_without_art_is_refused(bunzai) -> None:
    bunzai("apply", "--yes", input=bunzai("create", "lorebook", "--input", '{"name": "Lore"}').stdout, check=True)
    refused = bunzai("art", "lorebook/lore")
    assert refused.code == 1 and refused.json["error"]["code"] == "no_art"
    assert sorted(p.name for p in bunzai.home.iterdir()) == []
    assert bunzai("art", "nobody").json["error"]["code"] == "not_found"


def test_show_refuses_on_a_terminal_without_images(bunzai) -> None:
    _with_ada(bunzai)
    refused = bunzai("art", "ada", "--show")
    assert refused.code == 1 and refused.json["error"]["code"] == "no_inline_images"
    assert not (bunzai.home / "ada.png").exists()


def _on_terminal(bunzai, env: dict, *args: str) -> tuple[int, str, bytes]:
    """Runs bunzai with stderr on a pseudo-terminal (stdout piped), as a person's terminal would."""
    main, side = pty.openpty()
    proc = subprocess.run(
        bunzai_executable() + list(args),
        stdout=subprocess.PIPE,
        stderr=side,
        stdin=subprocess.DEVNULL,
        env=bunzai.env() | env,
        cwd=bunzai.home,
        timeout=60,
    )
    os.close(side)
    drawn = b""
    while True:
        try:
            chunk = os.read(main, 65536)
        except OSError:
            break
        if not chunk:
            break
        drawn += chunk
    os.close(main)
    return proc.returncode, proc.stdout.decode(), drawn


def test_show_draws_with_the_kitty_and_iterm2_protocols(bunzai) -> None:
    _with_ada(bunzai)
    code, out, drawn = _on_terminal(bunzai, {"TERM": "xterm-kitty"}, "art", "ada", "--show")
    assert code == 0, out
    assert '"shown":"kitty"' in out.replace(" ", "") and b"\x1b_Ga=T,f=100" in drawn
    assert not (bunzai.home / "ada.png").exists()  # --show alone writes no file
    code, out, drawn = _on_terminal(
        bunzai, {"TERM_PROGRAM": "iTerm.app", "TERM": "xterm"}, "art", "ada", "--show", "--out", "a.png"
    )
    assert code == 0 and b"\x1b]1337;File=inline=1" in drawn and (bunzai.home / "a.png").is_file()
    payload = drawn.split(b":", 1)[1].split(b"\x07")[0]
    assert base64.b64decode(payload) == (bunzai.home / "a.png").read_bytes()


def test_protocol_detection_and_escapes() -> None:
    assert protocol({"TERM": "xterm-kitty"}) == "kitty" and protocol({"KITTY_WINDOW_ID": "3"}) == "kitty"
    assert protocol({"TERM_PROGRAM": "iTerm.app"}) == "iterm2"
    assert protocol({"TERM": "xterm-256color"}) is None and protocol({}) is None
    big = bytes(range(256)) * 40  # 10 KB: several kitty chunks
    text = escape("kitty", big, "image/png")
    parts = text.strip().split("\x1b\\")[:-1]
    assert parts[0].startswith("\x1b_Ga=T,f=100,m=1;") and parts[-1].startswith("\x1b_Gm=0;")
    assert base64.b64decode("".join(part.split(";", 1)[1] for part in parts)) == big
    assert all(len(part.split(";", 1)[1]) <= 4096 for part in parts)
    assert can_draw("kitty", "image/png") and not can_draw("kitty", "image/webp") and can_draw("iterm2", "image/webp")


def test_a_pack_shows_the_item_with_its_default_face(bunzai) -> None:
    import json

    portrait = _with_ada(bunzai)
    items = [{"id": "a", "label": "joy", "asset": portrait}, {"id": "b", "label": "calm", "asset": portrait}]
    pack = {"name": "Faces", "body": {"items": items, "default_face": "calm"}}
    bunzai("apply", "--yes", input=bunzai("create", "pack", "--input", json.dumps(pack)).stdout, check=True)
    done = bunzai("art", "pack/faces", "--out", "face.png", check=True).json
    assert done["pointer"] == "/body/items/1/asset" and done["sha256"] == portrait["sha256"]


def test_a_portrait_stored_without_a_type_is_typed_by_its_bytes_then_a_fixed_table(monkeypatch) -> None:
    import mimetypes

    from bunzai.cli.art_cmd import _mime_of

    # never the machine's mime.types, which differs from one machine to the next
    monkeypatch.setattr(mimetypes, "types_map", {}, raising=True)
    monkeypatch.setattr(mimetypes, "guess_type", lambda *_a, **_k: (_ for _ in ()).throw(AssertionError("used")))
    assert _mime_of("bin", b"RIFF\0\0\0\0WEBPVP8 ") == "image/webp"
    assert _mime_of("png", b"\x89PNG\r\n\x1a\n") == "image/png"
    assert _mime_of("jxl", b"\xff\x0a") == "image/jxl"
    assert _mime_of("xyz", b"?") == "application/octet-stream"
