"""The match rules (:mod:`gaple.reference.match`, kept by :mod:`gaple.match`) as stated.

Whole matches are played (random legal moves from a seed, as :func:`gaple.match.play_match`
plays them); after every hand the totals must be the counted hands' points summed, the hands
counted those not replayed, the next designated seat and lead rule those ``match.opener``
states, and the winner the one ``match.target``, ``match.rounds`` or ``match.single-hand``
names, written out in :func:`_stated_winner` from the rule statements; the reference starts
every next hand as :func:`gaple.match.start_next_hand` does. The worked examples below are
reasoned by hand from the rule statements.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gaple.deal import SplitMix64
from gaple.match import next_deal, record_hand, start_match, start_next_hand
from gaple.presets import PRESETS
from gaple.reference.match import (
    NextHand,
    after_hand,
    next_hand,
    rounds_winner,
    single_hand_winner,
    start_hand,
    start_tally,
    target_winner,
)
from gaple.result import HandResult, hand_result
from gaple.rules import Ruleset, Settlement
from gaple.simulate import play_out
from gaple.testing.strategies import random_rulesets

MATCH_RULESETS = [
    *(preset.rules for preset in PRESETS.values()),
    Ruleset(settlement=Settlement.DIFFERENCE, target=30),
    Ruleset(settlement=Settlement.CUMULATIVE, match_hands=3),
    Ruleset(players=2, hand_size=7, settlement=Settlement.CUMULATIVE, match_hands=2),
    Ruleset(max_pip=3, players=2, hand_size=3, settlement=Settlement.DIFFERENCE, target=5),
]


def play_both(rules: Ruleset, seed: int, max_hands: int = 300) -> int:
    """Play a match hand by hand with :mod:`gaple.match` (which keeps the reference's tally)
    and check it after each hand against the hands' own results and the match rules as
    stated; the number of hands dealt."""
    deals = SplitMix64(seed)
    match = start_match(rules)
    sides = range(len(match.totals))
    counted: list[HandResult] = []
    while not match.finished and len(match.results) < max_hands:
        k = deals.next()
        deal = next_deal(match, k)
        state = start_next_hand(match, deal)
        assert start_hand(rules, deal, NextHand(match.next_first_seat, match.first_hand)) == state
        state = play_out(state, SplitMix64(k + 1))
        result = hand_result(state)
        designated, was_first = state.deal.first_seat, match.first_hand
        match = record_hand(match, state)
        if not result.replay:
            counted.append(result)
        # Every counted hand adds its points to its sides' totals; a replayed one adds nothing.
        assert match.totals == tuple(sum(r.points[side] for r in counted) for side in sides)
        assert match.hands_played == len(counted)
        # match.opener: the winner is designated next, under the later hands' lead rule; a
        # replayed hand is dealt again to the same seat under the same rule.
        if result.replay:
            assert (match.next_first_seat, match.first_hand) == (designated, was_first)
        else:
            assert (match.next_first_seat, match.first_hand) == (result.winner, False)
        assert match.winner == _stated_winner(rules, match.totals, counted)
    return len(match.results)


def _stated_winner(
    rules: Ruleset, totals: tuple[int, ...], counted: list[HandResult]
) -> int | None:
    """The match's winner as the three rule statements put it, from the totals and hands."""
    if not counted:
        return None
    if rules.target is not None:
        # match.target: the side alone on the highest total, once it is at the target.
        leaders = [side for side, total in enumerate(totals) if total == max(totals)]
        return leaders[0] if max(totals) >= rules.target and len(leaders) == 1 else None
    if rules.settlement is Settlement.CUMULATIVE:
        # match.rounds: after the agreed hands, the side alone on the lowest total.
        assert rules.match_hands is not None
        lowest = [side for side, total in enumerate(totals) if total == min(totals)]
        return lowest[0] if len(counted) >= rules.match_hands and len(lowest) == 1 else None
    # match.single-hand: the first counted hand's winning side (partners sit opposite, so
    # seats 0 and 2 are side 0, seats 1 and 3 side 1).
    winner = counted[0].winner
    assert winner is not None
    return winner if rules.players == len(totals) else winner % 2


@pytest.mark.parametrize(
    "rules", MATCH_RULESETS, ids=lambda r: f"{r.settlement.value}-{r.target}-{r.match_hands}"
)
def test_played_matches_keep_the_match_rules_as_stated(rules: Ruleset) -> None:
    hands = sum(play_both(rules, seed) for seed in range(5))
    assert hands >= 5  # every match deals at least one hand


@given(rules=random_rulesets(), seed=st.integers(min_value=0, max_value=2**64 - 1))
def test_random_matches_keep_the_match_rules_as_stated(rules: Ruleset, seed: int) -> None:
    assert play_both(rules, seed) >= 1


def test_target_needs_one_side_alone_at_or_above_it() -> None:
    # match.target: 100 reached by side 1 alone ends the match; 99 does not; two sides level
    # on the highest total play on.
    assert target_winner(100, (40, 100, 0, 0)) == 1
    assert target_winner(100, (40, 99, 0, 0)) is None
    assert target_winner(100, (120, 120)) is None
    assert target_winner(100, (150, 120)) == 0


def test_rounds_end_after_the_agreed_hands_on_a_single_lowest_total() -> None:
    # match.rounds: after 3 of 3 hands the lowest total (side 2, 10) wins; after 2 nobody has;
    # a tie on the lowest total plays on even past the agreed number.
    assert rounds_winner(3, (30, 20, 10), 3) == 2
    assert rounds_winner(3, (30, 20, 10), 2) is None
    assert rounds_winner(3, (10, 20, 10), 4) is None


def test_single_hand_match_goes_to_the_hand_s_winner() -> None:
    assert single_hand_winner(3) == 3


def test_next_hand_is_designated_to_the_winner_and_led_by_the_later_rule() -> None:
    # match.opener: the winner of the hand designated to seat 2 was seat 1, so seat 1 is
    # designated next and the later-hand lead rule applies; a voided hand is dealt again as it
    # was, designated to seat 2 and (here) still the first hand.
    assert next_hand(2, 1, first_hand=True) == NextHand(first_seat=1, first_hand=False)
    assert next_hand(2, None, first_hand=True) == NextHand(first_seat=2, first_hand=True)


def test_a_points_match_runs_until_a_side_reaches_the_target() -> None:
    # Two seats, difference points to 100. Seat 0 wins the first hand by 60: (60, 0), seat 0
    # designated next under the later rule. Seat 1 wins by 50: (60, 50). A tied challenge
    # cannot happen without partners, but a void hand (winner None) changes nothing. Seat 0
    # wins by 45: (105, 50), at least 100 and alone on top, so side 0 has won.
    rules = Ruleset(players=2, hand_size=7, settlement=Settlement.DIFFERENCE, target=100)
    tally = start_tally(rules)
    tally = after_hand(rules, tally, designated=1, winner=0, points=(60, 0))
    assert (tally.totals, tally.hands_played, tally.winner) == ((60, 0), 1, None)
    assert tally.upcoming == NextHand(first_seat=0, first_hand=False)
    tally = after_hand(rules, tally, designated=0, winner=1, points=(0, 50))
    assert (tally.totals, tally.upcoming.first_seat, tally.winner) == ((60, 50), 1, None)
    voided = after_hand(rules, tally, designated=1, winner=None, points=(0, 0))
    assert voided == tally
    tally = after_hand(rules, tally, designated=1, winner=0, points=(45, 0))
    assert (tally.totals, tally.hands_played, tally.winner) == ((105, 50), 3, 0)
