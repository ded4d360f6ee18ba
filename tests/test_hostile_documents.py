"""Hostile documents for every reader of the command line (issue 11): none ends in a traceback.

Each reader (``gaple check`` on a JSON file, ``gaple check`` on JSON lines from a file and from
standard input, ``gaple score``, a case file of ``conformance run --cases``, a ``--set`` value)
gets documents that start from a valid one and are spoilt: a value of the wrong type at a
random place, deep nesting, huge numbers, long arrays, lone surrogates, bytes that are not
UTF-8, truncation, a byte order mark, ``NaN`` and ``Infinity``, duplicate keys, a document over
the size limit. Each must end with a documented status, nothing raised, one line on standard
error when the status is 2, and quickly.

Issue 26 adds the families the last campaign found: reports for ``summary`` and ``merge`` and
case files with surrogates and lists of the wrong length (run with ``--report`` and
``--junit``), replies nested to any depth under ``--validate``, every command with its output
or a file it writes on a full disk, special files (FIFOs, devices, links) among the case
files, a signal at any moment after ``main`` starts, and hidden characters (C1 controls,
bidirectional overrides, DEL, line separators) in every output form: nothing hidden may reach
standard output, standard error or a written page raw.

The ``ci`` profile (``HYPOTHESIS_PROFILE=ci``) tries 10,000 documents per reader (fewer for the
slower families, see :data:`HEAVY` and :data:`PROCESS`); the default profile a small sample.
``main()`` runs in process, with standard output encoded strictly as UTF-8 (as a pipe is), so
text that cannot be encoded fails the test as it would fail the user.
"""

from __future__ import annotations

import contextlib
import copy
import errno
import io
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gaple
from gaple.cli import check, main
from gaple.conformance.runner.engines import EngineError, ReferenceEngine, Validator
from gaple.conformance.runner.expectations import (
    BadExpectations,
    expectations_text,
    read_expectations,
)
from gaple.conformance.runner.selection import SHOWN, BadExpression, parse_keywords
from gaple.conformance.wire import bounded
from gaple.conformance.wire.escape import printable
from gaple.io import state_to_json
from gaple.presets import ruleset
from gaple.rules import OPTION_NAMES
from gaple.simulate import random_hand
from test_cli import E001_1_POSITION
from test_reports import FOUR, _footer, _header

JSON = Any
CI = os.environ.get("HYPOTHESIS_PROFILE") == "ci"
HOSTILE = settings(
    max_examples=10_000 if CI else 40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
HEAVY = settings(HOSTILE, max_examples=500 if CI else 20)
"""A family whose every example runs a whole command that replays or renders (a run, a page)."""
PROCESS = settings(HOSTILE, max_examples=40 if CI else 3)
"""A family whose every example starts gaple as a process (a second or more each)."""
SECONDS = 5.0
"""Longest one document may take: the largest is just over the 1 MiB limit."""

ROOT = Path(__file__).resolve().parent.parent
TRANSCRIPT = state_to_json(random_hand(ruleset("domino4d"), seed=3))
CASE = json.loads(
    (ROOT / "spec/vectors/v1/open/open-double-blank-holder-leads.json").read_text("utf-8")
)
POSITION = {**E001_1_POSITION, "rules": {"hand_size": 6}}
RESULT_CASE = json.loads(
    (
        ROOT / "spec/vectors/v1/random/pagat-4x7-double-blank-25/"
        "random-pagat-4x7-double-blank-25-3.json"
    ).read_text("utf-8")
)
"""A case with a result checked at every level, under a preset with double_blank_25."""
VALIDATOR = Validator()


# --- the documents ----------------------------------------------------------------------------

_HIDDEN = ["\x1b", "\x7f", "\u009b", "\u202e", "\u2066", "\u2028", "\u2029", "\ud800", "\U000f0000"]
"""Characters a terminal or a page acts on, or no encoder takes: ESC, DEL, CSI (C1), RLO, LRI,
the line and paragraph separators, a lone surrogate, a private-use code point."""
_TEXT = st.text(st.characters(exclude_categories=()) | st.sampled_from(_HIDDEN), max_size=6)
"""Any text, lone surrogates and the hidden characters included (Hypothesis leaves the first
out unless told, and draws the others rarely)."""

_VALUES: st.SearchStrategy[JSON] = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=True, allow_infinity=True)
    | _TEXT
    | st.sampled_from(["0-0", "6-6", "pass", "place 0-1 left", "lead 0-0", "7-7", "x"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_TEXT, inner, max_size=4),
    max_leaves=8,
)
_WRONG: st.SearchStrategy[JSON] = (
    _VALUES
    | st.integers(1, 200).map(lambda depth: json.loads("[" * depth + "]" * depth))
    | st.integers(9_990, 10_010).map(lambda length: [0] * length)
)
"""A value to put where another was: any type, deep, or long."""


def _spoil_value(data: st.DataObject, doc: JSON) -> JSON:
    """``doc`` with the value at one random place (maybe the root) replaced."""
    if isinstance(doc, dict | list) and doc and data.draw(st.integers(0, 3)):
        keys = list(doc) if isinstance(doc, dict) else list(range(len(doc)))
        key = data.draw(st.sampled_from(keys))
        doc[key] = _spoil_value(data, doc[key])
        return doc
    return data.draw(_WRONG)


def _spoil_text(data: st.DataObject, text: bytes) -> bytes:
    """``text`` with one spoiling edit of its bytes (or none)."""
    edit = data.draw(
        st.sampled_from(
            [
                "none",
                "truncate",
                "bom",
                "bytes",
                "huge-number",
                "nan",
                "duplicate-key",
                "deep",
                "long",
                "oversize",
            ]
        )
    )
    where = data.draw(st.integers(0, len(text)))
    if edit == "truncate":
        return text[:where]
    if edit == "bom":
        return b"\xef\xbb\xbf" + text
    if edit == "bytes":
        return text[:where] + data.draw(st.binary(min_size=1, max_size=4)) + text[where:]
    digit = next((i for i, byte in enumerate(text) if chr(byte).isdigit()), None)
    if edit == "huge-number" and digit is not None:
        digits = data.draw(st.integers(20, 6_000))
        return text[:digit] + b"9" * digits + text[digit + 1 :]
    if edit == "nan" and digit is not None:
        word = data.draw(st.sampled_from([b"NaN", b"Infinity", b"-Infinity"]))
        return text[:digit] + word + text[digit + 1 :]
    if edit == "duplicate-key" and text.startswith(b'{"'):
        key = text[1 : text.index(b'"', 2) + 1]
        return b"{" + key + b": 0, " + text[1:]
    if edit == "deep":
        depth = data.draw(st.integers(30, 100_000))
        return b"[" * depth + text + b"]" * depth
    if edit == "long":
        return b"[" + b"0," * data.draw(st.integers(9_990, 10_010)) + text + b"]"
    if edit == "oversize":
        return text + b" " * bounded.LIMITS.max_bytes
    return text


def _spoil_length(data: st.DataObject, doc: JSON) -> JSON:
    """``doc`` with one list somewhere (a count per seat, the rule IDs...) an item longer,
    an item shorter or emptied."""
    if isinstance(doc, dict | list) and doc:
        keys = list(doc) if isinstance(doc, dict) else list(range(len(doc)))
        inner = [key for key in keys if isinstance(doc[key], dict | list)]
        if inner and (not isinstance(doc, list) or data.draw(st.booleans())):
            key = data.draw(st.sampled_from(inner))
            doc[key] = _spoil_length(data, doc[key])
            return doc
    if isinstance(doc, list):
        edit = data.draw(st.sampled_from(["longer", "shorter", "empty"]))
        if edit == "longer":
            return [*doc, copy.deepcopy(doc[-1]) if doc else 0]
        return doc[:-1] if edit == "shorter" else []
    return doc


def _hostile(data: st.DataObject, base: JSON) -> bytes:
    doc = copy.deepcopy(base)
    for _ in range(data.draw(st.integers(0, 2))):
        doc = _spoil_value(data, doc)
    if data.draw(st.booleans()):
        doc = _spoil_length(data, doc)
    # ensure_ascii=False writes a lone surrogate raw, which no UTF-8 decoder accepts.
    text = json.dumps(doc, ensure_ascii=data.draw(st.booleans()))
    return _spoil_text(data, text.encode("utf-8", "surrogatepass"))


# --- running the command line -----------------------------------------------------------------


@contextlib.contextmanager
def _streams(stdin: bytes = b"") -> Iterator[tuple[io.BytesIO, io.BytesIO]]:
    """Standard streams as a process has them: output encoded strictly as UTF-8 (a pipe),
    errors with backslashes for what cannot be encoded (Python's own setting)."""
    out, err = io.BytesIO(), io.BytesIO()
    saved = sys.stdin, sys.stdout, sys.stderr
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    sys.stdout = io.TextIOWrapper(out, encoding="utf-8", write_through=True)
    sys.stderr = io.TextIOWrapper(
        err, encoding="utf-8", errors="backslashreplace", write_through=True
    )
    try:
        yield out, err
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved


def _run(argv: list[str], statuses: set[int], stdin: bytes = b"", *, files: int = 1) -> int:
    """Run ``gaple argv`` and assert the outcome every reader owes its user: under status 2,
    one line on standard error per bad file, each from gaple (at most ``files``)."""
    began = time.perf_counter()
    with _streams(stdin) as (out, err):
        status = main(argv)
        errors = err.getvalue().decode("utf-8")
        output = out.getvalue().decode("utf-8")
    seconds = time.perf_counter() - began
    assert status in statuses, errors
    assert "Traceback" not in errors
    _nothing_hidden(output)
    _nothing_hidden(errors)
    if status == 2:
        assert 1 <= len(errors.splitlines()) <= files, errors
        assert all(line.startswith("gaple ") for line in errors.splitlines()), errors
    assert seconds < SECONDS, f"{seconds:.1f} s for {argv}"
    return status


def _nothing_hidden(text: str) -> None:
    """No hidden character raw in ``text`` but the newlines that end its lines."""
    for line in text.split("\n"):
        assert printable(line) == line, f"raw hidden characters in {line!r}"


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("hostile")


# --- the readers ------------------------------------------------------------------------------


@HOSTILE
@given(data=st.data())
def test_check_of_a_hostile_json_file(folder: Path, data: st.DataObject) -> None:
    path = folder / "transcript.json"
    path.write_bytes(_hostile(data, TRANSCRIPT))
    # 0 conforms, 1 diverges, 2 not a transcript.
    _run(["check", str(path), "--format", data.draw(st.sampled_from(["text", "json"]))], {0, 1, 2})


@st.composite
def _log(draw: st.DrawFn) -> bytes:
    data = draw(st.data())
    lines = [_hostile(data, TRANSCRIPT) for _ in range(draw(st.integers(1, 3)))]
    return b"\n".join(line.replace(b"\n", b" ") for line in lines)


@HOSTILE
@given(log=_log(), stdin=st.booleans(), form=st.sampled_from(["text", "json"]))
def test_check_of_a_hostile_json_lines_log(
    folder: Path, log: bytes, stdin: bool, form: str
) -> None:
    path = folder / "log.jsonl"
    path.write_bytes(log)
    argv = ["check", "-" if stdin else str(path), "--format", form]
    _run(argv, {0, 1, 2}, stdin=log if stdin else b"")


@HOSTILE
@given(data=st.data())
def test_score_of_a_hostile_document(folder: Path, data: st.DataObject) -> None:
    path = folder / "position.json"
    path.write_bytes(_hostile(data, data.draw(st.sampled_from([POSITION, TRANSCRIPT]))))
    # 0 scored, 2 not a finished position or transcript.
    _run(["score", str(path), "--format", data.draw(st.sampled_from(["text", "json"]))], {0, 2})


@settings(HOSTILE, max_examples=2_000 if CI else 40)  # each a whole run with its report
@given(data=st.data(), base=st.sampled_from([CASE, RESULT_CASE]), without_rules=st.booleans())
def test_a_hostile_case_file(
    folder: Path, data: st.DataObject, base: JSON, without_rules: bool
) -> None:
    cases = folder / "cases"
    cases.mkdir(exist_ok=True)
    (cases / "case.json").write_bytes(_hostile(data, base))
    argv = ["conformance", "run", "--reference", "--cases", str(cases)]
    argv += ["--report", str(folder / "run.jsonl"), "--junit", str(folder / "run.xml")]
    with pytest.MonkeyPatch.context() as patch:
        if without_rules:
            # An engine that declares the rules level but leaves out the optional field.
            patch.setattr(ReferenceEngine, "request", _without_rules(ReferenceEngine.request))
        # 0 conforms, 1 a case failed (its expectations were spoilt), 2 not a case, 3 skipped.
        _run(argv, {0, 1, 2, 3})


def _without_rules(
    request: Callable[[ReferenceEngine, dict[str, JSON]], dict[str, JSON]],
) -> Callable[[ReferenceEngine, dict[str, JSON]], dict[str, JSON]]:
    def answer(engine: ReferenceEngine, message: dict[str, JSON]) -> dict[str, JSON]:
        reply = request(engine, message)
        for inner in [reply, *reply.get("replies", [])]:
            if inner.get("type") == "result":
                inner.pop("rules", None)
        return reply

    return answer


_REPORT = [_header(), *FOUR, _footer(FOUR)]
"""A whole report of four cases, one of each status (tests/test_reports.py)."""


@HEAVY
@given(data=st.data(), html=st.booleans())
def test_a_hostile_report_for_summary_and_merge(
    folder: Path, data: st.DataObject, html: bool
) -> None:
    report = folder / "report.jsonl"
    lines = [_hostile(data, record).replace(b"\n", b" ") for record in _REPORT]
    report.write_bytes(b"\n".join(lines) + b"\n")
    page = folder / "report.html"
    page.unlink(missing_ok=True)
    summary = ["conformance", "summary", str(report), *(["--html", str(page)] if html else [])]
    # 0 shown, 2 not a complete report (or a failure's position does not replay).
    _run(summary, {0, 2})
    if page.exists():
        _nothing_hidden(page.read_text("utf-8"))
    _run(["conformance", "merge", str(report), "--out", str(folder / "merged.jsonl")], {0, 2})


@HOSTILE
@given(
    depth=st.integers(1, 3_000),
    kind=st.sampled_from(["error", "state", "batch"]),
)
def test_a_reply_nested_to_any_depth_under_validate(depth: int, kind: str) -> None:
    nested: JSON = []
    for _ in range(depth - 1):
        nested = [nested]
    reply: dict[str, JSON] = {
        "error": {"type": "error", "message": nested},
        "state": {"type": "state", "legal": nested},
        "batch": {"type": "batch", "replies": [{"type": "state", "line": nested}]},
    }[kind]
    request = "batch" if kind == "batch" else "state"
    # Refused, whatever the depth; nothing else is raised (RecursionError before issue 26).
    with pytest.raises(EngineError):
        VALIDATOR.check_reply(request, reply, batched=[{"type": "state"}])


class _Full(io.RawIOBase):
    """A file on a full disk: every write fails as the kernel says it (ENOSPC)."""

    full = True

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        if self.full:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return len(data)


@HEAVY
@given(command=st.integers(0, 10), form=st.sampled_from(["text", "json"]), full=st.booleans())
def test_every_command_with_its_output_on_a_full_disk(
    folder: Path, command: int, form: str, full: bool
) -> None:
    transcript = folder / "full.json"
    transcript.write_text(json.dumps(TRANSCRIPT), "utf-8")
    report = folder / "full-report.jsonl"
    # The one shard of its run, so that merge gets as far as writing.
    whole = [_header(shard={"index": 1, "count": 1}), *_REPORT[1:]]
    report.write_text("".join(json.dumps(r) + "\n" for r in whole), "utf-8")
    cases = folder / "full-cases"
    cases.mkdir(exist_ok=True)
    (cases / "case.json").write_text(json.dumps(CASE), "utf-8")
    run = ["conformance", "run", "--reference", "--cases", str(cases)]
    argv = [
        ["play", "--seed", "1", "--format", form],
        ["match", "--seed", "1", "--format", form],
        ["variants", "--format", form],
        ["score", str(transcript), "--format", form],
        ["check", str(transcript), "--format", form],
        run,
        [*run, "--report", "/dev/full"],
        [*run, "--junit", "/dev/full"],
        ["conformance", "summary", str(report)],
        ["conformance", "summary", str(report), "--html", "/dev/full"],
        ["conformance", "merge", str(report), "--out", "/dev/full"],
    ][command]
    # Standard output on a full disk (``full``), or the file a command writes (/dev/full).
    on_stdout = full or "/dev/full" not in argv
    disk = _Full()
    stdout = io.TextIOWrapper(io.BufferedWriter(disk), encoding="utf-8")
    with _streams() as (_out, err):
        if on_stdout:
            sys.stdout = stdout
        status = main(argv)
        errors = err.getvalue().decode("utf-8")
    disk.full = False  # room again, so that closing the stream writes what it holds
    stdout.close()
    assert status == 2, errors
    assert "Traceback" not in errors
    # The last line (a run shows its progress before it) is gaple's, saying why.
    assert errors.splitlines()[-1].startswith("gaple "), errors
    assert "No space left on device" in errors.splitlines()[-1]


_SPECIAL = ["fifo", "device", "link to a fifo", "folder", "hard link", "dangling link"]


@HEAVY
@given(kinds=st.lists(st.sampled_from(_SPECIAL), min_size=1, max_size=4), data=st.data())
def test_special_files_among_the_case_files(
    tmp_path_factory: pytest.TempPathFactory, kinds: list[str], data: st.DataObject
) -> None:
    cases = tmp_path_factory.mktemp("special")
    (cases / "case.json").write_text(json.dumps(CASE), "utf-8")
    for number, kind in enumerate(kinds):
        name = cases / f"{data.draw(st.sampled_from(['a', 'z', 'sub/x']))}{number}.json"
        name.parent.mkdir(exist_ok=True)
        if kind == "fifo":
            os.mkfifo(name)
        elif kind == "device":
            name.symlink_to("/dev/zero")
        elif kind == "link to a fifo":
            os.mkfifo(cases / f"pipe{number}")
            name.symlink_to(cases / f"pipe{number}")
        elif kind == "folder":
            name.mkdir()
        elif kind == "hard link":
            os.link(cases / "case.json", name)
        else:
            name.symlink_to(cases / "nowhere")
    # 0 every file a case (hard links and folders only), 2 a file that is not; never a hang.
    _run(["conformance", "run", "--reference", "--cases", str(cases)], {0, 2}, files=len(kinds))


_STARTED = (
    "import sys, gaple.cli\n"
    "from gaple.cli.signals import SIGNALS\n"
    "install = SIGNALS.install\n"
    "def announced():\n"
    "    install()\n"
    "    print('started', flush=True)\n"
    "SIGNALS.install = announced\n"
    "sys.exit(gaple.cli.main())\n"
)
"""Runs gaple's main on the process's command line as the ``gaple`` command does, saying
"started" once main has caught the signals (the moments before: the family below)."""


@PROCESS
@given(delay=st.floats(0, 0.4), number=st.sampled_from([signal.SIGINT, signal.SIGTERM]))
def test_a_signal_at_any_moment_of_a_run_leaves_a_complete_report(
    tmp_path_factory: pytest.TempPathFactory, delay: float, number: int
) -> None:
    where = tmp_path_factory.mktemp("signal")
    (where / "cases").mkdir()
    (where / "cases" / "case.json").write_text(json.dumps(CASE), "utf-8")
    report, junit = where / "r.jsonl", where / "j.xml"
    argv = ["conformance", "run", "--reference", "--cases", str(where / "cases")]
    argv += ["--report", str(report), "--junit", str(junit)]
    process = subprocess.Popen(
        [sys.executable, "-c", _STARTED, *argv],
        env={**os.environ, "PYTHONPATH": str(Path(gaple.__file__).parent.parent)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout is not None
    # From the moment main has caught the signals (its first statement).
    assert process.stdout.readline() == b"started\n"
    time.sleep(delay)
    process.send_signal(number)
    _out, err = process.communicate(timeout=120)
    # 128 + the signal when it stopped the run, 0 when the run had finished: the signals stay
    # held to the process's end, so one after the run leaves its status and files alone.
    # (Before: death by the signal or a KeyboardInterrupt raised in SIGNALS.restore() once
    # main put Python's handlers back, or, raised between the run's try and its disarming
    # line, a report without its footer and no JUnit file.)
    assert process.returncode in {0, 128 + number}, err
    assert b"Traceback" not in err
    _complete(report, junit, interrupted=process.returncode == 128 + number)


def _complete(report: Path, junit: Path, *, interrupted: bool) -> None:
    """The report has its header and footer, which says whether the run was interrupted, and
    the JUnit file is written."""
    records = [json.loads(line) for line in report.read_text("ascii").splitlines()]
    assert records[0]["type"] == "header"
    assert records[-1]["type"] == "footer"
    assert records[-1]["interrupted"] is interrupted
    assert junit.read_text("utf-8").startswith("<?xml")


_LAUNCHERS = {
    "python -m gaple": "import runpy; runpy.run_module('gaple', run_name='__main__')",
    "gaple": "from gaple._start import main; sys.exit(main())",
}
"""The two ways the command starts: ``python -m gaple`` and the console script's lines."""

_FIRST = ("gaple", "gaple.__main__", "gaple._start")
"""What of gaple runs before it holds the signals: the package's lazy ``__init__`` and the
entry's first lines (a fraction of a millisecond, benchmarks/signal_window.py), imported but
not yet run to the end. A signal then cannot be held: it ends gaple as it would end any
Python program (the window the guide names, with the interpreter's start). Before the entry
was gaple._start, gaple.cli and gaple.cli.signals ran in the window too."""

_UNHELD, _BEFORE_GAPLE = 98, 99

_LAUNCHER = f"""
import os, signal, sys
def landed(number, frame):
    # Before gaple holds the signals: the exit says whether gaple's own code had run.
    ran = sorted(name for name in sys.modules if name.split(".")[0] == "gaple")
    if set(ran) - set({_FIRST!r}):
        sys.stderr.write(f"a signal in gaple's code before it was held: {{ran}}\\n")
        os._exit({_UNHELD})
    os._exit({_BEFORE_GAPLE})
for number in (signal.SIGINT, signal.SIGTERM):
    signal.signal(number, landed)
sys.stderr.write("launcher holds\\n")
sys.stderr.flush()
"""
"""Catches the signals until gaple does (replacing these handlers), so that a signal that
lands in gaple's code before it holds them is told apart from one in the interpreter's start
(a default death either way, for a real ``gaple``)."""

_MS = (0, 1, 2, 5, 10, 20, 50, 100)
_DEFAULT_STARTS = {
    (5, signal.SIGINT, "gaple"),
    (50, signal.SIGTERM, "python -m gaple"),
    (100, signal.SIGINT, "python -m gaple"),
    (100, signal.SIGTERM, "gaple"),
}
"""Four of the 32 starts by default (a second each), most late enough to land in gaple's start
on a busy machine too (the interpreter's own takes 20 to 50 ms there); all 32 under ci."""
_STARTS = [
    pytest.param(ms, number, entry, id=f"{ms}ms-{number.name}-{entry}")
    for ms in _MS
    for number in (signal.SIGINT, signal.SIGTERM)
    for entry in _LAUNCHERS
    if CI or (ms, number, entry) in _DEFAULT_STARTS
]


@pytest.mark.parametrize(("ms", "number", "entry"), _STARTS)
def test_a_signal_in_the_first_milliseconds_ends_gaple_cleanly(
    tmp_path: Path, ms: int, number: signal.Signals, entry: str
) -> None:
    # Before (signals held from main's first line, 0.25 s in): a signal from 20 ms on landed
    # in gaple's imports, a KeyboardInterrupt traceback or death by the signal for gaple, here
    # the launcher's exit 98 (seen at 20 ms with SIGTERM, and at 50 and 100 ms with both
    # signals and both entries, on a machine whose interpreter starts in 20 to 50 ms).
    report, junit = tmp_path / "r.jsonl", tmp_path / "j.xml"
    argv = ["conformance", "run", "--reference", "--report", str(report), "--junit", str(junit)]
    process = subprocess.Popen(
        [sys.executable, "-c", _LAUNCHER + _LAUNCHERS[entry], *argv],
        env={**os.environ, "PYTHONPATH": str(Path(gaple.__file__).parent.parent)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        cwd=tmp_path,
    )
    time.sleep(ms / 1000)
    process.send_signal(number)
    _out, err = process.communicate(timeout=120)
    assert process.returncode != _UNHELD, err.decode()
    if process.returncode == _BEFORE_GAPLE or b"launcher holds\n" not in err:
        return  # the signal landed before gaple's code ran (no report: nothing has started)
    # Held from gaple's first milliseconds: the run ends as soon as it starts, with its report
    # (no case) and JUnit file, or had finished (status 0, when the machine is very fast).
    assert b"Traceback" not in err, err.decode()
    assert process.returncode in {0, 128 + number}, err.decode()
    _complete(report, junit, interrupted=process.returncode != 0)


@HOSTILE
@given(
    option=st.sampled_from([*OPTION_NAMES, "nope"]),
    value=st.data(),
    command=st.sampled_from(["play", "match"]),
)
def test_a_hostile_set_value(option: str, value: st.DataObject, command: str) -> None:
    text = _hostile(value, value.draw(_VALUES)).decode("utf-8", "surrogateescape")
    # 0 played (the value happened to be a valid option), 2 refused.
    _run([command, "--set", f"{option}={text}", "--seed", "1"], {0, 2})


# --- issue 34: -k expressions and expectations files -------------------------------------------

_K_WORDS = st.sampled_from(["(", ")", "not", "and", "or", "open", "pass", "NOT", " ", "\t"])
_K_DEEP = st.tuples(st.sampled_from(["(", "not ", "not (", "(not "]), st.integers(0, 400))


@st.composite
def _k_expression(draw: st.DrawFn) -> str:
    """Words, keywords and parentheses in any order, any text among them, nested deeply."""
    parts = draw(st.lists(_K_WORDS | _TEXT, max_size=30))
    if draw(st.booleans()):
        opening, depth = draw(_K_DEEP)
        parts.insert(draw(st.integers(0, len(parts))), opening * depth)
    if draw(st.booleans()):  # long: up to some 3,000 words, past any message's width
        parts *= draw(st.integers(1, 100))
    return " ".join(parts)


@HOSTILE
@given(expression=_k_expression())
def test_a_hostile_k_expression(expression: str) -> None:
    try:
        selected = parse_keywords(expression)
    except BadExpression as error:
        message = str(error)
        assert "\n" not in message
        # At most SHOWN characters quoted of the expression and of the word at fault, each
        # escaped to at most ten (\U0002ebe1), and some words around them.
        assert len(message) < 2 * 10 * SHOWN + 200, len(message)
        assert printable(message) == message  # nothing hidden left raw
        return
    assert selected("open-pass-on-empty-table", ["pass"]) in (True, False)


_KNOWN = ("end-out-by-placing", "end-out-by-discarding")
_EXPECTATIONS: JSON = {
    "format": "gaple-expectations",
    "version": 1,
    "cases": {case: {"status": "failed", "reason": "a reason"} for case in _KNOWN},
}


@HOSTILE
@given(data=st.data(), reasons=st.lists(_TEXT, min_size=2, max_size=2))
def test_a_hostile_expectations_file(folder: Path, data: st.DataObject, reasons: list[str]) -> None:
    base = copy.deepcopy(_EXPECTATIONS)
    for case, reason in zip(_KNOWN, reasons, strict=True):
        base["cases"][case]["reason"] = reason
    path = folder / "hostile-expectations.json"
    path.write_bytes(_hostile(data, base))
    try:
        entries = read_expectations(path)
    except BadExpectations as error:
        message = str(error)
        assert "\n" not in message
        assert printable(message) == message
        return
    # Whatever was read writes back as UTF-8 and reads back the same (a lone surrogate or a
    # control kept as an escape).
    document = {
        "format": "gaple-expectations",
        "version": 1,
        "cases": {case: {"status": e.status, "reason": e.reason} for case, e in entries.items()},
    }
    path.write_bytes(expectations_text(document).encode("utf-8"))
    assert read_expectations(path) == entries


@settings(HOSTILE, max_examples=200 if CI else 5)  # each a whole run with its writes
@given(data=st.data(), reasons=st.lists(_TEXT, min_size=2, max_size=2))
def test_a_hostile_expectations_file_read_and_written_by_one_run(
    folder: Path, data: st.DataObject, reasons: list[str]
) -> None:
    base = copy.deepcopy(_EXPECTATIONS)
    for case, reason in zip(_KNOWN, reasons, strict=True):
        base["cases"][case]["reason"] = reason
    path = folder / "hostile-expectations-run.json"
    text = _hostile(data, base)
    path.write_bytes(text)
    cases = folder / "expectations-cases"
    cases.mkdir(exist_ok=True)
    for case in _KNOWN:  # read from a folder: building every case takes most of a second
        (cases / f"{case}.json").write_bytes(
            (ROOT / "spec/vectors/v1/end" / f"{case}.json").read_bytes()
        )
    argv = ["conformance", "run", "--reference", "--jobs", "1", "--cases", str(cases)]
    # 0: as expected (nothing listed that the run plays); 5: a listed case passed, the file
    # is outdated (the reference passes both); 2: refused.
    status = _run(
        [*argv, "--expectations", str(path), "--write-expectations", str(path)], {0, 2, 5}
    )
    if status == 2:
        assert path.read_bytes() == text  # refused: the file is as it was
    else:
        json.loads(path.read_text("utf-8"))  # written whole, in UTF-8


# --- each limit, one at a time: the reader refuses it and accepts the case just inside ---------


@pytest.mark.parametrize(
    ("inside", "outside", "words"),
    [
        # 32 arrays open at once is the limit; 33 is one too many.
        ("[" * 32 + "]" * 32, "[" * 33 + "]" * 33, "line 1: more than 32 arrays or objects"),
        # 32 characters in a number is the limit.
        ("1" * 32, "1" * 33, "line 1: a number of more than 32 characters"),
        # 10,000 items (9,999 commas) is the limit; the 10,000th comma starts item 10,001.
        (
            "[" + "0," * 9_999 + "0]",
            "[" + "0," * 10_000 + "0]",
            "line 1: more than 10000 items in one array or object",
        ),
        # A number on line 3 is located there.
        ("[\n\n1]", "[\n\n" + "1" * 33 + "]", "line 3: a number of"),
        ('{"a": 1, "b": 1}', '{"a": 1, "a": 1}', 'duplicate key "a"'),
        ("[1.5]", "[NaN]", "line 1: not JSON (column 2): NaN is not a JSON number"),
        # The largest double is about 1.8e308.
        ("[1e308]", "[1e309]", "the number 1e309 is too large for a 64-bit float"),
        # Brackets in a string do not count.
        ('["' + "[" * 40 + '"]', "[" * 40 + "]" * 40, "line 1: more than 32 arrays"),
    ],
)
def test_each_limit_is_refused_just_outside_and_not_inside(
    inside: str, outside: str, words: str
) -> None:
    bounded.parse(inside)
    with pytest.raises(bounded.Refused) as caught:
        bounded.parse(outside)
    assert words in str(caught.value)


def test_a_document_over_the_size_limit_is_refused_without_reading_it_all() -> None:
    # One mebibyte (1,048,576 bytes) is the limit; the reader takes one byte more to see it.
    stream = io.BytesIO(b" " * (1 << 20) + b"0" * 100)
    with pytest.raises(bounded.Refused, match="more than 1048576 bytes"):
        bounded.read(stream)
    assert stream.tell() == (1 << 20) + 1
    assert bounded.read(io.BytesIO(b" " * ((1 << 20) - 1) + b"0")) == 0


def test_a_deep_file_is_one_located_line_on_stderr_for_check_and_score(folder: Path) -> None:
    # Before the bounded reader: RecursionError for both, and check's rejection on stdout.
    path = folder / "deep.json"
    path.write_text("[" * 100_000, "utf-8")
    for argv in (["check", str(path)], ["score", str(path)]):
        with _streams() as (out, err):
            assert main(argv) == 2
            assert out.getvalue() == b""
            assert f"{path}: line 1: more than 32 arrays".encode() in err.getvalue()


def test_a_lone_surrogate_key_is_escaped_in_json_output(folder: Path) -> None:
    # Before: UnicodeEncodeError when the record naming the key was printed.
    path = folder / "surrogate.json"
    path.write_bytes(b'{"rules": {"\\ud800": 1}, "deal": {"hands": []}, "actions": []}')
    with _streams() as (out, err):
        assert main(["check", str(path), "--format", "json"]) == 2
        (record,) = json.loads(out.getvalue())
        # The key round-trips through the JSON escape; the message shows it escaped.
        assert record["path"] == "$.rules.\ud800"
        assert b"$.rules.\\ud800: unknown option" in err.getvalue()


def test_a_json_lines_summary_stays_on_stdout_and_the_first_bad_line_goes_to_stderr(
    folder: Path,
) -> None:
    # Line 1 is not JSON and line 3 is not UTF-8 (0xff never starts a UTF-8 character).
    path = folder / "bad.jsonl"
    path.write_bytes(b"[\n\n\xff\n")
    with _streams() as (out, err):
        assert main(["check", str(path)]) == 2
        assert b"2 transcripts: 0 conform, 0 diverge, 2 invalid" in out.getvalue()
        assert err.getvalue().decode() == (
            f"gaple check: error: {path}: line 1: not JSON (column 2): Expecting value "
            "(2 invalid lines)\n"
        )


def test_a_json_lines_line_over_the_limit_is_skipped_and_the_next_is_read(folder: Path) -> None:
    path = folder / "long.jsonl"
    path.write_bytes(b"[" + b" " * (1 << 20) + b"]\n" + json.dumps(TRANSCRIPT).encode() + b"\n")
    with _streams() as (out, _err):
        assert main(["check", str(path)]) == 2
        # Line 1 is refused unread, line 2 (the random domino4d hand) replays and conforms.
        assert b"2 transcripts: 1 conform, 0 diverge, 1 invalid" in out.getvalue()
        assert b"(first: line 1: more than 1048576 bytes)" in out.getvalue()


def test_a_set_value_nested_deeply_is_refused_naming_the_option() -> None:
    with _streams() as (_out, err):
        assert main(["play", "--set", "max_pip=" + "[" * 1000]) == 2
        assert err.getvalue().startswith(b"gaple play: error: --set max_pip=[[[")
        assert b"more than 32 arrays or objects nested" in err.getvalue()


def test_the_harness_catches_a_reader_without_its_scan(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The broken reader: the scan switched off, as json.loads alone was before issue 11. The
    # deep document then reaches json.loads, which recurses past Python's limit.
    path = folder / "deep-unscanned.json"
    path.write_text("[" * 100_000 + "]" * 100_000, "utf-8")
    monkeypatch.setattr(bounded, "_scan", lambda _text, _limits: None)
    with pytest.raises(RecursionError):
        _run(["check", str(path)], {0, 1, 2})
    monkeypatch.undo()
    assert _run(["check", str(path)], {2}) == 2


def test_the_harness_catches_output_that_cannot_be_encoded(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The broken writer: JSON output without the surrogate escape, as before issue 11.
    # An unknown option is named by its JSON path, so the record holds the key.
    path = folder / "surrogate-key.json"
    path.write_bytes(b'{"rules": {"\\ud800": 1}, "deal": {"hands": []}, "actions": []}')
    argv = ["check", str(path), "--format", "json"]
    monkeypatch.setattr(check, "dump_json", lambda data: json.dumps(data, ensure_ascii=False))
    with pytest.raises(UnicodeEncodeError):
        _run(argv, {0, 1, 2})
    monkeypatch.undo()
    assert _run(argv, {2}) == 2
