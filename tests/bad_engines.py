"""Misbehaving adapters: gaple's reference adapter with one way of breaking the protocol each
(crashing, hanging, flooding, lying about types, escaping its process group...), so the tests
can check that the runner survives every one of them and leaves nothing running.

Every adapter writes its pid, and the pid of any child it starts, as an empty file named after
the pid into the folder given as its first argument.
"""

from __future__ import annotations

import sys
from pathlib import Path

_TEMPLATE = """\
import json, os, signal, subprocess, sys, time
PIDS = sys.argv[1]
open(os.path.join(PIDS, str(os.getpid())), "w").close()
from gaple.conformance.runner.engines import ReferenceEngine
engine = ReferenceEngine()
{setup}
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "bye":
        break
    r = engine.request(m)
{patch}
    sys.stdout.write(json.dumps(r) + "\\n")
    sys.stdout.flush()
"""

BEHAVIOURS: dict[str, tuple[str, str]] = {
    # name: (setup run once at start, patch run on each request ``m`` with reply ``r``)
    "crash-at-start": ("sys.exit(3)", ""),
    "crash-mid-case": ("", "    if m['type'] == 'act':\n        sys.exit(1)"),
    "exit-after-hello": ("", "    if m['type'] == 'start':\n        sys.exit(0)"),
    "hang": ("", "    if m['type'] == 'start':\n        time.sleep(600)"),
    "ignore-sigterm": (
        "signal.signal(signal.SIGTERM, signal.SIG_IGN)",
        "    if m['type'] == 'start':\n        time.sleep(600)",
    ),
    "hang-at-hello": ("", "    if m['type'] == 'hello':\n        time.sleep(600)"),
    "slow": ("", "    time.sleep(0.02)"),
    "garbage": (
        "",
        "    if m['type'] == 'state':\n"
        "        sys.stdout.write('\\x00\\x1b[2J garbage {\\n')\n"
        "        sys.stdout.flush()\n"
        "        continue",
    ),
    "endless-line": (
        "",
        "    if m['type'] == 'start':\n"
        "        while True:\n"
        "            sys.stdout.write('x' * 65536)",
    ),
    "huge-reply": ("", "    if m['type'] == 'state':\n        r['legal'] = ['pass'] * 2_000_000"),
    "endless-stderr": (
        "",
        "    if m['type'] == 'start':\n"
        "        while True:\n"
        "            sys.stderr.write('e\\x1b' * 32768)\n"
        "            sys.stderr.flush()",
    ),
    "wrong-types": (
        "",
        "    if m['type'] == 'state':\n        r['hand_sizes'] = [str(n) for n in r['hand_sizes']]",
    ),
    "control-characters": (
        "",
        "    if m['type'] == 'hello':\n"
        "        r['name'] = 'evil\\x1b[2J\\x00\\u202e'\n"
        "    if m['type'] == 'act':\n"
        "        r = {'type': 'error', 'message': 'bad\\x00\\x07\\x1b[31m\\x0b\\ufffe'}",
    ),
    "surrogates": (
        "",
        "    if m['type'] == 'start':\n"
        "        r = {'type': 'error', 'message': 'lone \\ud800 here'}",
    ),
    "surrogate-name": ("", "    if m['type'] == 'hello':\n        r['name'] = 'x\\udc80'"),
    "object-in-levels": ("", "    if m['type'] == 'hello':\n        r['levels'] = [{'a': 1}]"),
    "children-outlive": (
        "child = subprocess.Popen(['sleep', '300'])\n"
        "open(os.path.join(PIDS, str(child.pid)), 'w').close()",
        "    if m['type'] == 'start':\n        os._exit(0)",
    ),
    "unsupported-everything": (
        "",
        "    if m['type'] == 'start':\n        r = {'type': 'unsupported', 'reason': 'nothing'}",
    ),
}
"""Each misbehaviour: the adapter's setup and its patch of the reply."""


def write_bad_engine(folder: Path, name: str) -> str:
    """Write the adapter ``name`` of :data:`BEHAVIOURS` into ``folder`` and return the command
    that starts it (its pids go to ``folder/pids``)."""
    setup, patch = BEHAVIOURS[name]
    script = folder / f"{name}.py"
    script.write_text(_TEMPLATE.format(setup=setup, patch=patch))
    pids = folder / "pids"
    pids.mkdir(exist_ok=True)
    return f"{sys.executable} {script} {pids}"


def alive(pid: int) -> bool:
    """Whether ``pid`` is a running process (a zombie waiting to be reaped is not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"
