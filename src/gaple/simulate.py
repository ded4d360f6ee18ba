"""Random play: finish a hand with uniformly random legal moves, reproducibly from a seed.

Used by the command line, the benchmarks and the property tests. The choice at each step is
``legal_moves(state)[rng.below(len(moves))]`` with a :class:`~gaple.deal.SplitMix64`, so any
implementation can replay a seeded game move for move.
"""

from __future__ import annotations

from gaple.deal import SplitMix64, shuffle_with_hands
from gaple.engine.play import run, start
from gaple.rules import Ruleset
from gaple.state import Move, State

__all__ = ["play_out", "random_hand"]


def play_out(state: State, rng: SplitMix64) -> State:
    """Play random legal moves until the hand ends."""
    draw = rng.next  # rng.below(n) is draw() % n, one call fewer

    def pick(moves: tuple[Move, ...], _seat: int) -> Move:
        return moves[draw() % len(moves)]

    # Moves legal_moves produced need no checking, and no state between the first and the
    # last is built: run plays on bitsets.
    return run(state, pick)


def random_hand(rules: Ruleset, seed: int) -> State:
    """Deal from ``seed`` (:func:`~gaple.deal.shuffle_deal`) and play it out with random moves.

    The moves are drawn from a second generator seeded with ``seed + 1``, so the deal of a
    seed does not depend on how long the hand lasts.
    """
    # A shuffled deal fits the rules by construction: no need for new_hand's validation.
    deal, hands = shuffle_with_hands(rules, seed)
    state = start(rules, deal, hands, first_hand=True)
    return play_out(state, SplitMix64(seed + 1))
