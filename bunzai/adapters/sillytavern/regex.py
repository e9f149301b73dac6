"""SillyTavern regex scripts: one script object per file (as ST exports), or an array (bulk).

A file becomes one RegexSet: a single script gives a set of one rule named after the
script, an array gives a set named after the file. Patterns are parsed the way ST parses
`findRegex` (a bare pattern has no flags) and stored, never executed. Writing back to
this format starts from the escrowed scripts, so unknown keys survive; each native value
is rewritten only when its canonical value changed. Rules carrying RisuAI `<order N>` tokens
are written in the order RisuAI runs them, since SillyTavern runs scripts in list order.
"""

from __future__ import annotations

import re
import uuid
from pathlib import PurePath
from typing import Any

from bunzai.adapters.common.drift import as_bool, as_int, as_str, as_str_list
from bunzai.adapters.common.losses import LossRule
from bunzai.adapters.common.naming import piece_id_for
from bunzai.adapters.contract import Adapter, Decoded, Encoded, Loss, MediaSource
from bunzai.adapters.inspect import parse_text
from bunzai.adapters.registry import register
from bunzai.adapters.sillytavern.st_json import native_json_bytes
from bunzai.errors import BunzaiError
from bunzai.model.base import Escrow
from bunzai.model.regex import RegexRule, RegexSet, RegexSetBody

FORMAT_ID = "sillytavern.regex"

# ST's regex_placement; 0 (markdown display) and 4 (sendAs) are legacy values ST migrates.
_PLACEMENT_IN = {
    0: "display",
    1: "user_input",
    2: "ai_output",
    3: "slash_command",
    4: "slash_command",
    5: "world_info",
    6: "reasoning",
}
_PLACEMENT_OUT = {"user_input": 1, "ai_output": 2, "slash_command": 3, "world_info": 5, "reasoning": 6}
# A display-only rule (RisuAI's editdisplay): 0 is legacy, which SillyTavern migrates in global
# scripts only (to every placement, markdown and prompt only), so a card's rule would never run.
_DISPLAY_OUT = (1, 2)
# A request-only rule (RisuAI's editprocess: each chat message as it is sent) is SillyTavern's
# prompt-only rule on user input and AI output; beside a placement that edits the stored chat
# it cannot be said (prompt only would stop that edit), so it is dropped there.
_REQUEST_OUT = (1, 2)
_STORED = {"user_input", "ai_output", "slash_command", "world_info", "reasoning"}
_SUBSTITUTE_IN = {0: "none", 1: "raw", 2: "escaped"}
_SUBSTITUTE_OUT = {"none": 0, "raw": 1, "escaped": 2}
# regexFromString: /(\/?)(.+)\1([a-z]*)/i, unanchored; JS `.` stops at line terminators
# and a JS `i` never folds non-ASCII letters into [a-z].
_ST_LITERAL = re.compile(r"(/?)([^\n\r\u2028\u2029]+)\1([a-zA-Z]*)")
_ST_FLAGS = set("gmixXsuUAJ")  # what ST lets through to RegExp; others make it use the whole string
_JS_FLAGS = set("dgimsuvy")
_LINE_BREAK = re.compile(r"(\\*)([\n\r\u2028\u2029])")
_RISU_ORDER_NUMBER = re.compile(r"\s*([+-]?\d+)")
_BREAK_ESCAPES = {"\n": "\\n", "\r": "\\r", "\u2028": "\\u2028", "\u2029": "\\u2029"}

# What the writer names: the set's name and fields, then each rule's (/body/rules/<n>/...).
SET_NAME_SCRIPT_NAME = LossRule(
    "/name", "dropped", "regex.set.name.script_name", "a single-script file is named by its scriptName"
)
SET_NAME_FILE_NAME = LossRule(
    "/name",
    "dropped",
    "regex.set.name.file_name",
    "a file of several regex scripts has no name of its own; SillyTavern names the set by the file",
)
SET_FIELD_DROPPED = {
    **{
        field: LossRule(
            f"/body/{field}", "dropped", f"regex.set.{field}.dropped", f"SillyTavern regex files have no set {field}"
        )
        for field in ("description", "extensions")
    },
    **{
        field: LossRule(
            f"/{field}", "dropped", f"regex.set.{field}.dropped", f"SillyTavern regex files carry no {field}"
        )
        for field in ("profiles", "assets")
    },
}
_RULE = r"/body/rules/\d+"
RULE_ID_GENERATED = LossRule(
    _RULE + "/id", "translated", "regex.rule.id.generated", "SillyTavern needs a script id; a stable uuid was made"
)
RULE_NAME_FILLED = LossRule(
    _RULE + "/name", "translated", "regex.rule.name.filled", "SillyTavern needs a scriptName; the set's name was used"
)
RULE_EXTENSIONS_DROPPED = LossRule(
    _RULE + "/extensions",
    "dropped",
    "regex.rule.extensions.dropped",
    "SillyTavern regex scripts have no extensions object",
)
RULE_FLAGS_DROPPED = LossRule(
    _RULE + "/flags",
    "dropped",
    "regex.rule.flags.dropped",
    "SillyTavern accepts each of its flags once, and none on an empty pattern",
)
PATTERN_LINE_BREAKS = LossRule(
    _RULE + "/pattern",
    "translated",
    "regex.rule.pattern.line_breaks",
    "SillyTavern patterns cannot hold line breaks; they were written as escapes (\\n) that match the same characters",
)
PATTERN_REREAD = LossRule(
    _RULE + "/pattern",
    "translated",
    "regex.rule.pattern.reread",
    "SillyTavern reads the written pattern differently from the pattern as stored",
)
PLACEMENT_REPEATED = LossRule(
    _RULE + "/placements", "translated", "regex.rule.placement.repeated", "a placement listed twice is read back once"
)
PLACEMENT_DISPLAY = LossRule(
    _RULE + "/placements",
    "translated",
    "regex.rule.placement.display",
    "SillyTavern has no display placement that every script runs on; the rule was written to alter the display "
    "of user input and AI output (markdown only)",
)
DISPLAY_MARKDOWN_ONLY = LossRule(
    _RULE + "/markdown_only",
    "translated",
    "regex.rule.placement.display",
    "a display rule is written markdown only: SillyTavern alters only the shown text",
)
PLACEMENT_REQUEST = LossRule(
    _RULE + "/placements",
    "translated",
    "regex.rule.placement.request",
    "SillyTavern has no request placement; the rule was written to alter user input and AI output in the prompt "
    "only, as RisuAI alters each message it sends",
)
REQUEST_PROMPT_ONLY = LossRule(
    _RULE + "/prompt_only",
    "translated",
    "regex.rule.placement.request",
    "a request rule is written prompt only: SillyTavern alters only the text it sends",
)
RULE_RUN_ORDER = LossRule(
    "/body/rules",
    "translated",
    "regex.rule.order.risu",
    "RisuAI runs rules with an <order N> flag token first (highest N first); SillyTavern runs scripts "
    "in list order, so the rules were written in the order RisuAI runs them",
)
PLACEMENT_UNSUPPORTED = LossRule(
    _RULE + "/placements", "dropped", "regex.rule.placement.unsupported", "SillyTavern has no such placement"
)


def parse_find_regex(text: str) -> tuple[str, str, list[str]]:
    """(pattern, flags, warnings) as SillyTavern reads a findRegex string."""
    match = _ST_LITERAL.search(text)
    if match is None:
        return text, "", []
    warnings = []
    if match.group(0) != text:
        warnings.append(f"SillyTavern reads only {match.group(0)!r} of the pattern {text!r} (line breaks end it)")
    pattern, flags = match.group(2), match.group(3)
    if flags and (len(set(flags)) != len(flags) or not set(flags) <= _ST_FLAGS):
        return text, "", warnings  # ST hands the whole string to RegExp as a bare pattern
    kept = "".join(flag for flag in flags if flag in _JS_FLAGS)
    if kept != flags:
        warnings.append(f"flags {flags!r} of {text!r}: only {kept!r} exist in JavaScript; the others are dropped")
    return pattern, kept, warnings


def format_find_regex(pattern: str, flags: str) -> str:
    """The `/pattern/flags` string SillyTavern reads back as (pattern, flags)."""
    return f"/{pattern}/{flags}" if pattern else ""


def _escape_line_breaks(pattern: str) -> str:
    # A line break may not appear in an ST pattern; its escape matches the same character.
    def escape(match: re.Match) -> str:
        slashes = match.group(1)
        slashes = slashes[:-1] if len(slashes) % 2 else slashes  # "\<LF>" is LF too
        return slashes + _BREAK_ESCAPES[match.group(2)]

    return _LINE_BREAK.sub(escape, pattern)


def _depth(value: Any, lowest: int) -> int | None:
    """minDepth/maxDepth: int, null, NaN (null in JSON), '' or a numeric string."""
    number = as_int(value)
    return number if number is not None and number >= lowest else None


def _substitute(value: Any) -> str:
    if isinstance(value, bool):
        return "raw" if value else "none"
    return _SUBSTITUTE_IN.get(as_int(value), "none")


def _placements(value: Any, warnings: list[str], where: str) -> list[str]:
    out: list[str] = []
    for item in value if isinstance(value, list) else []:
        placement = _PLACEMENT_IN.get(as_int(item))
        if placement is None:
            warnings.append(f"{where}: placement {item!r} is not one SillyTavern knows; kept in escrow only")
        elif placement not in out:
            out.append(placement)
    return out


def rule_from_script(script: dict, warnings: list[str], where: str) -> RegexRule:
    """One ST script -> one canonical rule (type drift normalised, native kept in escrow)."""
    find = script.get("findRegex")
    pattern, flags, found = parse_find_regex(find if isinstance(find, str) else "")
    warnings += [f"{where}: {text}" for text in found]
    return RegexRule(
        id=as_str(script.get("id")),
        name=as_str(script.get("scriptName")),
        pattern=pattern,
        flags=flags,
        replacement=as_str(script.get("replaceString")),
        trim_strings=as_str_list(script.get("trimStrings")),
        placements=_placements(script.get("placement"), warnings, where),
        disabled=bool(as_bool(script.get("disabled"))),
        markdown_only=bool(as_bool(script.get("markdownOnly"))),
        prompt_only=bool(as_bool(script.get("promptOnly"))),
        run_on_edit=bool(as_bool(script.get("runOnEdit"))),
        substitute_macros=_substitute(script.get("substituteRegex")),
        min_depth=_depth(script.get("minDepth"), -1),
        max_depth=_depth(script.get("maxDepth"), 0),
    )


def _scripts_of(document: Any) -> list[dict]:
    scripts = document if isinstance(document, list) else [document]
    if not all(isinstance(script, dict) for script in scripts):
        raise BunzaiError(
            "invalid_input",
            "a regex script file holds a script object or an array of them",
            "export the scripts again from SillyTavern's Regex panel",
        )
    return scripts


class SillyTavernRegex(Adapter):
    format_id = FORMAT_ID
    label = "SillyTavern regex script"
    engine = "sillytavern"  # SillyTavern expands the macros in every replaceString
    kinds = ("regex",)
    extensions = (".json",)
    container = "text"

    def sniff(self, data: bytes, name: str, parsed: Any) -> float:
        items = parsed if isinstance(parsed, list) else [parsed]
        if not items or not all(isinstance(item, dict) for item in items):
            return 0.0
        if all("findRegex" in item and ("scriptName" in item or "replaceString" in item) for item in items):
            return 0.95
        return 0.0

    def read(self, data: bytes, name: str, parsed: Any) -> Decoded:
        if parsed is None:
            parsed = parse_text(data, name)
        scripts = _scripts_of(parsed)
        warnings: list[str] = []
        rules = [rule_from_script(script, warnings, f"script {index + 1}") for index, script in enumerate(scripts)]
        stem = PurePath(name).stem
        title = (rules[0].name or stem) if isinstance(parsed, dict) else stem
        piece = RegexSet(
            id=piece_id_for(title, name, "regex"),
            name=title,
            body=RegexSetBody(rules=rules),
            original=Escrow(format=FORMAT_ID, document=parsed),
        )
        return Decoded(pieces=[piece], warnings=warnings)

    def write(self, piece: RegexSet, media: MediaSource) -> Encoded:
        losses: list[Loss] = []
        original = piece.original.document if piece.original and piece.original.format == FORMAT_ID else None
        escrowed = _scripts_of(original) if original is not None else []
        scripts = [
            script_from_rule(rule, dict(base or {}), piece, index, losses)
            for index, (rule, base) in enumerate(zip(piece.body.rules, _bases(piece.body.rules, escrowed)))
        ]
        scripts = _in_run_order(piece.body.rules, scripts, losses)
        single = len(scripts) == 1 and not isinstance(original, list)
        document: Any = scripts[0] if single else scripts
        # An array file is named by its file, which the crossing names (and drops this loss
        # when that name is the piece's): declared always, since the writer cannot see it.
        if not single or piece.name != as_str(scripts[0].get("scriptName")):
            losses.append((SET_NAME_SCRIPT_NAME if single else SET_NAME_FILE_NAME).at("/name"))
        for field in ("description", "extensions"):
            if getattr(piece.body, field):
                losses.append(SET_FIELD_DROPPED[field].at(f"/body/{field}"))
        for field in ("profiles", "assets"):
            if getattr(piece, field):
                losses.append(SET_FIELD_DROPPED[field].at(f"/{field}"))
        return Encoded(native_json_bytes(document), losses)


def _bases(rules: list[RegexRule], escrowed: list[dict]) -> list[dict | None]:
    """The escrowed script each rule is written over: the one with its id, else the one at its place."""
    by_id = {script["id"]: script for script in escrowed if isinstance(script.get("id"), str) and script["id"]}
    claimed = {id(by_id[rule.id]) for rule in rules if rule.id in by_id}
    bases: list[dict | None] = []
    for index, rule in enumerate(rules):
        base = by_id.get(rule.id)
        if base is None and index < len(escrowed) and id(escrowed[index]) not in claimed:
            base = escrowed[index]
        bases.append(base)
    return bases


def script_from_rule(rule: RegexRule, script: dict, piece: RegexSet, index: int, losses: list[Loss]) -> dict:
    """Canonical rule over the escrowed script (or a new one): a native value is rewritten
    only when it no longer reads back as the canonical value, so drift survives untouched."""
    at = f"/body/rules/{index}"
    fresh = not script
    previous = rule_from_script(script, [], "") if script else None

    def changed(field: str) -> bool:
        return fresh or getattr(previous, field) != getattr(rule, field)

    if fresh or previous.id != rule.id:
        script["id"] = rule.id or str(uuid.uuid5(uuid.NAMESPACE_URL, f"bunzai:{piece.id}:{index}"))
        if not rule.id:
            losses.append(RULE_ID_GENERATED.at(f"{at}/id"))
    if changed("name") or not isinstance(script.get("scriptName"), str):  # a script SillyTavern can list
        title = piece.name or piece.id
        script["scriptName"] = rule.name or (title if len(piece.body.rules) == 1 else f"{title} {index + 1}")
        if not rule.name:
            losses.append(RULE_NAME_FILLED.at(f"{at}/name"))
    if changed("pattern") or changed("flags") or not isinstance(script.get("findRegex"), str):
        script["findRegex"] = _find_regex_for(rule, at, losses)
    if changed("replacement"):
        script["replaceString"] = rule.replacement
    if changed("trim_strings"):
        script["trimStrings"] = list(rule.trim_strings)
    if changed("placements"):
        script["placement"] = _placement_out(rule, at, losses)
    for field, key in (
        ("disabled", "disabled"),
        ("markdown_only", "markdownOnly"),
        ("prompt_only", "promptOnly"),
        ("run_on_edit", "runOnEdit"),
    ):
        if changed(field):
            script[key] = getattr(rule, field)
    if changed("substitute_macros"):
        script["substituteRegex"] = _SUBSTITUTE_OUT[rule.substitute_macros]
    if changed("min_depth"):
        script["minDepth"] = rule.min_depth
    if changed("max_depth"):
        script["maxDepth"] = rule.max_depth
    if changed("placements") and "display" in rule.placements and not rule.markdown_only:
        script["markdownOnly"] = True
        losses.append(DISPLAY_MARKDOWN_ONLY.at(f"{at}/markdown_only"))
    if changed("placements") and _request_written(rule) and not rule.prompt_only:
        script["promptOnly"] = True
        losses.append(REQUEST_PROMPT_ONLY.at(f"{at}/prompt_only"))
    if rule.extensions:
        losses.append(RULE_EXTENSIONS_DROPPED.at(f"{at}/extensions"))
    return script


def _find_regex_for(rule: RegexRule, at: str, losses: list[Loss]) -> str:
    flags = "".join(dict.fromkeys(flag for flag in rule.flags if flag in _ST_FLAGS))
    pattern = _escape_line_breaks(rule.pattern)
    if not pattern:
        flags = ""
    if flags != rule.flags:
        why = (
            f"SillyTavern accepts each of the flags {''.join(sorted(_ST_FLAGS & _JS_FLAGS))} "
            f"once, and none on an empty pattern; {rule.flags!r} was written as {flags!r}"
        )
        losses.append(RULE_FLAGS_DROPPED.at(f"{at}/flags", why))
    if pattern != rule.pattern:
        losses.append(PATTERN_LINE_BREAKS.at(f"{at}/pattern"))
    written = format_find_regex(pattern, flags)
    if parse_find_regex(written)[:2] != (pattern, flags):
        why = f"SillyTavern reads {written!r} differently from the pattern as stored"
        losses.append(PATTERN_REREAD.at(f"{at}/pattern", why))
    return written


def _placement_out(rule: RegexRule, at: str, losses: list[Loss]) -> list[int]:
    out = [_PLACEMENT_OUT[p] for p in rule.placements if p in _PLACEMENT_OUT]
    if len(set(out)) != len(out):
        losses.append(PLACEMENT_REPEATED.at(f"{at}/placements"))
    if "display" in rule.placements:
        out = list(dict.fromkeys(out + list(_DISPLAY_OUT)))
        losses.append(PLACEMENT_DISPLAY.at(f"{at}/placements"))
    said = {"display", "request"} if _request_written(rule) else {"display"}
    if "request" in said:
        out = list(dict.fromkeys(out + list(_REQUEST_OUT)))
        losses.append(PLACEMENT_REQUEST.at(f"{at}/placements"))
    missing = [p for p in rule.placements if p not in _PLACEMENT_OUT and p not in said]
    if missing:
        why = f"SillyTavern has no placement {', '.join(missing)}"
        losses.append(PLACEMENT_UNSUPPORTED.at(f"{at}/placements", why))
    return out


def _risu_order(rule: RegexRule) -> int:
    """The N of a rule's last RisuAI `<order N>` token (parseInt: a bad number counts as 0), else 0."""
    risu = rule.extensions.get("risuai")
    tokens = risu.get("flag_tokens") if isinstance(risu, dict) else None
    order = 0
    for token in tokens if isinstance(tokens, list) else []:
        if isinstance(token, str) and token.startswith("order "):
            number = _RISU_ORDER_NUMBER.match(token[len("order ") :])
            order = int(number.group(1)) if number else 0
    return order


def _in_run_order(rules: list[RegexRule], scripts: list[dict], losses: list[Loss]) -> list[dict]:
    """Scripts in the order RisuAI runs the rules (a stable sort, highest order first)."""
    order = sorted(range(len(rules)), key=lambda index: -_risu_order(rules[index]))
    if order != list(range(len(rules))):
        # One loss for the list: every rule after a moved one reads back at another index.
        ordered = ", ".join(str(index + 1) for index in order if _risu_order(rules[index]))
        why = f"RisuAI runs rules by their <order N> token, highest first (rules {ordered} have one); written so"
        losses.append(RULE_RUN_ORDER.at("/body/rules", why))
    return [scripts[index] for index in order]


def _request_written(rule: RegexRule) -> bool:
    return "request" in rule.placements and not _STORED & set(rule.placements)


register(SillyTavernRegex())
