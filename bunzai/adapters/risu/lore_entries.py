"""RisuAI's native loreBook entries <-> canonical lorebook entries.

A Risu entry: `{key: "a, b", secondkey, insertorder, comment, content, mode, alwaysActive,
selective, extentions (sic) {risu_case_sensitive, app data}, activationPercent, useRegex, loreCache,
bookVersion, id, folder}`. Keys are one comma-joined string, read and written the way RisuAI's
searchMatch matches them (see the keys section): plain keys split on `,` and trimmed (a key
holding a comma becomes two keys); with `useRegex` every key is a regex, read as RisuAI parses
it and written in a layout RisuAI parses back to the canonical pattern and flags.
Decorators (`@@depth 2` ...) stay in `content` as written. The app data in `extentions` is the
entry's extensions (_app_key). Every other native key the canonical entry does not name (`mode`,
`folder`, `loreCache`, `bookVersion`, `id`, unknown keys) travels in the entry's
`extensions.risuai`, so it survives crossings that keep entry
extensions, and writing starts from the escrowed entry so a same-format round trip is JSON-equal.
`mode: "normal"` is the default (read as no extension; an entry written anew gets it, as
every RisuAI writer sets it).
"""

from __future__ import annotations

import re
from typing import Any

from bunzai.adapters.common.book_losses import empty_folder, sure_chance
from bunzai.adapters.common.card_book import ST_ENTRY_EXTENSIONS
from bunzai.adapters.common.drift import MISSING, as_bool, as_float, as_int, as_object, as_str
from bunzai.adapters.common.js_regex import compiles, flags_valid
from bunzai.adapters.common.losses import LossRule
from bunzai.adapters.contract import Loss
from bunzai.jsondoc.values import copied
from bunzai.jstext import js_trim

EXT_KEY = "risuai"
_MAPPED = (
    "key",
    "secondkey",
    "insertorder",
    "comment",
    "content",
    "alwaysActive",
    "selective",
    "activationPercent",
    "useRegex",
)
_CASE = "risu_case_sensitive"
_EXT = "extentions"  # (sic) RisuAI's spelling
# loreBook.mode: 'normal' (the default, read as no extension), 'folder', 'child' ... (kept in extensions.risuai).
_MODE, _NORMAL = "mode", "normal"
# Canonical entry fields a Risu entry has no place for (decorators could say some; bunzai does not rewrite text).
_NOT_CARRIED = (
    "enabled",
    "vectorized",
    "priority",
    "position",
    "depth",
    "role",
    "outlet",
    "group",
    "sticky",
    "cooldown",
    "delay",
    "exclude_recursion",
    "prevent_recursion",
    "delay_until_recursion",
    "scan_depth",
    "match_whole_words",
    "triggers",
    "ignore_budget",
    "match_persona_description",
    "match_character_description",
    "match_character_personality",
    "match_character_depth_prompt",
    "match_scenario",
    "match_creator_notes",
    "automation_id",
    "character_filter",
    "display_index",
    "selective_logic",
)


# --- keys, as RisuAI's searchMatch reads them (src/ts/process/lorebook.svelte.ts) -------------
# `key.split(',')` (l.515), each part trimmed by JavaScript's trim() and the empty ones left out
# (l.108). Plain keys: lowercased, spaces taken out of key and text, substring (l.166-215).
# Regex keys (l.137-162), per key in order: one not starting with `/` ends the search (false);
# the flags are the text after the last `/`, and a key without flags is skipped; the pattern is
# the key with the first `/` + flags taken out, so it keeps the opening `/`; bad flags or a bad
# pattern end the search (`new RegExp` throws: searchMatch returns false; js_regex judges the
# pattern, and one it cannot judge reads as a regex). The parsed pattern is written into keys[0]
# (l.145), which the next scanned message reads as a key: unless the first key and the last parsed pattern are inert,
# the keys are tried on the oldest scanned message alone (RisuAI issue #1530).
_STOP, _SKIP = "stop", "skip"
# What bunzai writes: `/(?!)|` before each pattern (`/(?!)` never matches, so the pattern after
# the `|` alone decides; a fixed RisuAI that drops the opening `/` reads `(?!)|pattern` the same),
# `d` as the flag of a key without flags (it changes nothing a test() sees; a key whose one flag
# is `d` gets `/(?!)/|` instead, so the two read back apart), an inert first key
# (no flags: skipped) and an inert last one (its parsed pattern `/(?!)/` has no flags, so the
# next message skips it in keys[0]); `/` in a pattern as `\/` (or `\x2f` where `\/` would hold
# a `/flags` RisuAI would cut instead), `,` as `\x2c`.
_PREFIX = "/(?!)|"
_PREFIX_D = "/(?!)/|"  # as _PREFIX (`/(?!)/` never matches either), its `d` flag kept when read
_FIRST, _LAST = "/(?!)/", "/(?!)//d"
_NEVER = frozenset({"/(?!)", "/(?!)/"})  # parsed patterns that match nothing
_NO_OP_FLAG = "d"
_QUANTIFIER = re.compile(r"\{\d+,\d*\}")
_REGEX_SPECIAL = re.compile(r"[\\^$.*+?()[\]{}|]")


def key_strings(raw: Any) -> list[str]:
    """The keys RisuAI searches for in a `key`/`secondkey` string (l.515, l.108)."""
    return [key for key in (js_trim(part) for part in as_str(raw).split(",")) if key]


def risu_regex(key: str) -> tuple[str, str] | str:
    """How searchMatch reads one trimmed key in regex mode: (pattern, flags), _SKIP or _STOP."""
    if not key.startswith("/"):
        return _STOP
    flags = key.rsplit("/", 1)[1]
    if not flags:
        return _SKIP
    pattern = key.replace("/" + flags, "", 1)
    if compiles(pattern, flags) is False:
        return _STOP  # new RegExp throws: the search returns false
    return pattern, flags


def _commas(pattern: str, flags: str) -> str | None:
    """`pattern` with each literal `,` as `\\x2c`; None when a `,` is a `{m,n}` quantifier's."""
    if "," not in pattern:
        return pattern
    out, depth, index, nested = [], 0, 0, "v" in flags
    while index < len(pattern):
        char = pattern[index]
        if char == "\\":
            pair = pattern[index : index + 2]
            out.append("\\x2c" if pair == "\\," else pair)
            index += 2
            continue
        if depth:
            depth += 1 if char == "[" and nested else -1 if char == "]" else 0
        elif char == "[":
            depth = 1
        elif char == "{" and _QUANTIFIER.match(pattern, index):
            return None
        out.append("\\x2c" if char == "," else char)
        index += 1
    return "".join(out)


def _slashes(pattern: str, slash: str) -> str:
    """`pattern` with each `/` and `\\/` written as `slash`."""
    return re.sub(r"(\\[\s\S])|/", lambda found: slash if found.group(0) in ("/", "\\/") else found.group(1), pattern)


def write_regex(text: str, flags: str) -> str | None:
    """The RisuAI key that searchMatch reads as `text` with `flags`, or None: a `,` of a `{m,n}`
    quantifier, or flags or a pattern JavaScript refuses (RisuAI's search would end at the key)."""
    body = _commas(text, flags)
    prefix = _PREFIX_D if flags == _NO_OP_FLAG else _PREFIX
    flags = flags or _NO_OP_FLAG
    if body is None or compiles(text, flags) is False:
        return None
    for slash in ("\\/", "\\x2f"):  # \x2f leaves no `/` in the pattern for RisuAI to cut
        key = f"{prefix}{_slashes(body, slash)}/{flags}"
        if risu_regex(key) == (key[: -len(flags) - 1], flags):
            return key
    return None


_DECODE = re.compile(r"\\x2f|\\/|\\x2c|(\\[\s\S])")
_DECODE_SLASHES = re.compile(r"\\x2f|\\/|(\\[\s\S])")


def _decoded(pattern: str, flags: str) -> str:
    """The canonical text of a parsed pattern: `\\/` and `\\x2f` as `/`, `\\x2c` as `,` (unless
    that would make a quantifier's comma of it)."""
    text = _DECODE.sub(lambda found: found.group(1) or ("," if found.group(0) == "\\x2c" else "/"), pattern)
    if "\\x2c" in pattern and _commas(text, flags) is None:
        text = _DECODE_SLASHES.sub(lambda found: found.group(1) or "/", pattern)
    return text


def _regex_keys(raw: Any) -> tuple[list[dict], list[str], list[str], bool]:
    """(canonical keys, keys never matched, keys whose pattern keeps its opening `/`, whether
    RisuAI tries the keys on every scanned message) of a regex-mode key string."""
    strings = key_strings(raw)
    keys, unread, slashed = [], [], []
    for index, key in enumerate(strings):
        parsed = risu_regex(key)
        if parsed == _STOP:
            unread += strings[index:]
            break
        if parsed == _SKIP:
            if key != _FIRST:
                unread.append(key)
            continue
        pattern, flags = parsed
        if pattern in _NEVER:
            continue
        if pattern.startswith(_PREFIX_D):
            pattern = pattern[len(_PREFIX_D) :]
        elif pattern.startswith(_PREFIX):
            pattern = pattern[len(_PREFIX) :]
            flags = "" if flags == _NO_OP_FLAG else flags
        elif pattern.startswith("/"):
            slashed.append(key)
        keys.append({"text": _decoded(pattern, flags), "regex": True, "flags": flags})
    return keys, unread, slashed, _every_message(strings)


def _every_message(strings: list[str]) -> bool:
    """Whether searchMatch tries every key it reads on every scanned message: it writes each parsed
    pattern into keys[0] (l.145), so the first key must be inert and the last pattern flagless."""
    first = risu_regex(strings[0]) if strings else _SKIP
    if first == _STOP or (first != _SKIP and first[0] not in _NEVER):
        return False
    last = None
    for key in strings:
        parsed = risu_regex(key)
        if parsed == _STOP:
            return False
        if parsed != _SKIP:
            last = parsed[0]
    return last is None or risu_regex(last) == _SKIP


def split_keys(raw: Any, regex: bool) -> list[dict]:
    """Canonical keys of a `key`/`secondkey` string, as searchMatch reads it (see above)."""
    if regex:
        return _regex_keys(raw)[0]
    return [{"text": key, "regex": False, "flags": ""} for key in key_strings(raw)]


def _literal_regex(key: dict, case_sensitive: bool | None) -> str | None:
    if not js_trim(key["text"]):
        return None
    pattern = _REGEX_SPECIAL.sub(lambda found: "\\" + found.group(0), key["text"])
    return write_regex(pattern, "" if case_sensitive else "i")  # RisuAI's plain keys ignore case (l.169-170)


def join_keys(keys: list[dict], regex: bool | None = None, case_sensitive: bool | None = None) -> str:
    """The `key`/`secondkey` string searchMatch reads as `keys` (in regex mode when `regex`, by
    default when a key is a regex): plain keys comma-joined; in regex mode each key as write_regex
    gives it (a literal one as a regex matching its text), between the inert first and last keys."""
    if not (any(key["regex"] for key in keys) if regex is None else regex):
        return ", ".join(key["text"] for key in keys)
    written = [
        write_regex(key["text"], key["flags"]) if key["regex"] else _literal_regex(key, case_sensitive) for key in keys
    ]
    kept = [key for key in written if key is not None]
    return ", ".join([_FIRST, *kept, _LAST]) if kept else ""


def key_warnings(native: Any, index: int) -> list[str]:
    """What a reader should know of how RisuAI matches an entry's regex keys, one sentence per entry."""
    entry = as_object(native)
    if not as_bool(entry.get("useRegex"), False):
        return []
    unread, slashed, once = [], [], False
    for name in ("key", "secondkey"):
        keys, never, kept_slash, every = _regex_keys(entry.get(name))
        unread += never
        slashed += kept_slash
        once = once or (bool(keys) and not every)
    said = []
    if unread:
        said.append(
            f"RisuAI never matches {_listed(unread)}, so they are left out (a key without flags is skipped; "
            "one not starting with /, or with flags or a pattern JavaScript refuses, ends the search)"
        )
    if slashed:
        said.append(
            f"RisuAI keeps the opening / of {_listed(slashed)} in the pattern (they match only text holding "
            "that /), and so does this reading"
        )
    if once:
        said.append("RisuAI tries its regex keys on the oldest scanned message alone; they read as tried on every one")
    if not said:
        return []
    title = as_str(entry.get("comment"))
    return [f"lore entry {index}{f' ({title!r})' if title else ''}: " + "; ".join(said)]


def _listed(keys: list[str]) -> str:
    return ", ".join(keys[:3]) + (" ..." if len(keys) > 3 else "")


# RisuAI's load (updateLorebooks, src/ts/characters.ts) turns a truthy activationPercent of an
# entry below bookVersion 2 (none reads as 1) into a `@@probability N` line and sets version 2;
# its matching never reads activationPercent, so a version-2 entry's (or a 0) does nothing.
_VERSION, _MIGRATED = "bookVersion", 2
# What that load also rewrites in such an entry's content.
_REWRITTEN = re.compile(r"@@@?end|<(?:char|bot|user)>")


def _chance(canonical: dict) -> int | None:
    """The chance a canonical entry sets, None when it sets none: a chance of 100 or more fires as
    surely as none (book_losses.sure_chance), and RisuAI writes none for it (an entry it makes has no
    activationPercent, addLorebook; its card import writes @@probability only for a chance other
    than 100, convertCharbook)."""
    chance = canonical["probability"] if canonical["use_probability"] else None
    return None if chance is None or sure_chance(chance) else chance


def _migrated(entry: dict) -> bool:
    version = entry.get(_VERSION)
    return version is not None and as_float(version, 0.0) >= _MIGRATED


def _percent(entry: dict) -> int | None:
    """The chance RisuAI gives the entry, or None when it gives none (see _VERSION); the
    decorator's parseInt cuts a fraction, and a chance past 0..100 acts as 0 or 100."""
    number = 0.0 if _migrated(entry) else as_float(entry.get("activationPercent"), 0.0)
    return min(100, max(0, int(number))) if number else None


def _app_key(key: str) -> bool:
    """An `extentions` key that is the canonical entry's app data (`extensions.<key>`): RisuAI's card
    import puts a card entry's extensions there (`extentions: {...extensions, risu_case_sensitive}`,
    convertCharbook), its lorebook and module files keep the entry whole (exportLoreBook), and its card
    export writes them back as the entry's extensions (createBaseV2). Not the case flag, a SillyTavern
    key (the card's own fields say those) or `risuai` (the entry's own RisuAI keys): those stay with
    the RisuAI keys, in extensions.risuai."""
    return key != _CASE and key != EXT_KEY and key not in ST_ENTRY_EXTENSIONS


def read_entry(native: Any, index: int) -> dict:
    """One native entry -> a canonical LoreEntry (JSON form); uid is the entry's index."""
    entry = as_object(native)
    regex = as_bool(entry.get("useRegex"), False)
    extras = {key: copied(value) for key, value in entry.items() if key not in _MAPPED}
    if extras.get(_MODE) == _NORMAL:  # RisuAI's default mode, as an entry without one reads
        del extras[_MODE]
    ext_native = as_object(extras.get(_EXT))
    case = ext_native.get(_CASE, MISSING)
    app = {key: value for key, value in ext_native.items() if _app_key(key)}
    if isinstance(extras.get(_EXT), dict):
        rest = {key: value for key, value in ext_native.items() if key != _CASE and key not in app}
        if rest:
            extras[_EXT] = rest
        else:  # the case flag and app data alone (or nothing): nothing RisuAI's own to keep
            del extras[_EXT]
    percent = _percent(entry)
    return {
        "uid": index,
        "title": as_str(entry.get("comment")),
        "content": as_str(entry.get("content")),
        "keys": split_keys(entry.get("key"), regex),
        "secondary_keys": split_keys(entry.get("secondkey"), regex),
        "selective": as_bool(entry.get("selective"), False),
        "constant": as_bool(entry.get("alwaysActive"), False),
        "order": as_int(entry.get("insertorder"), 100),
        "probability": 100 if percent is None else percent,
        "use_probability": percent is not None,
        "case_sensitive": as_bool(case, None),
        "extensions": app | ({EXT_KEY: extras} if extras else {}),
    }


def write_entry(base: Any, canonical: dict, index: int) -> dict:
    """A native entry for `canonical`, over `base` (an escrowed entry) when there is one."""
    entry = (
        copied(base)
        if isinstance(base, dict)
        else {
            "key": "",
            "secondkey": "",
            "insertorder": 100,
            "comment": "",
            "content": "",
            _MODE: _NORMAL,  # every RisuAI writer of a loreBook sets it
            "alwaysActive": False,
            "selective": False,
        }
    )
    extras = as_object(canonical["extensions"].get(EXT_KEY))
    for key in [key for key in entry if key not in _MAPPED and key not in extras and key not in (_MODE, _EXT)]:
        del entry[key]
    if _MODE not in extras and entry.get(_MODE, _NORMAL) != _NORMAL:
        entry[_MODE] = _NORMAL
    for key, value in extras.items():
        if key not in _MAPPED and key != _EXT and entry.get(key, MISSING) != value:
            entry[key] = copied(value)
    _write_extentions(entry, extras.get(_EXT, MISSING), canonical["extensions"])
    every = canonical["keys"] + canonical["secondary_keys"]
    regex = any(key["regex"] for key in every)
    current = read_entry(entry, index)
    if (
        current["keys"] != canonical["keys"]
        or current["secondary_keys"] != canonical["secondary_keys"]
        or (as_bool(entry.get("useRegex"), False) != regex and bool(every))  # no keys read the same either way
    ):
        if regex or "useRegex" in entry:
            entry["useRegex"] = regex
        entry["key"] = join_keys(canonical["keys"], regex, canonical["case_sensitive"])
        entry["secondkey"] = join_keys(canonical["secondary_keys"], regex, canonical["case_sensitive"])
    simple = {
        "title": ("comment", canonical["title"]),
        "content": ("content", canonical["content"]),
        "selective": ("selective", canonical["selective"]),
        "constant": ("alwaysActive", canonical["constant"]),
        "order": ("insertorder", canonical["order"]),
    }
    for field, (key, value) in simple.items():
        if current[field] != value:
            entry[key] = value
    percent = _chance(canonical)
    if _chance(current) != percent:
        if percent:
            entry["activationPercent"] = percent
            if _migrated(entry):  # taken out, so RisuAI's load makes it the `@@probability` it acts on
                del entry[_VERSION]
        else:  # none, or a 0 RisuAI cannot hold (entry_losses names it)
            entry.pop("activationPercent", None)
    if current["case_sensitive"] != canonical["case_sensitive"]:
        ext = entry[_EXT] if isinstance(entry.get(_EXT), dict) else {}
        if canonical["case_sensitive"] is None:
            ext.pop(_CASE, None)
        else:
            ext[_CASE] = canonical["case_sensitive"]
        entry[_EXT] = ext
    return entry


def _write_extentions(entry: dict, held: Any, extensions: dict) -> None:
    """The entry's `extentions`: its RisuAI-own part (`held`, extensions.risuai.extentions) and the
    app data (_app_key), over the written entry's own, whose case flag and key order stay."""
    if held is not MISSING and not isinstance(held, dict):
        entry[_EXT] = copied(held)  # not an object, kept as it came (entry_losses names app data it cannot hold)
        return
    wanted = (held if held is not MISSING else {}) | {key: value for key, value in extensions.items() if _app_key(key)}
    current = entry.get(_EXT)
    if not isinstance(current, dict):
        if wanted:
            entry[_EXT] = copied(wanted)
        elif current is not None or _EXT in entry:
            del entry[_EXT]  # not an object, and nothing to hold: read as none either way
        return
    merged = {
        key: value if key == _CASE else copied(wanted[key])
        for key, value in current.items()
        if key in wanted or key == _CASE
    }
    entry[_EXT] = merged | {key: copied(value) for key, value in wanted.items() if key not in merged}


# What entry_losses names, at a lorebook body's entries (/body/entries/<n>/...).
_ENTRY = r"/body/entries/\d+"
ENTRY_NOT_CARRIED = LossRule(
    _ENTRY + "/(?:" + "|".join(_NOT_CARRIED) + ")",
    "dropped",
    "risu.entry.not_carried",
    "a RisuAI lore entry has no such field (RisuAI says such "
    "things with decorators in the content, which bunzai does not write)",
)
KEY_COMMA_SPLIT = LossRule(
    _ENTRY + "/(?:keys|secondary_keys)",
    "translated",
    "risu.key.comma_split",
    "RisuAI keeps keys as one comma-joined string, so a key holding a comma becomes two keys",
)
KEY_REGEX_MIXED = LossRule(
    _ENTRY + "/(?:keys|secondary_keys)",
    "flattened",
    "risu.key.regex_mixed",
    "RisuAI makes every key of an entry a regex or none (useRegex): literal keys beside regex ones are "
    "written as regexes matching their text",
)
KEY_NOT_EXPRESSIBLE = LossRule(
    _ENTRY + "/(?:keys|secondary_keys)",
    "dropped",
    "risu.key.not_expressible",
    "RisuAI splits an entry's keys on every comma and ends its regex search at a key it cannot read: a regex "
    "whose comma belongs to a {m,n} quantifier, or whose flags JavaScript refuses, has no key RisuAI reads "
    "as it, and is left out",
)
KEY_PATTERN_REJECTED = LossRule(
    _ENTRY + "/(?:keys|secondary_keys)",
    "dropped",
    "risu.key.pattern_rejected",
    "RisuAI ends an entry's regex search at a key whose pattern JavaScript rejects, so the entry would match "
    "nothing: the key, which never matches, is left out and the other keys work",
)
ENTRY_UID_IS_INDEX = LossRule(
    _ENTRY + "/uid",
    "translated",
    "risu.entry.uid_is_index",
    "RisuAI entries have no uid: an entry's uid is its place in the list",
)
ENTRY_EXTENSIONS = LossRule(
    _ENTRY + "/extensions(?:/[^/]+)?",
    "dropped",
    "risu.entry.extensions",
    "a RisuAI lore entry keeps app data in its `extentions` object, which this entry holds as something else",
)
ENTRY_EXTENSIONS_MOVED = LossRule(
    _ENTRY + "/extensions",
    "translated",
    "risu.entry.extensions_moved",
    "app data kept with the entry's RisuAI keys (extensions.risuai.extentions, as bunzai read it before) is "
    "written in `extentions`, where RisuAI keeps a card entry's extensions, and reads back as the entry's extensions",
)

PROBABILITY_ZERO = LossRule(
    _ENTRY + "/(?:probability|use_probability)",
    "dropped",
    "risu.entry.probability_zero",
    "RisuAI reads an activationPercent of 0 as none set (it turns only a nonzero one into @@probability): "
    "the entry fires as if it had no chance set",
)
VERSION_RESET = LossRule(
    _ENTRY + "/(?:extensions/risuai(?:/bookVersion)?|content)",
    "translated",
    "risu.entry.version_reset",
    "RisuAI acts on activationPercent only in an entry below bookVersion 2, which its load turns into "
    "@@probability: the entry's bookVersion is taken out",
)


def _probability_losses(canonical: dict, at: str, written: dict | None) -> list[Loss]:
    if _chance(canonical) is None:
        return []  # no chance, or a sure one: written as none
    if canonical["probability"] == 0:
        if written is not None and _percent(written) == 0:
            return []  # the entry's own activationPercent, kept, is one RisuAI acts on as 0 (a negative one)
        return [PROBABILITY_ZERO.at(f"{at}/{field}") for field in ("probability", "use_probability")]
    extras = as_object(canonical["extensions"].get(EXT_KEY))
    if not _migrated(extras):
        return []
    # write_entry takes the version out (and with it extensions.risuai when it held nothing else)
    losses = [VERSION_RESET.at(f"{at}/extensions/{EXT_KEY}" + ("" if set(extras) == {_VERSION} else f"/{_VERSION}"))]
    if _REWRITTEN.search(canonical["content"]):
        why = (
            "RisuAI's load of an entry below bookVersion 2 (written so that its activationPercent acts) also "
            "rewrites the content's <user>, <char>, <bot> as macros and @@end as @@depth 0"
        )
        losses.append(VERSION_RESET.at(f"{at}/content", why))
    return losses


def _pattern_rejected(key: dict) -> bool:
    """A regex key with flags JavaScript takes whose pattern it rejects."""
    return flags_valid(key["flags"]) and compiles(key["text"], key["flags"]) is False


def entry_losses(canonical: dict, index: int, prefix: str, default: dict, written: dict | None = None) -> list[Loss]:
    """What a Risu entry cannot carry of `canonical` (pointer prefix e.g. /body/entries); `written`
    is the native entry written for it, when the caller has it."""
    losses = []
    at = f"{prefix}/{index}"
    folder = empty_folder(canonical)  # its `enabled` is no loss (a book without folders turned it off)
    for field in _NOT_CARRIED:
        if canonical[field] != default[field] and not (folder and field == "enabled"):
            why = (
                f"a RisuAI lore entry has no {field} (RisuAI says such "
                "things with decorators in the content, which bunzai does not write)"
            )
            losses.append(ENTRY_NOT_CARRIED.at(f"{at}/{field}", why))
    regex = any(key["regex"] for key in canonical["keys"] + canonical["secondary_keys"])
    for name in ("keys", "secondary_keys"):
        keys, pointer = canonical[name], f"{at}/{name}"
        if regex:
            unwritable = [key for key in keys if key["regex"] and write_regex(key["text"], key["flags"]) is None]
            rejected = [key["text"] for key in unwritable if _pattern_rejected(key)]
            lost = [key["text"] for key in unwritable if not _pattern_rejected(key)]
            if rejected:
                why = (
                    f"JavaScript rejects the pattern of {_listed(rejected)}, and RisuAI would end the entry's regex "
                    "search there (no key of it would match): left out"
                )
                losses.append(KEY_PATTERN_REJECTED.at(pointer, why))
            if lost:
                why = (
                    f"RisuAI cannot read {_listed(lost)} as written: a comma splits the key (one in a {{m,n}} "
                    "quantifier cannot be escaped), or the flags end its search; left out"
                )
                losses.append(KEY_NOT_EXPRESSIBLE.at(pointer, why))
            if any(not key["regex"] for key in keys):
                losses.append(KEY_REGEX_MIXED.at(pointer))
        elif any("," in key["text"] for key in keys):
            losses.append(KEY_COMMA_SPLIT.at(pointer))
        elif any(js_trim(key["text"]) != key["text"] or not key["text"] or key["flags"] for key in keys):
            why = "RisuAI trims its plain keys and leaves out empty ones; a literal key has no flags"
            losses.append(KEY_REGEX_MIXED.at(pointer, why))
    losses += _probability_losses(canonical, at, written)
    if isinstance(canonical["uid"], str) or canonical["uid"] != index:
        losses.append(ENTRY_UID_IS_INDEX.at(f"{at}/uid"))
    other = [key for key in canonical["extensions"] if key != EXT_KEY]
    held = as_object(canonical["extensions"].get(EXT_KEY)).get(_EXT, MISSING)
    if other and held is not MISSING and not isinstance(held, dict):
        losses.append(ENTRY_EXTENSIONS.at(f"{at}/extensions"))
        return losses
    moved = [key for key in (held if isinstance(held, dict) else {}) if _app_key(key)]
    if moved:
        losses.append(ENTRY_EXTENSIONS_MOVED.at(f"{at}/extensions", ENTRY_EXTENSIONS_MOVED.why + f": {_listed(moved)}"))
    for key in [key for key in other if not _app_key(key)]:
        why = (
            "RisuAI reads `extentions.risu_case_sensitive` as the entry's case flag, written from case_sensitive"
            if key == _CASE
            else f"{key!r} is a SillyTavern entry key, which a RisuAI entry says with its own fields or not at all"
        )
        losses.append(ENTRY_EXTENSIONS.at(f"{at}/extensions/{key}", why))
    return losses
