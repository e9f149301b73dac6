"""What studio_export and studio_transfer share: the crossing's arguments and how its answer is quoted."""

from typing import Any

from pydantic import Field

from bunzai.tools.args import ToolArgs
from bunzai.tools.contract import untrusted

# Keys bunzai makes (ids, hashes, sizes); losses, the linked book's report and the rest quote the piece.
PLAIN = frozenset(
    {
        "type",
        "status",
        "reason",
        "op",
        "target",
        "ref",
        "revision",
        "seq",
        "path",
        "format",
        "label",
        "file_name",
        "size",
        "sha256",
    }
)


class CrossingArgs(ToolArgs):
    ref: str = Field(description="kind/id of the piece.")
    to: str = Field(description="Target format id, e.g. sillytavern.card.png or ccv3.json (see `bunzai formats`).")
    engine: str | None = Field(None, description="Translate macros for this engine (e.g. risuai).")
    from_engine: str | None = Field(None, description="Read the piece's macros as this engine's.")


def quoted(answer: dict[str, Any]) -> dict[str, Any]:
    """The answer with every value that came from the piece marked untrusted."""
    return {key: value if key in PLAIN else untrusted(value) for key, value in answer.items()}
