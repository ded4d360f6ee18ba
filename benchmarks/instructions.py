"""Machine instructions per random hand of the oracle and per transcript of ``gaple check``.

A shared machine moves the rates of ``hands_per_second.py`` and ``checker.py`` by a fifth from
one minute to the next, which hides a change of a few percent. The number of instructions a
piece of work executes hardly moves (the same hash seed gives the same run), so this script
counts them under valgrind's callgrind: each row runs a small program twice, once without the
work and once with ``--count`` items of it, and prints the difference per item.

Rows, each a measurement, never an assertion:

* ``oracle``: one complete random hand of :func:`gaple.simulate.random_hand`;
* ``check``: one transcript checked as ``gaple check``'s workers check a log (a line read by
  the bounded reader, then replayed and compared), the transcripts being those of
  ``checker.py``;
* ``read``: the bounded reader alone on those transcripts
  (:func:`gaple.conformance.wire.bounded.parse`);
* ``runner``: one random hand of ``kit.py`` through ``batch`` as the runner checks it, the
  example engine's reply already written by ``json.dumps`` (so no pipe and no engine are
  counted, and trees before and after a change of the engine's writer read the same bytes);
* ``engine``: the example adapter answering that hand's ``batch`` request, read and written
  as on its pipes. Each of the last two rows plays a tenth of ``--count`` hands.

Instructions are not time (a cache miss costs many), so a speed-up is confirmed by the rates
too; but two trees compared here differ only by what their code does.

    python benchmarks/instructions.py --count 2000
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from checker import transcript_lines

from gaple.presets import PRESETS

HERE = Path(__file__).resolve().parent

_HANDS = (
    "import json, sys\n"
    "sys.path[:0] = [{benchmarks!r}, {engine!r}]\n"
    "from kit import random_hands\n"
    "from gaple.conformance.runner.run import _requests\n"
    "LEVELS = ('line', 'turns', 'count', 'points')\n"
    "hands = random_hands({items})\n"
    "batches = [{{'type': 'batch', 'requests': _requests(h, LEVELS)}} for h in hands]\n"
    "lines = [json.dumps(batch) + '\\n' for batch in batches]\n"
)
"""The setup of the protocol rows, the same with and without the work: ``kit.py``'s random
hands and their ``batch`` requests."""

PROGRAMS = {
    "oracle": (
        "from gaple.presets import PRESETS\n"
        "from gaple.simulate import random_hand\n"
        "rules = PRESETS[{preset!r}].rules\n"
        "for seed in range({count}):\n"
        "    random_hand(rules, seed)\n"
    ),
    "check": (
        "from gaple.cli.check import _block_records\n"
        "lines = open({path!r}, 'rb').read().split(b'\\n')[:{count}]\n"
        "if lines:\n"
        "    _block_records((0, b'\\n'.join(lines) + b'\\n'))\n"
    ),
    "read": (
        "from gaple.conformance.wire.bounded import parse\n"
        "for line in open({path!r}, 'rb').read().split(b'\\n')[:{count}]:\n"
        "    parse(line)\n"
    ),
    "runner": (
        _HANDS + "from adapter import Session\n"
        "from gaple.conformance.wire import bounded\n"
        "from gaple.conformance.runner.run import EngineInfo, run_case\n"
        "session = Session()\n"
        "replies = iter([json.dumps(session.handle(batch)).encode() for batch in batches])\n"
        "class Recorded:\n"
        "    def request(self, message):\n"
        "        bounded.json_line(message)\n"
        "        return bounded.loads(next(replies))\n"
        "info = EngineInfo(name='e', version='1', levels=LEVELS, error_codes=True, batch=True)\n"
        "for case in hands[:{count}]:\n"
        "    run_case(Recorded(), info, case, LEVELS)\n"
    ),
    "engine": (
        _HANDS + "import io\n"
        "from adapter import Session, serve\n"
        "serve(Session(), io.StringIO(''.join(lines[:{count}])), io.StringIO())\n"
    ),
}
"""Each row's program; ``count`` is 0 for the run without the work."""

PER_HAND = ("runner", "engine")
"""The rows that play a tenth of ``--count`` hands: each is several times an oracle's hand."""


def instructions(program: str) -> int:
    """The instructions callgrind counts in one run of ``program`` by this Python."""
    environment = {**os.environ, "PYTHONHASHSEED": "0"}
    command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"]
    run = subprocess.run(
        [*command, sys.executable, "-c", program],
        capture_output=True,
        text=True,
        env=environment,
        check=True,
    )
    found = re.search(r"Collected : (\d+)", run.stderr)
    if found is None:
        msg = f"callgrind printed no count:\n{run.stderr[-2000:]}"
        raise SystemExit(msg)
    return int(found.group(1))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Instructions per hand and per transcript.")
    parser.add_argument("--count", type=int, default=2000, help="items per row (default 2000)")
    parser.add_argument("--preset", choices=sorted(PRESETS), default="pagat-4x7")
    args = parser.parse_args(argv)
    if args.count < 1:
        parser.error("--count must be positive")
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (Debian: apt install valgrind)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "transcripts.jsonl"
        path.write_bytes(b"\n".join(transcript_lines(PRESETS[args.preset].rules, args.count)))
        print(f"{args.preset}: instructions per item (callgrind, {args.count} items)")
        for name, program in PROGRAMS.items():
            count = max(1, args.count // 10) if name in PER_HAND else args.count
            values = {
                "preset": args.preset,
                "path": str(path),
                "items": count,
                "benchmarks": str(HERE),
                "engine": str(HERE.parent / "examples" / "engine"),
            }
            without = instructions(program.format(count=0, **values))
            with_work = instructions(program.format(count=count, **values))
            print(f"{name:<8} {(with_work - without) // count:>10,}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
