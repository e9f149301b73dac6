"""The one step every single-piece reader ends with: validate the piece, or name the file and the
value; or, for a reader whose mapping gives every value of its type, build it (model/built.py)."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from bunzai.adapters.common.naming import piece_id_for
from bunzai.errors import BunzaiError
from bunzai.model.built import built


def read_piece(
    model: Any,
    name: str,
    file_name: str,
    kind: str,
    body: Any,
    original: dict,
    hint: str,
    *,
    piece_id: str | None = None,
    assets: list | None = None,
    mapped: bool = False,
) -> Any:
    """`model` (Character, Lorebook…) named `name`, read from `file_name`, or corrupt_file.

    The id is `piece_id`, else the name's (see `piece_id_for`, with `kind` as the fallback);
    `hint` says where the value can be fixed. A refused value is the file's fault, so it is
    corrupt_file naming the file and the value's place in the piece, never a validation trace.
    `mapped`: every value is of its type and within its bounds, as the reader's field mapping
    mends it, so the piece is built, not validated again (tests/fuzzkit.py holds every reader to it).
    """
    fields = {"id": piece_id or piece_id_for(name, file_name, kind), "name": name, "body": body}
    if assets is not None:
        fields["assets"] = assets
    fields["original"] = original
    if mapped:
        return built(model, fields)
    try:
        return model.model_validate(fields)
    except ValidationError as error:
        problem = error.errors()[0]
        where = "/".join(map(str, problem["loc"]))
        raise BunzaiError(
            "corrupt_file",
            f"{file_name or f'the {kind}'} holds values bunzai cannot read: {problem['msg']} at {where}",
            hint,
        ) from None
