"""How many complete random hands per second the rules engine plays, for each preset.

Each hand is dealt by ``shuffle_deal`` from a new seed and played to its end with uniformly
random legal moves (``gaple.simulate.random_hand``), so the figure covers dealing, move
generation, validation and applying moves. It is a measurement, not a test: nothing is
asserted.

    python benchmarks/hands_per_second.py --seconds 1
"""

from __future__ import annotations

import argparse
import time

from gaple.presets import PRESETS
from gaple.simulate import random_hand


def hands_per_second(name: str, seconds: float) -> tuple[int, float, float]:
    """Play random hands of preset ``name`` for about ``seconds``.

    Returns the number of hands, the elapsed time, and the mean number of actions per hand.
    """
    rules = PRESETS[name].rules
    hands = actions = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        actions += len(random_hand(rules, hands).history)
        hands += 1
        now = time.perf_counter()
        if now >= deadline:
            return hands, now - start, actions / hands


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Complete random hands per second for each preset of gaple."
    )
    parser.add_argument(
        "--seconds",
        type=float,
        default=1.0,
        help="time spent on each preset (default 1)",
    )
    parser.add_argument(
        "--preset",
        action="append",
        choices=sorted(PRESETS),
        help="measure only this preset (repeatable; default: every preset)",
    )
    args = parser.parse_args(argv)
    if args.seconds <= 0:
        parser.error(f"--seconds must be positive, got {args.seconds}")
    names = args.preset or list(PRESETS)
    print(f"{'preset':<20} {'hands/s':>9} {'actions/s':>10} {'actions/hand':>13}")
    for name in names:
        hands, elapsed, mean_actions = hands_per_second(name, args.seconds)
        rate = hands / elapsed
        print(f"{name:<20} {rate:>9.0f} {rate * mean_actions:>10.0f} {mean_actions:>13.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
