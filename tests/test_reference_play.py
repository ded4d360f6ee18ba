"""The reference rules (:mod:`gaple.reference`) play exactly as the engine (:mod:`gaple.state`).

Two independent implementations of the same rules are compared, so neither's output is taken
on trust: at every state the legal moves (the same tuple, in the same order), and for every
move over the set plus some with a tile outside it, made for no seat, the seat to act and
another seat, the verdict (accepted, or refused with the same code, rule ID and message) and,
when accepted, the next state field by field. ``new_hand`` is compared on every deal.

* Every reachable state of every double-2 deal (seat 0 designated, as in
  :mod:`test_exhaustive`), every seat count and hand size that fits, pass and discard, every
  lead rule as the first hand's and as a later hand's, and house bans on leading.
* Every reachable state of the double-3 deals up to renaming, under the ``ci`` profile only.
* Random rulesets (presets and drawn options), deals and move sequences with illegal probes.

``pytest -s`` prints the number of deals and states visited; each test asserts a lower bound
on them reasoned from the counts of deals, so an enumeration cannot silently shrink.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from checks import every_move
from gaple.deal import Deal, InvalidDeal
from gaple.reference import deal as reference_deal
from gaple.reference import equipment, opening, turn
from gaple.reference.ending import blocker
from gaple.result import position_of
from gaple.rules import BlockedAction, LeadRule, Ruleset
from gaple.state import Discard, End, IllegalMove, Lead, Move, Place, State
from gaple.state import apply as engine_apply
from gaple.state import legal_moves as engine_legal_moves
from gaple.state import new_hand as engine_new_hand
from gaple.state import verify as engine_verify
from gaple.testing.strategies import deals, preset_rulesets, random_rulesets
from gaple.tiles import Tile, tile_set
from test_exhaustive import CI, DOUBLE_2_SHAPES, all_deals, deal_count


def probes(max_pip: int) -> tuple[Move, ...]:
    """Every move over the double-``max_pip`` set, and each kind with a tile outside it whose
    one half (0) would match a 0 end, so only the in-hand check can refuse it."""
    outside = Tile(0, max_pip + 1)
    return (
        *every_move(max_pip),
        Lead(outside),
        Place(outside, End.LEFT),
        Place(outside, End.RIGHT),
        Discard(outside),
    )


def engine_error(state: State, move: Move, seat: int | None) -> IllegalMove | None:
    """The engine's refusal of ``move``, or ``None`` when it accepts it."""
    try:
        engine_verify(state, move, seat)
    except IllegalMove as error:
        return error
    return None


def verdicts_to_compare(state: State) -> Iterator[tuple[Move, int | None]]:
    """Every probe for no seat and for the seat to act; for the seat after it, a lead, a
    placement, a pass and a discard (that seat is refused before its move is read, so more
    moves would only repeat the check). Seats 0 and 1 once the hand is over."""
    moves = probes(state.rules.max_pip)
    if state.to_act is None:
        return ((move, seat) for move in moves for seat in (None, 0, 1))
    acting = state.to_act
    other = (acting + 1) % state.rules.players
    one_of_each = {type(move): move for move in reversed(moves)}.values()
    return itertools.chain(
        ((move, seat) for move in moves for seat in (None, acting)),
        ((move, other) for move in one_of_each),
    )


def compare_at(state: State) -> tuple[State, ...]:
    """Assert the reference agrees with the engine at ``state``; the states after each legal
    move."""
    legal = engine_legal_moves(state)
    assert turn.legal_moves(state) == legal, state
    for move, seat in verdicts_to_compare(state):
        expected = engine_error(state, move, seat)
        refusal = turn.move_error(state, move, seat)
        if expected is None:
            assert refusal is None, (state, move, seat, refusal)
            continue
        assert refusal is not None, (state, move, seat, expected)
        got = refusal.to_error()
        assert (got.code, got.rule_id, got.message) == (
            expected.code,
            expected.rule_id,
            expected.message,
        ), (state, move, seat)
    if state.to_act is None and position_of(state).blocker is not None:
        assert blocker(state) == position_of(state).blocker
    after = tuple(engine_apply(state, move) for move in legal)
    assert tuple(turn.apply(state, move) for move in legal) == after, state
    return after


def compare_new_hand(rules: Ruleset, deal: Deal, *, first_hand: bool) -> State:
    """Assert the reference's start of the hand, from every designated seat, is the engine's;
    the start from ``deal`` itself."""
    for seat in range(rules.players):
        rotated = attrs.evolve(deal, first_seat=seat)
        assert opening.new_hand(rules, rotated, first_hand=first_hand) == engine_new_hand(
            rules, rotated, first_hand=first_hand
        )
    return engine_new_hand(rules, deal, first_hand=first_hand)


def explore(rules: Ruleset, deal: Deal, *, first_hand: bool) -> int:
    """Compare at every state reachable from ``deal``; the number of states visited."""
    visited = 0
    stack = [compare_new_hand(rules, deal, first_hand=first_hand)]
    while stack:
        state = stack.pop()
        visited += 1
        stack.extend(compare_at(state))
    return visited


def _later(lead: LeadRule) -> LeadRule:
    """Another lead rule than ``lead``, so a first and a later hand differ."""
    rules = list(LeadRule)
    return rules[(rules.index(lead) + 1) % len(rules)]


def double_2_cases() -> Iterator[tuple[Ruleset, bool]]:
    """(rules, first hand) for every double-2 shape and blocked-seat option; with every tile
    dealt, every lead rule as the first hand's (its later rule another) in a first and (but
    with six seats) a later hand; and some shapes with 1-1 and 0-2 banned from leading."""
    for (players, size), action in itertools.product(DOUBLE_2_SHAPES, BlockedAction):
        base = Ruleset(max_pip=2, players=players, hand_size=size, blocked_action=action)
        if players * size < 6:
            yield base.replace(first_lead=LeadRule.ANY_TILE), True
            continue
        # Six seats of one tile each: a later hand would add nothing but time.
        for lead, first_hand in itertools.product(LeadRule, (True, False)[: 1 + (players < 6)]):
            yield base.replace(first_lead=lead, later_lead=_later(lead)), first_hand
    for (players, size), action in itertools.product([(2, 3), (3, 2), (2, 2)], BlockedAction):
        rules = Ruleset(
            max_pip=2,
            players=players,
            hand_size=size,
            blocked_action=action,
            first_lead=LeadRule.ANY_TILE,
            later_lead=LeadRule.DOUBLE,
            forbidden_leads=frozenset({Tile(1, 1), Tile(0, 2)}),
        )
        yield rules, True
        if players * size == 6:
            yield rules, False


def _case_id(case: tuple[Ruleset, bool]) -> str:
    rules, first_hand = case
    banned = "-banned" if rules.forbidden_leads else ""
    lead = rules.lead_rule(first_hand=first_hand).value
    hand = "first" if first_hand else "later"
    return f"{rules.players}x{rules.hand_size}-{rules.blocked_action.value}-{hand}-{lead}{banned}"


def _enumerate(rules: Ruleset, *, first_hand: bool, renamed: bool) -> tuple[int, int]:
    deals = states = 0
    for deal in all_deals(rules, renamed=renamed):
        deals += 1
        states += explore(rules, deal, first_hand=first_hand)
    print(
        f"\ndouble-{rules.max_pip} {_case_id((rules, first_hand))}: {deals} deals, {states} states"
    )
    return deals, states


def _lower_bound(rules: Ruleset, deals: int) -> int:
    # Every deal gives its first state; without a starter the opener always has a lead (a
    # ruleset leaves one), so such a deal gives a second state too.
    return deals if rules.has_starter else 2 * deals


DOUBLE_2_CASES = list(double_2_cases())


@pytest.mark.parametrize("case", DOUBLE_2_CASES, ids=_case_id)
def test_reference_plays_every_double_2_state_as_the_engine(case: tuple[Ruleset, bool]) -> None:
    rules, first_hand = case
    deals, states = _enumerate(rules, first_hand=first_hand, renamed=False)
    assert deals == deal_count(rules)
    assert states >= _lower_bound(rules, deals)


DOUBLE_3 = [
    Ruleset(max_pip=3, players=p, hand_size=h, blocked_action=action, first_lead=lead)
    for p, h in [(2, 5), (2, 4), (2, 3), (3, 3), (3, 2)]
    for action in BlockedAction
    for lead in ([LeadRule.ANY_TILE, LeadRule.DOUBLE] if p * h == 10 else [LeadRule.ANY_TILE])
]


@pytest.mark.skipif(not CI, reason="millions of states: runs under HYPOTHESIS_PROFILE=ci")
@pytest.mark.parametrize("rules", DOUBLE_3, ids=lambda r: _case_id((r, True)))
def test_reference_plays_every_double_3_state_as_the_engine(rules: Ruleset) -> None:
    deals, states = _enumerate(rules, first_hand=True, renamed=True)
    # As in test_exhaustive: each class of renamings holds at most 4! = 24 of seat 0's hands.
    assert deals >= deal_count(rules) // 24
    assert states >= _lower_bound(rules, deals)


# --- random rulesets, deals and hands --------------------------------------------------------


@given(data=st.data(), rules=st.one_of(preset_rulesets(), random_rulesets(max_pips=(6,))))
def test_reference_plays_random_double_6_hands_as_the_engine(
    data: st.DataObject, rules: Ruleset
) -> None:
    deal = data.draw(deals(rules))
    state = compare_new_hand(rules, deal, first_hand=data.draw(st.booleans()))
    while after := compare_at(state):
        state = after[data.draw(st.integers(min_value=0, max_value=len(after) - 1))]
    assert state.is_over


@given(data=st.data(), rules=random_rulesets())
def test_verify_and_is_legal_agree_with_the_engine(data: st.DataObject, rules: Ruleset) -> None:
    deal = data.draw(deals(rules))
    state = engine_new_hand(rules, deal, first_hand=data.draw(st.booleans()))
    while True:
        move = data.draw(st.sampled_from(probes(rules.max_pip)))
        seat = data.draw(st.sampled_from((None, *range(rules.players))))
        expected = engine_error(state, move, seat)
        assert turn.is_legal(state, move, seat) == (expected is None)
        if expected is None:
            turn.verify(state, move, seat)
        else:
            with pytest.raises(IllegalMove) as raised:
                turn.verify(state, move, seat)
            assert str(raised.value) == str(expected)
            assert (raised.value.code, raised.value.rule_id) == (expected.code, expected.rule_id)
        legal = engine_legal_moves(state)
        if not legal:
            break
        state = engine_apply(state, data.draw(st.sampled_from(legal)))


def _broken(data: st.DataObject, rules: Ruleset, deal: Deal) -> Deal:
    """``deal`` with one to three things wrong with it, of the kinds Deal.validate reports."""
    outside = Tile(0, rules.max_pip + 1)
    hands = [list(hand) for hand in deal.hands]
    starter, set_aside, first_seat = deal.starter, list(deal.set_aside), deal.first_seat
    for _ in range(data.draw(st.integers(min_value=1, max_value=3))):
        seat = data.draw(st.integers(min_value=0, max_value=len(hands) - 1))
        kind = data.draw(
            st.sampled_from(
                ["drop-hand", "add-hand", "starter", "twice", "outside", "short", "missing", "seat"]
            )
        )
        if kind == "drop-hand" and len(hands) > 1:
            hands.pop()
        elif kind == "add-hand":
            hands.append(hands[0])
        elif kind == "starter":
            starter = None if starter is not None else Tile(0, 0)
        elif kind == "twice" and hands[seat]:
            hands[seat].append(hands[seat][0])
        elif kind == "outside":
            set_aside.append(outside)
        elif kind == "short" and hands[seat]:
            hands[seat].pop()
        elif kind == "missing" and set_aside:
            set_aside.pop(0)
        elif kind == "seat":
            first_seat = data.draw(st.sampled_from([-1, rules.players]))
    return Deal(hands=hands, starter=starter, set_aside=set_aside, first_seat=first_seat)


@given(data=st.data(), rules=st.one_of(preset_rulesets(), random_rulesets()))
def test_deal_problem_is_the_engine_s_deal_check(data: st.DataObject, rules: Ruleset) -> None:
    deal = data.draw(deals(rules))
    if data.draw(st.booleans()):
        deal = _broken(data, rules, deal)
    try:
        deal.validate(rules)
    except InvalidDeal as error:
        expected: str | None = str(error)
    else:
        expected = None
    assert reference_deal.deal_problem(rules, deal) == expected
    if expected is None:
        assert opening.new_hand(rules, deal) == engine_new_hand(rules, deal)
    else:
        with pytest.raises(InvalidDeal) as raised:
            opening.new_hand(rules, deal)
        assert str(raised.value) == expected


@given(rules=st.one_of(preset_rulesets(), random_rulesets()))
def test_deal_sizes_starter_and_sources_are_the_ruleset_s(rules: Ruleset) -> None:
    assert reference_deal.hand_sizes(rules) == (rules.hand_size,) * rules.players
    assert reference_deal.undealt(rules) == rules.undealt
    assert reference_deal.turns_up_starter(rules) == rules.has_starter
    assert reference_deal.sourced(rules) == rules.sourced_deal
    seating = equipment.table(rules)
    assert seating.teams == rules.teams
    for seat in seating.seats:
        assert seating.team_of(seat) == rules.team_of(seat)
        partner = seating.partner(seat)
        if rules.partnership:
            # Seats 0 and 2 against 1 and 3 (table.seats): the partner sits two seats on.
            assert partner == (seat + 2) % 4
        else:
            assert partner is None


@pytest.mark.parametrize("max_pip", range(1, 10))
def test_set_of_is_the_engine_s_set(max_pip: int) -> None:
    tiles = equipment.set_of(max_pip)
    assert tiles == tile_set(max_pip).tiles
    # (N + 1)(N + 2) / 2 distinct tiles, sorted: the canonical order.
    assert len(set(tiles)) == (max_pip + 1) * (max_pip + 2) // 2
    assert list(tiles) == sorted(tiles)
