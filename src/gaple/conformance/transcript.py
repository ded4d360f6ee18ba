"""Checking a transcript recorded by another implementation against the spec.

A transcript has the form of :func:`gaple.io.state_to_json`: the rules, the deal, whether it is
a first hand, the actions in order, and optionally what the implementation showed at the end
(``to_act``, ``line``, ``ends``, ``hands``, ``discards``, ``ending``) and the result it claimed.
The checker replays the actions and reports the first divergence.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from attrs import frozen

from gaple.conformance.cases import result_json
from gaple.conformance.compare import compare_result
from gaple.conformance.schemas import transcript_schema
from gaple.deal import InvalidDeal
from gaple.io import (
    FormatError,
    action_from_json,
    deal_from_json,
    rules_from_json,
    state_to_json,
)
from gaple.state import Discard, Ending, IllegalMove, State, apply, new_hand

__all__ = ["Divergence", "Verdict", "check_transcript", "schema_problem"]

JSON = Any

_OBSERVED = ("ending", "to_act", "line", "ends", "hands", "discards")


@frozen
class Divergence:
    """The first place a transcript departs from the spec."""

    step: int
    """The action number (1-based); the number of actions for the final fields and result."""
    seat: int | None
    """The seat that acted, for an action."""
    action: str | None
    """The move, for an action."""
    field: str
    """``action`` for a move the spec rejects, else the field of the transcript."""
    rule: str
    """The rule ID."""
    expected: JSON
    """What the spec expected."""
    claimed: JSON
    """What the transcript claims."""
    path: str
    """The JSON path of the diverging value in the transcript."""

    def to_json(self) -> dict[str, JSON]:
        """As a JSON object."""
        return {
            "step": self.step,
            "seat": self.seat,
            "action": self.action,
            "field": self.field,
            "rule": self.rule,
            "expected": self.expected,
            "claimed": self.claimed,
            "path": self.path,
        }


@frozen
class Verdict:
    """The outcome of checking one transcript."""

    actions: int
    ending: str | None
    divergence: Divergence | None
    notes: tuple[str, ...] = ()

    @property
    def conforms(self) -> bool:
        """Whether the transcript agrees with the spec everywhere it was checked."""
        return self.divergence is None


def schema_problem(data: JSON) -> FormatError | None:
    """The first violation of ``spec/schema/transcript.schema.json``, if ``jsonschema`` is
    installed (otherwise the readers below still locate every problem they meet)."""
    try:
        jsonschema = importlib.import_module("jsonschema")
    except ImportError:
        return None
    validator = jsonschema.Draft202012Validator(transcript_schema())
    errors = sorted(validator.iter_errors(data), key=lambda e: list(e.absolute_path))
    if not errors:
        return None
    error = errors[0]
    path = "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)
    return FormatError(path, error.message)


def check_transcript(data: JSON) -> Verdict:
    """Replay a transcript and find its first divergence from the spec.

    Raises:
        FormatError: the transcript is not in the expected form (located by JSON path).
    """
    problem = schema_problem(data)
    if problem is not None:
        raise problem
    if not isinstance(data, Mapping):
        raise FormatError("$", "expected an object")
    rules = rules_from_json(data.get("rules"), "$.rules")
    deal = deal_from_json(data.get("deal"), "$.deal")
    first_hand = data.get("first_hand", True)
    try:
        state = new_hand(rules, deal, first_hand=first_hand)
    except InvalidDeal as error:
        raise FormatError("$.deal", str(error)) from None
    raw = data.get("actions", [])
    if not isinstance(raw, list):
        raise FormatError("$.actions", "expected an array")
    actions = [action_from_json(item, f"$.actions[{i}]") for i, item in enumerate(raw)]
    for number, action in enumerate(actions, start=1):
        try:
            state = apply(state, action.move, action.seat)
        except IllegalMove as error:
            divergence = Divergence(
                step=number,
                seat=action.seat,
                action=str(action.move),
                field="action",
                rule=error.rule_id,
                expected=f"rejected ({error.code}: {error.message})",
                claimed="accepted",
                path=f"$.actions[{number - 1}]",
            )
            return Verdict(number - 1, None, divergence)
    ending = None if state.ending is None else state.ending.value
    spec = state_to_json(state)
    for name in _OBSERVED:
        if name in data and data[name] != spec[name]:
            divergence = Divergence(
                step=len(actions),
                seat=None,
                action=None,
                field=name,
                rule=_rule(name, state),
                expected=spec[name],
                claimed=data[name],
                path=f"$.{name}",
            )
            return Verdict(len(actions), ending, divergence)
    return _check_result(data, state, len(actions), ending)


def _rule(name: str, state: State) -> str:
    if name in ("ending", "to_act") and state.ending is not None:
        return "end.out" if state.ending is Ending.OUT else "end.blocked"
    if name == "ending":
        return "end.blocked"
    if name == "to_act":
        return "turn.order"
    if name in ("line", "ends"):
        return "play.match-end"
    if name == "discards":
        return "block.discard"
    moves = [a.move for a in state.history]
    return "block.discard" if any(isinstance(m, Discard) for m in moves) else "play.in-hand"


def _check_result(
    data: Mapping[str, JSON], state: State, actions: int, ending: str | None
) -> Verdict:
    claimed = data.get("result")
    if claimed is None:
        return Verdict(actions, ending, None)
    if not isinstance(claimed, Mapping):
        raise FormatError("$.result", "expected an object")
    if state.ending is None:
        divergence = Divergence(
            actions,
            None,
            None,
            "result",
            "end.blocked",
            "no result: the hand goes on",
            claimed,
            "$.result",
        )
        return Verdict(actions, ending, divergence)
    expected = result_json(state)
    assert expected is not None
    unknown = sorted(set(claimed) - set(expected))
    if unknown:
        raise FormatError(
            f"$.result.{unknown[0]}", f"unknown field; fields are {', '.join(expected)}"
        )
    present = {name: expected[name] for name in claimed}
    difference = compare_result(present, claimed, state, ("count", "points"))
    if difference is None:
        return Verdict(actions, ending, None)
    divergence = Divergence(
        actions,
        None,
        None,
        f"result.{difference.field}",
        difference.rule,
        difference.expected,
        difference.actual,
        f"$.result.{difference.field}",
    )
    return Verdict(actions, ending, divergence)
