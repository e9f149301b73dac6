"""The escrow loss in the words of where the crossing runs: `transfer` and `export` cross a stored
piece, whose original stays in the studio's escrow; `convert` has no studio, so nothing keeps what
the target does not carry but the file converted (it used to speak of "the studio's escrow")."""

from __future__ import annotations

import pytest

from testkit import v2_card_png


def _escrow(report: dict) -> dict:
    (loss,) = [loss for loss in report["losses"] if loss["code"] == "escrow.other_format"]
    return loss


@pytest.mark.parametrize(("target", "written_to"), [("ccv2.json", "ccv2.json"), ("charx", "a CHARX")])
def test_convert_says_no_studio_keeps_the_rest(bunzai, tmp_path, target, written_to) -> None:
    card = tmp_path / "Ada.png"
    card.write_bytes(v2_card_png("Ada", description="Ada keeps the lighthouse."))
    report = bunzai("convert", str(card), "--to", target, "-o", str(tmp_path / "out"), check=True).json
    loss = _escrow(report)
    assert loss["action"] == "dropped" and "studio's escrow" not in loss["why"]
    assert loss["why"] == (
        f"what the sillytavern.card.png file held beyond the canonical fields"
        f"{' (its escrowed document and files)' if target == 'charx' else ''} is not written to {written_to}: "
        "with no studio, only the file converted keeps it"
    )


def test_transfer_keeps_the_studio_words(bunzai, tmp_path) -> None:
    card = tmp_path / "Ada.png"
    card.write_bytes(v2_card_png("Ada", description="Ada keeps the lighthouse."))
    bunzai("apply", "--yes", input=bunzai("import", str(card), check=True).stdout, check=True)
    loss = _escrow(bunzai("transfer", "ada", "--to", "ccv2.json", check=True).json)
    assert loss["action"] == "kept_in_escrow"
    assert loss["why"] == (
        "what the sillytavern.card.png file held beyond the canonical fields stays in the studio's escrow "
        "and is not written to ccv2.json"
    )
