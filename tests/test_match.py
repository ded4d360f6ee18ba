"""Matches: running totals, the next hand's opener, replays, and every way a match ends."""

from __future__ import annotations

import json

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gaple.deal import SplitMix64, shuffle_deal
from gaple.io import match_to_json
from gaple.match import (
    MatchError,
    MatchState,
    MatchTooLong,
    format_match,
    next_deal,
    play_match,
    record_hand,
    start_match,
    start_next_hand,
)
from gaple.presets import PRESETS, ruleset
from gaple.reference.equipment import table
from gaple.reference.match import match_winner
from gaple.result import HandResult
from gaple.rules import Ruleset, Settlement
from gaple.simulate import play_out, random_hand
from gaple.state import new_hand

SUWIKI = ruleset("suwiki-partnership")
BLOCK100 = ruleset("block100")
CUMULATIVE = ruleset("chips", settlement="cumulative", match_hands=3)


def running_totals(match: MatchState) -> list[tuple[int, ...]]:
    """The totals after each hand, summed here from the hands' points."""
    totals = [tuple(0 for _ in table(match.rules).teams)]
    for result in match.results:
        totals.append(tuple(t + p for t, p in zip(totals[-1], result.points, strict=True)))
    return totals[1:]


def test_a_match_starts_at_zero_with_the_first_hand_to_come() -> None:
    match = start_match(SUWIKI)
    assert match.totals == (0, 0)
    assert match.first_hand
    assert match.next_first_seat is None
    assert not match.finished
    assert match.winner is None


def test_later_hands_are_opened_from_the_previous_winner() -> None:
    # Decisions points 6-9: the first hand is a first hand (0-0 leads in 4 x 7); every later
    # hand is not, and its designated seat is the previous hand's winner.
    match = start_match(BLOCK100)
    previous: HandResult | None = None
    for k in range(4):
        state = start_next_hand(match, next_deal(match, k))
        assert state.first_hand == (previous is None)
        if previous is not None:
            assert state.deal.first_seat == previous.winner
            assert state.opener == previous.winner  # with a starter the designated seat acts
        match = record_hand(match, play_out(state, SplitMix64(k)))
        previous = match.results[-1]
        if match.finished:
            break
    assert match.hands_played == len(match.results)


def test_start_next_hand_takes_the_tiles_from_the_deal_and_the_seat_from_the_match() -> None:
    match = start_match(BLOCK100)
    match = record_hand(match, random_hand(BLOCK100, 5))
    winner = match.results[-1].winner
    deal = attrs.evolve(
        shuffle_deal(BLOCK100, 9), first_seat=((match.next_first_seat or 0) + 1) % 4
    )
    state = start_next_hand(match, deal)
    assert state.deal.hands == deal.hands
    assert state.deal.first_seat == winner


def test_a_tied_challenge_is_dealt_again_with_the_same_seat_and_no_points() -> None:
    # Find a SUWIKI match whose hands include a replayed tie (REPLAY is the preset's default).
    for seed in range(60):
        results, match = play_match(SUWIKI, seed)
        replays = [i for i, r in enumerate(results) if r.replay]
        if replays:
            break
    else:
        pytest.fail("no tied challenge in 60 SUWIKI matches")
    # Replay the match step by step to look at the states around the replayed hand.
    deals = SplitMix64(seed)
    match = start_match(SUWIKI)
    for index in range(replays[0] + 2):
        k = deals.next()
        state = start_next_hand(match, next_deal(match, k))
        before = match
        match = record_hand(match, play_out(state, SplitMix64(k + 1)))
        if index == replays[0]:
            assert match.results[-1].replay
            assert match.totals == before.totals
            assert match.hands_played == before.hands_played
            assert match.first_hand == before.first_hand
            assert match.next_first_seat == state.deal.first_seat
        if index == replays[0] + 1:
            assert state.first_hand == before.first_hand
            assert state.deal.first_seat == before.next_first_seat


def test_a_target_match_ends_when_a_side_first_reaches_the_target() -> None:
    # BLOCK100: the first to 100 or more (decisions point 16, research C16).
    _, match = play_match(BLOCK100, 2)
    totals = running_totals(match)
    assert match.finished
    assert match.totals == totals[-1]
    assert match.winner is not None
    assert match.totals[match.winner] >= 100
    assert all(max(t) < 100 for t in totals[:-1])


def test_a_partnership_match_ends_at_500() -> None:
    _, match = play_match(SUWIKI, 4)
    totals = running_totals(match)
    assert match.winner is not None
    assert match.totals[match.winner] >= 500
    assert all(max(t) < 500 for t in totals[:-1])


def test_a_cumulative_match_is_won_by_the_lowest_total() -> None:
    _, match = play_match(CUMULATIVE, 1)
    assert match.hands_played >= 3
    assert match.winner is not None
    low = match.totals[match.winner]
    assert sorted(match.totals).count(low) == 1
    assert low == min(match.totals)


def test_a_cumulative_tie_for_lowest_plays_on() -> None:
    # CHIPS: if the lowest totals tie after the agreed hands, play on until one is lowest.
    rules = ruleset("chips", settlement="cumulative", match_hands=1)
    for seed in range(200):
        _, match = play_match(rules, seed)
        if match.hands_played > 1:
            break
    else:
        pytest.fail("no tie for lowest in 200 one-hand cumulative matches")
    totals = running_totals(match)
    for earlier in totals[:-1]:
        assert sorted(earlier)[0] == sorted(earlier)[1]  # still tied for lowest: play on
    assert sorted(totals[-1])[0] < sorted(totals[-1])[1]


@pytest.mark.parametrize("variant", ["pagat-4x7", "pagat-5x5", "chips", "domino4d"])
def test_a_match_without_target_or_rounds_is_one_hand(variant: str) -> None:
    results, match = play_match(ruleset(variant), 3)
    assert len(results) == 1
    assert match.finished
    assert match.winner == results[0].winner


def test_a_pagat_team_match_is_won_by_the_winners_team() -> None:
    results, match = play_match(ruleset("pagat-4x7", partnership=True), 3)
    assert match.winner == results[0].winning_team


def test_a_finished_match_deals_no_more_hands() -> None:
    _, match = play_match(ruleset("pagat-4x7"), 1)
    with pytest.raises(MatchError, match="finished"):
        start_next_hand(match, shuffle_deal(match.rules, 2))
    with pytest.raises(MatchError, match="finished"):
        record_hand(match, random_hand(match.rules, 2))


def test_record_hand_refuses_a_hand_that_is_not_the_next_one() -> None:
    match = start_match(BLOCK100)
    with pytest.raises(MatchError, match="other rules"):
        record_hand(match, random_hand(ruleset("chips"), 1))
    with pytest.raises(MatchError, match="not ended"):
        record_hand(match, new_hand(BLOCK100, shuffle_deal(BLOCK100, 1)))
    later = new_hand(BLOCK100, shuffle_deal(BLOCK100, 1), first_hand=False)
    with pytest.raises(MatchError, match="first_hand"):
        record_hand(match, play_out(later, SplitMix64(1)))
    match = record_hand(match, random_hand(BLOCK100, 1))
    assert match.next_first_seat is not None
    wrong_seat = (match.next_first_seat + 1) % 4
    deal = shuffle_deal(BLOCK100, 2, first_seat=wrong_seat)
    stray = play_out(new_hand(BLOCK100, deal, first_hand=False), SplitMix64(3))
    with pytest.raises(MatchError, match="start_next_hand"):
        record_hand(match, stray)


def test_the_hand_cap_raises_instead_of_looping() -> None:
    # One BLOCK100 hand scores at most the differences of one deal, far below 100 here.
    with pytest.raises(MatchTooLong, match="did not end within 1 deals"):
        play_match(BLOCK100, 0, max_hands=1)


def test_play_match_is_reproducible_from_its_seed() -> None:
    assert play_match(SUWIKI, 7) == play_match(SUWIKI, 7)


def test_match_json_is_plain_data_and_the_text_names_the_winner() -> None:
    _, match = play_match(BLOCK100, 2)
    data = match_to_json(match)
    assert json.loads(json.dumps(data)) == data
    assert data["finished"] is True
    assert data["winner"] == match.winner
    assert data["totals"] == list(match.totals)
    assert len(data["hands"]) == len(match.results)
    text = format_match(match, hands=True)
    assert f"winner: seat {match.winner}" in text
    assert "[settle.difference]" in text


# --- matches always end ----------------------------------------------------------------------

ENDING_RULES: list[Ruleset] = [
    BLOCK100,
    SUWIKI,
    SUWIKI.replace(challenge_tie="blocker-loses", top_double_bonus=0, blank_double_bonus=0),
    CUMULATIVE,
    ruleset("pagat-4x7", settlement=Settlement.CUMULATIVE, match_hands=2),
    ruleset("pagat-5x5", settlement=Settlement.DIFFERENCE, target=100),
    *(preset.rules for preset in PRESETS.values()),
]


@settings(deadline=None)
@given(st.sampled_from(ENDING_RULES), st.integers(0, 2**32))
def test_matches_always_end(rules: Ruleset, seed: int) -> None:
    results, match = play_match(rules, seed, max_hands=500)
    assert match.finished
    assert match.winner is not None
    assert match.results == results
    assert match.hands_played == sum(1 for r in results if not r.replay)


# --- the text form, the target reached exactly, the hand cap ---------------------------------


def test_format_match_of_a_match_not_yet_started() -> None:
    # No hand yet: four seats at 0, not finished.
    assert format_match(start_match(BLOCK100)) == (
        "totals: seat 0 0, seat 1 0, seat 2 0, seat 3 0\nnot finished after 0 hand(s)"
    )


def test_format_match_has_one_line_per_hand_numbered_from_1_then_totals_and_winner() -> None:
    _, match = play_match(BLOCK100, 2)
    lines = format_match(match).splitlines()
    # Without hands=True: one line per hand, the totals, the winner; nothing else.
    assert len(lines) == len(match.results) + 2
    assert [line.split(":")[0] for line in lines[:-2]] == [
        f"hand {n}" for n in range(1, len(match.results) + 1)
    ]
    assert lines[-2] == "totals: " + ", ".join(f"seat {i} {t}" for i, t in enumerate(match.totals))
    assert lines[-1] == f"winner: seat {match.winner} after {match.hands_played} hand(s)"


def test_format_match_of_a_partnership_match_names_teams_and_replays() -> None:
    for seed in range(60):
        results, match = play_match(SUWIKI, seed)
        if any(r.replay for r in results):
            break
    else:
        pytest.fail("no tied challenge in 60 SUWIKI matches")
    lines = format_match(match).splitlines()
    for result, line in zip(results, lines, strict=False):
        assert ("replayed (tied challenge)" in line) == result.replay, line
        assert (f"won by seat {result.winner};" in line) == (not result.replay), line
    assert lines[-2].startswith("totals: team 0 ")
    assert lines[-1].startswith(f"winner: team {match.winner} after ")


def test_reaching_the_target_exactly_wins_the_match() -> None:
    # match.target: "first reaches the target (at least the target)": 100 of 100 wins.
    assert match_winner(BLOCK100, (100, 0, 0, 0), 1, 0) == 0
    assert match_winner(BLOCK100, (99, 0, 0, 0), 1, 0) is None


def test_the_hand_cap_stops_after_exactly_that_many_deals() -> None:
    # max_hands=1: one deal is played (the first deal of seed 0, as play_match describes it),
    # and the totals in the message are that hand's points alone.
    match = start_match(BLOCK100)
    k = SplitMix64(0).next()
    first = record_hand(
        match, play_out(start_next_hand(match, next_deal(match, k)), SplitMix64(k + 1))
    )
    assert not first.finished
    with pytest.raises(MatchTooLong, match=rf"totals \[{', '.join(map(str, first.totals))}\]"):
        play_match(BLOCK100, 0, max_hands=1)
