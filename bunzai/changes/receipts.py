"""Receipts: the one answer every write gives, whatever happened.

{"type": "bunzai.receipt", "status": "applied"|"stale"|"discarded"|"failed",
 "reason": <why, when not applied>, "op": ..., "target": {"kind", "id"},
 "revision": <stored revision after the write, or the current one when stale>,
 "seq": <change-log sequence of the write, or null>, ...}
"""

from __future__ import annotations

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
    """0 when every receipt applied or was discarded by the person; 1 when any was refused."""
    return 0 if all(r["status"] in ("applied", "discarded") for r in receipts) else 1
