"""``gaple check``: replay transcripts recorded by another implementation against the spec.

A FILE holds one transcript (JSON), or one transcript per line (JSON lines) when its name ends
in ``.jsonl``, when ``--jsonl`` is given, or when it is ``-`` (standard input). A JSON-lines
log is read a block of whole lines at a time (``BLOCK``, 1 MiB), so a log of any length is
checked in constant memory, and is reported as a summary: the count of each rule broken with
its first example, and the totals.

Exit status: 0 when every transcript conforms, 1 when one does not, 2 when a file or a line
cannot be read or is not a transcript (one line on standard error gives its line or the JSON
path of the problem, and the hint to pass ``--jsonl`` for a file whose first line alone is JSON;
checking goes on with the next line or file). Every file and line is read
by the bounded reader (:mod:`gaple.conformance.wire.bounded`), whose limits are refused likewise.

``--jobs N`` checks on N worker processes (default: every core) once the input is longer than
one batch, with the same output in the same order; ``--shard I/N`` checks only the transcripts
numbered k with k % N == I - 1, counting single-transcript files and log lines together in
input order (:mod:`gaple.cli.sharding`). With ``--format json`` a shard's records carry
``"shard": {"index", "count", "items"}`` (items: the transcripts of the whole input) and
``"item"`` (a file's transcript number, or a log's first line's), and every shard writes every
log's summary: ``gaple conformance merge`` joins the reports of shards 1/N..N/N into exactly
the report of the unsharded run (:func:`gaple.conformance.runner.merging.merge_shards`).
"""

from __future__ import annotations

import argparse
import itertools
import sys
from collections.abc import Iterable, Iterator
from typing import IO, Any, TypeAlias

from attrs import define

from gaple.cli.common import UnreadableJson, add_format, dump_json, read_json
from gaple.cli.sharding import ALL, Shard, Workers, add_jobs_and_shard, cores
from gaple.conformance.checker.transcript import check_transcript
from gaple.conformance.runner.merging import LogSummary, overall, problem
from gaple.conformance.wire import bounded
from gaple.conformance.wire.escape import printable
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
        return {"file": name, "status": "invalid", "error": f"{error}{_jsonl_hint(name)}"}
    return {"file": name, **_check(data)}


def _jsonl_hint(name: str) -> str:
    """A hint to pass ``--jsonl`` for a file whose first line is a JSON document on its own:
    a JSON-lines log read as one document fails at its second line ("Extra data") or at the
    size limit, which does not say how to read it."""
    try:
        # Opened as a regular file only: a FIFO already read would wait for a writer forever.
        with bounded.open_regular(name) as stream:
            bounded.parse(stream.readline(bounded.LIMITS.max_bytes + 1))
    except (OSError, bounded.Refused):
        return ""
    return "; it looks like JSON lines (one transcript a line): pass --jsonl"


def _text(record: dict[str, Any]) -> str:
    name = record["file"]
    if record["status"] == "conforms":
        ending = record["ending"] or "not ended"
        notes = "".join(f" ({note})" for note in record.get("notes", []))
        return printable(f"{name}: conforms ({record['actions']} actions, {ending}){notes}")
    return printable(f"{name}: {problem(record)}")


_Line: TypeAlias = tuple[int, bytes | dict[str, Any]]
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


def _check_log(name: str, run: _Run) -> LogSummary:
    summary = LogSummary("standard input" if name == "-" else name)
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


def _tally(summary: LogSummary, stream: IO[bytes], run: _Run) -> None:
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


BLOCK = 2**20
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
