"""``gaple play``: deal from a seed, play one hand with random legal moves, narrate it."""

from __future__ import annotations

import argparse

from gaple.cli.common import add_format, add_variant, dump_json, rules_from_args
from gaple.deal import SplitMix64, shuffle_deal
from gaple.io import result_to_json, state_to_json
from gaple.result import format_result, hand_result
from gaple.state import Ending, State, apply, legal_moves, new_hand

__all__ = ["line_text", "narrate", "register"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``play`` subcommand."""
    parser = subparsers.add_parser(
        "play", help="play one hand with seeded random legal moves and print it"
    )
    add_variant(parser)
    parser.add_argument("--seed", type=int, default=1, help="seed of the deal and the moves")
    add_format(parser)
    parser.set_defaults(run=run)


def line_text(state: State) -> str:
    """The line as tiles laid end to end, e.g. ``[0|0][0|3][3|5]``."""
    return "".join(f"[{left}|{right}]" for left, right in state.line) or "(empty)"


def narrate(states: list[State]) -> str:
    """A readable account of a hand: the deal, then one row per action with the line after it."""
    first, last = states[0], states[-1]
    rules = first.rules
    rows = [f"Deal ({rules.players} seats x {rules.hand_size} tiles):"]
    if not rules.sourced_deal:
        rows.insert(0, "Unsourced deal: no source describes it [deal.unsourced] (C27).")
    rows.extend(
        f"  seat {seat}: {' '.join(map(str, first.hand(seat)))}" for seat in range(rules.players)
    )
    if first.deal.starter is not None:
        aside = " ".join(map(str, first.deal.set_aside)) or "none"
        rows.append(f"  starter turned up: {first.deal.starter}; set aside: {aside}")
    rows.append(f"Seat {first.opener} opens.")
    rows.append(f"{'#':>3}  {'seat':<5} {'move':<20} {'ends':<7} line after the move")
    for number, after in enumerate(states[1:], start=1):
        action = after.history[-1]
        ends = "{}-{}".format(*after.ends) if after.ends else "-"
        move = str(action.move)
        rows.append(f"{number:>3}  {action.seat:<5} {move:<20} {ends:<7} {line_text(after)}")
    if last.ending is Ending.OUT:
        rows.append(f"Seat {last.out_seat} has no tiles left: the hand is over [end.out].")
    elif last.ending is Ending.BLOCKED:
        rows.append(f"No seat can place on {last.ends}: the hand is blocked [end.blocked].")
    rows.append("Left in hand (discards in parentheses):")
    for seat in range(rules.players):
        hand = " ".join(map(str, last.hand(seat))) or "-"
        discards = " ".join(map(str, last.discards(seat)))
        rows.append(f"  seat {seat}: {hand}" + (f" ({discards})" if discards else ""))
    return "\n".join(rows)


_RESULT_KEYS = ("counts", "winner", "winning_team", "points", "replay")
"""What a transcript records of the result (the transcript schema's ``result``), so that
``gaple check`` accepts the output; ``gaple score`` gives the ranking and the reasons."""


def run(args: argparse.Namespace) -> int:
    """Play and print one hand."""
    rules = rules_from_args(args)
    state = new_hand(rules, shuffle_deal(rules, args.seed))
    rng = SplitMix64(args.seed + 1)
    states = [state]
    while moves := legal_moves(state):
        state = apply(state, moves[rng.below(len(moves))])
        states.append(state)
    result = hand_result(state)
    if args.format == "json":
        transcript = state_to_json(state)
        summary = result_to_json(result)
        transcript["result"] = {key: summary[key] for key in _RESULT_KEYS}
        print(dump_json(transcript))
    else:
        print(narrate(states))
        print("Result:")
        print("\n".join("  " + line for line in format_result(result).splitlines()))
    return 0
