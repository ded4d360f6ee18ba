"""``gaple score``: the result of a finished position or of a finished hand's transcript.

The input is a JSON file (or ``-`` for standard input) holding either

* a transcript (the form of ``gaple play --format json``: ``rules``, ``deal``, ``actions``),
  which is replayed and scored; or
* a finished position: each seat's ``hands`` and ``discards``, the ``ends``, the ``ending``
  (``out`` or ``blocked``), ``out_seat`` or ``blocker``, optionally the ``line``; its rules
  come from its own ``rules`` object if present, else from ``--variant`` and ``--set``.

So a rules reader can check a table's score without replaying a hand.
"""

from __future__ import annotations

import argparse
from typing import Any

from gaple.cli.common import (
    UnreadableJson,
    UsageError,
    add_format,
    add_variant,
    dump_json,
    read_json,
    rules_from_args,
)
from gaple.io import (
    FormatError,
    position_from_json,
    result_to_json,
    rules_from_json,
    state_from_json,
)
from gaple.result import (
    HandResult,
    format_result,
    hand_result,
    score_position,
)

__all__ = ["register"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``score`` subcommand."""
    parser = subparsers.add_parser(
        "score", help="score a finished position or transcript given as JSON"
    )
    parser.add_argument("file", help="JSON file, or - for standard input")
    add_variant(parser)
    add_format(parser)
    parser.set_defaults(run=run)


def score_document(data: Any, args: argparse.Namespace) -> HandResult:
    """Score a transcript or a position document.

    Raises:
        FormatError: the document is malformed, at its JSON path.
        UsageError: a transcript whose hand has not ended.
    """
    if isinstance(data, dict) and "deal" in data:
        state = state_from_json(data)
        if not state.is_over:
            msg = f"the transcript stops before the hand ends: seat {state.to_act} is to act"
            raise UsageError(msg)
        return hand_result(state)
    if isinstance(data, dict) and "rules" in data:
        rules = rules_from_json(data["rules"], "$.rules")
    else:
        rules = rules_from_args(args)
    return score_position(position_from_json(rules, data))


def run(args: argparse.Namespace) -> int:
    """Score and print."""
    label = "standard input" if args.file == "-" else args.file
    try:
        data = read_json(args.file)
    except UnreadableJson as error:
        raise UsageError(f"{label}: {error}") from None
    try:
        result = score_document(data, args)
    except FormatError as error:
        raise UsageError(f"{label}: {error}") from None
    print(dump_json(result_to_json(result)) if args.format == "json" else format_result(result))
    return 0
