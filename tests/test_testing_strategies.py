"""The strategies gaple.testing ships for engine authors draw what they promise: states that
hold every invariant, finished positions that can be scored, transcripts the checker accepts."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import given

from checks import check_state
from gaple.conformance.checker.transcript import check_transcript
from gaple.result import Position, score_position
from gaple.state import State
from gaple.testing.strategies import positions, states, transcripts
from gaple.tiles import tile_set


@given(states())
def test_a_drawn_state_holds_every_invariant(state: State) -> None:
    check_state(state)


@given(positions())
def test_a_drawn_position_holds_the_whole_set_and_scores(position: Position) -> None:
    # Every tile is in a hand, a discard pile, the line or set aside (Position checks that
    # when built); a finished hand always has a result with one count per seat.
    hands = sum(len(hand) for hand in position.hands)
    discards = sum(len(pile) for pile in position.discards)
    assert hands + discards + len(position.line) <= tile_set(position.rules.max_pip).size
    assert len(score_position(position).counts) == position.rules.players


@given(transcripts())
def test_a_drawn_transcript_is_a_finished_hand_the_checker_accepts(
    transcript: dict[str, Any],
) -> None:
    verdict = check_transcript(transcript)
    assert verdict.conforms, verdict.divergence
    assert verdict.actions == len(transcript["actions"])
    assert transcript["ending"] in ("out", "blocked")


@given(transcripts())
def test_the_checker_catches_a_drawn_transcript_with_a_wrong_ending(
    transcript: dict[str, Any],
) -> None:
    # The previous test can fail: the same transcript claiming the other ending diverges.
    broken = copy.deepcopy(transcript)
    broken["ending"] = "blocked" if transcript["ending"] == "out" else "out"
    assert not check_transcript(broken).conforms
