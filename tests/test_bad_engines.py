"""The runner survives any engine: each misbehaving adapter of :mod:`bad_engines` is run through
``gaple conformance run`` in a subprocess, and the test checks the exit status, the statuses of
the cases, that the report and the JUnit file parse, that nothing the engine wrote reaches the
terminal raw, and that no process of the engine is left.

The runs go four at a time (they mostly wait on timeouts), so the set takes seconds.
"""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from attrs import frozen
from hypothesis import given, settings
from hypothesis import strategies as st

from bad_engines import BEHAVIOURS, alive, write_bad_engine
from gaple.cli import main
from gaple.conformance.runner.engines import ReferenceEngine
from gaple.conformance.runner.run import run_suite
from gaple.conformance.runner.shapes import _table_problem, reply_problem, state_fits
from gaple.conformance.vectors.scenarios import all_cases

SPEC = Path(__file__).resolve().parent.parent / "spec" / "vectors" / "v1"
CASES = (
    "play/play-domino4d-e002.json",  # a rejection and placements
    "turns/turns-pass-option.json",  # passes
    "score/score-domino4d-counts-11-and-14.json",  # a result
)
"""Three small cases that each send acts; every one passes on a conforming engine."""

_CLI = "import sys; from gaple.cli import main; sys.exit(main())"


@frozen
class Run:
    """What one run of the runner left behind."""

    status: int
    peak_mib: float
    out: str
    err: str
    records: list[dict[str, Any]]
    junit: ET.Element | None
    pids: list[int]

    def statuses(self) -> list[str]:
        return [r["status"] for r in self.records if r["type"] == "case"]

    def messages(self) -> list[str]:
        return [r.get("message", "") for r in self.records if r["type"] == "case"]


HANG_GUARD = 300
"""Seconds after which a runner still going is taken to hang: every run here ends within a few
timeouts of 2 s, so only a runner that never ends reaches it, however loaded the machine."""


def run_cli(
    folder: Path, engine: str, *extra: str, signal_when: tuple[int, int] | None = None
) -> Run:
    """Run ``gaple conformance run`` on the adapter ``engine`` with the three cases, --timeout 2
    (an adapter starts in 0.4 s on an idle machine; the runs share it), a report and a JUnit
    file. ``signal_when`` (signal, pids) sends the signal once that many
    engine processes have written their pid."""
    folder.mkdir()
    cases = folder / "cases"
    for case in CASES:
        (cases / case).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(SPEC / case, cases / case)
    report, junit = folder / "report.jsonl", folder / "junit.xml"
    command = write_bad_engine(folder, engine)
    argv = [sys.executable, "-c", _CLI, "conformance", "run", "--impl", command]
    argv += ["--cases", str(cases), "--timeout", "2", "--report", str(report)]
    argv += ["--junit", str(junit), *extra]
    began = time.monotonic()
    with (folder / "out").open("wb") as out, (folder / "err").open("wb") as err:
        process = subprocess.Popen(argv, stdout=out, stderr=err, stdin=subprocess.DEVNULL)
        peak = 0
        while process.poll() is None:
            if time.monotonic() - began > HANG_GUARD:
                process.kill()
                pytest.fail(f"the runner itself hung: killed after {HANG_GUARD} s")
            peak = max(peak, _peak_kib(process.pid))
            count = len(list((folder / "pids").iterdir()))
            if signal_when is not None and count >= signal_when[1]:
                time.sleep(0.3)  # let the engine reach its request
                process.send_signal(signal_when[0])
                signal_when = None
            time.sleep(0.02)
    records = [json.loads(line) for line in report.read_text().splitlines()]
    tree = ET.parse(junit).getroot() if junit.exists() else None
    pids = [int(p.name) for p in (folder / "pids").iterdir()]
    return Run(
        process.returncode,
        peak / 1024,
        (folder / "out").read_text(encoding="utf-8"),
        (folder / "err").read_text(encoding="utf-8"),
        records,
        tree,
        pids,
    )


def _peak_kib(pid: int) -> int:
    """The runner's own peak memory so far (VmHWM), without the adapters it starts."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0
    lines = [line.split()[1] for line in status.splitlines() if line.startswith("VmHWM:")]
    return int(lines[0]) if lines else 0


SLOW = ("hang", "ignore-sigterm", "endless-stderr", "children-outlive")
"""The runs that wait out a timeout in every case: started first, so the others fill in."""

PLAIN = [*SLOW, *(name for name in BEHAVIOURS if name not in (*SLOW, "hang-at-hello"))]


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Run]]:
    root = tmp_path_factory.mktemp("bad-engines")
    with ThreadPoolExecutor(max_workers=4) as pool:
        futures = {name: pool.submit(run_cli, root / name, name) for name in PLAIN}
        yield {name: future.result() for name, future in futures.items()}


def _sound(run: Run) -> None:
    """What holds whatever the engine did: a complete report, a JUnit file, nothing raw on the
    terminal, no process left."""
    assert [r["type"] for r in run.records][:1] == ["header"]
    assert run.records[-1]["type"] == "footer"
    assert sum(run.records[-1]["counts"].values()) == len(run.statuses())
    assert run.junit is not None
    assert sum(int(s.get("tests", "0")) for s in run.junit) == len(run.statuses())
    for text in (run.out, run.err):
        assert not any(ord(c) < 32 and c != "\n" for c in text), text
        assert "Traceback" not in text
    assert [pid for pid in run.pids if alive(pid)] == []


# Expected outcomes, reasoned from what each engine does to the three cases:
EXPECTED: dict[str, tuple[int, list[str], str]] = {
    # No hello at all: a usage error (2) before any case, named in one line.
    "crash-at-start": (2, [], "does not answer hello"),
    # Each case sends an act, at which the adapter exits: 3 errored, exit 1.
    "crash-mid-case": (1, ["errored"] * 3, "exited with status 1"),
    "exit-after-hello": (1, ["errored"] * 3, "exited with status 0"),
    # A start never answered: errored after --timeout 2, the engine killed (even deaf to
    # SIGTERM: the group gets SIGKILL).
    "hang": (1, ["errored"] * 3, "no reply to 'start' within 2 s"),
    "ignore-sigterm": (1, ["errored"] * 3, "no reply to 'start' within 2 s"),
    # 20 ms a reply is well within 2 s: everything passes (and so the harness does not make
    # the other outcomes up).
    "slow": (0, ["passed"] * 3, ""),
    "garbage": (1, ["errored"] * 3, "not JSON"),
    # Over the 1 MiB limit: errored with only a prefix kept.
    "endless-line": (1, ["errored"] * 3, "longer than 1048576 bytes"),
    "huge-reply": (1, ["errored"] * 3, "longer than 1048576 bytes"),
    # stderr floods but no reply comes: a timeout, with a bounded, escaped stderr tail.
    "endless-stderr": (1, ["errored"] * 3, "no reply to 'start' within 2 s"),
    # Strings for hand sizes: out of protocol, errored, never failed with a made-up rule.
    "wrong-types": (1, ["errored"] * 3, "hand_sizes must be a list of integers >= 0"),
    "control-characters": (1, ["errored"] * 3, "bad\\x00\\x07\\x1b[31m\\x0b\\ufffe"),
    "surrogates": (1, ["errored"] * 3, "lone \\ud800 here"),
    # A hello that is not protocol: a usage error before any case.
    "surrogate-name": (2, [], "name must be a string of Unicode text"),
    "object-in-levels": (2, [], "levels must be a list of distinct levels"),
    # The adapter exits at start, its child keeps stdout open: no EOF, so a timeout.
    "children-outlive": (1, ["errored"] * 3, "no reply to 'start' within 2 s"),
    # Nothing played: its own verdict and exit status 3, not CONFORMS.
    "unsupported-everything": (3, ["skipped"] * 3, "unsupported by the engine: nothing"),
}


@pytest.mark.parametrize("name", PLAIN)
def test_the_runner_survives_the_engine(runs: dict[str, Run], name: str) -> None:
    run = runs[name]
    status, statuses, words = EXPECTED[name]
    assert (run.status, run.statuses()) == (status, statuses), run.err
    _sound(run)
    if status == 2:
        assert words in run.err
        assert len(run.err.strip().splitlines()) == 1
    else:
        assert all(words in message for message in run.messages()), run.messages()
    # Whatever the engine sent, no message keeps more than a bounded part of it.
    assert all(len(message) < 2000 for message in run.messages())
    assert run.peak_mib < 200


def test_verdicts_on_the_terminal(runs: dict[str, Run]) -> None:
    assert "NOTHING CHECKED: 3 cases" in runs["unsupported-everything"].out
    assert runs["unsupported-everything"].records[-1]["verdict"] == "nothing checked"
    assert "CONFORMS: 3 cases" in runs["slow"].out
    assert "DOES NOT CONFORM" in runs["hang"].out
    # The engine's name is shown escaped, its bidi override included.
    assert "engine evil\\x1b[2J\\x00\\u202e" in runs["control-characters"].out


def test_endless_stderr_is_shown_as_its_escaped_end(runs: dict[str, Run]) -> None:
    # The adapter writes "e" and ESC forever: the message keeps the last 200 characters of
    # its only line, escaped (each ESC as the four characters \x1b).
    for message in runs["endless-stderr"].messages():
        shown = message.split("its stderr: ", 1)[1]
        assert shown.endswith("e\\x1b" * 3)
        assert len(shown) <= 200 * 4


def test_the_child_that_outlived_its_adapter_was_killed(runs: dict[str, Run]) -> None:
    # The adapter and its child per case, plus the greeting adapter and its child.
    run = runs["children-outlive"]
    assert len(run.pids) == 8
    assert not any(alive(pid) for pid in run.pids)


@pytest.mark.parametrize(
    ("engine", "number", "pids", "status"),
    [
        # SIGINT while the greeting adapter sits on its hello (the first pid).
        ("hang-at-hello", signal.SIGINT, 1, 130),
        # SIGTERM while the first case's adapter sits on its start (deaf to SIGTERM itself).
        ("ignore-sigterm", signal.SIGTERM, 2, 143),
    ],
)
def test_a_signal_at_any_moment_leaves_a_complete_report_and_no_process(
    tmp_path: Path, engine: str, number: int, pids: int, status: int
) -> None:
    run = run_cli(tmp_path / "run", engine, "--timeout", "30", signal_when=(number, pids))
    assert run.status == status, run.err
    assert run.records[-1]["interrupted"] is True
    assert "interrupted" in run.out
    _sound(run)
    # The signal ended the run, not the 30 s timeout: no reply is reported as missing.
    assert "within 30 s" not in json.dumps(run.records) + run.out


def test_a_signal_during_a_run_of_two_jobs_ends_both_engines(tmp_path: Path) -> None:
    # Three pids: the greeting adapter, then one per job, both deaf to SIGTERM and sitting on
    # the start of their first case (the first two of the three cases).
    argv = ("--timeout", "600", "--jobs", "2")
    run = run_cli(tmp_path / "run", "ignore-sigterm", *argv, signal_when=(signal.SIGTERM, 3))
    assert run.status == 143, run.err
    assert len(run.pids) == 3
    assert run.records[-1]["interrupted"] is True
    assert run.statuses() == []  # neither case had finished
    # A runner that left its jobs waiting on their engines would wait out the 600 s timeout,
    # and run_cli's hang guard would fail the test.
    _sound(run)


def test_a_signal_during_a_fuzz_of_two_jobs_ends_every_engine(tmp_path: Path) -> None:
    # The fuzzer reads the engine's hello (what it plays) with one engine, closed before the
    # jobs fork; then each job starts its own, which hangs at the first start, deaf to
    # SIGTERM: three pids.
    command = write_bad_engine(tmp_path, "ignore-sigterm")
    argv = [sys.executable, "-c", _CLI, "conformance", "fuzz", "--impl", command]
    argv += ["--jobs", "2", "--timeout", "30", "--variant", "domino4d"]
    began = time.monotonic()
    process = subprocess.Popen(
        argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL
    )
    # A guard, not a measure: only a fuzzer that never starts its engines reaches it.
    while len(list((tmp_path / "pids").iterdir())) < 3 and time.monotonic() - began < 300:
        time.sleep(0.05)
    time.sleep(0.5)  # let both jobs' engines reach their start
    process.send_signal(signal.SIGTERM)
    out, err = process.communicate(timeout=300)
    assert process.returncode == 143, err
    assert b"Traceback" not in out + err
    # The signal ended the jobs, not the 30 s timeout of their engines.
    assert b"within 30 s" not in out + err
    pids = [int(p.name) for p in (tmp_path / "pids").iterdir()]
    assert len(pids) == 3
    assert [pid for pid in pids if alive(pid)] == []


def test_fuzz_reports_an_engine_crash_as_an_engine_error_not_a_case(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The adapter dies at its first act: an engine failure, so no rules case is written.
    command = write_bad_engine(tmp_path, "crash-mid-case")
    found = tmp_path / "found"
    argv = ["conformance", "fuzz", "--impl", command, "--variant", "domino4d"]
    assert main([*argv, "--examples", "5", "--timeout", "5", "--out", str(found)]) == 2
    err = capsys.readouterr().err
    assert "engine error: the engine failed during the search" in err
    assert "exited with status 1" in err
    assert not found.exists()
    assert not any(alive(int(p.name)) for p in (tmp_path / "pids").iterdir())


_STATE = {
    "type": "state",
    "to_act": 0,
    "line": [[0, 0]],
    "ends": [0, 0],
    "legal": ["place 0-3 right"],
    "hand_sizes": [6, 7, 7, 7],
    "discard_counts": [0, 0, 0, 0],
    "ending": None,
}


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"hand_sizes": ["6", 7, 7, 7]}, "hand_sizes must be a list of integers >= 0"),
        ({"hand_sizes": [6.0, 7, 7, 7]}, "hand_sizes must be a list of integers >= 0"),
        ({"to_act": True}, "to_act must be a seat"),  # JSON true is no seat, though 1 == True
        ({"line": {"0": [0, 0]}}, "line must be a list of [low, high] pairs"),
        # Each way a line's pairs can be wrong, after a good pair (the check reads them all):
        ({"line": [[0, 0], [0, 0, 1]]}, "line must be a list of [low, high] pairs"),
        ({"line": [[0, 0], [0]]}, "line must be a list of [low, high] pairs"),
        ({"line": [[0, 0], "0-1"]}, "line must be a list of [low, high] pairs"),
        # Two items that are not a list: they unpack into two, but not into two integers.
        ({"line": [[0, 0], "01"]}, "line must be a list of [low, high] pairs"),
        ({"line": [[0, 0], {"0": 0, "1": 1}]}, "line must be a list of [low, high] pairs"),
        ({"line": [[0, 0], 5]}, "line must be a list of [low, high] pairs"),
        ({"line": [[0, 0], [0, -1]]}, "line must be a list of [low, high] pairs"),
        ({"line": [[0, 0], [-1, 0]]}, "line must be a list of [low, high] pairs"),
        ({"line": [[0, 0], [1.0, 0]]}, "line must be a list of [low, high] pairs"),
        ({"line": [[0, 0], [0, True]]}, "line must be a list of [low, high] pairs"),
        ({"line": [[0, 0], [0, 1.0]]}, "line must be a list of [low, high] pairs"),
        ({"hand_sizes": [6, 7, 7, -1]}, "hand_sizes must be a list of integers >= 0"),
        ({"hand_sizes": [6, 7, 7, True]}, "hand_sizes must be a list of integers >= 0"),
        ({"legal": ["pass", 1]}, "legal must be a list of moves"),
        ({"ends": [0, 0, 0]}, "ends must be a pair"),
        ({"legal": [None]}, "legal must be a list of moves"),
        # The schemas' spelling only (issue 34): Arabic-Indic digits, another separator, a
        # leading zero, a line separator after the move.
        ({"legal": ["place \u0663-\u0664 left"]}, "legal must be a list of moves"),
        ({"legal": ["lead 3:4"]}, "legal must be a list of moves"),
        ({"legal": ["lead 03-4"]}, "legal must be a list of moves"),
        ({"legal": ["pass\u2028"]}, "legal must be a list of moves"),
        ({"ending": "won"}, 'ending must be null, "out" or "blocked"'),
        ({"discard_counts": None}, "discard_counts must be a list"),
    ],
)
def test_a_state_reply_of_the_wrong_shape_is_named(change: dict[str, Any], words: str) -> None:
    assert reply_problem("state", _STATE) is None  # the well-formed reply passes
    assert words in (reply_problem("state", {**_STATE, **change}) or "")


_NEAR_MISSES = st.sampled_from([-1, True, False, 0.0, 1.0, "1", "won", None, [], [0], [0, 0, 0]])
"""Values a state reply's fields are one step away from: each fails some check, or passes it."""
_ATOMS = _NEAR_MISSES | st.integers(0, 9) | st.floats(allow_nan=False, allow_infinity=False)
_JSON = st.recursive(
    _ATOMS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=2), inner),
    max_leaves=6,
)
_PAIRS = st.lists(st.integers(0, 6), min_size=2, max_size=2)


@st.composite
def _state_replies(draw: st.DrawFn, name: str) -> dict[str, Any]:
    """A well-formed state reply, then its field ``name`` dropped, replaced by any JSON value,
    or spoiled in one item (for the line, also in one half of one pair); a spoil may still
    leave the field well-formed."""
    reply: dict[str, Any] = {
        "type": "state",
        "to_act": draw(st.none() | st.integers(0, 3)),
        "line": draw(st.lists(_PAIRS, min_size=1, max_size=8)),
        "ends": draw(st.none() | _PAIRS),
        "legal": draw(st.lists(st.sampled_from(["pass", "place 0-3 left"]), min_size=1)),
        "hand_sizes": draw(st.lists(st.integers(0, 7), min_size=1, max_size=4)),
        "discard_counts": draw(st.lists(st.integers(0, 7), min_size=1, max_size=4)),
        "ending": draw(st.sampled_from([None, "out", "blocked"])),
    }
    value = reply[name]
    how = draw(st.sampled_from(["drop", "replace", "item", "half"]))
    if how == "drop":
        del reply[name]
    elif how == "replace" or not isinstance(value, list):
        reply[name] = draw(_JSON)
    else:
        index = draw(st.integers(0, len(value) - 1))
        if how == "half" and isinstance(value[index], list):
            value[index][draw(st.integers(0, 1))] = draw(st.sampled_from([-1, True, 1.0, "1"]))
        else:
            value[index] = draw(_NEAR_MISSES | _JSON)
    return reply


@pytest.mark.parametrize("name", sorted(set(_STATE) - {"type"}))
@settings(max_examples=200)  # milliseconds each: the spoils are many
@given(data=st.data())
def test_the_quick_state_check_agrees_with_the_table(name: str, data: st.DataObject) -> None:
    # The quick check answers most state replies; the table words the problems. Dropping any
    # one of the quick check's tests makes it pass a reply the table refuses.
    reply = data.draw(_state_replies(name))
    table = _table_problem("state", "state", reply)
    assert state_fits(reply) == (table is None), table


def test_other_replies_are_checked_for_shape_too() -> None:
    hello = {"type": "hello", "protocol": 1, "name": "e", "levels": ["line"], "error_codes": True}
    assert reply_problem("hello", hello) is None
    assert reply_problem("hello", {**hello, "protocol": True}) is not None
    assert reply_problem("hello", {**hello, "levels": ["line", "line"]}) is not None
    assert reply_problem("hello", {**hello, "levels": ["words"]}) is not None
    assert reply_problem("act", {"type": "rejected", "code": None}) is None
    assert reply_problem("act", {"type": "rejected", "code": None, "rule": 5}) is not None
    assert "rejected" in (reply_problem("act", {"type": "rejected"}) or "")
    result = {
        "type": "result",
        "counts": [3, 0],
        "winner": 1,
        "winning_team": None,
        "points": [-3, 3],
        "replay": False,
    }
    assert reply_problem("result", result) is None
    assert reply_problem("result", {**result, "replay": 0}) is not None
    assert reply_problem("result", {**result, "rules": "end.out"}) is not None
    assert reply_problem("result", {**result, "winner": -1}) is not None


def test_a_reply_of_the_wrong_shape_errors_the_case_instead_of_failing_it() -> None:
    # In process too (the runner checks every engine's replies, not only subprocesses'):
    # before the check, string hand sizes failed with the rule of the hand sizes.
    case = next(c for c in all_cases() if c["id"] == "play-domino4d-e002")

    class StringSizes(ReferenceEngine):
        def request(self, message: dict[str, Any]) -> dict[str, Any]:
            reply = super().request(message)
            if reply["type"] == "state":
                reply["hand_sizes"] = [str(n) for n in reply["hand_sizes"]]
            return reply

    (outcome,) = run_suite([case], StringSizes).outcomes
    assert (outcome.status, outcome.rule) == ("errored", None)
    assert run_suite([case], ReferenceEngine).outcomes[0].status == "passed"
