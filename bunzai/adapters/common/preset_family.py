"""The refusal of a preset crossing that keeps nothing of the piece but its name.

A preset of one family (an instruct template, a chat-completion preset ...) written as a
format with no field for any of its settings would be a file holding its name at most: an
empty preset on the platform, every field reported lost. SillyTavern's preset formats and
Marinara's refuse such a crossing alike (`unsupported`), naming the formats that keep the
piece's family. The test is made on what the piece itself writes, never on an escrow's
leftovers, which are not the piece's.
"""

from __future__ import annotations

from bunzai.errors import BunzaiError


def family_words(family: str) -> str:
    """A family id as words, with its article: `an instruct`, `a chat completion`."""
    words = family.replace("_", " ")
    return f"{'an' if words[:1] in ('a', 'e', 'i', 'o', 'u') else 'a'} {words}"


def carriers(family: str) -> list[str]:
    """The formats made for presets of `family` (the SillyTavern preset formats name theirs)."""
    from bunzai.adapters.registry import all_adapters

    return [adapter.format_id for adapter in all_adapters() if getattr(adapter, "family", None) == family]


def nothing_kept(format_id: str, label: str, family: str) -> BunzaiError:
    """The refusal of writing a preset of `family` as `format_id`, which keeps none of its settings."""
    formats = carriers(family)
    words = family_words(family)
    return BunzaiError(
        "unsupported",
        f"{format_id} ({label}) keeps nothing of {words} preset: the file would hold none of its settings",
        f"write {words} preset as {' or '.join(formats)}; bunzai.native keeps every field",
        family=family,
        formats=formats,
    )
