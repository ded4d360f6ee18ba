"""Whether loose tiles can lie in one line (:mod:`gaple.reference.laying`), proven on small sets.

The proof builds every line the line's rules allow on the double-3 set (every tile
:func:`~gaple.reference.line.opened`, then every tile that fits :func:`~gaple.reference.line.joined`
at either end, again and again) and asks :func:`~gaple.reference.laying.can_lie` about every
set of its tiles with every pair of ends: it must say yes exactly for what was built. Then the
condition :mod:`gaple.position` used before (the line as an Euler trail: one piece, and the
numbers shown an odd number of times exactly the two different ends) is compared on the same
sets: it agrees except on lines it could not see are unreachable.
"""

from __future__ import annotations

import itertools
import os

import pytest

from gaple.hand import End
from gaple.reference.laying import can_lie, in_one_piece, unmatched
from gaple.reference.line import Line, joined, line_ends, opened
from gaple.tiles import Tile, tile_set

CI = os.environ.get("HYPOTHESIS_PROFILE") == "ci"
SIZES = [2, 3, 4] if CI else [2, 3]


def built(max_pip: int) -> set[tuple[frozenset[Tile], tuple[int, int]]]:
    """Every (tiles, ends) of a line the rules build from the double-``max_pip`` set."""
    found: set[tuple[frozenset[Tile], tuple[int, int]]] = set()
    todo: list[tuple[frozenset[Tile], Line]] = [
        (frozenset({tile}), opened(tile)) for tile in tile_set(max_pip).tiles
    ]
    while todo:
        tiles, line = todo.pop()
        key = (tiles, line_ends(line))
        if key in found:
            continue
        found.add(key)
        for tile in tile_set(max_pip).tiles:
            if tile in tiles:
                continue
            for end in (End.LEFT, End.RIGHT):
                placed = joined(line, tile, end)
                if placed is not None:
                    todo.append((tiles | {tile}, placed))
    return found


def euler(tiles: frozenset[Tile], ends: tuple[int, int]) -> bool:
    """The old condition, written independently: one piece, both ends shown, and the numbers
    shown an odd number of times exactly the two ends when they differ, none when equal."""
    left, right = ends
    if not tiles:
        return False
    shown = {n for tile in tiles for n in (tile.low, tile.high)}
    groups = {n: {n} for n in shown}
    for tile in tiles:
        merged = groups[tile.low] | groups[tile.high]
        for n in merged:
            groups[n] = merged
    if len({frozenset(g) for g in groups.values()}) > 1:
        return False
    if left not in shown or right not in shown:
        return False
    odd = {n for n in shown if sum((tile.low, tile.high).count(n) for tile in tiles) % 2}
    return odd == (set() if left == right else {left, right})


def falling_path(tiles: frozenset[Tile], ends: tuple[int, int]) -> bool:
    """Whether ``tiles`` are the path from ``ends[0]`` down to ``ends[1]`` through every number
    they show, each tile joining two neighbouring numbers: laid left to right every tile shows
    its higher half on the left, so none can have opened the line (which puts the lower half
    left), and no other order of these tiles joins them end to end."""
    left, right = ends
    if not tiles:
        return False
    numbers = sorted({n for tile in tiles for n in (tile.low, tile.high)}, reverse=True)
    steps = {Tile(a, b) for a, b in itertools.pairwise(numbers)}
    return left > right and numbers[0] == left and numbers[-1] == right and tiles == steps


@pytest.mark.parametrize("max_pip", SIZES)
def test_can_lie_says_yes_exactly_for_the_lines_the_rules_build(max_pip: int) -> None:
    lines = built(max_pip)
    tiles = tile_set(max_pip).tiles
    pips = range(max_pip + 1)
    yes = 0
    for size in range(len(tiles) + 1):
        for chosen in itertools.combinations(tiles, size):
            group = frozenset(chosen)
            for ends in itertools.product(pips, pips):
                answer = can_lie(chosen, ends)
                assert answer == ((group, ends) in lines), (chosen, ends)
                yes += answer
    # Every single tile lies alone one way (lower half left): at least the set's size.
    assert yes == len(lines) >= len(tiles)


@pytest.mark.parametrize("max_pip", SIZES)
def test_the_old_chain_condition_differs_only_on_falling_paths(max_pip: int) -> None:
    lines = built(max_pip)
    tiles = tile_set(max_pip).tiles
    pips = range(max_pip + 1)
    differences = []
    for size in range(len(tiles) + 1):
        for chosen in itertools.combinations(tiles, size):
            group = frozenset(chosen)
            for ends in itertools.product(pips, pips):
                rules_say = (group, ends) in lines
                assert not rules_say or euler(group, ends)  # the rules never allow more
                if euler(group, ends) != rules_say:
                    assert falling_path(group, ends), (chosen, ends)
                    differences.append((chosen, ends))
                elif falling_path(group, ends):
                    pytest.fail(f"a falling path the old condition refused too: {chosen} {ends}")
    # One falling path for each choice of at least two of the numbers 0..max_pip (its tiles
    # join them in falling order): double-2 has 4 (2-1, 1-0, 2-0, and 2-1 with 1-0).
    subsets_of_two_or_more = 2 ** (max_pip + 1) - (max_pip + 1) - 1
    assert len(differences) == subsets_of_two_or_more


def test_a_falling_pair_cannot_lie_with_its_high_end_on_the_left() -> None:
    # 1-3 and 3-5: led 1-3 gives (1, 3), and 3-5 joins the right: ends (1, 5); led 3-5 gives
    # (3, 5), and 1-3 joins the left: ends (1, 5). Never (5, 1).
    pair = [Tile(1, 3), Tile(3, 5)]
    assert can_lie(pair, (1, 5))
    assert not can_lie(pair, (5, 1))
    # With a double anywhere the line can begin there: 5-5 led, 3-5 right, 1-3 right: (5, 1).
    assert can_lie([*pair, Tile(5, 5)], (5, 1))


def test_tiles_in_two_pieces_or_with_unmatched_numbers_off_the_ends_cannot_lie() -> None:
    # 0-0 and 1-1 share no number: two pieces.
    assert not in_one_piece([Tile(0, 0), Tile(1, 1)])
    assert not can_lie([Tile(0, 0), Tile(1, 1)], (0, 1))
    assert in_one_piece([Tile(0, 0), Tile(0, 1), Tile(1, 1)])
    # 0-1, 1-2, 2-0 show every number twice: only equal ends, and not 0 with 2.
    triangle = [Tile(0, 1), Tile(1, 2), Tile(0, 2)]
    assert unmatched(triangle) == frozenset()
    assert can_lie(triangle, (0, 0))
    assert not can_lie(triangle, (0, 2))
    assert not can_lie([], (0, 0))
