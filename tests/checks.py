"""The invariant checks every test of a hand uses (the strategies live in :mod:`gaple.testing`).

Checks: each ``check_*`` function raises ``AssertionError`` naming what broke. The state checks
(:func:`check_state`) hold at every state of every hand; :func:`check_step` holds for every
accepted move; :func:`check_move_agreement` compares ``is_legal``, ``verify`` and
``legal_moves`` over every move the tile set allows. The expected answers are computed here
from the tiles themselves (``Tile.has``, plain sets), not from the engine's bitset tables, so
the checks are an independent reading of the rules.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

from gaple.reference.deal import turns_up_starter
from gaple.registry import RULES
from gaple.rules import BlockedAction, LeadRule, Ruleset
from gaple.state import (
    ERROR_CODES,
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
    is_legal,
    legal_moves,
    verify,
)
from gaple.tiles import Tile, tile_set

__all__ = [
    "check_conservation",
    "check_end_matching",
    "check_ending",
    "check_error",
    "check_forced_play",
    "check_length_bound",
    "check_live",
    "check_move_agreement",
    "check_pass_runs",
    "check_state",
    "check_step",
    "check_turn",
    "every_move",
    "expected_error",
    "max_actions",
]

# ---------------------------------------------------------------------------------------------
# The moves a set allows, and an independent reading of which are legal
# ---------------------------------------------------------------------------------------------


@functools.cache
def every_move(max_pip: int) -> tuple[Move, ...]:
    """Every move over the double-``max_pip`` set: lead, place at each end, discard each tile,
    and pass; legal or not."""
    tiles = tile_set(max_pip).tiles
    return (
        *(Lead(t) for t in tiles),
        *(Place(t, end) for t in tiles for end in End),
        Pass(),
        *(Discard(t) for t in tiles),
    )


def _allowed_leads(state: State) -> set[Tile]:
    """The tiles the lead rule in force lets open (``open.*``), without the engine's tables."""
    rules = state.rules
    lead = rules.first_lead if state.first_hand else rules.later_lead
    tiles = tile_set(rules.max_pip).tiles
    if lead is LeadRule.DOUBLE_BLANK:
        allowed = {Tile(0, 0)}
    elif lead is LeadRule.DOUBLE:
        allowed = {t for t in tiles if t.is_double}
    else:
        allowed = set(tiles)
    return allowed - rules.forbidden_leads


def _fits(tile: Tile, ends: tuple[int, int]) -> bool:
    return tile.has(ends[0]) or tile.has(ends[1])


def expected_error(state: State, move: Move, seat: int | None = None) -> str | None:
    """The error code the documented precedence at ``ERROR_CODES`` gives, or ``None`` if legal.

    Written from the docstring of :data:`gaple.hand.ERROR_CODES`: hand-over, wrong-seat; then
    per move kind, in order: lead (line-started, not-in-hand, illegal-lead); place
    (lead-required, not-in-hand, no-match); pass (lead-required, pass-not-allowed,
    must-place); discard (lead-required, discard-not-allowed, not-in-hand, must-place).
    """
    acting = state.to_act
    if state.ending is not None or acting is None:
        return "hand-over"
    if seat is not None and seat != acting:
        return "wrong-seat"
    hand = set(state.hand(acting))
    if isinstance(move, Lead):
        if state.line:
            return "line-started"
        if move.tile not in hand:
            return "not-in-hand"
        return None if move.tile in _allowed_leads(state) else "illegal-lead"
    ends = state.ends
    if ends is None:
        return "lead-required"
    stuck = not any(_fits(t, ends) for t in hand)
    pass_rule = state.rules.blocked_action is BlockedAction.PASS
    if isinstance(move, Place):
        if move.tile not in hand:
            return "not-in-hand"
        end = ends[0] if move.end is End.LEFT else ends[1]
        return None if move.tile.has(end) else "no-match"
    if isinstance(move, Pass):
        if not pass_rule:
            return "pass-not-allowed"
        return None if stuck else "must-place"
    if pass_rule:
        return "discard-not-allowed"
    if move.tile not in hand:
        return "not-in-hand"
    return None if stuck else "must-place"


def check_error(state: State, move: Move, seat: int | None = None) -> None:
    """A rejected move raises IllegalMove with the code the precedence gives and a rule ID that
    the code lists and the registry defines; an accepted move raises nothing."""
    expected = expected_error(state, move, seat)
    rejection: IllegalMove | None = None
    try:
        verify(state, move, seat)
    except IllegalMove as error:
        rejection = error
    if rejection is None:
        assert expected is None, f"{move} by {seat} accepted, want {expected}"
        return
    code = rejection.code
    assert code == expected, f"{move} by {seat}: code {code}, want {expected}"
    assert code in ERROR_CODES, f"unknown error code {code}"
    rule_ids = ERROR_CODES[code][0]
    assert rejection.rule_id in rule_ids, f"{code} names {rejection.rule_id}, not {rule_ids}"
    assert rejection.rule_id in RULES, f"{rejection.rule_id} is not in the rule registry"
    assert rejection.message, "an IllegalMove must say what went wrong"


def check_move_agreement(state: State, seats: Iterable[int | None] = (None,)) -> None:
    """Only listed moves are accepted and every listed move is accepted, over every move of the
    set; every rejection carries the right code and rule (``check_error``)."""
    listed = legal_moves(state)
    assert len(set(listed)) == len(listed), f"legal_moves repeats a move: {listed}"
    listed_set = set(listed)
    for move in every_move(state.rules.max_pip):
        legal = is_legal(state, move)
        assert legal == (move in listed_set), f"is_legal({move}) = {legal}, listed: {listed}"
        for seat in seats:
            check_error(state, move, seat)


# ---------------------------------------------------------------------------------------------
# Invariants of every state
# ---------------------------------------------------------------------------------------------


@functools.cache
def _tile_bits(max_pip: int) -> dict[tuple[int, int], int]:
    """The bit of each tile of the set, keyed by its two halves in either order."""
    full = tile_set(max_pip)
    bits = {(t.low, t.high): 1 << i for i, t in enumerate(full.tiles)}
    bits.update({(t.high, t.low): 1 << i for i, t in enumerate(full.tiles)})
    return bits


def check_conservation(state: State) -> None:
    """Hands, line, discards and undealt tiles hold every tile of the set exactly once
    (rules ``tiles.set``, ``deal.starter``); the line's bitset agrees with the line.

    Works on bitsets (one bit per tile, see :mod:`gaple.tiles`) because the exhaustive tests
    run it millions of times; the line itself is read half by half.
    """
    full = tile_set(state.rules.max_pip)
    bits = _tile_bits(state.rules.max_pip)
    line = 0
    for halves in state.line:
        assert halves in bits, f"{halves} in the line is not a tile of the set"
        assert not line & bits[halves], f"{halves} is twice in the line"
        line |= bits[halves]
    assert line == state.line_mask, "line_mask disagrees with the line"
    players = range(state.rules.players)
    parts = [(f"seat {seat}'s hand", state.hand_masks[seat]) for seat in players]
    parts += [(f"seat {seat}'s discards", state.discard_masks[seat]) for seat in players]
    parts += [("the line", line), ("the set-aside tiles", full.mask(state.set_aside))]
    seen = 0
    for name, mask in parts:
        assert not seen & mask, f"{full.unpack(seen & mask)} in {name} and elsewhere too"
        seen |= mask
    assert seen == full.full, f"tiles lost or foreign: {seen ^ full.full:b}"
    if state.deal.starter is not None:
        assert line & bits[state.deal.starter.low, state.deal.starter.high], "starter left"


def check_end_matching(state: State) -> None:
    """Touching halves of neighbouring tiles show the same number (``play.match-end``), and the
    open ends are the outer halves of the line."""
    line = state.line
    for i in range(len(line) - 1):
        assert line[i][1] == line[i + 1][0], f"tiles {i} and {i + 1} do not match: {line}"
    for left, right in line:
        assert 0 <= left <= state.rules.max_pip
        assert 0 <= right <= state.rules.max_pip
    if line:
        assert state.ends == (line[0][0], line[-1][1]), f"ends {state.ends} of {line}"
    else:
        assert state.ends is None


def check_turn(state: State) -> None:
    """A seat is to act exactly while the hand goes on, and turns go round the table from the
    opener (``turn.order``): the i-th action is by seat (opener + i) mod players."""
    assert (state.to_act is None) == state.is_over, f"to_act {state.to_act}, {state.ending}"
    players = state.rules.players
    if state.to_act is not None:
        assert 0 <= state.to_act < players
        assert state.to_act == (state.opener + len(state.history)) % players
    for i, action in enumerate(state.history):
        assert action.seat == (state.opener + i) % players, f"action {i} by {action.seat}"


def check_live(state: State) -> None:
    """A hand that has not ended always offers the seat to act at least one move."""
    if not state.is_over:
        assert legal_moves(state), "a live hand with no legal move"


def check_ending(state: State) -> None:
    """The hand ends exactly when a seat has no tiles (``end.out``, that seat made the last
    action) or no seat holding tiles can place (``end.blocked``)."""
    players = state.rules.players
    empty = [seat for seat in range(players) if not state.hand(seat)]
    ends = state.ends
    someone_fits = ends is None or any(
        _fits(t, ends) for seat in range(players) for t in state.hand(seat)
    )
    if state.ending is Ending.OUT:
        assert empty == [state.history[-1].seat], f"out, but empty hands are {empty}"
        assert state.out_seat == state.history[-1].seat
    else:
        assert not empty, f"seats {empty} have no tiles but the hand did not end by going out"
        assert state.out_seat is None
    if state.ending is Ending.BLOCKED:
        assert not someone_fits, "blocked, yet a seat holds a tile that fits"
        # Only a tile put down can block a hand (or the starter, before anyone acts): the
        # last placer, the blocker, is the last seat to act.
        if state.history:
            assert state.last_placer == state.history[-1].seat
        else:
            assert state.last_placer is None
    if state.ending is None:
        assert someone_fits, "nobody can place, yet the hand goes on"


def check_forced_play(state: State) -> None:
    """``legal_moves`` is exactly what the rules allow: a lead when the table is empty; else
    every placement of a fitting tile; a pass or discard only when none fits
    (``turn.forced-play``, ``block.pass``, ``block.discard``)."""
    moves = legal_moves(state)
    if state.to_act is None:
        assert moves == ()
        return
    hand = state.hand(state.to_act)
    ends = state.ends
    want: set[Move]
    if ends is None:
        want = {Lead(t) for t in hand if t in _allowed_leads(state)}
    elif any(_fits(t, ends) for t in hand):
        want = {Place(t, End.LEFT) for t in hand if t.has(ends[0])}
        want |= {Place(t, End.RIGHT) for t in hand if t.has(ends[1])}
    elif state.rules.blocked_action is BlockedAction.PASS:
        want = {Pass()}
    else:
        want = {Discard(t) for t in hand}
    assert set(moves) == want, f"legal moves {moves}, want {sorted(map(str, want))}"
    assert len(moves) == len(want), f"legal_moves repeats a move: {moves}"
    # The documented order (seeded random play depends on it): by tile, left end first.
    assert list(moves) == sorted(moves, key=_move_order), f"legal_moves out of order: {moves}"


def _move_order(move: Move) -> tuple[Tile, int]:
    if isinstance(move, Pass):
        return Tile(0, 0), 0
    return move.tile, int(isinstance(move, Place) and move.end is End.RIGHT)


def max_actions(rules: Ruleset) -> int:
    """A proven upper bound on the number of actions in one hand (the docs' end-of-hand page
    has the same proof).

    Let p = players, h = hand_size and T = p * (h - 1) + 1. Every lead, placement or discard
    (a *tile action*) removes one tile from the actor's hand, and the hand ends the moment a
    seat has none left. While no seat is empty each seat has lost at most h - 1 tiles, at most
    T - 1 in all; so the T-th tile action at the latest empties a hand and ends it.

    DISCARD: every action is a tile action, so a hand has at most T actions.

    PASS: a pass changes neither the hands nor the ends, and the hand ends only after a tile
    action, so the last action is one. Seats act strictly in turn and never all p pass in a
    row (they would all be unable to place on unchanged ends, and the hand would have ended
    blocked), so between tile actions by seats a and b exactly the (b - a - 1) mod p seats in
    between pass: p - 1 passes exactly when a = b, at most p - 2 otherwise. Before the first
    tile action by seat b at most (b - first seat) mod p <= p - 1 seats pass, and none before a
    lead.

    With A <= T - 1 tile actions: at most A + (p - 1) * A <= (T - 1) + (p - 1) * (T - 1) actions
    with a starter, and without one, the lead having no pass before it,
    A + (p - 1) * (A - 1) <= (T - 1) + (p - 1) * (T - 2): each below its bound below.

    With exactly T tile actions and h >= 2, when the last begins every seat holds exactly one
    tile (T - 1 = p * (h - 1) tiles gone, none more than h - 1 from one seat), so every seat made
    at least h - 1 >= 1 tile actions: all p seats occur among the T actors, which therefore
    change from one tile action to the next at least p - 1 times, each change cutting the
    passes before it to p - 2 or fewer. Passes <= (p - 1) * T - (p - 1) = (p - 1) * (T - 1):
    at most T + (p - 1) * (T - 1) actions with a starter. Without one the first tile action is
    the lead, with no pass before it instead of up to p - 1: T + (p - 1) * (T - 2).

    With h = 1 (T = 1) the one tile action ends the hand: with a starter up to p - 1 seats may
    pass first (p actions), without one the lead goes out at once (1 action).

    tests/test_exhaustive.py finds the exact maxima on the double-3 set by search, all within
    this bound and equal to it for 2 x 3 with a starter (9).
    """
    players, hand_size = rules.players, rules.hand_size
    tile_actions = players * (hand_size - 1) + 1
    if rules.blocked_action is BlockedAction.DISCARD:
        return tile_actions
    if hand_size == 1:
        return players if turns_up_starter(rules) else 1
    unchanged = tile_actions - 1 if turns_up_starter(rules) else tile_actions - 2
    return tile_actions + (players - 1) * unchanged


def check_length_bound(state: State) -> None:
    """The hand has not exceeded :func:`max_actions` (termination)."""
    bound = max_actions(state.rules)
    assert len(state.history) <= bound, f"{len(state.history)} actions, bound {bound}"


def check_pass_runs(state: State) -> None:
    """Never ``players`` passes in a row, and a pass is never the last action of a hand."""
    run = 0
    for action in state.history:
        run = run + 1 if isinstance(action.move, Pass) else 0
        assert run < state.rules.players, "every seat passed in turn on unchanged ends"
    if state.is_over and state.history:
        assert not isinstance(state.history[-1].move, Pass), "a pass ended the hand"


def check_state(state: State) -> None:
    """Every invariant of a single state."""
    check_conservation(state)
    check_end_matching(state)
    check_turn(state)
    check_live(state)
    check_ending(state)
    check_forced_play(state)
    check_length_bound(state)
    check_pass_runs(state)


# ---------------------------------------------------------------------------------------------
# Invariants of one step
# ---------------------------------------------------------------------------------------------


def check_step(before: State, move: Move, after: State) -> None:
    """What one accepted move changes: the actor's hand loses the tile it used (nothing for a
    pass), the other hands stay, a placement changes only the end it names, a lead starts the
    line low half left, a pass or discard leaves the line alone and never blocks the hand, and
    the history grows by exactly this action."""
    seat = before.to_act
    assert seat is not None, "a move was accepted after the end of the hand"
    assert after.history == (*before.history, Action(seat, move))
    players = before.rules.players
    for other in range(players):
        if other != seat:
            assert after.hand_masks[other] == before.hand_masks[other], f"seat {other}'s hand"
            assert after.discard_masks[other] == before.discard_masks[other]
    mine_before, mine_after = set(before.hand(seat)), set(after.hand(seat))
    if isinstance(move, Pass):
        assert mine_after == mine_before
        assert after.line == before.line
        assert after.discard_masks == before.discard_masks
        assert after.ending is None, "a pass ended the hand"
    else:
        assert mine_after == mine_before - {move.tile}, f"{move} did not take {move.tile}"
        assert move.tile in mine_before
    if isinstance(move, Discard):
        assert after.line == before.line, "a discard changed the line"
        assert set(after.discards(seat)) == set(before.discards(seat)) | {move.tile}
        # A discard can end the hand only by emptying the discarder's hand (decision 12).
        assert after.ending is (Ending.OUT if not mine_after else None)
    if isinstance(move, Lead):
        assert before.line == ()
        assert after.line == ((move.tile.low, move.tile.high),)
    if isinstance(move, Place):
        assert before.ends is not None
        assert after.ends is not None
        old_left, old_right = before.ends
        if move.end is End.LEFT:
            assert after.line[1:] == before.line, "a left placement changed the rest of the line"
            assert after.line[0] == (move.tile.other(old_left), old_left)
            assert after.ends[1] == old_right
        else:
            assert after.line[:-1] == before.line, "a right placement changed the rest"
            assert after.line[-1] == (old_right, move.tile.other(old_right))
            assert after.ends[0] == old_left
    if not isinstance(move, Pass | Discard) and after.ending is not Ending.OUT:
        assert (after.ending is Ending.BLOCKED) == (after.to_act is None)
    if after.ending is None:
        assert after.to_act == (seat + 1) % players
