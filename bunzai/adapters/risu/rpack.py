"""RPack, RisuAI's byte-substitution table, read from a RisuAI checkout (never shipped).

`.risum` modules and `.risup` presets pass every byte through a fixed 1:1 substitution.
The 512-byte table (encode[256] then decode[256]) is part of RisuAI (GPL-family licence),
so bunzai does not ship it: it reads `src/ts/rpack/rpack_map.bin` from a RisuAI checkout
named by the studio's bunzai.toml (`[engines] risu = "<path>"`, handed to the adapters that
need it by `registry.configure`) or by the BUNZAI_RISU_ROOT environment variable, and checks its
SHA-256 before use. Older checkouts keep the table only inside rpack_bg.wasm; they are
refused with a hint to update. Without a table, the adapters keep the bytes in escrow and
say `not_decoded`.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from bunzai.errors import BunzaiError

if TYPE_CHECKING:
    from bunzai.adapters.contract import EngineSettings

ENV_ROOT = "BUNZAI_RISU_ROOT"
TABLE_PATH = "src/ts/rpack/rpack_map.bin"
# SHA-256 of rpack_map.bin as RisuAI ships it (card-specs.md §4.3).
TABLE_SHA256 = "428e939c41617140ef2fad0420d9163cc80ce7c9b2f5e620223a25acc8afd498"
NOT_DECODED_HINT = (
    f'set `[engines] risu = "<path of a RisuAI checkout>"` in the studio\'s bunzai.toml, or '
    f"{ENV_ROOT}, to a RisuAI checkout holding {TABLE_PATH}"
)

_configured: Path | None = None
_verify = True


def configure_risu_root(path: str | os.PathLike[str] | None, *, verify_hash: bool = True) -> None:
    """Name the RisuAI checkout to read the table from (the studio's `[engines] risu`); None forgets it.

    The setting wins over BUNZAI_RISU_ROOT. `registry.configure` reaches it through the
    adapters' `configure` (NeedsTable); only the spoke's own tests call it directly.
    `verify_hash=False` is for tests only: they build a table of their own in the checkout
    layout, which cannot match RisuAI's hash.
    """
    global _configured, _verify
    _configured = Path(path).expanduser() if path else None
    _verify = verify_hash if path else True


class NeedsTable:
    """For a RisuAI adapter that reads or writes through the table: takes the checkout from
    the engine settings (`Adapter.configure`)."""

    def configure(self, settings: EngineSettings) -> None:
        if settings.risu is not None:
            configure_risu_root(settings.risu, verify_hash=settings.risu_verify_hash)


class WritesThroughTable(NeedsTable):
    """For a RisuAI adapter that cannot write a byte without the table (.risum, .risup; a
    RisuAI CHARX can, declaring a loss)."""

    def why_unavailable(self) -> str:
        return current_table()[1]


def risu_root() -> Path | None:
    """The configured checkout, else BUNZAI_RISU_ROOT, else None."""
    if _configured is not None:
        return _configured
    from_env = os.environ.get(ENV_ROOT, "")
    return Path(from_env).expanduser() if from_env else None


@dataclass(frozen=True)
class Table:
    encode_map: bytes
    decode_map: bytes

    def encode(self, data: bytes) -> bytes:
        return data.translate(self.encode_map)

    def decode(self, data: bytes) -> bytes:
        return data.translate(self.decode_map)


def load_table(root: str | os.PathLike[str], *, verify_hash: bool = True) -> Table:
    """The table in the checkout at `root`, its hash checked.

    `verify_hash=False` is for tests only, which build a table of their own in the
    checkout layout; a table that is not a pair of inverse permutations is refused anyway.
    """
    path = Path(root) / TABLE_PATH
    try:
        raw = path.read_bytes()
    except OSError:
        raise BunzaiError(
            "not_found",
            f"no RPack table at {path}",
            f"point the setting at a RisuAI checkout recent enough to hold {TABLE_PATH}",
        ) from None
    if verify_hash and hashlib.sha256(raw).hexdigest() != TABLE_SHA256:
        raise BunzaiError(
            "invalid_input",
            f"{path} is not the RPack table RisuAI ships (its SHA-256 differs)",
            "point the setting at an unmodified RisuAI checkout",
        )
    encode_map, decode_map = raw[:256], raw[256:]
    if (
        len(raw) != 512
        or sorted(encode_map) != list(range(256))
        or any(decode_map[encode_map[value]] != value for value in range(256))
    ):
        raise BunzaiError(
            "invalid_input",
            f"{path} is not a 512-byte pair of inverse byte tables",
            "point the setting at an unmodified RisuAI checkout",
        )
    return Table(bytes(encode_map), bytes(decode_map))


_cache: dict[tuple[Path, bool], Table] = {}


def current_table() -> tuple[Table | None, str]:
    """The table of the configured checkout, or None and why not (a sentence for the warning)."""
    root = risu_root()
    if root is None:
        return None, "no RisuAI checkout is configured"
    verify = _verify if _configured is not None else True
    key = (root.resolve(), verify)
    if key not in _cache:
        try:
            _cache[key] = load_table(root, verify_hash=verify)
        except BunzaiError as error:
            return None, error.message
    return _cache[key], ""
