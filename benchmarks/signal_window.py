"""How long after its start a ``gaple`` process holds SIGINT and SIGTERM.

Until then a signal ends the process the default way: a ``KeyboardInterrupt`` traceback or
death by the signal, with no report. Each row is the median (and the quartiles) over
``--runs`` starts of the time from just before the process is started to the moment the
kernel shows it catching SIGTERM (the ``SigCgt`` mask of ``/proc/PID/status``, polled from
here; gaple sets both handlers at once, and Python itself catches SIGTERM only when asked):

* ``python (earliest catch)``: an interpreter whose first statement sets a handler with the
  C module ``_signal``: the interpreter's own start, which no Python code can shorten;
* ``python -m gaple``, ``gaple._start:main`` (as the console script calls it): the command,
  from the sources in ``--src`` (default: this checkout's), so that two checkouts compare.

Linux only (``/proc``); the process is killed as soon as it is seen catching the signal.

    python benchmarks/signal_window.py --runs 20 [--src OTHER/src]
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SIGTERM_BIT = 1 << (signal.SIGTERM - 1)
POLL = 0.0002
"""Seconds between two looks at the mask: the figures' resolution, with the look itself."""

EARLIEST = "import _signal; _signal.signal(15, lambda *a: None); import time; time.sleep(60)"
COMMANDS = {
    "python (earliest catch)": ["-c", EARLIEST],
    "python -m gaple": ["-m", "gaple", "conformance", "run", "--reference"],
    "gaple._start:main": [
        "-c",
        "import sys; from gaple._start import main; sys.exit(main())",
        "conformance",
        "run",
        "--reference",
    ],
}


def catches_sigterm(pid: int) -> bool:
    """Whether the process's SigCgt mask has SIGTERM (False once it has gone)."""
    try:
        with open(f"/proc/{pid}/status", "rb") as status:
            for line in status:
                if line.startswith(b"SigCgt:"):
                    return bool(int(line.split()[1], 16) & SIGTERM_BIT)
    except OSError:
        pass
    return False


def window(arguments: list[str], environment: dict[str, str]) -> float:
    """Seconds from just before the start of one process to its catching SIGTERM."""
    began = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, *arguments],
        env=environment,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        while not catches_sigterm(process.pid):
            if process.poll() is not None:
                msg = f"{arguments} ended (status {process.returncode}) before catching SIGTERM"
                raise SystemExit(msg)
            time.sleep(POLL)  # not a busy loop: on a small machine it would slow the child
        return time.perf_counter() - began
    finally:
        process.kill()
        process.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20, help="starts per row (default 20)")
    parser.add_argument("--src", type=Path, default=ROOT / "src", help="the gaple sources to start")
    args = parser.parse_args()
    environment = {**os.environ, "PYTHONPATH": str(args.src.resolve())}
    print(f"{'process':<26}{'median':>10}{'quartiles':>22}   ({args.runs} starts, {args.src})")
    for arguments in COMMANDS.values():
        window(arguments, environment)  # bytecode written, files in the page cache
    times: dict[str, list[float]] = {name: [] for name in COMMANDS}
    for _ in range(args.runs):  # the rows in turn, so that a busy spell falls on all
        for name, arguments in COMMANDS.items():
            times[name].append(window(arguments, environment) * 1000)
    for name, row in times.items():
        low, _middle, high = statistics.quantiles(row, n=4)
        print(f"{name:<26}{statistics.median(row):>8.1f} ms{low:>11.1f} to {high:>5.1f} ms")


if __name__ == "__main__":
    main()
