"""DOMINO4D's worked legal-move examples (research section 6.1, E002-1 to E002-3).

DOMINO4D gives them as open ends and a tile; here each position is reached by an explicit
deal of all 28 tiles and moves replayed under the domino4d preset (4 x 7, pass, 0-0 opens the
first hand), so the line really has those ends. Turn order is seat 0, 1, 2, 3.
"""

from __future__ import annotations

import pytest

from gaple.deal import Deal
from gaple.presets import ruleset
from gaple.state import (
    End,
    IllegalMove,
    Lead,
    Move,
    Place,
    State,
    apply,
    is_legal,
    legal_moves,
    replay,
)
from gaple.tiles import Tile, parse_tiles

RULES = ruleset("domino4d")

# Seat 0 leads 0-0; seat 1 puts 0-6 on the left (ends 6, 0); seat 2 puts 0-5 on the right
# (ends 6, 5). Seat 3 then holds both of DOMINO4D's tiles, 6-3 and 1-4.
DEAL_6_5 = Deal(
    hands=[
        parse_tiles("0-0 1-1 1-2 1-3 2-2 2-3 3-3"),
        parse_tiles("0-6 0-1 0-2 0-3 0-4 2-4 2-5"),
        parse_tiles("0-5 1-5 1-6 2-6 3-4 4-4 4-5"),
        parse_tiles("3-6 1-4 3-5 4-6 5-5 5-6 6-6"),
    ]
)
MOVES_6_5: list[Move] = [
    Lead(Tile(0, 0)),  # seat 0 holds 0-0, which must open the first hand: ends (0, 0)
    Place(Tile(0, 6), End.LEFT),  # seat 1: the 0 half meets the left 0, 6 is outside
    Place(Tile(0, 5), End.RIGHT),  # seat 2: the 0 half meets the right 0, 5 is outside
]

# Seat 0 leads 0-0; seat 1 puts 0-2 on the left (ends 2, 0); seat 2 puts 0-5 on the right
# (ends 2, 5). Seat 3 holds 2-6; seat 0 holds 3-6 for the follow-up.
DEAL_2_5 = Deal(
    hands=[
        parse_tiles("0-0 1-1 1-2 1-3 2-3 3-3 3-6"),
        parse_tiles("0-2 0-1 0-3 0-4 0-6 2-4 2-5"),
        parse_tiles("0-5 1-5 1-6 2-2 3-4 4-4 4-5"),
        parse_tiles("2-6 1-4 3-5 4-6 5-5 5-6 6-6"),
    ]
)
MOVES_2_5: list[Move] = [
    Lead(Tile(0, 0)),
    Place(Tile(0, 2), End.LEFT),
    Place(Tile(0, 5), End.RIGHT),
]


def _position_6_5() -> State:
    state = replay(RULES, DEAL_6_5, MOVES_6_5)
    assert state.ends == (6, 5)
    assert state.to_act == 3
    return state


def test_domino4d_e002_1_six_three_plays_on_the_six_end() -> None:
    """DOMINO4D E002-1: ends (6, 5), tile 6-3: legal on the 6 end, the ends become (3, 5)."""
    state = _position_6_5()
    move = Place(Tile(3, 6), End.LEFT)
    assert move in legal_moves(state)
    after = apply(state, move)
    # The 6 half meets the left 6; the 3 half is the new left end; the right end is untouched.
    assert after.ends == (3, 5)
    assert after.line[0] == (3, 6)
    # 6-3 shows no 5, so it does not go on the right end.
    assert not is_legal(state, Place(Tile(3, 6), End.RIGHT))


@pytest.mark.parametrize("end", list(End))
def test_domino4d_e002_2_one_four_matches_neither_end(end: End) -> None:
    """DOMINO4D E002-2: ends (6, 5), tile 1-4: illegal on either end (no half shows 6 or 5)."""
    state = _position_6_5()
    move = Place(Tile(1, 4), end)
    assert move not in legal_moves(state)
    with pytest.raises(IllegalMove) as caught:
        apply(state, move)
    assert caught.value.code == "no-match"
    assert caught.value.rule_id == "play.match-end"


def test_domino4d_e002_3_two_six_plays_on_the_two_end() -> None:
    """DOMINO4D E002-3: ends (2, 5), tile 2-6: legal on the 2 end, the ends become (6, 5)."""
    state = replay(RULES, DEAL_2_5, MOVES_2_5)
    assert state.ends == (2, 5)
    assert state.to_act == 3
    after = apply(state, Place(Tile(2, 6), End.LEFT))
    assert after.ends == (6, 5)
    assert not is_legal(state, Place(Tile(2, 6), End.RIGHT))  # 2-6 shows no 5


def test_domino4d_e002_3_then_e002_1_sequence() -> None:
    """DOMINO4D E002-3 then E002-1: (2, 5) -> 2-6 -> (6, 5) -> 6-3 -> (3, 5)."""
    state = replay(
        RULES,
        DEAL_2_5,
        [*MOVES_2_5, Place(Tile(2, 6), End.LEFT), Place(Tile(3, 6), End.LEFT)],
    )
    # Seat 3 played 2-6, then seat 0 (next in turn) played 6-3 on the 6 end.
    assert state.ends == (3, 5)
    assert state.line == ((3, 6), (6, 2), (2, 0), (0, 0), (0, 5))
    assert [action.seat for action in state.history] == [0, 1, 2, 3, 0]
