"""The fuzzer searches the scope: a run given one (a preset exactly, ``--plays``), or against an
engine whose hello declares what it plays, draws only inside it, never sends a hand outside
it, aims at its cells and counts its draws inside and outside; a defect inside a preset's own
rules is found within a small budget."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from gaple.cli import main
from gaple.conformance.fuzzer.fuzz import EmptyScope, fuzz
from gaple.conformance.runner.engines import ReferenceEngine, SubprocessEngine
from gaple.conformance.vectors.scope import declared_scope, preset_scope
from gaple.conformance.vectors.tailor import reachable
from gaple.io import rules_to_json
from gaple.presets import PRESETS, find_preset

JSON = Any

ROOT = Path(__file__).resolve().parent.parent
BUG = "low-end-flipped-after-discard"
"""A seeded bug inside pagat-4x7's own rules (score.rank): it changes only hands that end on a
discard with the lowest count tied on pips, under 1 hand in 50 of the preset."""


def _recording(
    started: list[dict[str, JSON]], plays: JSON | None = None, allowed: JSON | None = None
) -> type[ReferenceEngine]:
    """The reference engine noting the rules of every start in ``started``; declaring
    ``plays`` in its hello when given, and declining (``unsupported``) every start whose rules
    are not ``allowed`` when given."""

    class Engine(ReferenceEngine):
        def _answer(self, message: dict[str, JSON]) -> dict[str, JSON]:
            if message.get("type") == "start":
                started.append(message["rules"])
                if allowed is not None and message["rules"] != allowed:
                    return {"type": "unsupported", "reason": "only my own rules"}
            reply = super()._answer(message)
            if message.get("type") == "hello" and plays is not None:
                reply["plays"] = plays
            return reply

    return Engine


@pytest.mark.parametrize(
    ("preset", "overrides"),
    [
        ("pagat-4x7", {}),
        ("domino4d", {}),
        ("suwiki-partnership", {"challenge_tie": "replay"}),
    ],
)
def test_a_preset_scope_draws_every_hand_inside_with_exactly_its_rules(
    preset: str, overrides: dict[str, JSON]
) -> None:
    started: list[dict[str, JSON]] = []
    scope = preset_scope(preset, overrides)
    report = fuzz(_recording(started), scope=scope, examples=30, seed=5, max_seconds=None)
    assert report.finding is None
    # Every one of the 30 hands drawn lies inside, is sent and played: none is invalid (no
    # option is drawn) and none outside.
    assert (report.inside, report.outside, report.played, report.skipped) == (30, 0, 30, 0)
    exact = {**rules_to_json(find_preset(preset).rules), **overrides}
    assert len(started) == 30
    assert all(rules == exact for rules in started)
    assert report.scope == scope.label()
    # Only the cells its rules can reach are counted.
    cells = [key for key in report.counts if " & " in key or " @ " in key]
    assert cells == list(reachable(scope))


def test_an_engine_declaring_a_preset_is_only_started_with_its_rules() -> None:
    started: list[dict[str, JSON]] = []
    own = rules_to_json(find_preset("pagat-4x7").rules)
    engine = _recording(started, plays={"preset": "pagat-4x7"}, allowed=own)
    # No scope given and every preset asked for: the engine's declared scope is searched.
    report = fuzz(engine, examples=40, seed=2, max_seconds=None)
    assert report.finding is None
    assert report.scope == "pagat-4x7 (declared)"
    # Never sent a hand it would decline: nothing skipped, every start its own rules.
    assert (report.skipped, report.outside) == (0, 0)
    assert report.inside == report.played == len(started) == 40
    assert all(rules == own for rules in started)


def test_a_declared_option_is_drawn_among_its_values_only() -> None:
    started: list[dict[str, JSON]] = []
    plays = {"preset": "pagat-4x7", "options": {"settlement": ["per-hand", "chips"]}}
    report = fuzz(_recording(started, plays=plays), examples=40, seed=3, max_seconds=None)
    assert (report.outside, report.skipped) == (0, 0)
    assert {rules["settlement"] for rules in started} == {"per-hand", "chips"}
    own = rules_to_json(find_preset("pagat-4x7").rules)
    assert all({**rules, "settlement": own["settlement"]} == own for rules in started)


def test_without_a_scope_every_draw_is_counted_inside_or_outside() -> None:
    # The draws as they always were: an invalid ruleset (a ban leaving a deal nothing to
    # lead) is a draw outside, every other one is played.
    report = fuzz(ReferenceEngine, None, examples=60, seed=3, max_seconds=None)
    assert report.scope is None
    assert report.inside + report.outside == 60
    assert report.inside == report.played


def test_a_scope_that_contradicts_the_options_asked_for_draws_nothing() -> None:
    scope = preset_scope("pagat-4x7")
    with pytest.raises(EmptyScope, match="pagat-4x7"):
        fuzz(ReferenceEngine, "domino4d", scope=scope, examples=5)
    # An option fixed against the scope's: every draw lies outside.
    with pytest.raises(EmptyScope, match="no hand drawn of 5"):
        fuzz(
            ReferenceEngine,
            scope=scope,
            overrides={"blocked_action": "pass"},
            examples=5,
            max_seconds=None,
        )


def _bug_engine() -> SubprocessEngine:
    return SubprocessEngine(
        f"{sys.executable} {ROOT / 'examples/bugs/adapter.py'} --bug {BUG}", timeout=20
    )


def test_the_scoped_fuzzer_finds_a_defect_inside_a_preset_s_own_rules() -> None:
    # Aimed at pagat-4x7's cells only, the run reaches the bug's cell (a tie on the low half in
    # a hand ended by a discard) within tens of hands (seeds 0 to 3: 69, 20, 37, 36).
    scope = preset_scope("pagat-4x7")
    report = fuzz(
        _bug_engine, scope=scope, examples=2000, seed=0, max_seconds=None, shrink_seconds=2
    )
    assert report.finding is not None
    assert report.finding.outcome.rule == "score.rank"
    assert report.outside == 0
    assert report.finding.case["rules"] == rules_to_json(PRESETS["pagat-4x7"].rules)
    # A correct engine passes the same budget.
    clean = fuzz(ReferenceEngine, scope=scope, examples=2000, seed=0, max_seconds=None)
    assert clean.finding is None
    assert (clean.inside, clean.outside, clean.played) == (2000, 0, 2000)


def _cli(tmp_path: Path, *args: str) -> tuple[int, dict[str, JSON]]:
    report = tmp_path / "report.json"
    argv = ["conformance", "fuzz", "--reference", "--examples", "10", "--jobs", "1"]
    status = main([*argv, "--out", str(tmp_path / "found"), "--report", str(report), *args])
    return status, json.loads(report.read_text()) if report.exists() else {}


def test_cli_exact_prints_and_reports_the_scope_and_its_draws(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, report = _cli(tmp_path, "--variant", "pagat-5x5", "--exact")
    assert status == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "scope pagat-5x5 (requested)" in out
    assert "draws 10 inside the scope (100.0%), 0 outside" in out
    assert "no disagreement in 10 hands of pagat-5x5 (requested)" in out
    assert (report["scope"], report["inside"], report["outside"]) == (
        "pagat-5x5 (requested)",
        10,
        0,
    )
    # --set changes the preset's rules, still exactly.
    status, report = _cli(
        tmp_path, "--variant", "pagat-4x7", "--set", "blocked_action=pass", "--exact"
    )
    assert status == 0
    assert report["scope"] == "pagat-4x7 with blocked_action=pass (requested)"


def test_cli_plays_reads_a_hello_s_plays_and_the_shards_add_up(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plays = tmp_path / "plays.json"
    plays.write_text(json.dumps({"preset": "pagat-4x7", "options": {"blocked_action": []}}))
    # A scope that plays no blocked action at all draws nothing: one line, status 2.
    assert _cli(tmp_path, "--plays", str(plays))[0] == 2
    assert "no hand drawn of 10 lies inside" in capsys.readouterr().err
    plays.write_text(
        json.dumps({"preset": "pagat-4x7", "options": {"settlement": ["per-hand", "chips"]}})
    )
    status, whole = _cli(tmp_path, "--plays", str(plays))
    assert status == 0
    assert whole["scope"] == "pagat-4x7 with settlement=chips|per-hand (requested)"
    assert whole["inside"] == 10
    # Two shards of the same run merge into its report: the draws added up, the scope kept.
    shards = []
    for index in (1, 2):
        path = tmp_path / f"s{index}.json"
        argv = ["conformance", "fuzz", "--reference", "--examples", "10", "--jobs", "1"]
        argv += ["--plays", str(plays), "--shard", f"{index}/2", "--report", str(path)]
        assert main(argv) == 0
        shards.append(str(path))
    out = tmp_path / "all.json"
    assert main(["conformance", "merge", *shards, "--out", str(out)]) == 0
    merged = json.loads(out.read_text())
    assert list(merged) == list(whole)
    assert (merged["scope"], merged["inside"], merged["outside"]) == (
        whole["scope"],
        whole["inside"],
        whole["outside"],
    )


@pytest.mark.parametrize(
    ("args", "content", "message"),
    [
        (["--exact"], None, "--exact needs --variant NAME"),
        (["--plays"], "{not json", "not JSON"),
        (["--plays"], '{"preset": "nope"}', "hello 'plays.preset' names unknown nope"),
        (["--plays"], '{"options": {"blocked_action": "pass"}}', "must map each name to a list"),
        (["--variant", "pagat-4x7", "--set", "players=9", "--exact"], None, "usage"),
    ],
)
def test_cli_a_scope_that_cannot_be_read_is_a_one_line_usage_error(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    args: list[str],
    content: str | None,
    message: str,
) -> None:
    if content is not None:
        path = tmp_path / "plays.json"
        path.write_text(content)
        args = [*args, str(path)]
    assert main(["conformance", "fuzz", "--reference", "--examples", "3", *args]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1
    if message != "usage":
        assert message in err


def test_the_declared_scope_names_what_it_plays() -> None:
    # What the reports above print: the declared preset's name, the options changed.
    assert declared_scope({"preset": "pagat-4x7"}).label() == "pagat-4x7 (declared)"
