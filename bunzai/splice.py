"""Where one file is another with a run of bytes put in: a card PNG's original is its portrait
with the card's text chunks. The studio (`store/assets.py`) and `bunzai.native` keep such a
file as the other one and the run, so the image is kept once."""

from __future__ import annotations

from typing import TypeVar

K = TypeVar("K")

# Bytes compared at a time while the two files agree: two unrelated files part within the
# first step, so asking costs little where the answer is no.
_STEP = 64 * 1024


def insertion(whole: bytes, part: bytes) -> int | None:
    """Where `whole` is `part` with one run of bytes put in, or None: the length of their common
    prefix (when the run can go at several places, the last: any of them rebuilds `whole`)."""
    extra, agreed = len(whole) - len(part), 0
    if extra <= 0:
        return None
    while agreed < len(part) and whole[agreed : agreed + _STEP] == part[agreed : agreed + _STEP]:
        agreed += _STEP
    low, high = agreed, min(agreed + _STEP, len(part))  # the first difference lies in here
    while low < high:
        middle = (low + high + 1) // 2
        if whole[agreed:middle] == part[agreed:middle]:
            low = middle
        else:
            high = middle - 1
    return low if whole[low + extra :] == part[low:] else None


def largest_insertion(whole: bytes, parts: dict[K, bytes], min_size: int) -> tuple[K, int] | None:
    """Of `parts` of at least `min_size` bytes, the largest that `whole` is with one run put in:
    (its key, where the run goes), or None."""
    for key, part in sorted(parts.items(), key=lambda item: -len(item[1])):
        if len(part) >= min_size:
            at = insertion(whole, part)
            if at is not None:
                return key, at
    return None


def part_spans(whole_size: int, part_size: int, at: int) -> list[tuple[int, int]]:
    """Where `part`'s bytes sit in `whole` when the run is put in at `at`: before it and after it."""
    spans = [(0, at), (at + whole_size - part_size, whole_size)]
    return [(start, end) for start, end in spans if start < end]
