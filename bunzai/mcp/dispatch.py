"""The dispatcher: which tools this session has, and one tool call from arguments to result.

The belt comes from `bunzai/tools/` (discovery); `--read-only` leaves every draft, apply and
delete tool out, so such a tool is unknown rather than refused. Capability tools are added by
`capability_find` (at most five at a time; each find replaces the set).

An argument that fails the tool's schema is named in a tool result with `isError` (code
`invalid_input`) from revision 2025-11-25 on, so the model reads it and corrects the call (SEP-1303),
and a ProtocolError (InvalidParams) in earlier revisions; an unknown tool, or a request whose name or
arguments are not of the request's shape, is InvalidParams in every revision. Every other refusal is
a tool result with `isError` and the BunzaiError's code and hint. Hints and notes are put in the
tools' words (`hints`), results are sealed (the envelope), and a result whose JSON is over
MCP_RESULT_INLINE_MAX_CHARS becomes a handle.
"""

from __future__ import annotations

import json
import re
from typing import Any

from bunzai.changes.hidden_chars import json_escaped
from bunzai.errors import BunzaiError, did_you_mean
from bunzai.limits import (
    MCP_HANDLE_MAX_BYTES,
    MCP_RESULT_FRAME_BYTES,
    MCP_RESULT_INLINE_MAX_CHARS,
    MCP_REVEALED_TOOLS_MAX,
)
from bunzai.mcp.protocol import (
    ANNOTATIONS_FROM,
    ARGUMENT_ERRORS_AS_RESULTS_FROM,
    INVALID_PARAMS,
    STRUCTURED_FROM,
    ProtocolError,
    at_least,
)
from bunzai.tools.contract import WRITING_EFFECTS

_SURROGATE = re.compile("[\ud800-\udfff]")


class Dispatcher:
    def __init__(self, ctx, *, read_only: bool = False, elicitation: bool = False) -> None:
        self.ctx = ctx
        self.read_only = read_only
        self.elicitation = elicitation
        self._writing = WRITING_EFFECTS
        self.revealed: list = []  # capability tools made callable by the last capability_find
        self._capability_of: dict = {}  # a revealed tool's name -> its capability (whose input is checked too)
        self.changed = False  # the tool list changed since the client last heard
        ctx.reveal = self.reveal

    def belt(self) -> list:
        from bunzai.tools.discovery import all_tools  # lazy: bunzai mcp answers initialize before importing the tools

        tools = []
        for tool in all_tools():
            if self.read_only and tool.effect in self._writing:
                continue
            if tool.available is not None and not tool.available(self.ctx):
                continue
            tools.append(tool)
        return tools

    def tools(self) -> dict:
        table = {tool.name: tool for tool in self.belt()}
        for tool in self.revealed:
            table.setdefault(tool.name, tool)
        return table

    def reveal(self, capabilities: list) -> list[str]:
        """Make these capabilities callable (replacing the last set); the names of their tools."""
        from bunzai.tools.capability_tools import capability_tool  # lazy: as all_tools in belt()

        if self.read_only:
            capabilities = [cap for cap in capabilities if cap.effect == "read"]
        tools = [capability_tool(cap) for cap in capabilities[:MCP_REVEALED_TOOLS_MAX]]
        if [t.name for t in tools] != [t.name for t in self.revealed]:
            self.changed = True
        self.revealed = tools
        self._capability_of = {tool.name: cap for tool, cap in zip(tools, capabilities, strict=False)}
        return [tool.name for tool in tools]

    def list_tools(self, version: str) -> list[dict]:
        rows = []
        for tool in self.tools().values():
            row = tool.describe()
            if not at_least(version, ANNOTATIONS_FROM):
                row.pop("annotations")
            if tool.title and at_least(version, STRUCTURED_FROM):
                row["title"] = tool.title
            rows.append(row)
        return rows

    def call(self, name: Any, arguments: Any, version: str) -> dict:
        if not isinstance(name, str):
            raise ProtocolError(INVALID_PARAMS, "tools/call needs the tool's name", {"argument": "name"})
        tool = self.tools().get(name)
        if tool is None:
            raise ProtocolError(INVALID_PARAMS, f"Unknown tool: {name}", {"tool": name})
        if arguments is None:
            arguments = {}
        if not isinstance(arguments, dict):
            raise ProtocolError(INVALID_PARAMS, "arguments must be a JSON object", {"argument": "arguments"})
        try:
            args = self._arguments(tool, arguments)
        except InvalidArguments as error:
            if not at_least(version, ARGUMENT_ERRORS_AS_RESULTS_FROM):
                raise error.protocol_error() from None
            return self._error(error, version)
        try:
            if tool.effect in ("draft", "apply") and self.ctx.cut_values:
                _refuse_cut(arguments)
            result = tool.run(self.ctx, args)
        except BunzaiError as error:
            return self._error(error, version)
        except OSError as error:
            from bunzai.store.faults import caught_fault  # lazy: only a fault needs it

            # what the agent asked to write: not a temp file or the studio's .bunzai/ folder (a read: nothing of writes)
            coded = caught_fault(error, getattr(self.ctx.studio, "root", None))
            return self._error(coded if coded is not None else _internal(error), version)
        except Exception as error:  # noqa: BLE001 - a tool's bug is that call's failed result, the server stays up
            return self._error(_internal(error), version)
        return self._result(name, result, version)

    def _arguments(self, tool, arguments: dict):
        """The tool's input model from `arguments`, a revealed capability's `input` checked too."""
        args = _validated(tool, arguments)
        capability = self._capability_of.get(tool.name) if tool in self.revealed else None
        if capability is not None and isinstance(arguments.get("input"), dict):
            _checked(tool.name, capability.input_model, arguments["input"], prefix=("input",))
        return args

    def _result(self, name: str, result: Any, version: str) -> dict:
        from bunzai.mcp.envelope import seal  # lazy: bunzai mcp answers initialize without the envelope
        from bunzai.mcp.hints import advice_in_tool_words  # lazy: as the envelope

        result = advice_in_tool_words(result)
        budget = MCP_HANDLE_MAX_BYTES - MCP_RESULT_FRAME_BYTES
        while True:
            doc, cut = seal(result, budget)
            text = _text(doc)
            size = len(text.encode("utf-8", "surrogatepass"))
            if size <= MCP_HANDLE_MAX_BYTES or budget <= 0:
                break
            budget -= size - MCP_HANDLE_MAX_BYTES + MCP_RESULT_FRAME_BYTES
        self.ctx.cut_values = self.ctx.cut_values or cut
        if len(text) > MCP_RESULT_INLINE_MAX_CHARS:
            try:
                doc = self.ctx.handles.keep(text, name, truncated=cut)
            except BunzaiError as error:  # even cut to fit, the result is too large to hold
                return self._error(error, version)
            text = _text(doc)
        out: dict[str, Any] = {"content": [{"type": "text", "text": text}], "isError": False}
        if at_least(version, STRUCTURED_FROM):
            out["structuredContent"] = doc if isinstance(doc, dict) else {"result": doc}
        return out

    def _error(self, error: BunzaiError, version: str) -> dict:
        from bunzai.mcp.envelope import seal  # lazy: bunzai mcp answers initialize without the envelope
        from bunzai.mcp.hints import advice_in_tool_words  # lazy: as the envelope

        # The hint (and the receipts' in the details) was written for a shell: the agent has tools.
        refusal = advice_in_tool_words(error.to_json())
        # A refusal's details may carry what authors wrote (a revert's rows): enveloped. Details over the
        # inline size are held as a handle, as a large result is, so none of them is cut.
        doc, cut = seal(refusal, MCP_HANDLE_MAX_BYTES - MCP_RESULT_FRAME_BYTES)
        text = _text(doc)
        if len(text) > MCP_RESULT_INLINE_MAX_CHARS and error.details:
            try:
                held = self.ctx.handles.keep(_text(doc["error"]["details"]), "error details", truncated=cut)
            except BunzaiError:
                held = None
            if held is not None:
                self.ctx.cut_values = self.ctx.cut_values or cut
                doc = dict(doc, error=dict(doc["error"], details={"held": held}))
                text = _text(doc)
        if len(text) > MCP_RESULT_INLINE_MAX_CHARS:  # no handle could hold it: cut to stay inline
            doc, _ = seal(refusal, MCP_RESULT_INLINE_MAX_CHARS - MCP_RESULT_FRAME_BYTES)
            text = _text(doc)
        out: dict[str, Any] = {"content": [{"type": "text", "text": text}], "isError": True}
        if at_least(version, STRUCTURED_FROM):
            out["structuredContent"] = doc
        return out


def _internal(error: Exception) -> BunzaiError:
    import os

    if os.environ.get("BUNZAI_DEBUG"):
        import traceback

        traceback.print_exc()
    return BunzaiError(
        "internal",
        f"internal error: {type(error).__name__}: {error}",
        "this is a bug in bunzai; run the server with BUNZAI_DEBUG=1 for the traceback and report it",
    )


def _text(doc: Any) -> str:
    """The result as compact JSON text, hidden characters and lone surrogates as \\u escapes."""
    return json_escaped(json.dumps(doc, ensure_ascii=False, separators=(",", ":")))


class InvalidArguments(BunzaiError):
    """Arguments that fail the tool's schema (`details`: the first bad argument and every problem)."""

    def __init__(self, message: str, hint: str, argument: str, problems: list) -> None:
        super().__init__("invalid_input", message, hint, argument=argument, problems=problems)

    def protocol_error(self) -> ProtocolError:
        """The same refusal as the InvalidParams error revisions before 2025-11-25 answer."""
        return ProtocolError(INVALID_PARAMS, self.message, self.details)


def _validated(tool, arguments: dict):
    """The tool's input model; InvalidArguments naming the first bad argument otherwise."""
    from pydantic import ValidationError

    _checked(tool.name, tool.input_model, arguments)
    try:
        return tool.input_model.model_validate(arguments)
    except ValidationError as error:
        raise _invalid(tool.name, tool.input_model, error) from None


def _checked(tool_name: str, model, arguments: dict, prefix: tuple = ()) -> None:
    """Refuse (InvalidArguments) arguments that do not match the model's JSON Schema.

    pydantic's lax mode would read `true` as 1 and "5" as 5; its strict JSON mode takes JSON's
    types as the schema states them (a boolean is no integer), enum values given as strings too.
    The values a tool gets still come from the lax pass, which keeps lone surrogates."""
    from pydantic import ValidationError

    try:
        model.model_validate_json(json.dumps(_as_checked(arguments)), strict=True)
    except ValidationError as error:
        raise _invalid(tool_name, model, error, prefix) from None


def _invalid(tool_name: str, model, error, prefix: tuple = ()) -> InvalidArguments:
    items = error.errors(include_url=False)
    problems = [
        {"argument": ".".join(str(p) for p in (*prefix, *item["loc"])) or "(arguments)", "problem": item["msg"]}
        for item in items
    ]
    first = problems[0]
    return InvalidArguments(
        f"invalid argument {first['argument']!r} for {tool_name}: {first['problem']}",
        _argument_hint(model, items),
        first["argument"],
        problems,
    )


def _argument_hint(model, problems: list[dict]) -> str:
    """For an argument the tool does not take (`reff`), the names it does, those spelled alike first."""
    unknown = [str(p["loc"][0]) for p in problems if p["type"] == "extra_forbidden" and len(p["loc"]) == 1]
    if not unknown:
        return "tools/list gives each tool's arguments and their types (its inputSchema)"
    names = list(model.model_json_schema().get("properties", {}))
    takes = f"{unknown[0]!r} is not one of its arguments: " + ", ".join(names) if names else "it takes no arguments"
    return did_you_mean(unknown[0], names, takes)


def _as_checked(value: Any) -> Any:
    """`value` as the type check reads it: a lone surrogate (which pydantic's JSON parser refuses,
    and the tool may take) as U+FFFD, and 5.0 as 5 (JSON Schema counts it an integer)."""
    if isinstance(value, str):
        return _SURROGATE.sub("\ufffd", value)
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {_as_checked(str(key)): _as_checked(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_as_checked(item) for item in value]
    return value


def _refuse_cut(arguments: dict) -> None:
    from bunzai.mcp.envelope import CUT, holds_cut  # lazy: bunzai mcp answers initialize without the envelope

    where = holds_cut(arguments)
    if where is not None:
        raise BunzaiError(
            "invalid_input",
            f"argument {where or '/'} is {CUT!r}, the mark of a value cut from a truncated result",
            "read the whole value (studio_read with pointer, offset and limit, or result_query) and send that",
        )
