"""Laying: whether loose tiles, with two ends, can be a whole line built by the line's rules.

A finished position names the tiles in the line and its two ends but not their order; it is
reachable only if some order lays them as :func:`~gaple.reference.line.opened` then
:func:`~gaple.reference.line.joined` allow (rules ``open.lead``, ``deal.starter``,
``play.match-end``). :func:`can_lie` answers that; :func:`in_one_piece` and :func:`unmatched`
are the two facts of a line that show most clearly why tiles cannot lie in one.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

from gaple.reference.line import Ends, fits, opened
from gaple.tiles import Tile

__all__ = ["can_lie", "in_one_piece", "unmatched"]


def in_one_piece(tiles: Collection[Tile]) -> bool:
    """Whether ``tiles`` hang together: a line is one piece, each tile touching the next by a
    shared number, so tiles that fall into groups sharing no number cannot all be in it."""
    if not tiles:
        return True
    reached = {next(iter(tiles)).low}
    grown = True
    while grown:
        grown = False
        for tile in tiles:
            if (tile.low in reached) != (tile.high in reached):
                reached.update((tile.low, tile.high))
                grown = True
    return all(tile.low in reached for tile in tiles)


def unmatched(tiles: Iterable[Tile]) -> frozenset[int]:
    """The numbers ``tiles`` show an odd number of times. Inside a line the halves touch in
    pairs that show the same number, so only the ends' numbers can be among them: both when the
    ends differ, none when they are equal."""
    odd: set[int] = set()
    for tile in tiles:
        odd.symmetric_difference_update((tile.low,))
        odd.symmetric_difference_update((tile.high,))
    return frozenset(odd)


def can_lie(tiles: Collection[Tile], ends: Ends) -> bool:
    """Whether ``tiles`` can be a whole line with ``ends``: one of them
    :func:`~gaple.reference.line.opened`, each other :func:`~gaple.reference.line.joined` in
    turn to an end it :func:`~gaple.reference.line.fits`.

    Read backwards: the last tile joined lies at an end and shows that end's number outside,
    and without it the other tiles are a line whose end showed its inner number; a single tile
    is a line only as it opens, lower half on the left. The tries that would leave tiles in
    separate pieces or with unmatched numbers off the ends (:func:`in_one_piece`,
    :func:`unmatched`) cannot lead to a line, so they are not made; that keeps the search to
    the few tries whose failure is the opening's orientation.
    """
    left, right = ends
    if not tiles or not in_one_piece(tiles):
        return False
    if unmatched(tiles) != ({left, right} if left != right else set()):
        return False
    if len(tiles) == 1:
        return opened(next(iter(tiles))) == ((left, right),)
    for tile in set(tiles):
        rest = [other for other in tiles if other != tile]
        if fits(tile, left) and can_lie(rest, (tile.other(left), right)):
            return True
        if fits(tile, right) and can_lie(rest, (left, tile.other(right))):
            return True
    return False
