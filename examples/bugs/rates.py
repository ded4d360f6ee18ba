"""How rare is a seeded bug? ``python examples/bugs/rates.py --bug NAME --variant V [--set K=V]``.

Plays seeded random hands (:func:`gaple.simulate.random_hand`, seeds 0..N-1; with
``--later``, later hands of a match, led by the later-hand rule) on the example engine and on
the seeded-bug engine, in process through the adapter's session, and counts the hands in
which the bug changes a reply: to a move, a state after some step, or the result.

With ``--cell "F=v & G=w"`` (a pair cell of :mod:`gaple.conformance.vectors.situations`) it also
counts the hands that reach the cell and how many of the changed hands lie outside it: a bug
seeded in a combination of two situations changes only hands of its cell.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "engine"))

from adapter import BadRequest, Session

from bugs.adapter import BUGS
from gaple.conformance.vectors.situations import features_of, value_key
from gaple.deal import SplitMix64, shuffle_deal
from gaple.io import deal_to_json, rules_to_json
from gaple.presets import ruleset
from gaple.simulate import play_out, random_hand
from gaple.state import new_hand


def replies(session: Session, start: dict[str, Any], moves: list[tuple[int, str]]) -> list[Any]:
    """Everything the engine answers while the hand is replayed: each reply to a move and the
    state after it, then the result."""

    def ask(request: dict[str, Any]) -> Any:
        try:
            return session.handle(request)
        except BadRequest as error:  # e.g. a result asked for a hand the engine has not ended
            return {"type": "error", "message": str(error)}

    ask(start)
    seen = [ask({"type": "state"})]
    for seat, move in moves:
        seen += [ask({"type": "act", "seat": seat, "move": move}), ask({"type": "state"})]
    seen.append(ask({"type": "result"}))
    return seen


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bug", choices=sorted(BUGS), required=True)
    parser.add_argument("--variant", default="pagat-4x7")
    parser.add_argument("--set", action="append", default=[], metavar="OPTION=JSON")
    parser.add_argument("--hands", type=int, default=5000)
    parser.add_argument("--later", action="store_true", help="later hands, not first hands")
    parser.add_argument("--cell", help='a pair cell, "F=v & G=w": count its hands too')
    args = parser.parse_args(argv)
    cell = set() if args.cell is None else {part.strip() for part in args.cell.split("&")}
    overrides = {k: json.loads(v) for k, v in (item.split("=", 1) for item in args.set)}
    rules = ruleset(args.variant, **overrides)
    correct, buggy = Session(), Session(BUGS[args.bug][0])
    changed = reached = outside = 0
    for seed in range(args.hands):
        if args.later:
            start_state = new_hand(rules, shuffle_deal(rules, seed), first_hand=False)
            state = play_out(start_state, SplitMix64(seed + 1))
        else:
            state = random_hand(rules, seed)
            start_state = new_hand(rules, state.deal, first_hand=True)
        start = {
            "type": "start",
            "rules": rules_to_json(rules),
            "deal": deal_to_json(state.deal),
            "first_hand": state.first_hand,
        }
        moves = [(a.seat, str(a.move)) for a in state.history]
        differs = replies(correct, start, moves) != replies(buggy, start, moves)
        changed += differs
        if cell:
            values = {value_key(k, v) for k, v in features_of(start_state, state).items()}
            inside = cell <= values
            reached += inside
            outside += differs and not inside
    which = "later" if args.later else "first"
    label = " ".join([args.variant, *args.set])
    print(f"{args.bug}: {changed} of {args.hands} {which} hands of {label} changed")
    if cell:
        print(f"  {reached} hands reach {args.cell}; {outside} changed hands lie outside it")
    return 0


if __name__ == "__main__":
    sys.exit(main())
