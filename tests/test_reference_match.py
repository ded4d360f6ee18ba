"""The reference match rules (:mod:`gaple.reference.match`) decide as :mod:`gaple.match`.

Whole matches are played by the engine (random legal moves from a seed, as
:func:`gaple.match.play_match` plays them) and the reference's tally is kept beside the
engine's :class:`~gaple.match.MatchState` from the same hands: after every hand the totals, the
hands counted, the next designated seat and lead rule, and the winner must agree, and the
reference starts every next hand as :func:`gaple.match.start_next_hand` does. The worked
examples below are reasoned by hand from the rule statements.
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
from gaple.result import hand_result
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
    """Play a match hand by hand, checking the reference against the engine after each;
    the number of hands dealt."""
    deals = SplitMix64(seed)
    match = start_match(rules)
    tally = start_tally(rules)
    while not match.finished and len(match.results) < max_hands:
        assert tally.winner is None
        k = deals.next()
        deal = next_deal(match, k)
        state = start_next_hand(match, deal)
        assert start_hand(rules, deal, tally.upcoming) == state
        state = play_out(state, SplitMix64(k + 1))
        result = hand_result(state)
        match = record_hand(match, state)
        tally = after_hand(
            rules,
            tally,
            designated=state.deal.first_seat,
            winner=None if result.replay else result.winner,
            points=result.points,
        )
        assert tally.totals == match.totals
        assert tally.hands_played == match.hands_played
        assert tally.upcoming == NextHand(match.next_first_seat, match.first_hand)
        assert tally.winner == match.winner
        assert (tally.winner is not None) == match.finished
    return len(match.results)


@pytest.mark.parametrize(
    "rules", MATCH_RULESETS, ids=lambda r: f"{r.settlement.value}-{r.target}-{r.match_hands}"
)
def test_reference_tallies_played_matches_as_the_engine(rules: Ruleset) -> None:
    hands = sum(play_both(rules, seed) for seed in range(5))
    assert hands >= 5  # every match deals at least one hand


@given(rules=random_rulesets(), seed=st.integers(min_value=0, max_value=2**64 - 1))
def test_reference_tallies_random_matches_as_the_engine(rules: Ruleset, seed: int) -> None:
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
