"""Property tests of the engine against gaple's oracle, on hands drawn by gaple.testing."""

from __future__ import annotations

from adapter import Session
from hypothesis import assume, given, settings

from gaple.io import deal_to_json, rules_to_json
from gaple.state import legal_moves, parse_move
from gaple.testing.strategies import Playout, games, preset_rulesets


@settings(max_examples=30, deadline=None)
@given(games(preset_rulesets()))
def test_the_engine_offers_the_spec_moves_and_takes_each(game: Playout) -> None:
    session = Session()
    started = session.handle(
        {
            "type": "start",
            "rules": rules_to_json(game.rules),
            "deal": deal_to_json(game.deal),
            "first_hand": game.first_hand,
        }
    )
    assume(started["type"] == "started")
    for before, after in zip(game.states, game.states[1:], strict=False):
        offered = {parse_move(text) for text in session.handle({"type": "state"})["legal"]}
        assert offered == set(legal_moves(before))
        action = after.history[-1]
        reply = session.handle({"type": "act", "seat": action.seat, "move": str(action.move)})
        assert reply == {"type": "ok"}, f"{action}: {reply}"
    ending = game.states[-1].ending
    assert ending is not None
    assert session.handle({"type": "state"})["ending"] == ending.value
