"""A JSON copy of the parsed YAML catalogs, so a command does not pay ~0.3 s of YAML parsing.

`bunzai/generated/catalogs.json` maps each catalog file to the SHA-256 of its text and its
parsed document. A file whose text no longer matches its hash is parsed from YAML (so an
edited catalog is never read stale); `python -m bunzai.macros.catalog_cache` (or
`make catalogs`) rewrites the copy, and a test fails while it is out of date.

This module turns a catalog file's text into its document (load_yaml_text); catalog.py and
blocks.py build on it, and it imports neither (a contract in pyproject.toml holds that).
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from importlib import resources
from pathlib import Path

from bunzai.errors import BunzaiError

CACHE_NAME = "catalogs.json"


def text_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@cache
def _cached() -> dict:
    try:
        return json.loads((resources.files("bunzai") / "generated" / CACHE_NAME).read_text(encoding="utf-8"))
    except (FileNotFoundError, ValueError):
        return {}


def cached_document(name: str, text: str):
    """The parsed document of catalog `name`, if the JSON copy is of this very text."""
    entry = _cached().get(name)
    if isinstance(entry, dict) and entry.get("sha256") == text_hash(text):
        return entry.get("data")
    return None


def load_yaml_text(text: str, what: str):
    """A shipped catalog file's document: from the JSON copy when it is current, else parsed."""
    doc = cached_document(what, text)
    return doc if doc is not None else parse_yaml_text(text, what)


def parse_yaml_text(text: str, what: str):
    from ruamel.yaml import YAML
    from ruamel.yaml.error import YAMLError

    try:
        return YAML(typ="safe", pure=True).load(text)
    except YAMLError as error:
        raise BunzaiError(
            "internal",
            f"{what} is not valid YAML: {str(error).splitlines()[0]}",
            f"fix bunzai/catalogs/{what}, or reinstall bunzai",
        ) from None


def build_cache() -> dict:
    folder = resources.files("bunzai") / "catalogs"
    cache_doc = {}
    for item in sorted(folder.iterdir(), key=lambda p: p.name):
        if item.name.endswith(".yaml"):
            text = item.read_text(encoding="utf-8")
            cache_doc[item.name] = {"sha256": text_hash(text), "data": parse_yaml_text(text, item.name)}
    return cache_doc


def cache_text(cache_doc: dict) -> str:
    return json.dumps(cache_doc, ensure_ascii=False, sort_keys=True, indent=1) + "\n"


def main() -> None:
    path = Path(str(resources.files("bunzai") / "generated" / CACHE_NAME))
    path.write_text(cache_text(build_cache()), encoding="utf-8")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
