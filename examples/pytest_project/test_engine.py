"""Property tests of the engine against gaple's oracle, on hands drawn by gaple.testing, over
protocol v1: the engine may be written in any language."""

from __future__ import annotations

from hypothesis import assume, given, settings

from gaple.conformance.runner.engines import SubprocessEngine
from gaple.io import deal_to_json, rules_to_json
from gaple.state import legal_moves, parse_move
from gaple.testing.strategies import Playout, games, preset_rulesets


@settings(max_examples=30, deadline=None)
@given(game=games(preset_rulesets()))
def test_the_engine_offers_the_spec_moves_and_takes_each(
    engine: SubprocessEngine, game: Playout
) -> None:
    started = engine.request(
        {
            "type": "start",
            "case": "property",
            "rules": rules_to_json(game.rules),
            "deal": deal_to_json(game.deal),
            "first_hand": game.first_hand,
        }
    )
    assume(started["type"] == "started")
    for before, after in zip(game.states, game.states[1:], strict=False):
        offered = {parse_move(text) for text in engine.request({"type": "state"})["legal"]}
        assert offered == set(legal_moves(before))
        action = after.history[-1]
        reply = engine.request({"type": "act", "seat": action.seat, "move": str(action.move)})
        assert reply == {"type": "ok"}, f"{action}: {reply}"
    ending = game.states[-1].ending
    assert ending is not None
    assert engine.request({"type": "state"})["ending"] == ending.value
