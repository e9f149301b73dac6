"""Archive member names in a CHARX: `embeded://` resolution, file types, and names to write.

An asset uri `embeded://<path>` (one d, as the spec spells it) names a member. RisuAI sets
the uri before it sanitizes the file name, so a uri may dangle: it is resolved by exact
path, then by basename, then by the basename as RisuAI sanitizes it. Among several
candidates the smallest name wins, so resolution never depends on the archive's order.
Written names are UTF-8, as RisuAI writes them (zipsafe sets the ZIP's UTF-8 flag): a new
asset's name has only the characters RisuAI's writer replaces made `_`, and escrowed members
keep their names (percent-encoded ones bunzai wrote before included: a uri names them so).
No asset member is written under a name ending in `.json` (see `loadable`).
"""

from __future__ import annotations

import re
from collections.abc import Callable

EMBEDDED = "embeded://"
_ALSO_EMBEDDED = "embedded://"  # the natural spelling, seen in hand-made cards
CARD_MEMBER = "card.json"
_EXT = re.compile(r"[a-z0-9]{1,10}")  # fullmatch: `$` would take "png\n"
_RISU_UNSAFE = re.compile(r'[<>:"/\\|?*\x00-\x1f]')
_RISU_PATH_UNSAFE = re.compile(r'[<>:"\\|?*\x00-\x1f]')  # what RisuAI's writer replaces in a member path
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
_NAME_UNITS = 100  # RisuAI cuts an asset's name to 100 UTF-16 code units before it builds the path
UNKNOWN_EXT = "unknown"  # an entry's ext RisuAI's writer files as `image/<name>.png`
_MIME = {
    "png": "image/png",
    "jpg": "image/jpeg",
    "jpeg": "image/jpeg",
    "webp": "image/webp",
    "gif": "image/gif",
    "avif": "image/avif",
    "apng": "image/apng",
    "mp3": "audio/mpeg",
    "ogg": "audio/ogg",
    "wav": "audio/wav",
    "flac": "audio/flac",
    "mp4": "video/mp4",
    "webm": "video/webm",
    "json": "application/json",
}
# The spec's recommended folders, by what the file is (assets/{type}/{folder}/).
_FOLDERS = {
    "images": ("png", "jpg", "jpeg", "webp", "gif", "avif", "apng", "bmp", "svg"),
    "audio": ("mp3", "wav", "ogg", "flac", "m4a", "opus"),
    "video": ("mp4", "webm", "mov", "avi", "mkv"),
    "fonts": ("otf", "ttf", "woff", "woff2"),
    "code": ("js", "ts", "lua"),
    "ai": ("safetensors", "onnx"),
    "3d": ("mmd", "obj", "glb", "gltf"),
    "l2d": ("moc3",),
}


def sillytavern_card(names: list[str]) -> str | None:
    """The member SillyTavern's CHARX import reads as the card: the first, in archive order,
    whose name ends in `card.json` (`x_meta/postcard.json` too), outside `__MACOSX`."""
    return next((name for name in names if name.endswith(CARD_MEMBER) and not name.startswith("__MACOSX")), None)


def nested_card(names: list[str]) -> str | None:
    """The first member named card.json in a folder (`Folder/card.json`, as zipping the folder
    rather than its contents gives), outside `__MACOSX`; None when there is none."""
    return next(
        (name for name in names if name.rsplit("/", 1)[-1] == CARD_MEMBER and not name.startswith("__MACOSX/")),
        None,
    )


def embedded_path(uri: object) -> str | None:
    """The member path an `embeded://` uri names, or None for any other uri."""
    if isinstance(uri, str):
        for prefix in (EMBEDDED, _ALSO_EMBEDDED):
            if uri.startswith(prefix):
                return uri[len(prefix) :]
    return None


def resolve(path: str, names: list[str]) -> str | None:
    """The member a uri path names: exact, else by basename, else by RisuAI's sanitized basename."""
    return resolver(names)(path)


def resolver(names: list[str]) -> Callable[[str], str | None]:
    """`resolve` over one archive's names, indexed once: a card with thousands of assets
    resolves each uri in constant time instead of scanning every member for each."""
    candidates = {name for name in names if name != CARD_MEMBER}
    by_base: dict[str, str] = {}
    for name in sorted(candidates, reverse=True):  # the smallest name is set last, so it wins
        by_base[name.rsplit("/", 1)[-1]] = name

    def find(path: str) -> str | None:
        if path in candidates:
            return path
        if path.lstrip("/") in candidates:
            return path.lstrip("/")
        base = path.rsplit("/", 1)[-1]
        for wanted in (base, risu_sanitized(base)):
            if wanted and wanted in by_base:
                return by_base[wanted]
        return None

    return find


def risu_sanitized(base: str) -> str:
    """A file name as RisuAI's CHARX writer stores it (unsafe characters to `_`, no trailing dots)."""
    return _RISU_UNSAFE.sub("_", base).rstrip(". ")


def valid_ext(ext: object) -> str | None:
    """A usable lowercase extension, or None ('unknown' and odd values are not)."""
    if isinstance(ext, str) and _EXT.fullmatch(ext.lower()) and ext.lower() != "unknown":
        return ext.lower()
    return None


def suffix_of(name: str) -> str | None:
    base = name.rsplit("/", 1)[-1]
    return valid_ext(base.rsplit(".", 1)[-1]) if "." in base else None


def file_type(declared_ext: object, member: str) -> tuple[str, str]:
    """The stored file's (ext, mime): the declared ext, else the member's suffix, else bin."""
    ext = valid_ext(declared_ext) or suffix_of(member) or "bin"
    return ext, _MIME.get(ext, "")


def risu_name(name: str) -> str:
    """An asset's name as RisuAI's export puts it in a path: its first 100 UTF-16 code units
    (JavaScript's substring), a surrogate left alone there as U+FFFD (as TextEncoder writes it)."""
    if name.isascii():
        return name[:_NAME_UNITS]
    return name.encode("utf-16-le", "surrogatepass")[: 2 * _NAME_UNITS].decode("utf-16-le", "replace")


def member_segment(text: str) -> str:
    """One path segment with what RisuAI's writer replaces (`<>:"/\\|?*`, control characters)
    made `_`; any other character, ASCII or not, is kept."""
    return _RISU_UNSAFE.sub("_", _LONE_SURROGATE.sub("\ufffd", text))


# RisuAI's CHARX import skips every member named `*.json` but card.json (app data, x_meta notes),
# then refuses the whole card ("asset ... not found") when an asset uri names one.
_RISU_SKIPPED = ".json"
LOADABLE_SUFFIX = ".bin"


def loadable(name: str) -> str:
    """An asset member's name as RisuAI's import loads it: `.bin` added after a `.json` end.
    The entry's `ext` still says json, and RisuAI, SillyTavern and bunzai type the file by it."""
    return name + LOADABLE_SUFFIX if name.endswith(_RISU_SKIPPED) else name


def unique(name: str, taken: set[str]) -> str:
    """`name`, or `stem_1.ext`, `stem_2.ext` ... when taken (as RisuAI renames duplicates)."""
    if name not in taken:
        return name
    stem, dot, ext = name.rpartition(".")
    if not dot or "/" in ext:
        stem, dot, ext = name, "", ""
    number = 1
    while f"{stem}_{number}{dot}{ext}" in taken:
        number += 1
    return f"{stem}_{number}{dot}{ext}"


def asset_member(role: str, name: str, declared_ext: str, stored_ext: str, number: int) -> str:
    """Where a stored asset is written: assets/{type}/{images|audio|...}/{name}.{ext}, ext the
    entry's, else the stored file's; an unnamed one is `asset_<number>` (RisuAI's fallback:
    `number` counts the stored assets, from 1)."""
    ext = valid_ext(declared_ext) or stored_ext
    folder = next((key for key, exts in _FOLDERS.items() if ext in exts), "other")
    kind = member_segment(role) if role not in ("", ".", "..") else "other"
    stem = member_segment(risu_name(name)) or f"asset_{number}"
    return f"assets/{kind}/{folder}/{stem}.{ext}"


# RisuAI's folders (assets/{type}/{folder}/): `image` singular, and its own names for the rest.
_RISU_FOLDERS = {
    "image": ("png", "jpg", "jpeg", "gif", "webp", "avif"),
    "audio": ("mp3", "wav", "ogg", "flac"),
    "video": ("mp4", "webm", "mov", "avi", "mkv"),
    "model": ("mmd", "obj"),
    "ai": ("safetensors", "cpkt", "onnx"),
    "fonts": ("otf", "ttf", "woff", "woff2"),
    "code": ("js", "ts", "lua"),
}
RISU_TYPES = ("emotion", "background", "user_icon", "icon", "other")
RISU_FOLDER_NAMES = frozenset(_RISU_FOLDERS) | {"other"}


def risu_asset_member(role: str, name: str, declared_ext: str, stored_ext: str, number: int) -> str:
    """Where RisuAI writes an asset: assets/{type}/{image|audio|...}/{name}.{ext}; other types under
    `other`, an unnamed asset `asset_<number>`, an entry whose ext is `unknown` at image/{name}.png
    (RisuAI's export does so, whatever the file). RisuAI's writer keeps a `/` of the name (a folder)
    and no other path character; a folder segment a reader would refuse (empty, `.`, `..`) is `_`."""
    if declared_ext == UNKNOWN_EXT:
        folder, ext = "image", "png"
    else:
        ext = valid_ext(declared_ext) or stored_ext
        folder = next((key for key, exts in _RISU_FOLDERS.items() if ext in exts), "other")
    kind = role if role in RISU_TYPES else "other"
    parts = _RISU_PATH_UNSAFE.sub("_", risu_name(name)).split("/") if name else [f"asset_{number}"]
    folders = ["_" if part in ("", ".", "..") else part for part in parts[:-1]]
    return f"assets/{kind}/{folder}/{'/'.join(folders + parts[-1:])}.{ext}"
