"""Play one Gaple hand step by step with the rules engine, printing each legal choice.

Run it with ``python examples/play_a_hand.py [VARIANT] [SEED]``. It shows the core loop every
bot or server needs: ask the spec for the legal moves, choose one, apply it, repeat until the
hand is over. The chooser here is "the heaviest tile first", a common beginner's heuristic.
"""

from __future__ import annotations

import sys

from gaple import Discard, Lead, Move, Pass, Place, apply, legal_moves, new_hand, ruleset
from gaple.deal import shuffle_deal


def weight(move: Move) -> int:
    """Prefer getting rid of heavy tiles: they count against you if the hand blocks."""
    if isinstance(move, Lead | Place | Discard):
        return move.tile.pips
    return 0


def main(variant: str = "pagat-4x7", seed: int = 1) -> None:
    """Play and print one hand of ``variant`` dealt from ``seed``."""
    rules = ruleset(variant)
    state = new_hand(rules, shuffle_deal(rules, seed))
    while moves := legal_moves(state):
        choice = max(moves, key=weight)
        options = ", ".join(str(m) for m in moves)
        note = "" if not isinstance(choice, Pass) else " (nothing fits)"
        print(f"seat {state.to_act} may: {options}\n  -> {choice}{note}")
        state = apply(state, choice)
    print(f"hand over: {state.ending.value if state.ending else '?'}, ends {state.ends}")
    for seat in range(rules.players):
        print(f"  seat {seat} keeps {' '.join(map(str, state.hand(seat))) or 'nothing'}")


if __name__ == "__main__":
    args = sys.argv[1:]
    main(args[0] if args else "pagat-4x7", int(args[1]) if len(args) > 1 else 1)
