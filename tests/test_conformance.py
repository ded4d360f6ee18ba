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

import attrs
import pytest

from gaple.cli import main
from gaple.conformance.checker.compare import compare_result
from gaple.conformance.runner.engines import (
    ENGINE,
    REFERENCE,
    EngineError,
    Implementation,
    ReferenceEngine,
    SubprocessEngine,
    Validator,
)
from gaple.conformance.runner.report import JsonLinesReport, summary_text
from gaple.conformance.runner.run import CaseOutcome, Summary, run_suite
from gaple.conformance.vectors.scenarios import all_cases
from gaple.io import deal_from_json, rules_from_json
from gaple.reference import partnership
from gaple.state import new_hand
from mutants import write_mutant_adapter

JSON = Any
ADAPTER = f"{sys.executable} -m gaple.conformance adapter"


@pytest.fixture(scope="module")
def cases() -> list[dict[str, JSON]]:
    return all_cases()


def _failed_rules(summary: Summary) -> set[str | None]:
    return {o.rule for o in summary.outcomes if o.status == "failed"}


@pytest.mark.parametrize("rules", [ENGINE, REFERENCE], ids=lambda r: r.name)
def test_reference_engine_passes_every_case(
    cases: list[dict[str, JSON]], rules: Implementation
) -> None:
    # Played by the fast engine or by the reference written for reading, gaple conforms.
    summary = run_suite(cases, lambda: ReferenceEngine(rules=rules))
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


class _WrongCounts(_Mutant):
    """Breaks score.count: every count one too many."""

    def mutate(self, request: dict[str, JSON], reply: dict[str, JSON]) -> dict[str, JSON]:
        if request["type"] == "result":
            reply["counts"] = [count + 1 for count in reply["counts"]]
        return reply


class _WrongOpener(_Mutant):
    """Breaks the opening: names the seat after the right one to act in the position dealt."""

    def mutate(self, request: dict[str, JSON], reply: dict[str, JSON]) -> dict[str, JSON]:
        state = self._state
        if request["type"] == "state" and state is not None and not state.history:
            reply["to_act"] = (reply["to_act"] + 1) % state.rules.players
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
        ("    time.sleep(30)\n", "no reply to 'start' within 1.5 s"),
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
        # The timeout covers the adapter's start too: 0.5 s was too short on a loaded machine.
        return SubprocessEngine(command, timeout=1.5)

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
    # gaple's adapter declares the rules level, so every case listing it was checked at it, and
    # the summary counts them with the other levels.
    assert "rules" in records[0]["engine"]["levels"]
    listed = {c["id"]: c["levels"] for c in all_cases()}
    assert all(r["levels"] == listed[r["case"]] for r in cases)
    with_rules = sum("rules" in r["levels"] for r in cases)
    assert with_rules
    assert f"rules {with_rules}" in out
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
    assert ': code [play.match-end]: expected "no-match", got "not-in-hand"' in out
    failed = {
        record["case"]: record
        for record in map(json.loads, report.read_text().splitlines())
        if record.get("status") == "failed"
    }
    # play-domino4d-e002 tries 1-4 on ends (6, 5) at step 5: a no-match rejection.
    first = failed["play-domino4d-e002"]
    assert (first["step"], first["action"], first["rule"]) == (
        5,
        "place 1-4 left",
        "play.match-end",
    )
    assert (first["expected"], first["actual"]) == ("no-match", "not-in-hand")


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["conformance", "run", "--reference", "--variant", "nope"], "unknown variant"),
        # A timeout must be a finite number of seconds, at least 1 ms: nan compares false with
        # everything (it once switched the timeout off) and inf overflowed.
        *(
            (["conformance", "run", "--reference", "--timeout", bad], "--timeout must be finite")
            for bad in ("0", "-1", "nan", "inf", "1e400", "1e-300")
        ),
        (["conformance", "fuzz", "--reference", "--timeout", "nan"], "--timeout must be finite"),
        (["conformance", "run", "--reference", "--cases", "/nonexistent"], "no such file"),
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


def test_cli_run_from_the_folder_vectors_build_writes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The folder holds schema/ and protocol/ beside vectors/v1/: only the cases are read.
    assert main(["vectors", "build", "--out", str(tmp_path)]) == 0
    assert main(["conformance", "run", "--reference", "--cases", str(tmp_path)]) == 0
    assert "CONFORMS" in capsys.readouterr().out


_GOOD_CASE = (
    Path(__file__).resolve().parent.parent
    / "spec/vectors/v1/open/open-double-blank-holder-leads.json"
)


def _spoilt(change: str) -> JSON:
    """The committed case open-double-blank-holder-leads with one thing spoilt."""
    case = json.loads(_GOOD_CASE.read_text(encoding="utf-8"))
    if change == "seat":
        case["steps"][0]["action"]["seat"] = "x"
    elif change == "illegal":
        # Step 5 (index 4) is the accepted lead of 0-0 by its holder, seat 2, in a first 4 x 7
        # hand; leading 1-1 instead breaks open.double-blank, so the spec cannot replay it.
        case["steps"][4]["action"]["move"] = "lead 1-1"
    elif change == "rules":
        case["rules"]["max_pip"] = 1000
    return case


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ("seat", "$.steps[0].action.seat: 'x' is not of type 'integer'"),
        ("illegal", "$.steps[4].action: the spec refuses it"),
        ("rules", "$.rules: max_pip must be from 1 to 9"),
    ],
)
def test_a_bad_case_file_is_refused_with_its_path_before_anything_runs(
    tmp_path: Path, change: str, words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "good.json").write_text(_GOOD_CASE.read_text(encoding="utf-8"), "utf-8")
    argv = ["conformance", "run", "--reference", "--cases", str(tmp_path)]
    assert main(argv) == 0  # the good case alone runs
    capsys.readouterr()
    (tmp_path / "bad.json").write_text(json.dumps(_spoilt(change)), "utf-8")
    (tmp_path / "worse.json").write_text("[", "utf-8")
    assert main(argv) == 2
    captured = capsys.readouterr()
    # One line per bad file, each with its path; no case ran, so no verdict on stdout.
    bad, worse = captured.err.splitlines()
    assert bad.startswith(f"gaple conformance: error: {tmp_path / 'bad.json'}: {words}")
    # "[" is one character: a value is expected next, at column 2 of line 1.
    assert worse == (
        f"gaple conformance: error: {tmp_path / 'worse.json'}: line 1: not JSON (column 2): "
        "Expecting value"
    )
    assert captured.out == ""


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


# The rules level: an engine that names the rules behind its verdicts is held to the spec's.

_WITHOUT_RULES_LEVEL = (
    "    if m['type'] == 'hello':\n        r['levels'] = ['line', 'turns', 'count', 'points']\n"
)
# Every no-match rejection names play.in-hand instead of play.match-end.
_WRONG_REJECTION_RULE = (
    "    if r.get('rule') == 'play.match-end':\n        r['rule'] = 'play.in-hand'\n"
)
# Every result forgets that partner.dead-double explained it.
_DROPS_DEAD_DOUBLE = (
    "    if r['type'] == 'result' and 'partner.dead-double' in r['rules']:\n"
    "        r['rules'].remove('partner.dead-double')\n"
)


def _run_mutant(tmp_path: Path, patch: str) -> Summary:
    adapter = write_mutant_adapter(tmp_path / "mutant.py", patch)
    return run_suite(all_cases(), lambda: SubprocessEngine(f"{sys.executable} {adapter}"))


def _failures(summary: Summary) -> dict[str, CaseOutcome]:
    return {o.case: o for o in summary.outcomes if o.status == "failed"}


def test_a_rejection_naming_the_wrong_rule_fails_at_the_rules_level(
    cases: list[dict[str, JSON]], tmp_path: Path
) -> None:
    summary = _run_mutant(tmp_path, _WRONG_REJECTION_RULE)
    failures = _failures(summary)
    # Every case with a no-match rejection fails there, and nothing else does: the mutant
    # changes nothing but the rule of those rejections.
    with_no_match = {
        c["id"]
        for c in cases
        if any(s.get("error", {}).get("code") == "no-match" for s in c["steps"])
    }
    assert set(failures) == with_no_match
    assert {o.rule for o in failures.values()} == {"play.match-end"}
    # DOMINO4D E002-1: after 0-0, 0-2 left, 0-5 right and 2-6 left the ends are (6, 5), so
    # seat 0's 1-4 (which it holds: not play.in-hand) shows neither: play.match-end, step 5.
    e002 = failures["play-domino4d-e002"]
    assert (e002.step, e002.seat, e002.action) == (5, 0, "place 1-4 left")
    assert e002.difference is not None
    assert e002.difference.field == "rule"
    assert (e002.difference.expected, e002.difference.actual) == ("play.match-end", "play.in-hand")


def test_a_result_missing_a_rule_id_fails_naming_that_id(
    cases: list[dict[str, JSON]], tmp_path: Path
) -> None:
    summary = _run_mutant(tmp_path, _DROPS_DEAD_DOUBLE)
    failures = _failures(summary)
    # The numbers are untouched, so exactly the results the spec explains with a dead-double
    # note fail, each in the result, naming that rule.
    explained = {
        c["id"] for c in cases if c["result"] and "partner.dead-double" in c["result"]["rules"]
    }
    assert explained
    assert set(failures) == explained
    assert {o.rule for o in failures.values()} == {"partner.dead-double"}
    assert all(
        o.difference is not None and o.difference.field == "rules" for o in failures.values()
    )
    # SU-X2: E's 6-6 is dead and counts 100, so N-S score 111 (the case's description): the
    # spec's result cites partner.dead-double; the mutant's rules lack it, nothing else.
    x2 = failures["score-suwiki-x2-dead-six-six"]
    assert (x2.step, x2.action) == (len(_case(cases, x2.case)["steps"]), None)
    assert x2.difference is not None
    expected = x2.difference.expected
    assert "partner.dead-double" in expected
    assert x2.difference.actual == [r for r in expected if r != "partner.dead-double"]
    assert "in the result: rules [partner.dead-double]" in x2.describe()


def _case(cases: list[dict[str, JSON]], case_id: str) -> dict[str, JSON]:
    return next(c for c in cases if c["id"] == case_id)


def test_an_engine_not_declaring_the_rules_level_is_not_held_to_its_reasons(
    cases: list[dict[str, JSON]], tmp_path: Path
) -> None:
    # Both wrong reasons at once, but the level is not declared: the suite passes as before,
    # nothing is skipped, and no case reports rules among the levels it checked.
    patch = _WITHOUT_RULES_LEVEL + _WRONG_REJECTION_RULE + _DROPS_DEAD_DOUBLE
    summary = _run_mutant(tmp_path, patch)
    assert summary.count("passed") == len(cases)
    assert summary.engine is not None
    assert "rules" not in summary.engine.levels
    assert all(
        list(o.levels) == [level for level in c["levels"] if level != "rules"]
        for o, c in zip(summary.outcomes, cases, strict=True)
    )


def test_the_reference_passes_every_case_with_the_rules_level_declared(
    cases: list[dict[str, JSON]],
) -> None:
    summary = run_suite(cases, ReferenceEngine)
    assert summary.engine is not None
    assert "rules" in summary.engine.levels
    assert summary.count("passed") == len(cases)
    # Each case is checked at every level it lists, rules included.
    assert all(list(o.levels) == c["levels"] for o, c in zip(summary.outcomes, cases, strict=True))
    assert any("rules" in o.levels for o in summary.outcomes)


@pytest.mark.parametrize(
    ("shown", "rule"),
    [
        # SU-X2's reasons: seat 0 went out (end.out), every seat is counted (score.count) and
        # ranked (score.rank), pair 0 wins (score.team), E's dead 6-6 counts 100
        # (partner.dead-double) and pair 0 scores 111 (partner.out). Any order is the same set.
        (
            [
                "score.team",
                "score.rank",
                "score.count",
                "partner.out",
                "partner.dead-double",
                "end.out",
            ],
            None,
        ),
        # One reason too many: score.double-blank-25 (nobody held 0-0 for 25) is named.
        (
            [
                "end.out",
                "partner.dead-double",
                "partner.out",
                "score.count",
                "score.rank",
                "score.team",
                "score.double-blank-25",
            ],
            "score.double-blank-25",
        ),
        # A missing one is named before an extra one: partner.out missing, play.in-hand extra.
        (
            [
                "end.out",
                "partner.dead-double",
                "play.in-hand",
                "score.count",
                "score.rank",
                "score.team",
            ],
            "partner.out",
        ),
        # No list at all: the first reason in ID order, end.out, is missing.
        ("end.out", "end.out"),
        (None, "end.out"),
    ],
)
def test_result_rules_are_compared_as_a_set_naming_the_first_missing_or_extra_id(
    cases: list[dict[str, JSON]], shown: JSON, rule: str | None
) -> None:
    case = _case(cases, "score-suwiki-x2-dead-six-six")
    spec = new_hand(rules_from_json(case["rules"]), deal_from_json(case["deal"]), first_hand=True)
    claimed = {**case["result"], "rules": shown}
    difference = compare_result(case["result"], claimed, spec, ["count", "points", "rules"])
    assert (None if difference is None else difference.rule) == rule
    # Without the rules level the same claims are never compared.
    assert compare_result(case["result"], claimed, spec, ["count", "points"]) is None


def test_validate_checks_rule_ids_against_the_registry() -> None:
    validator = Validator()
    validator.check_reply("act", {"type": "rejected", "code": "no-match", "rule": "play.match-end"})
    # Optional: an engine that names no rule is still in protocol.
    validator.check_reply("act", {"type": "rejected", "code": "no-match"})
    with pytest.raises(EngineError, match=r"rejected .* at \$\.rule: 'play\.match-edn'"):
        validator.check_reply(
            "act", {"type": "rejected", "code": "no-match", "rule": "play.match-edn"}
        )
    result = {
        "type": "result",
        "counts": [0, 15, 6, 8],
        "winner": 0,
        "winning_team": 0,
        "points": [111, 0],
        "replay": False,
    }
    validator.check_reply("result", result)
    validator.check_reply("result", {**result, "rules": ["end.out", "score.count"]})
    with pytest.raises(EngineError, match=r"at \$\.rules\[1\]: 'score\.cont'"):
        validator.check_reply("result", {**result, "rules": ["end.out", "score.cont"]})
    validator.check_reply("hello", {**ReferenceEngine().request({"type": "hello"})})
    with pytest.raises(EngineError, match=r"at \$\.levels\[0\]"):
        validator.check_reply(
            "hello",
            {
                "type": "hello",
                "protocol": 1,
                "name": "x",
                "levels": ["reasons"],
                "error_codes": True,
            },
        )


def test_a_held_double_kept_alive_only_by_discards_is_caught(
    cases: list[dict[str, JSON]], monkeypatch: pytest.MonkeyPatch
) -> None:
    # An engine that looks for the double's other tiles in hands and the set-aside tiles but
    # not among the discards kills a held 6-6 (or 0-0) that only discarded tiles keep alive.
    # Before cover-alive-discarded held its 6-6 in hand, every vector passed such an engine.
    real = partnership.double_fates

    def blind_to_discards(*args: Any) -> tuple[partnership.DoubleFate, ...]:
        return tuple(map(killed_if_only_discards_keep_it, real(*args)))

    def killed_if_only_discards_keep_it(fate: partnership.DoubleFate) -> partnership.DoubleFate:
        spots = {keeper.spot for keeper in fate.keepers}
        if fate.fate is partnership.Fate.KEPT_ALIVE and spots == {partnership.Spot.DISCARDED}:
            return attrs.evolve(fate, fate=partnership.Fate.DEAD, keepers=())
        return fate

    monkeypatch.setattr(partnership, "double_fates", blind_to_discards)
    summary = run_suite(cases, lambda: ReferenceEngine(rules=REFERENCE))
    failed = {o.case for o in summary.outcomes if o.status == "failed"}
    assert {"cover-alive-discarded", "cover-alive-blank-discarded"} <= failed
    # Only a hand whose held double no hand's tile keeps alive, a discarded one does, can fail
    # (its situation says held-kept-by-discard); the combination topic adds such hands.
    kept = {
        c["id"]
        for c in cases
        if "held-kept-by-discard"
        in (c["situation"].get("top-double"), c["situation"].get("blank-double"))
    }
    assert failed <= kept
    # Both hands went out, so the wrong points are the out-hand's score (partner.out), where a
    # dead double's value is added.
    assert _failed_rules(summary) == {"partner.out"}


def test_a_case_counts_only_the_levels_compared_before_its_first_difference(
    cases: list[dict[str, JSON]],
) -> None:
    # SU-X2 lists all five levels: 27 steps without a rejection, then a result explained by
    # rule IDs.
    x2 = [_case(cases, "score-suwiki-x2-dead-six-six")]
    assert x2[0]["levels"] == ["line", "turns", "count", "points", "rules"]
    # Wrong counts: every step compared at line and turns, then the result's counts, which
    # differ; the points and the rule IDs come after them and are never compared.
    (counts,) = run_suite(x2, _WrongCounts).outcomes
    assert counts.levels == ("line", "turns", "count")
    # The wrong seat to act in the position dealt: the case stops there, before any result.
    (opener,) = run_suite(x2, _WrongOpener).outcomes
    assert opener.levels == ("line", "turns")
    # Played through, every level listed is compared.
    (passed,) = run_suite(x2, ReferenceEngine).outcomes
    assert passed.levels == ("line", "turns", "count", "points", "rules")
    text = summary_text(Summary((counts, opener, passed), 1.0, None, False))
    assert "cases checked per level: line 3, turns 3, count 2, points 1, rules 1" in text
