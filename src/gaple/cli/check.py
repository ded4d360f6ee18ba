"""``gaple check``: replay transcripts recorded by another implementation against the spec.

Exit status: 0 when every transcript conforms, 1 when one does not, 2 when a file cannot be
read or is not a transcript (the message gives the JSON path of the problem).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from gaple.cli.common import UnreadableJson, add_format, dump_json, read_json
from gaple.conformance.transcript import Verdict, check_transcript
from gaple.io import FormatError

__all__ = ["register"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``check`` subcommand."""
    parser = subparsers.add_parser(
        "check", help="replay transcripts from another implementation and report divergences"
    )
    parser.add_argument("files", nargs="+", type=Path, metavar="FILE", help="transcript files")
    add_format(parser)
    parser.set_defaults(run=run)


def _check(path: Path) -> dict[str, Any]:
    try:
        data = read_json(str(path))
    except UnreadableJson as error:
        return {"file": str(path), "status": "invalid", "error": str(error)}
    try:
        verdict: Verdict = check_transcript(data)
    except FormatError as error:
        return {"file": str(path), "status": "invalid", "path": error.path, "error": error.message}
    record: dict[str, Any] = {
        "file": str(path),
        "status": "conforms" if verdict.conforms else "diverges",
        "actions": verdict.actions,
        "ending": verdict.ending,
    }
    if verdict.divergence is not None:
        record["divergence"] = verdict.divergence.to_json()
    if verdict.notes:
        record["notes"] = list(verdict.notes)
    return record


def _text(record: dict[str, Any]) -> str:
    name = record["file"]
    if record["status"] == "invalid":
        where = f" at {record['path']}" if "path" in record else ""
        return f"{name}: invalid{where}: {record['error']}"
    if record["status"] == "conforms":
        ending = record["ending"] or "not ended"
        notes = "".join(f" ({note})" for note in record.get("notes", []))
        return f"{name}: conforms ({record['actions']} actions, {ending}){notes}"
    d = record["divergence"]
    where = f"step {d['step']}"
    if d["action"] is not None:
        where += f" (seat {d['seat']}: {d['action']})"
    else:
        where += f", {d['path']}"
    return (
        f"{name}: does not conform at {where}: rule {d['rule']}: the spec expects "
        f"{json.dumps(d['expected'])}, the transcript claims {json.dumps(d['claimed'])}"
    )


def run(args: argparse.Namespace) -> int:
    """Check every file and report."""
    records = [_check(path) for path in args.files]
    if args.format == "json":
        print(dump_json(records))
    else:
        for record in records:
            print(_text(record))
    statuses = {record["status"] for record in records}
    if "invalid" in statuses:
        return 2
    return 1 if "diverges" in statuses else 0
