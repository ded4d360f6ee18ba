"""The last twelve ways in (issue 26): each finding of the hostile campaign, reproduced.

Every test here ends in a traceback, a hang, a write outside the folder or a raw control
character on the code before the fix; the families of input they stand for are generated in
tests/test_hostile_documents.py.
"""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path
from typing import Any

import pytest

import gaple
import gaple.conformance.vectors as vectors_module
from gaple.cli import main
from gaple.cli.signals import Signals
from gaple.conformance.engines import EngineError, ReferenceEngine, Validator
from gaple.conformance.report import Progress
from gaple.conformance.runner import CaseOutcome, run_suite
from gaple.conformance.scenarios import all_cases
from gaple.conformance.summary import read_report
from gaple.conformance.vectors import VECTORS_DIR
from test_reports import _failed, _footer, _header, _write

JSON = Any
ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "spec"
SOURCE = str(Path(gaple.__file__).parent.parent)
"""Where the gaple under test lives, for the processes a test starts."""
DOUBLE_BLANK = SPEC / VECTORS_DIR / "random/pagat-4x7-double-blank-25"
"""Cases under a preset with double_blank_25 and a result checked at every level."""
PLAIN = SPEC / VECTORS_DIR / "open/open-double-blank-holder-leads.json"
"""A short case without a result."""


def _case(path: Path) -> dict[str, JSON]:
    case: dict[str, JSON] = json.loads(path.read_text("utf-8"))
    return case


def _cases_folder(folder: Path, *cases: dict[str, JSON]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for case in cases:
        # ensure_ascii: a lone surrogate is written as its escape, valid JSON in UTF-8.
        (folder / f"{case['id']}.json").write_text(json.dumps(case), "utf-8")
    return folder


def _python(code: str) -> list[str]:
    return [sys.executable, "-c", code]


def _environment() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": SOURCE}


# --- 1 and 2: a case whose result does not fit its hand ----------------------------------------

_WITHOUT_RULES = textwrap.dedent(
    """
    import json, subprocess, sys
    # gaple's own adapter, but every result reply loses its optional "rules" field.
    adapter = subprocess.Popen(
        [sys.executable, "-m", "gaple", "conformance", "adapter"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )
    def strip(reply):
        if reply.get("type") == "result":
            reply.pop("rules", None)
        for inner in reply.get("replies", []):
            strip(inner)
        return reply
    for line in sys.stdin:
        adapter.stdin.write(line)
        adapter.stdin.flush()
        print(json.dumps(strip(json.loads(adapter.stdout.readline()))), flush=True)
    """
)


def _engine_without_rules(folder: Path) -> str:
    script = folder / "without_rules.py"
    script.write_text(_WITHOUT_RULES, "utf-8")
    return shlex.join([sys.executable, str(script)])


def _double_blank_case() -> dict[str, JSON]:
    case = _case(DOUBLE_BLANK / "random-pagat-4x7-double-blank-25-3.json")
    # Reasoned: pagat-4x7 seats four players; the preset counts the double blank as 25.
    assert case["rules"]["players"] == 4
    assert case["rules"]["double_blank_25"] is True
    return case


def test_a_case_with_a_count_past_the_seats_is_refused_before_any_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Before: IndexError in compare._zero_zero_differs (state.hand(4)), a report header only.
    case = _double_blank_case()
    case["result"]["counts"].append(0)
    folder = _cases_folder(tmp_path / "cases", case)
    argv = ["conformance", "run", "--impl", _engine_without_rules(tmp_path), "--jobs", "1"]
    status = main([*argv, "--cases", str(folder), "--report", str(tmp_path / "r.jsonl")])
    err = capsys.readouterr().err
    assert status == 2, err
    assert "$.result.counts: 5 counts for 4 seats" in err
    assert len(err.strip().splitlines()) == 1


def test_a_case_whose_result_names_no_rule_is_refused_before_any_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Before: IndexError in compare._compare_rule_ids, against an engine that declares the
    # rules level and leaves out the optional field (nothing listed, nothing wanted).
    case = _double_blank_case()
    case["result"]["rules"] = []
    folder = _cases_folder(tmp_path / "cases", case)
    argv = ["conformance", "run", "--impl", _engine_without_rules(tmp_path), "--jobs", "1"]
    status = main([*argv, "--cases", str(folder)])
    err = capsys.readouterr().err
    assert status == 2, err
    assert "$.result.rules: empty" in err


# --- 3: a lone surrogate in a case file, with --report -----------------------------------------


def test_a_case_with_a_lone_surrogate_is_run_and_reported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Before: UnicodeEncodeError in vectors._digest while the header hashed the selection.
    case = _case(PLAIN)
    case["description"] = "x\ud800"
    folder = _cases_folder(tmp_path / "cases", case)
    report = tmp_path / "r.jsonl"
    argv = ["conformance", "run", "--reference", "--cases", str(folder), "--report", str(report)]
    assert main(argv) == 0, capsys.readouterr().err
    records = [json.loads(line) for line in report.read_text("ascii").splitlines()]
    assert [r["type"] for r in records] == ["header", "case", "footer"]
    assert records[0]["selection"]["cases"] == 1
    # The file as a build writes it holds the surrogate as its escape (six ASCII characters).
    assert '"description": "x\\ud800"' in vectors_module.dumps(case)


# --- 4: a failed record's step in the HTML page ------------------------------------------------


@pytest.mark.parametrize("step", ["\ud800", "<img src=x onerror=alert(1)>", "\x1b[2J\u009b"])
def test_the_step_of_a_failure_is_escaped_in_the_html_page(
    tmp_path: Path, step: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # Before: the step went into the page raw (UnicodeEncodeError for the surrogate).
    failed = {**_failed("c1", ["play.match-end"]), "step": step}
    report = _write(tmp_path / "r.jsonl", [_header(), failed, _footer([failed])])
    page = tmp_path / "r.html"
    docs = "https://docs.example/"
    argv = ["conformance", "summary", str(report), "--html", str(page), "--docs-url", docs]
    assert main(argv) == 0, capsys.readouterr().err
    text = page.read_text("utf-8")
    assert "<img" not in text
    assert "\x1b" not in text
    assert "\u009b" not in text
    # The step is shown, escaped: \ud800 as six characters, the markup as entities.
    assert {"\ud800": "after step \\ud800", "\x1b[2J\u009b": "after step \\x1b[2J\\x9b"}.get(
        step, "after step &lt;img src=x onerror=alert(1)&gt;"
    ) in text


# --- 5 and 8: the first line and every line of a report, bounded --------------------------------


def test_merge_of_a_report_whose_first_line_nests_deeply_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Before: RecursionError in _kind's json.loads.
    report = tmp_path / "deep.jsonl"
    report.write_text('{"type": ' + "[" * 100_000 + "\n", "utf-8")
    assert main(["conformance", "merge", str(report), "--out", str(tmp_path / "m")]) == 2
    err = capsys.readouterr().err
    assert "more than 40 arrays or objects nested" in err
    assert len(err.strip().splitlines()) == 1


_MEASURE = textwrap.dedent(
    """
    import os, subprocess, sys, threading
    # Started small, so its child's peak is the child's own: a process started straight from
    # a large test process inherits that process's peak at exec, and ru_maxrss reports it.
    with open(sys.argv[1], "wb") as errors:
        child = subprocess.Popen(
            [sys.executable, "-m", "gaple", *sys.argv[2:]],
            stdout=subprocess.DEVNULL, stderr=errors,
        )
    timer = threading.Timer(120, child.kill)
    timer.start()
    _pid, status, usage = os.wait4(child.pid, 0)
    timer.cancel()
    print(os.waitstatus_to_exitcode(status), usage.ru_maxrss)
    """
)


def _peak_mib(argv: list[str], folder: Path) -> tuple[int, float, str]:
    """Run ``gaple argv`` as a process: its status, its peak memory (MiB), its stderr. A
    reader that never stops is killed after 120 s and fails the test."""
    errors = folder / "stderr.txt"
    measured = subprocess.run(
        [sys.executable, "-c", _MEASURE, str(errors), *argv],
        env=_environment(),
        capture_output=True,
        text=True,
        check=True,
    )
    status, peak_kib = (int(word) for word in measured.stdout.split())
    return status, peak_kib / 1024, errors.read_text("utf-8", "replace")


def _sparse(path: Path, size: int) -> Path:
    # Zeros with no newline, on no disk space: a line far over any reader's limit.
    with path.open("wb") as stream:
        stream.truncate(size)
    return path


@pytest.mark.parametrize("command", ["summary", "merge"])
def test_summary_and_merge_refuse_a_long_line_without_reading_it(
    tmp_path: Path, command: str
) -> None:
    # Before: a 300 MB line cost 635 MB, and /dev/zero grew without end.
    line = _sparse(tmp_path / "long.jsonl", 300 << 20)
    out = ["--out", str(tmp_path / "m.jsonl")] if command == "merge" else []
    for report in (str(line), "/dev/zero"):
        status, peak, err = _peak_mib(["conformance", command, report, *out], tmp_path)
        assert status == 2, err
        assert "more than 8388608 bytes" in err
        assert "Traceback" not in err
        # A reader keeps one line of at most 8 MiB: gaple's own hundred or so MiB besides.
        assert peak < 250, f"{peak:.0f} MiB for {report}"


def test_vectors_check_compares_a_huge_file_without_reading_it_whole(tmp_path: Path) -> None:
    # Before: each file was read whole (1 GB cost 1.09 GB).
    out = tmp_path / "spec"
    subprocess.run(["cp", "-r", str(SPEC), str(out)], check=True)
    victim = out / VECTORS_DIR / "open/open-double-blank-holder-leads.json"
    _sparse(victim, 600 << 20)
    status, peak, err = _peak_mib(["vectors", "check", "--out", str(out)], tmp_path)
    assert status == 1, err
    assert peak < 250, f"{peak:.0f} MiB"


# --- 6: a deep error reply under --validate ----------------------------------------------------


def _nested(depth: int) -> JSON:
    value: JSON = []
    for _ in range(depth - 1):
        value = [value]
    return value


def test_a_deep_reply_is_refused_by_the_validator_at_every_depth() -> None:
    # Before: RecursionError in jsonschema's repr for the depths just short of json.loads's
    # own limit (985 in the command; here, deeper in pytest's stack, a little less).
    validator = Validator()
    for depth in range(1, 1200):
        with pytest.raises(EngineError):
            validator.check_reply("state", {"type": "error", "message": _nested(depth)})
    # 33 arrays open at once is one more than the bounded reader allows.
    with pytest.raises(EngineError, match="more than 32 arrays or objects nested"):
        validator.check_reply("state", {"type": "error", "message": _nested(33)})


# --- 7: writes that fail -----------------------------------------------------------------------


def test_a_report_on_a_full_disk_ends_with_one_line_and_a_junit_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Before: OSError in JsonLinesReport._write, no footer, no JUnit file.
    folder = _cases_folder(tmp_path / "cases", _case(PLAIN))
    junit = tmp_path / "junit.xml"
    argv = ["conformance", "run", "--reference", "--cases", str(folder)]
    assert main([*argv, "--report", "/dev/full", "--junit", str(junit)]) == 2
    err = capsys.readouterr().err
    assert err.splitlines()[-1] == (
        "gaple conformance: error: --report /dev/full: No space left on device "
        "(the report is incomplete)"
    )
    assert 'tests="1"' in junit.read_text("utf-8")


def _stdout_commands(tmp_path: Path, transcript: Path) -> list[list[str]]:
    folder = _cases_folder(tmp_path / "cases", _case(PLAIN))
    report = _write(tmp_path / "r.jsonl", [_header(), _footer([])])
    return [
        ["play", "--seed", "1"],
        ["variants"],
        ["score", str(transcript)],
        ["check", str(transcript)],
        ["conformance", "run", "--reference", "--cases", str(folder)],
        ["conformance", "summary", str(report)],
    ]


def test_every_command_with_its_output_on_a_full_disk_ends_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Before: a traceback (OSError: [Errno 28] No space left on device), status 1 or 120.
    transcript = tmp_path / "t.json"
    assert main(["play", "--seed", "1", "--format", "json"]) == 0
    transcript.write_text(capsys.readouterr().out, "utf-8")
    for argv in _stdout_commands(tmp_path, transcript):
        with Path("/dev/full").open("wb") as full:
            done = subprocess.run(
                [sys.executable, "-m", "gaple", *argv],
                env=_environment(),
                stdout=full,
                stderr=subprocess.PIPE,
                check=False,
            )
        err = done.stderr.decode("utf-8", "replace")
        assert done.returncode == 2, (argv, err)
        assert err.splitlines()[-1].endswith("error: cannot write: No space left on device"), err
        assert "Traceback" not in err, err
        assert "Exception ignored" not in err, err


# --- 9: a FIFO among the case files ------------------------------------------------------------


def test_a_fifo_among_the_case_files_is_named_not_waited_on(tmp_path: Path) -> None:
    # Before: the run blocked forever in the FIFO's open (the timeout fails the test).
    folder = _cases_folder(tmp_path / "cases", _case(PLAIN))
    os.mkfifo(folder / "pipe.json")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "gaple",
            "conformance",
            "run",
            "--reference",
            "--cases",
            str(folder),
        ],
        env=_environment(),
        capture_output=True,
        timeout=120,
        check=False,
    )
    err = done.stderr.decode()
    assert done.returncode == 2, err
    assert (
        err
        == f"gaple conformance: error: {folder / 'pipe.json'}: cannot read: not a regular file\n"
    )


# --- 10: links in a marked folder --------------------------------------------------------------


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("built") / "spec"
    assert main(["vectors", "build", "--out", str(out)]) == 0
    return out


def _copy(built: Path, tmp_path: Path) -> Path:
    out = tmp_path / "spec"
    subprocess.run(["cp", "-r", str(built), str(out)], check=True)
    return out


def test_a_hard_link_in_the_folder_does_not_carry_the_write_outside(
    built: Path, tmp_path: Path
) -> None:
    # Before: the build truncated the file in place, and so the file outside it is one with.
    out = _copy(built, tmp_path)
    victim = tmp_path / "victim.json"
    victim.write_text("mine", "utf-8")
    linked = out / "schema" / "case.schema.json"
    built_text = linked.read_text("utf-8")
    linked.unlink()
    os.link(victim, linked)
    assert main(["vectors", "build", "--out", str(out)]) == 0
    assert victim.read_text("utf-8") == "mine"
    assert linked.read_text("utf-8") == built_text


def test_a_folder_link_planted_after_the_checks_is_not_followed(
    built: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Before: O_NOFOLLOW covered the last component only; the files of the planted folder
    # were written outside (the race of the finding, made certain: the link is planted when
    # the stale files are sought, after every check and before any write).
    out, outside = _copy(built, tmp_path), tmp_path / "outside"
    outside.mkdir()
    play = out / VECTORS_DIR / "play"
    stale = vectors_module._stale

    def planting(*args: object) -> object:
        if not play.is_symlink():
            play.rename(tmp_path / "moved")
            play.symlink_to(outside, target_is_directory=True)
        return stale(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(vectors_module, "_stale", planting)
    main(["vectors", "build", "--out", str(out)])
    assert list(outside.iterdir()) == []


# --- 11: a signal before the run's handlers ----------------------------------------------------

_SIGNAL_AT_START = textwrap.dedent(
    """
    import os, signal, sys
    import gaple.cli, gaple.cli.parser as cli
    parse = cli.build_parser
    def signalled(*args):
        # The signal arrives as main starts, before anything of the command is imported.
        os.kill(os.getpid(), {number})
        return parse(*args)
    cli.build_parser = signalled
    sys.exit(gaple.cli.main(sys.argv[1:]))
    """
)


@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_as_main_starts_leaves_a_complete_report(tmp_path: Path, number: int) -> None:
    # Before: a KeyboardInterrupt traceback (SIGINT) or death by signal (SIGTERM), no files.
    folder = _cases_folder(tmp_path / "cases", _case(PLAIN))
    report, junit = tmp_path / "r.jsonl", tmp_path / "j.xml"
    argv = ["conformance", "run", "--reference", "--cases", str(folder)]
    argv += ["--report", str(report), "--junit", str(junit)]
    done = subprocess.run(
        _python(_SIGNAL_AT_START.format(number=int(number))) + argv,
        env=_environment(),
        capture_output=True,
        timeout=120,
        check=False,
    )
    err = done.stderr.decode()
    assert done.returncode == 128 + number, err
    assert "Traceback" not in err
    records = [json.loads(line) for line in report.read_text("ascii").splitlines()]
    # Nothing ran: a header, then a footer that says the run was interrupted.
    assert [r["type"] for r in records] == ["header", "footer"]
    assert records[-1]["interrupted"] is True
    # The JUnit file is written, with no test case.
    assert "<testcase" not in junit.read_text("utf-8")


def test_ctrl_c_in_a_command_without_a_report_is_one_line() -> None:
    # Before: gaple check waiting on its standard input answered Ctrl-C with a
    # KeyboardInterrupt traceback. Its input is a pipe left open, so once the process waits on
    # it (the kernel's wait channel, Linux) it is inside the command.
    process = subprocess.Popen(
        [sys.executable, "-m", "gaple", "check", "-"],
        env=_environment(),
        stdin=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
    )
    assert process.stdin is not None
    assert process.stderr is not None
    channel = Path(f"/proc/{process.pid}/wchan")
    deadline = time.monotonic() + 60
    while not channel.read_text().endswith("pipe_read") and time.monotonic() < deadline:
        time.sleep(0.02)
    process.send_signal(signal.SIGINT)
    err = process.stderr.read().decode()
    process.stdin.close()
    assert process.wait(timeout=60) == 130, err
    assert err == "gaple check: interrupted\n"


# --- 12: raw characters in JSON output ---------------------------------------------------------


def test_check_json_escapes_every_hidden_character_of_a_key(
    tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    # Before: CSI (U+009B), RLO (U+202E), DEL and U+2028 reached stdout raw.
    key = "\u009b2J\u202e\x7f\u2028"
    path = tmp_path / "key.json"
    document = {"rules": {key: 1}, "deal": {"hands": []}, "actions": []}
    path.write_text(json.dumps(document), "utf-8")
    assert main(["check", str(path), "--format", "json"]) == 2
    out = capsysbinary.readouterr().out.decode("utf-8")
    assert not {"\u009b", "\u202e", "\x7f", "\u2028"} & set(out)
    (record,) = json.loads(out)
    assert record["path"] == f"$.rules.{key}"  # the escapes read back as the key


# --- and fuzz: a report on an engine error -----------------------------------------------------


def test_fuzz_writes_its_report_when_it_ends_on_an_engine_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from bad_engines import write_bad_engine  # noqa: PLC0415

    command = write_bad_engine(tmp_path, "crash-mid-case")
    report = tmp_path / "fuzz.json"
    argv = ["conformance", "fuzz", "--impl", command, "--variant", "domino4d", "--jobs", "1"]
    argv += ["--examples", "5", "--timeout", "5", "--shard", "1/2", "--report", str(report)]
    assert main(argv) == 2
    written = json.loads(report.read_text("utf-8"))
    assert written["error"].startswith("engine error: the engine failed during the search")
    assert written["shard"] == {"index": 1, "count": 2}
    capsys.readouterr()
    assert main(["conformance", "merge", str(report), "--out", str(tmp_path / "m.json")]) == 2
    assert "the shard ended on an error: engine error" in capsys.readouterr().err


def test_signal_handlers_are_put_back_after_main() -> None:
    before = signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)
    assert main(["variants", "--format", "json"]) == 0
    assert (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)) == before


def test_a_signal_is_raised_only_inside_the_armed_block() -> None:
    # Before: fuzz armed the catcher and never disarmed it once the search returned, so a
    # signal while it wrote its case and report was a traceback; and the run disarmed one
    # statement after its try, a raise in between leaving a report without its footer.
    catcher = Signals()
    before = signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)
    catcher.install()
    try:
        with catcher.armed():
            pass
        signal.raise_signal(signal.SIGINT)  # after the block: noted, nothing raised
        assert catcher.status() == 128 + signal.SIGINT
    finally:
        catcher.restore()
    assert (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)) == before


def test_a_held_signal_is_raised_as_the_armed_block_starts() -> None:
    catcher = Signals()
    catcher.install()
    try:
        signal.raise_signal(signal.SIGTERM)  # held: noted, nothing raised
        assert catcher.received == signal.SIGTERM
        with pytest.raises(KeyboardInterrupt), catcher.armed():
            pytest.fail("the held signal was not raised")
    finally:
        catcher.restore()


def test_the_first_signal_in_an_armed_block_is_raised_once() -> None:
    catcher = Signals()
    catcher.install()
    try:
        with catcher.armed():
            try:
                signal.raise_signal(signal.SIGINT)
                pytest.fail("the signal was not raised")
            except KeyboardInterrupt:
                # The cleanup after the first signal runs to its end: a second is only noted.
                signal.raise_signal(signal.SIGTERM)
        assert catcher.status() == 128 + signal.SIGINT
    finally:
        catcher.restore()


def test_a_signal_as_the_jobs_start_ends_the_run_as_interrupted(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Found by the ci profile's signal family: a signal raised while the second job's thread
    # was being started left it unstarted, and joining it raised "cannot join thread before it
    # is started" (a traceback, status 1). The interruption is raised as Thread.start of job 1
    # begins, as the armed block raises a held signal.
    start = threading.Thread.start

    def interrupted(thread: threading.Thread) -> None:
        if thread.name == "gaple-job-1":
            raise KeyboardInterrupt
        start(thread)

    monkeypatch.setattr(threading.Thread, "start", interrupted)
    summary = run_suite(all_cases()[:2], ReferenceEngine, jobs=2)
    assert summary.interrupted


def test_a_signal_while_a_case_is_recorded_leaves_a_report_that_reads_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Before: a signal between the outcome kept for the footer and its line in the report
    # left a footer counting a case the report did not hold, a report that summary and merge
    # refuse. Made certain here: the signal comes as the progress line counts the 2nd case.
    second = {**_case(PLAIN), "id": "second"}
    folder = _cases_folder(tmp_path / "cases", _case(PLAIN), second)
    update = Progress.update

    def signalled(progress: Progress, outcome: CaseOutcome) -> None:
        update(progress, outcome)
        if progress.done == 2:
            signal.raise_signal(signal.SIGINT)

    monkeypatch.setattr(Progress, "update", signalled)
    report = tmp_path / "r.jsonl"
    argv = ["conformance", "run", "--reference", "--cases", str(folder), "--jobs", "1"]
    assert main([*argv, "--report", str(report)]) == 128 + signal.SIGINT
    read = read_report(report)  # raises BadReport if the counts disagree with the lines
    # Both cases finished before the signal was raised, and both are in the report.
    assert [case["status"] for case in read.cases] == ["passed", "passed"]
