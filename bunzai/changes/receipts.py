"""Receipts: the one answer every write gives, whatever happened.

{"type": "bunzai.receipt", "status": "applied"|"stale"|"discarded"|"failed",
 "reason": <why, when not applied>, "op": ..., "target": {"kind", "id"},
 "revision": <stored revision after the write, or the current one when stale>,
 "seq": <change-log sequence of the write, or null>, ...}
"""

from __future__ import annotations

from bunzai.errors import CODES, BunzaiError
from bunzai.store.pieces import LIST_HINT_MCP

RECEIPT_TYPE = "bunzai.receipt"
STATUSES = ("applied", "stale", "discarded", "failed")


def receipt(
    status: str,
    *,
    op: str,
    target: dict,
    reason: str | None = None,
    revision: str | None = None,
    seq: int | None = None,
    **extra: object,
) -> dict:
    assert status in STATUSES
    doc = {
        "type": RECEIPT_TYPE,
        "status": status,
        "reason": reason,
        "op": op,
        "target": target,
        "revision": revision,
        "seq": seq,
    }
    doc.update(extra)
    return doc


def exit_code(receipts: list[dict]) -> int:
    """0 when every receipt applied or was discarded by the person; 1 when any was refused, or was
    written but not confirmed durable (`durable: false`: the disk failed the sync after it)."""
    return 0 if all(r["status"] in ("applied", "discarded") and r.get("durable") is not False for r in receipts) else 1


def refusal(receipts: list[dict], what: str, stale_hint: str) -> BunzaiError | None:
    """None when every receipt says applied; else the coded error a caller that answers a refusal
    as an error raises (an MCP tool: `isError`, where the CLI prints the receipts and exits 1),
    with every receipt in its details. The code is the first refused receipt's: `not_found` for
    a delete or bury of a piece that is not there, `stale` for a piece that changed (`stale_hint`
    then says what to do), the receipt's reason when that is a code, else `invalid_draft`. A receipt
    applied but not confirmed durable (`durable: false`) is refused too, with its warning's code."""
    refused = [done for done in receipts if done.get("status") != "applied" or done.get("durable") is False]
    if not refused:
        return None
    first = refused[0]
    warning = first.get("warning") if first.get("status") == "applied" else None
    if isinstance(warning, dict):
        return BunzaiError(
            str(warning["code"]), f"{what}: {warning['message']}", str(warning["hint"]), receipts=receipts
        )
    reason = str(first.get("reason") or "")
    if first.get("status") == "stale" and reason == "missing" and first.get("op") in ("delete", "bury"):
        code, hint = "not_found", LIST_HINT_MCP
    elif first.get("status") == "stale":
        code, hint = "stale", stale_hint
    else:
        code = reason if reason in CODES else "invalid_draft"
        hint = str(first.get("hint") or "see the receipt")
    return BunzaiError(code, f"{what} was refused: {first.get('message') or reason}", hint, receipts=receipts)
