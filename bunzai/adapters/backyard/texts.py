"""What Backyard's character documents share, old and new: lore items, dates, example chats, placeholders.

- Lore items are key -> value pairs, one key each: an item reads as a lorebook entry with
  one key; an entry with more keys, secondary keys or other settings loses them (reported
  by the writers from what the file reads back as).
- Dates are ISO-8601 strings; the canonical model keeps unix seconds.
- Example chats: BYAF keeps a list of texts; canonically they are one string, blocks
  separated by `<START>` lines (a single text stays as it is).
- Placeholders are single-brace `{character}` / `{user}`. bunzai copies them as written in
  both directions and says so: on reading (a warning) and on writing `{{...}}` macros into
  a Backyard file (a loss, `backyard.placeholders.double_brace`).
"""

from __future__ import annotations

import re
from typing import Any

from bunzai.adapters.common.drift import as_str, iso_seconds, iso_time
from bunzai.adapters.common.losses import LossRule
from bunzai.adapters.contract import Loss

SINGLE_BRACE = re.compile(r"(?<!\{)\{(?:character|user)\}(?!\})")
DOUBLE_BRACE = re.compile(r"\{\{[^{}]*\}\}")
START = re.compile(r"^<START>[ \t]*$", re.MULTILINE)
# A date the schema requires but the piece does not know.
FALLBACK_DATE = "2000-01-01T00:00:00.000Z"
# Canonical text fields a Backyard document carries, for the placeholder notes.
TEXT_FIELDS = ("description", "scenario", "first_message", "example_messages", "system_prompt")

LORE_DISABLED = LossRule(
    r"/body/book/entries(?:/\d+)?",
    "dropped",
    "backyard.lore.disabled",
    "Backyard lore items are always active, so a disabled entry is not written",
)
DOUBLE_BRACE_KEPT = LossRule(
    r"/body/(?:" + "|".join(TEXT_FIELDS) + r"|book/entries/\d+/content)",
    "flattened",
    "backyard.placeholders.double_brace",
    "copied as written: Backyard expands only {character} and {user}, so {{...}} macros reach the model as "
    "literal text; bunzai does not rewrite them",
)


def iso_of(seconds: int | None, prior: Any) -> str:
    """The ISO string for `seconds`: the prior string when it reads as the same second."""
    if seconds is None:
        return prior if isinstance(prior, str) and iso_seconds(prior) is None and prior else FALLBACK_DATE
    if iso_seconds(prior) == seconds:
        return prior
    return iso_time(seconds)


def book_of(items: Any) -> dict | None:
    """Lore items -> a canonical embedded book (None when there are none)."""
    if not isinstance(items, list):
        return None
    entries = [
        {"uid": index, "keys": [{"text": as_str(item.get("key"))}], "content": as_str(item.get("value"))}
        for index, item in enumerate(i for i in items if isinstance(i, dict))
    ]
    return {"name": "", "entries": entries} if entries else None


def lore_items(book: dict | None, prior: Any) -> list[dict]:
    """A canonical book -> lore items; an item whose key and value did not change is kept as it was."""
    if book is None:
        return []
    old = [item for item in prior if isinstance(item, dict)] if isinstance(prior, list) else []
    out = []
    for entry in book["entries"]:
        if not entry["enabled"]:
            continue
        key = entry["keys"][0]["text"] if entry["keys"] else ""
        index = len(out)
        if (
            index < len(old)
            and as_str(old[index].get("key")) == key
            and as_str(old[index].get("value")) == entry["content"]
        ):
            out.append(old[index])
        else:
            out.append({"key": key, "value": entry["content"]})
    return out


def disabled_entry_losses(book: dict | None) -> list[Loss]:
    if book is None:
        return []
    losses = [
        LORE_DISABLED.at(f"/body/book/entries/{index}")
        for index, entry in enumerate(book["entries"])
        if not entry["enabled"]
    ]
    if losses:  # the list as a whole reads back shorter
        why = f"{len(losses)} disabled entries are not written, so the entries read back fewer (each is named below)"
        losses.insert(0, LORE_DISABLED.at("/body/book/entries", why))
    return losses


def examples_of(texts: list[str]) -> str:
    if len(texts) <= 1:
        return texts[0] if texts else ""
    return "\n".join(f"<START>\n{text}" for text in texts)


def example_texts(canonical: str) -> list[str]:
    if not canonical.strip():
        return []
    if not START.search(canonical):
        return [canonical]
    return [block.strip("\n") for block in START.split(canonical) if block.strip()]


def single_brace_warning(body: dict) -> list[str]:
    fields = [field for field in TEXT_FIELDS if SINGLE_BRACE.search(body.get(field) or "")]
    book = body.get("book") or {}
    if any(SINGLE_BRACE.search(entry["content"]) for entry in book.get("entries", [])):
        fields.append("book")
    if not fields:
        return []
    return [
        f"backyard.placeholders.single_brace: {', '.join(fields)} use Backyard's single-brace {{character}} / "
        "{user} placeholders; they are kept as written (other platforms expand {{char}} / {{user}}, "
        "not these)"
    ]


def double_brace_losses(body: dict) -> list[Loss]:
    """A note for each text holding `{{...}}` macros, which Backyard does not expand."""
    places = [(f"/body/{field}", body[field]) for field in TEXT_FIELDS]
    if body.get("book"):
        places += [(f"/body/book/entries/{i}/content", e["content"]) for i, e in enumerate(body["book"]["entries"])]
    losses = []
    for pointer, text in places:
        found = sorted(set(DOUBLE_BRACE.findall(text or "")))
        if found:
            why = (
                f"copied as written: Backyard expands only {{character}} and {{user}}, so "
                f"{', '.join(found[:5])} reach the model as literal text; bunzai does not rewrite them"
            )
            losses.append(DOUBLE_BRACE_KEPT.at(pointer, why))
    return losses
