"""`bunzai.toml`: the studio's settings, read with tomllib and written with tomli-w under a lock."""

from __future__ import annotations

import tomllib
from collections.abc import Callable

import tomli_w

from bunzai.errors import BunzaiError
from bunzai.store.atomic import replace_file
from bunzai.store.locks import path_lock
from bunzai.store.studio import Studio


def read_settings(studio: Studio) -> dict:
    try:
        with studio.settings_path.open("rb") as handle:
            return tomllib.load(handle)
    except FileNotFoundError:
        raise BunzaiError(
            "studio_missing", f"no bunzai.toml in {studio.root}", f"create one with `bunzai init {studio.root}`"
        ) from None
    except tomllib.TOMLDecodeError as error:
        raise BunzaiError(
            "invalid_input", f"{studio.settings_path} is not valid TOML: {error}", "fix the file by hand"
        ) from None


def update_settings(studio: Studio, change: Callable[[dict], None]) -> dict:
    """Read, change and write the settings under the settings lock; return the new settings."""
    with path_lock(studio, "bunzai.toml"):
        settings = read_settings(studio)
        change(settings)
        replace_file(studio.settings_path, tomli_w.dumps(settings).encode("utf-8"))
    return settings
