"""Seconds until the fuzzer's default run finds each seeded bug, per seed.

For each bug of ``examples/bugs/`` asked for (default: the rare ones) and each seed, runs
:func:`gaple.conformance.fuzzer.fuzz.fuzz` with its default settings (every preset, one job, 60 s:
the run the ci profile's guard makes) against ``examples/bugs/adapter.py --bug NAME`` and
prints the seconds and hands until the first disagreement, and the rule it names.
Measurements, never assertions (the ci profile of ``tests/test_conformance_fuzz.py`` asserts
the minute).

With ``--exact`` the run is limited to one preset's exact rules: every option fixed to its
value there (what ``gaple conformance fuzz --variant P --set OPTION=VALUE ...`` with every
option does), the preset being ``--variant`` or, for the bugs seeded inside one preset's
rules, that preset (:data:`PRESET_OF`); the default bugs are then those.

    python benchmarks/fuzz_find.py --seeds 5 --bug tie-on-pips
    python benchmarks/fuzz_find.py --seeds 5 --exact --bug blocking-six-wins
"""

from __future__ import annotations

import argparse
import functools
import sys
from pathlib import Path

from gaple.conformance.fuzzer.fuzz import MAX_SECONDS, fuzz
from gaple.conformance.runner.engines import SubprocessEngine
from gaple.io import rules_to_json
from gaple.presets import find_preset

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
PRESET_OF = {
    "blocking-six-forfeited": "suwiki-partnership",
    "low-end-flipped-after-discard": "pagat-4x7",
    "blank-double-never-blocks": "pagat-5x5",
    "blocking-six-wins": "chips",
}
"""The bugs seeded in a combination of two rare situations of one preset's own rules, and
that preset (their modules' docstrings)."""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bug", action="append", help="a bug of examples/bugs (repeat)")
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--exact", action="store_true", help="fix every option to a preset's")
    parser.add_argument("--variant", help="with --exact: the preset (default: the bug's own)")
    args = parser.parse_args(argv)
    run = "one preset's exact rules" if args.exact else "default run"
    print(f"seconds to the first disagreement (hands played), {run} of {MAX_SECONDS:g} s")
    for bug in args.bug or (PRESET_OF if args.exact else RARE):
        cells = []
        make = functools.partial(SubprocessEngine, f"{BUGS} --bug {bug}")
        preset = (args.variant or PRESET_OF.get(bug)) if args.exact else None
        if args.exact and preset is None:
            parser.error(f"--exact: give --variant for {bug}, which is seeded in no one preset")
        for seed in range(args.seeds):
            if preset is None:
                report = fuzz(make, seed=seed)
            else:
                fixed = rules_to_json(find_preset(preset).rules)
                report = fuzz(make, preset, seed=seed, overrides=fixed)
            found = report.finding
            if found is None or report.found_after is None:
                cells.append(f"not found ({report.played})")
            else:
                cells.append(
                    f"{report.found_after:.1f} ({report.played + 1}, {found.outcome.rule})"
                )
        label = bug if preset is None else f"{bug} ({preset})"
        print(f"{label}: " + "; ".join(f"seed {n}: {c}" for n, c in enumerate(cells)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
