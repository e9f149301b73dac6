"""Running a capability: validate the input, preview, enforce the contract, build the draft.

The runner, not the capability, is trusted: it checks that a draft capability kept the
target's kind, id and escrow, that a read capability changed nothing, validates the
proposed piece, and computes the exact changes itself (diff_json), so a capability can
neither misreport nor smuggle an edit.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bunzai.capabilities.contract import Preview
from bunzai.changes.diff import draft_changes
from bunzai.changes.draft import new_draft
from bunzai.convert import platform_impact
from bunzai.errors import BunzaiError
from bunzai.model import dump_piece
from bunzai.query.links import links_in
from bunzai.validate import coded_validation_error, validate_piece

RESULT_TYPE = "bunzai.result"


def parse_input(cap, raw: Any):
    """The capability's validated input; invalid_input names the offending field."""
    from pydantic import ValidationError

    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise BunzaiError(
            "invalid_input", f"{cap.id} takes a JSON object as input", f"see `bunzai cap describe {cap.id}`"
        )
    try:
        return cap.input_model.model_validate(raw)
    except ValidationError as error:
        raise input_error(cap, error) from None


def input_error(cap, error) -> BunzaiError:
    problems = [
        {"field": ".".join(str(p) for p in item["loc"]) or "(input)", "problem": item["msg"]}
        for item in error.errors(include_url=False)
    ]
    first = problems[0]
    more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
    return BunzaiError(
        "invalid_input",
        f"{cap.id}: input field {first['field']!r}: {first['problem']}{more}",
        f"see `bunzai cap describe {cap.id}` for the input schema",
        problems=problems,
    )


Loader = Callable[[str, str], dict]
"""(kind, ref) -> the stored piece's canonical JSON: how the runner reads a capability's `needs`.
A loader with a `missing(kind, id)` method (studio_run.StudioLoader: None when the studio stores
the piece, else {"suggestions", "buried"}) also has the draft warn of links to absent pieces."""


def preview_step(
    cap,
    entity: dict | None,
    raw_input: Any,
    *,
    piece_id: str | None = None,
    loader: Loader | None = None,
    impact: bool = True,
) -> tuple[dict, dict, Any]:
    """(proposed piece, operation record, read result) for one capability on `entity`.

    `entity` is the canonical piece the operation starts from (None for a create);
    `piece_id` names the new piece of a create capability when the caller chooses it;
    `loader` reads the other pieces a capability declares in `needs`. The record holds
    `attachments` (new media the preview decoded) when there are any: callers move them
    into the draft's attachments. `impact=False` leaves the crossing impact to the caller
    (an embedded book's impact is the character's, see capabilities/embedded.py).
    """
    proposed, record, result, _ = _preview(
        cap, entity, raw_input, piece_id=piece_id, loader=loader, impact=impact, keep_changes=False
    )
    return proposed, record, result


def _preview(
    cap,
    entity: dict | None,
    raw_input: Any,
    *,
    piece_id: str | None,
    loader: Loader | None,
    impact: bool,
    keep_changes: bool,
) -> tuple[dict, dict, Any, tuple[dict, list[dict]] | None]:
    """preview_step's answer, and with `keep_changes`, for a change to a stored piece, (before,
    draft_changes(before, proposed)): the piece as it was compared, and its changes, walked once
    for the impact and the draft (a book of thousands of entries takes a tenth of a second to
    validate, and as long to compare)."""
    inp = parse_input(cap, _with_needs(cap, raw_input, loader))
    if cap.mode == "create":
        if entity is not None:
            raise BunzaiError(
                "invalid_input",
                f"{cap.id} creates a new piece; it does not start from one",
                "leave out the piece reference and --draft",
            )
        start = None
    else:
        if entity is None:
            raise BunzaiError(
                "invalid_input",
                f"{cap.id} works on a stored {cap.kind}; name one",
                f"e.g. bunzai cap run {cap.id} {cap.kind}/ID --input ...",
            )
        if entity.get("kind") != cap.kind:
            raise BunzaiError(
                "invalid_input",
                f"{cap.id} works on {cap.kind} pieces; "
                f"{entity.get('kind')}/{entity.get('id')} is a {entity.get('kind')}",
                f"see `bunzai cap find --kind {entity.get('kind')} ...`",
            )
        start = validate_piece(entity)  # a fresh object: the capability cannot touch `entity`
        entity = dump_piece(start)  # compare like with like: defaults filled in
    preview = _call_preview(cap, start, inp)
    proposed = dump_piece(preview.entity) if hasattr(preview.entity, "model_dump") else preview.entity
    if not isinstance(proposed, dict):
        raise BunzaiError(
            "forbidden_change", f"{cap.id} returned no piece", "a preview returns the complete proposed entity"
        )
    if cap.mode == "create" and piece_id is not None:
        proposed = dict(proposed, id=piece_id)
    _check_rules(cap, entity, proposed)
    proposed = dump_piece(validate_piece(proposed))
    loaded = {need.into for need in cap.needs}
    record = {
        "op": cap.id,
        "input": inp.model_dump(mode="json", exclude_unset=True, exclude=loaded),
        "warnings": list(preview.warnings),
        "impact": list(preview.impact),
    }
    if cap.effect != "read":
        record["warnings"] += dangling_link_warnings(entity, proposed, loader)
    if preview.attachments:
        record["attachments"] = dict(preview.attachments)
    keep = keep_changes and start is not None and cap.effect != "read"
    compared = (entity, draft_changes(entity, proposed)) if keep else None
    if cap.effect != "read" and impact:
        rows = compared[1] if compared is not None else None
        record["impact"] += [
            row
            for row in platform_impact(entity, proposed, preview.attachments, rows=rows)
            if row not in record["impact"]
        ]
    return proposed, record, preview.result, compared


def dangling_link_warnings(before: dict | None, proposed: dict, loader: Loader | None) -> list[str]:
    """A warning for each link the step adds to a piece the studio does not hold: a misspelt id
    would otherwise make a card whose book never loads. Not a refusal: the piece may be made or
    imported next. A link already in `before` was warned of when it was made."""
    missing = getattr(loader, "missing", None)
    if missing is None:
        return []
    old = set(links_in(before)) if before is not None else set()
    warnings = []
    for kind, piece_id in links_in(proposed):
        found = None if (kind, piece_id) in old else missing(kind, piece_id)
        if found is None:
            continue
        notes = []
        if found["suggestions"]:
            notes.append(f"did you mean {', '.join(found['suggestions'])}?")
        if found["buried"]:
            notes.append(f"it is in the graveyard as {found['buried']}")
        note = f" ({'; '.join(notes)})" if notes else ""
        warnings.append(
            f"the draft links {kind}/{piece_id}, which the studio does not hold{note}; the link is kept, "
            f"and works once a {kind} with that id is stored"
        )
    return warnings


def _with_needs(cap, raw: Any, loader: Loader | None) -> Any:
    """The raw input with every declared `needs` piece loaded into its `into` field."""
    if not cap.needs or not isinstance(raw, dict):
        return raw
    raw = dict(raw)
    for need in cap.needs:
        ref = raw.get(need.ref)
        if not isinstance(ref, str) or not ref:
            continue  # the input model reports the missing field
        if loader is None:
            raise BunzaiError(
                "invalid_input",
                f"{cap.id} reads {need.kind} {ref!r}, and no studio was given to read it from",
                "run it in a studio, with `bunzai cap run`",
            )
        raw[need.into] = loader(need.kind, ref)
    return raw


def _call_preview(cap, start, inp):
    from pydantic import ValidationError

    try:
        preview = cap.preview(start, inp)
    except ValidationError as error:
        raise coded_validation_error(error) from None  # the edit made a piece the model refuses
    if not isinstance(preview, Preview):
        raise BunzaiError(
            "forbidden_change",
            f"{cap.id} returned a {type(preview).__name__}, not a Preview",
            "a preview returns a Preview; this is a bug in the capability",
        )
    return preview


def _check_rules(cap, before: dict | None, after: dict) -> None:
    if after.get("kind") != cap.kind:
        raise BunzaiError(
            "forbidden_change",
            f"{cap.id} proposed a {after.get('kind')!r} piece; it works on {cap.kind}",
            "a capability proposes a piece of its own kind; this is a bug in the capability",
        )
    if before is None:
        return
    if cap.effect == "read":
        if dump_piece(validate_piece(after)) != dump_piece(validate_piece(before)):
            raise BunzaiError(
                "forbidden_change",
                f"{cap.id} is a read capability but changed the piece",
                "a read capability returns the entity unchanged; this is a bug in the capability",
            )
        return
    for key in ("kind", "id"):
        if after.get(key) != before.get(key):
            raise BunzaiError(
                "forbidden_change",
                f"{cap.id} tried to change the piece's {key} ({before.get(key)!r} -> {after.get(key)!r})",
                "a capability edits a piece; it never moves it (duplicate it instead)",
            )
    if after.get("original") != before.get("original"):
        raise BunzaiError(
            "forbidden_change",
            f"{cap.id} tried to rewrite the escrowed original",
            "canonical edits change the canonical fields; the escrow is written back as it was read",
        )


def run_capability(
    cap,
    entity: dict | None,
    raw_input: Any,
    *,
    baseline: str | None = None,
    piece_id: str | None = None,
    loader: Loader | None = None,
) -> dict:
    """A draft for one operation (or, for a read capability, its result document).

    `entity` is the stored piece's data (None for a create capability) and `baseline` its
    revision: an update draft applies only while the stored revision is still that one.
    """
    proposed, record, result, compared = _preview(
        cap, entity, raw_input, piece_id=piece_id, loader=loader, impact=True, keep_changes=True
    )
    if cap.effect == "read":
        return read_result(cap, proposed, record, result)
    attachments = record.pop("attachments", None)
    if cap.mode == "create":
        return new_draft(
            mode="create", proposed=proposed, operations=[record], impact=record["impact"], attachments=attachments
        )
    if baseline is None:
        raise BunzaiError(
            "invalid_input",
            f"{cap.id}: an update needs the baseline revision of the stored piece",
            "pass the revision `bunzai read` gives as baseline",
        )
    before, changes = compared  # the stored piece with its defaults filled in, as the preview compared it
    return new_draft(
        mode="update",
        proposed=proposed,
        operations=[record],
        baseline=baseline,
        before=before,
        impact=record["impact"],
        attachments=attachments,
        changes=changes,
    )


def read_result(cap, entity: dict, record: dict, result: Any) -> dict:
    return {
        "type": RESULT_TYPE,
        "capability": cap.id,
        "target": {"kind": entity["kind"], "id": entity["id"]},
        "input": record["input"],
        "result": result,
        "warnings": record["warnings"],
        "impact": record["impact"],
    }
