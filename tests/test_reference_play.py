"""The reference rules (:mod:`gaple.reference`) play exactly as the engine (:mod:`gaple.state`).

Two independent implementations of the same rules are compared, so neither's output is taken
on trust: at every state the legal moves (the same tuple, in the same order), and for every
move over the set plus some with a tile outside it, made for no seat, the seat to act and
another seat, the verdict (accepted, or refused with the same code, rule ID and message) and,
when accepted, the next state field by field. ``new_hand`` is compared on every deal.

* Every reachable state of every double-2 deal (seat 0 designated, as in
  :mod:`test_exhaustive`), every seat count and hand size that fits, pass and discard, every
  lead rule as the first hand's and as a later hand's, and house bans on leading.
* Every reachable state of the double-3 deals up to renaming (the shapes of
  :mod:`test_exhaustive`), under the ``ci`` profile only: about two million states, twenty
  minutes on a busy core; ``GAPLE_EXHAUSTIVE_SHARD=I/N`` shares the deals out as there.
* Random rulesets (presets and drawn options), deals and move sequences with illegal probes.

``pytest -s`` prints the number of deals and states visited; each test asserts a lower bound
on them reasoned from the counts of deals, so an enumeration cannot silently shrink.
"""

from __future__ import annotations

import ast
import inspect
import itertools
from collections.abc import Iterable, Iterator
from types import ModuleType
from typing import get_args

import attrs
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from checks import every_move
from gaple.deal import Deal, InvalidDeal, check_deal, shuffle_deal
from gaple.engine import memo
from gaple.engine.play import playable_count
from gaple.presets import PRESETS
from gaple.reference import deal as reference_deal
from gaple.reference import ending, equipment, line, opening, turn
from gaple.reference import match as reference_match
from gaple.reference.deal import turns_up_starter, undealt
from gaple.reference.deciding import decided_by
from gaple.reference.ending import blocker
from gaple.registry import RULES
from gaple.result import position_of
from gaple.rules import BlockedAction, InvalidRuleset, LeadRule, Ruleset
from gaple.simulate import random_hand
from gaple.state import ERROR_CODES, Discard, End, IllegalMove, Lead, Move, Place, State
from gaple.state import apply as engine_apply
from gaple.state import legal_moves as engine_legal_moves
from gaple.state import new_hand as engine_new_hand
from gaple.state import verify as engine_verify
from gaple.testing.strategies import deals, preset_rulesets, random_rulesets
from gaple.tiles import Tile, tile_set
from test_exhaustive import CI, DOUBLE_2_SHAPES, DOUBLE_3, SHARD, all_deals, deal_count


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
    lead = opening.lead_rule(rules, first_hand=first_hand).value
    hand = "first" if first_hand else "later"
    return f"{rules.players}x{rules.hand_size}-{rules.blocked_action.value}-{hand}-{lead}{banned}"


def _enumerate(rules: Ruleset, *, first_hand: bool, renamed: bool) -> tuple[int, int, int]:
    """Compare at every state of every deal of this shard (``GAPLE_EXHAUSTIVE_SHARD``, as in
    :mod:`test_exhaustive`); the deals counted, the deals explored and the states visited."""
    index, count = SHARD
    deals = explored = states = 0
    for k, deal in enumerate(all_deals(rules, renamed=renamed)):
        deals += 1
        if k % count == index:
            explored += 1
            states += explore(rules, deal, first_hand=first_hand)
    print(
        f"\ndouble-{rules.max_pip} {_case_id((rules, first_hand))}: {deals} deals, "
        f"{explored} explored, {states} states"
    )
    assert explored == len(range(index, deals, count))
    return deals, explored, states


def _lower_bound(rules: Ruleset, deals: int) -> int:
    # Every deal gives its first state; without a starter the opener always has a lead (a
    # ruleset leaves one), so such a deal gives a second state too.
    return deals if turns_up_starter(rules) else 2 * deals


DOUBLE_2_CASES = list(double_2_cases())


@pytest.mark.parametrize("case", DOUBLE_2_CASES, ids=_case_id)
def test_reference_plays_every_double_2_state_as_the_engine(case: tuple[Ruleset, bool]) -> None:
    rules, first_hand = case
    deals, explored, states = _enumerate(rules, first_hand=first_hand, renamed=False)
    assert deals == deal_count(rules)
    assert states >= _lower_bound(rules, explored)


@pytest.mark.skipif(not CI, reason="two million states: runs under HYPOTHESIS_PROFILE=ci")
@pytest.mark.parametrize("rules", DOUBLE_3, ids=lambda r: _case_id((r, True)))
def test_reference_plays_every_double_3_state_as_the_engine(rules: Ruleset) -> None:
    deals, explored, states = _enumerate(rules, first_hand=True, renamed=True)
    # As in test_exhaustive: each class of renamings holds at most 4! = 24 of seat 0's hands.
    assert deals >= deal_count(rules) // 24
    assert states >= _lower_bound(rules, explored)


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


PROBLEMS = (
    "drop-hand",
    "add-hand",
    "starter",
    "twice",
    "outside",
    "short",
    "missing",
    "seat-low",
    "seat-high",
)
"""The kinds of things wrong with a deal that :func:`gaple.deal.check_deal` reports."""


def broken(rules: Ruleset, deal: Deal, problems: Iterable[str]) -> Deal:
    """``deal`` with each of ``problems`` (:data:`PROBLEMS`) made in it, in order."""
    hands = [list(hand) for hand in deal.hands]
    starter, set_aside, first_seat = deal.starter, list(deal.set_aside), deal.first_seat
    for problem in problems:
        if problem == "drop-hand" and len(hands) > 1:
            hands.pop()
        elif problem == "add-hand":
            hands.append(hands[0])
        elif problem == "starter":
            starter = None if starter is not None else Tile(0, 0)
        elif problem == "twice" and hands[0]:
            hands[-1].append(hands[0][0])
        elif problem == "outside":
            set_aside.append(Tile(0, rules.max_pip + 1))
        elif problem == "short" and hands[0]:
            set_aside.append(hands[0].pop())
        elif problem == "missing" and (set_aside or hands[0]):
            (set_aside or hands[0]).pop()
        elif problem == "seat-low":
            first_seat = -1
        elif problem == "seat-high":
            first_seat = rules.players
    return Deal(hands=hands, starter=starter, set_aside=set_aside, first_seat=first_seat)


def compare_deal_check(rules: Ruleset, deal: Deal) -> str | None:
    """The reference's verdict on ``deal`` (:func:`~gaple.reference.deal.deal_problem`), which
    :func:`~gaple.deal.check_deal` and both ``new_hand`` functions must raise in its words."""
    expected = reference_deal.deal_problem(rules, deal)
    if expected is None:
        check_deal(rules, deal)
        assert opening.new_hand(rules, deal) == engine_new_hand(rules, deal)
        return None
    with pytest.raises(InvalidDeal) as by_deal:
        check_deal(rules, deal)
    with pytest.raises(InvalidDeal) as by_reference:
        opening.new_hand(rules, deal)
    with pytest.raises(InvalidDeal) as by_engine:
        engine_new_hand(rules, deal)
    assert str(by_deal.value) == str(by_reference.value) == str(by_engine.value) == expected
    return expected


UNDOING = {("add-hand", "drop-hand"), ("outside", "missing")}
"""The pairs of problems of which the second undoes the first (a copied hand dropped again, the
tile from outside the set taken off the set-aside tiles again)."""


def expected_problem(rules: Ruleset, deal: Deal, problem: str) -> str:
    """What is wrong with ``deal`` once ``problem`` is made in it, reasoned from the rules:
    the deal of seed 1 from seat 1 with one thing broken (see :func:`broken`)."""
    seats, size, last = rules.players, rules.hand_size, rules.players - 1
    first = deal.hands[0][0]
    return {
        "drop-hand": f"the deal has {seats - 1} hands, the rules have {seats} seats",
        "add-hand": f"the deal has {seats + 1} hands, the rules have {seats} seats",
        "starter": (
            f"{undealt(rules)} tiles are undealt, so one must be turned up as the starter"
            if undealt(rules)
            else "every tile is dealt, so there can be no starter"
        ),
        "twice": f"seat {last}: tile {first} is also in seat 0",
        "outside": (
            f"the set-aside tiles: tile 0-{rules.max_pip + 1} is not in the double-"
            f"{rules.max_pip} set"
        ),
        "short": f"seat 0 holds {size - 1} tiles, the rules deal {size}",
        # With nothing set aside the tile goes from seat 0's hand, whose size is checked first.
        "missing": f"tiles missing from the deal: {deal.set_aside[-1]}"
        if deal.set_aside
        else f"seat 0 holds {size - 1} tiles, the rules deal {size}",
        "seat-low": f"first_seat -1 is not a seat (0..{last})",
        "seat-high": f"first_seat {seats} is not a seat (0..{last})",
    }[problem]


DEAL_RULESETS = [
    Ruleset(max_pip=2, players=2, hand_size=3),
    Ruleset(max_pip=2, players=2, hand_size=2),
    Ruleset(),
    Ruleset(players=5, hand_size=5),
]


@pytest.mark.parametrize(
    "rules", DEAL_RULESETS, ids=lambda r: f"{r.max_pip}-{r.players}x{r.hand_size}"
)
def test_every_one_or_two_deal_problems_are_reported_as_the_engine(rules: Ruleset) -> None:
    deal = shuffle_deal(rules, seed=1, first_seat=1)
    assert compare_deal_check(rules, deal) is None
    for problem in PROBLEMS:
        reported = compare_deal_check(rules, broken(rules, deal, [problem]))
        assert reported == expected_problem(rules, deal, problem), problem
    for problems in itertools.permutations(PROBLEMS, 2):
        if problems not in UNDOING:
            assert compare_deal_check(rules, broken(rules, deal, problems)), problems


@given(data=st.data(), rules=st.one_of(preset_rulesets(), random_rulesets()))
def test_deal_problem_is_the_engine_s_deal_check(data: st.DataObject, rules: Ruleset) -> None:
    problems = data.draw(st.lists(st.sampled_from(PROBLEMS), max_size=3, unique=True))
    assume(not any(pair in UNDOING for pair in itertools.combinations(problems, 2)))
    reported = compare_deal_check(rules, broken(rules, data.draw(deals(rules)), problems))
    assert (reported is None) == (not problems)


@pytest.mark.parametrize("max_pip", range(1, 10))
def test_deal_sizes_starter_and_sources_of_every_shape(max_pip: int) -> None:
    size = tile_set(max_pip).size
    shapes = [(p, h) for p in range(2, size + 1) for h in range(1, size // p + 1)]
    for players, hand_size in shapes:
        rules = Ruleset(max_pip=max_pip, players=players, hand_size=hand_size)
        assert reference_deal.hand_sizes(rules) == (hand_size,) * players
        assert reference_deal.undealt(rules) == size - players * hand_size
        starter = reference_deal.turns_up_starter(rules)
        assert starter == (players * hand_size < size) == memo.turns_up_starter(rules)
    # One tile more than the set holds is refused, by the rule deal.sizes itself.
    for players, hand_size in [(p, size // p + 1) for p in range(2, size + 1)]:
        with pytest.raises(InvalidRuleset, match=f"the double-{max_pip} set has only {size}"):
            reference_deal.hand_sizes(
                Ruleset(max_pip=max_pip, players=players, hand_size=hand_size)
            )
    # Only 4 x 7, 4 x 6 and 5 x 5 of double-six are sourced (deal.unsourced); the larger sets
    # can deal the same shapes (double-7 has 36 tiles), unsourced.
    sourced = [
        (p, h)
        for p, h in shapes
        if reference_deal.sourced(Ruleset(max_pip=max_pip, players=p, hand_size=h))
    ]
    assert sourced == ([(4, 6), (4, 7), (5, 5)] if max_pip == 6 else [])


@given(rules=st.one_of(preset_rulesets(), random_rulesets()))
def test_the_table_seats_partners_across_from_each_other(rules: Ruleset) -> None:
    # table.seats: seats 0..k-1 in turn order; with partnership, 0 and 2 against 1 and 3
    # (SUWIKI, PAGAT), otherwise every seat plays for itself. The engine keeps the same table.
    seating = equipment.table(rules)
    assert seating.seats == tuple(range(rules.players))
    expected = ((0, 2), (1, 3)) if rules.partnership else tuple((s,) for s in seating.seats)
    assert seating.teams == expected
    assert memo.table(rules) == seating
    for seat in seating.seats:
        side = seat % 2 if rules.partnership else seat
        assert seating.team_of(seat) == side
        assert seating.after(seat) == (seat + 1) % rules.players
        assert seating.before(seating.after(seat)) == seat


@pytest.mark.parametrize("max_pip", range(1, 10))
def test_set_of_is_the_engine_s_set(max_pip: int) -> None:
    tiles = equipment.set_of(max_pip)
    assert tiles == tile_set(max_pip).tiles
    # (N + 1)(N + 2) / 2 distinct tiles, sorted: the canonical order.
    assert len(set(tiles)) == (max_pip + 1) * (max_pip + 2) // 2
    assert list(tiles) == sorted(tiles)


# --- the shape of the reference ----------------------------------------------------------------

PAGES = ("tiles", "table", "deal", "open", "turn", "play", "block", "end", "match")
"""The sections of the rules this reference covers (counting, settlements and partnership play
are decided elsewhere)."""


def test_every_rule_of_these_pages_is_decided_by_one_reference_function() -> None:
    rule_ids = [rule_id for rule_id in RULES if rule_id.split(".")[0] in PAGES]
    # tiles.set, table.seats; deal: sizes, starter, unsourced; open: lead, double-blank,
    # double, any-tile, forbidden, starter-seat; turn.order, play.in-hand, play.match-end,
    # turn.forced-play, block.pass, block.discard; end: out, blocked, final; match: target,
    # rounds, single-hand, opener.
    assert len(rule_ids) == 24
    for rule_id in rule_ids:
        assert decided_by(rule_id).__module__.startswith("gaple.reference.")


FORBIDDEN = ("hand_masks", "discard_masks", "line_mask", "iter_bits", "tile_set", ".mask(")
"""What the reference never reads: the engine's bitsets (only its boundary builds them)."""


@pytest.mark.parametrize(
    "module", [equipment, reference_deal, opening, line, turn, ending, reference_match]
)
def test_the_reference_reads_tiles_not_bitsets(module: ModuleType) -> None:
    source = inspect.getsource(module)
    assert not [word for word in FORBIDDEN if word in source]
    tree = ast.parse(source)
    bit_operators = (ast.BitAnd, ast.BitXor, ast.LShift, ast.RShift, ast.Invert)
    assert not [node for node in ast.walk(tree) if isinstance(node, bit_operators)]


def test_refusal_codes_are_the_engine_s_error_codes() -> None:
    assert sorted(get_args(turn.Code)) == sorted(ERROR_CODES)


@pytest.mark.parametrize("name", ["pagat-4x7", "suwiki-partnership", "pagat-5x5"])
def test_the_engine_counts_the_playable_tiles_as_the_reference_lists_them(name: str) -> None:
    # The fuzzer steers toward blocked hands by this count; the reference's playable tiles,
    # over every hand, at every state of some random hands once the line has begun.
    rules = PRESETS[name].rules
    for seed in range(20):
        final = random_hand(rules, seed)
        state = engine_new_hand(rules, final.deal)
        for action in final.history:
            if state.line:
                held = [tile for seat in range(rules.players) for tile in state.hand(seat)]
                assert playable_count(state) == len(line.playable(held, line.line_ends(state.line)))
            state = engine_apply(state, action.move, action.seat)
