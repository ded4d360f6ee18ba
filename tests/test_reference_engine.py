"""The benchmark's mutable reference engine plays the same hands as the oracle.

``benchmarks/reference_engine.py`` is only a fair yardstick if it plays the same rules: from
the same seed it must deal the same hands and, drawing its random moves the same way, make
the same moves and end the same way as :func:`gaple.simulate.random_hand`. The expected
values here are the oracle's, which is the specification; the engine under test is the
benchmark's.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from gaple.presets import PRESETS
from gaple.rules import BlockedAction, LeadRule, Ruleset
from gaple.simulate import random_hand
from gaple.state import Discard, Ending, Lead, Move, Pass, Place, State
from gaple.tiles import Tile, tile_set

PATH = Path(__file__).resolve().parent.parent / "benchmarks" / "reference_engine.py"


def _load(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location("reference_engine", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("reference_engine", module)
    spec.loader.exec_module(module)
    return module


ref = _load(PATH)


def _move_code(move: Move, max_pip: int) -> int:
    """The reference engine's int for an oracle move (see its module docstring)."""
    if isinstance(move, Pass):
        return int(ref.PASS)
    index = tile_set(max_pip).index[move.tile]
    if isinstance(move, Lead):
        return 4 * index + int(ref.LEAD)
    if isinstance(move, Discard):
        return 4 * index + int(ref.DISCARD)
    return 4 * index + int(ref.LEFT if move.end.value == "left" else ref.RIGHT)


def _same_hand(table: object, state: State, seed: int) -> None:
    outcome = ref.play(table, seed)
    where = f"seed {seed}"
    moves = [(a.seat, _move_code(a.move, state.rules.max_pip)) for a in state.history]
    assert outcome.history == moves, where
    assert outcome.hands == list(state.hand_masks), where
    assert outcome.discards == list(state.discard_masks), where
    assert outcome.line == state.line_mask, where
    assert outcome.ends == state.ends, where
    assert outcome.out == (state.ending is Ending.OUT), where


# 300 seeds per preset: every preset plays out and blocked hands, and the pass and discard
# presets both pass and discard (checked below so the comparison cannot be vacuous).
@pytest.mark.parametrize("name", sorted(PRESETS))
def test_reference_engine_plays_the_oracles_hands(name: str) -> None:
    rules = PRESETS[name].rules
    table = ref.Table(rules)
    kinds: set[type] = set()
    for seed in range(300):
        state = random_hand(rules, seed)
        kinds.update(type(a.move) for a in state.history)
        _same_hand(table, state, seed)
    assert Place in kinds
    assert (Pass if rules.blocked_action.value == "pass" else Discard) in kinds


# The starter, the double and any-tile leads and a lead ban are in no preset's first hand.
@pytest.mark.parametrize(
    "rules",
    [
        Ruleset(hand_size=6, blocked_action=BlockedAction.PASS),
        Ruleset(first_lead=LeadRule.DOUBLE, forbidden_leads=frozenset({Tile(6, 6)})),
        Ruleset(max_pip=3, players=2, hand_size=4, first_lead=LeadRule.ANY_TILE),
    ],
)
def test_reference_engine_other_openings(rules: Ruleset) -> None:
    table = ref.Table(rules)
    for seed in range(200):
        _same_hand(table, random_hand(rules, seed), seed)


def _differing_seeds(module: ModuleType, rules: Ruleset) -> int:
    table = module.Table(rules)
    differing = 0
    for seed in range(100):
        state = random_hand(rules, seed)
        outcome = module.play(table, seed)
        moves = [(a.seat, _move_code(a.move, rules.max_pip)) for a in state.history]
        differing += outcome.history != moves or outcome.ends != state.ends
    return differing


def test_a_broken_reference_engine_is_caught(tmp_path: Path) -> None:
    # Placing on the left end as if it were the right one (a classic defect) must show up as
    # a different line or history on some seed; the engine as written differs on none.
    broken = tmp_path / "broken_engine.py"
    source = PATH.read_text()
    wrong = source.replace("left = high if left == low else low", "left = high")
    assert wrong != source
    broken.write_text(wrong)
    rules = PRESETS["domino4d"].rules
    assert _differing_seeds(_load(broken), rules) > 0
    assert _differing_seeds(ref, rules) == 0
