"""Turn: who may act, what a seat may do with its tiles, and what a move does.

Rules ``turn.order``, ``play.in-hand``, ``turn.forced-play``, ``block.pass`` and
``block.discard`` (``play.match-end`` is in :mod:`gaple.reference.line`). :func:`move_error`
gives the first rule a move breaks as a :class:`Refusal`, :func:`legal_moves` every move none
breaks, and :func:`apply` checks a move and then makes it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, assert_never

from attrs import frozen

from gaple.hand import (
    Action,
    Discard,
    End,
    Ending,
    IllegalMove,
    Lead,
    Move,
    Pass,
    Place,
    State,
    acted,
)
from gaple.reference.deciding import decides
from gaple.reference.ending import ending_after, hand_over
from gaple.reference.equipment import table
from gaple.reference.line import Ends, end_number, fits, joined, line_ends, opened, playable
from gaple.reference.opening import banned, lead_rule, leadable, must_lead, rule_leads
from gaple.rules import BlockedAction, LeadRule, Ruleset
from gaple.tiles import Tile

__all__ = [
    "Code",
    "Refusal",
    "apply",
    "holds",
    "is_legal",
    "legal_moves",
    "move_error",
    "must_place",
    "next_state",
    "stuck_seat_discards",
    "stuck_seat_passes",
    "turn_after",
    "verify",
]


@decides("turn.order")
def turn_after(rules: Ruleset, acting: int, seat: int | None) -> int | None:
    """Only the seat to act may act, and after every action the turn passes to the next seat
    (SUWIKI, PAGAT, DOMINO4D): the seat to act once ``seat`` has acted in ``acting``'s turn,
    or ``None`` when ``seat`` is another seat than ``acting``. A move named without a seat is
    the seat to act's."""
    if seat is not None and seat != acting:
        return None
    return table(rules).after(acting)


@decides("play.in-hand")
def holds(hand: Sequence[Tile], tile: Tile) -> bool:
    """A seat may only lead, place or discard a tile that is in its own hand (SUWIKI, PAGAT)."""
    return tile in hand


@decides("turn.forced-play")
def must_place(hand: Sequence[Tile], ends: Ends) -> bool:
    """A seat that can place a tile must place one; it may pass or discard only when none of
    its tiles matches either end (SUWIKI, DOMINO4D, PAGAT)."""
    return bool(playable(hand, ends))


@decides("block.pass")
def stuck_seat_passes(rules: Ruleset) -> bool:
    """Under the pass option a seat that cannot place simply passes; it never discards
    (SUWIKI, DOMINO4D, PAGAT)."""
    return rules.blocked_action is BlockedAction.PASS


@decides("block.discard")
def stuck_seat_discards(rules: Ruleset) -> bool:
    """Under the discard option a seat that cannot place discards one tile of its choice face
    down, which stays the seat's and counts against it; it never simply passes (PAGAT,
    PAGAT-ID, BLOCK100, CHIPS)."""
    return rules.blocked_action is BlockedAction.DISCARD


def legal_moves(state: State) -> tuple[Move, ...]:
    """Every move the seat to act may make, in the engine's order: on an empty table the
    leads, by tile; else the placements, by tile, left end before right; else the pass, or
    the discards by tile. Empty once the hand is over."""
    seat = state.to_act
    if hand_over(state) or seat is None:
        return ()
    hand = state.hand(seat)
    if must_lead(state.line):
        allowed = leadable(state.rules, first_hand=state.first_hand)
        return tuple(Lead(tile) for tile in hand if tile in allowed)
    ends = line_ends(state.line)
    if must_place(hand, ends):
        return tuple(
            Place(tile, end)
            for tile in hand
            for end in (End.LEFT, End.RIGHT)
            if fits(tile, end_number(ends, end))
        )
    if stuck_seat_passes(state.rules):
        return (Pass(),)
    return tuple(Discard(tile) for tile in hand)


def move_error(state: State, move: Move, seat: int | None = None) -> Refusal | None:
    """The first rule ``move`` breaks, or ``None`` when the seat to act may make it.

    The checks run in the order of :data:`gaple.hand.ERROR_CODES`: the hand is over, another
    seat is to act; then for a lead the line has begun, the tile is not held, it is banned, the
    lead rule refuses it; for a placement the table is empty, the tile is not held, it does not
    fit the end; for a pass or a discard the table is empty, the blocked-seat option asks for
    the other, the discarded tile is not held, a tile could be placed.
    """
    if hand_over(state):
        return Refusal("hand-over", "end.final", ending=state.ending)
    acting = state.to_act
    assert acting is not None  # a seat is to act exactly while the hand goes on
    if turn_after(state.rules, acting, seat) is None:
        return Refusal("wrong-seat", "turn.order", seat=acting, named=seat)
    hand = state.hand(acting)
    if isinstance(move, Lead):
        return _lead_error(state, acting, hand, move.tile)
    if must_lead(state.line):
        return Refusal("lead-required", "open.lead", seat=acting)
    ends = line_ends(state.line)
    if isinstance(move, Place):
        if not holds(hand, move.tile):
            return Refusal("not-in-hand", "play.in-hand", seat=acting, tile=move.tile)
        if joined(state.line, move.tile, move.end) is None:
            number = end_number(ends, move.end)
            return Refusal(
                "no-match", "play.match-end", tile=move.tile, end=move.end, number=number
            )
        return None
    if isinstance(move, Discard) and stuck_seat_passes(state.rules):
        return Refusal("discard-not-allowed", "block.pass")
    if isinstance(move, Pass) and stuck_seat_discards(state.rules):
        return Refusal("pass-not-allowed", "block.discard")
    if isinstance(move, Discard) and not holds(hand, move.tile):
        return Refusal("not-in-hand", "play.in-hand", seat=acting, tile=move.tile)
    if must_place(hand, ends):
        example = playable(hand, ends)[0]
        return Refusal("must-place", "turn.forced-play", seat=acting, example=example)
    return None


def verify(state: State, move: Move, seat: int | None = None) -> None:
    """Check ``move`` for the seat to act (and, if given, that ``seat`` is that seat).

    Raises:
        gaple.hand.IllegalMove: the first rule the move breaks (:func:`move_error`).
    """
    refusal = move_error(state, move, seat)
    if refusal is not None:
        raise refusal.to_error()


def is_legal(state: State, move: Move, seat: int | None = None) -> bool:
    """Whether :func:`apply` would accept ``move``."""
    return move_error(state, move, seat) is None


def apply(state: State, move: Move, seat: int | None = None) -> State:
    """The state after the seat to act makes ``move``: :func:`verify`, then :func:`next_state`.

    Raises:
        gaple.hand.IllegalMove: the first rule the move breaks (:func:`move_error`).
    """
    verify(state, move, seat)
    return next_state(state, move)


def next_state(state: State, move: Move) -> State:
    """The state after the seat to act makes ``move``, which :func:`move_error` accepts.

    A tile led or placed leaves the hand for the line (``open.lead``, ``play.match-end``); a
    discarded tile leaves it for the seat's discards (``block.discard``); a pass changes
    nothing but the turn (``block.pass``). Then the hand ends if the mover has gone out or
    nobody can place (``end.out``, ``end.blocked``); otherwise the next seat acts
    (``turn.order``).
    """
    seat = state.to_act
    assert seat is not None  # move_error refuses every move once the hand has ended
    hand, discards, line = state.hand(seat), state.discards(seat), state.line
    match move:
        case Lead(tile):
            hand, line = _without(hand, tile), opened(tile)
        case Place(tile, end):
            placed = joined(line, tile, end)
            assert placed is not None  # move_error refuses a tile that does not fit its end
            hand, line = _without(hand, tile), placed
        case Discard(tile):
            hand, discards = _without(hand, tile), (*discards, tile)
        case Pass():
            pass
    hands = [hand if other == seat else state.hand(other) for other in table(state.rules).seats]
    ending = ending_after(move, hand, hands, line_ends(line))
    return acted(
        state,
        Action(seat, move),
        hand=hand,
        discards=discards,
        line=line,
        ending=ending,
        to_act=None if ending else turn_after(state.rules, seat, None),
    )


def _lead_error(state: State, acting: int, hand: tuple[Tile, ...], tile: Tile) -> Refusal | None:
    """:func:`move_error` of a lead of ``tile`` by ``acting``, who holds ``hand``."""
    if not must_lead(state.line):
        return Refusal("line-started", "open.lead", tile=tile)
    if not holds(hand, tile):
        return Refusal("not-in-hand", "play.in-hand", seat=acting, tile=tile)
    rules = state.rules
    if banned(rules, tile):
        return Refusal("illegal-lead", "open.forbidden", tile=tile)
    lead = lead_rule(rules, first_hand=state.first_hand)
    if tile not in rule_leads(lead, rules.max_pip):
        return Refusal("illegal-lead", lead.rule_id, tile=tile, lead=lead)
    return None


def _without(hand: tuple[Tile, ...], tile: Tile) -> tuple[Tile, ...]:
    return tuple(held for held in hand if held != tile)


Code = Literal[
    "hand-over",
    "wrong-seat",
    "line-started",
    "lead-required",
    "not-in-hand",
    "illegal-lead",
    "no-match",
    "must-place",
    "pass-not-allowed",
    "discard-not-allowed",
]
"""The error codes, as :data:`gaple.hand.ERROR_CODES` lists them."""


@frozen
class Refusal:
    """Why a move is refused: its error code (:data:`gaple.hand.ERROR_CODES`), the rule it
    breaks, and the facts that decided it; :attr:`message` words them."""

    code: Code
    """One of :data:`gaple.hand.ERROR_CODES`."""
    rule_id: str
    """The rule broken."""
    seat: int | None = None
    """The seat to act."""
    named: int | None = None
    """The seat the move was made for, when another seat is to act."""
    tile: Tile | None = None
    """The tile of the move."""
    end: End | None = None
    """The end a placement named."""
    number: int | None = None
    """The number that end shows."""
    example: Tile | None = None
    """A tile the seat could place instead (the first in canonical order)."""
    ending: Ending | None = None
    """How the hand ended."""
    lead: LeadRule | None = None
    """The lead rule in force, when it refuses the tile."""

    @property
    def message(self) -> str:
        """The refusal in words, from its facts: the one place it is worded."""
        code = self.code
        match code:
            case "hand-over":
                ending = self.ending.value if self.ending is not None else None
                return f"the hand has ended {ending}"
            case "wrong-seat":
                return f"seat {self.seat} is to act, not {self.named}"
            case "line-started":
                return f"cannot lead {self.tile}: the line has already begun"
            case "lead-required":
                return f"the table is empty: seat {self.seat} must lead a tile"
            case "not-in-hand":
                return f"seat {self.seat} does not hold {self.tile}"
            case "illegal-lead" if self.lead is None:
                return f"{self.tile} may not be led (house rule)"
            case "illegal-lead":
                wanted = "0-0" if self.lead is LeadRule.DOUBLE_BLANK else "a double"
                return f"{self.tile} cannot open: the lead must be {wanted}"
            case "no-match":
                end = self.end.value if self.end is not None else None
                return f"{self.tile} has no half showing {self.number}, the {end} end"
            case "must-place":
                return f"seat {self.seat} can place {self.example}, so must place"
            case "discard-not-allowed":
                return "under the pass option a stuck seat passes"
            case "pass-not-allowed":
                return "under the discard option a stuck seat discards"
            case _:
                assert_never(code)

    def to_error(self) -> IllegalMove:
        """The engine's exception for this refusal."""
        return IllegalMove(self.code, self.rule_id, self.message)
