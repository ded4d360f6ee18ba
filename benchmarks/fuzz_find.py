"""Seconds until the fuzzer's default run finds each seeded bug, per seed.

For each bug of ``examples/bugs/`` asked for (default: the rare ones) and each seed, runs
:func:`gaple.conformance.fuzz.fuzz` with its default settings (every preset, one job, 60 s:
the run the ci profile's guard makes) against ``examples/bugs/adapter.py --bug NAME`` and
prints the seconds and hands until the first disagreement, and the rule it names.
Measurements, never assertions (the ci profile of ``tests/test_conformance_fuzz.py`` asserts
the minute).

    python benchmarks/fuzz_find.py --seeds 5 --bug tie-on-pips
"""

from __future__ import annotations

import argparse
import functools
import sys
from pathlib import Path

from gaple.conformance.engines import SubprocessEngine
from gaple.conformance.fuzz import MAX_SECONDS, fuzz

ROOT = Path(__file__).resolve().parent.parent
BUGS = f"{sys.executable} {ROOT / 'examples' / 'bugs' / 'adapter.py'}"
RARE = (
    "tie-not-replayed",
    "first-dead-double-only",
    "rank-ignores-low-end",
    "discards-kill-doubles",
    "tie-on-pips",
    "top-closing-skips-dead",
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bug", action="append", help="a bug of examples/bugs (repeat)")
    parser.add_argument("--seeds", type=int, default=5)
    args = parser.parse_args(argv)
    print(f"seconds to the first disagreement (hands played), default run of {MAX_SECONDS:g} s")
    for bug in args.bug or RARE:
        cells = []
        make = functools.partial(SubprocessEngine, f"{BUGS} --bug {bug}")
        for seed in range(args.seeds):
            report = fuzz(make, seed=seed)
            found = report.finding
            if found is None or report.found_after is None:
                cells.append(f"not found ({report.played})")
            else:
                cells.append(
                    f"{report.found_after:.1f} ({report.played + 1}, {found.outcome.rule})"
                )
        print(f"{bug}: " + "; ".join(f"seed {n}: {c}" for n, c in enumerate(cells)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
