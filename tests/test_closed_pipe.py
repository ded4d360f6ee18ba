"""A reader that leaves early (``gaple ... | head -c1``, ``| true``) changes no exit status and
no file: every command runs with its standard output a pipe closed before the command starts
writing, and must end as it would with the pipe open, without noise on standard error."""

from __future__ import annotations

import io
import json
import os
import shlex
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TextIO

import pytest

from gaple.cli import main
from gaple.io import state_to_json
from gaple.presets import ruleset
from gaple.simulate import random_hand

ROOT = Path(__file__).resolve().parent.parent
BUG = shlex.join([sys.executable, str(ROOT / "examples" / "bugs" / "adapter.py"), "--bug"])
# wrong-end puts a tile on whichever end fits, which breaks play.match-end in the domino4d
# cases that place on the left end (play-domino4d-e002 among them): that engine does not conform.
WRONG_END = f"{BUG} wrong-end"


Gaple = Callable[..., int]


def _closed(buffering: str) -> TextIO:
    """A text stream on a pipe whose reader has gone, buffered as Python buffers standard
    output by default, or written through as under ``python -u`` or PYTHONUNBUFFERED."""
    read, write = os.pipe()
    os.close(read)
    if buffering == "buffered":
        return open(write, "w", encoding="utf-8")
    raw = open(write, "wb", buffering=0)  # noqa: SIM115 (closed with the text stream)
    return io.TextIOWrapper(raw, encoding="utf-8", write_through=True)


@pytest.fixture(params=["buffered", "unbuffered"])
def closed_pipe(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[Gaple]:
    """``gaple ARGV`` in process with standard output a pipe whose reader is gone before gaple
    writes: its exit status."""
    streams: list[TextIO] = []

    def gaple(*argv: str | Path) -> int:
        stream = _closed(request.param)
        streams.append(stream)
        monkeypatch.setattr(sys, "stdout", stream)
        status = main([str(word) for word in argv])
        # What the interpreter does at exit: a failure here is its "Exception ignored ...
        # BrokenPipeError" on standard error and exit status 120.
        stream.flush()
        monkeypatch.undo()
        return status

    yield gaple
    for stream in streams:
        stream.close()


def conforming_transcript() -> dict[str, Any]:
    """A domino4d hand played by gaple: it conforms."""
    return state_to_json(random_hand(ruleset("domino4d"), seed=5))


def diverging_transcript() -> dict[str, Any]:
    """A domino4d hand claimed blocked after two actions: the hand goes on, so it diverges
    (end.blocked, as tests/test_check.py shows)."""
    transcript = conforming_transcript()
    transcript["actions"] = transcript["actions"][:2]
    for key in ("to_act", "line", "ends", "hands", "discards"):
        del transcript[key]
    transcript["ending"] = "blocked"
    return transcript


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Saved run reports of the domino4d cases: gaple itself, the wrong-end engine, and the
    two shards of gaple's own run."""
    folder = tmp_path_factory.mktemp("reports")
    domino4d = ["--variant", "domino4d"]
    runs = {
        "reference": ["--reference", *domino4d],
        "wrong-end": ["--impl", WRONG_END, *domino4d],
        "shard1": ["--reference", *domino4d, "--shard", "1/2"],
        "shard2": ["--reference", *domino4d, "--shard", "2/2"],
    }
    paths = {}
    for name, options in runs.items():
        paths[name] = folder / f"{name}.jsonl"
        main(["conformance", "run", *options, "--report", str(paths[name])])
    return paths


def test_run_of_a_failing_engine_exits_1_with_its_report_and_junit(
    closed_pipe: Gaple, tmp_path: Path
) -> None:
    report, junit = tmp_path / "report.jsonl", tmp_path / "junit.xml"
    status = closed_pipe(
        "conformance", "run", "--impl", WRONG_END, "--variant", "domino4d",
        "--report", report, "--junit", junit,
    )  # fmt: skip
    assert status == 1
    # The report is whole: its last line is the footer with the verdict.
    assert json.loads(report.read_text().splitlines()[-1])["verdict"] == "does not conform"
    assert "<testsuite" in junit.read_text()


def test_check_of_a_diverging_log_exits_1(closed_pipe: Gaple, tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    log.write_text(f"{json.dumps(conforming_transcript())}\n{json.dumps(diverging_transcript())}\n")
    assert closed_pipe("check", log) == 1
    assert closed_pipe("check", log, "--format", "json") == 1


def test_check_exits_1_when_the_diverging_file_comes_after_one_already_printed(
    closed_pipe: Gaple, tmp_path: Path
) -> None:
    # The first file's line is printed (and flushed) before the second is checked: the pipe
    # breaks there, before the verdict is known, and the check must still reach it.
    first, second = tmp_path / "a.json", tmp_path / "b.jsonl"
    first.write_text(json.dumps(conforming_transcript()))
    second.write_text(json.dumps(diverging_transcript()) + "\n")
    assert closed_pipe("check", first, second, "--jobs", "1") == 1


def test_summary_writes_the_html_page(
    closed_pipe: Gaple, reports: dict[str, Path], tmp_path: Path
) -> None:
    page = tmp_path / "summary.html"
    # A summary has no verdict of its own: 0 whatever the engines did.
    assert closed_pipe("conformance", "summary", reports["reference"], reports["wrong-end"],
                       "--html", page) == 0  # fmt: skip
    assert page.read_text().startswith("<!DOCTYPE html>")


def test_merge_writes_the_merged_report(
    closed_pipe: Gaple, reports: dict[str, Path], tmp_path: Path
) -> None:
    merged = tmp_path / "merged.jsonl"
    assert closed_pipe("conformance", "merge", reports["shard1"], reports["shard2"],
                       "--out", merged) == 0  # fmt: skip
    # gaple itself conforms, so the merged footer does too.
    assert json.loads(merged.read_text().splitlines()[-1])["verdict"] == "conforms"


def test_fuzz_of_a_failing_engine_exits_1_with_its_case_and_report(
    closed_pipe: Gaple, tmp_path: Path
) -> None:
    found, report = tmp_path / "found", tmp_path / "fuzz.json"
    status = closed_pipe(
        "conformance", "fuzz", "--impl", WRONG_END, "--variant", "domino4d",
        "--examples", "20", "--out", found, "--report", report,
    )  # fmt: skip
    assert status == 1
    assert len(list(found.glob("*.json"))) == 1
    assert json.loads(report.read_text())["finding"]["rule"] == "play.match-end"


def test_vectors_build_writes_and_check_finds_a_changed_file(
    closed_pipe: Gaple, tmp_path: Path
) -> None:
    spec = tmp_path / "spec"
    assert closed_pipe("vectors", "build", "--out", spec) == 0
    case = min(spec.glob("vectors/v1/*/*.json"))
    case.write_text(case.read_text() + " ")
    # One file differs from a fresh build: the vectors do not check.
    assert closed_pipe("vectors", "check", "--out", spec) == 1


def test_spec_writes_its_folder(closed_pipe: Gaple, tmp_path: Path) -> None:
    assert closed_pipe("spec", "--out", tmp_path / "spec") == 0
    assert (tmp_path / "spec" / "PROTOCOL.md").is_file()


@pytest.mark.parametrize(
    "argv",
    [
        ["variants"],
        ["play", "--variant", "domino4d", "--seed", "2"],
        ["match", "--variant", "domino4d", "--seed", "2"],
    ],
)
def test_a_command_without_verdict_exits_0(closed_pipe: Gaple, argv: list[str]) -> None:
    assert closed_pipe(*argv) == 0


def test_score_exits_0(closed_pipe: Gaple, tmp_path: Path) -> None:
    transcript = tmp_path / "hand.json"
    transcript.write_text(json.dumps(conforming_transcript()))
    assert closed_pipe("score", transcript) == 0


@pytest.mark.parametrize("unbuffered", ["", "1"])
@pytest.mark.parametrize(("argv", "status"), [(["--help"], 0), (["check", "diverging"], 1)])
def test_the_interpreter_exits_quietly_with_the_status(
    tmp_path: Path, unbuffered: str, argv: list[str], status: int
) -> None:
    # The real process: its standard output is a pipe closed before gaple writes, so the
    # interpreter's own flush at exit meets the closed pipe too.
    (tmp_path / "diverging").write_text(json.dumps(diverging_transcript()))
    env = {key: value for key, value in os.environ.items() if key != "PYTHONUNBUFFERED"}
    process = subprocess.Popen(
        [sys.executable, "-m", "gaple", *argv],
        cwd=tmp_path,
        env={**env, "PYTHONUNBUFFERED": unbuffered} if unbuffered else env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    assert process.stderr is not None
    process.stdout.close()
    errors = process.stderr.read()
    assert process.wait(timeout=300) == status
    # Neither Python's "Exception ignored ... BrokenPipeError" nor a traceback.
    assert "BrokenPipeError" not in errors
    assert "Traceback" not in errors
