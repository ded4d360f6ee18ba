"""Random hands per second: the oracle against a mutable reference engine and ``dominoes``.

For each preset, four engines play complete hands with uniformly random legal moves:

* ``oracle``: :func:`gaple.simulate.random_hand` (deal from a seed, then random legal moves
  played on bitsets, one state built at the end);
* ``stepwise``: the same hands through the public step API, one immutable state per action:
  :func:`~gaple.deal.shuffle_deal`, :func:`~gaple.state.new_hand`, then
  :func:`~gaple.state.legal_moves` and :func:`~gaple.state.apply` (which checks each move);
* ``reference``: ``reference_engine.py`` beside this file, a plain mutable engine with no
  validation that plays the same hands from the same seeds (the ceiling for pure Python);
* ``dominoes``: the PyPI ``dominoes`` package, only where its rules fit (four seats of seven
  tiles, a stuck seat passes, 0-0 opens); it deals and plays from :mod:`random`.

They run in interleaved rounds, in a rotating order, so that machine noise (other processes,
frequency scaling) falls on all alike; each figure is total hands over total time, and
the ratios are to the oracle. ``--exhaustive`` also times the double-3 exhaustive checks of
``tests/test_exhaustive.py`` (a few minutes). Measurements, never assertions.

    python benchmarks/hands_per_second.py --seconds 2 --rounds 20 --preset domino4d
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path

from gaple.deal import SplitMix64, shuffle_deal
from gaple.presets import PRESETS
from gaple.rules import BlockedAction, LeadRule, Ruleset
from gaple.simulate import random_hand
from gaple.state import apply, legal_moves, new_hand

sys.path.insert(0, str(Path(__file__).resolve().parent))
import reference_engine

try:
    import dominoes
except ImportError:  # an optional peer: the column says so
    dominoes = None

ROOT = Path(__file__).resolve().parent.parent

Player = Callable[[int], int]
"""Plays the hand of a seed and returns its number of actions."""


def oracle_player(rules: Ruleset) -> Player:
    return lambda seed: len(random_hand(rules, seed).history)


def stepwise_player(rules: Ruleset) -> Player:
    def play(seed: int) -> int:
        state = new_hand(rules, shuffle_deal(rules, seed))
        rng = SplitMix64(seed + 1)
        while moves := legal_moves(state):
            state = apply(state, moves[rng.below(len(moves))])
        return len(state.history)

    return play


def reference_player(rules: Ruleset) -> Player:
    table = reference_engine.Table(rules)
    return lambda seed: len(reference_engine.play(table, seed).history)


def dominoes_fits(rules: Ruleset) -> bool:
    """Whether the ``dominoes`` package plays these rules (see examples/dominoes_adapter.py)."""
    return (
        dominoes is not None
        and (rules.max_pip, rules.players, rules.hand_size) == (6, 4, 7)
        and rules.blocked_action is BlockedAction.PASS
        and rules.first_lead is LeadRule.DOUBLE_BLANK
        and not rules.forbidden_leads
    )


def dominoes_player() -> Player:
    assert dominoes is not None
    double_blank = dominoes.Domino(0, 0)

    # Seeded once: reseeding the Mersenne Twister for every hand would cost it about 3%.
    random.seed(0)

    def play(seed: int) -> int:  # noqa: ARG001  # dominoes draws from the random module
        game = dominoes.Game.new(starting_domino=double_blank)
        while game.result is None:
            game.make_move(*random.choice(game.valid_moves))
        return len(game.moves)

    return play


def measure(
    players: Mapping[str, Callable[[int], object]], seconds: float, rounds: int
) -> dict[str, float]:
    """Calls per second of each player (given the call number, e.g. a seed), over ``rounds``
    interleaved slices."""
    hands = dict.fromkeys(players, 0)
    elapsed = dict.fromkeys(players, 0.0)
    names = list(players)
    slice_ = seconds / rounds
    for r in range(rounds):
        for name in names[r % len(names) :] + names[: r % len(names)]:
            play = players[name]
            seed = hands[name]
            start = time.perf_counter()
            deadline = start + slice_
            while True:
                play(seed)
                seed += 1
                now = time.perf_counter()
                if now >= deadline:
                    break
            hands[name] = seed
            elapsed[name] += now - start
    return {name: hands[name] / elapsed[name] for name in names}


def exhaustive_seconds() -> float:
    """Wall time of the double-3 exhaustive checks, run by pytest under the ci profile."""
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-k", "double_3", "tests/test_exhaustive.py"],
        cwd=ROOT,
        env={**os.environ, "HYPOTHESIS_PROFILE": "ci"},
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Random hands per second of gaple's oracle and of its peers, per preset."
    )
    parser.add_argument(
        "--seconds", type=float, default=3.0, help="time per engine and preset (default 3)"
    )
    parser.add_argument(
        "--rounds", type=int, default=15, help="interleaved rounds per preset (default 15)"
    )
    parser.add_argument(
        "--preset",
        action="append",
        choices=sorted(PRESETS),
        help="measure only this preset (repeatable; default: every preset)",
    )
    parser.add_argument(
        "--exhaustive",
        action="store_true",
        help="also time the double-3 exhaustive checks (minutes)",
    )
    args = parser.parse_args(argv)
    if args.seconds <= 0:
        parser.error(f"--seconds must be positive, got {args.seconds}")
    if args.rounds < 1:
        parser.error(f"--rounds must be at least 1, got {args.rounds}")
    names = args.preset or list(PRESETS)
    print(f"random hands per second; ratios to the oracle; {args.rounds} interleaved rounds")
    peers = ("stepwise", "reference", "dominoes")
    print(f"{'preset':<20} {'oracle':>8}" + "".join(f" {peer:>16}" for peer in peers))
    for name in names:
        rules = PRESETS[name].rules
        players = {
            "oracle": oracle_player(rules),
            "stepwise": stepwise_player(rules),
            "reference": reference_player(rules),
        }
        if dominoes_fits(rules):
            players["dominoes"] = dominoes_player()
        rates = measure(players, args.seconds, args.rounds)
        base = rates["oracle"]
        cells = [
            f"{rates[peer]:>7.0f} ({rates[peer] / base:>4.2f}x)" if peer in rates else "-"
            for peer in peers
        ]
        print(f"{name:<20} {base:>8.0f}" + "".join(f" {cell:>16}" for cell in cells))
    if args.exhaustive:
        print(f"exhaustive double-3 checks: {exhaustive_seconds():.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
