"""The conformance kit's speed: the vector suite, random hands and fuzzing, per second.

Rows (``make bench`` runs this after ``hands_per_second.py``):

* the vector suite run in process against gaple itself (cases per second);
* the vector suite through the subprocess protocol against the example engine
  (``examples/engine/adapter.py``), in three ways: one request at a time with one engine (how
  the runner drove every engine before ``batch`` and ``--jobs``), each case in one ``batch``
  with one engine, and batches with one engine per core;
* complete random hands (seeded, every preset, no illegal probes) through the protocol the
  same three ways (hands per second);
* ``gaple conformance fuzz`` hands per second against the example engine, the same three
  ways (its searches in one process per job).

The engines of a row are started before its clock starts, so a row measures the harness and
the engine at work, not the start of Python. Each row also gives the CPU time per item of the
harness and its engines together, which the load of a shared machine changes far less than
the rates: N idle cores run about N / (that time) items per second. The configurations of a
row run in interleaved rounds, so that machine noise falls on all alike. Measurements, never
assertions.

    python benchmarks/kit.py --rounds 3 --hands 400 --fuzz-seconds 10
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from gaple.conformance.fuzzer.fuzz import fuzz
from gaple.conformance.runner.engines import Engine, ReferenceEngine, SubprocessEngine
from gaple.conformance.runner.run import run_suite
from gaple.conformance.vectors.scenarios import all_cases, random_case
from gaple.presets import PRESETS

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = f"{sys.executable} {ROOT / 'examples' / 'engine' / 'adapter.py'}"
CORES = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1

JSON = Any


class OneByOne:
    """The example engine with ``batch`` taken out of its hello: the runner's fallback, one
    request at a time."""

    def __init__(self, engine: SubprocessEngine) -> None:
        self.engine = engine

    def request(self, message: dict[str, JSON]) -> dict[str, JSON]:
        reply = self.engine.request(message)
        return {k: v for k, v in reply.items() if k != "batch"}

    def close(self) -> None:
        self.engine.close()


Way = tuple[str, bool, int]
"""A configuration: its label, whether batch is used, and the number of jobs."""

WAYS: tuple[Way, ...] = (
    ("one by one, 1 job", False, 1),
    ("batch, 1 job", True, 1),
    (f"batch, {CORES} jobs", True, CORES),
)


def _engines(batch: bool, count: int) -> Callable[[], Engine]:
    """A factory handing out ``count`` engines started now (so before the clock starts), then
    fresh ones."""
    started = [SubprocessEngine(EXAMPLE, timeout=60) for _ in range(count)]

    def make() -> Engine:
        engine = started.pop() if started else SubprocessEngine(EXAMPLE, timeout=60)
        return engine if batch else OneByOne(engine)

    return make


def cpu_seconds() -> float:
    """CPU time of this process and of its children that have ended (the engines)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def suite_rate(cases: Sequence[Mapping[str, JSON]], way: Way) -> tuple[int, float, float]:
    """Cases run, seconds taken and CPU seconds used (harness and engines) through the
    protocol, one way."""
    _label, batch, jobs = way
    make = _engines(batch, jobs)
    began, cpu = time.perf_counter(), cpu_seconds()
    summary = run_suite(cases, make, jobs=jobs)
    seconds = time.perf_counter() - began
    if not summary.ok:
        msg = f"the example engine did not conform: {summary.verdict}"
        raise SystemExit(msg)
    return len(cases), seconds, cpu_seconds() - cpu


def fuzz_rate(seconds: float, way: Way) -> tuple[int, float, float]:
    """Hands the fuzzer played, the seconds and the CPU seconds it took, one way."""
    _label, batch, jobs = way

    def make() -> Engine:
        engine = SubprocessEngine(EXAMPLE, timeout=60)
        return engine if batch else OneByOne(engine)

    cpu = cpu_seconds()
    report = fuzz(make, None, examples=10**9, seed=0, max_seconds=seconds, jobs=jobs)
    return report.played, report.seconds, cpu_seconds() - cpu


def interleaved(
    measure: Callable[[Way], tuple[int, float, float]], rounds: int
) -> dict[str, tuple[float, float]]:
    """Items per second of each way, and CPU milliseconds per item, over ``rounds`` rounds
    in a rotating order."""
    items = {way[0]: 0 for way in WAYS}
    elapsed = {way[0]: 0.0 for way in WAYS}
    cpu = {way[0]: 0.0 for way in WAYS}
    for r in range(rounds):
        for way in WAYS[r % len(WAYS) :] + WAYS[: r % len(WAYS)]:
            done, seconds, used = measure(way)
            items[way[0]] += done
            elapsed[way[0]] += seconds
            cpu[way[0]] += used
    return {
        label: (items[label] / elapsed[label], 1000 * cpu[label] / items[label]) for label in items
    }


def random_hands(count: int) -> list[dict[str, JSON]]:
    """``count`` seeded random hands, spread over the presets."""
    names = list(PRESETS)
    return [
        random_case(
            f"hand-{n}", "random", "", names[n % len(names)], overrides={}, seed=n, probes=False
        )
        for n in range(1, count + 1)
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Cases, hands and fuzzed hands per second.")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds (default 3)")
    parser.add_argument(
        "--hands", type=int, default=800, help="random hands per round and way (default 800)"
    )
    parser.add_argument(
        "--fuzz-seconds", type=float, default=8.0, help="fuzzing per round and way (default 8)"
    )
    args = parser.parse_args(argv)
    if args.rounds < 1 or args.hands < 1 or not args.fuzz_seconds > 0:
        parser.error("--rounds and --hands must be at least 1, --fuzz-seconds above 0")
    cases = all_cases()
    hands = random_hands(args.hands)
    print(f"conformance kit, per second; {args.rounds} interleaved rounds; {CORES} cores")
    began = time.perf_counter()
    for _ in range(args.rounds):
        run_suite(cases, ReferenceEngine)
    in_process = len(cases) * args.rounds / (time.perf_counter() - began)
    print(f"{'vector suite, in process':<44} {in_process:>8.0f} cases/s")
    rows = (
        ("vector suite, protocol", "cases/s", lambda way: suite_rate(cases, way)),
        ("random hands, protocol", "hands/s", lambda way: suite_rate(hands, way)),
        ("fuzz, protocol", "hands/s", lambda way: fuzz_rate(args.fuzz_seconds, way)),
    )
    for name, unit, measure in rows:
        for label, (rate, cpu) in interleaved(measure, args.rounds).items():
            print(f"{name + ', ' + label:<44} {rate:>8.0f} {unit}  {cpu:>6.2f} CPU ms each")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
