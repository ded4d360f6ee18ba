"""``gaple score``: the result of a finished position or of a finished hand's transcript.

The input is a JSON file (or ``-`` for standard input) holding either

* a transcript (the form of ``gaple play --format json``: ``rules``, ``deal``, ``actions``),
  which is replayed and scored; or
* a finished position: each seat's ``hands`` and ``discards``, the ``ends``, the ``ending``
  (``out`` or ``blocked``), ``out_seat`` or ``blocker``, optionally the ``line``; its rules
  come from its own ``rules`` object if present (the form of :func:`gaple.io.rules_to_json`;
  options left out take the :class:`gaple.rules.Ruleset` defaults), else from ``--variant``
  and ``--set``.

A document that carries its rules (every transcript, a position with ``rules``) is scored
under them alone: ``--variant`` or ``--set`` with it is a usage error rather than a silent
choice between two rulesets. A position no hand of its rules can reach is refused with the
rule that forbids it (``[block.pass] seat 1 discarded 2-3, but under the pass option nobody
discards``). So a rules reader can check a table's score without replaying a hand.
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
        "score",
        help="score a finished position or transcript given as JSON",
        description="Score a finished position or transcript. A transcript, or a position "
        "with its own 'rules' object, is scored under those rules, and --variant/--set are "
        "then refused; a position without 'rules' takes them from --variant and --set.",
    )
    parser.add_argument("file", help="JSON file, or - for standard input")
    add_variant(parser)
    # None tells "not given" from the default preset, so a document with its own rules can
    # refuse --variant instead of ignoring it; rules_from_args reads None as the default.
    parser.set_defaults(variant=None)
    add_format(parser)
    parser.set_defaults(run=run)


def score_document(data: Any, args: argparse.Namespace) -> HandResult:
    """Score a transcript or a position document.

    Raises:
        FormatError: the document is malformed, at its JSON path.
        UsageError: a transcript whose hand has not ended, or ``--variant``/``--set`` with a
            document that carries its own rules.
    """
    own_rules = isinstance(data, dict) and ("deal" in data or "rules" in data)
    if own_rules and (args.variant is not None or args.overrides):
        kind = "transcript" if "deal" in data else "position"
        msg = f"the {kind} carries its own rules; drop --variant and --set"
        raise UsageError(msg)
    if isinstance(data, dict) and "deal" in data:
        state = state_from_json(data)
        if not state.is_over:
            msg = f"the transcript stops before the hand ends: seat {state.to_act} is to act"
            raise UsageError(msg)
        return hand_result(state)
    if isinstance(data, dict) and "rules" in data:
        rules = rules_from_json(data["rules"], "$.rules")
        data = {key: value for key, value in data.items() if key != "rules"}
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
