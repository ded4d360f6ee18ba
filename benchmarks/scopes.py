"""Each scope's cells, cases and run time: the tables of the guide's "Made to measure".

For each of the eight presets with its defaults, and for two scopes that are not presets (SUWIKI
partnership with discards, pagat 4 x 7 with either blocked action), prints the situation cells
its rules reach, how many the cases inside it cover and how many are unreachable; its cases
(committed, and made to measure: the time to build them, then to read them from the cache);
and the seconds to run them against the example engine over the protocol (one job).
Measurements, never assertions.

    python benchmarks/scopes.py [--preset NAME ...]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

from gaple.conformance.runner.engines import SubprocessEngine
from gaple.conformance.runner.run import run_suite
from gaple.conformance.vectors.committed import vector_set_of
from gaple.conformance.vectors.coverage import coverage
from gaple.conformance.vectors.scenarios import all_cases
from gaple.conformance.vectors.scope import Scope, declared_scope, preset_scope
from gaple.conformance.vectors.tailor import cached_cases
from gaple.presets import PRESETS

ROOT = Path(__file__).resolve().parent.parent
ENGINE = f"{sys.executable} {ROOT / 'examples' / 'engine' / 'adapter.py'}"

OTHERS = {
    "suwiki-partnership, discards": {
        "preset": "suwiki-partnership",
        "options": {"blocked_action": ["discard"]},
    },
    "pagat-4x7, pass or discard": {
        "preset": "pagat-4x7",
        "options": {"blocked_action": ["pass", "discard"]},
    },
}


def row(scope: Scope, every: list[dict[str, object]]) -> str:
    inside = [case for case in every if scope.outside(case) is None]
    began = time.perf_counter()
    made = [] if not coverage(inside, scope).open else cached_cases(scope, inside, "bench")
    built = time.perf_counter() - began
    began = time.perf_counter()
    if made:
        cached_cases(scope, inside, "bench")
    cached = time.perf_counter() - began
    cover = coverage([*inside, *made], scope)
    cases = [*inside, *made]
    began = time.perf_counter()
    summary = run_suite(cases, lambda: SubprocessEngine(ENGINE, timeout=20))
    ran = time.perf_counter() - began
    made_text = f"{len(made)} ({built:.1f} s, cached {cached:.2f} s)" if made else "0"
    return (
        f"| {scope.label()} | {cover.reachable} | {len(cover.covered)} | "
        f"{len(cover.unreachable)} | {len(inside)} | {made_text} | {ran:.1f} s "
        f"({summary.verdict}) |"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", action="append", help="only these presets (no others)")
    args = parser.parse_args(argv)
    every = all_cases()
    print(f"vectors: {vector_set_of(every)}")
    print(
        "| scope | cells reachable | covered | unreachable | committed cases | made to measure "
        "| run, example engine |"
    )
    print("|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as cache:
        os.environ["GAPLE_CACHE_DIR"] = cache
        for name in args.preset or list(PRESETS):
            print(row(preset_scope(name), every), flush=True)
        if not args.preset:
            for plays in OTHERS.values():
                print(row(declared_scope(plays), every), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
