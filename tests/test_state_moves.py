"""Moves as values and their text form (``parse_move``)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from checks import every_move
from gaple.state import (
    Action,
    Discard,
    End,
    Lead,
    Move,
    MoveSyntaxError,
    Pass,
    Place,
    parse_move,
)
from gaple.tiles import Tile


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("lead 0-0", Lead(Tile(0, 0))),
        ("place 6-3 left", Place(Tile(3, 6), End.LEFT)),
        ("place 3-6 right", Place(Tile(3, 6), End.RIGHT)),
        ("pass", Pass()),
        ("discard 4-4", Discard(Tile(4, 4))),
    ],
)
def test_parse_move_reads_the_four_forms(text: str, move: Move) -> None:
    assert parse_move(text) == move


@pytest.mark.parametrize(
    "text",
    [
        *["", "play 0-0", "lead", "place 6-3", "place 6-3 middle", "discard x", "pass 1-1"],
        # The wire has one spelling (issue 34): these were read leniently, and an engine
        # writing them was taken as conforming, though the schemas refuse every one.
        *["place [3|6] right", "  pass ", "lead 3:4", "lead 3/4", "lead 3,4", "lead 03-4"],
        *["lead \u0663-\u0664", "lead \uff13-4", "pass\u2028", "lead\u00a03-4", "lead  3-4"],
    ],
)
def test_parse_move_refuses_other_text_naming_it(text: str) -> None:
    with pytest.raises(MoveSyntaxError) as caught:
        parse_move(text)
    assert repr(text) in str(caught.value)


@given(st.sampled_from(every_move(6)))
def test_a_move_reads_back_from_its_text(move: Move) -> None:
    assert parse_move(str(move)) == move


def test_moves_are_values() -> None:
    assert Place(Tile(6, 3), End.LEFT) == Place(Tile(3, 6), End.LEFT)
    assert Place(Tile(3, 6), End.LEFT) != Place(Tile(3, 6), End.RIGHT)
    assert Pass() == Pass()
    assert len({Lead(Tile(1, 1)), Lead(Tile(1, 1)), Discard(Tile(1, 1))}) == 2
    assert str(Action(2, Place(Tile(3, 6), End.RIGHT))) == "seat 2: place 3-6 right"
