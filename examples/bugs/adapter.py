"""Protocol v1 adapter for the seeded-bug engines: ``python examples/bugs/adapter.py --bug NAME``.

Each bug is the example engine (``examples/engine``) with one method changed, in its own
module whose docstring names the rule it breaks. The conformance runner should catch every
one of them; ``--list`` prints the bugs and their rule IDs.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

# examples/ holds the ``bugs`` package; examples/engine goes first so that ``adapter`` is the
# engine's adapter, not this file.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "engine"))

from adapter import Session, serve
from gaple_engine import Game

from bugs import (
    blank_double_never_blocks,
    blocked_on_first_pass,
    blocking_six_forfeited,
    blocking_six_wins,
    discards_kill_doubles,
    discards_not_counted,
    first_dead_double_only,
    low_end_flipped_after_discard,
    opener_ignored,
    pass_while_placement_exists,
    play_after_end,
    rank_ignores_low_end,
    tie_not_replayed,
    tie_on_pips,
    ties_by_seat,
    top_closing_skips_dead,
    wrong_end,
)

BUGS: dict[str, tuple[type[Game], str]] = {
    "pass-while-placement-exists": (
        pass_while_placement_exists.Engine,
        pass_while_placement_exists.RULE,
    ),
    "blocked-on-first-pass": (blocked_on_first_pass.Engine, blocked_on_first_pass.RULE),
    "discards-not-counted": (discards_not_counted.Engine, discards_not_counted.RULE),
    "ties-by-seat": (ties_by_seat.Engine, ties_by_seat.RULE),
    "wrong-end": (wrong_end.Engine, wrong_end.RULE),
    "opener-ignored": (opener_ignored.Engine, opener_ignored.RULE),
    "play-after-end": (play_after_end.Engine, play_after_end.RULE),
    # Rare paths: each changes fewer than 1 in 100 random hands of its variant (rates.py).
    "tie-not-replayed": (tie_not_replayed.Engine, tie_not_replayed.RULE),
    "first-dead-double-only": (first_dead_double_only.Engine, first_dead_double_only.RULE),
    "rank-ignores-low-end": (rank_ignores_low_end.Engine, rank_ignores_low_end.RULE),
    # Rare combinations of two situations: each changes about 1 random hand in 1,000, and only
    # under one option value (its module's docstring names it).
    "top-closing-skips-dead": (top_closing_skips_dead.Engine, top_closing_skips_dead.RULE),
    "discards-kill-doubles": (discards_kill_doubles.Engine, discards_kill_doubles.RULE),
    "tie-on-pips": (tie_on_pips.Engine, tie_on_pips.RULE),
    # Rare combinations of two situations inside one preset's own rules (no option changed):
    # each changes under 1 random hand in 100 of its preset (its module's docstring names the
    # preset and the two cells).
    "blocking-six-forfeited": (blocking_six_forfeited.Engine, blocking_six_forfeited.RULE),
    "low-end-flipped-after-discard": (
        low_end_flipped_after_discard.Engine,
        low_end_flipped_after_discard.RULE,
    ),
    "blank-double-never-blocks": (
        blank_double_never_blocks.Engine,
        blank_double_never_blocks.RULE,
    ),
    "blocking-six-wins": (blocking_six_wins.Engine, blocking_six_wins.RULE),
}
"""Every seeded bug: its engine class and the rule ID it breaks."""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bug", choices=sorted(BUGS), help="the bug to seed")
    parser.add_argument("--list", action="store_true", help="list the bugs and exit")
    args = parser.parse_args(argv)
    if args.list:
        for name, (_, rule) in sorted(BUGS.items()):
            print(f"{name}\t{rule}")
        return 0
    if args.bug is None:
        parser.error("give --bug NAME (or --list)")
    engine, _ = BUGS[args.bug]
    serve(Session(engine, name=f"example-engine-bug-{args.bug}"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
