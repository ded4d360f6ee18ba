"""One verdict per run: held against an expectations file, the run's text ends with the
judgement's verdict and never with the unheld one; the report's footer and the JUnit file
record the same; an expectations file lists only failures, and names the entries a run cannot
judge.

The outcomes are built by hand, so each expected line is reasoned from them, as the comments
say.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from gaple.conformance.checker.compare import Difference
from gaple.conformance.runner.expectations import (
    Expectation,
    expectations_document,
    judge,
    verdict,
)
from gaple.conformance.runner.report import junit_xml, summary_text
from gaple.conformance.runner.run import CaseOutcome, Measured, Summary

FILE = Path("e.json")


def _passed(case: str) -> CaseOutcome:
    return CaseOutcome(case=case, topic="play", status="passed", seconds=0.0)


def _failed(case: str) -> CaseOutcome:
    return CaseOutcome(
        case=case,
        topic="play",
        status="failed",
        seconds=0.0,
        rule="turn.order",
        step=1,
        seat=0,
        action="lead 0-0",
        difference=Difference("to_act", "turn.order", 1, 2),
    )


def _errored(case: str) -> CaseOutcome:
    return CaseOutcome(case=case, topic="play", status="errored", seconds=0.0, message="crash")


def _declined(case: str) -> CaseOutcome:
    return CaseOutcome(
        case=case,
        topic="play",
        status="skipped",
        seconds=0.0,
        message="unsupported by the engine: no",
        declined=True,
    )


def _listed(*cases: str, status: str = "failed") -> dict[str, Expectation]:
    return {case: Expectation(status, "known") for case in cases}


def _text(outcomes: tuple[CaseOutcome, ...], listed: dict[str, Expectation]) -> list[str]:
    known = {o.case for o in outcomes} | set(listed)
    judgement = judge(listed, outcomes, known=known)
    return summary_text(Summary(outcomes, 0.5, None, False), held=(FILE, judgement)).splitlines()


def test_a_run_whose_failures_are_all_listed_ends_as_expected_and_nothing_else() -> None:
    # Before: the text said "DOES NOT CONFORM: 3 cases" and then "AS EXPECTED", exit 0.
    # a and b failed and are listed as failed; c passed: 2 known failures, no new one.
    lines = _text((_failed("a"), _failed("b"), _passed("c")), _listed("a", "b"))
    assert lines[-1] == "AS EXPECTED: 2 known failures as listed in e.json, no new failure"
    assert not any("DOES NOT CONFORM" in line for line in lines)
    # The counts stay, without a verdict.
    assert "ran 3 cases in 0.50 s" in lines


def test_a_failure_not_listed_ends_as_new_failures_naming_the_passes_too() -> None:
    # a failed, listed: known. b errored, not listed: new. c passed although listed as
    # failed: an unexpected pass, said in the same line since the run fails anyway.
    lines = _text((_failed("a"), _errored("b"), _passed("c")), _listed("a", "c"))
    assert lines[-1] == (
        "NEW FAILURES: 1 case failed or errored otherwise than e.json lists (1 known failure "
        "as listed; 1 listed case now passes)"
    )
    assert "NEW FAILURE b (errored, not listed): crash" in lines
    assert not any(line.startswith("AS EXPECTED") for line in lines)


def test_a_listed_case_failing_otherwise_is_a_new_failure() -> None:
    # a is listed as errored but failed: it ended otherwise than listed.
    lines = _text((_failed("a"), _passed("b")), _listed("a", status="errored"))
    assert lines[-1].startswith("NEW FAILURES: 1 case failed or errored otherwise than e.json")


def test_listed_cases_that_pass_end_as_expectations_outdated() -> None:
    # Before: unexpected passes alone ended as a failure of the run (status 1), and once the
    # engine declined cases, as PARTIAL. b and c are listed and pass; a failed as listed.
    lines = _text((_failed("a"), _passed("b"), _passed("c")), _listed("a", "b", "c"))
    assert lines[-1] == (
        "EXPECTATIONS OUTDATED: 2 cases listed in e.json now pass; take them out, or write "
        "the file anew: this run with --write-expectations e.json"
    )
    assert not any("PARTIAL" in line or "AS EXPECTED" in line for line in lines)


def test_many_unexpected_passes_are_named_five_in_full_then_by_id() -> None:
    # An engine fixed at last: 17 listed cases, p00 to p16, all pass. Five get a line each
    # (p00 to p04); the other 12 are named by ID on one line, ten of them (p05 to p14) and
    # the last two counted.
    cases = [f"p{number:02}" for number in range(17)]
    lines = _text(tuple(_passed(case) for case in cases), _listed(*cases))
    passes = [line for line in lines if line.startswith("UNEXPECTED PASS")]
    assert passes == [f"UNEXPECTED PASS {case} (listed as failed: known)" for case in cases[:5]]
    assert (
        "... and 12 more unexpected passes: p05, p06, p07, p08, p09, p10, p11, p12, p13, p14 "
        "and 2 more (see --report)"
    ) in lines
    assert lines[-1].startswith("EXPECTATIONS OUTDATED: 17 cases listed in e.json now pass")


def test_a_partial_run_held_says_why_then_partial_last() -> None:
    # a failed as listed, b passed, c declined by an engine that declares no scope: nothing
    # new, but c was not checked: partial, with 2 of 3 cases checked (b passed, a as listed).
    lines = _text((_failed("a"), _passed("b"), _declined("c")), _listed("a"))
    assert lines[-2].startswith("only 2 of 3 cases checked: 1 declined by an engine")
    assert lines[-1] == (
        "PARTIAL: 1 known failure as listed in e.json, no new failure, but not every case checked"
    )


def test_nothing_passed_nor_ended_as_listed_is_nothing_checked() -> None:
    lines = _text((_declined("a"),), {})
    assert lines[-1] == "NOTHING CHECKED: of 1 case, none passed or ended as listed in e.json"


def test_without_expectations_the_verdict_is_the_last_line_too() -> None:
    # Before: a partial run's last line was the why, under the verdict.
    outcomes = (_passed("a"), _declined("b"))
    lines = summary_text(Summary(outcomes, 0.5, None, False)).splitlines()
    assert lines[-1] == "PARTIAL: 2 cases in 0.50 s"
    assert lines[-2].startswith("only 1 of 2 cases checked: 1 declined")


@pytest.mark.parametrize(
    ("outcomes", "listed", "expected"),
    [
        ((_failed("a"),), _listed("a"), "as expected"),
        ((_failed("a"), _failed("b")), _listed("a"), "new failures"),
        ((_passed("a"),), _listed("a"), "expectations outdated"),
        ((_passed("a"), _declined("b")), {}, "partial"),
        ((_declined("a"),), {}, "nothing checked"),
    ],
)
def test_the_verdict_of_a_held_run(
    outcomes: tuple[CaseOutcome, ...], listed: dict[str, Expectation], expected: str
) -> None:
    judgement = judge(listed, outcomes, known={o.case for o in outcomes})
    assert verdict(Summary(outcomes, 0.0, None, False), judgement) == expected


def test_junit_records_the_held_verdict() -> None:
    # Before: gaple.verdict said "does not conform" for a run that passed against its file.
    outcomes = (_failed("a"), _passed("b"))
    summary = Summary(outcomes, 0.1, None, False, measured=Measured("s", 1, 1, 1))
    judgement = judge(_listed("a"), outcomes, known={"a", "b"})
    root = ET.fromstring(junit_xml(summary, name="e", held=(FILE, judgement)))
    said = {p.get("value") for p in root.iter("property") if p.get("name") == "gaple.verdict"}
    assert said == {"as expected"}
    (skipped,) = root.iter("skipped")
    assert (skipped.get("message") or "").startswith("known divergence, listed in e.json")


def test_stale_entries_are_named_and_entries_of_cases_not_run_are_kept() -> None:
    # gone: no case has it. c: declined by the engine (never played). o: outside the run's
    # scope. u: a known case this run did not select. a failed as listed.
    outcomes = (_failed("a"), _declined("c"))
    listed = _listed("a", "c", "gone", "o", "u")
    judgement = judge(listed, outcomes, known={"a", "c", "o", "u"}, outside={"o": "outside s"})
    assert judgement.stale == (
        ("c", "not played: unsupported by the engine: no"),
        ("gone", "no case has this ID"),
        ("o", "outside s"),
    )
    assert judgement.unrun == ("u",)
    assert judgement.held == ("a",)
    lines = summary_text(Summary(outcomes, 0.1, None, False), held=(FILE, judgement)).splitlines()
    at = lines.index(
        "warning: 3 entries of e.json cannot be judged in this run (not counted; write the "
        "file anew to drop them):"
    )
    assert lines[at + 1 : at + 4] == [
        "  c: not played: unsupported by the engine: no",
        "  gone: no case has this ID",
        "  o: outside s",
    ]
    # They do not make the run fail: c's decline makes it partial, as without the file.
    assert verdict(Summary(outcomes, 0.1, None, False), judgement) == "partial"


def test_a_written_file_lists_the_failures_in_scope_and_keeps_the_cases_not_run() -> None:
    # Before: every declined case was written as "unsupported" (391 of 405 entries for one
    # engine). a failed, b errored: listed. c passed, d declined, e skipped otherwise: not.
    # u was listed before and not run: kept with its reason. a keeps its listed reason.
    skipped = CaseOutcome(case="e", topic="play", status="skipped", seconds=0.0, message="x")
    outcomes = (_failed("a"), _errored("b"), _passed("c"), _declined("d"), skipped)
    previous = {"a": Expectation("failed", "known"), "u": Expectation("errored", "slow")}
    document = expectations_document(outcomes, previous, kept=("u",))
    assert document["cases"] == {
        "a": {"status": "failed", "reason": "known"},
        "b": {"status": "errored", "reason": "crash"},
        "u": {"status": "errored", "reason": "slow"},
    }
