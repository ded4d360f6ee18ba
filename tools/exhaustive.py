"""The exhaustive checks (tests/test_exhaustive.py, double-2 and double-3) on every core.

Runs J pytest processes side by side under the ``ci`` Hypothesis profile, each exploring one
shard of every enumeration's deals (``GAPLE_EXHAUSTIVE_SHARD``), and prints their reports in
shard order. With ``--shard I/N`` it runs only this machine's part of an N-way split (for a CI
matrix): its J processes take shards I, I + N, ..., I + (J - 1) N of N * J, which are exactly
the deals k with k % N == I - 1. Exit status 0 when every process passed, else 1; 2 for bad
options.

    python tools/exhaustive.py                   # every core
    python tools/exhaustive.py --jobs 2 --shard 1/3 -- -x
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from gaple.cli.sharding import add_jobs_and_shard, cores  # noqa: E402  # from this checkout


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Run the exhaustive checks on J processes, each one shard of the deals."
    )
    add_jobs_and_shard(parser, "deal")
    parser.add_argument("pytest_args", nargs="*", help="more pytest arguments (after --)")
    args = parser.parse_args(argv)
    jobs = args.jobs or cores()
    count = args.shard.count * jobs
    shards = [args.shard.index + m * args.shard.count for m in range(jobs)]
    command = [sys.executable, "-m", "pytest", "-q", "-s", "-p", "no:cacheprovider"]
    start = time.perf_counter()
    runs = [
        subprocess.Popen(
            [*command, "tests/test_exhaustive.py", *args.pytest_args],
            cwd=ROOT,
            env={
                **os.environ,
                "HYPOTHESIS_PROFILE": "ci",
                "GAPLE_EXHAUSTIVE_SHARD": f"{shard}/{count}",
            },
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        for shard in shards
    ]
    failed = False
    for shard, run in zip(shards, runs, strict=True):
        out, _ = run.communicate()
        failed = failed or run.returncode != 0
        print(f"--- shard {shard}/{count} (exit status {run.returncode})")
        print(out.rstrip())
    # The processor time tells the work apart from the wait on a machine shared with others.
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(
        f"exhaustive checks: {jobs} process{'es' if jobs > 1 else ''}, "
        f"{time.perf_counter() - start:.1f} s, "
        f"{used.ru_utime + used.ru_stime:.1f} s of processor time"
    )
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
