"""The records of ``gaple check``, and the merge of the JSON reports of its shards.

``gaple check`` writes one record per single-transcript file and a :class:`LogSummary` per
JSON-lines log: the count of each rule broken with its first example, and the totals. A shard
(``--shard I/N --format json``) tags its records with ``"shard": {"index", "count", "items"}``
and ``"item"`` (a file's transcript number, or a log's first line's) and writes every log's
summary with its share of the lines; :func:`read_shard` reads such a report back, checked, and
:func:`merge_shards` joins the reports of shards 1/N..N/N into exactly the report of the
unsharded run (``gaple conformance merge``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from attrs import define, field

from gaple.conformance.runner.summary import BadReport, read_document, shard_positions
from gaple.conformance.wire import bounded
from gaple.conformance.wire.escape import printable

__all__ = ["LogSummary", "RuleTally", "merge_shards", "overall", "problem", "read_shard"]


def problem(record: dict[str, Any]) -> str:
    """What is wrong with a record that does not conform, in one line."""
    if record["status"] == "invalid":
        # Without a path the reader's own words ("not JSON", "more than ...") say it all.
        return (
            f"invalid at {record['path']}: {record['error']}"
            if "path" in record
            else record["error"]
        )
    return f"does not conform at {record['message']}"


@define
class RuleTally:
    """How many transcripts of a log break one rule (or are invalid), and the first of them:
    its line (0 for the file itself) and what is wrong with it."""

    count: int
    line: int
    message: str


@define
class LogSummary:
    """The tally of a JSON-lines log: totals, and per rule ID the count and first example."""

    file: str
    transcripts: int = 0
    conforming: int = 0
    diverging: int = 0
    invalid: int = 0
    groups: dict[str, RuleTally] = field(factory=dict)

    def add_conforming(self, count: int) -> None:
        """Count ``count`` transcripts that conform."""
        self.transcripts += count
        self.conforming += count

    def add(self, line: int, record: dict[str, Any]) -> None:
        """Count the transcript of line ``line`` (0: the file itself) by its record."""
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
            self.groups[key] = RuleTally(1, line, problem(record))
        else:
            group.count += 1

    @property
    def status(self) -> str:
        """The log's status: ``invalid`` over ``diverges`` over ``conforms``."""
        if self.invalid:
            return "invalid"
        return "diverges" if self.diverging else "conforms"

    def to_json(self) -> dict[str, Any]:
        """The summary record, as ``gaple check --format json`` writes it."""
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
        """The summary as ``gaple check`` prints it: the totals, then a row per rule."""
        rows = [
            f"{self.file}: {self.transcripts} transcripts: {self.conforming} conform, "
            f"{self.diverging} diverge, {self.invalid} invalid"
        ]
        for key, group in self._by_count():
            where = f"line {group.line}: " if group.line else ""
            rows.append(f"  {key}: {group.count} (first: {where}{group.message})")
        return "\n".join(printable(row) for row in rows)

    @classmethod
    def from_json(cls, record: dict[str, Any]) -> LogSummary:
        """The tally of a summary record (as :meth:`to_json` writes it)."""
        summary = cls(
            record["file"],
            record["transcripts"],
            record["conforming"],
            record["diverging"],
            record["invalid"],
        )
        for group in record["by_rule"]:
            summary.groups[group["rule"]] = RuleTally(
                group["count"], group["first_line"], group["first_message"]
            )
        return summary

    def join(self, other: LogSummary) -> None:
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
                self.groups[key] = RuleTally(theirs.count, theirs.line, theirs.message)
                continue
            mine.count += theirs.count
            if _found(theirs) < _found(mine):
                mine.line, mine.message = theirs.line, theirs.message

    def _by_count(self) -> list[tuple[str, RuleTally]]:
        """The groups, most frequent first, ties in the order they were found."""
        return sorted(self.groups.items(), key=lambda item: (-item[1].count, _found(item[1])))


def _found(group: RuleTally) -> tuple[bool, int]:
    """When a group's first example is found in a pass over its log: in line order, and the
    file's own error (line 0) after every line, since it is added once they are read."""
    return group.line == 0, group.line


def _unreadable(summary: LogSummary) -> bool:
    """Whether the tally holds the file's own error (it cannot be read)."""
    group = summary.groups.get("invalid")
    return group is not None and group.line == 0


_REPORT_LIMITS = bounded.Limits(max_bytes=256 * 2**20, max_depth=40, max_items=2**24)
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
        wrong = _shard_problem(record)
        if wrong is not None:
            msg = f"{name}: $[{n}]: {wrong}"
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
    summary = LogSummary.from_json(record)
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
    summaries: list[LogSummary | None] = [None] * len(logs)
    for name, records in named.values():
        before = 0
        for record in records:
            if "by_rule" not in record:
                files[before].append((name, record))
                continue
            summary = LogSummary.from_json(record)
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
