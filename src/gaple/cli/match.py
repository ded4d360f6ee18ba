"""``gaple match``: play a whole match with seeded random legal moves and print each hand."""

from __future__ import annotations

import argparse

from gaple.cli.common import UsageError, add_format, add_variant, dump_json, rules_from_args
from gaple.io import match_to_json
from gaple.match import MatchTooLong, format_match, play_match

__all__ = ["register"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``match`` subcommand."""
    parser = subparsers.add_parser(
        "match", help="play a whole match with seeded random legal moves and print the results"
    )
    add_variant(parser)
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals and the moves")
    parser.add_argument(
        "--hands", action="store_true", help="print every hand's full result, not one line"
    )
    parser.add_argument(
        "--max-hands", type=int, default=1000, help="give up after this many deals (1000)"
    )
    add_format(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Play and print one match."""
    rules = rules_from_args(args)
    if args.max_hands < 1:
        msg = f"--max-hands must be at least 1, got {args.max_hands}"
        raise UsageError(msg)
    try:
        _, match = play_match(rules, args.seed, max_hands=args.max_hands)
    except MatchTooLong as error:
        raise UsageError(str(error)) from None
    print(
        dump_json(match_to_json(match))
        if args.format == "json"
        else format_match(match, hands=args.hands)
    )
    return 0
