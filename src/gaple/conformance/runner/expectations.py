"""Expectations files: the known divergences of an engine, as test262's runners keep them.

An expectations file (``spec/schema/expectations.schema.json``) lists, per case ID, how the
case is expected to end when it does not pass (``failed`` or ``errored``; ``unsupported``,
declined by an engine that declares no scope, is no longer written, and its entry is stale)
and why. A run given one (``--expectations``)
does not fail for a case that ends as listed; it fails for a **new failure** (a case that
fails or errors and is not listed, or ends otherwise than listed) and ends ``expectations
outdated`` for an **unexpected pass** (a listed case that now passes). A case the run did not
play is not judged: an entry for a case not selected (``--case``, ``-k``, another shard,
``--skip-feature``) is kept as it is, while a **stale** entry (an ID no case has, a case
outside the run's scope, or one the engine declined) is named, never counted as known.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Collection, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from attrs import frozen

from gaple.conformance.runner.run import CaseOutcome, Summary
from gaple.conformance.runner.selection import closest
from gaple.conformance.runner.summary import held_verdict
from gaple.conformance.vectors.cases import EXPECTATIONS_FORMAT, EXPECTATIONS_VERSION, EXPECTED
from gaple.conformance.wire import bounded
from gaple.conformance.wire.escape import json_escaped, printable
from gaple.io import is_exactly

__all__ = [
    "BadExpectations",
    "Expectation",
    "Judgement",
    "entries_sha256",
    "expectations_document",
    "expectations_text",
    "judge",
    "read_expectations",
    "verdict",
]

JSON = Any

_REASON_SHOWN = 200
"""Characters of a case's outcome kept as the reason of a written entry."""


class BadExpectations(ValueError):
    """An expectations file that cannot be used: the message names the file and the place."""


@frozen
class Expectation:
    """How a listed case is expected to end, and why."""

    status: str
    reason: str


@frozen
class Judgement:
    """A run's outcomes held against an expectations file."""

    held: tuple[str, ...]
    """The listed cases that ended as listed (the known divergences)."""
    new: tuple[tuple[CaseOutcome, Expectation | None], ...]
    """The cases that failed or errored otherwise than listed, each with its entry if any."""
    unexpected: tuple[tuple[CaseOutcome, Expectation], ...]
    """The listed cases that passed, each with its entry."""
    stale: tuple[tuple[str, str], ...]
    """The entries the run cannot judge, each ID with why: no case has the ID, the case lies
    outside the run's scope, or the engine declined it or declares a scope without it."""
    unrun: tuple[str, ...]
    """The listed cases the run did not play by the user's choice (not selected by ``--case``
    or ``-k``, in another shard, skipped by ``--skip-feature`` or ``--level``): not judged,
    and kept when the file is written anew."""
    sha256: str
    """The digest of the entries held against (:func:`entries_sha256`): the shards of one run
    were held against the same file when their digests are equal, whatever its name."""

    @property
    def ok(self) -> bool:
        """Whether the run ended as the file says: no new failure, no unexpected pass."""
        return not self.new and not self.unexpected


def judge(
    expected: Mapping[str, Expectation],
    outcomes: Iterable[CaseOutcome],
    *,
    known: Collection[str],
    outside: Mapping[str, str] | None = None,
) -> Judgement:
    """Hold ``outcomes`` against ``expected`` (see the module's docstring): ``known`` holds
    every case ID of the vector set, ``outside`` the cases selected by name that lie outside
    the run's scope, each with why."""
    held: list[str] = []
    new: list[tuple[CaseOutcome, Expectation | None]] = []
    unexpected: list[tuple[CaseOutcome, Expectation]] = []
    stale: dict[str, str] = {}
    played: set[str] = set()
    for outcome in outcomes:
        played.add(outcome.case)
        status, entry = outcome.status, expected.get(outcome.case)
        if outcome.declined or outcome.undeclared:
            # The engine's own scope leaves the case out: it never plays it, so never fails it.
            if entry is not None:
                stale[outcome.case] = f"not played: {outcome.message}"
        elif outcome.status == "skipped":
            # Left out by the user's choice (--skip-feature, --level): the entry still holds.
            played.discard(outcome.case)
        elif entry is not None and status == entry.status:
            held.append(outcome.case)
        elif entry is not None and status == "passed":
            unexpected.append((outcome, entry))
        elif status in ("failed", "errored"):
            new.append((outcome, entry))
    outside = outside or {}
    for case in sorted(set(expected).difference(played)):
        if case not in known:
            near = closest(case, known)
            stale[case] = "no case has this ID" + (f" (closest: {', '.join(near)})" if near else "")
        elif case in outside:
            stale[case] = outside[case]
    unrun = sorted(set(expected).difference(played, stale))
    return Judgement(
        tuple(held),
        tuple(new),
        tuple(unexpected),
        tuple(sorted(stale.items())),
        tuple(unrun),
        entries_sha256(expected),
    )


def verdict(summary: Summary, judgement: Judgement | None) -> str:
    """The one verdict of a run: :attr:`Summary.verdict`, or held against an expectations
    file (``judgement``), :func:`~gaple.conformance.runner.summary.held_verdict`'s."""
    if judgement is None:
        return summary.verdict
    return held_verdict(
        new=bool(judgement.new),
        unexpected=bool(judgement.unexpected),
        checked=bool(summary.count("passed") or judgement.held),
        partly=summary.partly,
    )


def entries_sha256(entries: Mapping[str, Expectation]) -> str:
    """The SHA-256 of an expectations file's entries, as JSON in ID order: the same for two
    files that list the same, however each is laid out or named."""
    listed = {case: [entry.status, entry.reason] for case, entry in sorted(entries.items())}
    return hashlib.sha256(json.dumps(listed).encode("ascii")).hexdigest()


def read_expectations(path: Path) -> dict[str, Expectation]:
    """The entries of the expectations file at ``path`` (an ID no case has is stale, for
    :func:`judge` to name, not an error: the file may be older than the vector set).

    Raises:
        BadExpectations: the file cannot be read, is not JSON within the reader's limits, or
            is not an expectations file of this version.
    """
    try:
        with bounded.open_regular(path) as stream:
            document = bounded.read(stream)
    except OSError as error:
        msg = f"{path}: cannot read: {error.strerror}"
        raise BadExpectations(msg) from None
    except bounded.Refused as error:
        msg = f"{path}: {error}"
        raise BadExpectations(msg) from None
    return _entries(document, str(path))


def _entries(document: JSON, name: str) -> dict[str, Expectation]:
    if not isinstance(document, dict):
        msg = f"{name}: $: an expectations file is a JSON object"
        raise BadExpectations(msg)
    if document.get("format") != EXPECTATIONS_FORMAT:
        msg = f"{name}: $.format: not {EXPECTATIONS_FORMAT!r}; not an expectations file"
        raise BadExpectations(msg)
    if not is_exactly(document.get("version"), EXPECTATIONS_VERSION):
        shown = printable(json.dumps(document.get("version")), limit=40)
        msg = f"{name}: $.version: {shown}; this gaple reads version {EXPECTATIONS_VERSION}"
        raise BadExpectations(msg)
    extra = sorted(set(document).difference({"format", "version", "cases"}))
    if extra:
        msg = f"{name}: $.{printable(extra[0], limit=40)}: unknown field"
        raise BadExpectations(msg)
    cases = document.get("cases")
    if not isinstance(cases, dict):
        msg = f"{name}: $.cases: an object of case IDs is needed"
        raise BadExpectations(msg)
    return {case: _entry(name, case, entry) for case, entry in cases.items()}


def _entry(name: str, case: str, entry: JSON) -> Expectation:
    where = f"{name}: $.cases[{printable(json.dumps(case), limit=80)}]"
    if not isinstance(entry, dict) or set(entry) != {"status", "reason"}:
        msg = f"{where}: an object with 'status' and 'reason' (and nothing else) is needed"
        raise BadExpectations(msg)
    status, reason = entry["status"], entry["reason"]
    if status not in EXPECTED:
        shown = printable(json.dumps(status), limit=40)
        msg = f"{where}.status: {shown} is not one of {', '.join(EXPECTED)}"
        raise BadExpectations(msg)
    if not isinstance(reason, str):
        msg = f"{where}.reason: text is needed"
        raise BadExpectations(msg)
    return Expectation(status, reason)


def expectations_document(
    outcomes: Sequence[CaseOutcome],
    previous: Mapping[str, Expectation] | None = None,
    kept: Iterable[str] = (),
) -> dict[str, JSON]:
    """The expectations file of a run, as JSON: every case that failed or errored, with its
    outcome as the reason, or the ``previous`` file's reason when that entry expected the
    same; and the ``previous`` entries of the ``kept`` cases (those the run did not select,
    :attr:`Judgement.unrun`) as they were; in ID order. A case the run did not play (declined,
    skipped) is left out: the file lists failures in the engine's scope only."""
    cases: dict[str, JSON] = {}
    before = previous or {}
    for case in kept:
        cases[case] = {"status": before[case].status, "reason": before[case].reason}
    for outcome in outcomes:
        status = outcome.status
        if status not in ("failed", "errored"):
            continue
        entry = before.get(outcome.case)
        if entry is not None and entry.status == status:
            reason = entry.reason
        else:
            reason = printable(outcome.detail(), limit=_REASON_SHOWN)
        cases[outcome.case] = {"status": status, "reason": reason}
    return {
        "format": EXPECTATIONS_FORMAT,
        "version": EXPECTATIONS_VERSION,
        "cases": dict(sorted(cases.items())),
    }


def expectations_text(document: Mapping[str, JSON]) -> str:
    """An expectations document as the file's text: indented, readable non-ASCII text kept,
    and every hidden character escaped (a reason kept from the file read may hold a lone
    surrogate, which no UTF-8 encoder writes, or a control), so it reads back the same."""
    return json_escaped(json.dumps(document, indent=2, ensure_ascii=False)) + "\n"
