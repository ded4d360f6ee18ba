"""``gaple check``: replay transcripts recorded by another implementation against the spec.

A FILE holds one transcript (JSON), or one transcript per line (JSON lines) when its name ends
in ``.jsonl``, when ``--jsonl`` is given, or when it is ``-`` (standard input). A JSON-lines
log is read a block of whole lines at a time (``BLOCK``, 1 MiB), so a log of any length is
checked in constant memory, and is reported as a summary: the count of each rule broken with
its first example, and the totals.

Exit status: 0 when every transcript conforms, 1 when one does not, 2 when a file or a line
cannot be read or is not a transcript (one line on standard error gives its line or the JSON
path of the problem; checking goes on with the next line or file). Every file and line is read
by the bounded reader (:mod:`gaple.conformance.bounded`), whose limits are refused likewise.

``--jobs N`` checks on N worker processes (default: every core) once the input is longer than
one batch, with the same output in the same order; ``--shard I/N`` checks only the transcripts
numbered k with k % N == I - 1, counting single-transcript files and log lines together in
input order (:mod:`gaple.cli.sharding`). With ``--format json`` a shard's records carry
``"shard": {"index", "count", "items"}`` (items: the transcripts of the whole input) and
``"item"`` (a file's transcript number, or a log's first line's), and every shard writes every
log's summary: ``gaple conformance merge`` (:func:`merge_shards`) joins the reports of shards
1/N..N/N into exactly the report of the unsharded run.
"""

from __future__ import annotations

import argparse
import itertools
import sys
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import IO, Any

from attrs import define, field

from gaple.cli.common import UnreadableJson, add_format, dump_json, read_json
from gaple.cli.sharding import ALL, Shard, Workers, add_jobs_and_shard, cores
from gaple.conformance import bounded
from gaple.conformance.escape import printable
from gaple.conformance.summary import BadReport, read_document, shard_positions
from gaple.conformance.transcript import check_transcript
from gaple.io import FormatError

__all__ = ["merge_shards", "overall", "read_shard", "register"]


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

    def add_conforming(self, count: int) -> None:
        """Count ``count`` transcripts that conform."""
        self.transcripts += count
        self.conforming += count

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
                for key, g in self._by_count()
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
        for key, group in self._by_count():
            where = f"line {group.line}: " if group.line else ""
            rows.append(f"  {key}: {group.count} (first: {where}{group.message})")
        return "\n".join(printable(row) for row in rows)

    @classmethod
    def from_json(cls, record: dict[str, Any]) -> _Summary:
        """The tally of a summary record (as :meth:`to_json` writes it)."""
        summary = cls(
            record["file"],
            record["transcripts"],
            record["conforming"],
            record["diverging"],
            record["invalid"],
        )
        for group in record["by_rule"]:
            summary.groups[group["rule"]] = _Group(
                group["count"], group["first_line"], group["first_message"]
            )
        return summary

    def join(self, other: _Summary) -> None:
        """Add the tally of another shard of the same log: counts summed, and per rule the
        first example found."""
        if _unreadable(self) and _unreadable(other):
            # Every shard counts the file it could not read: once is the truth.
            self.transcripts -= 1
            self.invalid -= 1
            self.groups["invalid"].count -= 1
        self.transcripts += other.transcripts
        self.conforming += other.conforming
        self.diverging += other.diverging
        self.invalid += other.invalid
        for key, theirs in other.groups.items():
            mine = self.groups.get(key)
            if mine is None:
                self.groups[key] = _Group(theirs.count, theirs.line, theirs.message)
                continue
            mine.count += theirs.count
            if _found(theirs) < _found(mine):
                mine.line, mine.message = theirs.line, theirs.message

    def _by_count(self) -> list[tuple[str, _Group]]:
        """The groups, most frequent first, ties in the order they were found."""
        return sorted(self.groups.items(), key=lambda item: (-item[1].count, _found(item[1])))


def _found(group: _Group) -> tuple[bool, int]:
    """When a group's first example is found in a pass over its log: in line order, and the
    file's own error (line 0) after every line, since it is added once they are read."""
    return group.line == 0, group.line


def _unreadable(summary: _Summary) -> bool:
    """Whether the tally holds the file's own error (it cannot be read)."""
    group = summary.groups.get("invalid")
    return group is not None and group.line == 0


_Line = tuple[int, bytes | dict[str, Any]]
"""A line's number, and its text to check or the record of a line refused unread."""


def _lines(stream: IO[bytes]) -> Iterator[_Line]:
    """Each non-blank line, for a shard to pick from (see :func:`_block_lines`)."""
    for block in _blocks(stream):
        yield from _block_lines(block)


def _line_record(line: _Line) -> tuple[int, dict[str, Any]]:
    """The record of one line (run by the workers)."""
    number, text = line
    return number, text if isinstance(text, dict) else _text_record(text)


def _text_record(text: bytes) -> dict[str, Any]:
    """The record of a line's text."""
    try:
        data = bounded.parse(text)
    except bounded.Refused as error:
        # The line number is the log's; the reader's own is always 1 here.
        return {"status": "invalid", "error": error.message}
    return _check(data)


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

    def take(self, names: Iterable[str]) -> list[tuple[int, str]]:
        """The files of ``names`` that are this shard's, with their item numbers."""
        numbered = list(enumerate(names, start=self.items))
        self.items += len(numbered)
        return [(k, name) for k, name in numbered if self.shard.owns(k)]


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
    if run.shard != ALL:
        # A shard takes lines by their number among every file's transcripts: counted here.
        for number, record in run.workers.map(_line_record, filter(run.owns, _lines(stream))):
            summary.add(number, record)
        return
    for transcripts, records in run.workers.map(_block_records, _blocks(stream), batch=1):
        run.items += transcripts
        summary.add_conforming(transcripts - len(records))
        for number, record in records:
            summary.add(number, record)


BLOCK = 1 << 20
"""Bytes of a log per task of the workers, ended at the next line's end (about 500 transcripts
of a double-six hand): the process that reads the log then hands on blocks, not lines."""

_Block = tuple[int, bytes]
"""The number of the line before a block's first, and its whole lines."""


def _blocks(stream: IO[bytes]) -> Iterator[_Block]:
    """The log in blocks of whole lines; a line over the bounded reader's size limit is kept
    only up to one byte past it (enough to refuse it), the rest skipped unread."""
    limit = bounded.LIMITS.max_bytes
    before = 0
    while block := stream.read(BLOCK):
        if not block.endswith(b"\n"):
            rest = stream.readline(limit + 1)
            if len(rest) > limit and not rest.endswith(b"\n"):
                while (more := stream.readline(limit)) and not more.endswith(b"\n"):
                    pass
            block += rest
        yield before, block
        before += block.count(b"\n") + (not block.endswith(b"\n"))


def _block_lines(block: _Block) -> Iterator[_Line]:
    """The non-blank lines of a block with their numbers: each one's text, or the record of a
    line refused unread, one of more than the bounded reader's size limit without its newline
    (:func:`_blocks` keeps such a line only up to one byte past the limit)."""
    before, text = block
    limit = bounded.LIMITS.max_bytes
    lines = text.split(b"\n")
    if not lines[-1]:
        lines.pop()  # the block ends with a newline, not with a line
    for number, raw in enumerate(lines, start=before + 1):
        if len(raw) > limit:
            yield number, {"status": "invalid", "error": f"more than {limit} bytes"}
        elif raw.strip():
            yield number, raw.rstrip(b"\r")


def _block_records(block: _Block) -> tuple[int, list[tuple[int, dict[str, Any]]]]:
    """The transcripts of a block (its non-blank lines) and the records of those that do not
    conform, each with its line's number (run by the workers)."""
    transcripts = 0
    records = []
    for number, record in map(_line_record, _block_lines(block)):
        transcripts += 1
        if record["status"] != "conforms":
            records.append((number, record))
    return transcripts, records


def _is_log(name: str, jsonl: bool) -> bool:
    return jsonl or name == "-" or name.endswith(".jsonl")


def run(args: argparse.Namespace) -> int:
    """Check every file and report."""
    statuses: set[str] = set()
    records: list[dict[str, Any]] = []
    # A shard's JSON report says which shard it is and what the merge needs to restore the
    # input order (gaple conformance merge); without --shard the report stays as it was.
    tagged = args.format == "json" and args.shard != ALL
    with Workers(args.jobs or cores()) as workers:
        shared = _Run(workers, args.shard)
        # Consecutive single-transcript files go to the workers together.
        for logs, names in itertools.groupby(args.files, lambda name: _is_log(name, args.jsonl)):
            if logs:
                for name in names:
                    item = shared.items
                    summary = _check_log(name, shared)
                    statuses.add(summary.status)
                    record = summary.to_json()
                    if tagged:
                        record["item"] = item
                    _emit(args.format, records, record, summary.text())
                    if summary.invalid:
                        _reject(summary.rejection())
                continue
            owned = shared.take(names)
            checked = workers.map(_check_file, [name for _, name in owned])
            for (item, _), record in zip(owned, checked, strict=True):
                if tagged:
                    record["item"] = item
                statuses.add(record["status"])
                if record["status"] == "invalid":
                    _reject(_text(record))
                    if args.format == "json":
                        records.append(record)
                else:
                    _emit(args.format, records, record, _text(record))
    if tagged:
        shard = {"index": args.shard.index, "count": args.shard.count, "items": shared.items}
        for record in records:
            record["shard"] = shard
    if args.format == "json":
        print(dump_json(records))
    return _EXIT[overall(statuses)]


_EXIT = {"conforms": 0, "diverges": 1, "invalid": 2}


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


# --- merging the JSON reports of shards (gaple conformance merge) ------------------------------


_REPORT_LIMITS = bounded.Limits(max_bytes=256 << 20, max_depth=40, max_items=1 << 24)
"""A report holds a record per file (a few hundred bytes each) quoting transcripts a few levels
deep: far more files than one document of the command line."""

_COUNTS = ("transcripts", "conforming", "diverging", "invalid")


def overall(statuses: Iterable[str]) -> str:
    """The status of a whole report: invalid over diverges over conforms."""
    found = set(statuses)
    return next((s for s in ("invalid", "diverges") if s in found), "conforms")


def read_shard(path: Path) -> list[dict[str, Any]]:
    """The records of the JSON report of one shard of ``gaple check``, checked.

    Raises:
        BadReport: the file cannot be read, is not JSON, or is not such a report.
    """
    name = str(path)
    data = read_document(path, _REPORT_LIMITS)
    if not isinstance(data, list):
        msg = f"{name}: not a report of gaple check (a JSON array of records)"
        raise BadReport(msg)
    for n, record in enumerate(data):
        problem = _shard_problem(record)
        if problem is not None:
            msg = f"{name}: $[{n}]: {problem}"
            raise BadReport(msg)
    return data


def _count(value: Any) -> bool:
    return type(value) is int and value >= 0


def _shard_problem(record: Any) -> str | None:
    """What keeps ``record`` from being a record of a shard's JSON report, if anything."""
    if not isinstance(record, dict) or not isinstance(record.get("file"), str):
        return "not a record of gaple check (an object with a 'file')"
    shard = record.get("shard")
    if not isinstance(shard, dict) or set(shard) != {"index", "count", "items"}:
        return "not a shard (no 'shard': run gaple check --shard I/N --format json)"
    if not all(_count(v) for v in shard.values()) or not 1 <= shard["index"] <= shard["count"]:
        return "'shard' is not {index, count, items} with 1 <= index <= count"
    item = record.get("item")
    if not _count(item):
        return "'item' is not the number of a transcript"
    if "by_rule" not in record:
        if item % shard["count"] != shard["index"] - 1:
            return f"'item' is not the number of a transcript of shard {shard['index']}"
        return None if record.get("status") in ("conforms", "diverges", "invalid") else "'status'"
    groups = record["by_rule"]
    if not all(_count(record.get(key)) for key in _COUNTS) or not isinstance(groups, list):
        return "a log's summary without its counts"
    for group in groups:
        if (
            not isinstance(group, dict)
            or set(group) != {"rule", "count", "first_line", "first_message"}
            or not isinstance(group["rule"], str)
            or not isinstance(group["first_message"], str)
            or not _count(group["first_line"])
            or not _count(group["count"])
            or not group["count"]
        ):
            return "'by_rule' is not a list of {rule, count, first_line, first_message}"
    summary = _Summary.from_json(record)
    counted = summary.conforming + summary.diverging + summary.invalid
    grouped = sum(group.count for group in summary.groups.values())
    if len(summary.groups) != len(groups) or counted != summary.transcripts:
        return "a log's counts that do not add up"
    if grouped != summary.diverging + summary.invalid or record["status"] != summary.status:
        return "a log's counts that do not add up"
    return None


def merge_shards(reports: Sequence[tuple[str, list[dict[str, Any]]]]) -> list[dict[str, Any]]:
    """The records ``gaple check --format json`` prints for the whole input, from the reports
    (file name and records, see :func:`read_shard`) of its shards 1/N to N/N in any order.

    A shard that owns no transcript of an input without logs prints ``[]``, which cannot say
    which shard it is: such a report stands for one of the shards no other report names.

    Raises:
        BadReport: shards of different counts or inputs, a shard given twice, or one missing.
    """
    given = [(name, records) for name, records in reports if records]
    empty = [name for name, records in reports if not records]
    for name, records in given:
        for n, record in enumerate(records):
            if record["shard"] != records[0]["shard"]:
                msg = f"{name}: $[{n}]: of another shard than $[0]"
                raise BadReport(msg)
    if not given:
        msg = f"{empty[0]}: an empty report, which cannot say which shard it is"
        raise BadReport(msg)
    positions = shard_positions([(name, records[0]["shard"]) for name, records in given])
    named = {index: given[k] for index, k in positions.items()}
    first, records = named[min(named)]
    count, items = records[0]["shard"]["count"], records[0]["shard"]["items"]
    missing = [str(index) for index in range(1, count + 1) if index not in named]
    if len(empty) > len(missing):
        msg = f"{empty[len(missing)]}: an empty report, but no shard of {count} is left for it"
        raise BadReport(msg)
    if len(empty) < len(missing):
        standing = f" ({len(empty)} empty reports stand for the others)" if empty else ""
        msg = f"shard {', '.join(missing)} of {count} missing{standing}"
        raise BadReport(msg)
    logs = _logs(records)
    for name, theirs in [*named.values(), *((name, []) for name in empty)]:
        if theirs and theirs[0]["shard"]["items"] != items:
            msg = (
                f"{name}: not over the same FILEs as {first} "
                f"({theirs[0]['shard']['items']} transcripts, not {items})"
            )
            raise BadReport(msg)
        if _logs(theirs) != logs:
            msg = f"{name}: not over the same FILEs as {first} (its logs differ)"
            raise BadReport(msg)
    return _join(named, logs, items)


def _logs(records: list[dict[str, Any]]) -> list[tuple[str, int]]:
    """Each log of a shard's input, and the number of its first line's transcript."""
    return [(record["file"], record["item"]) for record in records if "by_rule" in record]


def _join(
    named: dict[int, tuple[str, list[dict[str, Any]]]], logs: list[tuple[str, int]], items: int
) -> list[dict[str, Any]]:
    """Every shard's single-transcript files before each log, in item order, then the log's
    tallies joined; checked to hold every item of the input once."""
    files: list[list[tuple[str, dict[str, Any]]]] = [[] for _ in range(len(logs) + 1)]
    summaries: list[_Summary | None] = [None] * len(logs)
    for name, records in named.values():
        before = 0
        for record in records:
            if "by_rule" not in record:
                files[before].append((name, record))
                continue
            summary = _Summary.from_json(record)
            joined = summaries[before]
            if joined is None:
                summaries[before] = summary
            else:
                joined.join(summary)
            before += 1
    merged: list[dict[str, Any]] = []
    item = 0
    for before, singles in enumerate(files):
        for name, record in sorted(singles, key=lambda pair: int(pair[1]["item"])):
            if record["item"] != item:
                msg = (
                    f"{name}: transcript {record['item']} where {item} was expected: "
                    "the shards were not run over the same FILEs"
                )
                raise BadReport(msg)
            item += 1
            merged.append({k: v for k, v in record.items() if k not in ("shard", "item")})
        if before < len(logs):
            if logs[before][1] != item:
                msg = (
                    f"{logs[before][0]}: its first line is transcript {logs[before][1]}, where "
                    f"{item} was expected: the shards were not run over the same FILEs"
                )
                raise BadReport(msg)
            joined = summaries[before]
            assert joined is not None  # every shard writes every log's summary
            merged.append(joined.to_json())
            item += joined.transcripts - _unreadable(joined)
    if item != items:
        msg = f"the shards hold {item} transcripts of the {items} of their input"
        raise BadReport(msg)
    return merged
