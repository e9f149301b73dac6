"""Time translating a 200 KB preset-like text from SillyTavern to each other engine.

Goal: under 0.05 s per translation once the catalogs are loaded. Run: python bench/translate.py
"""

from __future__ import annotations

import time

from bunzai.macros.catalog import all_catalogs
from bunzai.macros.translate import translate_text

PROMPT = (
    "You are {{char}}, talking with {{user}}. {{description}}\n{{personality}}\n{{scenario}}\n"
    "{{#if persona}}About {{user}}: {{persona}}{{else}}Nothing is known of {{user}}.{{/if}}\n"
    "Mood: {{getvar::mood}}{{setvar::turn::{{lastMessageId}}}} Roll {{roll::1d20}} and pick "
    "{{random::left::right::ahead}}. {{// keep it short}}{{original}}\n"
    "Write the next reply in {{random::2::3}} paragraphs; {{time}} on {{weekday}}. {{trim}}\n\n"
)
TARGET_BYTES = 200 * 1024


def main() -> None:
    text = PROMPT * (TARGET_BYTES // len(PROMPT) + 1)
    started = time.perf_counter()
    all_catalogs()
    print(f"catalogs loaded in {time.perf_counter() - started:.3f} s")
    for target in sorted(all_catalogs()):
        if target == "sillytavern":
            continue
        best = min(_timed(text, target) for _ in range(5))
        result = translate_text(text, "sillytavern", target)
        print(f"{len(text) // 1024} KB sillytavern -> {target:<19} {best:.4f} s  ({len(result.verdicts)} verdicts)")


def _timed(text: str, target: str) -> float:
    started = time.perf_counter()
    translate_text(text, "sillytavern", target)
    return time.perf_counter() - started


if __name__ == "__main__":
    main()
