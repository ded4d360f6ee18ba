"""Declining is not conforming: an engine that declares what it plays (``plays`` in its hello)
fails a case inside that scope it declines and is not sent the cases outside it; one that
declares nothing and declines cases gets the verdict PARTIAL (exit status 4), never CONFORMS."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from gaple.cli import main
from gaple.conformance.runner.engines import EngineError, ReferenceEngine
from gaple.conformance.runner.run import DECLARED, hello, run_suite
from gaple.conformance.vectors.scenarios import all_cases

JSON = Any


@pytest.fixture(scope="module")
def cases() -> list[dict[str, JSON]]:
    # Every third case: both blocked actions, hands with and without a challenge, and fast.
    return all_cases()[::3]


def _nothing(_rules: dict[str, JSON]) -> bool:
    return False


def _engine(
    plays: JSON | None, declines: Any, started: list[str] | None = None
) -> type[ReferenceEngine]:
    """The reference engine, declaring ``plays`` (nothing when ``None``) and answering
    ``unsupported`` to every start whose rules ``declines`` accepts; the blocked action of
    each start is noted in ``started``."""

    class Engine(ReferenceEngine):
        def _answer(self, message: dict[str, JSON]) -> dict[str, JSON]:
            if message.get("type") == "start" and started is not None:
                started.append(message["rules"]["blocked_action"])
            if message.get("type") == "start" and declines(message["rules"]):
                return {"type": "unsupported", "reason": "not here"}
            reply = super()._answer(message)
            if message.get("type") == "hello" and plays is not None:
                reply["plays"] = plays
            return reply

    return Engine


def _target_1(rules: dict[str, JSON]) -> bool:
    # The kind of decline a mutant of the spec makes: a valid ruleset (here any target of 1
    # or less; the vectors hold none, so a pass option stands in below) refused.
    return bool(rules["blocked_action"] == "pass")


def test_an_engine_declaring_nothing_that_declines_cases_is_partial(
    cases: list[dict[str, JSON]],
) -> None:
    summary = run_suite(cases, _engine(None, _target_1))
    passing = sum(c["rules"]["blocked_action"] != "pass" for c in cases)
    assert summary.ok
    assert summary.count("passed") == passing
    assert summary.declined == len(cases) - passing > 0
    assert summary.verdict == "partial"


def test_a_correct_engine_declaring_nothing_conforms(cases: list[dict[str, JSON]]) -> None:
    summary = run_suite(cases, _engine(None, _nothing))
    assert (summary.verdict, summary.declined) == ("conforms", 0)


def test_declining_a_case_inside_the_declared_scope_fails_naming_the_hello_field(
    cases: list[dict[str, JSON]],
) -> None:
    # It declares both blocked actions, then declines the pass ones: each is a failure.
    plays = {"options": {"blocked_action": ["pass", "discard"]}}
    summary = run_suite(cases, _engine(plays, _target_1))
    failed = [o for o in summary.outcomes if o.status == "failed"]
    assert len(failed) == sum(c["rules"]["blocked_action"] == "pass" for c in cases)
    assert {o.rule for o in failed} == {DECLARED}
    assert summary.verdict == "does not conform"


def test_cases_outside_the_declared_scope_are_not_sent_and_the_rest_conforms(
    cases: list[dict[str, JSON]],
) -> None:
    # The same engine, declaring only what it plays: the pass cases are never started.
    started: list[str] = []

    engine = _engine({"options": {"blocked_action": ["discard"]}}, _target_1, started)
    summary = run_suite(cases, engine)
    assert set(started) == {"discard"}
    skipped = [o for o in summary.outcomes if o.status == "skipped"]
    assert skipped
    assert all("outside what the engine declares it plays" in o.message for o in skipped)
    assert (summary.verdict, summary.declined) == ("conforms", 0)


def test_a_declared_situation_value_leaves_out_the_cases_that_reach_others(
    cases: list[dict[str, JSON]],
) -> None:
    # An engine without the pair scoring's challenge declares no challenge value at all.
    summary = run_suite(cases, _engine({"situation": {"challenge": []}}, _nothing))
    skipped = {o.case for o in summary.outcomes if o.status == "skipped"}
    assert skipped == {c["id"] for c in cases if "challenge" in c["situation"]}
    assert summary.verdict == "conforms"


@pytest.mark.parametrize(
    ("plays", "words"),
    [
        ([], "must be an object"),
        ({"rules": {}}, "must be an object"),
        ({"options": {"blocked_action": "pass"}}, "must map each name to a list"),
        ({"options": {"no_such_option": []}}, "names unknown no_such_option"),
        ({"situation": {"ending": ["sideways"]}}, "holds unknown values"),
        # A value that cannot be hashed is compared, not looked up (a TypeError before).
        ({"situation": {"ending": [{}]}}, "holds unknown values"),
    ],
)
def test_a_malformed_declaration_is_a_protocol_error(plays: JSON, words: str) -> None:
    with pytest.raises(EngineError, match=words):
        hello(_engine(plays, _nothing)())


def _declining_adapter(tmp_path: Path) -> str:
    """The command of an adapter that declares no scope and declines the pass variation."""
    adapter = tmp_path / "declines.py"
    root = Path(__file__).resolve().parent.parent
    adapter.write_text(
        "import json, sys\n"
        f"sys.path.insert(0, {str(root / 'src')!r})\n"
        "from gaple.conformance.runner.engines import ReferenceEngine\n"
        "engine = ReferenceEngine()\n"
        "for line in sys.stdin:\n"
        "    m = json.loads(line)\n"
        "    if m['type'] == 'start' and m['rules']['blocked_action'] == 'pass':\n"
        "        r = {'type': 'unsupported', 'reason': 'no pass here'}\n"
        "    else:\n"
        "        r = engine.request(m)\n"
        "    print(json.dumps(r), flush=True)\n"
        "    if m['type'] == 'bye':\n"
        "        break\n"
    )
    return f"{sys.executable} {adapter}"


def test_cli_run_exits_4_and_says_partial(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["conformance", "run", "--impl", _declining_adapter(tmp_path)]
    # Every case built on pagat-4x7, whatever it changes: its pass variation among them.
    assert main([*argv, "--based-on", "pagat-4x7"]) == 4
    out = capsys.readouterr().out
    assert "PARTIAL" in out
    assert "CONFORMS" not in out
    assert "declined by an engine that declares no scope" in out
    # pagat-4x7 exactly discards: no case of its scope is declined.
    assert main([*argv, "--variant", "pagat-4x7"]) == 0
    assert "CONFORMS within pagat-4x7 (requested)" in capsys.readouterr().out


def test_declined_cases_are_not_written_as_expectations_and_stay_partial(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Before: each declined case was written as "unsupported", and the run held against that
    # file ended AS EXPECTED with status 0, although the engine had played only some cases.
    # The engine declines random-pagat-4x7-pass-1 (the pass variation) and plays
    # random-pagat-4x7-1 as the spec does: nothing fails, so nothing is listed.
    written = tmp_path / "expected.json"
    argv = ["conformance", "run", "--impl", _declining_adapter(tmp_path)]
    argv += ["--case", "random-pagat-4x7-1", "--case", "random-pagat-4x7-pass-1"]
    assert main([*argv, "--write-expectations", str(written)]) == 4
    assert json.loads(written.read_text(encoding="utf-8"))["cases"] == {}
    capsys.readouterr()
    assert main([*argv, "--expectations", str(written)]) == 4
    lines = capsys.readouterr().out.splitlines()
    assert lines[-1] == (
        f"PARTIAL: 0 known failures as listed in {written}, no new failure, but not every "
        "case checked"
    )
