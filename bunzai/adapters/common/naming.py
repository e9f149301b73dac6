"""Ids for pieces read from files: derived from names, deterministic, always safe."""

from __future__ import annotations

from pathlib import PurePath

from bunzai.model.ids import ID_MAX_LENGTH, name_hash, slugify


def piece_id_for(name: str, file_name: str = "", fallback: str = "piece") -> str:
    """A safe id for a piece named `name` read from `file_name`.

    The name's slug when it has one (a name in any script has one, see `slugify`), else
    the file stem's, else `fallback`; when the name is not empty but has nothing usable
    (symbols only), a short hash of it follows, so distinct names still give distinct ids.
    The same inputs always give the same id, so reading a file twice gives the same pieces.
    """
    slug = slugify(name)
    if slug:
        return slug
    base = slugify(PurePath(file_name).stem) or fallback
    if not name.strip():
        return base
    suffix = "-" + name_hash(name)
    return base[: ID_MAX_LENGTH - len(suffix)].rstrip("-._") + suffix


def linked_id(owner_id: str, suffix: str, name: str = "") -> str:
    """Id of a piece carried inside another (a card's book): the name's slug, else owner-suffix."""
    return slugify(name) or f"{owner_id[: ID_MAX_LENGTH - len(suffix) - 1]}-{suffix}"


def typed_id(piece_id: str, suffix: str) -> str:
    """`piece_id` followed by `-suffix` (a type the platform keeps apart), within the id length."""
    if not suffix:
        return piece_id
    return f"{piece_id[: ID_MAX_LENGTH - len(suffix) - 1].rstrip('-._')}-{suffix}"
