"""Expectations files: the known divergences of an engine, as test262's runners keep them.

An expectations file (``spec/schema/expectations.schema.json``) lists, per case ID, how the
case is expected to end when it does not pass (``failed``, ``errored``, or ``unsupported``,
declined by an engine that declares no scope) and why. A run given one (``--expectations``)
does not fail for a case that ends as listed; it fails for a **new failure** (a case that
fails or errors and is not listed, or ends otherwise than listed) and for an **unexpected
pass** (a listed case that now passes: the file is out of date). A case the run did not play
(skipped, or not selected) is not judged.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from attrs import frozen

from gaple.conformance.runner.run import CaseOutcome
from gaple.conformance.runner.selection import closest
from gaple.conformance.vectors.cases import EXPECTATIONS_FORMAT, EXPECTATIONS_VERSION, EXPECTED
from gaple.conformance.wire import bounded
from gaple.conformance.wire.escape import json_escaped, printable
from gaple.io import is_exactly

__all__ = [
    "BadExpectations",
    "Expectation",
    "Judgement",
    "ended",
    "entries_sha256",
    "expectations_document",
    "expectations_text",
    "judge",
    "read_expectations",
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
    sha256: str
    """The digest of the entries held against (:func:`entries_sha256`): the shards of one run
    were held against the same file when their digests are equal, whatever its name."""

    @property
    def ok(self) -> bool:
        """Whether the run ended as the file says: no new failure, no unexpected pass."""
        return not self.new and not self.unexpected


def ended(outcome: CaseOutcome) -> str | None:
    """How a case ended, as an expectations file names it: ``passed``, ``failed``,
    ``errored`` or ``unsupported`` (declined by an engine that declares no scope); ``None``
    for a case skipped otherwise (never played, so not judged)."""
    if outcome.status == "skipped":
        return "unsupported" if outcome.declined else None
    return outcome.status


def judge(expected: Mapping[str, Expectation], outcomes: Iterable[CaseOutcome]) -> Judgement:
    """Hold ``outcomes`` against ``expected`` (see the module's docstring)."""
    held: list[str] = []
    new: list[tuple[CaseOutcome, Expectation | None]] = []
    unexpected: list[tuple[CaseOutcome, Expectation]] = []
    for outcome in outcomes:
        status, entry = ended(outcome), expected.get(outcome.case)
        if entry is not None and status == entry.status:
            held.append(outcome.case)
        elif entry is not None and status == "passed":
            unexpected.append((outcome, entry))
        elif status in ("failed", "errored") or (entry is not None and status is not None):
            new.append((outcome, entry))
    return Judgement(tuple(held), tuple(new), tuple(unexpected), entries_sha256(expected))


def entries_sha256(entries: Mapping[str, Expectation]) -> str:
    """The SHA-256 of an expectations file's entries, as JSON in ID order: the same for two
    files that list the same, however each is laid out or named."""
    listed = {case: [entry.status, entry.reason] for case, entry in sorted(entries.items())}
    return hashlib.sha256(json.dumps(listed).encode("ascii")).hexdigest()


def read_expectations(path: Path, known: Iterable[str]) -> dict[str, Expectation]:
    """The entries of the expectations file at ``path``, whose case IDs must be ``known``.

    Raises:
        BadExpectations: the file cannot be read, is not JSON within the reader's limits, is
            not an expectations file of this version, or lists an unknown case ID.
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
    return _entries(document, str(path), frozenset(known))


def _entries(document: JSON, name: str, known: frozenset[str]) -> dict[str, Expectation]:
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
    return {case: _entry(name, case, entry, known) for case, entry in cases.items()}


def _entry(name: str, case: str, entry: JSON, known: frozenset[str]) -> Expectation:
    where = f"{name}: $.cases[{printable(json.dumps(case), limit=80)}]"
    if case not in known:
        near = closest(case, known)
        hint = f" (closest: {', '.join(near)})" if near else ""
        msg = f"{where}: no case has this ID{hint}"
        raise BadExpectations(msg)
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
    outcomes: Sequence[CaseOutcome], previous: Mapping[str, Expectation] | None = None
) -> dict[str, JSON]:
    """The expectations file of a run, as JSON: every case that did not pass and was played
    (see :func:`ended`), in ID order, with its outcome as the reason, or the ``previous``
    file's reason when that entry expected the same."""
    cases: dict[str, JSON] = {}
    for outcome in sorted(outcomes, key=lambda o: o.case):
        status = ended(outcome)
        if status is None or status == "passed":
            continue
        before = None if previous is None else previous.get(outcome.case)
        if before is not None and before.status == status:
            reason = before.reason
        else:
            reason = printable(outcome.detail(), limit=_REASON_SHOWN)
        cases[outcome.case] = {"status": status, "reason": reason}
    return {"format": EXPECTATIONS_FORMAT, "version": EXPECTATIONS_VERSION, "cases": cases}


def expectations_text(document: Mapping[str, JSON]) -> str:
    """An expectations document as the file's text: indented, readable non-ASCII text kept,
    and every hidden character escaped (a reason kept from the file read may hold a lone
    surrogate, which no UTF-8 encoder writes, or a control), so it reads back the same."""
    return json_escaped(json.dumps(document, indent=2, ensure_ascii=False)) + "\n"
