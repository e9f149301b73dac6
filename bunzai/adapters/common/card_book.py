"""A card's `character_book` (CCv2/CCv3, with SillyTavern's entry extensions) <-> the canonical book.

SillyTavern keeps what the V2 book has no field for in each entry's `extensions`
(position 0-7, depth, role, probability, groups, timed effects ...; note the camelCase
`useProbability` and `selectiveLogic`), see sillytavern-formats.md §2.5. Each canonical
entry field has a reader and a writer here; writing over an escrowed entry changes only
the keys whose reading differs from the canonical value, so unknown keys, key order and
type drift survive a round trip. V3 decorators (`@@depth 4`) stay in `content` as written.
"""

from __future__ import annotations

import math
import operator
import re
from collections.abc import Callable
from typing import Any

from bunzai.adapters.common.book_losses import POSITION_COLLAPSED
from bunzai.adapters.common.book_losses import book_decorators_ignored as book_decorators_ignored  # SillyTavern cards
from bunzai.adapters.common.drift import MISSING, as_bool, as_count, as_int, as_object, as_str, as_str_list
from bunzai.adapters.common.fieldmap import Field, FieldMap, Whole, answered_inline, container, identity, put
from bunzai.adapters.common.js_regex import compiles
from bunzai.adapters.contract import Loss
from bunzai.jsondoc.values import copied
from bunzai.jstext import JS_WHITESPACE as JS_SPACE, js_trim

POSITIONS = ("before_char", "after_char", "an_top", "an_bottom", "at_depth", "em_top", "em_bottom", "outlet")
LOGICS = ("and_any", "not_all", "not_any", "and_all")
ROLES = ("system", "user", "assistant")
TRIGGERS = ("normal", "continue", "impersonate", "swipe", "regenerate", "quiet")
MATCH_FLAGS = (
    "match_persona_description",
    "match_character_description",
    "match_character_personality",
    "match_character_depth_prompt",
    "match_scenario",
    "match_creator_notes",
)
# `/source/flags` as SillyTavern's parseRegexFromString (world-info.js) matches it, and a
# bare `/` inside the source, which makes it refuse the key.
_REGEX_FORM = re.compile(r"/([\w\W]+?)/([gimsuy]*)\Z")
_UNESCAPED_SLASH = re.compile(r"(^|[^\\])/")

# Entry `extensions` keys SillyTavern owns; the rest of `extensions` is app data that travels.
ST_ENTRY_EXTENSIONS = frozenset(
    {
        "position",
        "exclude_recursion",
        "prevent_recursion",
        "delay_until_recursion",
        "display_index",
        "probability",
        "useProbability",
        "depth",
        "selectiveLogic",
        "group",
        "group_override",
        "group_weight",
        "scan_depth",
        "case_sensitive",
        "match_whole_words",
        "use_group_scoring",
        "automation_id",
        "role",
        "vectorized",
        "sticky",
        "cooldown",
        "delay",
        "outlet_name",
        "triggers",
        "ignore_budget",
        "character_filter",
        *MATCH_FLAGS,
    }
)


# --- keys ------------------------------------------------------------------------------


# A canonical regex key holds its pattern as JavaScript reads it (`new RegExp(text, flags)`),
# so `https?://x` and never `https?:\/\/x`: the `/pattern/flags` form escapes its inner
# slashes when written (escape_slashes) and unescapes them when read (unescape_slashes).
# Card books and SillyTavern worlds use these two; RisuAI, which parses its keys its own way,
# writes and reads its own layout (bunzai.adapters.risu.lore_entries).
_ESCAPE_OR_SLASH = re.compile(r"(\\[\s\S])|/")


def escape_slashes(pattern: str) -> str:
    """`pattern` with every bare `/` written `\\/`, as SillyTavern requires inside `/.../flags`
    (an escape already there, `\\/` or `\\\\`, is kept as it is)."""
    if "/" not in pattern:
        return pattern
    return _ESCAPE_OR_SLASH.sub(lambda found: found.group(1) or "\\/", pattern)


def unescape_slashes(pattern: str) -> str:
    """`pattern` read from `/.../flags`, with each `\\/` as the `/` JavaScript reads it (other
    escapes, `\\\\` included, kept)."""
    if "\\/" not in pattern:
        return pattern
    return _ESCAPE_OR_SLASH.sub(lambda found: "/" if found.group(1) == "\\/" else found.group(0), pattern)


def st_regex(text: str) -> tuple[str, str] | None:
    """(pattern as JavaScript reads it, flags) when SillyTavern reads the key as a regex, else None.

    SillyTavern reads world keys and the keys of a card's book it imports alike: trimmed as
    the scan trims them, the `/.../flags` form with flags from `gimsuy`, every inner `/`
    escaped, and `new RegExp` not throwing (judged by js_regex; a pattern it cannot judge,
    or one holding a `{{macro}}`, which SillyTavern expands first, stays a regex).
    """
    found = _REGEX_FORM.match(js_trim(text))
    if not found or _UNESCAPED_SLASH.search(found.group(1)):
        return None
    # SillyTavern unescapes the first `\/` only (String.replace); JavaScript reads the rest as `/`.
    pattern, flags = found.group(1).replace("\\/", "/", 1), found.group(2)
    if compiles(pattern, flags) is False and "{{" not in text:
        return None
    return unescape_slashes(pattern), flags


def may_be_regex(text: str) -> bool:
    """False for most plain keys without a call: a regex key starts with `/` or space the scan trims."""
    return bool(text) and (text[0] == "/" or text[0] in JS_SPACE)


def read_key(text: str) -> dict:
    regex = st_regex(text) if may_be_regex(text) else None
    if regex is not None:
        return {"text": regex[0], "regex": True, "flags": regex[1]}
    return {"text": text, "regex": False, "flags": ""}


def write_key(key: dict) -> str:
    return f"/{escape_slashes(key['text'])}/{key['flags']}" if key["regex"] else key["text"]


def _keys(raw: Any) -> list[dict]:
    if isinstance(raw, str):  # a comma string, as some editors write it
        raw = [part.strip() for part in raw.split(",") if part.strip()]
    elif not isinstance(raw, list):
        return []
    return [  # as_str_list, without its copy; a plain key (see may_be_regex) without a call
        read_key(text)
        if text and (text[0] == "/" or text[0] in JS_SPACE)
        else {"text": text, "regex": False, "flags": ""}
        for text in raw
        if isinstance(text, str)
    ]


# --- one entry -------------------------------------------------------------------------


def _role(raw: Any) -> str:
    if isinstance(raw, str) and raw in ROLES:
        return raw
    number = as_int(raw, 0)
    return ROLES[number] if number in (0, 1, 2) else "system"


def _logic(raw: Any) -> str:
    number = as_int(raw, 0)
    return LOGICS[number] if number in (0, 1, 2, 3) else "and_any"


# An int is looked up as the reader would; an absent key or a null reads as 0's name.
answered_inline(_role, "{v}.__class__ is _int", "system", dict(enumerate(ROLES)))
answered_inline(_logic, "{v}.__class__ is _int", "and_any", dict(enumerate(LOGICS)))


def _ext(entry: dict) -> dict:
    return as_object(entry.get("extensions"))


def _position(entry: dict, ext: dict) -> str:
    number = as_int(ext.get("position", MISSING))
    if number is not None and 0 <= number < len(POSITIONS):
        return POSITIONS[number]
    return "after_char" if entry.get("position") == "after_char" else "before_char"


def _set_position(entry: dict, value: str) -> None:
    container(entry, ("extensions",))["position"] = POSITIONS.index(value)
    entry["position"] = "before_char" if value == "before_char" else "after_char"


def _case_sensitive(entry: dict, ext: dict) -> bool | None:
    raw = ext["case_sensitive"] if "case_sensitive" in ext else entry.get("case_sensitive")
    return as_bool(raw, None)


def _set_case_sensitive(entry: dict, value: bool | None) -> None:
    if "case_sensitive" in entry or value is not None:
        entry["case_sensitive"] = value
    ext = _ext(entry)
    if "case_sensitive" in ext:
        ext["case_sensitive"] = value


def _group(entry: dict, ext: dict) -> dict:
    return {
        "names": _group_names(ext.get("group")),
        "override": as_bool(ext.get("group_override"), False),
        "weight": as_count(ext.get("group_weight"), 100),
        "use_group_scoring": as_bool(ext.get("use_group_scoring"), None),
    }


def _group_names(raw: Any) -> list[str]:
    text = as_str(raw)
    return [name.strip() for name in text.split(",") if name.strip()] if text else []


_GROUP = FieldMap(
    (
        Field("group", ("names",), _group_names, ",".join),
        Field("group_override", ("override",), as_bool, args=(False,)),
        Field("group_weight", ("weight",), as_count, args=(100,)),
        Field("use_group_scoring", ("use_group_scoring",), as_bool, args=(None,)),
    ),
    equal=operator.eq,
)


def _set_group(entry: dict, value: dict) -> None:
    _GROUP.write(container(entry, ("extensions",)), value)


def _character_filter(entry: dict, ext: dict) -> dict | None:
    raw = entry.get("character_filter", ext.get("character_filter"))
    if not isinstance(raw, dict):
        return None
    return {
        "exclude": as_bool(raw.get("isExclude"), False),
        "names": as_str_list(raw.get("names")),
        "tags": as_str_list(raw.get("tags")),
    }


_FILTER = FieldMap(
    (
        Field("isExclude", ("exclude",), as_bool, args=(False,)),
        Field("names", ("names",), as_str_list),
        Field("tags", ("tags",), as_str_list),
    ),
    equal=operator.eq,
)


def _set_character_filter(entry: dict, value: dict | None) -> None:
    ext = _ext(entry)
    home = ext if "character_filter" in ext and "character_filter" not in entry else entry
    if value is None:
        home.pop("character_filter", None)
        return
    native = home["character_filter"] if isinstance(home.get("character_filter"), dict) else {}
    home["character_filter"] = _FILTER.write(native, value)


def _uid(entry: dict, index: int) -> int | str:
    raw = entry.get("id", MISSING)
    if isinstance(raw, str) and raw:
        return raw
    number = as_int(raw)
    return index if number is None else number


def _title(entry: dict, ext: dict) -> str:
    return as_str(entry.get("comment")) or as_str(entry.get("name"))


def _set_title(entry: dict, value: str) -> None:
    entry["comment"] = value
    if not value and "name" in entry:
        entry["name"] = ""


def _delay_until_recursion(raw: Any) -> bool | int:
    if isinstance(raw, bool):
        return raw
    number = as_count(raw)
    return False if number is None else number


# RisuAI's card export writes an entry's lorebook folder (`mode: 'folder'`) and folder link
# (`folder`) beside the spec keys, and its import reads them there (createBaseV3 and
# convertCharbook, src/ts/characterCards.ts). They read as a RisuAI lorebook's own entry reads
# them, into extensions.risuai (mode 'normal', RisuAI's default, as no mode), so they cross.
_RISU_TOP = ("mode", "folder")
_RISU_NORMAL = "normal"


def _app_extensions(entry: dict, ext: dict) -> dict:
    risu_top = "mode" in entry or "folder" in entry
    if not risu_top and ext.keys() <= ST_ENTRY_EXTENSIONS:  # SillyTavern's keys only, as most entries
        return {}
    app = {key: copied(value) for key, value in ext.items() if key not in ST_ENTRY_EXTENSIONS}
    return _with_risu_top(entry, app) if risu_top else app


def _with_risu_top(entry: dict, app: dict) -> dict:
    """`app` with the entry's RisuAI keys beside the spec keys in extensions.risuai: RisuAI reads
    those, so they win over a copy in extensions (one RisuAI carries along from an older export)."""
    held = app.get("risuai", MISSING)
    if held is not MISSING and not isinstance(held, dict):
        return app
    risu = dict(held) if held is not MISSING else {}
    for key in _RISU_TOP:
        value = entry.get(key)
        if not isinstance(value, str):
            continue
        if key == "mode" and value == _RISU_NORMAL:
            if risu.get(key) != _RISU_NORMAL:
                risu.pop(key, None)
        else:
            risu[key] = value
    if risu or held is not MISSING:
        app["risuai"] = risu
    return app


def _set_app_extensions(entry: dict, value: dict) -> None:
    ext = container(entry, ("extensions",))
    value = _risu_top_only(entry, ext, value)
    for key in [key for key in ext if key not in ST_ENTRY_EXTENSIONS and key not in value]:
        del ext[key]
    for key, item in value.items():
        if ext.get(key, MISSING) != item:
            ext[key] = copied(item)


def _ext_row(
    key: str, name: str, decode: Callable[..., Any], *args: Any, encode: Callable[[Any], Any] = identity
) -> Field:
    return Field(("extensions", key), (name,), decode, encode, args)


def _risu_top_only(entry: dict, ext: dict, value: dict) -> dict:
    """`value` without the RisuAI keys an entry keeps beside its spec keys alone, as RisuAI writes
    it (_risu_folder_keys writes them there): not copied into its extensions."""
    risu, held = value.get("risuai"), ext.get("risuai")
    if not isinstance(risu, dict):
        return value
    own = {key for key in _RISU_TOP if key in entry and key in risu and not (isinstance(held, dict) and key in held)}
    if not own:
        return value
    rest = {key: item for key, item in risu.items() if key not in own}
    if rest or isinstance(held, dict):
        return value | {"risuai": rest}
    return {key: item for key, item in value.items() if key != "risuai"}


def _keys_out(keys: list[dict]) -> list[str]:
    return [write_key(key) for key in keys]


# A string as JavaScript's ToNumber reads it once trimmed: a decimal, Infinity, or a 0x/0o/0b
# integer, all ASCII; anything else is NaN (Python's float() would also take "inf" or "1_0").
_JS_DECIMAL = re.compile(r"[+-]?(?:Infinity|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)\Z")
_JS_RADIX = re.compile(r"0(?:[xX](?P<x>[0-9a-fA-F]+)|[oO](?P<o>[0-7]+)|[bB](?P<b>[01]+))\Z")
_RADIX_BASES = {"x": 16, "o": 8, "b": 2}


def js_number(raw: Any) -> float:
    """`raw` as JavaScript's `<=` converts it to a number (ToNumber); NaN for what is no number.

    A list or an object reads as NaN (JavaScript reads `[]` as 0 and `[5]` as 5: no editor writes one).
    """
    if isinstance(raw, (bool, float)):
        return float(raw)
    if isinstance(raw, int):
        return float(raw) if abs(raw) < 2**1023 else math.inf if raw > 0 else -math.inf
    if not isinstance(raw, str):
        return math.nan
    text = js_trim(raw)
    if not text:
        return 0.0  # Number("") is 0
    if _JS_DECIMAL.match(text):
        return float(text.replace("Infinity", "inf"))
    radix = _JS_RADIX.match(text)
    if radix is None:
        return math.nan
    kind, digits = next((kind, digits) for kind, digits in radix.groupdict().items() if digits)
    value = int(digits, _RADIX_BASES[kind])
    return float(value) if value < 2**1023 else math.inf


def read_probability(raw: Any) -> int:
    """A card book entry's probability as SillyTavern rolls it (`Math.random() * 100 <= probability`).

    An absent or null one reads 100: SillyTavern's import of a card's book fills it in
    (world-info.js convertCharacterBook, `extensions.probability ?? 100`). Otherwise the value
    is compared as JavaScript compares it: below 0, or no number at all (NaN), the entry never
    fires, so it reads 0 (SillyTavern's editor clamps at 0 too); from 100 up it always fires,
    so 100; a fraction rounds to a whole percent.
    """
    if raw is None or raw is MISSING:
        return 100
    number = raw if raw.__class__ is int else js_number(raw)
    if number != number:  # NaN: `roll <= NaN` is false
        return 0
    return int(min(100, max(0, number)) + 0.5)


def read_world_probability(raw: Any) -> int:
    """A SillyTavern world entry's probability, where nothing fills a null in: the scan
    (world-info.js checkWorldInfo, verifyProbability) rolls `Math.random() * 100 <= null`,
    which JavaScript compares as `<= 0`, so with `useProbability` the entry never fires; the
    editor shows it as 0 too (handleProbabilityInputHelper: `Number('')`). It reads 0."""
    if raw.__class__ is int and 0 <= raw <= 100:
        return raw
    return 0 if raw is None else read_probability(raw)


answered_inline(read_probability, "{v}.__class__ is _int and 0 <= v <= 100", 100)


def _triggers(raw: Any) -> list[str]:
    return [t for t in as_str_list(raw) if t in TRIGGERS]


# The canonical LoreEntry fields (JSON form, model_dump mode="json") a card book entry
# carries, in LoreEntry's order; SillyTavern's additions live in the entry's `extensions`.
# `!=` as the "already reads as" test, as the drift readers give plain Python values.
ENTRY_MAP = FieldMap(
    (
        Whole(("title",), _title, _set_title),
        Field("keys", ("keys",), _keys, _keys_out),
        Field("secondary_keys", ("secondary_keys",), _keys, _keys_out),
        Field("selective", ("selective",), as_bool, args=(False,)),
        _ext_row("selectiveLogic", "selective_logic", _logic, encode=LOGICS.index),
        Field("content", ("content",), as_str),
        Field("enabled", ("enabled",), as_bool, args=(True,)),
        Field("constant", ("constant",), as_bool, args=(False,)),
        _ext_row("vectorized", "vectorized", as_bool, False),
        Field("insertion_order", ("order",), as_int, args=(100,)),
        Field("priority", ("priority",), as_int),
        Whole(("position",), _position, _set_position),
        _ext_row("depth", "depth", as_count, 4),
        _ext_row("role", "role", _role, encode=ROLES.index),
        _ext_row("outlet_name", "outlet", as_str),
        _ext_row("probability", "probability", read_probability),
        _ext_row("useProbability", "use_probability", as_bool, True),
        Whole(("group",), _group, _set_group),
        _ext_row("sticky", "sticky", as_count),
        _ext_row("cooldown", "cooldown", as_count),
        _ext_row("delay", "delay", as_count),
        _ext_row("exclude_recursion", "exclude_recursion", as_bool, False),
        _ext_row("prevent_recursion", "prevent_recursion", as_bool, False),
        _ext_row("delay_until_recursion", "delay_until_recursion", _delay_until_recursion),
        _ext_row("scan_depth", "scan_depth", as_count),
        Whole(("case_sensitive",), _case_sensitive, _set_case_sensitive),
        _ext_row("match_whole_words", "match_whole_words", as_bool, None),
        _ext_row("triggers", "triggers", _triggers),
        _ext_row("ignore_budget", "ignore_budget", as_bool, False),
        *(_ext_row(flag, flag, as_bool, False) for flag in MATCH_FLAGS),
        _ext_row("automation_id", "automation_id", as_str),
        Whole(("character_filter",), _character_filter, _set_character_filter),
        _ext_row("display_index", "display_index", as_int),
        Whole(("extensions",), _app_extensions, _set_app_extensions),
    ),
    equal=operator.eq,
    total=True,
)


_decode_entry = ENTRY_MAP.decode


def read_entry(entry: dict, index: int) -> dict:
    """A native book entry -> canonical LoreEntry fields (JSON form), uid apart (see `uids_of`)."""
    return _decode_entry(entry)


def uids_of(entries: list[dict], repeats: list[tuple[int, int | str]] | None = None) -> list[int | str]:
    """Entry uids: `id`, else the index; a repeated one becomes the next free integer (and,
    with `repeats`, is listed there as (index, the uid the entry gave))."""
    seen: set[str] = set()
    uids: list[int | str] = []
    for index, entry in enumerate(entries):
        uid = _uid(entry, index)
        if str(uid) in seen:
            if repeats is not None:
                repeats.append((index, uid))
            uid = _free_uid(seen, index)
        seen.add(str(uid))
        uids.append(uid)
    return uids


def write_entry(base: dict, canon: dict, index: int, own: bool = False) -> dict:
    """`base` (a native entry or a template) with the canonical fields written over it; `own`
    when base is the entry of the file being written again (its layout is kept)."""
    entry = copied(base)
    if "extensions" in entry:
        container(entry, ("extensions",))  # one that is not an object is written as an object
        return _risu_folder_keys(ENTRY_MAP.write(entry, canon), canon, own)
    ENTRY_MAP.write(entry, canon)
    ext = entry.pop("extensions", {})
    if ext:  # an entry without extensions gains them only to hold a value, as their last key
        entry["extensions"] = ext
    return _risu_folder_keys(entry, canon, own)


def _risu_folder_keys(entry: dict, canon: dict, own: bool) -> dict:
    """A RisuAI lorebook's folder and folder link (`extensions.risuai.mode` / `folder`, as a
    RisuAI lorebook export or module is read) also beside the entry's keys, where RisuAI's card
    import reads them (`mode: book.mode`, `folder: book.folder`, characterCards.ts) and its own
    export writes them; in extensions alone, a folder is imported as a blank entry. (A new entry
    keeps them in extensions too: SillyTavern keeps an entry's extensions, not these keys.) An
    entry of the file written again that holds them in extensions alone (one SillyTavern saved)
    is left so."""
    if own and not ("mode" in entry or "folder" in entry):
        return entry
    risu = canon["extensions"].get("risuai")
    risu = risu if isinstance(risu, dict) else {}
    for key in _RISU_TOP:
        if isinstance(risu.get(key), str) and entry.get(key) != risu[key]:
            entry[key] = risu[key]
    if ("mode" in entry or "folder" in entry) and _app_extensions(entry, _ext(entry)) != canon["extensions"]:
        # the entry was taken out of its folder, or is no folder now: as RisuAI writes such an entry
        if not isinstance(risu.get("folder"), str):
            entry.pop("folder", None)
        if not isinstance(risu.get("mode"), str) and "mode" in entry:
            entry["mode"] = _RISU_NORMAL
    return entry


def entry_template(flavor: str, v3: bool) -> dict:
    """A new native entry, in the shape `flavor` ("sillytavern" or "spec") writes."""
    entry: dict = {
        "id": 0,
        "keys": [],
        "secondary_keys": [],
        "comment": "",
        "content": "",
        "constant": False,
        "selective": True,
        "insertion_order": 100,
        "enabled": True,
        "position": "before_char",
    }
    if v3 or flavor == "sillytavern":
        entry["use_regex"] = True
    if flavor == "sillytavern":
        # The extension keys SillyTavern writes for every entry (convertWorldInfoToCharacterBook).
        entry["extensions"] = {
            "position": 0,
            "exclude_recursion": False,
            "display_index": 0,
            "probability": 100,
            "useProbability": True,
            "depth": 4,
            "selectiveLogic": 0,
            "group": "",
            "group_override": False,
            "group_weight": 100,
            "prevent_recursion": False,
            "delay_until_recursion": False,
            "scan_depth": None,
            "match_whole_words": None,
            "use_group_scoring": False,
            "case_sensitive": None,
            "automation_id": "",
            "role": 0,
            "vectorized": False,
            "sticky": None,
            "cooldown": None,
            "delay": None,
        }
    else:
        entry["extensions"] = {}
    return entry


# --- the book --------------------------------------------------------------------------

_SETTINGS = ("scan_depth", "token_budget", "recursive_scanning")


def _book_settings(book: dict) -> dict:
    return {
        "scan_depth": as_count(book.get("scan_depth")),
        "token_budget": as_count(book.get("token_budget")),
        "recursive_scanning": as_bool(book.get("recursive_scanning"), None),
    }


def read_book(book: dict) -> tuple[dict, list[str]]:
    """A native `character_book` -> canonical CharacterBook fields (JSON form), and warnings."""
    warnings: list[str] = []
    raw_entries = book.get("entries")
    natives = [entry for entry in raw_entries if isinstance(entry, dict)] if isinstance(raw_entries, list) else []
    entries = [_decode_entry(entry) for entry in natives]
    repeats: list[tuple[int, int | str]] = []
    for entry, uid in zip(entries, uids_of(natives, repeats)):
        entry["uid"] = uid
    for index, given in repeats:
        warnings.append(f"book entry {index} repeats id {given!r}; it reads as uid {entries[index]['uid']}")
    return {
        "name": as_str(book.get("name")),
        "description": as_str(book.get("description")),
        "settings": _book_settings(book),
        "entries": entries,
        "extensions": copied(as_object(book.get("extensions"))),
    }, warnings


def _free_uid(seen: set[str], start: int) -> int:
    candidate = start
    while str(candidate) in seen:
        candidate += 1
    return candidate


def write_book(base: dict | None, canon: dict, flavor: str, v3: bool, own: bool = False) -> dict:
    """The native book: `base` (escrowed) or a new one, with the canonical book written over it.

    Entries are matched to escrowed ones by uid, so reordering or deleting entries keeps
    each entry's unknown keys; `own` when base is the book of the file being written again.
    """
    book = copied(base) if isinstance(base, dict) else {"entries": [], "name": ""}
    if flavor == "spec" and not isinstance(base, dict):
        book["extensions"] = {}
    put(book, "name", canon["name"], as_str)
    put(book, "description", canon["description"], as_str)
    settings = _book_settings(book)
    for key in _SETTINGS:
        if settings[key] != canon["settings"][key]:
            book[key] = canon["settings"][key]
    if as_object(book.get("extensions")) != canon["extensions"]:
        book["extensions"] = copied(canon["extensions"])
    old = (
        [entry for entry in book.get("entries") if isinstance(entry, dict)]
        if isinstance(book.get("entries"), list)
        else []
    )
    by_uid: dict[str, dict] = {}
    for entry, uid in zip(old, uids_of(old)):
        by_uid.setdefault(str(uid), entry)
    entries = []
    for index, entry in enumerate(canon["entries"]):
        was = by_uid.get(str(entry["uid"]))
        base_entry = was or entry_template(flavor, v3) | {"id": entry["uid"]}
        entries.append(write_entry(base_entry, entry, index, own and was is not None))
    # Write an `id` only where the entries would not read back as their canonical uids.
    for _ in range(len(entries) + 1):
        wrong = [index for index, uid in enumerate(uids_of(entries)) if uid != canon["entries"][index]["uid"]]
        if not wrong:
            break
        for index in wrong:
            entries[index]["id"] = canon["entries"][index]["uid"]
    book["entries"] = entries
    return book


# The keys the V2 spec requires of a book entry (V3 adds `use_regex`), with the value a
# missing key reads as, so filling them in changes no reading.
_REQUIRED_ENTRY = {"keys": [], "content": "", "extensions": {}, "enabled": True, "insertion_order": 100}


def complete_required(book: dict, v3: bool) -> None:
    """Add the keys the spec requires of a book and its entries where a written book lacks them.

    Only for a book written to a format other than the one it came from: a same-format
    round trip keeps a file that lacked them as it was.
    """
    if not isinstance(book.get("extensions"), dict):
        book["extensions"] = {}
    for entry in book.get("entries") or []:
        if not isinstance(entry, dict):
            continue
        for key, value in _REQUIRED_ENTRY.items():
            if key not in entry:
                entry[key] = copied(value)
        if v3 and "use_regex" not in entry:
            entry["use_regex"] = True


def settings_not_carried(canon_book: dict) -> list[str]:
    """Book settings set in the canonical book that a card book has no key for."""
    return [key for key, value in canon_book["settings"].items() if key not in _SETTINGS and value is not None]


# The two positions a V2/V3 book entry's own `position` field can name.
SPEC_POSITIONS = ("before_char", "after_char")


def positions_flattened(canon_book: dict, pointer: str) -> list[Loss]:
    """A note per entry whose position the spec's `position` field cannot name.

    The entry is written with `position: after_char` and its exact position in
    `extensions.position` (as SillyTavern writes it): SillyTavern reads it back exactly,
    apps that follow only the spec place the entry after the character.
    """
    return [
        POSITION_COLLAPSED.at(
            f"{pointer}/entries/{index}/position",
            f"a card book's position is before_char or after_char: {entry['position']} is written as after_char, "
            "with the exact position in extensions.position, which only SillyTavern reads",
        )
        for index, entry in enumerate(canon_book.get("entries", []))
        if entry.get("position") not in SPEC_POSITIONS
    ]
