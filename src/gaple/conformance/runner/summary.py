"""Saved conformance reports, read back: several engines side by side, shards merged, HTML.

A report is the JSON-lines file of ``gaple conformance run --report`` (``spec/PROTOCOL.md``,
"Reports"): a ``header``, one ``case`` record per case, a ``footer``. :func:`read_report` reads
one and refuses, with the file and line, anything that is not a complete report;
:func:`matrix_text` and :func:`matrix_html` show several side by side, rows by rule ID;
:func:`merge` joins the shards of one run. Everything an engine wrote is escaped
(:func:`~gaple.conformance.wire.escape.printable`, then HTML-escaped in the HTML file).

The report of ``gaple conformance fuzz --report`` is one JSON object of counts;
:func:`read_fuzz_shard` reads that of a shard and :func:`merge_fuzz` joins the shards of one
fuzzing run into the report of the whole run.
"""

from __future__ import annotations

import difflib
import html
import json
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from attrs import frozen

from gaple.conformance.checker.compare import (
    LegalDifference,
    difference_words,
    failure_name,
    legal_difference,
)
from gaple.conformance.vectors.cases import STATUSES
from gaple.conformance.wire.bounded import Limits, Refused, lines, read
from gaple.conformance.wire.escape import printable
from gaple.conformance.wire.files import write_atomically
from gaple.io import FormatError, state_from_json
from gaple.localdocs import explorer_url, local_docs_url
from gaple.registry import RULES, rule_url
from gaple.render import state_svg
from gaple.state import MoveSyntaxError, Pass, State, parse_move
from gaple.tiles import Tile

__all__ = [
    "ALL_CASES",
    "FUZZ_RUN",
    "RECORD_LIMITS",
    "BadReport",
    "Report",
    "counted",
    "docs_base",
    "docs_link",
    "held_verdict",
    "matrix_html",
    "matrix_text",
    "merge",
    "merge_fuzz",
    "read_document",
    "read_fuzz_shard",
    "read_report",
    "rule_rows",
    "shard_positions",
    "write_records",
]

JSON = Any

RECORD_LIMITS = Limits(max_bytes=8 * 2**20, max_depth=40)
"""One record may quote an engine's reply (up to 1 MiB, written as ASCII JSON: each other
character six bytes) a few levels deep."""

_SHOWN = 1000
"""Characters of one value an engine wrote that are shown."""

ALL_CASES = "all cases"
"""The last row of the matrix: every case once."""

_NO_RULE = "(no rule ID)"
"""The row of a failure that names no rule."""


class BadReport(ValueError):
    """A file that is not a complete conformance report; the message says where and why."""


@frozen
class Report:
    """One report file, read and checked."""

    path: str
    header: dict[str, JSON]
    cases: tuple[dict[str, JSON], ...]
    footer: dict[str, JSON]

    @property
    def label(self) -> str:
        """The engine's name and version as it gave them (escaped), else the command."""
        engine = self.header.get("engine")
        if isinstance(engine, dict):
            return printable(f"{engine['name']} {engine['version']}".strip(), limit=80)
        return printable(str(self.header["impl"]), limit=80)


def counted(number: int, noun: str, plural: str | None = None) -> str:
    """``number`` and ``noun``, the noun in the plural (``plural``, else with an s) unless
    the number is one."""
    return f"{number} {noun if number == 1 else plural or noun + 's'}"


def _need(record: dict[str, JSON], key: str, kinds: tuple[type, ...], where: str) -> JSON:
    if key not in record:
        msg = f"{where}: no {key!r} field"
        raise BadReport(msg)
    value = record[key]
    if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
        msg = f"{where}: {key!r} has the wrong type ({type(value).__name__})"
        raise BadReport(msg)
    return value


def _check_expectations(held: JSON, where: str) -> None:
    """A footer's ``expectations``: the file, its digest, and the case IDs it holds as known
    (listed and ended so), as new failures, and as unexpected passes."""
    where = f"{where}: expectations"
    if not isinstance(held, dict):
        msg = f"{where} is not an object"
        raise BadReport(msg)
    _need(held, "file", (str,), where)
    _need(held, "sha256", (str,), where)
    for key in _JUDGED:
        ids = _need(held, key, (list,), where)
        if not all(isinstance(case, str) for case in ids):
            msg = f"{where}: {key!r} holds something other than case IDs"
            raise BadReport(msg)


_JUDGED = ("held", "new", "unexpected")
"""The lists of case IDs of a footer's ``expectations``."""


def expectations_line(report: Report) -> str | None:
    """How the report's run ended against its expectations file, in one line; ``None`` when
    it was given none."""
    held = report.footer.get("expectations")
    if held is None:
        return None
    known, new, unexpected = (len(held[key]) for key in _JUDGED)
    return judged_counts(printable(held["file"], limit=200), known, new, unexpected)


def judged_counts(path: str, known: int, new: int, unexpected: int) -> str:
    """The line that counts how a run ended against the expectations file at ``path``."""
    return (
        f"expectations {path}: {counted(known, 'known divergence')} as listed, "
        f"{counted(new, 'new failure')}, "
        f"{counted(unexpected, 'unexpected pass', 'unexpected passes')}"
    )


def _check_shard(record: dict[str, JSON], where: str) -> None:
    """The ``shard`` of a run's header or a fuzz report: ``index`` of ``count``, one that exists."""
    shard = _need(record, "shard", (dict,), where)
    index = _need(shard, "index", (int,), f"{where}: shard")
    count = _need(shard, "count", (int,), f"{where}: shard")
    if not 1 <= index <= count:
        msg = f"{where}: shard {index} of {count} does not exist"
        raise BadReport(msg)


def _check_header(record: dict[str, JSON], where: str) -> None:
    if record.get("type") != "header" or record.get("protocol") != 1:
        msg = f"{where}: not a conformance report (the first line is not a protocol 1 header)"
        raise BadReport(msg)
    _need(record, "impl", (str,), where)
    _need(record, "engine", (dict, type(None)), where)
    _need(record, "levels", (list,), where)
    _need(record, "cases", (int,), where)
    _need(record, "gaple", (str,), where)
    _need(record, "vectors", (str, type(None)), where)
    _need(record, "selection", (dict, type(None)), where)
    engine = record["engine"]
    if engine is not None:
        _need(engine, "name", (str,), f"{where}: engine")
        _need(engine, "version", (str,), f"{where}: engine")
    if "shard" in record:
        _check_shard(record, where)


def _check_case(record: dict[str, JSON], where: str) -> None:
    _need(record, "case", (str,), where)
    _need(record, "topic", (str,), where)
    status = _need(record, "status", (str,), where)
    if status not in STATUSES:
        msg = f"{where}: unknown status {printable(status, limit=40)!r}"
        raise BadReport(msg)
    ids = _need(record, "rule_ids", (list,), where)
    if not all(isinstance(rule_id, str) for rule_id in ids):
        msg = f"{where}: 'rule_ids' holds something other than text"
        raise BadReport(msg)
    if status == "failed":
        _need(record, "rule", (str, type(None)), where)
        _need(record, "field", (str,), where)
        _need(record, "position", (dict,), where)
        for key in ("expected", "actual"):
            if key not in record:
                msg = f"{where}: no {key!r} field"
                raise BadReport(msg)
    if "message" in record:
        _need(record, "message", (str,), where)
    if "trace" in record:
        trace = _need(record, "trace", (list,), where)
        if not all(_exchange(entry) for entry in trace):
            msg = f"{where}: 'trace' holds something other than messages sent and received"
            raise BadReport(msg)


def _exchange(entry: JSON) -> bool:
    """Whether ``entry`` is one message of a trace: ``{"sent": TEXT}`` or
    ``{"received": TEXT}``, a reply never read with ``"compared": false``."""
    if not isinstance(entry, dict):
        return False
    texts = {key: value for key, value in entry.items() if key != "compared"}
    return (
        len(texts) == 1
        and set(texts) <= {"sent", "received"}
        and all(isinstance(text, str) for text in texts.values())
        and ("compared" not in entry or (entry["compared"] is False and "received" in entry))
    )


def read_report(path: Path) -> Report:
    """Read and check one report file.

    Raises:
        BadReport: the file cannot be read, a line is not JSON, a record is not what the
            protocol says, the footer is missing (a truncated file) or its counts disagree
            with the case records.
    """
    name = str(path)
    header: dict[str, JSON] | None = None
    cases: list[dict[str, JSON]] = []
    footer: dict[str, JSON] | None = None
    try:
        with path.open("rb") as stream:
            for number, record in enumerate(lines(stream, RECORD_LIMITS), start=1):
                where = f"{name}:{number}"
                if footer is not None:
                    msg = f"{where}: a record after the footer"
                    raise BadReport(msg)
                if not isinstance(record, dict):
                    msg = f"{where}: a record is a JSON object, not {type(record).__name__}"
                    raise BadReport(msg)
                if header is None:
                    _check_header(record, where)
                    header = record
                elif record.get("type") == "case":
                    _check_case(record, where)
                    cases.append(record)
                elif record.get("type") == "footer":
                    counts = _need(record, "counts", (dict,), where)
                    _need(record, "verdict", (str,), where)
                    _need(record, "seconds", (int, float), where)
                    if "expectations" in record:
                        _check_expectations(record["expectations"], where)
                    found = Counter(case["status"] for case in cases)
                    if any(counts.get(status) != found[status] for status in STATUSES):
                        msg = (
                            f"{where}: the footer's counts {printable(json.dumps(counts))} "
                            f"disagree with the {len(cases)} case records"
                        )
                        raise BadReport(msg)
                    footer = record
                else:
                    msg = f"{where}: a record of unknown type (expected 'case' or 'footer')"
                    raise BadReport(msg)
    except Refused as error:
        msg = f"{name}:{error.line}: {error.message}"
        raise BadReport(msg) from None
    except OSError as error:
        msg = f"{name}: {error.strerror}"
        raise BadReport(msg) from None
    if header is None:
        msg = f"{name}: empty, not a conformance report"
        raise BadReport(msg)
    if footer is None:
        msg = f"{name}: truncated: no footer after {len(cases)} case records"
        raise BadReport(msg)
    return Report(name, header, tuple(cases), footer)


def _rows_of(case: dict[str, JSON]) -> list[str]:
    # A failed case is evidence against the rule it broke and says nothing of the others.
    if case["status"] == "failed":
        return [case["rule"] or _NO_RULE]
    return list(case["rule_ids"])


def rule_rows(reports: Sequence[Report]) -> dict[str, list[Counter[str]]]:
    """The matrix: for each rule ID (registry order, then unknown IDs), one count of cases per
    status for each report, and the row :data:`ALL_CASES` (every case once).

    A case counts in the row of every rule it exercises (its ``rule_ids``), except a failed
    case, which counts only in the row of the rule it broke.
    """
    found: dict[str, list[Counter[str]]] = {}
    for column, report in enumerate(reports):
        for case in report.cases:
            for rule_id in _rows_of(case):
                row = found.setdefault(rule_id, [Counter() for _ in reports])
                row[column][case["status"]] += 1
    order = [rule_id for rule_id in RULES if rule_id in found]
    order += sorted(rule_id for rule_id in found if rule_id not in RULES)
    rows = {rule_id: found[rule_id] for rule_id in order}
    rows[ALL_CASES] = [Counter(case["status"] for case in report.cases) for report in reports]
    return rows


def _shown_id(rule_id: str) -> str:
    return printable(rule_id, limit=60)


def scope_line(report: Report) -> str | None:
    """``within pagat-4x7 (declared): 303 of 303 situation cells of this scope``: the scope a
    report was measured in and its cells, when the run had one."""
    scope = report.footer.get("scope")
    if not isinstance(scope, dict) or not isinstance(scope.get("cells"), dict):
        return None
    cells = scope["cells"]
    checked = cells.get("checked")
    said = "" if checked is None else f"{checked} of "
    opened = f", {cells.get('open')} open" if cells.get("open") else ""
    line = f"within {scope.get('name')}: {said}{cells.get('reachable')} situation cells"
    return printable(line + " of this scope" + opened, limit=200)


def _scope_name(report: Report) -> str | None:
    scope = report.footer.get("scope")
    name = scope.get("name") if isinstance(scope, dict) else None
    return name if isinstance(name, str) else None


def matrix_text(reports: Sequence[Report]) -> str:
    """The matrix as a table for the terminal: engines numbered above, four columns each."""
    lines = []
    for n, report in enumerate(reports, start=1):
        verdict = printable(report.footer.get("verdict", "?"), limit=40)
        lines.append(f"[{n}] {report.label}: {verdict} ({printable(report.path)})")
        within = scope_line(report)
        if within is not None:
            lines.append(f"    {within}")
        held = expectations_line(report)
        if held is not None:
            lines.append(f"    {held}")
    rows = rule_rows(reports)
    width = max(len(_shown_id(rule_id)) for rule_id in rows)
    cell = 8
    lines.append(
        " " * width + "".join(f" | [{n}]".ljust(4 * cell + 3) for n in range(1, len(reports) + 1))
    )
    names = "".join(f"{status:>{cell}}" for status in STATUSES)
    lines.append(f"{'rule ID':<{width}}" + f" | {names}" * len(reports))
    for rule_id, counts in rows.items():
        cells = "".join(
            " | " + "".join(f"{count[status]:>{cell}}" for status in STATUSES) for count in counts
        )
        lines.append(f"{_shown_id(rule_id):<{width}}{cells}")
    return "\n".join(line.rstrip() for line in lines)


def docs_base() -> str | None:
    """The root that reports link rules under when no ``--docs-url`` is given: this machine's
    copy of the reference, so that the links work offline (the wheel's, or a checkout's
    ``docs/_build/html``: :func:`gaple.localdocs.local_docs_url`), else the ``Documentation``
    project URL of the installed gaple, if it declares one."""
    local = local_docs_url()
    if local is not None:
        return local
    # Imported here: importlib.metadata takes 10 ms to import, a tenth of gaple check's start.
    import importlib.metadata  # noqa: PLC0415

    try:
        urls: list[str] = importlib.metadata.metadata("gaple").get_all("Project-URL") or []
    except importlib.metadata.PackageNotFoundError:
        return None
    for entry in urls:
        label, _, url = entry.partition(",")
        if label.strip().lower() == "documentation" and url.strip():
            return url.strip()
    return None


def shard_positions(shards: Sequence[tuple[str, Mapping[str, Any]]]) -> dict[int, int]:
    """Each shard index, to its position in ``shards`` (each a file name and its ``shard``
    field), for shards of one run.

    Raises:
        BadReport: shards of different counts, or a shard given twice.
    """
    first, count = shards[0][0], shards[0][1]["count"]
    seen: dict[int, int] = {}
    for position, (name, shard) in enumerate(shards):
        if shard["count"] != count:
            msg = f"{name}: shard of {shard['count']}, but {first} is one of {count}"
            raise BadReport(msg)
        index = shard["index"]
        if index in seen:
            msg = f"{name}: shard {index}/{count} given twice (also {shards[seen[index]][0]})"
            raise BadReport(msg)
        seen[index] = position
    return seen


def _shard_order(shards: Sequence[tuple[str, Mapping[str, Any]]]) -> list[int]:
    """The positions in ``shards`` of shards 1 to N of one run (see :func:`shard_positions`).

    Raises:
        BadReport: shards of different counts, a shard given twice, or one missing.
    """
    seen = shard_positions(shards)
    count = shards[0][1]["count"]
    missing = [str(index) for index in range(1, count + 1) if index not in seen]
    if missing:
        msg = f"shard {', '.join(missing)} of {count} missing"
        raise BadReport(msg)
    return [seen[index] for index in range(1, count + 1)]


def docs_link(rule_id: str, base: str | None) -> str | None:
    """Where the docs explain ``rule_id``: under ``base`` when given, else relative to the
    docs root (``rules/turn.html#rule-play-match-end``); None for an ID not in the registry."""
    if rule_id not in RULES:
        return None
    return rule_url(rule_id) if base is None else f"{base.rstrip('/')}/{rule_url(rule_id)}"


def merge(reports: Sequence[Report]) -> list[dict[str, JSON]]:
    """The records of one report made of the shards of one run, cases in the run's order.

    Raises:
        BadReport: a report is not a shard, the shards are of different runs (engine, gaple,
            vector set, selection of cases, levels), or a shard is missing or given twice.
    """
    first = reports[0]
    same = ("impl", "engine", "gaple", "vectors", "selection", "levels")
    for report in reports:
        if report.header.get("shard") is None:
            msg = f"{report.path}: not a shard (its header has no 'shard')"
            raise BadReport(msg)
        for key in same:
            if report.header.get(key) != first.header.get(key):
                msg = f"{report.path}: not from the same run as {first.path} (its {key!r} differs)"
                raise BadReport(msg)
    shards = [reports[k] for k in _shard_order([(str(r.path), r.header["shard"]) for r in reports])]
    # Case k of the run is in shard (k mod N) + 1: taking the shards in turn restores the order.
    ordered: list[dict[str, JSON]] = []
    for k in range(max(len(shard.cases) for shard in shards)):
        ordered.extend(shard.cases[k] for shard in shards if k < len(shard.cases))
    header = {key: value for key, value in first.header.items() if key != "shard"}
    header["cases"] = sum(shard.header["cases"] for shard in shards)
    header["started"] = min(str(shard.header.get("started", "")) for shard in shards)
    counts = {status: sum(case["status"] == status for case in ordered) for status in STATUSES}
    bad = counts["failed"] + counts["errored"]
    footer = {
        "type": "footer",
        "counts": counts,
        "seconds": round(sum(float(shard.footer.get("seconds", 0)) for shard in shards), 3),
        "stopped_early": any(shard.footer.get("stopped_early") for shard in shards),
        "interrupted": any(shard.footer.get("interrupted") for shard in shards),
        "verdict": "does not conform"
        if bad
        else ("conforms" if counts["passed"] else "nothing checked"),
    }
    named = {_scope_name(shard) for shard in shards}
    scope = first.footer.get("scope")
    cells_of_scope = scope.get("cells") if isinstance(scope, dict) else None
    open_cells = False
    if named != {None} and len(named) == 1 and isinstance(cells_of_scope, dict):
        # Every shard measured the same scope; which cells passed is each shard's own.
        cells = {k: v for k, v in cells_of_scope.items() if k != "checked"}
        footer["scope"] = {"name": named.pop(), "cells": cells}
        open_cells = bool(cells.get("open"))
    # Partial for cells no case reaches, or for what a shard knew (cases it declined).
    partly = open_cells or any(shard.footer.get("verdict") == "partial" for shard in shards)
    if footer["verdict"] == "conforms" and partly:
        footer["verdict"] = "partial"
    # Each case was judged in its own shard: the lists join, in the run's order of cases.
    # The files' contents, not their names: two files named e.json may list different cases.
    held = first.footer.get("expectations", {}).get("sha256")
    for shard in shards:
        if shard.footer.get("expectations", {}).get("sha256") != held:
            msg = f"{shard.path}: not from the same run as {first.path} (its expectations differ)"
            raise BadReport(msg)
    if held is not None:
        order = {case["case"]: k for k, case in enumerate(ordered)}
        kept = first.footer["expectations"]
        judged = {
            key: sorted(
                (case for shard in shards for case in shard.footer["expectations"][key]),
                key=lambda case: order.get(case, len(order)),
            )
            for key in _JUDGED
        }
        footer["expectations"] = {"file": kept["file"], "sha256": held, **judged}
        footer["verdict"] = held_verdict(
            new=bool(judged["new"]),
            unexpected=bool(judged["unexpected"]),
            checked=bool(counts["passed"] or judged["held"]),
            partly=partly,
        )
    return [header, *ordered, footer]


def held_verdict(*, new: bool, unexpected: bool, checked: bool, partly: bool) -> str:
    """The verdict of a run held against an expectations file: ``new failures`` (a case
    failed or errored otherwise than listed), else ``expectations outdated`` (a listed case
    passed), else ``nothing checked`` (no case passed or ended as listed), else ``partial``
    (``partly``: not all the run set out to check was checked), else ``as expected``. A
    run's (:func:`gaple.conformance.runner.expectations.verdict`) and a merge's alike."""
    if new:
        return "new failures"
    if unexpected:
        return "expectations outdated"
    if not checked:
        return "nothing checked"
    return "partial" if partly else "as expected"


def _e(value: JSON) -> str:
    """Text for the HTML page: hidden characters escaped, cut, then HTML-escaped."""
    text = value if isinstance(value, str) else json.dumps(value)
    return html.escape(printable(text, limit=_SHOWN), quote=True)


# The rule column sticks to the left of the matrix's scroller, opaque over the counts that
# pass under it; each cell draws its own borders (not collapsed) so that they move with it.
_CSS = """
body{font-family:system-ui,sans-serif;margin:1.5em;color:#222;overflow-wrap:anywhere}
.scroll{overflow-x:auto;max-width:100%}
table{border-collapse:separate;border-spacing:0;margin:1em 0}
th,td{border:solid #bbb;border-width:0 1px 1px 0;padding:.2em .5em;text-align:right;
overflow-wrap:normal}
thead tr:first-child>th{border-top-width:1px}
th.rule,td.rule{text-align:left;font-family:monospace;white-space:nowrap}
.rule{position:sticky;left:0;z-index:1;background:#fff;border-left-width:1px}
td.failed.n,td.errored.n{background:#f6c6c6;font-weight:bold}
td.passed.n{background:#d4efd4}
td.skipped.n{background:#eee}
td a{color:inherit}
.failure{border:1px solid #d88;border-radius:4px;padding:.5em 1em;margin:1em 0}
pre{white-space:pre-wrap;word-break:break-all;background:#f7f7f7;padding:.4em}
.position svg{max-width:100%;height:auto}
.at-issue{color:#d9480f;font-weight:bold}
.in-words{font-weight:bold}
.digests{margin-top:2em;font-size:.85em;color:#555}
"""


def _link(rule_id: str, base: str | None) -> str:
    link = docs_link(rule_id, base)
    if link is None:
        return f"<code>{_e(rule_id)}</code> (not in this gaple's rules)"
    if base is None:
        return f"<code>{_e(rule_id)}</code>, in the docs at <code>{_e(link)}</code>"
    return f'<a href="{_e(link)}"><code>{_e(rule_id)}</code></a>'


def _move_tile(text: JSON) -> Tile | None:
    """The tile a move names (a lead, placement or discard), if it is a move that names one."""
    try:
        move = parse_move(text) if isinstance(text, str) else None
    except MoveSyntaxError:
        return None
    return None if move is None or isinstance(move, Pass) else move.tile


_MOVE_JUDGED = ("verdict", "code", "rule")
"""The fields of the engine's reply to a step's move (``compare``'s act fields): the move
itself is what it got wrong."""


def _offered(case: dict[str, JSON], state: State) -> LegalDifference | None:
    """The legal moves the engine did not offer and those it offered that are not legal, as
    the checker compares them, when the failure is in the moves offered."""
    lists = [case[key] for key in ("expected", "actual")]
    if case["field"] != "legal" or not all(_texts(value) for value in lists):
        return None
    return legal_difference(lists[0], lists[1], state)


def _texts(value: JSON) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


def _laid(value: JSON) -> list[tuple[int, int]] | None:
    """A line as the engine showed it (``[[6, 5], [5, 5]]``), if it is one."""
    if not isinstance(value, list):
        return None
    pairs = [item for item in value if isinstance(item, list) and len(item) == 2]
    halves = [half for pair in pairs for half in pair]
    if len(pairs) < len(value) or not all(type(h) is int and h >= 0 for h in halves):
        return None
    return [(pair[0], pair[1]) for pair in pairs]


def _line_apart(case: dict[str, JSON]) -> set[Tile]:
    """The tiles on which the spec's line and the engine's differ, read as sequences that
    match elsewhere: a tile laid at the wrong end, or turned, is one tile, not the whole
    line shifted past it."""
    lines = [_laid(case[key]) for key in ("expected", "actual")]
    if lines[0] is None or lines[1] is None:
        return set()
    match = difflib.SequenceMatcher(a=lines[0], b=lines[1], autojunk=False)
    apart = [
        pair
        for op, a0, a1, b0, b1 in match.get_opcodes()
        if op != "equal"
        for pair in (*lines[0][a0:a1], *lines[1][b0:b1])
    ]
    return {Tile(*pair) for pair in apart}


def _at_issue(case: dict[str, JSON], state: State) -> list[Tile]:
    """The tiles a failure turns on: the tile of the step's move when the reply to that move
    differs; else the tiles the differing field names (those of the legal moves the engine
    and the spec disagree on, or of the stretch where the lines part); and 0-0 when the
    double-blank's count is at issue. A field of the position after the step does not put
    the step's move at issue: the move led there, a discard then lying among the others."""
    field = case["field"]
    texts = [case.get("action")] if field in _MOVE_JUDGED else []
    offered = _offered(case, state)
    if offered is not None:
        texts += [*offered.missing, *offered.extra]
    tiles = {tile for tile in map(_move_tile, texts) if tile is not None}
    if field == "line":
        tiles.update(_line_apart(case))
    if case["rule"] == "score.double-blank-25":
        tiles.add(Tile(0, 0))
    return sorted(tiles)


def _in_words(case: dict[str, JSON], state: State) -> str | None:
    """A failure's difference in words, where it is a list the reader would otherwise
    compare by eye (:func:`~gaple.conformance.checker.compare.difference_words`, the words of
    the terminal and ``gaple check``); ``None`` where nothing says it better than the values.
    Computed from the values rather than read from the record's ``words``, so a report of an
    older gaple reads the same."""
    return difference_words(
        str(case["field"]), case["expected"], case["actual"], teams=state.rules.partnership
    )


def _spec_position(case: dict[str, JSON], where: str) -> State:
    """The spec's position at the failure.

    Raises:
        BadReport: it does not replay.
    """
    try:
        return state_from_json(case["position"], "$.position")
    except FormatError as error:
        msg = f"{where}: case {printable(case['case'], limit=80)}: {error}"
        raise BadReport(msg) from None


def _position(case: dict[str, JSON], state: State) -> str:
    """The spec's position at the failure, every tile face up, the tiles at issue outlined."""
    marked = _at_issue(case, state)
    note = (
        f'<p class="at-issue">At issue (outlined): {_e(" ".join(map(str, marked)))}</p>'
        if marked
        else ""
    )
    svg = state_svg(state, reveal=True, marked=marked)
    return f'<div class="position">{svg}</div>{note}'


_ALSO_SHOWN = 10
"""The other cases of a group named under its first; the rest are in a closed block (a
defect shared by hundreds of cases filled a narrow page with their IDs)."""


def _also(cases: Sequence[dict[str, JSON]]) -> str:
    """The other cases of a group, by ID: :data:`_ALSO_SHOWN` of them, then the rest in a
    closed ``<details>``."""
    if len(cases) < 2:
        return ""
    ids = [f"<code>{_e(case['case'])}</code>" for case in cases[1:]]
    shown, rest = ids[:_ALSO_SHOWN], ids[_ALSO_SHOWN:]
    folded = (
        f'<details class="also-rest"><summary>and {len(rest)} more</summary>'
        f"{', '.join(rest)}</details>"
        if rest
        else ""
    )
    return f'<p class="also">The same in {len(ids)} more: {", ".join(shown)}</p>{folded}'


def _failure_name(case: dict[str, JSON]) -> str:
    """The failure as the terminal names it (:meth:`CaseOutcome.describe`, without values)."""
    name = failure_name(
        case.get("step"), case.get("seat"), case.get("action"), case["field"], _rule_of(case)
    )
    return f"{case['case']}: {name}"


def _rule_of(case: dict[str, JSON]) -> str:
    return str(case["rule"] or _NO_RULE)


def _failures(
    anchor: str, column: int, report: Report, cases: Sequence[dict[str, JSON]], base: str | None
) -> str:
    """A group of failures of one engine on one rule and field: the first in full, the others
    by ID."""
    case = cases[0]
    rule_id = _rule_of(case)
    rule = RULES.get(rule_id)
    count = f"{len(cases)} case{'s' if len(cases) > 1 else ''}"
    state = _spec_position(case, report.path)
    words = _in_words(case, state)
    parts = [
        f'<section class="failure" id="{anchor}" data-engine="{column}" '
        f'data-case="{_e(case["case"])}" data-count="{len(cases)}">',
        f"<h3>[{column}] {_e(rule_id)}, field <code>{_e(case['field'])}</code>: {count}</h3>",
        f"<p>Rule {_link(rule_id, base)}"
        + (f": {html.escape(rule.statement)}" if rule is not None else "")
        + "</p>",
        f'<p class="example">First: {_e(_failure_name(case))}</p>',
        "" if words is None else f'<p class="in-words">{_e(words)}</p>',
        f'<p>Expected:</p><pre class="expected">{_e(case["expected"])}</pre>',
        f'<p>Actual:</p><pre class="actual">{_e(case["actual"])}</pre>',
        _explorer_link(case, base),
        "<p>The position in the spec at that point:</p>",
        _position(case, state),
        _also(cases),
        "</section>",
    ]
    return "\n".join(parts)


def _explorer_link(case: dict[str, JSON], base: str | None) -> str:
    """The case in the rules explorer at its failing step, the engine's answer beside the
    spec's (cut as the page shows them); nothing without docs to link into."""
    if base is None:
        return ""
    position = case["position"]
    assert isinstance(position, dict)  # checked as the report was read
    keys = ("format", "rules", "deal", "first_hand", "actions")
    hand = {key: position[key] for key in keys if key in position}
    compare = {
        "case": case["case"],
        "step": case.get("step"),
        "rule": case["rule"],
        "field": case["field"],
        "engine": _cut(case["actual"]),
        "spec": _cut(case["expected"]),
    }
    url = explorer_url(base, {**hand, "compare": compare})
    served = " (served by <code>gaple docs explorer</code>)" if base.startswith("file:") else ""
    return (
        f'<p class="explorer"><a href="{html.escape(url, quote=True)}">Open this case in the '
        f"rules explorer at its failing step</a>{served}</p>"
    )


def _cut(value: JSON) -> str:
    return printable(value if isinstance(value, str) else json.dumps(value), limit=_SHOWN)


def _errors(anchor: str, column: int, cases: Sequence[dict[str, JSON]]) -> str:
    """A group of cases of one engine that errored with the same message."""
    case = cases[0]
    return (
        f'<section class="failure errored" id="{anchor}" data-engine="{column}" '
        f'data-case="{_e(case["case"])}" data-count="{len(cases)}">'
        f"<h3>[{column}] errored: {len(cases)} case{'s' if len(cases) > 1 else ''}</h3>"
        f'<p class="example">First: {_e(case["case"])}</p>'
        f'<pre class="message">{_e(case.get("message", ""))}</pre>{_also(cases)}</section>'
    )


def _grouped(
    cases: Iterable[dict[str, JSON]], key: Callable[[dict[str, JSON]], tuple[str, ...]]
) -> list[list[dict[str, JSON]]]:
    """The cases in groups of equal ``key``, each in the order met, groups by their first."""
    groups: dict[tuple[str, ...], list[dict[str, JSON]]] = {}
    for case in cases:
        groups.setdefault(key(case), []).append(case)
    return list(groups.values())


def _engine_section(
    column: int, report: Report, order: Sequence[str], base: str | None
) -> tuple[list[str], dict[str, str]]:
    """The failures and errors of one engine, grouped (failures breaking the same rule in the
    same field; errors with the same message), and where the matrix links each of its rows'
    failed and errored cells (rule ID, or ``ALL_CASES``, to an anchor)."""
    failed = [case for case in report.cases if case["status"] == "failed"]
    failed.sort(key=lambda case: order.index(_rule_of(case)))
    errored = [case for case in report.cases if case["status"] == "errored"]
    targets: dict[str, str] = {}
    parts: list[str] = []
    for k, group in enumerate(_grouped(failed, lambda c: (_rule_of(c), str(c["field"])))):
        anchor = f"e{column}-f{k + 1}"
        targets.setdefault(f"failed {_rule_of(group[0])}", anchor)
        targets.setdefault(f"failed {ALL_CASES}", anchor)
        parts.append(_failures(anchor, column, report, group, base))
    for k, group in enumerate(_grouped(errored, lambda c: (str(c.get("message", "")),))):
        anchor = f"e{column}-e{k + 1}"
        for rule_id in (*group[0]["rule_ids"], ALL_CASES):
            targets.setdefault(f"errored {rule_id}", anchor)
        parts.append(_errors(anchor, column, group))
    return parts, targets


def _cell(status: str, count: int, column: int, target: str | None) -> str:
    shown = f'<a href="#{target}">{count}</a>' if target is not None and count else str(count)
    return (
        f'<td class="{status}{" n" if count else ""}" data-engine="{column}" '
        f'data-status="{status}">{shown}</td>'
    )


def matrix_html(reports: Sequence[Report], *, docs: str | None = None) -> str:
    """One self-contained HTML page: the matrix, then the failures and errors of each engine
    in groups (a group: failures breaking the same rule in the same field, or errors with the
    same message; its first case shown in full, with the expected and actual values, the
    rule's text and docs link and the position drawn, the others listed), then the reasons
    for skipping, then, closed, the digests of each run. The matrix's failed and errored cells
    link to their groups. No script, no external resource; a Content-Security-Policy forbids
    both should anything slip through.

    Raises:
        BadReport: a failure's position does not replay.
    """
    rows = rule_rows(reports)
    order = list(rows)
    sections = [_engine_section(n, r, order, docs) for n, r in enumerate(reports, start=1)]
    head = "".join(
        f'<th colspan="4" data-engine="{n}">[{n}] {_e(r.label)}<br>'
        f"<small>{_e(r.footer.get('verdict', '?'))}; {_e(scope_line(r) or 'no scope')}; "
        f"{_e(r.path)}</small>"
        + ("" if (held := expectations_line(r)) is None else f"<br><small>{_e(held)}</small>")
        + "</th>"
        for n, r in enumerate(reports, start=1)
    )
    names = "".join(f"<th>{status}</th>" for status in STATUSES) * len(reports)
    body = []
    for rule_id, counts in rows.items():
        cells = "".join(
            _cell(status, count[status], n, targets.get(f"{status} {rule_id}"))
            for n, (count, (_, targets)) in enumerate(zip(counts, sections, strict=True), start=1)
            for status in STATUSES
        )
        body.append(
            f'<tr data-rule="{_e(rule_id)}"><td class="rule">{_e(rule_id)}</td>{cells}</tr>'
        )
    details = "\n".join(text for texts, _ in sections for text in texts)
    bad = sum(case["status"] in ("failed", "errored") for r in reports for case in r.cases)
    groups = sum(len(texts) for texts, _ in sections)
    skips = "".join(
        f'<li data-engine="{n}">[{n}] {count} skipped: {_e(reason)}</li>'
        for n, report in enumerate(reports, start=1)
        for reason, count in Counter(
            str(case.get("message", "")) for case in report.cases if case["status"] == "skipped"
        ).most_common()
    )
    digests = "".join(_digests(n, report) for n, report in enumerate(reports, start=1))
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta http-equiv="Content-Security-Policy" '
        "content=\"default-src 'none'; style-src 'unsafe-inline'\">"
        "<title>Gaple conformance report</title>"
        f"<style>{_CSS}</style></head><body>\n"
        "<h1>Gaple conformance report</h1>\n"
        "<p>Cases by rule ID: a case counts under every rule it exercises, a failed case only "
        "under the rule it broke; the last row counts every case once. A count of failures or "
        "errors links to them.</p>\n"
        '<div class="scroll"><table class="matrix"><thead><tr>'
        f'<th rowspan="2" class="rule">rule ID</th>{head}</tr>'
        f"<tr>{names}</tr></thead><tbody>\n" + "\n".join(body) + "\n</tbody></table></div>\n"
        f"<h2>Failures and errors ({counted(bad, 'case')} in {counted(groups, 'group')})</h2>\n"
        "<p>Failures of one engine that break the same rule in the same field form one group, "
        "as do errors with the same message: the first case is shown in full, the others are "
        "listed.</p>\n" + details + "\n"
        f'<h2>Skipped, by reason</h2>\n<ul class="skipped">{skips}</ul>\n'
        # Needed to tell runs apart, not to read them: closed, at the end.
        '<details class="digests"><summary>Digests: the gaple, the vector set, the cases and '
        f'the expectations of each run</summary><ul class="runs">{digests}</ul></details>\n'
        "</body></html>\n"
    )


def _digests(column: int, report: Report) -> str:
    """What names a report's run for comparing with another: the gaple that ran it, the
    vector set, and the digests of the cases selected and of the expectations file."""
    selection = report.header["selection"] or {}
    held = report.footer.get("expectations")
    expected = (
        "" if held is None else f", expectations {_e(held['file'])} sha256 {_e(held['sha256'])}"
    )
    return (
        f"<li>[{column}] gaple {_e(report.header['gaple'])}, vectors "
        f"{_e(report.header['vectors'])}, cases sha256 {_e(selection.get('sha256', '?'))}"
        f"{expected}</li>"
    )


def write_records(path: Path, records: Iterable[dict[str, JSON]]) -> None:
    """Write report records as JSON lines (ASCII, as the runner writes them).

    Raises:
        OSError: the file cannot be written.
    """
    write_atomically(path, "".join(json.dumps(record) + "\n" for record in records))


FUZZ_RUN = ("gaple", "impl", "seed", "variant", "set", "examples", "max_seconds")
"""The fields of a fuzz report that name its run: the shards of one run share them (the gaple
that drew the hands, the engine command, the seed, the rules drawn from, the budget)."""

FUZZ_SCOPE = ("scope", "inside", "outside")
"""The fields of a fuzz report written by a gaple that searches a scope: the scope searched
(shared by the shards of one run) and the draws inside and outside it (added up)."""


def read_document(path: Path, limits: Limits = RECORD_LIMITS) -> JSON:
    """The JSON document in the file ``path``, through the bounded reader.

    Raises:
        BadReport: the file cannot be read, or is not JSON within ``limits``.
    """
    try:
        with path.open("rb") as stream:
            return read(stream, limits)
    except OSError as error:
        msg = f"{path}: cannot read: {error.strerror}"
        raise BadReport(msg) from None
    except Refused as error:
        msg = f"{path}: {error}"
        raise BadReport(msg) from None


def read_fuzz_shard(path: Path) -> dict[str, JSON]:
    """The report of one shard of ``gaple conformance fuzz --shard I/N --report``, checked.

    Raises:
        BadReport: the file cannot be read, is not JSON, or is not the report of a fuzz shard.
    """
    name = str(path)
    report = read_document(path)
    if not isinstance(report, dict):
        msg = f"{name}: not a report of conformance fuzz (a JSON object)"
        raise BadReport(msg)
    if "shard" not in report:
        msg = f"{name}: not a shard (no 'shard': run conformance fuzz --shard I/N --report FILE)"
        raise BadReport(msg)
    _check_shard(report, name)
    if "error" in report:
        msg = (
            f"{name}: the shard ended on an error: {printable(str(report['error']), limit=_SHOWN)}"
        )
        raise BadReport(msg)
    for key in FUZZ_RUN:
        if key not in report:
            msg = f"{name}: no {key!r} field (written by a gaple that did not name the run)"
            raise BadReport(msg)
    for key in ("played", "skipped", *(k for k in FUZZ_SCOPE[1:] if k in report)):
        _count(report, key, name)
    if "scope" in report:
        _need(report, "scope", (str, type(None)), name)
    _need(report, "skip_reason", (str, type(None)), name)
    if _need(report, "seconds", (int, float), name) < 0:
        msg = f"{name}: 'seconds' is below 0"
        raise BadReport(msg)
    found = _need(report, "finding", (dict, type(None)), name)
    after = _need(report, "found_after", (int, float, type(None)), name)
    if (found is None) != (after is None):
        msg = f"{name}: 'finding' and 'found_after' are not both null or both set"
        raise BadReport(msg)
    situations = _need(report, "situations", (dict,), name)
    for key in situations:
        _count(situations, key, f"{name}: situations")
    return report


def _count(record: dict[str, JSON], key: str, where: str) -> None:
    if _need(record, key, (int,), where) < 0:
        msg = f"{where}: {key!r} is below 0"
        raise BadReport(msg)


def merge_fuzz(shards: Sequence[tuple[str, dict[str, JSON]]]) -> dict[str, JSON]:
    """The report of a whole fuzzing run (as an unsharded ``--report`` writes it) from those
    (file name and report, see :func:`read_fuzz_shard`) of its shards 1/N to N/N in any order.

    Counts and seconds are added up; the finding, its ``found_after`` and the ``skip_reason``
    are those of the lowest-numbered shard that has one.

    Raises:
        BadReport: shards of different runs (a field of :data:`FUZZ_RUN` or the situations
            counted differ) or counts, a shard given twice, or one missing.
    """
    first, theirs = shards[0]
    for name, report in shards:
        for key in FUZZ_RUN:
            if report[key] != theirs[key]:
                msg = f"{name}: not from the same run as {first} (its {key!r} differs)"
                raise BadReport(msg)
        if set(report["situations"]) != set(theirs["situations"]):
            msg = f"{name}: not from the same run as {first} (its situations differ)"
            raise BadReport(msg)
        for key in FUZZ_SCOPE:
            if (key in report) != (key in theirs) or (
                key == "scope" and report.get(key) != theirs.get(key)
            ):
                msg = f"{name}: not from the same run as {first} (its {key!r} differs)"
                raise BadReport(msg)
    ordered = [shards[k][1] for k in _shard_order([(n, r["shard"]) for n, r in shards])]
    found = [report for report in ordered if report["finding"] is not None]
    reasons = [report["skip_reason"] for report in ordered if report["skip_reason"] is not None]
    scoped = "scope" in theirs
    return {
        **{key: theirs[key] for key in FUZZ_RUN},
        **({"scope": theirs["scope"]} if scoped else {}),
        "played": sum(report["played"] for report in ordered),
        "skipped": sum(report["skipped"] for report in ordered),
        **{key: sum(report[key] for report in ordered) for key in FUZZ_SCOPE[1:] if key in theirs},
        "skip_reason": reasons[0] if reasons else None,
        "seconds": round(sum(report["seconds"] for report in ordered), 3),
        "found_after": found[0]["found_after"] if found else None,
        "finding": found[0]["finding"] if found else None,
        "situations": {
            key: sum(report["situations"][key] for report in ordered)
            for key in theirs["situations"]
        },
    }
