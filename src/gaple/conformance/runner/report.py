"""Reports of a conformance run: live progress, the summary table, JSON lines, JUnit XML."""

from __future__ import annotations

import json
import time
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

from gaple import __version__
from gaple.conformance.runner.expectations import Judgement, verdict
from gaple.conformance.runner.run import CaseOutcome, EngineInfo, Summary
from gaple.conformance.runner.summary import counted, docs_link, judged_counts
from gaple.conformance.vectors.cases import LEVELS, STATUSES
from gaple.conformance.wire.escape import printable

__all__ = ["JsonLinesReport", "Progress", "judgement_text", "junit_xml", "summary_text"]

_SHOWN = 1000
"""Characters of one outcome shown on the terminal and in JUnit (a reply can be a megabyte)."""


class Progress:
    """Progress on standard error: a bar on a terminal, otherwise a line every few seconds."""

    def __init__(self, stream: IO[str], total: int, *, interval: float = 5.0) -> None:
        self.stream = stream
        self.total = total
        self.done = 0
        self.counts: Counter[str] = Counter()
        self.tty = stream.isatty()
        self.interval = interval
        self._last = time.monotonic()

    def update(self, outcome: CaseOutcome) -> None:
        """Record one finished case and show progress if it is time to."""
        self.done += 1
        self.counts[outcome.status] += 1
        now = time.monotonic()
        if self.tty:
            width = 30
            filled = width * self.done // max(self.total, 1)
            bar = "#" * filled + "-" * (width - filled)
            self.stream.write(f"\r[{bar}] {self.done}/{self.total} {self._tally()}")
            self.stream.flush()
        elif now - self._last >= self.interval or self.done == self.total:
            self._last = now
            self.stream.write(f"conformance: {self.done}/{self.total} cases, {self._tally()}\n")
            self.stream.flush()

    def finish(self) -> None:
        """End the bar's line."""
        if self.tty and self.done:
            self.stream.write("\n")
            self.stream.flush()

    def _tally(self) -> str:
        return ", ".join(f"{self.counts[s]} {s}" for s in STATUSES if self.counts[s])


class JsonLinesReport:
    """The JSON-lines report, written and flushed as each case finishes.

    Records: one ``header`` (engine, command, gaple's version and vector set, the selection
    of cases, start time), one ``case`` per case, one ``footer`` (counts and time). A run that
    is interrupted keeps every finished case. ``vectors`` names the set the cases were
    selected from (:func:`~gaple.conformance.vectors.committed.vector_set_of`); ``selection`` is the
    number and hash
    (:func:`~gaple.conformance.vectors.committed.cases_sha256`) of the cases selected, before any
    sharding, so the shards of one run share it; ``shard`` is ``(index, count)``, 1-based.

    A write that fails (a full disk) is kept in ``failed`` and ends the writing, not the run:
    the run still finishes and writes its JUnit file, then says that the report is incomplete.
    """

    def __init__(
        self,
        stream: IO[str],
        *,
        impl: str,
        total: int,
        levels: Sequence[str],
        vectors: str | None = None,
        selection: tuple[int, str] | None = None,
        shard: tuple[int, int] | None = None,
    ) -> None:
        self.stream = stream
        self.impl = impl
        self.total = total
        self.levels = list(levels)
        self.vectors = vectors
        self.selection = selection
        self.shard = shard
        self._header = False
        self.failed: OSError | None = None
        """The first write that failed, after which nothing more is written."""

    def _write(self, record: dict[str, Any]) -> None:
        if self.failed is not None:
            return
        try:
            # ASCII only: text from the engine may hold lone surrogates, which no UTF-8
            # encoder writes; escaped, they stay valid JSON.
            self.stream.write(json.dumps(record) + "\n")
            self.stream.flush()
        except OSError as error:
            self.failed = error

    def close(self) -> None:
        """Close the stream; what a failed write left in its buffer is dropped (closing would
        only fail to write it again)."""
        try:
            self.stream.close()
        except OSError as error:
            self.failed = self.failed or error

    def header(self, engine: EngineInfo | None) -> None:
        """Write the header once (at the engine's hello, or before the first case)."""
        if self._header:
            return
        self._header = True
        record: dict[str, Any] = {
            "type": "header",
            "protocol": 1,
            "gaple": __version__,
            "vectors": self.vectors,
            "impl": self.impl,
            "engine": None if engine is None else _engine_json(engine),
            "cases": self.total,
            "selection": None
            if self.selection is None
            else {"cases": self.selection[0], "sha256": self.selection[1]},
            "levels": self.levels,
            "started": datetime.now(UTC).isoformat(timespec="seconds"),
        }
        if self.shard is not None:
            record["shard"] = {"index": self.shard[0], "count": self.shard[1]}
        self._write(record)

    def case(self, outcome: CaseOutcome) -> None:
        """Write one case record."""
        self.header(None)
        self._write(outcome.to_json())

    def footer(self, summary: Summary, held: tuple[Path, Judgement] | None = None) -> None:
        """Write the footer; with ``held`` (an expectations file and the run's judgement
        against it, ``--expectations``), which cases it holds as known, new or passing."""
        self.header(summary.engine)
        footer: dict[str, Any] = {
            "type": "footer",
            "counts": {s: summary.count(s) for s in STATUSES},
            "seconds": round(summary.seconds, 3),
            "stopped_early": summary.stopped_early,
            "interrupted": summary.interrupted,
            "verdict": verdict(summary, None if held is None else held[1]),
        }
        if summary.measured is not None:
            footer["scope"] = summary.measured.to_json()
        if held is not None:
            path, judgement = held
            footer["expectations"] = {
                "file": str(path),
                "sha256": judgement.sha256,
                "held": list(judgement.held),
                "new": [outcome.case for outcome, _ in judgement.new],
                "unexpected": [outcome.case for outcome, _ in judgement.unexpected],
            }
        self._write(footer)


def _engine_json(engine: EngineInfo) -> dict[str, Any]:
    return {
        "name": engine.name,
        "version": engine.version,
        "levels": list(engine.levels),
        "error_codes": engine.error_codes,
    }


_SKIP_REASONS = 5
"""The skip reasons the text names, most frequent first; the rest are counted."""
_OTHER_IDS = 10
"""The IDs named of the other cases that failed as a shown one did (or, held against an
expectations file, of the new failures and unexpected passes past those shown); the rest are
counted."""


def _alike(bad: list[CaseOutcome]) -> list[tuple[CaseOutcome, list[CaseOutcome]]]:
    """The failed and errored cases grouped by how they went wrong (a failure by the rule
    broken and the field that differs, an error by its message), in the order each kind first
    occurs: a broken rule fails many cases the same way, and one example of each kind reads
    better than a screen of near-copies."""
    groups: dict[tuple[str, str | None, str | None, str], list[CaseOutcome]] = {}
    for outcome in bad:
        field = None if outcome.difference is None else outcome.difference.field
        error = outcome.message if outcome.status == "errored" else ""
        groups.setdefault((outcome.status, outcome.rule, field, error), []).append(outcome)
    return [(first, others) for first, *others in groups.values()]


def summary_text(
    summary: Summary,
    *,
    shown: int = 20,
    docs: str | None = None,
    held: tuple[Path, Judgement] | None = None,
) -> str:
    """The table of outcomes per topic, cases per level, the first failures, each with the
    address of its rule in the docs (under ``docs``, else relative to the docs root), and the
    run's one verdict, last: held against an expectations file (``held``: its path and the
    run's judgement against it), the judgement's
    (:func:`~gaple.conformance.runner.expectations.verdict`)."""
    topics = sorted({o.topic.split("/")[0] for o in summary.outcomes})
    rows = [f"{'topic':<10} " + " ".join(f"{s:>8}" for s in STATUSES)]
    for topic in topics:
        mine = [o for o in summary.outcomes if o.topic.split("/")[0] == topic]
        rows.append(
            f"{topic:<10} " + " ".join(f"{sum(o.status == s for o in mine):>8}" for s in STATUSES)
        )
    rows.append(f"{'total':<10} " + " ".join(f"{summary.count(s):>8}" for s in STATUSES))
    per_level = ", ".join(
        f"{level} {sum(level in o.levels for o in summary.outcomes)}" for level in LEVELS
    )
    rows.append(f"cases checked per level: {per_level}")
    engine = summary.engine
    if engine is not None:
        rows.insert(
            0,
            f"engine {printable(engine.name, limit=_SHOWN)} "
            f"{printable(engine.version, limit=_SHOWN)} "
            f"(levels {', '.join(engine.levels) or 'none'}; "
            f"error codes {'yes' if engine.error_codes else 'no'})",
        )
    groups = _alike([o for o in summary.outcomes if o.status in ("failed", "errored")])
    for outcome, others in groups[:shown]:
        rows.append(f"{outcome.status.upper()} {printable(outcome.describe(), limit=_SHOWN)}")
        link = None if outcome.rule is None else docs_link(outcome.rule, docs)
        if link is not None:
            rows.append(f"  docs of {outcome.rule}: {link}")
        if outcome.trace is not None:
            rows.append(f"  trace ({len(outcome.trace)} messages; > sent, < received):")
            rows.extend(f"    {exchange.describe()}" for exchange in outcome.trace)
        if others:
            ids = [printable(other.case, limit=_SHOWN) for other in others[:_OTHER_IDS]]
            more = len(others) - len(ids)
            rows.append(
                f"  {outcome.status} alike in {counted(len(others), 'more case')}: "
                f"{', '.join(ids)}{f' and {more} more (see --report)' if more else ''}"
            )
    if len(groups) > shown:
        hidden = sum(1 + len(others) for _, others in groups[shown:])
        rows.append(
            f"... and {counted(len(groups) - shown, 'more kind')} of failure "
            f"({counted(hidden, 'case')}; see --report)"
        )
    skipped = Counter(o.message for o in summary.outcomes if o.status == "skipped").most_common()
    rows.extend(
        f"skipped {n}: {printable(reason, limit=_SHOWN)}" for reason, n in skipped[:_SKIP_REASONS]
    )
    if len(skipped) > _SKIP_REASONS:
        # Said, so that a reader does not take the reasons shown for every reason there was.
        rest = skipped[_SKIP_REASONS:]
        rows.append(
            f"... and {counted(len(rest), 'more skip reason')} "
            f"({counted(sum(n for _, n in rest), 'case')}; see --report)"
        )
    if summary.stopped_early:
        rows.append("stopped early (--max-fail reached)")
    if summary.interrupted:
        rows.append("interrupted: the counts cover the cases finished")
    rows.extend(_verdict_rows(summary, held))
    return "\n".join(rows)


def _verdict_rows(summary: Summary, held: tuple[Path, Judgement] | None) -> list[str]:
    """The run's end: held against an expectations file, the counts and the judgement; why a
    partial run is partial; then the one verdict, last."""
    measured = summary.measured
    within = "" if measured is None else f" within {measured.scope}"
    cells = "" if measured is None else f", {measured.describe()},"
    cases, took = counted(len(summary.outcomes), "case"), f"{cells} in {summary.seconds:.2f} s"
    judgement = None if held is None else held[1]
    said = verdict(summary, judgement)
    rows = []
    if held is not None:
        # The counts without a verdict: the run's one verdict is the judgement's, below.
        rows.append(f"ran {cases}{within}{took}")
        rows.append(judgement_text(held[1], held[0]))
    if said == "partial":
        rows.append(_partly(summary, judgement))
    if held is None:
        rows.append(f"{said.upper()}{within}: {cases}{took}")
    else:
        rows.append(_held_verdict(said, summary, *held))
    return rows


def _partly(summary: Summary, judgement: Judgement | None) -> str:
    """Why a run is partial, with the share it checked (passed, or ended as listed)."""
    why = []
    if summary.declined:
        why.append(
            f"{summary.declined} declined by an engine that declares no scope ('plays' in "
            "its hello); declare what it plays, or choose the cases (--variant)"
        )
    if summary.by_request:
        why.append(f"{summary.by_request} skipped on request (--skip-feature)")
    measured = summary.measured
    if measured is not None and measured.open:
        why.append(
            f"{measured.open} situation cells of the scope reached by no case "
            "(gaple vectors coverage names them)"
        )
    checked = summary.count("passed") + (0 if judgement is None else len(judgement.held))
    return f"only {checked} of {len(summary.outcomes)} cases checked: " + "; ".join(why)


def _held_verdict(said: str, summary: Summary, path: Path, judgement: Judgement) -> str:
    """The verdict of a run held against the expectations file at ``path``, in one line."""
    name = printable(str(path), limit=200)
    known = f"{counted(len(judgement.held), 'known failure')} as listed"
    if said == "new failures":
        passing = len(judgement.unexpected)
        also = f"; {counted(passing, 'listed case')} now pass{'es' * (passing == 1)}"
        return (
            f"NEW FAILURES: {counted(len(judgement.new), 'case')} failed or errored otherwise "
            f"than {name} lists ({known}{also if passing else ''})"
        )
    if said == "expectations outdated":
        passing = len(judgement.unexpected)
        return (
            f"EXPECTATIONS OUTDATED: {counted(passing, 'case')} listed in {name} now "
            f"pass{'es' * (passing == 1)}; take {'it' if passing == 1 else 'them'} out, or "
            f"write the file anew: this run with --write-expectations {name}"
        )
    if said == "nothing checked":
        return (
            f"NOTHING CHECKED: of {counted(len(summary.outcomes), 'case')}, none passed or "
            f"ended as listed in {name}"
        )
    if said == "partial":
        return f"PARTIAL: {known} in {name}, no new failure, but not every case checked"
    return f"AS EXPECTED: {known} in {name}, no new failure"


def judgement_text(judgement: Judgement, path: Path) -> str:
    """The lines that hold a run against its expectations file: the count of each kind, the
    stale entries, then every new failure and every unexpected pass by name (the verdict is
    :func:`summary_text`'s last line)."""
    held, new, unexpected = judgement.held, judgement.new, judgement.unexpected
    name = printable(str(path), limit=200)
    rows = [judged_counts(name, len(held), len(new), len(unexpected))]
    if judgement.stale:
        rows.append(
            f"warning: {counted(len(judgement.stale), 'entry', 'entries')} of {name} "
            "cannot be judged in this run (not counted; write the file anew to drop them):"
        )
        rows.extend(
            f"  {printable(case, limit=200)}: {printable(why, limit=_SHOWN)}"
            for case, why in judgement.stale
        )
    new_rows = []
    for outcome, new_entry in judgement.new:
        listed = "not listed" if new_entry is None else f"listed as {new_entry.status}"
        said = printable(outcome.detail(), limit=_SHOWN)
        new_rows.append(
            (outcome.case, f"NEW FAILURE {outcome.case} ({outcome.status}, {listed}): {said}")
        )
    rows += _named(new_rows, "new failure")
    passed_rows = [
        (
            outcome.case,
            f"UNEXPECTED PASS {outcome.case} (listed as {entry.status}: "
            f"{printable(entry.reason, limit=_SHOWN)})",
        )
        for outcome, entry in judgement.unexpected
    ]
    rows += _named(passed_rows, "unexpected pass", "unexpected passes")
    return "\n".join(rows)


_NAMED = 5
"""How many new failures, and how many unexpected passes, are shown a line each; the rest
are named by ID on one line (the report holds each)."""


def _named(rows: list[tuple[str, str]], kind: str, kinds: str | None = None) -> list[str]:
    """The first :data:`_NAMED` of ``rows`` (case ID, its line) in full, then the other IDs on
    one line: a fix that turns dozens of listed cases into passes reads as one finding."""
    shown = [line for _, line in rows[:_NAMED]]
    rest = [printable(case, limit=200) for case, _ in rows[_NAMED:]]
    if rest:
        more = f" and {len(rest) - _OTHER_IDS} more" if len(rest) > _OTHER_IDS else ""
        shown.append(
            f"... and {len(rest)} more {kind if len(rest) == 1 else kinds or kind + 's'}: "
            f"{', '.join(rest[:_OTHER_IDS])}{more} "
            "(see --report)"
        )
    return shown


def junit_xml(
    summary: Summary,
    *,
    name: str,
    docs: str | None = None,
    held: tuple[Path, Judgement] | None = None,
) -> str:
    """The run as JUnit XML: one test case per case, grouped by topic; a failure's text ends
    with the address of its rule in the docs (under ``docs``, else relative to the docs root).
    Held against an expectations file (``held``: its path and the run's judgement), a case
    that ended as listed is a known divergence, written as skipped with what it did, so that
    a CI's test view agrees with a run that passes against its expectations; the property
    ``gaple.verdict`` is then the judgement's verdict.

    Text from the engine is escaped (:func:`~gaple.conformance.wire.escape.printable`), so the file
    stays well-formed XML 1.0 whatever the engine wrote.
    """
    suites = ET.Element("testsuites", name=printable(name), time=f"{summary.seconds:.3f}")
    known = {} if held is None else dict.fromkeys(held[1].held, str(held[0]))
    said = verdict(summary, None if held is None else held[1])
    by_topic: dict[str, list[CaseOutcome]] = {}
    for outcome in summary.outcomes:
        by_topic.setdefault(outcome.topic, []).append(outcome)
    for topic, outcomes in by_topic.items():
        shown = [("skipped" if o.case in known else o.status) for o in outcomes]
        suite = ET.SubElement(
            suites,
            "testsuite",
            name=topic,
            tests=str(len(outcomes)),
            failures=str(shown.count("failed")),
            errors=str(shown.count("errored")),
            skipped=str(shown.count("skipped")),
            time=f"{sum(o.seconds for o in outcomes):.3f}",
        )
        if summary.measured is not None:
            properties = ET.SubElement(suite, "properties")
            for key, value in (
                ("gaple.scope", summary.measured.scope),
                ("gaple.cells", summary.measured.describe()),
                ("gaple.verdict", said),
            ):
                ET.SubElement(properties, "property", name=key, value=printable(value))
        for outcome in outcomes:
            element = ET.SubElement(
                suite,
                "testcase",
                classname=f"gaple.{topic.replace('/', '.')}",
                name=outcome.case,
                time=f"{outcome.seconds:.4f}",
            )
            said = printable(outcome.describe(), limit=_SHOWN)
            if outcome.case in known:
                listed = f"known divergence, listed in {known[outcome.case]}: {said}"
                ET.SubElement(element, "skipped", message=printable(listed, limit=_SHOWN))
            elif outcome.status == "failed":
                failure = ET.SubElement(element, "failure", message=said, type=outcome.rule or "")
                link = None if outcome.rule is None else docs_link(outcome.rule, docs)
                failure.text = said if link is None else f"{said}\ndocs of {outcome.rule}: {link}"
            elif outcome.status == "errored":
                ET.SubElement(element, "error", message=printable(outcome.message, limit=_SHOWN))
            elif outcome.status == "skipped":
                ET.SubElement(element, "skipped", message=printable(outcome.message, limit=_SHOWN))
    ET.indent(suites)
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(suites, encoding="unicode") + "\n"
    )
