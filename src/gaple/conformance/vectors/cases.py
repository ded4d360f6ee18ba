"""Conformance cases: one hand (rules, deal, actions) with what the spec says at every step.

A case is plain JSON (schema: ``spec/schema/case.schema.json``). Its expected values are
computed here by running the executable spec, so a case can never disagree with it; which
deals and actions make a case worth having is decided by hand in the scenario data files read
by :mod:`.builder` and in :mod:`.scenarios`.

The observable state after each step (:func:`observe`) is split into levels an engine can be
checked at (:data:`LEVELS`): ``line`` (line, ends, legal leads and placements), ``turns`` (the
seat to act, legal passes and discards, hand sizes, discard counts, the ending), ``count``
(counts, winner, winning team), ``points`` (points, replay) and ``rules`` (the rule a rejection
names, the rule IDs that explain a result).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from attrs import frozen

from gaple.conformance.vectors.packaged import CASE_FORMAT
from gaple.conformance.vectors.situations import features_of
from gaple.conformance.vectors.tags import tags_of
from gaple.deal import Deal
from gaple.engine.play import move_text
from gaple.engine.scoring import quiet_fields
from gaple.io import deal_to_json, rules_to_json
from gaple.presets import find_preset
from gaple.reference import opening, turn
from gaple.reference.opening import banned, lead_rule
from gaple.result import HandResult, hand_result
from gaple.rules import Ruleset
from gaple.state import (
    Action,
    Discard,
    Ending,
    IllegalMove,
    Lead,
    Move,
    Pass,
    Place,
    State,
    apply,
    legal_moves,
    new_hand,
    parse_move,
)

__all__ = [
    "CASE_FORMAT",
    "ENGINE",
    "EXPECTATIONS_FORMAT",
    "EXPECTATIONS_VERSION",
    "EXPECTED",
    "LEVELS",
    "LINE_ERRORS",
    "REFERENCE",
    "STATUSES",
    "Implementation",
    "Played",
    "ScenarioError",
    "Step",
    "assemble_case",
    "build_case",
    "case_levels",
    "error_level",
    "move_rule",
    "observe",
    "result_json",
]

LEVELS: tuple[str, ...] = ("line", "turns", "count", "points", "rules")
"""The levels an engine can be checked at, from the line up to the points, then the reasons."""

STATUSES = ("passed", "failed", "skipped", "errored")
"""Every way a case can end when an engine plays it."""

EXPECTATIONS_FORMAT = "gaple-expectations"
"""The ``format`` tag of an expectations file (:mod:`gaple.conformance.runner.expectations`)."""

EXPECTATIONS_VERSION = 1
"""The ``version`` of the expectations format this gaple reads and writes."""

EXPECTED = ("failed", "errored", "unsupported")
"""The ways an expectations file may expect a case to end: ``unsupported`` is a case declined
by an engine that declares no scope."""

LINE_ERRORS = frozenset({"line-started", "lead-required", "no-match", "illegal-lead"})
"""Error codes of the ``line`` level (leads and placements); the others are ``turns``
(``not-in-hand`` belongs to the level of the move it rejects)."""

JSON = Any


class ScenarioError(ValueError):
    """A hand-written scenario that the spec does not play the way its author reasoned."""


def observe(
    state: State, legal: Callable[[State], tuple[Move, ...]] = legal_moves
) -> dict[str, JSON]:
    """What an engine must show after each step, in the protocol's ``state`` form, the legal
    moves listed by ``legal``.

    ``legal`` is in :func:`gaple.state.legal_moves` order but compared as a set.
    """
    ends = state.ends
    return {
        "to_act": state.to_act,
        "line": list(map(list, state.line)),
        "ends": None if ends is None else list(ends),
        "legal": list(map(move_text, legal(state))),
        "hand_sizes": list(state.hand_sizes),
        "discard_counts": list(state.discard_counts),
        "ending": None if state.ending is None else state.ending.value,
    }


def result_json(state: State) -> dict[str, JSON] | None:
    """The result of an ended hand in the protocol's ``result`` form; ``None`` while it goes
    on. ``rules`` are the rule IDs of the spec's explanation notes, as a sorted set."""
    if state.ending is None:
        return None
    return result_fields(hand_result(state))


def result_fields(result: HandResult) -> dict[str, JSON]:
    """The protocol's ``result`` form of a hand's result (see :func:`result_json`)."""
    return {
        "counts": list(result.counts),
        "winner": result.winner,
        "winning_team": result.winning_team,
        "points": list(result.points),
        "replay": result.replay,
        "rules": sorted({note.rule_id for note in result.notes}),
    }


def move_rule(state: State, move: Move) -> str:
    """The rule that makes ``move`` legal in ``state`` (named when an engine rejects it)."""
    if isinstance(move, Lead):
        if banned(state.rules, move.tile):
            return "open.forbidden"
        return lead_rule(state.rules, first_hand=state.first_hand).rule_id
    if isinstance(move, Place):
        return "play.match-end"
    if isinstance(move, Pass):
        return "block.pass"
    return "block.discard"


def _error_level(code: str, move: Move) -> str:
    if code in LINE_ERRORS:
        return "line"
    if code == "not-in-hand" and isinstance(move, Lead | Place):
        return "line"
    return "turns"


@frozen
class Played:
    """One played step: the action, the error it raised (if any) and the state after it (the
    state before it, when it was refused)."""

    action: Action
    error: IllegalMove | None
    after: State


Step = tuple[int, str, "str | tuple[int, int] | None"]
"""A scripted step: seat, move, and what its author reasoned: an error code, the ends after
an accepted move, or ``None`` (accepted, nothing more claimed)."""


def _play(state: State, steps: Sequence[Step], played_by: Implementation) -> list[Played]:
    played: list[Played] = []
    for number, (seat, text, claim) in enumerate(steps, start=1):
        action = Action(seat, parse_move(text))
        expected_code = claim if isinstance(claim, str) else None
        try:
            after = played_by.apply(state, action.move, seat)
        except IllegalMove as error:
            if expected_code != error.code:
                wanted = expected_code or "acceptance"
                msg = f"step {number} ({action}): spec rejects it with {error.code}, not {wanted}"
                raise ScenarioError(msg) from None
            played.append(Played(action, error, state))
            continue
        if expected_code is not None:
            msg = f"step {number} ({action}): spec accepts it, not {expected_code}"
            raise ScenarioError(msg)
        if isinstance(claim, tuple) and after.ends != claim:
            msg = f"step {number} ({action}): ends are {after.ends}, not {claim}"
            raise ScenarioError(msg)
        played.append(Played(action, None, after))
        state = after
    return played


def _exercised(start: State, played: Sequence[Played], result: HandResult | None) -> set[str]:
    """The rule IDs a case exercises, derived from what it checks."""
    rules = start.rules
    ids = {"tiles.set", "deal.sizes"}
    if start.deal.starter is not None:
        ids.update({"deal.starter", "open.starter-seat"})
    if not start.first_hand:
        ids.add("match.opener")
    accepted = [p for p in played if p.error is None]
    if len(accepted) >= 2:
        ids.add("turn.order")
    seats = [p.action.seat for p in accepted]
    if any(a == rules.players - 1 and b == 0 for a, b in itertools.pairwise(seats)):
        ids.add("table.seats")
    for p in played:
        if p.error is not None:
            ids.add(p.error.rule_id)
            continue
        move = p.action.move
        if isinstance(move, Lead):
            ids.update({"open.lead", "play.in-hand", move_rule(start, move)})
            if rules.forbidden_leads:
                ids.add("open.forbidden")
        elif isinstance(move, Place):
            ids.update({"play.match-end", "play.in-hand"})
        elif isinstance(move, Pass):
            ids.update({"block.pass", "turn.forced-play"})
        elif isinstance(move, Discard):
            ids.update({"block.discard", "turn.forced-play", "play.in-hand"})
    final = played[-1].after if played else start
    if final.ending is Ending.OUT:
        ids.add("end.out")
    elif final.ending is Ending.BLOCKED:
        ids.add("end.blocked")
    if result is not None:
        ids.update({note.rule_id for note in result.notes}, {"score.count", "score.rank"})
    return ids


def case_levels(case: Mapping[str, JSON]) -> list[str]:
    """The levels a case checks: ``line`` always; ``turns`` when it passes, discards, checks a
    turns-level error or reaches the end; ``count`` and ``points`` when it has a result;
    ``rules`` when it has a result or an error (a rule named on the wire)."""
    steps = [
        (parse_move(step["action"]["move"]), step["error"]["code"] if "error" in step else None)
        for step in case["steps"]
    ]
    observed = [case["initial"]] + [step["expect"] for step in case["steps"] if "expect" in step]
    ended = any(seen["ending"] is not None for seen in observed)
    return _levels(steps, ended=ended, result=case.get("result") is not None)


def _levels(steps: Iterable[tuple[Move, str | None]], *, ended: bool, result: bool) -> list[str]:
    """:func:`case_levels` of a case's steps (each move and the code it was refused with),
    whether an observation shows the hand ended, and whether it has a result."""
    levels = {"line"}
    for move, code in steps:
        if isinstance(move, Pass | Discard):
            levels.add("turns")
        if code is not None:
            levels.add("rules")
            if _error_level(code, move) == "turns":
                levels.add("turns")
    if ended:
        levels.add("turns")
    if result:
        levels.update({"count", "points", "rules"})
    return [level for level in LEVELS if level in levels]


@functools.lru_cache(maxsize=4096)
def error_level(code: str, move_text: str) -> str:
    """The level at which a rejection with ``code`` of ``move_text`` is checked (kept: the
    runner asks it of every refused step, and reading the move is most of the answer)."""
    return _error_level(code, parse_move(move_text))


@frozen
class Implementation:
    """One of gaple's two implementations of the rules, as :class:`ReferenceEngine` plays it:
    how a hand starts, a move is made, the legal moves are listed and a result is given."""

    name: str
    new_hand: Callable[[Ruleset, Deal, bool], State]
    apply: Callable[[State, Move, int | None], State]
    legal_moves: Callable[[State], tuple[Move, ...]]
    result: Callable[[State], dict[str, JSON] | None]


def _engine_result(state: State) -> dict[str, JSON] | None:
    """:func:`~gaple.conformance.vectors.cases.result_json` with the numbers from the engine's quiet
    scoring (:func:`gaple.engine.scoring.quiet_fields`); the rule IDs are those of the notes."""
    result = result_json(state)
    if result is None:
        return None
    fields = quiet_fields(state)
    return {
        **result,
        "counts": list(fields.counts),
        "winner": fields.winner,
        "winning_team": fields.winning_team,
        "points": list(fields.points),
        "replay": fields.replay,
    }


ENGINE = Implementation(
    "engine",
    lambda rules, deal, first_hand: new_hand(rules, deal, first_hand=first_hand),
    apply,
    legal_moves,
    _engine_result,
)
"""The fast engine (:mod:`gaple.engine`): what :mod:`gaple.state` and the quiet scoring of
``gaple check`` play."""

REFERENCE = Implementation(
    "reference",
    lambda rules, deal, first_hand: opening.new_hand(rules, deal, first_hand=first_hand),
    turn.apply,
    turn.legal_moves,
    result_json,
)
"""The rules written for reading (:mod:`gaple.reference`); results are always reckoned by the
reference (:func:`gaple.result.hand_result`)."""


def build_case(
    *,
    case_id: str,
    topic: str,
    description: str,
    preset: str,
    overrides: Mapping[str, Any],
    deal: Deal,
    steps: Sequence[Step],
    first_hand: bool = True,
    rules_note: Sequence[str] = (),
    played_by: Implementation = REFERENCE,
) -> dict[str, JSON]:
    """Run a scenario through the spec and return the case with every expected value: the
    hand is played by ``played_by``, the reference (:mod:`gaple.reference`) unless a caller
    that builds many cases asks for the engine proven equal to it, and its result is reckoned
    by the reference.

    ``steps`` are :data:`Step` tuples; a scenario whose author reasoned a different verdict
    raises :class:`ScenarioError`, so hand reasoning and spec are
    checked against each other when the vectors are built. ``rules_note`` adds rule IDs the
    scenario was written for (they must also be derivable, see :func:`_exercised`).

    Raises:
        ScenarioError: the spec does not play the scenario as written.
    """
    rules = find_preset(preset).rules.replace(**overrides)
    start = played_by.new_hand(rules, deal, first_hand)
    played = _play(start, steps, played_by)
    final = played[-1].after if played else start
    result = None if final.ending is None else hand_result(final)
    case = assemble_case(
        case_id=case_id,
        topic=topic,
        description=description,
        preset=preset,
        overrides=overrides,
        start=start,
        played=played,
        result=result,
        legal=played_by.legal_moves,
    )
    missing = sorted(set(rules_note).difference(case["rule_ids"]))
    if missing:
        msg = f"case {case_id} is written for {', '.join(missing)} but does not exercise it"
        raise ScenarioError(msg)
    return case


def assemble_case(
    *,
    case_id: str,
    topic: str,
    description: str,
    preset: str,
    overrides: Mapping[str, Any],
    start: State,
    played: Sequence[Played],
    result: HandResult | None,
    legal: Callable[[State], tuple[Move, ...]] = legal_moves,
    situation: Mapping[str, str] | None = None,
    annotated: bool = True,
) -> dict[str, JSON]:
    """The case of a hand already played: from ``start`` through ``played``, with the
    reference's ``result`` of its end (``None`` while it goes on), the legal moves listed
    by ``legal`` and the hand's ``situation`` (its features, worked out when not given).
    :func:`build_case` plays a scenario and checks it first; the fuzzer, which plays its own
    hands, assembles them directly.

    A case not ``annotated`` leaves out what only its readers need: its ``rule_ids``, its
    ``features`` and the ``rules`` of its result (so ``result`` need not be worded). It can
    be run on an engine not checked at the ``rules`` level, never written out."""
    rules, deal, first_hand = start.rules, start.deal, start.first_hand
    rules_json = rules_to_json(rules)
    final = played[-1].after if played else start
    if situation is None:
        refused = [(p.action.move, p.error.code) for p in played if p.error is not None]
        situation = features_of(start, final, refused)
    case: dict[str, JSON] = {
        "format": CASE_FORMAT,
        "id": case_id,
        "topic": topic,
        "description": description,
        "rule_ids": sorted(_exercised(start, played, result)) if annotated else None,
        "levels": [],
        "variant": {
            "preset": find_preset(preset).name,
            "overrides": {name: rules_json[name] for name in overrides},
        },
        "rules": rules_json,
        "deal": deal_to_json(deal),
        "first_hand": first_hand,
        "initial": observe(start, legal),
        "steps": [_step_json(p, legal) for p in played],
        "result": None if result is None else result_fields(result),
        "situation": dict(situation),
        "features": tags_of(rules_json, situation) if annotated else None,
    }
    steps = [(p.action.move, None if p.error is None else p.error.code) for p in played]
    case["levels"] = _levels(steps, ended=final.ending is not None, result=result is not None)
    if not annotated:
        del case["rule_ids"], case["features"]
        if result is not None:
            del case["result"]["rules"]
    return case


def _step_json(played: Played, legal: Callable[[State], tuple[Move, ...]]) -> dict[str, JSON]:
    action = {"seat": played.action.seat, "move": move_text(played.action.move)}
    if played.error is not None:
        return {
            "action": action,
            "error": {"code": played.error.code, "rule": played.error.rule_id},
        }
    return {"action": action, "expect": observe(played.after, legal)}
