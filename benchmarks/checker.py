"""Transcripts checked per second, next to the random hands per second of the oracle.

Rows, each a measurement, never an assertion:

* ``oracle``: complete random hands per second of :func:`gaple.simulate.random_hand`;
* ``check in-process``: transcripts per second through the reader and checker of ``gaple
  check`` (:func:`gaple.conformance.wire.bounded.parse` of a JSON line, then
  :func:`gaple.conformance.checker.transcript.check_transcript`), in interleaved rounds with the
  oracle so that machine noise falls on both alike; the transcripts are those of ``gaple play
  --format json`` (the spec's own hands, with their result), one per seed;
* ``gaple check --jobs J``: the command on a JSON-lines file of those transcripts, wall time
  including the start of Python (from cached bytecode, as an installed gaple starts: see
  :func:`command_environment`), for one job and for every core; and the processor time it
  used per transcript (the command and its workers, start-up included), which the load of a
  shared machine changes far less than the rate: J idle cores check about J / (that time)
  transcripts a second. Each figure is the median of ``--command-rounds`` runs, and each run's
  ratio is to the oracle's rate measured just before it, so that a busy spell of the machine
  falls on both;
* ``vector suite in-process``: the committed vectors read (schema and replay) and run against
  the in-process reference engine;
* ``--exhaustive``: the double-3 exhaustive checks, on one core and sharded over every core.

    python benchmarks/checker.py --seconds 2 --transcripts 5000 --exhaustive
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from gaple.cli.sharding import cores
from gaple.conformance.checker.transcript import check_transcript
from gaple.conformance.runner.engines import ReferenceEngine
from gaple.conformance.runner.run import run_suite
from gaple.conformance.vectors.committed import load_cases
from gaple.conformance.wire import bounded
from gaple.io import result_to_json, state_to_json
from gaple.presets import PRESETS
from gaple.result import hand_result
from gaple.rules import Ruleset
from gaple.simulate import random_hand

sys.path.insert(0, str(Path(__file__).resolve().parent))
from hands_per_second import measure

ROOT = Path(__file__).resolve().parent.parent
RESULT_KEYS = ("counts", "winner", "winning_team", "points", "replay")
"""What ``gaple play --format json`` records of the result."""


def transcript_lines(rules: Ruleset, count: int) -> list[bytes]:
    """One JSON line per seed, as ``gaple play --format json`` writes the hand."""
    lines = []
    for seed in range(count):
        state = random_hand(rules, seed)
        transcript = state_to_json(state)
        result = result_to_json(hand_result(state))
        transcript["result"] = {key: result[key] for key in RESULT_KEYS}
        lines.append(json.dumps(transcript).encode())
    return lines


def command_environment(folder: Path) -> dict[str, str]:
    """The environment of the timed commands: Python's bytecode cached in ``folder``.

    An installed gaple starts from bytecode (pip compiles a wheel's modules, and Python caches
    what it imports); a checkout run with PYTHONDONTWRITEBYTECODE set, as some sandboxes and
    CI images do, would compile every module again at each start, a tenth of a second.
    """
    environment = {**os.environ, "PYTHONPYCACHEPREFIX": str(folder / "bytecode")}
    environment.pop("PYTHONDONTWRITEBYTECODE", None)
    return environment


def command_rate(
    path: Path, count: int, jobs: int, environment: dict[str, str]
) -> tuple[float, float]:
    """Transcripts per second of ``gaple check --jobs`` on the file, and the processor time
    per transcript in microseconds (the command and its workers), start-up included."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "gaple", "check", "--jobs", str(jobs), str(path)],
        check=True,
        stdout=subprocess.DEVNULL,
        env=environment,
    )
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return count / seconds, 1e6 * cpu / count


def command_rounds(
    run: Callable[[], tuple[float, float]], rounds: int, oracle: Callable[[], float]
) -> tuple[float, float, float]:
    """The medians over ``rounds`` calls of ``run`` (a :func:`command_rate`: rate and processor
    time) and of the rate's ratio to ``oracle()``, the oracle's rate measured just before."""
    rates, cpus, ratios = [], [], []
    for _ in range(rounds):
        before = oracle()
        rate, cpu = run()
        rates.append(rate)
        cpus.append(cpu)
        ratios.append(rate / before)
    return statistics.median(rates), statistics.median(cpus), statistics.median(ratios)


def oracle_processor_time(rules: Ruleset, count: int) -> float:
    """Processor time of one random hand of the oracle in microseconds, over ``count`` seeds:
    the figure to set against a transcript's processor time in ``gaple check``."""
    start = time.process_time()
    for seed in range(count):
        random_hand(rules, seed)
    return 1e6 * (time.process_time() - start) / count


def suite_rate() -> tuple[int, float]:
    """Cases, and cases per second, of reading the committed vectors and running them
    against the in-process reference engine."""
    start = time.perf_counter()
    cases = load_cases(ROOT / "spec")
    summary = run_suite(cases, ReferenceEngine)
    assert summary.ok, "the reference engine fails its own vectors"
    return len(cases), len(cases) / (time.perf_counter() - start)


def exhaustive_summary(jobs: int) -> str:
    """The wall and processor time of the double-3 exhaustive checks on ``jobs`` processes,
    as ``tools/exhaustive.py`` reports them."""
    command = [sys.executable, "tools/exhaustive.py", "--jobs", str(jobs), "--", "-k", "double_3"]
    out = subprocess.run(command, cwd=ROOT, check=True, capture_output=True, text=True).stdout
    return out.splitlines()[-1].removeprefix("exhaustive checks: ")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Transcripts checked per second by gaple check.")
    parser.add_argument("--seconds", type=float, default=3.0, help="time per row (default 3)")
    parser.add_argument("--rounds", type=int, default=15, help="interleaved rounds (default 15)")
    parser.add_argument(
        "--transcripts",
        type=int,
        default=20_000,
        help="transcripts in the JSON-lines file for the command (default 20000)",
    )
    parser.add_argument(
        "--command-rounds",
        type=int,
        default=3,
        help="runs of gaple check per job count, each after a slice of the oracle (default 3)",
    )
    parser.add_argument("--preset", choices=sorted(PRESETS), default="pagat-4x7")
    parser.add_argument(
        "--exhaustive", action="store_true", help="also time the double-3 exhaustive checks"
    )
    args = parser.parse_args(argv)
    if min(args.rounds, args.transcripts, args.command_rounds) < 1 or args.seconds <= 0:
        parser.error("--seconds, --rounds, --command-rounds and --transcripts must be positive")
    rules = PRESETS[args.preset].rules
    lines = transcript_lines(rules, args.transcripts)

    def check(k: int) -> None:
        verdict = check_transcript(bounded.parse(lines[k % len(lines)]))
        assert verdict.conforms

    rates = measure(
        {"oracle": lambda k: random_hand(rules, k), "check": check}, args.seconds, args.rounds
    )
    oracle_cpu = oracle_processor_time(rules, len(lines))

    def oracle_rate() -> float:
        return measure({"oracle": lambda k: random_hand(rules, k)}, args.seconds, 1)["oracle"]

    print(f"{args.preset}: per second; ratios to the oracle's random hands")
    oracle = f"{rates['oracle']:>8.0f}"
    print(f"{'oracle (random hands)':<34} {oracle}         {oracle_cpu:>6.0f} CPU us each")
    print(
        f"{'check in-process':<34} {rates['check']:>8.0f} ({rates['check'] / rates['oracle']:.2f}x)"
    )
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "transcripts.jsonl"
        path.write_bytes(b"\n".join(lines) + b"\n")
        environment = command_environment(Path(folder))
        # One untimed run fills the bytecode cache of the environment.
        one = path.with_name("one.jsonl")
        one.write_bytes(lines[0] + b"\n")
        command_rate(one, 1, 1, environment)
        for jobs in sorted({1, cores()}):
            rate, cpu, ratio = command_rounds(
                functools.partial(command_rate, path, len(lines), jobs, environment),
                args.command_rounds,
                oracle_rate,
            )
            name = f"gaple check --jobs {jobs} ({len(lines)})"
            print(f"{name:<34} {rate:>8.0f} ({ratio:.2f}x) {cpu:>6.0f} CPU us each")
    cases, rate = suite_rate()
    print(f"{f'vector suite in-process ({cases})':<34} {rate:>8.0f} cases/s")
    if args.exhaustive:
        for jobs in sorted({1, cores()}):
            print(f"exhaustive double-3: {exhaustive_summary(jobs)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
