"""The fuzzer's hands per second against the oracle's random-hand rate, measured in one run.

For each source tree given (default: this checkout), in a fresh process importing that tree:

* ``oracle``: :func:`gaple.simulate.random_hand` over every preset, one process;
* ``fuzz example``: ``gaple conformance fuzz`` with its default settings (every preset, one
  job per core) against the example engine (``examples/engine/adapter.py`` of this checkout);
* ``fuzz reference``: the same with ``--reference``, one job, the spec in process.

The trees run in interleaved rounds, so that machine noise falls on all alike; each figure is
total hands over total time, and each fuzz rate is also given as a share of the oracle's rate
of its own round. Measurements, never assertions.

    python benchmarks/fuzz_rate.py --seconds 20 --rounds 2 --tree ../before --tree .
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = f"{sys.executable} {ROOT / 'examples' / 'engine' / 'adapter.py'}"

MEASURE = """
import json, os, sys, time
from gaple.conformance.runner.engines import ReferenceEngine, SubprocessEngine
from gaple.conformance.fuzzer.fuzz import fuzz
from gaple.presets import PRESETS
from gaple.simulate import random_hand

seconds, example = float(sys.argv[1]), sys.argv[2]
rules = [p.rules for p in PRESETS.values()]
began, hands = time.perf_counter(), 0
while time.perf_counter() - began < seconds:
    random_hand(rules[hands % len(rules)], hands)
    hands += 1
oracle = hands / (time.perf_counter() - began)
cores = len(os.sched_getaffinity(0))
out = {"oracle": oracle}
for name, make, jobs in (
    ("example", lambda: SubprocessEngine(example, timeout=60), cores),
    ("reference", ReferenceEngine, 1),
):
    report = fuzz(make, max_seconds=seconds, jobs=jobs)
    out[name] = report.played / report.seconds
    cells = [k for k, n in report.counts.items() if n and (" & " in k or " @ " in k)]
    out[name + "_cells"] = len(cells)
print(json.dumps(out))
"""


def measure(tree: Path, seconds: float) -> dict[str, float]:
    """One round of the three rates, in a process importing ``tree``."""
    env = {**os.environ, "PYTHONPATH": str(tree / "src")}
    done = subprocess.run(
        [sys.executable, "-c", MEASURE, str(seconds), EXAMPLE],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, float] = json.loads(done.stdout.splitlines()[-1])
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", type=Path, action="append", help="a source tree (repeat)")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--rounds", type=int, default=1)
    args = parser.parse_args(argv)
    trees = [tree.resolve() for tree in args.tree or [ROOT]]
    runs: dict[Path, list[dict[str, float]]] = {tree: [] for tree in trees}
    for _ in range(args.rounds):
        for tree in trees:
            runs[tree].append(measure(tree, args.seconds))
    print(f"hands per second, {args.rounds} round(s) of {args.seconds:g} s; ratio to the oracle")
    print(f"{'tree':<28} {'oracle':>8} {'fuzz example':>20} {'fuzz reference':>20}")
    for tree, rounds in runs.items():

        def mean(key: str, rounds: list[dict[str, float]] = rounds) -> float:
            return sum(r[key] for r in rounds) / len(rounds)

        oracle = mean("oracle")
        cells = f"cells {mean('example_cells'):.0f} / {mean('reference_cells'):.0f}"
        print(
            f"{str(tree)[-28:]:<28} {oracle:>8.0f} "
            f"{mean('example'):>8.0f} ({mean('example') / oracle:.3f}x) "
            f"{mean('reference'):>8.0f} ({mean('reference') / oracle:.3f}x)  {cells}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
