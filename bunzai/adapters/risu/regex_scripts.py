"""RisuAI custom scripts (`customscript`) <-> canonical regex rules.

A script is `{comment, in, out, type, flag?, ableFlag?}`. `type` names the one text it runs
on, mapped explicitly: editinput -> user_input, editoutput -> ai_output, editprocess ->
request, editdisplay -> display, edittrans -> translation, disabled -> the rule is off. A
markdown-only rule is written as editdisplay and a prompt-only one as editprocess (only_type).
The flag string is only read when `ableFlag` (else RisuAI uses `g`); it may embed
`<order N>`, `<cbs>`, `<move_top>` ... tokens (comma lists allowed), which RisuAI strips
before compiling. bunzai does the same: the JS letters become `flags` (a flag that was only
tokens reads as `g`; otherwise letters outside dgimsuvy dropped, repeats removed, none left ->
`u`, as RisuAI compiles them; a move, `<move_top>`/`<move_bottom>` or an OUT starting
`@@move_top`/`@@move_bottom`, first drops one `g`, and a written move that keeps `g` has it
twice), `<cbs>` is
`substitute_macros: raw`, and the other tokens travel in `extensions.risuai.flag_tokens`;
writing over the escrowed script keeps the flag string as written when it reads the same, and
empty flags are written `d` (RisuAI would compile an empty flag as `g`).
"""

from __future__ import annotations

import re
from typing import Any

from bunzai.adapters.common.drift import MISSING, as_bool, as_list, as_object, as_str
from bunzai.adapters.common.losses import LossRule
from bunzai.adapters.contract import Loss
from bunzai.jsondoc.values import copied
from bunzai.jstext import js_trim

EXT_KEY = "risuai"
TYPE_TO_PLACEMENT = {
    "editinput": "user_input",
    "editoutput": "ai_output",
    "editprocess": "request",
    "editdisplay": "display",
    "edittrans": "translation",
}
PLACEMENT_TO_TYPE = {value: key for key, value in TYPE_TO_PLACEMENT.items()}
_MAPPED = ("comment", "in", "out", "type", "flag", "ableFlag")
_TOKEN = re.compile(r"<(.+?)>")
_JS_FLAGS = "dgimsuvy"
# RisuAI compiles an empty flag as `g` (and one left empty by its filter as `u`, which changes the
# syntax); `d` alone only adds match indices, so it matches as no flags do: the first match only.
_FIRST_MATCH_ONLY = "d"
# The chat messages a markdown-only (shown) or prompt-only (sent) rule may run on, as one RisuAI type.
_SHOWN = {"user_input", "ai_output", "display"}
_SENT = {"user_input", "ai_output", "request"}
# Canonical rule fields a Risu script has no place for.
_NOT_CARRIED = ("id", "trim_strings", "markdown_only", "prompt_only", "run_on_edit", "min_depth", "max_depth")


def parse_flag(flag: Any, able: Any, out: Any = "") -> tuple[str, list[str]]:
    """(the JS flags RisuAI compiles a script with, the `<...>` tokens in order), as processScripts
    reads its `flag`, `ableFlag` and `out`: a move (`<move_top>`/`<move_bottom>`, or an OUT that
    starts `@@move_top`/`@@move_bottom`) drops the flags' first `g`, custom flags or not."""
    if not as_bool(able, False) or not isinstance(flag, str) or not flag:
        letters, tokens = "g", []
    else:
        letters, tokens = _split_flag(flag)
    if _moves(tokens, out):
        letters = letters.replace("g", "", 1)
    return _compiled(letters), tokens


_MOVES = ("move_top", "move_bottom")
_MOVE_DIRECTIVES = ("@@move_top", "@@move_bottom")


def _moves(tokens: list[str], out: Any) -> bool:
    return any(token in _MOVES for token in tokens) or (isinstance(out, str) and out.startswith(_MOVE_DIRECTIVES))


def _split_flag(flag: str) -> tuple[str, list[str]]:
    """(the field's letters once its tokens are taken out, the tokens): RisuAI's `flag || 'g'`
    is taken on what the tokens left."""
    if "<" not in flag:
        return flag, []
    tokens = [js_trim(part) for found in _TOKEN.findall(flag) for part in found.split(",")]  # JS trim: U+FEFF too
    return _TOKEN.sub("", flag) or "g", tokens


def _compiled(letters: str) -> str:
    """The flags RisuAI compiles `letters` with: JavaScript's letters only, each once, else `u`."""
    return "".join(dict.fromkeys(letter for letter in letters.strip() if letter in _JS_FLAGS)) or "u"


def risu_actions(tokens: list[str]) -> list[str]:
    """RisuAI's `pscript.actions` of a script: each token of its flag field but `<order N>`
    (processScriptFull), once. Any of them, `<cbs>` and `<no_end_nl>` too, puts the script on
    RisuAI's test-first path: it runs only where `reg.test` finds the pattern."""
    return list(dict.fromkeys(token for token in tokens if not token.startswith("order ")))


# What each token of the custom-flag field does that a lone pattern run over a text does not show
# (a move's words as regex-lab says them of @@move_top).
_MOVED = (
    "drops the flags' first g and moves the first match to a line of its own at the {where}; with a g left "
    "(gg), every match after the first instead, the first only taken out"
)
_ACTIONS = {
    "move_top": _MOVED.format(where="top"),
    "move_bottom": _MOVED.format(where="bottom"),
    "inject": "takes the matches out of the text it goes on with; the chat message keeps them",
    "repeat_back": "repeats a match of the same role's previous message when this one has none; "
    "not shown here, the lab has no earlier message",
}
_APPLIED = ("cbs", "no_end_nl")


def typed_flags(flags: str, out: str = "") -> dict[str, Any]:
    """A custom-flag field as typed in RisuAI's script editor (`regex-lab --platform risuai
    --flags`), for a script whose OUT is `out`, read as RisuAI's processScripts reads it: {flags:
    the JS flags it compiles with, cbs: whether the pattern's macros are expanded first,
    no_end_newline: `<no_end_nl>`, actions: RisuAI's `pscript.actions` (risu_actions), notes: the
    letters it drops and what its tokens do}."""
    compiled, tokens = parse_flag(flags, True, out)
    letters = _split_flag(flags)[0] if flags else ""
    notes = []
    dropped = sorted({letter for letter in letters if letter not in _JS_FLAGS and not letter.isspace()})
    if dropped:
        notes.append(f"RisuAI drops the letter(s) {', '.join(map(repr, dropped))}: not JavaScript flags")
    for token in dict.fromkeys(tokens):
        if token.startswith("order "):
            notes.append(f"<{token}> orders the rule among its set's scripts")
        elif token in _ACTIONS:
            notes.append(f"<{token}> {_ACTIONS[token]}")
        elif token not in _APPLIED:
            notes.append(f"<{token}> is no token RisuAI acts on, but it puts the rule on the test-first path")
    actions = risu_actions(tokens)
    if actions:
        sticky = "y" in compiled and "g" not in compiled
        notes.append(
            f"test-first path ({', '.join(f'<{token}>' for token in actions)}: any token but <order N>): RisuAI "
            "runs the rule only where reg.test finds the pattern, and leaves a text with no match as it is, its "
            "macros not expanded a second time"
            + (
                "; with y and no g the replacement starts where that test stopped, right after the first match"
                if sticky
                else ""
            )
        )
    return {
        "flags": compiled,
        "cbs": "cbs" in tokens,
        "no_end_newline": "no_end_nl" in tokens,
        "actions": actions,
        "notes": notes,
    }


def only_type(rule: dict) -> str:
    """editdisplay for a markdown-only rule on chat messages, editprocess for a prompt-only one
    (an output script would rewrite the stored chat); '' when neither says the rule."""
    kinds = set(rule["placements"])
    if rule["markdown_only"] and not rule["prompt_only"] and kinds and kinds <= _SHOWN:
        return "editdisplay"
    if rule["prompt_only"] and not rule["markdown_only"] and kinds and kinds <= _SENT:
        return "editprocess"
    return ""


def read_script(native: Any) -> dict:
    """One customscript -> a canonical RegexRule (JSON form)."""
    script = as_object(native)
    flags, tokens = parse_flag(script.get("flag"), script.get("ableFlag"), script.get("out"))
    kind = as_str(script.get("type"))
    extras = {key: copied(value) for key, value in script.items() if key not in _MAPPED}
    others = [token for token in tokens if token != "cbs"]
    if others:
        extras["flag_tokens"] = others
    if kind not in TYPE_TO_PLACEMENT and kind != "disabled":
        extras["type"] = script.get("type")
    return {
        "name": as_str(script.get("comment")),
        "pattern": as_str(script.get("in")),
        "replacement": as_str(script.get("out")),
        "flags": flags,
        "placements": [TYPE_TO_PLACEMENT[kind]] if kind in TYPE_TO_PLACEMENT else [],
        "disabled": kind == "disabled",
        "substitute_macros": "raw" if "cbs" in tokens else "none",
        "extensions": {EXT_KEY: extras} if extras else {},
    }


def write_script(base: Any, rule: dict) -> dict:
    """A customscript for `rule`, over `base` (an escrowed script) when there is one."""
    script = copied(base) if isinstance(base, dict) else {"comment": "", "in": "", "out": "", "type": "editoutput"}
    extras = dict(as_object(rule["extensions"].get(EXT_KEY)))
    tokens = as_list(extras.pop("flag_tokens", []))  # a file's own key of that name may hold anything
    raw_type = extras.pop("type", MISSING)
    for key in [key for key in script if key not in _MAPPED and key not in extras]:
        del script[key]
    for key, value in extras.items():
        if key not in _MAPPED and script.get(key, MISSING) != value:
            script[key] = copied(value)
    current = read_script(script)
    for field, key in (("name", "comment"), ("pattern", "in"), ("replacement", "out")):
        if current[field] != rule[field]:
            script[key] = rule[field]
    typed = "" if rule["disabled"] else only_type(rule)
    if (typed and script.get("type") != typed) or (
        current["placements"],
        current["disabled"],
        as_object(current["extensions"].get(EXT_KEY)).get("type", MISSING),
    ) != (rule["placements"], rule["disabled"], raw_type):
        script["type"] = _type_out(rule, raw_type)
    wanted_tokens = [token for token in tokens if isinstance(token, str)]
    if rule["substitute_macros"] != "none":
        wanted_tokens = ["cbs"] + wanted_tokens
    letters = rule["flags"] or _FIRST_MATCH_ONLY
    now_flags, now_tokens = parse_flag(script.get("flag"), script.get("ableFlag"), script.get("out"))
    if (now_flags, sorted(now_tokens)) != (letters, sorted(wanted_tokens)):
        # a move drops the first g RisuAI reads: a g the rule keeps is written twice
        doubled = "g" + letters if "g" in letters and _moves(wanted_tokens, script.get("out")) else letters
        script["flag"] = doubled + "".join(f"<{token}>" for token in wanted_tokens)
        script["ableFlag"] = True
    return script


def _type_out(rule: dict, raw_type: Any) -> Any:
    if rule["disabled"]:
        return "disabled"
    if only_type(rule):
        return only_type(rule)
    if rule["placements"] and rule["placements"][0] in PLACEMENT_TO_TYPE:
        return PLACEMENT_TO_TYPE[rule["placements"][0]]
    return "editoutput" if raw_type is MISSING else raw_type


# What script_losses names, at a regex set body's rules (/body/rules/<n>/...).
_RULE = r"/body/rules/\d+"
SCRIPT_NOT_CARRIED = LossRule(
    _RULE + "/(?:" + "|".join(_NOT_CARRIED) + ")",
    "dropped",
    "risu.regex.not_carried",
    "a RisuAI regex script has no such field",
)
DISABLED_TYPE = LossRule(
    _RULE + "/placements",
    "dropped",
    "risu.regex.disabled_type",
    "a disabled RisuAI script has type `disabled`, which forgets what it ran on",
)
PLACEMENT_FLATTENED = LossRule(
    _RULE + "/placements",
    "flattened",
    "risu.regex.placement",
    "a RisuAI script runs on one text (its type: input, output, request, display or translation); "
    "the others are dropped",
)
# A code means one action: a script with no placement gets one (translated), so it has its own code.
TYPE_DEFAULTED = LossRule(
    _RULE + "/placements",
    "translated",
    "risu.regex.type_defaulted",
    "a RisuAI script needs a type; it runs on AI output",
)
ONLY_TYPE = LossRule(
    _RULE + "/(?:placements|markdown_only|prompt_only)",
    "translated",
    "risu.regex.only_type",
    "a markdown-only rule is written as a display script and a prompt-only one as a request script, "
    "which RisuAI runs on every message shown or sent (the user's too), never changing the chat",
)
FLAGS_DEFAULTED = LossRule(
    _RULE + "/flags",
    "translated",
    "risu.regex.flags",
    "RisuAI compiles a script with no flags as `g` (every match); written as `d`, which like no flags "
    "replaces the first match only",
)
CBS_RAW = LossRule(
    _RULE + "/substitute_macros",
    "translated",
    "risu.regex.cbs_raw",
    "RisuAI's <cbs> substitutes macros raw, not regex-escaped",
)
SCRIPT_EXTENSIONS = LossRule(
    _RULE + "/extensions",
    "dropped",
    "risu.regex.extensions",
    "a RisuAI script keeps only its own keys (extensions.risuai)",
)


def script_losses(rule: dict, index: int, prefix: str, default: dict) -> list[Loss]:
    losses = []
    at = f"{prefix}/{index}"
    typed = "" if rule["disabled"] else only_type(rule)
    for field in _NOT_CARRIED:
        if rule[field] != default[field] and not (typed and field in ("markdown_only", "prompt_only")):
            losses.append(SCRIPT_NOT_CARRIED.at(f"{at}/{field}", f"a RisuAI regex script has no {field}"))
    if rule["disabled"] and rule["placements"]:
        losses.append(DISABLED_TYPE.at(f"{at}/placements"))
    elif typed:
        switch = "markdown_only" if typed == "editdisplay" else "prompt_only"
        losses += [ONLY_TYPE.at(f"{at}/{field}") for field in ("placements", switch)]
    elif len(rule["placements"]) > 1 or any(p not in PLACEMENT_TO_TYPE for p in rule["placements"]):
        losses.append(PLACEMENT_FLATTENED.at(f"{at}/placements"))
    elif (
        not rule["placements"]
        and not rule["disabled"]
        and as_object(rule["extensions"].get(EXT_KEY)).get("type", MISSING) is MISSING
    ):
        losses.append(TYPE_DEFAULTED.at(f"{at}/placements"))
    if rule["flags"] == "":
        losses.append(FLAGS_DEFAULTED.at(f"{at}/flags"))
    if rule["substitute_macros"] == "escaped":
        losses.append(CBS_RAW.at(f"{at}/substitute_macros"))
    other = {key: value for key, value in rule["extensions"].items() if key != EXT_KEY}
    if other:
        losses.append(SCRIPT_EXTENSIONS.at(f"{at}/extensions"))
    return losses
