"""The loss of a SillyTavern regex script a character carries into an app that never runs one.

A card keeps SillyTavern's regex scripts in `extensions.regex_scripts` (read as the character's
`behavior_scripts` of format `sillytavern.regex`), and a card file written for Agnai, RisuAI or
Marinara keeps them there for other apps; none of those apps runs them. Each format names the
loss with its own code and its own sentence, which names the script where `{script}` stands.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bunzai.adapters.common.losses import LossRule
from bunzai.adapters.contract import Loss

ST_REGEX = "sillytavern.regex"
SCRIPT = "a SillyTavern regex script"  # how a sentence names a script without a name (and the rule's)
_AT = "/body/behavior_scripts"


def st_regex_rule(code: str, sentence: str, script: str = SCRIPT) -> LossRule:
    """The rule of a format whose app never runs a SillyTavern regex script; its sentence names
    `script` (by default any script) where `{script}` stands."""
    return LossRule(_AT + r"/\d+", "dropped", code, sentence.replace("{script}", script))


def script_named(script: Any) -> str:
    """How a sentence names one script: by its name, or as any script when it has none."""
    return f"the SillyTavern regex script {script.name!r}" if script.name else SCRIPT


def st_regex_not_run(
    piece: Any, rule: LossRule, sentence: str, held: Callable[[int, Any], bool] | None = None
) -> list[Loss]:
    """A loss per SillyTavern regex script of a character, at its place in `behavior_scripts`,
    naming it in `sentence`; `held(index, script)` passes over the scripts that are no news
    (those the file the character was read from already held)."""
    return [
        rule.at(f"{_AT}/{index}", sentence.replace("{script}", script_named(script)))
        for index, script in enumerate(piece.body.behavior_scripts)
        if script.format == ST_REGEX and not (held is not None and held(index, script))
    ]
