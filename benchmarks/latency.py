"""How long the kit's daily commands take, from a cold process, next to their targets.

Rows, each the median wall time of ``--rounds`` runs of a fresh process (Python started anew,
its bytecode cached as an installed gaple's is: see ``command_environment``):

* ``gaple --version``;
* ``gaple conformance run --case ID`` against the example engine: one case, the loop of an
  engine author fixing one failure;
* ``gaple conformance run`` against the example engine: the whole suite;
* ``pytest --collect-only -q`` in ``examples/pytest_project``: the plugin listing every case.

Measurements, never assertions: the verdict column only says whether a row met its target.

    python benchmarks/latency.py --rounds 5
"""

from __future__ import annotations

import argparse
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import attrs

ROOT = Path(__file__).resolve().parent.parent
ADAPTER = shlex.join([sys.executable, str(ROOT / "examples" / "engine" / "adapter.py")])
GAPLE = (sys.executable, "-m", "gaple")
ONE_CASE = "combination-216"
"""The case of the issue's measurement (any shipped case would do)."""


@attrs.frozen
class Row:
    """A command, where it runs, and the wall time it should stay under."""

    label: str
    command: tuple[str, ...]
    target: float
    cwd: Path = ROOT


ROWS = (
    Row("gaple --version", (*GAPLE, "--version"), 0.3),
    Row(
        f"conformance run --case {ONE_CASE}",
        (*GAPLE, "conformance", "run", "--impl", ADAPTER, "--case", ONE_CASE),
        1.0,
    ),
    Row("conformance run (whole suite)", (*GAPLE, "conformance", "run", "--impl", ADAPTER), 3.0),
    Row(
        "pytest --collect-only (plugin)",
        (sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--collect-only", "-q"),
        2.0,
        ROOT / "examples" / "pytest_project",
    ),
)


def command_environment(folder: Path) -> dict[str, str]:
    """The environment of the timed commands: Python's bytecode cached in ``folder``, as an
    installed gaple starts from bytecode, not from sources compiled again at every start."""
    environment = {**os.environ, "PYTHONPYCACHEPREFIX": str(folder / "bytecode")}
    environment.pop("PYTHONDONTWRITEBYTECODE", None)
    return environment


def seconds(row: Row, environment: dict[str, str]) -> float:
    """The wall time of one run of the row's command; a failing command stops the benchmark
    with what it wrote to stderr (its progress lines are not shown otherwise)."""
    start = time.perf_counter()
    done = subprocess.run(
        row.command, cwd=row.cwd, env=environment, check=False, capture_output=True
    )
    took = time.perf_counter() - start
    if done.returncode != 0:
        failed = f"{row.label}: exit status {done.returncode}\n"
        raise SystemExit(failed + done.stderr.decode(errors="replace"))
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="runs per row (the median shown)")
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="gaple-latency-") as folder:
        environment = command_environment(Path(folder))
        for row in ROWS:
            # One unmeasured run fills the bytecode cache, as a second start of gaple finds it.
            seconds(row, environment)
        print(f"load average {os.getloadavg()[0]:.2f}; median of {arguments.rounds} cold runs")
        print(f"{'command':<40} {'median':>8} {'target':>8}")
        for row in ROWS:
            median = statistics.median(seconds(row, environment) for _ in range(arguments.rounds))
            verdict = "ok" if median <= row.target else "OVER"
            print(f"{row.label:<40} {median:>7.2f}s {row.target:>7.1f}s  {verdict}")


if __name__ == "__main__":
    main()
