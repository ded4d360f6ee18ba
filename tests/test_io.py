"""JSON forms: round trips, and located errors for malformed documents."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gaple.deal import shuffle_deal
from gaple.io import (
    FormatError,
    deal_from_json,
    deal_to_json,
    rules_from_json,
    rules_to_json,
    state_from_json,
    state_to_json,
)
from gaple.presets import PRESETS, ruleset
from gaple.rules import LeadRule, Ruleset
from gaple.simulate import random_hand
from gaple.tiles import Tile

preset_names = st.sampled_from(sorted(PRESETS))


@given(preset_names, st.integers(0, 2**32))
def test_state_json_round_trips_through_text(name: str, seed: int) -> None:
    state = random_hand(ruleset(name), seed)
    text = json.dumps(state_to_json(state))
    assert state_from_json(json.loads(text)) == state


@given(preset_names)
def test_rules_json_round_trips(name: str) -> None:
    rules = ruleset(name)
    assert rules_from_json(json.loads(json.dumps(rules_to_json(rules)))) == rules


def test_rules_json_round_trips_a_forbidden_lead() -> None:
    rules = Ruleset(forbidden_leads=frozenset({Tile(6, 6)}), first_lead=LeadRule.ANY_TILE)
    data = rules_to_json(rules)
    assert data["forbidden_leads"] == ["6-6"]
    assert rules_from_json(data) == rules


def test_missing_options_take_the_defaults() -> None:
    # An empty object is pagat's 4 x 7 game: every option at its Ruleset default.
    assert rules_from_json({}) == Ruleset()


def test_deal_json_round_trips() -> None:
    rules = ruleset("pagat-4x6")
    deal = shuffle_deal(rules, 11)
    assert deal_from_json(deal_to_json(deal)) == deal


@pytest.mark.parametrize(
    ("document", "path", "words"),
    [
        ({"players": "four"}, "$.players", "expected an integer"),
        ({"blocked_action": "skip"}, "$.blocked_action", "expected one of pass, discard"),
        ({"colour": "red"}, "$.colour", "unknown option"),
        ({"partnership": 1}, "$.partnership", "expected true or false"),
        ({"players": 5}, "$", "35 tiles"),
        ([], "$", "expected an object"),
    ],
)
def test_bad_rules_are_located(document: object, path: str, words: str) -> None:
    with pytest.raises(FormatError) as caught:
        rules_from_json(document)
    assert caught.value.path == path
    assert words in caught.value.message


def _document() -> dict[str, object]:
    return state_to_json(random_hand(ruleset("domino4d"), 5))


def test_an_unreadable_tile_is_located() -> None:
    document = _document()
    document["deal"]["hands"][2][3] = "seven-up"  # type: ignore[index]
    with pytest.raises(FormatError) as caught:
        state_from_json(document)
    assert caught.value.path == "$.deal.hands[2][3]"


def test_an_illegal_action_is_located_and_names_its_rule() -> None:
    document = _document()
    actions = document["actions"]
    assert isinstance(actions, list)
    # In domino4d the holder of 0-0 must lead it, so replacing the lead by a pass breaks
    # open.lead: the table is empty and a lead is required.
    actions[0] = {"seat": actions[0]["seat"], "move": "pass"}
    with pytest.raises(FormatError) as caught:
        state_from_json(document)
    assert caught.value.path == "$.actions[0]"
    assert "lead-required" in caught.value.message
    assert "[open.lead]" in caught.value.message


def test_a_claimed_observation_that_disagrees_is_located() -> None:
    document = _document()
    document["to_act"] = 9
    with pytest.raises(FormatError) as caught:
        state_from_json(document)
    assert caught.value.path == "$.to_act"


def test_a_deal_that_does_not_fit_is_located() -> None:
    document = _document()
    document["deal"]["hands"][0] = document["deal"]["hands"][0][:-1]  # type: ignore[index]
    with pytest.raises(FormatError) as caught:
        state_from_json(document)
    assert caught.value.path == "$.deal"
    assert "seat 0 holds 6 tiles" in caught.value.message
