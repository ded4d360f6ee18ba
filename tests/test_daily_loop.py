"""The runner for daily work: choosing cases (``--case``, ``-k``, ``--cases FILE``), traces of
failures (``--trace``), expectations files (``--expectations``, ``--write-expectations``)
and feature tags (``--skip-feature``, ``plays.features``).

The expected case sets are worked out by hand from the committed case files under
``spec/vectors/v1`` (their IDs, their ``rules``), as the comments beside them say.
"""

from __future__ import annotations

import json
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from gaple.cli import main
from gaple.conformance.runner.engines import EngineError, ReferenceEngine
from gaple.conformance.runner.report import summary_text
from gaple.conformance.runner.run import DECLARED, hello, run_suite
from gaple.conformance.runner.selection import BadExpression, parse_keywords
from gaple.conformance.vectors.schemas import SCHEMAS
from gaple.conformance.vectors.tags import tags_of

JSON = Any
ROOT = Path(__file__).resolve().parent.parent
WRONG_END = f"{sys.executable} {ROOT / 'examples' / 'bugs' / 'adapter.py'} --bug wrong-end"
RUN = ["conformance", "run", "--jobs", "1"]


def _records(path: Path) -> list[dict[str, JSON]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _run_cases(path: Path) -> dict[str, str]:
    """Each case of a report, to its status."""
    return {r["case"]: r["status"] for r in _records(path) if r["type"] == "case"}


# -- choosing cases ---------------------------------------------------------------------------


def test_case_runs_exactly_the_cases_named(tmp_path: Path) -> None:
    report = tmp_path / "report.jsonl"
    argv = [*RUN, "--reference", "--case", "turns-pass-option", "--case", "end-out-by-placing"]
    assert main([*argv, "--report", str(report)]) == 0
    assert _run_cases(report) == {"turns-pass-option": "passed", "end-out-by-placing": "passed"}


def test_an_unknown_case_id_is_one_line_naming_the_closest(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main([*RUN, "--reference", "--case", "turns-pas"]) == 2
    err = capsys.readouterr().err
    # Only turns-pass-option is that close to it among the IDs.
    assert err == (
        "gaple conformance: error: --case turns-pas: no case has this ID; "
        "the closest: turns-pass-option\n"
    )


@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        # IDs holding "end-out": end/end-out-by-discarding and end/end-out-by-placing; holding
        # "turns-pass": turns/turns-pass-option. No feature tag holds either word.
        (
            "end-out or turns-pass",
            {"end-out-by-discarding", "end-out-by-placing", "turns-pass-option"},
        ),
        # Only the two turns/ cases hold "turns-"; turns-discard-option has "discard" in its
        # ID (and the tag: blocked_action discard), turns-pass-option has neither.
        ("turns- and not discard", {"turns-pass-option"}),
        # Keywords and words in any case; parentheses.
        ("TURNS- AND NOT (Pass)", {"turns-discard-option"}),
        # A tag alone: of the 18 score/ cases, settlement chips or difference in five
        # (block100-difference-15, chips-collects-15 and the three double-blank cases).
        (
            "score- and settlements",
            {
                "score-block100-difference-15",
                "score-chips-collects-15",
                "score-double-blank-alone",
                "score-double-blank-with-a-non-blank",
                "score-double-blank-with-another-blank",
            },
        ),
    ],
)
def test_k_selects_exactly_the_cases_counted_by_hand(
    tmp_path: Path, expression: str, expected: set[str]
) -> None:
    report = tmp_path / "report.jsonl"
    assert main([*RUN, "--reference", "-k", expression, "--report", str(report)]) == 0
    assert set(_run_cases(report)) == expected


def test_not_binds_tighter_than_and_which_binds_tighter_than_or() -> None:
    tags: list[str] = []
    # a or (b and c): "a" alone is enough; with and-first it would need c too.
    assert parse_keywords("a or b and c")("a", tags)
    assert not parse_keywords("(a or b) and c")("a", tags)
    # (not a) and b
    assert not parse_keywords("not a and b")("ab", tags)
    assert parse_keywords("not a and b")("b", tags)
    # A word matches part of a tag.
    assert parse_keywords("partner")("x", ["partnership"])


@pytest.mark.parametrize(
    ("expression", "where"),
    [
        ("", "empty"),
        ("and", "column 1: expected a word, 'not' or '(', found 'and'"),
        ("open and", "column 9: expected a word, 'not' or '(', found the end"),
        ("(open", "column 6: expected ')', found the end"),
        ("open )", "column 6: expected 'and', 'or' or the end, found ')'"),
        ("open pass", "column 6: expected 'and', 'or' or the end, found 'pass'"),
        ("__import__('os')", "column 11: expected 'and', 'or' or the end, found '('"),
    ],
)
def test_a_malformed_k_is_one_located_line(
    expression: str, where: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(BadExpression, match=r"^-k "):
        parse_keywords(expression)
    assert main([*RUN, "--reference", "-k", expression]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert where in err


def test_selecting_nothing_is_an_error_not_a_pass(capsys: pytest.CaptureFixture[str]) -> None:
    # No case ID or tag holds "zzz".
    assert main([*RUN, "--reference", "-k", "zzz"]) == 2
    assert "no case is selected by -k 'zzz'" in capsys.readouterr().err
    # turns-pass-option is a case of pagat-4x7-pass's rules, not chips'.
    assert main([*RUN, "--reference", "--variant", "chips", "--case", "turns-pass-option"]) == 2


def test_cases_takes_a_single_case_file(tmp_path: Path) -> None:
    report = tmp_path / "report.jsonl"
    case = ROOT / "spec" / "vectors" / "v1" / "turns" / "turns-pass-option.json"
    assert main([*RUN, "--reference", "--cases", str(case), "--report", str(report)]) == 0
    assert _run_cases(report) == {"turns-pass-option": "passed"}


def test_cases_that_do_not_exist_are_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*RUN, "--reference", "--cases", str(tmp_path / "none.json")]) == 2
    assert "no such file or folder" in capsys.readouterr().err


# -- traces -----------------------------------------------------------------------------------


def test_trace_shows_the_failing_request_and_reply(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # end-out-by-placing, step 7: seat 0 plays "place 1-6 left" on a line whose ends are
    # both 1 ([[1, 1], ..., [5, 1]]); wrong-end puts a tile on the right when it fits there,
    # so its state after the act shows 1-6 at the right end: [5, 1], [1, 6]].
    report = tmp_path / "report.jsonl"
    argv = [*RUN, "--impl", WRONG_END, "--case", "end-out-by-placing", "--report", str(report)]
    assert main([*argv, "--trace"]) == 1
    out = capsys.readouterr().out
    lines = out.splitlines()
    act = lines.index('    > {"type": "act", "seat": 0, "move": "place 1-6 left"}')
    assert lines[act + 1 : act + 3] == ['    < {"type": "ok"}', '    > {"type": "state"}']
    assert lines[act + 3].startswith('    < {"type": "state", "to_act": 1, "line": [[1, 1], [1, 0]')
    assert "[5, 1], [1, 6]]" in lines[act + 3]
    (record,) = [r for r in _records(report) if r["type"] == "case"]
    assert {"sent": '{"type": "act", "seat": 0, "move": "place 1-6 left"}'} in record["trace"]
    assert record["trace"][0]["sent"].startswith('{"type": "start", "case": "end-out-by-placing"')
    # The saved report, trace and all, is one the summary reads.
    assert main(["conformance", "summary", str(report)]) == 0


def test_without_trace_nothing_is_kept(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = tmp_path / "report.jsonl"
    argv = [*RUN, "--impl", WRONG_END, "--case", "end-out-by-placing", "--report", str(report)]
    assert main(argv) == 1
    assert "trace (" not in capsys.readouterr().out
    assert all("trace" not in r for r in _records(report))


def test_a_trace_escapes_what_the_engine_sends() -> None:
    # An engine whose every state names the wrong seat to act and carries a terminal escape.
    class Engine(ReferenceEngine):
        def _answer(self, message: dict[str, JSON]) -> dict[str, JSON]:
            reply = super()._answer(message)
            if reply.get("type") == "state":
                reply["to_act"] = (reply["to_act"] + 1) % 4
                reply["note"] = "\x1b[2J\u202e"
            return reply

    from gaple.conformance.vectors.scenarios import all_cases  # noqa: PLC0415

    case = next(c for c in all_cases() if c["id"] == "turns-pass-option")
    summary = run_suite([case], Engine, trace=True)
    (outcome,) = summary.outcomes
    assert outcome.status == "failed"
    assert outcome.trace is not None
    shown = summary_text(summary)
    assert "\x1b" not in shown
    assert "\u202e" not in shown
    assert '"note": "\\u001b[2J\\u202e"' in shown


# -- expectations -----------------------------------------------------------------------------


def _expectations(path: Path, cases: dict[str, JSON]) -> Path:
    path.write_text(
        json.dumps({"format": "gaple-expectations", "version": 1, "cases": cases}),
        encoding="utf-8",
    )
    return path


BOTH_OUTS = ["--case", "end-out-by-placing", "--case", "end-out-by-discarding"]


def _written_by_wrong_end(tmp_path: Path) -> tuple[Path, list[str], dict[str, JSON]]:
    """The expectations file a run of wrong-end on both outs writes, that run's arguments, and
    the file's entries."""
    written = tmp_path / "expected.json"
    argv = [*RUN, "--impl", WRONG_END, *BOTH_OUTS]
    assert main([*argv, "--write-expectations", str(written)]) == 1
    return written, argv, json.loads(written.read_text(encoding="utf-8"))["cases"]


def test_known_divergences_pass_and_a_new_failure_fails_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    written, argv, cases = _written_by_wrong_end(tmp_path)
    # wrong-end places on the wrong end in both outs: both fail, both are listed.
    assert sorted(cases) == ["end-out-by-discarding", "end-out-by-placing"]
    assert f"wrote {written} (2 failures listed)" in capsys.readouterr().err
    # end-out-by-placing fails at step 7 (test_trace_shows_the_failing_request_and_reply).
    assert cases["end-out-by-placing"]["status"] == "failed"
    assert "place 1-6 left" in cases["end-out-by-placing"]["reason"]
    capsys.readouterr()
    assert main([*argv, "--expectations", str(written)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert f"expectations {written}: 2 known divergences as listed, 0 new failures, " in (
        "\n".join(lines)
    )
    # Before: "DOES NOT CONFORM: 2 cases", then "AS EXPECTED: every case that did not pass is
    # listed so": two verdicts that contradict each other.
    assert lines[-1] == f"AS EXPECTED: 2 known failures as listed in {written}, no new failure"
    assert not any("DOES NOT CONFORM" in line for line in lines)
    # One entry taken out: that case is a new failure, named, and the run's one verdict.
    del cases["end-out-by-placing"]
    fewer = _expectations(tmp_path / "fewer.json", cases)
    assert main([*argv, "--expectations", str(fewer)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert any(
        line.startswith(
            "NEW FAILURE end-out-by-placing (failed, not listed): in the position after step 7"
        )
        for line in lines
    )
    assert lines[-1] == (
        f"NEW FAILURES: 1 case failed or errored otherwise than {fewer} lists (1 known "
        "failure as listed)"
    )


def test_the_report_keeps_the_judgement_and_the_summary_shows_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Before: the report of a run that passed against its expectations said only "does not
    # conform", and neither its summary nor its HTML page said the failures were known.
    written, argv, listed = _written_by_wrong_end(tmp_path)
    del listed["end-out-by-placing"]  # now a new failure (test above)
    fewer = _expectations(tmp_path / "fewer.json", listed)
    shards = [tmp_path / f"r{index}.jsonl" for index in (1, 2)]
    for index, report in enumerate(shards, start=1):
        shard = ["--shard", f"{index}/2", "--report", str(report)]
        main([*argv, *shard, "--expectations", str(fewer)])
    merged = tmp_path / "merged.jsonl"
    assert main(["conformance", "merge", *map(str, shards), "--out", str(merged)]) == 0
    (footer,) = [r for r in _records(merged) if r["type"] == "footer"]
    # Each shard's footer names the file held against by its digest; the merge keeps it.
    digests = {r["expectations"]["sha256"] for s in shards for r in _records(s) if "counts" in r}
    assert digests == {footer["expectations"].pop("sha256")}
    assert footer["expectations"] == {
        "file": str(fewer),
        "held": sorted(listed),
        "new": ["end-out-by-placing"],
        "unexpected": [],
    }
    # Case k goes to shard k % 2 + 1: end-out-by-discarding (known) to shard 1,
    # end-out-by-placing (new) to shard 2. Before, every footer said "does not conform".
    verdicts = [r["verdict"] for s in shards for r in _records(s) if r["type"] == "footer"]
    assert verdicts == ["as expected", "new failures"]
    assert footer["verdict"] == "new failures"
    capsys.readouterr()
    page = tmp_path / "r.html"
    assert main(["conformance", "summary", str(merged), "--html", str(page)]) == 0
    said = f"expectations {fewer}: {len(listed)} known divergence"
    out = capsys.readouterr().out
    assert f"{said}{'s' * (len(listed) != 1)} as listed, 1 new failure, 0 unexpected passes" in out
    assert f": new failures ({merged})" in out
    assert said in page.read_text(encoding="utf-8")
    # Shards held against different files are not one run.
    main([*argv, "--shard", "2/2", "--report", str(shards[1]), "--expectations", str(written)])
    assert main(["conformance", "merge", *map(str, shards), "--out", str(merged)]) == 2
    assert "its expectations differ" in capsys.readouterr().err


def test_junit_shows_known_divergences_as_skipped_and_a_new_failure_as_a_failure(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Before: a run that passed against its expectations still wrote every known divergence
    # as a <failure>, so a CI's test view was red on a green job.
    written, junit = tmp_path / "expected.json", tmp_path / "junit.xml"
    argv = [*RUN, "--impl", WRONG_END, *BOTH_OUTS, "--junit", str(junit)]
    assert main([*argv, "--write-expectations", str(written)]) == 1
    listed = json.loads(written.read_text(encoding="utf-8"))["cases"]
    assert main([*argv, "--expectations", str(written)]) == 0
    cases = ET.parse(junit).getroot().findall(".//testcase")
    for case in cases:
        if case.get("name") in listed:
            (skipped,) = case.findall("skipped")
            assert skipped.get("message", "").startswith(f"known divergence, listed in {written}")
        assert not case.findall("failure")
    # The same run without the file, or with the case taken out of it, fails it again.
    del listed["end-out-by-placing"]
    fewer = _expectations(tmp_path / "fewer.json", listed)
    assert main([*argv, "--expectations", str(fewer)]) == 1
    failed = [c.get("name") for c in ET.parse(junit).getroot().findall(".//testcase[failure]")]
    assert failed == ["end-out-by-placing"]
    capsys.readouterr()


def test_a_listed_case_that_passes_is_an_unexpected_pass(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The reference engine is the spec: every case passes.
    listed = {"turns-pass-option": {"status": "failed", "reason": "passes are not done yet"}}
    path = _expectations(tmp_path / "expected.json", listed)
    argv = [*RUN, "--reference", "-k", "turns-", "--expectations", str(path)]
    # Before: status 1, as for a failure; the file is out of date, the engine is not worse.
    assert main(argv) == 5
    out = capsys.readouterr().out
    assert "0 known divergences as listed, 0 new failures, 1 unexpected pass" in out
    assert "UNEXPECTED PASS turns-pass-option (listed as failed: passes are not done yet)" in out
    assert out.splitlines()[-1] == (
        f"EXPECTATIONS OUTDATED: 1 case listed in {path} now passes; take it out, or write the "
        f"file anew: this run with --write-expectations {path}"
    )
    assert "AS EXPECTED" not in out


def test_a_case_listed_but_not_run_is_not_judged_nor_stale_and_stays_listed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    listed = {"turns-pass-option": {"status": "failed", "reason": "not run here"}}
    path = _expectations(tmp_path / "expected.json", listed)
    argv = [*RUN, "--reference", "--case", "turns-discard-option", "--expectations", str(path)]
    assert main(argv) == 0
    assert "warning" not in capsys.readouterr().out
    # Written anew from a run that did not select it, the entry is kept as it was.
    written = tmp_path / "anew.json"
    assert main([*argv, "--write-expectations", str(written)]) == 0
    assert json.loads(written.read_text(encoding="utf-8"))["cases"] == listed
    assert "(0 failures listed, and 1 kept of cases not run)" in capsys.readouterr().err


def test_stale_entries_are_named_and_do_not_fail_the_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Before: an ID no case has ended the run before it started (status 2), although a file
    # written for older vectors lists such IDs. turns-pas is no case's ID; turns-pass-option
    # changes pagat-4x7's later_lead, so --variant pagat-4x7 leaves it out of the run.
    listed = {
        "turns-pas": {"status": "failed", "reason": "a typo"},
        "turns-pass-option": {"status": "failed", "reason": "out of scope"},
    }
    path = _expectations(tmp_path / "expected.json", listed)
    argv = [*RUN, "--reference", "--variant", "pagat-4x7", "-k", "turns-"]
    assert main([*argv, "--expectations", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    at = lines.index(
        f"warning: 2 entries of {path} cannot be judged in this run (not counted; write the "
        "file anew to drop them):"
    )
    assert lines[at + 1] == "  turns-pas: no case has this ID (closest: turns-pass-option)"
    assert lines[at + 2].startswith("  turns-pass-option: outside pagat-4x7 (requested): option")
    assert lines[-1] == f"AS EXPECTED: 0 known failures as listed in {path}, no new failure"


def test_a_written_expectations_file_meets_its_schema(tmp_path: Path) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    written = tmp_path / "expected.json"
    argv = [*RUN, "--impl", WRONG_END, "--case", "end-out-by-placing"]
    assert main([*argv, "--write-expectations", str(written)]) == 1
    document = json.loads(written.read_text(encoding="utf-8"))
    jsonschema.validate(document, SCHEMAS["schema/expectations.schema.json"])
    assert list(document["cases"]) == ["end-out-by-placing"]


def test_write_expectations_needs_the_whole_run(capsys: pytest.CaptureFixture[str]) -> None:
    argv = [*RUN, "--reference", "--max-fail", "1", "--write-expectations", "x.json"]
    assert main(argv) == 2
    assert "not with --max-fail" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("[1,", "line 1:"),
        ("[]", "$: an expectations file is a JSON object"),
        ('{"format": "x", "version": 1, "cases": {}}', "$.format: not 'gaple-expectations'"),
        ('{"format": "gaple-expectations", "version": 2, "cases": {}}', "$.version: 2;"),
        ('{"format": "gaple-expectations", "version": 1}', "$.cases: an object"),
        (
            '{"format": "gaple-expectations", "version": 1, "cases": {}, "more": 1}',
            "$.more: unknown field",
        ),
        (
            '{"format": "gaple-expectations", "version": 1, '
            '"cases": {"turns-pass-option": {"status": "fail", "reason": ""}}}',
            '$.cases["turns-pass-option"].status: "fail" is not one of failed, errored, '
            "unsupported",
        ),
        (
            '{"format": "gaple-expectations", "version": 1, '
            '"cases": {"turns-pass-option": {"status": "failed"}}}',
            "$.cases[\"turns-pass-option\"]: an object with 'status' and 'reason'",
        ),
    ],
)
def test_a_bad_expectations_file_is_one_located_line(
    tmp_path: Path, text: str, where: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "expected.json"
    path.write_text(text, encoding="utf-8")
    argv = [*RUN, "--reference", "--case", "turns-pass-option", "--expectations", str(path)]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert f"{path}: {where}" in err


# -- feature tags -----------------------------------------------------------------------------


def test_skip_feature_leaves_no_case_of_the_tag_and_is_partial(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Of the 18 score/ cases the nine score-suwiki-* have "partnership": true, the others
    # false; the reference passes every case it plays.
    report = tmp_path / "report.jsonl"
    argv = [*RUN, "--reference", "-k", "score-", "--skip-feature", "partnership"]
    assert main([*argv, "--report", str(report)]) == 4
    run = _run_cases(report)
    assert {case for case, status in run.items() if status == "skipped"} == {
        case for case in run if case.startswith("score-suwiki-")
    }
    assert sum(status == "passed" for status in run.values()) == 9
    out = capsys.readouterr().out
    assert "PARTIAL" in out
    assert "9 skipped on request (--skip-feature)" in out


def test_an_unknown_feature_tag_lists_the_known_ones(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*RUN, "--reference", "--skip-feature", "partner"]) == 2
    err = capsys.readouterr().err
    assert "--skip-feature partner: not a feature tag; the tags are partnership, individual" in err


def test_tags_come_from_the_rules_and_the_situation() -> None:
    rules = {
        "partnership": True,
        "blocked_action": "pass",
        "forbidden_leads": [],
        "double_blank_25": False,
        "settlement": "partnership",
    }
    # Partnership, pass; the hand blocked with a challenge, no starter, a first hand.
    situation = {"hand": "first", "lead": "double-blank", "ending": "blocked", "challenge": "won"}
    assert tags_of(rules, situation) == ["partnership", "pass", "blocked", "challenge"]
    rules |= {"partnership": False, "blocked_action": "discard", "forbidden_leads": ["0-1"]}
    rules |= {"double_blank_25": True, "settlement": "chips"}
    situation = {"hand": "later", "lead": "starter", "closing-bonus": "none"}
    assert tags_of(rules, situation) == [
        "individual",
        "discard",
        "starter",
        "match",
        "forbidden-lead",
        "double-blank-25",
        "settlements",
    ]


def _declaring(plays: JSON, declines: str | None = None) -> type[ReferenceEngine]:
    """The reference engine declaring ``plays`` and declining every case whose rules have
    ``partnership`` equal to ``declines == "partnership"``."""

    class Engine(ReferenceEngine):
        def _answer(self, message: dict[str, JSON]) -> dict[str, JSON]:
            start = message.get("type") == "start"
            if start and declines == "partnership" and message["rules"]["partnership"]:
                return {"type": "unsupported", "reason": "no pairs"}
            reply = super()._answer(message)
            if message.get("type") == "hello":
                reply["plays"] = plays
            return reply

    return Engine


@pytest.fixture(scope="module")
def score_cases() -> list[dict[str, JSON]]:
    from gaple.conformance.vectors.scenarios import all_cases  # noqa: PLC0415

    return [case for case in all_cases() if case["topic"] == "score"]


def test_declared_features_leave_out_the_cases_with_other_tags(
    score_cases: list[dict[str, JSON]],
) -> None:
    # Every tag but partnership: the nine partnership score cases are outside, never sent,
    # so declining them costs nothing.
    every = ["individual", "pass", "discard", "starter", "match", "blocked"]
    every += ["forbidden-lead", "double-blank-25", "settlements"]
    every += ["challenge", "closing-bonus", "dead-double"]
    summary = run_suite(score_cases, _declaring({"features": every}, "partnership"))
    skipped = {o.case for o in summary.outcomes if o.status == "skipped"}
    assert skipped == {c["id"] for c in score_cases if c["id"].startswith("score-suwiki-")}
    assert all("feature partnership" in o.message for o in summary.outcomes if o.case in skipped)
    assert summary.verdict == "conforms"


def test_declining_inside_the_declared_features_fails(
    score_cases: list[dict[str, JSON]],
) -> None:
    # It declares every tag (partnership too), then declines the partnership cases.
    every = ["partnership", "individual", "pass", "discard", "starter", "match", "blocked"]
    every += ["forbidden-lead", "double-blank-25", "settlements", "challenge"]
    every += ["closing-bonus", "dead-double"]
    summary = run_suite(score_cases, _declaring({"features": every}, "partnership"))
    failed = {o.case for o in summary.outcomes if o.status == "failed"}
    assert failed == {c["id"] for c in score_cases if c["id"].startswith("score-suwiki-")}
    assert {o.rule for o in summary.outcomes if o.status == "failed"} == {DECLARED}


@pytest.mark.parametrize(
    ("features", "words"),
    [
        ("pass", "must be a list"),
        (["pass", "bogus"], 'unknown tags \\["bogus"\\]'),
        ([{}], "unknown tags"),
    ],
)
def test_malformed_declared_features_are_a_protocol_error(features: JSON, words: str) -> None:
    with pytest.raises(EngineError, match=words):
        hello(_declaring({"features": features})())
