"""Through the installed command: a restore of a buried card whose media were removed by hand
says so in its receipt (the piece comes back all the same), and the hint's remedy mends it."""

from __future__ import annotations

from testkit import big_card


def _bury_card(bunzai) -> tuple[str, dict]:
    card = bunzai.home / "nova.png"
    card.write_bytes(big_card("Nova"))
    bunzai("apply", "--yes", input=bunzai("import", str(card)).stdout, check=True)
    piece = bunzai("read", "nova", check=True).json["piece"]
    return bunzai("bury", "nova", check=True).json["entry"], piece


def test_a_restore_whose_portrait_is_gone_is_applied_with_a_warning_and_mended_by_its_hint(bunzai) -> None:
    entry, piece = _bury_card(bunzai)
    portrait = piece["body"]["portrait"]
    asset = f"{portrait['sha256']}.{portrait['ext']}"
    (bunzai.studio / "assets" / asset).unlink()
    done = bunzai("graveyard", "restore", entry)
    assert done.code == 0, done.stderr
    assert done.json["status"] == "applied"
    assert asset in [gone["asset"] for gone in done.json["missing_media"]]
    assert done.json["warning"]["code"] == "not_found"
    assert "character/nova is back" in done.json["warning"]["message"]
    assert "--on-conflict suffix" in done.json["warning"]["hint"]
    assert bunzai("read", "nova", check=True).json["piece"] == piece
    assert bunzai("art", "nova", "--out", str(bunzai.home / "art.png")).code == 1
    # The hint's remedy: the card again under another id, that copy deleted; the media stay.
    again = bunzai("import", str(bunzai.home / "nova.png"), "--on-conflict", "suffix", check=True).stdout
    copy = bunzai("apply", "--yes", input=again, check=True).json["target"]["id"]
    bunzai("delete", copy, "--yes", check=True)
    assert bunzai("art", "nova", "--out", str(bunzai.home / "art.png"), check=True).json["size"] > 0
    assert bunzai("doctor", check=True).json["clean"]


def test_a_restore_with_its_media_in_place_says_nothing_of_them(bunzai) -> None:
    entry, _piece = _bury_card(bunzai)
    done = bunzai("graveyard", "restore", entry, check=True).json
    assert "missing_media" not in done and "warning" not in done
