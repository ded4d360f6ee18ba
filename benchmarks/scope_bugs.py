"""Each seeded bug against each scope: caught by the scope's cases, and the fuzzer's time to it.

For each of the eight presets with its defaults and the two scopes that are not presets of
``benchmarks/scopes.py``, and each bug of ``examples/bugs/``: whether the cases inside the
scope (committed, and made to measure) catch it, naming which rule; and, for each bug they
catch, the seconds and hands the fuzzer, limited to the scope, takes to find it from seeds 0
to 4 (a bug the scope's rules never show is not searched for). Measurements, never
assertions (``tests/test_conformance_examples.py`` asserts the catching).

    python benchmarks/scope_bugs.py [--preset NAME ...] [--seeds N]
"""

from __future__ import annotations

import argparse
import functools
import subprocess
import sys
from pathlib import Path

from gaple.conformance.fuzzer.fuzz import fuzz
from gaple.conformance.runner.engines import SubprocessEngine
from gaple.conformance.runner.run import run_suite
from gaple.conformance.vectors.coverage import coverage
from gaple.conformance.vectors.scenarios import all_cases
from gaple.conformance.vectors.scope import Scope, declared_scope, preset_scope
from gaple.conformance.vectors.tailor import cached_cases
from gaple.presets import PRESETS

ROOT = Path(__file__).resolve().parent.parent
BUGS = [sys.executable, str(ROOT / "examples" / "bugs" / "adapter.py")]
sys.path.insert(0, str(Path(__file__).resolve().parent))
from scopes import OTHERS  # noqa: E402


def bugs() -> list[str]:
    listed = subprocess.run([*BUGS, "--list"], capture_output=True, text=True, check=True)
    return [line.split("\t")[0] for line in listed.stdout.splitlines()]


def row(scope: Scope, every: list[dict[str, object]], bug: str, seeds: int) -> str | None:
    inside = [case for case in every if scope.outside(case) is None]
    made = [] if not coverage(inside, scope).open else cached_cases(scope, inside, "bench")
    command = " ".join([*BUGS, "--bug", bug])
    make = functools.partial(SubprocessEngine, command, timeout=20)
    summary = run_suite([*inside, *made], make)
    failed = sorted({o.rule or "?" for o in summary.outcomes if o.status == "failed"})
    if not failed:
        return None
    times = []
    for seed in range(seeds):
        report = fuzz(make, seed=seed, scope=scope)
        if report.finding is None or report.found_after is None:
            times.append(f"not found ({report.played})")
        else:
            times.append(f"{report.found_after:.1f}")
    caught = sum(1 for o in summary.outcomes if o.status == "failed")
    return f"| {bug} | {caught} ({', '.join(failed)}) | {' / '.join(times)} |"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", action="append", help="only these presets (repeat)")
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--others", action="store_true", help="also the two non-preset scopes")
    args = parser.parse_args(argv)
    every = all_cases()
    scopes = [preset_scope(name) for name in args.preset or sorted(PRESETS)]
    if args.others:
        scopes += [declared_scope(plays) for plays in OTHERS.values()]
    for scope in scopes:
        print(f"\n{scope.label()}\n")
        print("| bug | cases failed (rules) | fuzzer, s to find, seeds 0-4 |")
        print("|---|---|---|")
        for bug in bugs():
            line = row(scope, every, bug, args.seeds)
            if line is not None:
                print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
