"""Hand results: positions are checked, states and positions score alike, JSON and text forms."""

from __future__ import annotations

import json
from typing import Any

import pytest

from gaple.deal import shuffle_deal
from gaple.io import FormatError, position_from_json, position_to_json, result_to_json
from gaple.presets import ruleset
from gaple.registry import RULES
from gaple.result import (
    InvalidPosition,
    Position,
    format_result,
    hand_result,
    make_position,
    position_of,
    score_position,
)
from gaple.rules import BlockedAction, LeadRule, Ruleset
from gaple.simulate import random_hand
from gaple.state import Discard, Ending, Lead, Place, new_hand
from gaple.tiles import Tile, parse_tiles

PAGAT_4X6 = ruleset("pagat-4x6")
SUWIKI = ruleset("suwiki-partnership")

# PAGAT-ID's first tie-break example as a blocked 4 x 6 hand (see the worked-example tests).
E001_1: dict[str, Any] = {
    "hands": [["1-1", "1-3"], ["1-5"], ["2-4"], ["2-3"]],
    "set_aside": ["0-4", "0-5", "6-6"],
    "ends": [0, 0],
    "ending": "blocked",
    "blocker": 0,
}


def e001_1(**changes: Any) -> Position:
    return position_from_json(PAGAT_4X6, {**E001_1, **changes})


# --- replayed hands and positions share one scorer -------------------------------------------


def test_hand_result_of_an_unfinished_hand_is_an_error() -> None:
    state = new_hand(PAGAT_4X6, shuffle_deal(PAGAT_4X6, 1))
    with pytest.raises(ValueError, match="has not ended"):
        hand_result(state)


@pytest.mark.parametrize("variant", ["pagat-4x7", "chips", "suwiki-partnership", "pagat-5x5"])
def test_position_of_a_state_holds_what_the_state_shows(variant: str) -> None:
    state = random_hand(ruleset(variant), 12)
    pos = position_of(state)
    seats = range(state.rules.players)
    assert pos.hands == tuple(state.hand(s) for s in seats)
    assert pos.discards == tuple(state.discards(s) for s in seats)
    assert set(pos.line) == set(state.line_tiles())
    assert pos.ends == state.ends
    assert pos.ending is state.ending
    last = state.history[-1]
    if state.ending is Ending.OUT:
        assert pos.out_seat == last.seat
        if isinstance(last.move, Lead | Place):
            assert pos.closing == last.move.tile
        else:
            assert isinstance(last.move, Discard)
            assert pos.closing is None
    else:
        assert pos.blocker == state.last_placer
    assert hand_result(state) == score_position(pos)


def test_going_out_by_discarding_has_no_closing_tile() -> None:
    # SUWIKI pairs under the discard house rule: N discards its last tile. It went out (its
    # pair scores E's 3 and W's 7 = 10) but placed no double last, so there is no bonus.
    rules = SUWIKI.replace(blocked_action="discard")
    pos = make_position(
        rules,
        hands=[(), parse_tiles("1-2"), parse_tiles("1-3 2-4"), parse_tiles("3-4")],
        discards=[parse_tiles("6-6"), (), (), ()],
        ends=(1, 1),
        ending=Ending.OUT,
        out_seat=0,
    )
    result = score_position(pos)
    assert result.points == (10, 0)
    assert "discarding" in result.notes[0].text


# --- positions that no hand can reach are refused, with the reason ---------------------------


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"hands": [["1-1", "1-3"], ["1-5"], ["2-4"]]}, "4 seats"),
        ({"hands": [["1-1", "1-1"], ["1-5"], ["2-4"], ["2-3"]]}, "1-1 is also in"),
        ({"hands": [["1-1", "1-3"], ["1-5"], ["2-4"], ["2-3", "7-7"]]}, "not in the double-6"),
        ({"set_aside": ["0-4", "0-5"]}, "set 3 tiles aside"),
        ({"line": ["0-0"]}, "missing from the position"),
        ({"discards": [["0-0", "0-1", "0-2", "0-3", "0-6"], [], [], []]}, "more than the 6 dealt"),
        ({"blocker": 4}, "blocker 4 is not a seat"),
        ({"ends": [0, 7]}, "not pip values"),
        ({"ends": [0, 6]}, "cannot lie in one chain"),
        ({"ending": "out", "out_seat": 3, "blocker": None}, "exactly that seat"),
        ({"ending": "out", "blocker": None}, "needs out_seat"),
        ({"ends": [1, 1]}, "seat 0 can still place 1-1"),
        ({"closing": "0-1"}, "no out_seat and no closing tile"),
    ],
)
def test_unreachable_positions_are_refused(changes: dict[str, Any], message: str) -> None:
    with pytest.raises(FormatError, match=message):
        e001_1(**changes)


def test_a_line_in_separate_groups_is_refused() -> None:
    # Double-1 set, 2 seats x 1 tile, no tile undealt: the line {0-0, 1-1} holds two doubles
    # that share no number, so it cannot be one chain.
    rules = Ruleset(max_pip=1, players=2, hand_size=1, first_lead=LeadRule.ANY_TILE)
    with pytest.raises(InvalidPosition, match="separate groups"):
        make_position(
            rules,
            hands=[(), [Tile(0, 1)]],
            ends=(0, 0),
            ending=Ending.OUT,
            out_seat=0,
            line=[Tile(0, 0), Tile(1, 1)],
        )


def test_a_line_laid_falling_from_its_left_end_is_refused() -> None:
    # Double-2 set, 2 seats x 2 tiles: 2 undealt, the starter and one face down (2-2). Seat 0
    # went out, its other tile discarded. The line 0-1, 1-2 with ends 2 (left) and 0 (right)
    # would lie as 2-1, 1-0: neither tile with its lower half on the left, so neither began
    # the line; led or turned up, 0-1 then 1-2 (or 1-2 then 0-1) always gives ends 0 and 2.
    rules = Ruleset(max_pip=2, players=2, hand_size=2, blocked_action=BlockedAction.DISCARD)
    with pytest.raises(InvalidPosition, match="only with ends 0 and 2") as refused:
        make_position(
            rules,
            hands=[(), parse_tiles("0-0 1-1")],
            discards=[parse_tiles("0-2"), ()],
            line=parse_tiles("0-1 1-2"),
            set_aside=parse_tiles("2-2"),
            ends=(2, 0),
            ending=Ending.OUT,
            out_seat=0,
        )
    assert refused.value.rule_id == "play.match-end"


def test_a_closing_tile_must_show_an_end() -> None:
    with pytest.raises(InvalidPosition, match="shows neither end"):
        make_position(
            SUWIKI,
            hands=[(), parse_tiles("4-5 2-2"), parse_tiles("3-3 1-2 4-6"), parse_tiles("1-6")],
            ends=(2, 5),
            ending=Ending.OUT,
            out_seat=0,
            closing=Tile(0, 3),
        )


# --- JSON and text ---------------------------------------------------------------------------


def _plain(value: object) -> bool:
    """Whether ``value`` is made only of dicts with str keys, lists, str, int, bool, None."""
    if isinstance(value, dict):
        return all(isinstance(k, str) and _plain(v) for k, v in value.items())
    if isinstance(value, list):
        return all(_plain(v) for v in value)
    return value is None or isinstance(value, str | int | bool)


def test_position_json_round_trips() -> None:
    pos = e001_1()
    assert position_from_json(PAGAT_4X6, json.loads(json.dumps(position_to_json(pos)))) == pos


def test_result_json_is_plain_data_with_the_numbers() -> None:
    data = result_to_json(score_position(e001_1()))
    assert _plain(data)
    # PAGAT-ID example 1: A 6, B 6, C 6, D 5; D wins; per-hand: no points.
    assert data["counts"] == [6, 6, 6, 5]
    assert data["winner"] == 3
    assert data["points"] == [0, 0, 0, 0]
    assert data["winning_team"] is None
    assert data["ending"] == "blocked"
    assert data["notes"][0]["rule"] == "end.blocked"


def test_result_text_names_the_winner_and_the_rules() -> None:
    text = format_result(score_position(e001_1()))
    assert "winner: seat 3" in text
    assert "[score.rank]" in text
    assert "[settle.per-hand]" in text


def test_replayed_hand_text_says_so() -> None:
    hands = ["0-5 2-3 4-4 0-2", "2-4 1-2 1-3 0-1", "5-5 0-4", "0-0 1-5"]  # SU-X9: E 14, S 14
    pos = make_position(
        SUWIKI,
        hands=[parse_tiles(h) for h in hands],
        ends=(6, 6),
        ending=Ending.BLOCKED,
        blocker=1,
    )
    assert "winner: none" in format_result(score_position(pos))


@pytest.mark.parametrize(
    ("data", "path", "message"),
    [
        ([], "$", "expected an object"),
        ({"ends": [0, 0], "ending": "blocked"}, "$", "missing key 'hands'"),
        ({**E001_1, "colour": 1}, "$.colour", "unknown key"),
        ({**E001_1, "hands": "1-1"}, "$.hands", "one array of tiles per seat"),
        ({**E001_1, "hands": [["1-1", "x"], [], [], []]}, "$.hands[0][1]", "cannot read"),
        ({**E001_1, "ends": [0]}, "$.ends", "two pip values"),
        ({**E001_1, "ending": "won"}, "$.ending", "'out' or 'blocked'"),
        ({**E001_1, "blocker": "east"}, "$.blocker", "seat number"),
        ({**E001_1, "set_aside": "0-4"}, "$.set_aside", "array of tiles"),
        ({**E001_1, "ends": [1, 1]}, "$", "can still place"),
    ],
)
def test_position_json_errors_are_located(data: object, path: str, message: str) -> None:
    with pytest.raises(FormatError, match=message) as caught:
        position_from_json(PAGAT_4X6, data)
    assert caught.value.path == path


@pytest.mark.parametrize("variant", ["pagat-4x7", "chips", "block100", "suwiki-partnership"])
def test_every_note_names_a_registered_rule(variant: str) -> None:
    for seed in range(30):
        for note in hand_result(random_hand(ruleset(variant), seed)).notes:
            assert note.rule_id in RULES, note


def test_a_blocked_pair_hand_without_its_blocker_is_a_located_error() -> None:
    # SU-X9's hands (E 14, S 14) with no blocker: the challenge cannot be decided.
    data = {
        "hands": [
            ["0-5", "2-3", "4-4", "0-2"],
            ["2-4", "1-2", "1-3", "0-1"],
            ["5-5", "0-4"],
            ["0-0", "1-5"],
        ],
        "ends": [6, 6],
        "ending": "blocked",
    }
    with pytest.raises(FormatError, match="needs the blocker") as caught:
        position_from_json(SUWIKI, data)
    assert caught.value.path == "$"
    assert position_from_json(SUWIKI, {**data, "blocker": 1}).blocker == 1


def test_an_unsourced_deal_is_marked_in_the_result_and_a_sourced_one_is_not() -> None:
    # 3 seats x 7 tiles is no deal of the sources: the result carries a deal.unsourced note,
    # in the text form too; pagat-4x6's 4 x 6 carries none.
    three = Ruleset(players=3)
    result = hand_result(random_hand(three, 1))
    notes = [note for note in result.notes if note.rule_id == "deal.unsourced"]
    assert [note.text for note in notes] == [
        "no source describes 3 seats x 7 tiles on the double-6 set: an unsourced deal, scored "
        "by the same rules for study (C27)"
    ]
    assert "[deal.unsourced]" in format_result(result)
    assert "deal.unsourced" in [note["rule"] for note in result_to_json(result)["notes"]]
    sourced = hand_result(random_hand(PAGAT_4X6, 1))
    assert all(note.rule_id != "deal.unsourced" for note in sourced.notes)


def test_only_a_blocked_hand_has_a_blocker() -> None:
    # Position.blocker is the seat that put down the last tile of a blocked hand, and None when
    # a seat went out (rule end.blocked names a blocker only for a blocked hand). Under the pass
    # option both endings come up within the first seeds of pagat-4x6.
    rules = ruleset("pagat-4x6").replace(blocked_action="pass")
    endings = set()
    for seed in range(60):
        state = random_hand(rules, seed)
        position = position_of(state)
        endings.add(state.ending)
        if state.ending is Ending.OUT:
            assert position.blocker is None
        else:
            last_tile = [a.seat for a in state.history if isinstance(a.move, Lead | Place)][-1]
            assert position.blocker == last_tile
    assert endings == {Ending.OUT, Ending.BLOCKED}
