"""The line: the chain of tiles on the table, its two ends, and how a tile joins it.

Rule ``play.match-end`` is decided here rather than in :mod:`gaple.reference.turn` because
three pages ask it: the opening (does the turned-up starter block at once?), the turn (which
placements are legal) and the end of the hand (can anyone still place?).

A line is a tuple of placed tiles from left to right, each written as (left half, right half)
so that neighbouring halves show the same number.
"""

from __future__ import annotations

from collections.abc import Iterable

from gaple.hand import End
from gaple.reference.deciding import decides
from gaple.tiles import Tile

__all__ = ["Ends", "Line", "end_number", "fits", "joined", "line_ends", "opened", "playable"]


Line = tuple[tuple[int, int], ...]
"""The placed tiles from left to right, each as (left half, right half)."""


Ends = tuple[int, int]
"""The numbers the open left and right ends show."""


@decides("play.match-end")
def joined(line: Line, tile: Tile, end: End) -> Line | None:
    """A placed tile joins one named end of the line with a half showing that end's number,
    and its other half becomes the new end; ``None`` when neither half shows it. The line is a
    single chain: a double sits in line like any tile and never branches. A tile that fits
    both ends is two different moves, one for each end (SUWIKI, PAGAT, DOMINO4D, BLOCK100,
    CHIPS)."""
    number = end_number(line_ends(line), end)
    if not fits(tile, number):
        return None
    if end is End.LEFT:
        return ((tile.other(number), number), *line)
    return (*line, (number, tile.other(number)))


def fits(tile: Tile, number: int) -> bool:
    """Whether one of ``tile``'s halves shows ``number``, so that it may join an end showing
    it (:func:`joined`)."""
    return tile.has(number)


def playable(hand: Iterable[Tile], ends: Ends) -> tuple[Tile, ...]:
    """The tiles of ``hand`` that fit one end or the other, in the hand's order."""
    left, right = ends
    return tuple(tile for tile in hand if fits(tile, left) or fits(tile, right))


def opened(tile: Tile) -> Line:
    """The line ``tile`` begins when led or turned up as the starter: the whole line, its lower
    half on the left (rules ``open.lead``, ``deal.starter``)."""
    return ((tile.low, tile.high),)


def line_ends(line: Line) -> Ends:
    """The numbers on the open left and right ends of a line that has begun."""
    return line[0][0], line[-1][1]


def end_number(ends: Ends, end: End) -> int:
    """The number the named end shows."""
    left, right = ends
    return left if end is End.LEFT else right
