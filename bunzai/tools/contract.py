"""The tool contract: one module per tool in this folder, the functions CLI and MCP both call.

    class Args(ToolArgs):
        ref: str = Field(description="kind/id, or an id only one kind holds")

    def run(ctx, args):
        return {"piece": untrusted(read(ctx.studio, args.ref))}

    TOOL = Tool(name="studio_read", description="...", input_model=Args, effect="read", run=run)

A tool has a name, a description (what an agent reads to choose it), an input model
(pydantic; its JSON Schema is the tool's input schema, unknown arguments are refused), an
effect (read, draft, apply or delete: the MCP annotations come from it) and `run(ctx, args)`
returning a JSON-able value. Everything a piece's author wrote goes back wrapped in
`untrusted(...)`: the server turns it into the untrusted-data envelope. A tool refuses by
raising BunzaiError. `available(ctx)` hides a tool this session cannot serve (an engine
missing, a client without elicitation): such a tool is absent, never a stub.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from pydantic import BaseModel

Effect = Literal["read", "draft", "apply", "delete"]
EFFECTS = ("read", "draft", "apply", "delete")
# The effects --read-only leaves out: such a tool is not in the dispatcher at all.
WRITING_EFFECTS = frozenset({"draft", "apply", "delete"})


class Untrusted:
    """A value a piece's author wrote (text, a whole piece, names): sent inside the envelope."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __repr__(self) -> str:
        return f"Untrusted({self.value!r})"


def untrusted(value: Any) -> Untrusted:
    return Untrusted(value)


@dataclass
class Context:
    """What a tool may use: the studio, the session's drafts, and the server's callbacks.

    The MCP server fills it; a tool never imports the server. `handles` answers result_query,
    `reveal(capabilities)` makes capabilities callable (and tells the client), `elicit(message,
    schema)` asks the person (None when the client cannot), `cancelled()` is true once the
    client gave up on the call.
    """

    studio: Any
    read_only: bool = False
    session_id: str = ""
    drafts: dict[str, dict] = field(default_factory=dict)
    handles: Any = None
    reveal: Callable[[list], None] | None = None
    elicit: Callable[[str, dict], dict] | None = None
    cancelled: Callable[[], bool] = lambda: False
    next_draft: int = 1
    cut_values: bool = False  # a result of this session had values cut to `…`


@dataclass(frozen=True)
class Tool:
    name: str
    description: str
    input_model: type[BaseModel]
    effect: Effect
    run: Callable[[Context, Any], Any]
    title: str = ""
    open_world: bool = False  # true for tools that reach outside the studio (granted folders)
    idempotent: bool | None = None  # default: read and delete are, draft and apply are not
    destructive: bool | None = None  # default: apply and delete are (a bury or an export, create-only, is not)
    available: Callable[[Context], bool] | None = None
    schema: dict | None = None  # an input schema given as JSON Schema (else the input model's)

    def annotations(self) -> dict:
        """MCP tool annotations from the effect (hints for the client, not promises)."""
        idempotent = self.effect in ("read", "delete") if self.idempotent is None else self.idempotent
        doc = {
            "readOnlyHint": self.effect == "read",
            "destructiveHint": self.effect in ("apply", "delete") if self.destructive is None else self.destructive,
            "idempotentHint": idempotent,
            "openWorldHint": self.open_world,
        }
        if self.title:
            doc["title"] = self.title
        return doc

    def input_schema(self) -> dict:
        if self.schema is not None:
            return self.schema
        schema = self.input_model.model_json_schema()
        schema.pop("title", None)
        schema.setdefault("properties", {})
        return schema

    def describe(self) -> dict:
        return {
            "name": self.name,
            "description": self.description,
            "inputSchema": self.input_schema(),
            "annotations": self.annotations(),
        }
