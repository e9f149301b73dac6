"""Translate a 200 KB preset-like text from SillyTavern to each other engine, beside a floor.

The floor is what any translator of the text does at least: find each macro and look its new
spelling up in a table, in Python (one `re.sub` with a dict lookup per token). Each target's
translation and the floor are timed in the same process, alternating, and each one's least CPU
time of the rounds is kept: their ratio moves less with the machine's load than either time.
(The script's first goal, under 0.05 s a translation, was an absolute time on the machine of
its day; docs/benchmarks.md keeps the ratios.)

Run: python bench/translate.py [--kb 200] [--rounds 5]
"""

from __future__ import annotations

import argparse
import re
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
_TOKEN = re.compile(r"\{\{[^{}]*\}\}")  # a macro with no macro inside it
_TABLE = {token: token.upper() for token in _TOKEN.findall(PROMPT)}


def floor(text: str) -> str:
    """Each macro looked up in a table and replaced: the least a translation of the text does."""
    return _TOKEN.sub(lambda match: _TABLE.get(match.group(0), match.group(0)), text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kb", type=int, default=200, help="the text's size in KB")
    parser.add_argument("--rounds", type=int, default=5, help="timed rounds of each, alternating")
    options = parser.parse_args()
    text = PROMPT * (options.kb * 1024 // len(PROMPT) + 1)
    started = time.process_time()
    all_catalogs()
    print(f"catalogs loaded in {time.process_time() - started:.3f} s")
    for target in sorted(all_catalogs()):
        if target == "sillytavern":
            continue
        ours, least = float("inf"), float("inf")
        for _ in range(options.rounds):
            ours = min(ours, _timed(lambda target=target: translate_text(text, "sillytavern", target)))
            least = min(least, _timed(lambda: floor(text)))
        verdicts = len(translate_text(text, "sillytavern", target).verdicts)
        print(
            f"{len(text) // 1024} KB sillytavern -> {target:<19} {ours:.4f} s, floor {least:.4f} s: "
            f"{ours / least:.1f}x the floor ({verdicts} verdicts)"
        )


def _timed(run) -> float:
    started = time.process_time()
    run()
    return time.process_time() - started


if __name__ == "__main__":
    main()
