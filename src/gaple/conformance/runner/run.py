"""The conformance runner: drive an engine through every case and compare it with the spec.

Each case ends ``passed``, ``failed`` (the first difference, with its rule ID), ``skipped``
(the engine does not support the variant, or the case needs a playing level the engine does
not declare: ``count``, ``points`` and ``rules`` are only ever extra comparisons) or
``errored`` (crash, timeout, unreadable reply: the engine is restarted for the next case). The
runner only ever sends the engine the case's rules, deal and actions, never the expected
values.
"""

from __future__ import annotations

import json
import queue
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

import attrs
from attrs import field, frozen

from gaple.conformance.checker.compare import (
    COUNT_FIELDS,
    LINE_FIELDS,
    POINTS_FIELDS,
    RESULT_LEVELS,
    TURNS_FIELDS,
    Difference,
    compare_observation,
    compare_result,
    difference_words,
    failure_name,
    result_level,
)
from gaple.conformance.runner.engines import Engine, EngineError, refuse_error
from gaple.conformance.runner.shapes import reply_problem, state_fits
from gaple.conformance.vectors.cases import LEVELS, error_level, move_rule
from gaple.conformance.vectors.scope import BadPlays, Scope, declared_scope
from gaple.conformance.wire.escape import json_escaped, printable
from gaple.io import FormatError, deal_from_json, rules_from_json, state_to_json
from gaple.state import IllegalMove, State, apply, new_hand, parse_move

__all__ = [
    "DECLARED",
    "TRACE_SHOWN",
    "CaseOutcome",
    "EngineInfo",
    "Exchange",
    "Measured",
    "Summary",
    "ask",
    "hello",
    "run_case",
    "run_suite",
]

DECLARED = "hello.plays"
"""What a failure names when an engine declines a case inside the scope it declared: the
field of its hello it broke (not a rule of the game)."""

JSON = Any

PLAYING_LEVELS = ("line", "turns")
"""Levels an engine needs to play a case at all; count and points are only compared."""


@frozen
class EngineInfo:
    """What an engine said about itself in its hello."""

    name: str
    version: str
    levels: tuple[str, ...]
    error_codes: bool
    batch: bool = False
    """Whether the engine answers ``batch`` requests (optional in the protocol)."""
    plays: Scope | None = None
    """What it declares it plays (``plays``); ``None`` when it declares nothing."""


TRACE_SHOWN = 4000
"""Characters of one message kept in a trace (a reply can be a megabyte; a case's ``start``,
the longest request, is under 2,000)."""


@frozen
class Exchange:
    """One message of a trace: sent to the engine or received from it, as JSON text with
    every hidden character escaped, cut to :data:`TRACE_SHOWN` characters."""

    sent: bool
    text: str
    compared: bool = True
    """Whether the runner read the reply: a batch's replies after the first difference (or
    the first error) were received, never compared."""

    @classmethod
    def of(cls, *, sent: bool, message: JSON, compared: bool = True) -> Exchange:
        """The message as the trace keeps it."""
        text = json_escaped(json.dumps(message, ensure_ascii=False))
        if len(text) > TRACE_SHOWN:
            text = f"{text[:TRACE_SHOWN]}... ({len(text)} characters)"
        return cls(sent, text, compared)

    def to_json(self) -> dict[str, JSON]:
        """The report's form: ``{"sent": TEXT}`` or ``{"received": TEXT}``, with
        ``"compared": false`` for a reply the runner never read."""
        shown: dict[str, JSON] = {"sent" if self.sent else "received": self.text}
        if not self.compared:
            shown["compared"] = False
        return shown

    def describe(self) -> str:
        """One line for the terminal: ``>`` sent, ``<`` received, ``<`` and ``(not compared)``
        for a reply the runner never read."""
        unread = "" if self.compared else "(not compared) "
        return f"{'>' if self.sent else '<'} {unread}{printable(self.text)}"


class _Read(list[JSON]):
    """A batch's replies, noting how many the runner has read: it reads them in order and
    stops at the first difference or error, so the rest were received but never compared."""

    read = 0

    def __iter__(self) -> Iterator[JSON]:
        for self.read, reply in enumerate(super().__iter__(), start=1):
            yield reply


class _Trace:
    """The messages of one case, in order (``--trace``): the messages themselves, turned into
    text only for a case that fails. A ``batch`` and its reply are kept as the requests and
    replies they carry, each reply after its request, unless the reply does not hold one reply
    per request."""

    def __init__(self) -> None:
        self.messages: list[tuple[bool, JSON]] = []
        self.batches: list[tuple[int, _Read]] = []
        """Where in :attr:`messages` each batch's first request is, and its replies."""

    def exchanges(self) -> tuple[Exchange, ...]:
        """The messages as the trace keeps them, the replies never read marked."""
        unread: set[int] = set()
        for at, replies in self.batches:
            unread.update(range(at + 2 * replies.read + 1, at + 2 * len(replies), 2))
        return tuple(
            Exchange.of(sent=sent, message=message, compared=number not in unread)
            for number, (sent, message) in enumerate(self.messages)
        )


class _Recorded:
    """An engine whose requests and replies are kept in a :class:`_Trace`."""

    def __init__(self, engine: Engine, trace: _Trace) -> None:
        self.engine = engine
        self.trace = trace

    def request(self, message: dict[str, JSON]) -> dict[str, JSON]:
        log = self.trace.messages
        try:
            reply = self.engine.request(message)
        except EngineError:
            log.append((True, message))
            raise
        requests, replies = message.get("requests"), reply.get("replies")
        if (
            message["type"] == "batch"
            and isinstance(requests, list)
            and isinstance(replies, list)
            and len(requests) == len(replies)
        ):
            read = _Read(replies)
            self.trace.batches.append((len(log), read))
            for pair in zip(requests, replies, strict=True):
                log += [(True, pair[0]), (False, pair[1])]
            return {**reply, "replies": read}
        log += [(True, message), (False, reply)]
        return reply

    def close(self) -> None:
        self.engine.close()


@frozen
class CaseOutcome:
    """How one case ended."""

    case: str
    topic: str
    status: str
    seconds: float
    levels: tuple[str, ...] = ()
    rule: str | None = None
    step: int | None = None
    seat: int | None = None
    action: str | None = None
    difference: Difference | None = None
    message: str = ""
    rule_ids: tuple[str, ...] = field(default=())
    position: State | None = None
    """For a failure, the spec's position where the engine departed from it (for a picture)."""
    declined: bool = False
    """Skipped because an engine that declares no scope (``plays``) answered ``unsupported``."""
    by_request: bool = False
    """Skipped because the user asked (``--skip-feature``): not sent to the engine."""
    undeclared: bool = False
    """Skipped because it lies outside the scope the engine declares (``plays``): not sent."""
    trace: tuple[Exchange, ...] | None = None
    """Every request sent and reply received, in order, when the run keeps them (``--trace``)
    and the case failed or errored; ``None`` otherwise."""

    def to_json(self) -> dict[str, JSON]:
        """The report's ``case`` record."""
        record: dict[str, JSON] = {
            "type": "case",
            "case": self.case,
            "topic": self.topic,
            "status": self.status,
            "seconds": round(self.seconds, 6),
            "levels": list(self.levels),
            "rule_ids": list(self.rule_ids),
        }
        if self.status == "failed" and self.difference is not None:
            record.update(
                {
                    "rule": self.rule,
                    "step": self.step,
                    "seat": self.seat,
                    "action": self.action,
                    "field": self.difference.field,
                    "expected": self.difference.expected,
                    "actual": self.difference.actual,
                }
            )
            found = self.difference
            words = difference_words(found.field, found.expected, found.actual, teams=self._teams())
            if words is not None:
                record["words"] = words
            if self.position is not None:
                record["position"] = state_to_json(self.position)
        if self.message:
            record["message"] = self.message
        if self.trace is not None:
            record["trace"] = [exchange.to_json() for exchange in self.trace]
        return record

    def describe(self) -> str:
        """One line for the summary."""
        return f"{self.case}: {self.detail()}"

    def detail(self) -> str:
        """What happened, where the case is already named (a pytest item's message)."""
        if self.status == "failed" and self.difference is not None:
            found = self.difference
            name = failure_name(self.step, self.seat, self.action, found.field, found.rule)
            return f"{name}: {found.said(teams=self._teams())}"
        return self.message

    def _teams(self) -> bool:
        """Whether the points are per team (pair scoring), as the spec's position says."""
        return self.position is not None and self.position.rules.partnership


def ask(engine: Engine, message: dict[str, JSON]) -> dict[str, JSON]:
    """Send ``message`` and return the reply once its shape is checked.

    Raises:
        EngineError: the engine failed, or a field of the reply has the wrong type.
    """
    reply = engine.request(message)
    problem = reply_problem(str(message["type"]), reply)
    if problem is not None:
        raise EngineError(problem)
    return reply


def hello(engine: Engine) -> EngineInfo:
    """Greet the engine and read what it supports.

    Raises:
        EngineError: the reply is not a protocol v1 hello.
    """
    reply = ask(engine, {"type": "hello", "protocol": 1})
    if reply.get("type") != "hello":
        msg = f"expected a protocol 1 hello, got {_show(reply)}"
        raise EngineError(msg)
    levels = reply["levels"]
    return EngineInfo(
        name=reply["name"],
        version=reply.get("version", ""),
        levels=tuple(level for level in LEVELS if level in levels),
        error_codes=reply["error_codes"],
        batch=reply.get("batch") is True,
        plays=None if reply.get("plays") is None else _declared(reply["plays"]),
    )


def _declared(plays: JSON) -> Scope:
    """The scope a hello's ``plays`` declares.

    Raises:
        EngineError: it does not describe one (the message names the field).
    """
    try:
        return declared_scope(plays)
    except BadPlays as error:
        raise EngineError(str(error)) from None


def _show(reply: Mapping[str, JSON]) -> str:
    """A reply in a message: escaped, and cut short (it may be up to a megabyte)."""
    return printable(json.dumps(reply), limit=200)


class _Failed(Exception):
    def __init__(
        self,
        difference: Difference,
        step: int,
        action: Mapping[str, JSON] | None,
        position: State,
    ) -> None:
        super().__init__(difference.describe())
        self.difference = difference
        self.step = step
        self.action = action
        self.position = position


def run_case(
    engine: Engine,
    info: EngineInfo,
    case: Mapping[str, JSON],
    levels: Iterable[str],
    *,
    requested: Scope | None = None,
) -> CaseOutcome:
    """Play one case on ``engine``, checking the given levels: request by request, or in one
    ``batch`` when the engine's hello offers it. A case outside the ``requested`` scope
    (``--skip-feature``) is skipped unsent, as is one outside the scope the engine declares.

    Raises:
        EngineError: the engine crashed, hung or answered out of protocol.
    """
    began = time.perf_counter()
    wanted = set(levels)
    checked = tuple(level for level in LEVELS if level in wanted)
    needs = [level for level in case["levels"] if level in PLAYING_LEVELS]
    # A case the fuzzer has not annotated names no rule IDs (cases.assemble_case).
    base = {"case": case["id"], "topic": case["topic"], "rule_ids": tuple(case.get("rule_ids", ()))}
    missing = [level for level in needs if level not in checked]
    if missing:
        return CaseOutcome(
            **base,
            status="skipped",
            seconds=0.0,
            message=f"needs level {', '.join(missing)}, which is not checked",
        )
    unwanted = None if requested is None else requested.outside(case)
    if unwanted is not None:
        return CaseOutcome(
            **base,
            status="skipped",
            seconds=0.0,
            message=f"skipped on request ({unwanted})",
            by_request=True,
        )
    outside = None if info.plays is None else info.plays.outside(case)
    if outside is not None:
        return CaseOutcome(
            **base,
            status="skipped",
            seconds=0.0,
            message=f"outside what the engine declares it plays ({outside})",
            undeclared=True,
        )
    compared = tuple(level for level in case["levels"] if level in checked)
    requests = _requests(case, compared)
    replies = _batched(engine, requests) if info.batch else _one_by_one(engine, requests)
    reply = next(replies)
    if reply.get("type") == "unsupported":
        reason = printable(reply.get("reason", "no reason given"), limit=200)
        if info.plays is None:
            return CaseOutcome(
                **base,
                status="skipped",
                seconds=0.0,
                message=f"unsupported by the engine: {reason}",
                declined=True,
            )
        # Inside the scope the engine declared: declining it is not conforming.
        return CaseOutcome(
            **base,
            status="failed",
            seconds=time.perf_counter() - began,
            levels=compared,
            rule=DECLARED,
            step=0,
            difference=Difference("start", DECLARED, "started", f"unsupported: {reason}"),
            position=_spec_at(case, 0),
        )
    if reply.get("type") != "started":
        msg = f"expected 'started' or 'unsupported', got {_show(reply)}"
        raise EngineError(msg)
    seen = {level for level in compared if level in PLAYING_LEVELS}
    try:
        _play_case(replies, info, case, compared, seen)
    except _Failed as failure:
        action = failure.action
        return CaseOutcome(
            **base,
            status="failed",
            seconds=time.perf_counter() - began,
            levels=_in_order(seen),
            rule=failure.difference.rule,
            step=failure.step,
            seat=None if action is None else action["seat"],
            action=None if action is None else action["move"],
            difference=failure.difference,
            position=failure.position,
        )
    return CaseOutcome(
        **base, status="passed", seconds=time.perf_counter() - began, levels=_in_order(seen)
    )


def _in_order(levels: set[str]) -> tuple[str, ...]:
    return tuple(level for level in LEVELS if level in levels)


def _requests(case: Mapping[str, JSON], levels: Sequence[str]) -> list[dict[str, JSON]]:
    """Every request of a case, in order: they never depend on the engine's replies."""
    requests: list[dict[str, JSON]] = [
        {
            "type": "start",
            "case": case["id"],
            "rules": case["rules"],
            "deal": case["deal"],
            "first_hand": case["first_hand"],
        },
        {"type": "state"},
    ]
    for step in case["steps"]:
        action = step["action"]
        requests.append({"type": "act", "seat": action["seat"], "move": action["move"]})
        requests.append({"type": "state"})
    if case.get("result") is not None and not {"count", "points", "rules"}.isdisjoint(levels):
        requests.append({"type": "result"})
    return requests


def _one_by_one(engine: Engine, requests: Sequence[dict[str, JSON]]) -> Iterator[dict[str, JSON]]:
    """The replies, each request sent only once the previous reply is read (nothing is sent
    after the first difference)."""
    for message in requests:
        yield ask(engine, message)


def _batched(engine: Engine, requests: Sequence[dict[str, JSON]]) -> Iterator[dict[str, JSON]]:
    """The replies to every request, sent in one ``batch``; each is checked when it is read,
    so an error after the first difference does not change the outcome."""
    reply = engine.request({"type": "batch", "requests": list(requests)})
    replies = reply.get("replies")
    if reply.get("type") != "batch" or not isinstance(replies, list):
        msg = f"expected a 'batch' reply, got {_show(reply)}"
        raise EngineError(msg)
    if len(replies) != len(requests):
        msg = f"a batch of {len(requests)} requests answered with {len(replies)} replies"
        raise EngineError(msg)
    for index, (message, answer) in enumerate(zip(requests, replies, strict=True)):
        if answer == _OK:  # half the replies: a field-less reply has no shape to check
            yield answer
            continue
        # The other half: a state reply whose every field has its type (no error reply, no
        # problem to word), checked without going through the general checks.
        if type(answer) is dict and answer.get("type") == "state" and state_fits(answer):
            yield answer
            continue
        kind = message["type"]
        # The requests went together, so the trace does not show which one failed: say it.
        at = _step_of(requests[: index + 1])
        if not isinstance(answer, dict):
            msg = f"reply to {kind!r} in a batch{at} is not a JSON object: {_show(answer)}"
            raise EngineError(msg)
        refuse_error(kind, answer, where=f" in a batch{at}")
        problem = reply_problem(kind, answer)
        if problem is not None:
            raise EngineError(f"{problem} (in a batch{at})")
        yield answer


def _step_of(requests: Sequence[dict[str, JSON]]) -> str:
    """Where the last of ``requests`` (those of a case up to it) stands in the case, after a
    space: ``at step N (seat S: MOVE)`` for an act, ``after step N (seat S: MOVE)`` or
    ``before step 1`` for a state; nothing for ``start`` and ``result``, which the request's
    type places."""
    message = requests[-1]
    acts = [request for request in requests if request["type"] == "act"]
    if message["type"] == "state" and not acts:
        return " before step 1"
    if message["type"] not in ("act", "state"):
        return ""
    last = acts[-1]
    where = "at" if message["type"] == "act" else "after"
    return f" {where} step {len(acts)} (seat {last['seat']}: {last['move']})"


_OK = {"type": "ok"}
"""The reply accepting an act, word for word."""


def _spec_at(case: Mapping[str, JSON], steps: int) -> State:
    """The spec's state after the first ``steps`` steps of the case: replayed only to name the
    rule of a difference, as the case's expected values already say what the spec shows."""
    try:
        rules = rules_from_json(case["rules"], "$.rules")
        deal = deal_from_json(case["deal"], "$.deal")
    except FormatError as error:
        msg = f"case {case['id']} is not readable: {error}"
        raise ValueError(msg) from None
    state = new_hand(rules, deal, first_hand=case["first_hand"])
    for number, step in enumerate(case["steps"][:steps], start=1):
        if "error" in step:
            continue
        action = step["action"]
        try:
            state = apply(state, parse_move(action["move"]), action["seat"])
        except IllegalMove as error:
            msg = f"case {case['id']} step {number} is illegal in the spec: {error}"
            raise ValueError(msg) from None
    return state


def _line_move(text: str) -> bool:
    return text.startswith(("lead ", "place "))


def _same(expected: Mapping[str, JSON], shown: Mapping[str, JSON], levels: Sequence[str]) -> bool:
    """Whether ``shown`` equals ``expected`` in every field the levels check, ``legal`` as a
    set; then :func:`~gaple.conformance.checker.compare.compare_observation` finds no difference
    either. Otherwise it finds the difference (or a mere spelling, ``place 3-0 left``)."""
    line, turns = "line" in levels, "turns" in levels
    fields = (TURNS_FIELDS if turns else ()) + (LINE_FIELDS if line else ())
    for name in fields:  # a loop, not any() over a generator: it runs after every action
        if shown.get(name, _ABSENT) != expected[name]:
            return False
    if line and turns:
        # Most engines list the moves in the spec's order: equal lists are equal sets.
        legal = shown["legal"]
        return legal == expected["legal"] or set(legal) == set(expected["legal"])
    return {m for m in shown["legal"] if _line_move(m) == line} == {
        m for m in expected["legal"] if _line_move(m) == line
    }


_ABSENT = object()


def _observe(
    replies: Iterator[dict[str, JSON]],
    case: Mapping[str, JSON],
    expected: Mapping[str, JSON],
    levels: Sequence[str],
    *,
    step: int,
    action: Mapping[str, JSON] | None,
) -> None:
    shown = next(replies)
    if shown.get("type") != "state":
        msg = f"expected a 'state' reply, got {_show(shown)}"
        raise EngineError(msg)
    if _same(expected, shown, levels):
        return
    spec = _spec_at(case, step)
    difference = compare_observation(expected, shown, spec, levels)
    if difference is not None:
        raise _Failed(difference, step, action, spec)


def _play_case(
    replies: Iterator[dict[str, JSON]],
    info: EngineInfo,
    case: Mapping[str, JSON],
    levels: Sequence[str],
    seen: set[str],
) -> None:
    """Compare every reply of a case with the spec up to the first difference, adding to
    ``seen`` each level a comparison was made at (a result compared only up to the level of
    its first difference)."""
    expected = case["initial"]
    _observe(replies, case, expected, levels, step=0, action=None)
    for number, step in enumerate(case["steps"], start=1):
        action = step["action"]
        reply = next(replies)
        verdict = reply.get("type")
        if verdict not in ("ok", "rejected"):
            msg = f"expected 'ok' or 'rejected' to an act, got {_show(reply)}"
            raise EngineError(msg)
        if "error" in step:
            error = step["error"]
            wanted = f"rejected ({error['code']})"
            if verdict == "ok":
                raise _Failed(
                    Difference("verdict", error["rule"], wanted, "accepted"),
                    number,
                    action,
                    _spec_at(case, number - 1),
                )
            level = error_level(error["code"], action["move"])
            if info.error_codes and level in levels and reply.get("code") != error["code"]:
                difference = Difference("code", error["rule"], error["code"], reply.get("code"))
                raise _Failed(difference, number, action, _spec_at(case, number - 1))
            if "rules" in levels and level in levels:
                seen.add("rules")
                if reply.get("rule") != error["rule"]:
                    difference = Difference("rule", error["rule"], error["rule"], reply.get("rule"))
                    raise _Failed(difference, number, action, _spec_at(case, number - 1))
        else:
            if verdict == "rejected":
                shown = f"rejected ({reply.get('code')}: {reply.get('message', '')})"
                spec = _spec_at(case, number - 1)
                rule = move_rule(spec, parse_move(action["move"]))
                raise _Failed(Difference("verdict", rule, "accepted", shown), number, action, spec)
            expected = step["expect"]
        _observe(replies, case, expected, levels, step=number, action=action)
    result = case.get("result")
    if result is not None and not {"count", "points", "rules"}.isdisjoint(levels):
        claimed = next(replies)
        if claimed.get("type") != "result":
            msg = f"expected a 'result' reply, got {_show(claimed)}"
            raise EngineError(msg)
        reckoned = [level for level in RESULT_LEVELS if level in levels]
        if _same_result(result, claimed, levels):
            seen.update(reckoned)
            return
        spec = _spec_at(case, len(case["steps"]))
        mismatch = compare_result(result, claimed, spec, levels)
        if mismatch is None:
            seen.update(reckoned)
            return
        # compare_result stops at the first difference: the levels after it were not compared.
        seen.update(reckoned[: reckoned.index(result_level(mismatch.field)) + 1])
        raise _Failed(mismatch, len(case["steps"]), None, spec)


def _same_result(
    expected: Mapping[str, JSON], shown: Mapping[str, JSON], levels: Sequence[str]
) -> bool:
    """Whether the result fields the levels check are equal (the rule IDs as sets)."""
    fields = (COUNT_FIELDS if "count" in levels else ()) + (
        POINTS_FIELDS if "points" in levels else ()
    )
    if any(shown.get(name, _ABSENT) != expected[name] for name in fields if name in expected):
        return False
    if "rules" in levels and "rules" in expected:
        rules = shown.get("rules")
        return (
            isinstance(rules, list)
            and all(isinstance(r, str) for r in rules)
            and set(rules) == set(expected["rules"])
        )
    return True


@frozen
class Measured:
    """The scope a run is measured in and its situation cells
    (:mod:`gaple.conformance.vectors.situations`): those its rules reach, those the cases chosen
    for it reach, and those the cases that passed reached."""

    scope: str
    """The scope's label: ``pagat-4x7 (declared)``."""
    reachable: int
    selected: int
    """Reached by the cases chosen for the scope (before ``--case`` and ``-k``)."""
    checked: int = 0
    """Reached by the cases that passed."""

    @property
    def open(self) -> int:
        """The cells of the scope no case chosen for it reaches: the verdict is at best
        PARTIAL while there are any."""
        return self.reachable - self.selected

    def describe(self) -> str:
        """``480 of 480 situation cells of this scope``."""
        said = f"{self.checked} of {self.reachable} situation cells of this scope"
        return said + (f", {self.open} open" if self.open else "")

    def to_json(self) -> dict[str, JSON]:
        return {
            "name": self.scope,
            "cells": {
                "reachable": self.reachable,
                "selected": self.selected,
                "checked": self.checked,
                "open": self.open,
            },
        }


@frozen
class Summary:
    """The outcomes of a run."""

    outcomes: tuple[CaseOutcome, ...]
    seconds: float
    engine: EngineInfo | None
    stopped_early: bool
    interrupted: bool = False
    """Whether the user interrupted the run (Ctrl-C); the outcomes are the cases finished."""
    measured: Measured | None = None
    """The scope the run was measured in, when it had one."""

    def count(self, status: str) -> int:
        """How many cases ended with ``status``."""
        return sum(1 for o in self.outcomes if o.status == status)

    @property
    def ok(self) -> bool:
        """Whether nothing failed or errored."""
        return not any(o.status in ("failed", "errored") for o in self.outcomes)

    @property
    def verdict(self) -> str:
        """``conforms``; ``does not conform`` (a case failed or errored); ``nothing checked``
        (no case was played to the end: every one skipped, or none run), which is no evidence
        of conformance; or ``partial`` (none failed, but the engine declined cases without
        declaring what it plays, the user skipped some by their features, or the cases of the
        run's scope leave some of its situation cells open), evidence for the share checked
        only."""
        if not self.ok:
            return "does not conform"
        if not self.count("passed"):
            return "nothing checked"
        return "partial" if self.partly else "conforms"

    @property
    def partly(self) -> bool:
        """Whether the run checked only part of what it set out to: the engine declined cases
        without declaring what it plays, the user skipped some by their features, or the
        cases of the run's scope leave some of its situation cells open."""
        open_cells = self.measured is not None and self.measured.open > 0
        return bool(self.declined or self.by_request or open_cells)

    @property
    def declined(self) -> int:
        """How many cases an engine that declares no scope declined."""
        return sum(1 for o in self.outcomes if o.declined)

    @property
    def by_request(self) -> int:
        """How many cases the user skipped (``--skip-feature``)."""
        return sum(1 for o in self.outcomes if o.by_request)


def run_suite(
    cases: Sequence[Mapping[str, JSON]],
    make_engine: Callable[[], Engine],
    *,
    levels: Iterable[str] | None = None,
    max_fail: int | None = None,
    on_hello: Callable[[EngineInfo], None] | None = None,
    on_case: Callable[[CaseOutcome], None] | None = None,
    jobs: int = 1,
    requested: Scope | None = None,
    trace: bool = False,
) -> Summary:
    """Run ``cases`` on engines made by ``make_engine`` (a new one after every error).

    ``jobs`` engines play cases side by side, each in a thread of its own (the engines are
    processes, so they run on every core). The outcomes are still reported in the order of
    ``cases``, whatever the order the cases finish in, so the outcomes are the same for any
    number of jobs. ``levels`` limits the checked levels further than the engine's own
    declaration. The run stops after ``max_fail`` failed or errored cases (in the order of
    ``cases``). Cases outside ``requested`` are skipped unsent (``--skip-feature``). With
    ``trace``, each failed or errored case keeps the messages it exchanged.
    """
    began = time.perf_counter()
    wanted = set(LEVELS if levels is None else levels)
    run = _Jobs(cases, make_engine, wanted, requested=requested, trace=trace)
    workers = [
        threading.Thread(target=run.work, name=f"gaple-job-{n}", daemon=True)
        for n in range(max(1, min(jobs, len(cases))))
    ]
    info: EngineInfo | None = None
    outcomes: list[CaseOutcome] = []
    finished: dict[int, CaseOutcome] = {}
    bad = 0
    stopped = False
    interrupted = False
    running = len(workers)
    try:
        for worker in workers:
            worker.start()
        while running:
            index, item = run.done.get()
            if isinstance(item, BaseException):
                raise item
            if item is None:
                running -= 1
            elif isinstance(item, EngineInfo):
                if info is None and on_hello is not None:
                    on_hello(item)
                info = info or item
            else:
                finished[index] = item
            while len(outcomes) in finished and not stopped:
                if max_fail is not None and bad >= max_fail:
                    stopped = True
                    run.stop.set()
                    break
                outcome = finished.pop(len(outcomes))
                bad += outcome.status in ("failed", "errored")
                outcomes.append(outcome)
                if on_case is not None:
                    on_case(outcome)
    except KeyboardInterrupt:
        interrupted = True
        # The cases finished so far are kept, in order; those still running are abandoned.
        for index in sorted(finished):
            outcomes.append(finished[index])
            if on_case is not None:
                on_case(finished[index])
    finally:
        run.stop.set()
        run.abort()
        for worker in workers:
            if worker.ident is not None:  # a signal can land before a thread was started
                worker.join()
    return Summary(tuple(outcomes), time.perf_counter() - began, info, stopped, interrupted)


class _Jobs:
    """The state the threads of a run share: which case comes next, and the engines."""

    def __init__(
        self,
        cases: Sequence[Mapping[str, JSON]],
        make_engine: Callable[[], Engine],
        wanted: set[str],
        *,
        requested: Scope | None,
        trace: bool,
    ) -> None:
        self.cases = cases
        self.make_engine = make_engine
        self.wanted = wanted
        self.requested = requested
        self.trace = trace
        self.stop = threading.Event()
        self.done: queue.SimpleQueue[tuple[int, CaseOutcome | EngineInfo | BaseException | None]]
        self.done = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._next = 0
        self._engines: set[Engine] = set()

    def _claim(self) -> int | None:
        with self._lock:
            if self.stop.is_set() or self._next >= len(self.cases):
                return None
            self._next += 1
            return self._next - 1

    def _start(self) -> tuple[Engine, EngineInfo] | None:
        engine = self.make_engine()
        with self._lock:
            self._engines.add(engine)
            # Checked under the lock: abort() either saw this engine or the stop.
            stopping = self.stop.is_set()
        if stopping:
            self._end(engine)
            return None
        return engine, hello(engine)

    def _end(self, engine: Engine) -> None:
        with self._lock:
            self._engines.discard(engine)
        engine.close()

    def abort(self) -> None:
        """End every engine at once (after the stop is set): a thread waiting on one gets an
        error straight away instead of at its timeout."""
        with self._lock:
            engines = list(self._engines)
        for engine in engines:
            kill = getattr(engine, "kill", None)
            if kill is not None:
                kill()

    def work(self) -> None:
        """Play cases until none is left or the run stops; one engine, restarted after an
        error. Everything goes back to the main thread through :attr:`done`."""
        current: tuple[Engine, EngineInfo] | None = None
        try:
            while (index := self._claim()) is not None:
                case = self.cases[index]
                began = time.perf_counter()
                trace = _Trace() if self.trace else None
                try:
                    if current is None:
                        current = self._start()
                        if current is None:
                            break
                        self.done.put((-1, current[1]))
                    engine, info = current
                    checked = [level for level in info.levels if level in self.wanted]
                    played = engine if trace is None else _Recorded(engine, trace)
                    outcome = run_case(played, info, case, checked, requested=self.requested)
                except EngineError as error:
                    if current is not None:
                        self._end(current[0])
                    current = None
                    outcome = CaseOutcome(
                        case=case["id"],
                        topic=case["topic"],
                        status="errored",
                        seconds=time.perf_counter() - began,
                        message=str(error),
                        rule_ids=tuple(case["rule_ids"]),
                    )
                if trace is not None and outcome.status in ("failed", "errored"):
                    outcome = attrs.evolve(outcome, trace=trace.exchanges())
                self.done.put((index, outcome))
        except BaseException as error:  # the main thread raises it
            if not self.stop.is_set():
                self.done.put((-1, error))
        finally:
            if current is not None:
                self._end(current[0])
            self.done.put((-1, None))
