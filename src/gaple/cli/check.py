"""``gaple check``: replay transcripts recorded by another implementation against the spec.

A FILE holds one transcript (JSON), or one transcript per line (JSON lines) when its name ends
in ``.jsonl``, when ``--jsonl`` is given, or when it is ``-`` (standard input). A JSON-lines
log is read one line at a time, so a log of any length is checked in constant memory, and is
reported as a summary: the count of each rule broken with its first example, and the totals.

Exit status: 0 when every transcript conforms, 1 when one does not, 2 when a file or a line
cannot be read or is not a transcript (one line on standard error gives its line or the JSON
path of the problem; checking goes on with the next line or file). Every file and line is read
by the bounded reader (:mod:`gaple.conformance.bounded`), whose limits are refused likewise.

``--jobs N`` checks on N worker processes (default: every core) once the input is longer than
one batch, with the same output in the same order; ``--shard I/N`` checks only the transcripts
numbered k with k % N == I - 1, counting single-transcript files and log lines together in
input order (:mod:`gaple.cli.sharding`).
"""

from __future__ import annotations

import argparse
import itertools
import sys
from collections.abc import Iterator
from typing import IO, Any

from attrs import define, field

from gaple.cli.common import UnreadableJson, add_format, dump_json, read_json
from gaple.cli.sharding import Shard, Workers, add_jobs_and_shard, cores
from gaple.conformance import bounded
from gaple.conformance.escape import printable
from gaple.conformance.transcript import check_transcript
from gaple.io import FormatError

__all__ = ["register"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``check`` subcommand."""
    parser = subparsers.add_parser(
        "check",
        help="replay transcripts from another implementation and report divergences",
        description="Replay transcripts against the spec. A FILE holds one transcript (JSON), "
        "or one per line (JSON lines) if its name ends in .jsonl, with --jsonl, or for - "
        "(standard input); a JSON-lines log is summarised by rule ID.",
    )
    parser.add_argument(
        "files", nargs="+", metavar="FILE", help="transcript files; - for standard input"
    )
    parser.add_argument(
        "--jsonl", action="store_true", help="read every FILE as JSON lines (one transcript each)"
    )
    add_jobs_and_shard(parser, "transcript (a file, or a non-blank line of a log)")
    add_format(parser)
    parser.set_defaults(run=run)


def _check(data: Any) -> dict[str, Any]:
    """The record of one decoded transcript: ``conforms``, ``diverges`` or ``invalid``."""
    try:
        verdict = check_transcript(data)
    except FormatError as error:
        return {"status": "invalid", "path": error.path, "error": error.message}
    record: dict[str, Any] = {
        "status": "conforms" if verdict.conforms else "diverges",
        "actions": verdict.actions,
        "ending": verdict.ending,
    }
    if verdict.divergence is not None:
        record["divergence"] = verdict.divergence.to_json()
        record["message"] = verdict.divergence.describe()
    if verdict.notes:
        record["notes"] = list(verdict.notes)
    return record


def _check_file(name: str) -> dict[str, Any]:
    try:
        data = read_json(name)
    except UnreadableJson as error:
        return {"file": name, "status": "invalid", "error": str(error)}
    return {"file": name, **_check(data)}


def _problem(record: dict[str, Any]) -> str:
    """What is wrong with a record that does not conform, in one line."""
    if record["status"] == "invalid":
        # Without a path the reader's own words ("not JSON", "more than ...") say it all.
        return (
            f"invalid at {record['path']}: {record['error']}"
            if "path" in record
            else record["error"]
        )
    return f"does not conform at {record['message']}"


def _text(record: dict[str, Any]) -> str:
    name = record["file"]
    if record["status"] == "conforms":
        ending = record["ending"] or "not ended"
        notes = "".join(f" ({note})" for note in record.get("notes", []))
        return printable(f"{name}: conforms ({record['actions']} actions, {ending}){notes}")
    return printable(f"{name}: {_problem(record)}")


@define
class _Group:
    count: int
    line: int
    message: str


@define
class _Summary:
    """The tally of a JSON-lines log: totals, and per rule ID the count and first example."""

    file: str
    transcripts: int = 0
    conforming: int = 0
    diverging: int = 0
    invalid: int = 0
    groups: dict[str, _Group] = field(factory=dict)

    def add(self, line: int, record: dict[str, Any]) -> None:
        self.transcripts += 1
        if record["status"] == "conforms":
            self.conforming += 1
            return
        if record["status"] == "invalid":
            self.invalid += 1
            key = "invalid"
        else:
            self.diverging += 1
            key = record["divergence"]["rule"]
        group = self.groups.get(key)
        if group is None:
            self.groups[key] = _Group(1, line, _problem(record))
        else:
            group.count += 1

    @property
    def status(self) -> str:
        if self.invalid:
            return "invalid"
        return "diverges" if self.diverging else "conforms"

    def to_json(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "status": self.status,
            "transcripts": self.transcripts,
            "conforming": self.conforming,
            "diverging": self.diverging,
            "invalid": self.invalid,
            "by_rule": [
                {"rule": key, "count": g.count, "first_line": g.line, "first_message": g.message}
                for key, g in sorted(self.groups.items(), key=lambda item: -item[1].count)
            ],
        }

    def rejection(self) -> str:
        """The first invalid line, and how many there are (the summary has the rest)."""
        group = self.groups["invalid"]
        where = f"line {group.line}: " if group.line else ""
        more = f" ({self.invalid} invalid lines)" if self.invalid > 1 else ""
        return printable(f"{self.file}: {where}{group.message}{more}")

    def text(self) -> str:
        rows = [
            f"{self.file}: {self.transcripts} transcripts: {self.conforming} conform, "
            f"{self.diverging} diverge, {self.invalid} invalid"
        ]
        for key, group in sorted(self.groups.items(), key=lambda item: -item[1].count):
            where = f"line {group.line}: " if group.line else ""
            rows.append(f"  {key}: {group.count} (first: {where}{group.message})")
        return "\n".join(printable(row) for row in rows)


_Line = tuple[int, bytes | dict[str, Any]]
"""A line's number, and its text to check or the record of a line refused unread."""


def _lines(stream: IO[bytes]) -> Iterator[_Line]:
    """Each non-blank line; a line is read only up to the bounded reader's size limit, the
    rest of a longer one is skipped unread."""
    limit = bounded.LIMITS.max_bytes
    number = 0
    while raw := stream.readline(limit + 1):
        number += 1
        if len(raw) > limit and not raw.endswith(b"\n"):
            while (rest := stream.readline(limit)) and not rest.endswith(b"\n"):
                pass
            yield number, {"status": "invalid", "error": f"more than {limit} bytes"}
            continue
        if raw.strip():
            yield number, raw.rstrip(b"\r\n")


def _line_record(line: _Line) -> tuple[int, dict[str, Any]]:
    """The record of one line (run by the workers)."""
    number, text = line
    if isinstance(text, dict):
        return number, text
    try:
        data = bounded.parse(text)
    except bounded.Refused as error:
        # The line number is the log's; the reader's own is always 1 here.
        return number, {"status": "invalid", "error": error.message}
    return number, _check(data)


@define
class _Run:
    """What every file of one command shares: the workers, and the shard's count of items
    (a single-transcript file or a non-blank line of a log) in input order."""

    workers: Workers
    shard: Shard
    items: int = 0

    def owns(self, _: object) -> bool:
        self.items += 1
        return self.shard.owns(self.items - 1)


def _check_log(name: str, run: _Run) -> _Summary:
    summary = _Summary("standard input" if name == "-" else name)
    try:
        if name == "-":
            _tally(summary, sys.stdin.buffer, run)
        else:
            with open(name, "rb") as stream:
                _tally(summary, stream, run)
    except OSError as error:
        # Line 0: the file itself, not one of its lines.
        summary.add(0, {"status": "invalid", "error": f"cannot read: {error.strerror}"})
    return summary


def _tally(summary: _Summary, stream: IO[bytes], run: _Run) -> None:
    for number, record in run.workers.map(_line_record, filter(run.owns, _lines(stream))):
        summary.add(number, record)


def _is_log(name: str, jsonl: bool) -> bool:
    return jsonl or name == "-" or name.endswith(".jsonl")


def run(args: argparse.Namespace) -> int:
    """Check every file and report."""
    statuses: set[str] = set()
    records: list[dict[str, Any]] = []
    with Workers(args.jobs or cores()) as workers:
        shared = _Run(workers, args.shard)
        # Consecutive single-transcript files go to the workers together.
        for logs, names in itertools.groupby(args.files, lambda name: _is_log(name, args.jsonl)):
            if logs:
                for name in names:
                    summary = _check_log(name, shared)
                    statuses.add(summary.status)
                    _emit(args.format, records, summary.to_json(), summary.text())
                    if summary.invalid:
                        _reject(summary.rejection())
                continue
            for record in workers.map(_check_file, filter(shared.owns, names)):
                statuses.add(record["status"])
                if record["status"] == "invalid":
                    _reject(_text(record))
                    if args.format == "json":
                        records.append(record)
                else:
                    _emit(args.format, records, record, _text(record))
    if args.format == "json":
        print(dump_json(records))
    if "invalid" in statuses:
        return 2
    return 1 if "diverges" in statuses else 0


def _emit(form: str, records: list[dict[str, Any]], record: dict[str, Any], text: str) -> None:
    """Print a text report at once (a long log's summary should not wait for later files);
    collect JSON records to print as one array."""
    if form == "json":
        records.append(record)
    else:
        print(text, flush=True)


def _reject(line: str) -> None:
    """A file or line that is not a transcript: one line on standard error."""
    print(f"gaple check: error: {line}", file=sys.stderr, flush=True)
