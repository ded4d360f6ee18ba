"""The conformance runner: the spec passes its own suite, and broken engines are caught.

Broken engines here are the reference engine with one behaviour changed, each breaking one
rule on purpose; the test asserts the runner fails the suite naming that rule. Misbehaving
processes (crash, hang, garbage) must end as ``errored`` with the engine restarted.
"""

from __future__ import annotations

import json
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from gaple.cli import main
from gaple.conformance.engines import EngineError, ReferenceEngine, SubprocessEngine, Validator
from gaple.conformance.report import JsonLinesReport
from gaple.conformance.runner import Summary, run_suite
from gaple.conformance.scenarios import all_cases
from mutants import write_mutant_adapter

JSON = Any
ADAPTER = f"{sys.executable} -m gaple.conformance adapter"


@pytest.fixture(scope="module")
def cases() -> list[dict[str, JSON]]:
    return all_cases()


def _failed_rules(summary: Summary) -> set[str | None]:
    return {o.rule for o in summary.outcomes if o.status == "failed"}


def test_reference_engine_passes_every_case(cases: list[dict[str, JSON]]) -> None:
    summary = run_suite(cases, ReferenceEngine)
    assert summary.count("passed") == len(cases)
    assert summary.ok


def test_subprocess_adapter_of_gaple_passes_every_case_with_validation(
    cases: list[dict[str, JSON]],
) -> None:
    validator = Validator()
    summary = run_suite(
        cases[:30], lambda: SubprocessEngine(ADAPTER, timeout=20, validator=validator)
    )
    assert [o.status for o in summary.outcomes] == ["passed"] * 30


class _Mutant(ReferenceEngine):
    """The reference engine with one reply rewritten by :meth:`mutate`."""

    def mutate(self, request: dict[str, JSON], reply: dict[str, JSON]) -> dict[str, JSON]:
        raise NotImplementedError

    def request(self, message: dict[str, JSON]) -> dict[str, JSON]:
        return self.mutate(message, super().request(message))


class _PassAnyTime(_Mutant):
    """Breaks turn.forced-play: offers a pass (pass option) even when a tile fits."""

    def mutate(self, request: dict[str, JSON], reply: dict[str, JSON]) -> dict[str, JSON]:
        state = self._state
        offered = (
            request["type"] == "state"
            and state is not None
            and state.rules.blocked_action.value == "pass"
            and reply["line"]
            and reply["to_act"] is not None
        )
        if offered and "pass" not in reply["legal"]:
            reply["legal"] = [*reply["legal"], "pass"]
        return reply


class _NoHandOver(_Mutant):
    """Breaks end.final: after the end it rejects actions with wrong-seat instead."""

    def mutate(self, request: dict[str, JSON], reply: dict[str, JSON]) -> dict[str, JSON]:  # noqa: ARG002
        if reply.get("code") == "hand-over":
            reply["code"] = "wrong-seat"
        return reply


class _LateBlock(_Mutant):
    """Breaks end.blocked: never reports a blocked ending."""

    def mutate(self, request: dict[str, JSON], reply: dict[str, JSON]) -> dict[str, JSON]:
        if request["type"] == "state" and reply["ending"] == "blocked":
            reply["ending"] = None
        return reply


class _Unsupporting(ReferenceEngine):
    """Declines every partnership deal and declares only the line level."""

    def request(self, message: dict[str, JSON]) -> dict[str, JSON]:
        if message["type"] == "hello":
            return {**super().request(message), "levels": ["line"]}
        if message["type"] == "start" and message["rules"]["partnership"]:
            return {"type": "unsupported", "reason": "no partnerships here"}
        return super().request(message)


@pytest.mark.parametrize(
    ("engine", "rule"),
    [(_PassAnyTime, "turn.forced-play"), (_NoHandOver, "end.final"), (_LateBlock, "end.blocked")],
)
def test_a_mutant_engine_fails_naming_the_rule_it_breaks(
    cases: list[dict[str, JSON]], engine: type[ReferenceEngine], rule: str
) -> None:
    summary = run_suite(cases, engine)
    assert not summary.ok
    assert _failed_rules(summary) == {rule}


def test_unsupported_variants_and_undeclared_levels_are_skipped_with_the_reason(
    cases: list[dict[str, JSON]],
) -> None:
    summary = run_suite(cases, _Unsupporting)
    skipped = [o for o in summary.outcomes if o.status == "skipped"]
    # A case is played with line alone unless it needs turns; rules is never needed to play.
    line_only = [c for c in cases if "turns" not in c["levels"]]
    assert summary.count("passed") == len(line_only)
    assert len(skipped) == len(cases) - len(line_only)
    assert all("turns" in o.message for o in skipped)
    assert summary.ok


def test_level_option_limits_what_is_compared(cases: list[dict[str, JSON]]) -> None:
    # _LateBlock only misreports the ending, a turns-level field: checking line alone passes.
    summary = run_suite(cases, _LateBlock, levels=["line"])
    assert summary.ok
    assert summary.count("passed") == sum("turns" not in c["levels"] for c in cases)


def _script(tmp_path: Path, body: str) -> str:
    path = tmp_path / "adapter.py"
    path.write_text(
        "import json, sys, time\n"
        "for line in sys.stdin:\n"
        "    m = json.loads(line)\n"
        "    if m['type'] == 'hello':\n"
        "        print(json.dumps({'type': 'hello', 'protocol': 1, 'name': 'x', 'levels':"
        " ['line', 'turns'], 'error_codes': True}), flush=True)\n"
        "        continue\n" + body
    )
    return f"{sys.executable} {path}"


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ("    sys.exit(3)\n", "exited with status 3"),
        ("    time.sleep(30)\n", "no reply to 'start' within 0.5 s"),
        ("    print('not json', flush=True)\n", "not JSON"),
        ("    print(json.dumps({'type': 'error', 'message': 'boom'}), flush=True)\n", "boom"),
    ],
)
def test_a_misbehaving_engine_is_errored_and_restarted_for_each_case(
    cases: list[dict[str, JSON]], tmp_path: Path, body: str, words: str
) -> None:
    command = _script(tmp_path, body)
    starts: list[int] = []

    def make() -> SubprocessEngine:
        starts.append(1)
        return SubprocessEngine(command, timeout=0.5)

    summary = run_suite(cases[:3], make)
    assert [o.status for o in summary.outcomes] == ["errored"] * 3
    assert all(words in o.message for o in summary.outcomes)
    assert len(starts) == 3


def test_max_fail_stops_the_run(cases: list[dict[str, JSON]]) -> None:
    summary = run_suite(cases, _NoHandOver, max_fail=2)
    assert summary.count("failed") == 2
    assert summary.stopped_early


def test_validate_rejects_a_reply_out_of_protocol() -> None:
    validator = Validator()
    with pytest.raises(EngineError, match=r"at \$\.legal\[0\]"):
        validator.check_reply(
            "state",
            {
                "type": "state",
                "to_act": 0,
                "line": [],
                "ends": None,
                "legal": ["lead 0"],
                "hand_sizes": [7, 7, 7, 7],
                "discard_counts": [0, 0, 0, 0],
                "ending": None,
            },
        )
    with pytest.raises(EngineError, match="reply of type 'ok' to 'state'"):
        validator.check_reply("state", {"type": "ok"})


def test_cli_run_writes_reports_and_exits_1_on_failure(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report, junit = tmp_path / "r.jsonl", tmp_path / "j.xml"
    argv = ["conformance", "run", "--impl", ADAPTER, "--variant", "domino4d", "--validate"]
    assert main([*argv, "--report", str(report), "--junit", str(junit)]) == 0
    out = capsys.readouterr().out
    assert "CONFORMS" in out
    records = [json.loads(line) for line in report.read_text().splitlines()]
    assert records[0]["type"] == "header"
    assert records[0]["engine"]["name"] == "gaple-reference"
    assert records[-1]["type"] == "footer"
    cases = [r for r in records if r["type"] == "case"]
    assert len(cases) == records[0]["cases"] == records[-1]["counts"]["passed"]
    suites = ET.parse(junit).getroot()
    assert sum(int(s.get("tests", "0")) for s in suites) == len(cases)


def test_cli_run_reports_a_failure_with_its_rule(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = tmp_path / "broken.py"
    # gaple's own adapter, except that every rejection loses its error code's meaning.
    write_mutant_adapter(
        broken,
        "    if r.get('code') == 'no-match':\n        r['code'] = 'not-in-hand'",
    )
    report = tmp_path / "r.jsonl"
    argv = ["conformance", "run", "--impl", f"{sys.executable} {broken}", "--report", str(report)]
    assert main(argv) == 1
    out = capsys.readouterr().out
    assert "FAILED play-domino4d-e002: at step 5 (place 1-4 left): code [play.match-end]" in out
    failed = [json.loads(x) for x in report.read_text().splitlines() if '"failed"' in x]
    assert failed
    assert failed[0]["rule"] == "play.match-end"
    assert (failed[0]["expected"], failed[0]["actual"]) == ("no-match", "not-in-hand")


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["conformance", "run", "--reference", "--variant", "nope"], "unknown variant"),
        (["conformance", "run", "--reference", "--timeout", "0"], "--timeout must be positive"),
        (["conformance", "run", "--reference", "--cases", "/nonexistent"], "not a folder"),
        (["conformance", "run", "--reference", "--max-fail", "0"], "--max-fail"),
    ],
)
def test_cli_usage_errors_are_one_line_with_status_2(
    argv: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert words in err
    assert len(err.strip().splitlines()) == 1


def test_cli_run_from_the_committed_case_files(capsys: pytest.CaptureFixture[str]) -> None:
    spec = Path(__file__).resolve().parent.parent / "spec" / "vectors" / "v1"
    assert main(["conformance", "run", "--reference", "--cases", str(spec)]) == 0
    assert "CONFORMS" in capsys.readouterr().out


class _Interrupted(ReferenceEngine):
    """Ctrl-C arrives while the fourth case starts."""

    starts = 0

    def request(self, message: dict[str, JSON]) -> dict[str, JSON]:
        if message["type"] == "start":
            type(self).starts += 1
            if type(self).starts == 4:
                raise KeyboardInterrupt
        return super().request(message)


def test_an_interrupted_run_keeps_the_cases_it_finished(
    cases: list[dict[str, JSON]], tmp_path: Path
) -> None:
    path = tmp_path / "r.jsonl"
    with path.open("w") as stream:
        report = JsonLinesReport(stream, impl="x", total=len(cases), levels=["line"])
        summary = run_suite(cases, _Interrupted, on_hello=report.header, on_case=report.case)
        report.footer(summary)
    assert summary.interrupted
    assert [o.status for o in summary.outcomes] == ["passed"] * 3
    records = [json.loads(line) for line in path.read_text().splitlines()]
    assert [r["type"] for r in records] == ["header", "case", "case", "case", "footer"]
    assert records[-1]["interrupted"] is True


def test_cli_run_with_an_engine_that_cannot_start_is_one_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "no-such-adapter"
    assert main(["conformance", "run", "--impl", str(missing), "--timeout", "5"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert "does not answer hello" in err[0]
    assert "127" in err[0]  # the shell's status for a command not found
