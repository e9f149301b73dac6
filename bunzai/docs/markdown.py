"""A Markdown page as bunzai's docs see it: a title, H2/H3 sections with slugs, search chunks.

Only ATX headings (`## Title`) outside fenced code count. Slugs follow the common rule of
Markdown renderers (lower case, punctuation dropped, spaces to hyphens, `-1`, `-2` for
repeats), so a slug is also the page's link anchor.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_HEADING = re.compile(r"^(#{1,6})[ \t]+(.*?)[ \t]*#*[ \t]*$")
_FENCE = re.compile(r"^[ ]{0,3}(`{3,}|~{3,})")
_SLUG_DROP = re.compile(r"[^\w\- ]", re.UNICODE)


@dataclass(frozen=True)
class Section:
    """An H2 or H3 heading and the characters it spans (its subsections included)."""

    level: int
    slug: str
    title: str
    start: int  # offset of the heading line
    body_start: int  # offset just after the heading line
    end: int  # offset where the next heading of the same or a higher level starts
    parent: str | None  # the slug of the H2 an H3 sits under


@dataclass(frozen=True)
class Chunk:
    """A searchable stretch of a page: its intro, or one heading's own text up to the next heading."""

    slug: str | None
    headings: tuple[str, ...]
    start: int
    end: int


def slugify(title: str) -> str:
    text = title.strip().lower().replace("`", "")
    return _SLUG_DROP.sub("", text).replace(" ", "-")


def page_title(text: str, fallback: str) -> str:
    for level, title, _start, _end in _headings(text):
        if level == 1:
            return title
    return fallback


def sections(text: str) -> list[Section]:
    """Every H2 and H3 of the page, in order, with unique slugs."""
    found = [(level, title, start, end) for level, title, start, end in _headings(text) if level in (2, 3)]
    seen: dict[str, int] = {}
    out: list[Section] = []
    parent: str | None = None
    for index, (level, title, start, body_start) in enumerate(found):
        base = slugify(title) or "section"
        count = seen.get(base, 0)
        seen[base] = count + 1
        slug = base if count == 0 else f"{base}-{count}"
        end = len(text)
        for later_level, _t, later_start, _e in found[index + 1 :]:
            if later_level <= level:
                end = later_start
                break
        if level == 2:
            parent = slug
        out.append(Section(level, slug, title, start, body_start, end, parent if level == 3 else None))
    return out


def chunks(text: str, title: str) -> list[Chunk]:
    """The page cut at every H2/H3: the intro (slug None), then each heading's own text."""
    parts = sections(text)
    by_slug = {part.slug: part for part in parts}
    first = parts[0].start if parts else len(text)
    out = [Chunk(None, (title,), 0, first)]
    for index, part in enumerate(parts):
        stop = parts[index + 1].start if index + 1 < len(parts) else len(text)
        trail = [title]
        if part.parent is not None:
            trail.append(by_slug[part.parent].title)
        trail.append(part.title)
        out.append(Chunk(part.slug, tuple(trail), part.start, stop))
    return out


def _headings(text: str):
    """(level, title, line start, next line start) of each ATX heading outside fenced code."""
    fence: str | None = None
    offset = 0
    for line in text.splitlines(keepends=True):
        start, offset = offset, offset + len(line)
        bare = line.rstrip("\r\n")
        opening = _FENCE.match(bare)
        if fence is not None:
            if opening and opening.group(1)[0] == fence[0] and len(opening.group(1)) >= len(fence):
                fence = None
            continue
        if opening:
            fence = opening.group(1)
            continue
        match = _HEADING.match(bare)
        if match:
            yield len(match.group(1)), match.group(2).strip(), start, offset
