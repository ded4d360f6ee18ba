"""Differential fuzzing: silent on the spec itself, a shrunk, committable case for a broken
engine naming the rule it breaks, swarm-drawn rules, declined hands skipped and counted, and
the rare situations a run reached reported."""

from __future__ import annotations

import gc
import importlib
import json
import re
import sys
from pathlib import Path
from typing import Any, ClassVar

import pytest
from hypothesis import settings

from gaple.cli import main
from gaple.conformance.fuzzer.fuzz import (
    COUNTED,
    MAX_SECONDS,
    SHRINK_SECONDS,
    Finding,
    FuzzReport,
    Unsupported,
    fuzz,
)
from gaple.conformance.fuzzer.fuzz import _case as case_of
from gaple.conformance.fuzzer.fuzz import _merge as merge_jobs
from gaple.conformance.runner.engines import ReferenceEngine, SubprocessEngine
from gaple.conformance.runner.run import CaseOutcome, run_suite
from gaple.conformance.vectors.committed import load_cases
from gaple.conformance.vectors.drawing import draw_hand, meets, play_draw
from gaple.conformance.vectors.schemas import case_schema
from gaple.conformance.vectors.situations import (
    all_cells,
    features_of,
    needs,
    unreachable_reason,
)
from gaple.io import deal_from_json, rules_from_json
from gaple.presets import PRESETS
from gaple.state import apply, new_hand, parse_move
from mutants import write_mutant_adapter

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_conformance import _LateBlock, _Mutant, _NoHandOver, _PassAnyTime

jsonschema: Any = importlib.import_module("jsonschema")

ROOT = Path(__file__).resolve().parent.parent
CI = settings.get_current_profile_name() == "ci"
PAIR_FEATURES = ("challenge", "dead-doubles", "closing-bonus")
"""The features only partnership scoring reaches (it reckons challenges and doubles' fates)."""


@pytest.mark.parametrize("preset", ["pagat-4x7", "domino4d", "pagat-4x6", None])
def test_the_spec_never_disagrees_with_itself(preset: str | None) -> None:
    report = fuzz(ReferenceEngine, preset, examples=25, seed=3, max_seconds=None)
    assert report.finding is None
    # Every hand is played; only a drawn ruleset may be invalid (2 or 3 in a hundred are: bans
    # that leave a 4 x 7 deal nothing to lead), and is not drawn as a hand at all.
    assert report.skipped == 0
    assert report.played > 20


def test_a_case_left_unannotated_checks_all_the_annotated_one_checks() -> None:
    ended = 0
    for number in range(30):
        draw = draw_hand(0, number, list(PRESETS), {})
        if draw is None:
            continue
        hand = play_draw(draw)
        full, bare = case_of(hand, 0), case_of(hand, 0, annotated=False)
        assert set(full) - set(bare) == {"rule_ids", "features"}
        del full["rule_ids"], full["features"]
        if full["result"] is not None:
            ended += 1
            assert full["result"].pop("rules")  # an ended hand always names rules
        assert bare == full
    assert ended > 20


class _RankUnnamed(_Mutant):
    """Counts and scores as the spec does, but never names score.rank among its result's
    rules: a defect only the ``rules`` level sees."""

    def mutate(self, request: dict[str, Any], reply: dict[str, Any]) -> dict[str, Any]:
        if request["type"] == "result":
            reply["rules"] = [rule for rule in reply["rules"] if rule != "score.rank"]
        return reply


def test_an_engine_checked_on_rule_ids_has_every_result_s_rules_compared() -> None:
    # The fuzzer leaves the rules behind a result out of the cases it runs on an engine not
    # checked at the rules level; the reference engine is, so they must be in: every hand
    # that ends ranks its seats.
    found = fuzz(_RankUnnamed, "domino4d", examples=5, seed=1, shrink_seconds=1).finding
    assert found is not None
    assert found.outcome.rule == "score.rank"


@pytest.mark.parametrize(
    ("engine", "preset", "fixed", "rule"),
    [
        # The pass option is fixed, or a drawn discard rule would hide the mutant's pass.
        (_PassAnyTime, "domino4d", {"blocked_action": "pass"}, "turn.forced-play"),
        (_NoHandOver, "pagat-4x7", {}, "end.final"),
        (_LateBlock, "domino4d", {}, "end.blocked"),
    ],
)
def test_a_broken_engine_yields_a_minimal_case_naming_its_rule(
    engine: type[ReferenceEngine], preset: str, fixed: dict[str, Any], rule: str
) -> None:
    found = fuzz(engine, preset, examples=60, seed=1, overrides=fixed).finding
    assert found is not None
    assert found.outcome.rule == rule
    jsonschema.validate(found.case, case_schema())
    # The case is a real regression test: the spec passes it, the broken engine fails it the
    # same way. It stops at the divergence unless the shorter case would check fewer levels
    # (a hand cut after its lead checks no pass) and so no longer fail.
    assert found.outcome.step is not None
    assert found.outcome.step <= len(found.case["steps"])
    assert run_suite([found.case], ReferenceEngine).ok
    again = run_suite([found.case], engine).outcomes[0]
    assert (again.status, again.rule) == ("failed", rule)


def test_fixed_options_are_never_drawn_and_the_others_are() -> None:
    seen: list[dict[str, Any]] = []

    class Recording(ReferenceEngine):
        def request(self, message: dict[str, Any]) -> dict[str, Any]:
            if message["type"] == "start":
                seen.append(message["rules"])
            return super().request(message)

    report = fuzz(Recording, "pagat-4x7", examples=40, seed=5, overrides={"double_blank_25": True})
    # Each of the 40 hands drawn is sent, but those whose options make no valid ruleset.
    assert 0 < len(seen) == report.played <= 40
    assert all(rules["double_blank_25"] is True for rules in seen)
    # pagat-4x7 discards and settles per hand; a swarm of 40 draws changes both somewhere.
    assert {rules["blocked_action"] for rules in seen} == {"pass", "discard"}
    assert len({rules["settlement"] for rules in seen}) > 1


class _DeclinesPairs(ReferenceEngine):
    """Declines every partnership deal, plays everything else like the spec; counts the
    deals it was sent."""

    started: ClassVar[int] = 0

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        if message["type"] == "start":
            type(self).started += 1
            if message["rules"]["partnership"]:
                return {"type": "unsupported", "reason": "no partnerships here"}
        return super().request(message)


def test_declined_hands_are_skipped_and_counted_not_the_end_of_the_run() -> None:
    _DeclinesPairs.started = 0
    report = fuzz(_DeclinesPairs, None, examples=60, seed=2, max_seconds=None)
    assert report.finding is None
    assert report.skipped > 0
    assert report.played > 0
    # Every deal sent is either played or skipped, the declined ones counted.
    assert report.played + report.skipped == _DeclinesPairs.started <= 60
    assert report.skip_reason is not None
    assert "no partnerships here" in report.skip_reason
    # A correct engine that plays every hand has nothing skipped.
    assert fuzz(ReferenceEngine, None, examples=20, seed=2).skipped == 0


def test_a_run_whose_every_hand_is_declined_raises_unsupported() -> None:
    with pytest.raises(Unsupported, match="no partnerships here"):
        fuzz(_DeclinesPairs, "suwiki-partnership", examples=10, overrides={"partnership": True})


def test_situations_and_cells_are_counted_per_hand_played() -> None:
    report = fuzz(ReferenceEngine, "pagat-5x5", examples=40, seed=4, max_seconds=None)
    assert list(report.counts) == list(COUNTED)
    assert all(0 <= n <= report.played for n in report.counts.values())
    # Every hand the fuzzer plays is finished, so it ends one way.
    values = [key for key in COUNTED if " " not in key]  # "feature=value", not a cell
    ends = [report.counts[key] for key in values if key.startswith("ending=")]
    assert sum(ends) == report.played
    # Five seats never play in pairs, so no challenge and no dead or closing double.
    assert all(report.counts[key] == 0 for key in values if key.split("=")[0] in PAIR_FEATURES)
    # pagat-5x5 sets 2 tiles aside: a starter that blocks at once needs all 6 other tiles of
    # a double's number (or 12 of a non-double's) set aside, so no sourced deal reaches it.
    assert report.counts["ending=blocked-at-once"] == 0
    assert 0 < report.cells_reached < len(COUNTED)
    assert "hands played" in report.table()
    assert f"cells reached {report.cells_reached} of" in " ".join(report.table().split())
    assert report.to_json()["situations"] == report.counts


def _vector_hand(name: str) -> dict[str, str]:
    """The situation of the hand of the vector ``name``, replayed on the spec."""
    (case,) = [c for c in load_cases(ROOT / "spec" / "vectors" / "v1") if c["id"] == name]
    rules = rules_from_json(case["rules"])
    start = new_hand(rules, deal_from_json(case["deal"]), first_hand=case["first_hand"])
    state = start
    for step in case["steps"]:
        if step.get("error") is None:  # a refused probe changes nothing
            state = apply(state, parse_move(step["action"]["move"]), step["action"]["seat"])
    return features_of(start, state)


@pytest.mark.parametrize(
    ("vector", "reached"),
    [
        # The vectors' own hand reasoning: SUWIKI's worked examples x9, x2, x4 and x5.
        ("score-suwiki-x9-tied-challenge-replay", {"ending": "blocked", "challenge": "tied"}),
        ("score-suwiki-x2-dead-six-six", {"top-double": "held-dead"}),
        ("score-suwiki-x4-closing-six-six", {"closing-bonus": "top-double"}),
        ("score-suwiki-x5-closing-double-blank", {"closing-bonus": "double-blank"}),
    ],
)
def test_the_situation_is_what_the_worked_examples_show(
    vector: str, reached: dict[str, str]
) -> None:
    found = _vector_hand(vector)
    assert reached.items() <= found.items()


@pytest.mark.parametrize(
    ("vector", "dead"),
    [
        # Each cover vector's description says, from its hand, whether the losing pair's 6-6
        # died: it is dead with the suit closed on it in a hand; not dead once discarded (only
        # a double still in a hand can die), nor while a six is off the line or an end shows 6.
        ("cover-dead-top-double", True),
        ("cover-discarded-top-double-not-dead", False),
        ("cover-alive-open-end", False),
        ("cover-alive-set-aside", False),
    ],
)
def test_a_double_is_labelled_dead_exactly_when_the_reference_kills_it(
    vector: str, dead: bool
) -> None:
    # The label once restated the rule and called a discarded 6-6 dead; it now reads the
    # reference's fate of each double.
    assert (_vector_hand(vector)["top-double"] == "held-dead") is dead


def _bug_engine(bug: str) -> SubprocessEngine:
    return SubprocessEngine(f"{sys.executable} {ROOT / 'examples/bugs/adapter.py'} --bug {bug}")


def test_the_fuzzer_finds_a_rare_seeded_bug_with_a_small_budget() -> None:
    # tie-not-replayed changes under 1 in 100 random hands of suwiki-partnership: about one
    # challenge in a hundred ties. Seed 3 meets a tied challenge within 221 hands (measured;
    # 224, 407 and 250 with seeds 1, 2 and 4; seed 0 none in 600, of 94 challenges).
    report = fuzz(
        lambda: _bug_engine("tie-not-replayed"),
        "suwiki-partnership",
        examples=600,
        seed=3,
        overrides={"challenge_tie": "replay"},
        max_seconds=None,
        shrink_seconds=2,
    )
    assert report.finding is not None
    assert report.finding.outcome.rule == "partner.challenge-tie"
    assert report.counts["challenge=tied"] >= 1
    # The example engine is not checked on rule IDs, so its hands ran as cases without their
    # annotations (rule IDs, tags, the result's rules); the case reported has them all.
    found = report.finding
    jsonschema.validate(found.case, case_schema())
    assert "partner.challenge-tie" in found.case["rule_ids"]
    assert found.outcome.rule_ids == tuple(found.case["rule_ids"])
    assert found.case["result"]["rules"]
    assert "features" in found.case


def test_the_case_written_names_the_rule_the_engine_broke() -> None:
    # blocked-on-first-pass declares the hand blocked at its first pass, where the spec plays
    # on: the case is cut at that step, so the spec's play never blocks the hand and end.blocked
    # is not among the rules it exercises. The case still names it: it was written for it.
    report = fuzz(
        lambda: _bug_engine("blocked-on-first-pass"), examples=60, seed=0, shrink_seconds=2
    )
    found = report.finding
    assert found is not None
    assert found.outcome.rule == "end.blocked"  # the bug's RULE
    assert "end.blocked" in found.case["rule_ids"]
    assert found.outcome.rule_ids == tuple(found.case["rule_ids"])
    jsonschema.validate(found.case, case_schema())  # its rule IDs unique, of the registry


def _job_report(played: int, found_after: float, rule: str) -> FuzzReport:
    """A job's report of a run that found a disagreement on ``rule`` after ``found_after``
    seconds, at its ``played``-th hand."""
    outcome = CaseOutcome(case=f"fuzz-{rule}", topic="fuzz", status="failed", seconds=0, rule=rule)
    return FuzzReport(
        finding=Finding({"id": f"fuzz-{rule}"}, outcome),
        played=played,
        skipped=0,
        seconds=found_after + 1,
        found_after=found_after,
        found_after_hands=played,
        counts=dict.fromkeys(COUNTED, 0),
    )


def test_the_jobs_report_the_disagreement_the_soonest_job_found() -> None:
    # Job 1 found end.out after 5 s and 40 hands, job 2 found score.count after 0.5 s and 3
    # hands: the run's first disagreement is job 2's, with its own seconds and hands.
    merged = merge_jobs([_job_report(40, 5.0, "end.out"), _job_report(3, 0.5, "score.count")])
    assert merged.finding is not None
    assert merged.finding.outcome.rule == "score.count"
    assert (merged.found_after, merged.found_after_hands) == (0.5, 3)
    # The counts still add up over the jobs, and the run lasted as long as its longest job.
    assert (merged.played, merged.seconds) == (43, 6.0)


RARE_BUGS = (
    ("tie-not-replayed", 0),
    ("tie-not-replayed", 1),
    ("first-dead-double-only", 0),
    ("first-dead-double-only", 1),
    ("rank-ignores-low-end", 0),
    ("rank-ignores-low-end", 1),
    ("discards-kill-doubles", 0),
    ("discards-kill-doubles", 1),
    ("top-closing-skips-dead", 3),
    ("top-closing-skips-dead", 4),
    ("tie-on-pips", 0),
    ("tie-on-pips", 3),
)
"""Seeded bugs that change under 1 random hand in 100 of their preset, and the three that
change about 1 in 1,000 under one option value (discards-kill-doubles, top-closing-skips-dead,
tie-on-pips), each with two seeds the default run finds it from well within its minute on
a busy two-core machine: the guard against a fuzzer that stops finding them. The five seeds
of each, with their times, are measured by benchmarks/fuzz_find.py (docs: "Fuzz")."""


@pytest.mark.skipif(not CI, reason="up to a minute per bug and seed: runs under the ci profile")
@pytest.mark.parametrize(("bug", "seed"), RARE_BUGS)
def test_the_default_run_finds_each_rare_seeded_bug_within_a_minute(bug: str, seed: int) -> None:
    report = fuzz(lambda: _bug_engine(bug), seed=seed)
    assert report.finding is not None
    assert report.found_after is not None
    assert report.found_after < MAX_SECONDS


def test_cli_fuzz_writes_the_case_and_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = tmp_path / "broken.py"
    write_mutant_adapter(
        broken,
        "    if r['type'] == 'state' and r['ending'] == 'out':\n        r['ending'] = None",
    )
    impl = f"{sys.executable} {broken}"
    argv = ["conformance", "fuzz", "--impl", impl, "--variant", "domino4d", "--examples", "20"]
    report = tmp_path / "report.json"
    assert main([*argv, "--out", str(tmp_path / "found"), "--report", str(report)]) == 1
    out = capsys.readouterr().out
    assert "[end.out]" in out
    assert "first disagreement after" in out
    (path,) = (tmp_path / "found").glob("*.json")
    jsonschema.validate(json.loads(path.read_text()), case_schema())
    assert json.loads(report.read_text())["finding"]["rule"] == "end.out"


def test_cli_fuzz_on_the_reference_finds_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    # One job: each of several jobs draws the 10 hands and plays its share of them, so the hands
    # played then add up to about 10 rather than exactly.
    argv = ["conformance", "fuzz", "--reference", "--variant", "pagat-5x5", "--examples", "10"]
    assert main([*argv, "--jobs", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    # The verdict first, then the table of situations.
    assert lines[0].startswith("no disagreement in 10 hands")
    assert any(line.startswith("cells reached") for line in lines[1:])
    # The reference declines no hand: a zero count, left out.
    assert not any(line.startswith("skipped") for line in lines)


_FORGETS_RANKING = (
    "    if r['type'] == 'result':\n"
    "        r['rules'] = [rule for rule in r['rules'] if rule != 'score.rank']\n"
)
"""An adapter patch: every result forgets that score.rank explained it. The fuzzer plays every
hand to its end and every end ranks the seats, so the first hand any search plays fails."""


def _fuzz_forgetting_ranking(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], jobs: int
) -> tuple[list[str], dict[str, Any]]:
    """The output lines and the --report of a fuzz run of :data:`_FORGETS_RANKING`."""
    adapter = write_mutant_adapter(tmp_path / "forgets.py", _FORGETS_RANKING)
    report = tmp_path / "report.json"
    argv = ["conformance", "fuzz", "--impl", f"{sys.executable} {adapter}", "--examples", "20"]
    argv += ["--variant", "domino4d", "--jobs", str(jobs), "--out", str(tmp_path / "found")]
    assert main([*argv, "--report", str(report), "--timeout", "20"]) == 1
    return capsys.readouterr().out.splitlines(), json.loads(report.read_text())


def test_cli_fuzz_reports_the_finding_first_then_the_counts_not_at_zero(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines, report = _fuzz_forgetting_ranking(tmp_path, capsys, jobs=1)
    # The first hand played fails (see _FORGETS_RANKING) and the search stops there: 1 hand,
    # the failing one, not the 2 of "the hands before it, plus one".
    assert report["played"] == 1
    assert re.fullmatch(r"first disagreement after \d+\.\d s and 1 hand; shrunk by .*", lines[0])
    assert lines[1].startswith("disagreement: ")
    assert "[score.rank]" in lines[1]
    assert lines[2].startswith("minimal case written to ")
    table = lines[3:]
    assert table[0].startswith("draws")
    # One hand reaches one value of a feature at most, so most values are at zero: each left
    # out, and their number said on the last line, with the declined hands (none) beside them.
    values = {k: n for k, n in report["situations"].items() if " & " not in k and " @ " not in k}
    shown = [line.split()[0] for line in table]
    assert shown == [
        "draws",
        "hands",
        *(key for key, n in values.items() if n),
        "cells",
        "counts",
    ]
    zeros = sum(1 for n in values.values() if n == 0) + 1  # + skipped (unsupported)
    assert table[-1].split() == ["counts", "at", "zero", f"{zeros},", "not", "shown"]


def test_cli_fuzz_with_two_jobs_counts_the_hands_of_the_job_that_found(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines, report = _fuzz_forgetting_ranking(tmp_path, capsys, jobs=2)
    # Each job stops at the first hand it plays, which fails (a hash shares the 20 hands out,
    # so each job has some): the jobs played 2 hands together, but the one that found the
    # disagreement soonest found it at its own first.
    assert report["played"] == 2
    assert re.fullmatch(r"first disagreement after \d+\.\d s and 1 hand; shrunk by .*", lines[0])


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--max-seconds", "0"], "--max-seconds must be a finite positive number of seconds"),
        # nan compares false with everything: it would switch the time budget off.
        (["--max-seconds", "nan"], "--max-seconds must be a finite positive number of seconds"),
        (["--max-seconds", "inf"], "--max-seconds must be a finite positive number of seconds"),
        (["--examples", "0"], "--examples must be at least 1, got 0"),
        (["--variant", "nope"], "unknown variant 'nope'"),
    ],
)
def test_cli_fuzz_bad_arguments_are_usage_errors(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["conformance", "fuzz", "--reference", *args]) == 2
    assert message in capsys.readouterr().err


def test_cli_fuzz_help_states_the_budget_the_fuzzer_uses(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # The help is written out because building the parser must not import Hypothesis.
    with pytest.raises(SystemExit):
        main(["conformance", "fuzz", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert f"(default {MAX_SECONDS:g})" in text
    assert f"up to {SHRINK_SECONDS:g} s more" in text


def test_cli_fuzz_of_options_no_variant_takes_is_a_usage_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["conformance", "fuzz", "--reference", "--variant", "pagat-5x5"]
    assert main([*argv, "--set", "partnership=true"]) == 2
    assert "partnership play needs exactly 4 seats" in capsys.readouterr().err


def test_cli_fuzz_of_a_variant_the_engine_declines_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "declines.py"
    script.write_text(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    m = json.loads(line)\n"
        "    if m['type'] == 'hello':\n"
        "        r = {'type': 'hello', 'protocol': 1, 'name': 'n', 'levels': ['line', 'turns'],"
        " 'error_codes': False}\n"
        "    else:\n"
        "        r = {'type': 'unsupported', 'reason': 'no pass option here'}\n"
        "    print(json.dumps(r), flush=True)\n"
    )
    argv = ["conformance", "fuzz", "--impl", f"{sys.executable} {script}"]
    assert main([*argv, "--set", "blocked_action=pass", "--examples", "3"]) == 2
    err = capsys.readouterr().err
    assert "declined every hand" in err
    assert "no pass option here" in err


def test_an_aimed_draw_has_what_its_cell_needs() -> None:
    # For every cell no fact rules out, one at least of ten hands drawn aimed at it has the
    # option labels and the first-hand flag its needs allow. Unaimed, about a quarter of
    # draws fit a cell's needs, and some cells (a dead double kept by a discard: the discard
    # rule, pair scoring and a valued double at once) far fewer: ten misses in a row on one
    # cell of 1,600 would be certain without the aim.
    presets = list(PRESETS)
    missed = []
    for cell in all_cells():
        if unreachable_reason(cell) is not None:
            continue
        aim = needs(cell)
        draws = (draw_hand(0, number, presets, {}, aim) for number in range(10))
        if not any(draw is not None and meets(aim, draw) for draw in draws):
            missed.append(cell)
    assert missed == []
    # meets tells the draws apart: the swarm keeps or redraws the blocked action, and
    # pagat-4x7 discards where the other presets pass, so twenty plain draws hold both.
    plain = [draw_hand(0, number, presets, {}) for number in range(20)]
    discards = {"blocked_action": frozenset({"discard"})}
    assert {meets(discards, draw) for draw in plain if draw is not None} == {True, False}


def test_a_drawn_hand_leaves_nothing_for_the_cycle_collector() -> None:
    # A hand the collector must free keeps all its states alive until a collection walks
    # them: stored with their tracebacks, the refused probes' errors once tied every hand in
    # a cycle through the frames that made it (284 objects a hand). Each hand here is played
    # and turned into its case with automatic collection off; then nothing is left to collect.
    presets = list(PRESETS)
    draws = [draw for n in range(60) if (draw := draw_hand(0, n, presets, {})) is not None]
    gc.collect()
    gc.disable()
    try:
        for draw in draws:
            case_of(play_draw(draw), 0)
        left = gc.collect()
    finally:
        gc.enable()
    assert left == 0


def test_a_search_leaves_the_collector_s_thresholds_as_it_found_them() -> None:
    # A search raises the collector's first threshold while it plays (FEW_COLLECTIONS); a
    # caller in the same process must get its own settings back, after a finding too.
    before = gc.get_threshold()
    found = fuzz(
        _PassAnyTime, "domino4d", examples=60, seed=1, overrides={"blocked_action": "pass"}
    )
    assert found.finding is not None
    assert gc.get_threshold() == before
