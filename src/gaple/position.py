"""A finished hand, built and checked that it can be reached by play.

:class:`~gaple.hand.Position` is what scoring reads: each seat's remaining tiles and discards,
the tiles in the line and its two open ends, how the hand ended and who went out or blocked. It
is checked when built (:func:`make_position` for a position typed in, :func:`position_of` for
a played hand), and :class:`InvalidPosition` names the rule an unreachable one breaks.

>>> from gaple.tiles import parse_tiles
>>> from gaple.presets import ruleset
>>> position = make_position(
...     ruleset("pagat-4x6"),
...     hands=[parse_tiles("1-1 1-3"), parse_tiles("1-5"), parse_tiles("2-4"), parse_tiles("2-3")],
...     set_aside=parse_tiles("0-4 0-5 6-6"), ends=(0, 0), ending=Ending.BLOCKED, blocker=0)
>>> position.scoring_set(0)
(Tile(1, 1), Tile(1, 3))
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from gaple.hand import Ending, Lead, Place, State
from gaple.hand import Position as Position
from gaple.reference.deal import undealt
from gaple.reference.ending import blocker, blocks
from gaple.reference.line import playable
from gaple.rules import BlockedAction, Ruleset, Settlement
from gaple.tiles import Tile, tile_set

__all__ = [
    "InvalidPosition",
    "checked",
    "make_position",
    "position_of",
]


class InvalidPosition(ValueError):
    """A finished position that no hand of the rules can reach, with the rule that makes it so.

    The message reads ``[rule] why``, e.g. ``[block.pass] seat 1 discarded 2-3, but under the
    pass option nobody discards``.
    """

    def __init__(self, rule_id: str, message: str) -> None:
        super().__init__(f"[{rule_id}] {message}")
        self.rule_id = rule_id
        """The ID of the rule no hand can break (see :mod:`gaple.registry`)."""
        self.message = message
        """Why, in words."""


def make_position(
    rules: Ruleset,
    *,
    hands: Sequence[Iterable[Tile]],
    ends: tuple[int, int],
    ending: Ending,
    discards: Sequence[Iterable[Tile]] | None = None,
    line: Iterable[Tile] | None = None,
    set_aside: Iterable[Tile] = (),
    out_seat: int | None = None,
    blocker: int | None = None,
    closing: Tile | None = None,
) -> Position:
    """A :class:`~gaple.hand.Position`; without ``line``, the line is every tile not held,
    discarded or set aside, and without ``discards`` nobody discarded.

    Raises:
        InvalidPosition: the position cannot be reached under ``rules``.
    """
    hand_list = [tuple(sorted(hand)) for hand in hands]
    discard_list = [() for _ in hand_list] if discards is None else [tuple(d) for d in discards]
    aside = tuple(sorted(set_aside))
    if line is None:
        off_line = {t for group in (*hand_list, *discard_list, aside) for t in group}
        line = [t for t in tile_set(rules.max_pip).tiles if t not in off_line]
    return checked(
        Position(
            rules=rules,
            hands=hand_list,
            discards=discard_list,
            line=line,
            set_aside=aside,
            ends=ends,
            ending=ending,
            out_seat=out_seat,
            blocker=blocker,
            closing=closing,
        )
    )


def checked(position: Position) -> Position:
    """``position``, once it is shown that play can reach it.

    Raises:
        InvalidPosition: the first rule that no hand reaching ``position`` can keep.
    """
    problem = _position_problem(position)
    if problem is not None:
        raise InvalidPosition(*problem)
    return position


_Problem = tuple[str, str]
"""Why a position cannot be reached: the rule ID that forbids it and the reason in words."""


def _position_problem(pos: Position) -> _Problem | None:
    """The first reason ``pos`` cannot be a finished hand under its rules, or ``None``."""
    rules = pos.rules
    full = tile_set(rules.max_pip)
    seats = rules.players
    if len(pos.hands) != seats or len(pos.discards) != seats:
        return (
            "table.seats",
            f"the rules have {seats} seats, the position has {len(pos.hands)} hands and "
            f"{len(pos.discards)} discard lists",
        )
    seen: dict[Tile, str] = {}
    groups = [(f"seat {s}'s hand", pos.hands[s]) for s in range(seats)]
    groups += [(f"seat {s}'s discards", pos.discards[s]) for s in range(seats)]
    groups += [("the line", pos.line), ("the set-aside tiles", pos.set_aside)]
    for where, tiles in groups:
        for tile in tiles:
            if tile not in full.index:
                return "tiles.set", f"{where}: {tile} is not in the double-{rules.max_pip} set"
            if tile in seen:
                return "tiles.set", f"{where}: {tile} is also in {seen[tile]}"
            seen[tile] = where
    missing = [str(t) for t in full.tiles if t not in seen]
    if missing:
        return "tiles.set", f"tiles missing from the position: {' '.join(missing)}"
    wanted_aside = max(undealt(rules) - 1, 0)
    if len(pos.set_aside) != wanted_aside:
        return (
            "deal.starter",
            f"the rules set {wanted_aside} tiles aside, the position has {len(pos.set_aside)}",
        )
    for seat in range(seats):
        held = len(pos.hands[seat]) + len(pos.discards[seat])
        if held > rules.hand_size:
            return (
                "deal.sizes",
                f"seat {seat} holds and discarded {held} tiles, more than the {rules.hand_size} "
                "dealt",
            )
    for name in ("out_seat", "blocker"):
        seat_value = getattr(pos, name)
        if seat_value is not None and not 0 <= seat_value < seats:
            return "table.seats", f"{name} {seat_value} is not a seat (0..{seats - 1})"
    if rules.blocked_action is BlockedAction.PASS:
        for seat, tiles in enumerate(pos.discards):
            if tiles:
                return (
                    "block.pass",
                    f"seat {seat} discarded {' '.join(map(str, tiles))}, but under the pass "
                    "option nobody discards",
                )
    chain = _chain_problem(pos.line, pos.ends, rules.max_pip)
    if chain is not None:
        return "play.match-end", chain
    return _ending_problem(pos)


def _chain_problem(line: Sequence[Tile], ends: tuple[int, int], max_pip: int) -> str | None:
    """Why ``line`` cannot be laid as one chain from ``ends[0]`` to ``ends[1]``, or ``None``.

    A chain is a walk using every tile once (an Euler trail, doubles being loops): the tiles
    must be connected, and the numbers shown an odd number of times must be exactly the two
    different ends, or none when both ends show the same number.
    """
    left, right = ends
    if not (0 <= left <= max_pip and 0 <= right <= max_pip):
        return f"ends {ends} are not pip values of the double-{max_pip} set"
    if not line:
        return "the line is empty, but a finished hand has at least one tile in the line"
    degree = [0] * (max_pip + 1)
    parent = list(range(max_pip + 1))

    def root(p: int) -> int:
        while parent[p] != p:
            p = parent[p]
        return p

    for tile in line:
        degree[tile.low] += 1
        degree[tile.high] += 1
        parent[root(tile.low)] = root(tile.high)
    used = [p for p in range(max_pip + 1) if degree[p]]
    if len({root(p) for p in used}) > 1:
        return "the line tiles do not form a single chain (they fall into separate groups)"
    if not degree[left] or not degree[right]:
        return f"the ends {left} and {right} must both be numbers shown by tiles in the line"
    odd = {p for p in used if degree[p] % 2}
    expected = set() if left == right else {left, right}
    if odd != expected:
        return (
            f"the line tiles cannot lie in one chain with ends {left} and {right} "
            f"(numbers shown an odd number of times: {sorted(odd) or 'none'})"
        )
    return None


def _ending_problem(pos: Position) -> _Problem | None:
    empty = [s for s, hand in enumerate(pos.hands) if not hand]
    left, right = pos.ends
    if pos.ending is Ending.OUT:
        if pos.out_seat is None:
            return "end.out", "a hand that ended with a seat going out needs out_seat"
        if empty != [pos.out_seat]:
            return (
                "end.out",
                f"out_seat is {pos.out_seat}, so exactly that seat must have an empty hand; "
                f"empty hands: {empty or 'none'}",
            )
        if pos.closing is not None:
            if pos.closing not in pos.line:
                return "end.out", f"the closing tile {pos.closing} is not in the line"
            if not (pos.closing.has(left) or pos.closing.has(right)):
                return (
                    "play.match-end",
                    f"the closing tile {pos.closing} shows neither end ({left}, {right})",
                )
        return None
    if pos.out_seat is not None or pos.closing is not None:
        return "end.blocked", "a blocked hand has no out_seat and no closing tile"
    if pos.blocker is None and pos.rules.settlement is Settlement.PARTNERSHIP:
        return (
            "partner.challenge",
            "partnership scoring of a blocked hand needs the blocker (who placed the last tile)",
        )
    if empty:
        return (
            "end.out",
            f"seat {empty[0]} has no tiles, so the hand ended by going out, not blocked",
        )
    if blocks(None, pos.hands, pos.ends):
        return None
    seat, fitting = next(
        (seat, tiles) for seat, hand in enumerate(pos.hands) if (tiles := playable(hand, pos.ends))
    )
    return (
        "end.blocked",
        f"seat {seat} can still place {fitting[0]} on ends ({left}, {right}), so the hand is not "
        "blocked",
    )


def position_of(state: State) -> Position:
    """The finished position of ``state``, built and checked like any other
    :class:`~gaple.hand.Position`.

    Raises:
        ValueError: the hand has not ended.
    """
    if state.ending is None or state.ends is None:
        msg = "the hand has not ended, so it has no result yet"
        raise ValueError(msg)
    seats = range(state.rules.players)
    last = state.history[-1].move if state.history else None
    out = state.ending is Ending.OUT
    return checked(
        Position(
            rules=state.rules,
            hands=[state.hand(seat) for seat in seats],
            discards=[state.discards(seat) for seat in seats],
            line=state.line_tiles(),
            set_aside=state.set_aside,
            ends=state.ends,
            ending=state.ending,
            out_seat=state.out_seat,
            blocker=None if out else blocker(state),
            closing=last.tile if out and isinstance(last, Lead | Place) else None,
        )
    )
