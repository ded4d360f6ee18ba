"""Differential fuzzing: Hypothesis draws deals and action sequences (legal and illegal), the
engine and the spec play them side by side, and a disagreement is shrunk to a minimal case.

The drawn hand is turned into an ordinary case (:func:`gaple.conformance.cases.build_case`) and
run with :func:`gaple.conformance.runner.run_case`, so the fuzzer compares exactly what the
suite compares and the case it reports is ready to commit under ``spec/vectors/v1/``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any

from attrs import frozen
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st

from gaple.conformance.cases import Step, build_case
from gaple.conformance.engines import Engine, EngineError
from gaple.conformance.runner import CaseOutcome, EngineInfo, hello, run_case
from gaple.deal import Deal
from gaple.presets import find_preset
from gaple.rules import Ruleset
from gaple.state import (
    Discard,
    End,
    IllegalMove,
    Lead,
    Move,
    Pass,
    Place,
    State,
    apply,
    is_legal,
    legal_moves,
    verify,
)
from gaple.state import new_hand as start_hand
from gaple.tiles import tile_set

__all__ = ["Finding", "Unsupported", "fuzz"]

JSON = Any

MAX_STEPS = 60
"""Actions drawn per hand: more than any hand lasts, counting illegal attempts."""


@frozen
class Finding:
    """A minimal disagreement: the case and how the engine failed it."""

    case: dict[str, JSON]
    outcome: CaseOutcome


class _Disagreement(Exception):
    pass


class Unsupported(Exception):
    """The engine declines the variant (or a level a drawn hand needs): nothing to compare."""


def _all_actions(rules: Ruleset) -> list[tuple[int, Move]]:
    tiles = tile_set(rules.max_pip).tiles
    moves: list[Move] = [Pass()]
    for tile in tiles:
        moves += [Lead(tile), Place(tile, End.LEFT), Place(tile, End.RIGHT), Discard(tile)]
    return [(seat, move) for seat in range(rules.players) for move in moves]


def _steps(
    state: State, choices: list[tuple[bool, int]], actions: list[tuple[int, Move]]
) -> list[Step]:
    """The drawn choices as steps, then the hand finished with each seat's first legal move,
    then one action after the end; so every example reaches the end of its hand."""
    steps: list[Step] = []
    for illegal, k in choices:
        if state.to_act is None:
            break
        if illegal:
            wrong = [(s, m) for s, m in actions if not is_legal(state, m, s)]
            seat, move = wrong[k % len(wrong)]
            steps.append((seat, str(move), _code(state, move, seat)))
            continue
        moves = legal_moves(state)
        steps.append((state.to_act, str(moves[k % len(moves)]), None))
        state = apply(state, moves[k % len(moves)])
    while state.to_act is not None:
        move = legal_moves(state)[0]
        steps.append((state.to_act, str(move), None))
        state = apply(state, move)
    steps.append((0, "pass", "hand-over"))
    return steps


def _code(state: State, move: Move, seat: int) -> str:
    try:
        verify(state, move, seat)
    except IllegalMove as error:
        return error.code
    msg = f"seat {seat}: {move} is legal"
    raise AssertionError(msg)


def fuzz(
    make_engine: Callable[[], Engine],
    preset: str,
    *,
    examples: int = 200,
    seed: int = 0,
    overrides: dict[str, JSON] | None = None,
) -> Finding | None:
    """Search ``examples`` hands of ``preset`` for a disagreement; the shrunk one, or ``None``.

    Raises:
        EngineError: the engine cannot even be started and greeted, or it crashed, hung or
            answered out of protocol during the search (never reported as a disagreement).
        Unsupported: the engine declines the variant.
    """
    rules = find_preset(preset).rules.replace(**(overrides or {}))
    actions = _all_actions(rules)
    full = tile_set(rules.max_pip).tiles
    holder: dict[str, Any] = {"engine": None, "info": None, "broken": None}
    found: list[Finding] = []

    def engine() -> tuple[Engine, EngineInfo]:
        if holder["engine"] is None:
            fresh = make_engine()
            holder["engine"] = fresh
            holder["info"] = hello(fresh)
        current: Engine = holder["engine"]
        info: EngineInfo = holder["info"]
        return current, info

    engine()  # fail early, outside Hypothesis, if the engine cannot start

    @settings(
        max_examples=examples,
        database=None,
        deadline=None,
        phases=(Phase.generate, Phase.shrink),
        suppress_health_check=list(HealthCheck),
        print_blob=False,
    )
    @hypothesis_seed(seed)
    @given(
        order=st.permutations(full),
        first_seat=st.integers(0, rules.players - 1),
        first_hand=st.booleans(),
        choices=st.lists(
            st.tuples(st.integers(0, 3).map(lambda n: n == 3), st.integers(0, 500)),
            max_size=MAX_STEPS,
        ),
    )
    def probe(
        order: list[Any], first_seat: int, first_hand: bool, choices: list[tuple[bool, int]]
    ) -> None:
        if holder["broken"] is not None:
            return
        size = rules.hand_size
        dealt = rules.players * size
        deal = Deal(
            hands=[order[s * size : (s + 1) * size] for s in range(rules.players)],
            starter=order[dealt] if rules.has_starter else None,
            set_aside=order[dealt + 1 :],
            first_seat=first_seat,
        )
        first = first_hand or rules.has_starter
        steps = _steps(start_hand(rules, deal, first_hand=first), choices, actions)
        outcome, case = attempt(deal, steps, first)
        if outcome.status == "skipped":
            raise Unsupported(outcome.message)
        if outcome.status != "failed":
            # An error (crash, hang) is the engine's, not a rules case to shrink and write.
            holder["broken"] = outcome.message if outcome.status == "errored" else None
            return
        if outcome.step is not None and outcome.step < len(steps):
            # The steps after the divergence add nothing: keep the shorter case if it still fails.
            shorter, short_case = attempt(deal, steps[: outcome.step], first)
            if shorter.status == outcome.status and shorter.rule == outcome.rule:
                outcome, case = shorter, short_case
        found.append(Finding(case, outcome))
        raise _Disagreement(outcome.describe())

    def attempt(deal: Deal, steps: list[Step], first: bool) -> tuple[CaseOutcome, dict[str, JSON]]:
        digest = hashlib.sha1(json.dumps([str(deal), steps, first]).encode()).hexdigest()[:10]
        case = build_case(
            case_id=f"fuzz-{rules_label(preset, overrides)}-{digest}",
            topic="fuzz",
            description=f"Found by gaple conformance fuzz (variant {preset}, seed {seed}).",
            preset=preset,
            overrides=overrides or {},
            deal=deal,
            steps=steps,
            first_hand=first,
        )
        current, info = engine()
        try:
            return run_case(current, info, case, info.levels), case
        except EngineError as error:
            current.close()
            holder["engine"] = None
            failure = CaseOutcome(
                case=case["id"], topic="fuzz", status="errored", seconds=0.0, message=str(error)
            )
            return failure, case

    try:
        probe()
    except _Disagreement:
        return found[-1]
    finally:
        if holder["engine"] is not None:
            holder["engine"].close()
    if holder["broken"] is not None:
        raise EngineError("the engine failed during the search: " + holder["broken"])
    return None


def rules_label(preset: str, overrides: dict[str, JSON] | None) -> str:
    """A short label for case IDs: the preset, plus ``custom`` when options are overridden."""
    return preset + ("-custom" if overrides else "")
