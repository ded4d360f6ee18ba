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
from gaple.reference.deal import face_down, hand_sizes, missing, stray
from gaple.reference.ending import blocker, blocks
from gaple.reference.equipment import table
from gaple.reference.laying import can_lie, in_one_piece, unmatched
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
    """The first reason ``pos`` cannot be a finished hand under its rules, or ``None``: the
    deal's conditions (:mod:`gaple.reference.deal`), then the line's
    (:mod:`gaple.reference.laying`), then the ending's."""
    rules = pos.rules
    seats = table(rules).seats
    if len(pos.hands) != len(seats) or len(pos.discards) != len(seats):
        return (
            "table.seats",
            f"the rules have {len(seats)} seats, the position has {len(pos.hands)} hands and "
            f"{len(pos.discards)} discard lists",
        )
    parts = [(f"seat {s}'s hand", pos.hands[s]) for s in seats]
    parts += [(f"seat {s}'s discards", pos.discards[s]) for s in seats]
    parts += [("the line", pos.line), ("the set-aside tiles", pos.set_aside)]
    found = stray(rules.max_pip, parts)
    if found is not None:
        if found.also_in is None:
            return (
                "tiles.set",
                f"{found.where}: {found.tile} is not in the double-{rules.max_pip} set",
            )
        return "tiles.set", f"{found.where}: {found.tile} is also in {found.also_in}"
    lacking = missing(rules.max_pip, parts)
    if lacking:
        return "tiles.set", f"tiles missing from the position: {' '.join(map(str, lacking))}"
    if len(pos.set_aside) != face_down(rules):
        return (
            "deal.starter",
            f"the rules set {face_down(rules)} tiles aside, the position has {len(pos.set_aside)}",
        )
    for seat, size in zip(seats, hand_sizes(rules), strict=True):
        held = len(pos.hands[seat]) + len(pos.discards[seat])
        if held > size:
            return (
                "deal.sizes",
                f"seat {seat} holds and discarded {held} tiles, more than the {size} dealt",
            )
    for name in ("out_seat", "blocker"):
        seat_value = getattr(pos, name)
        if seat_value is not None and seat_value not in seats:
            return "table.seats", f"{name} {seat_value} is not a seat (0..{len(seats) - 1})"
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
    """Why ``line`` cannot be laid as one line with ``ends`` (:func:`can_lie`), in the words of
    the first fact of a line it breaks, or ``None``."""
    left, right = ends
    if not (0 <= left <= max_pip and 0 <= right <= max_pip):
        return f"ends {ends} are not pip values of the double-{max_pip} set"
    if not line:
        return "the line is empty, but a finished hand has at least one tile in the line"
    if can_lie(line, ends):
        return None
    if not in_one_piece(line):
        return "the line tiles do not form a single chain (they fall into separate groups)"
    if not any(tile.has(left) for tile in line) or not any(tile.has(right) for tile in line):
        return f"the ends {left} and {right} must both be numbers shown by tiles in the line"
    odd = unmatched(line)
    if odd != ({left, right} if left != right else set()):
        return (
            f"the line tiles cannot lie in one chain with ends {left} and {right} "
            f"(numbers shown an odd number of times: {sorted(odd) or 'none'})"
        )
    return (
        f"the line tiles can lie in one chain only with ends {right} and {left}: laid from "
        f"{left} on the left down to {right}, no tile shows its lower half on the left, as "
        "the tile that began the line does"
    )


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
    """The finished position of ``state``.

    It is not ``checked``: a hand reached by play dealt by the deal's rules and laid its
    line by the line's, and the line's check is a search that costs more than the scoring
    (tests/test_result_properties.py checks every played position passes ``checked``).

    Raises:
        ValueError: the hand has not ended.
    """
    if state.ending is None or state.ends is None:
        msg = "the hand has not ended, so it has no result yet"
        raise ValueError(msg)
    seats = range(state.rules.players)
    last = state.history[-1].move if state.history else None
    out = state.ending is Ending.OUT
    return Position(
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
