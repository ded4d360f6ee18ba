"""The proof of the kit on real engines: the example engine passes the suite through the
subprocess protocol, and every seeded bug is caught by the suite and by the fuzzer, named by
the rule it breaks."""

from __future__ import annotations

import collections
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from gaple.conformance.cases import scoring_available
from gaple.conformance.engines import SubprocessEngine
from gaple.conformance.fuzz import fuzz
from gaple.conformance.runner import run_suite
from gaple.conformance.scenarios import all_cases

ROOT = Path(__file__).resolve().parent.parent
ENGINE = f"{sys.executable} {ROOT / 'examples' / 'engine' / 'adapter.py'}"
BUGS = f"{sys.executable} {ROOT / 'examples' / 'bugs' / 'adapter.py'}"

KNOWN_ENGINE_DISAGREEMENTS = {
    # The example engine names as "winner" of a blocked partnership hand the seat with the
    # lowest count (its "Reading" in result()), where the spec names the seat that won the
    # blocked-hand challenge and no winner at all when a tied challenge is replayed
    # (partner.challenge, partner.challenge-tie). Its points agree with the spec.
    "score-suwiki-x9-tied-challenge-replay",
    "score-suwiki-x9-tied-challenge-blocker-loses",
    "random-suwiki-partnership-5",
    "random-suwiki-partnership-blocker-loses-5",
    "random-suwiki-partnership-debit-any-double-5",
}
"""Cases the example engine fails on a reading of the rules, reported, not hidden: the test
fails if any other case fails, or if these fail any other way."""

BUG_RULES = {
    "blocked-on-first-pass": ("end.blocked", "domino4d"),
    "discards-not-counted": ("score.count", "pagat-4x7"),
    "opener-ignored": ("open.double-blank", "pagat-4x7"),
    "pass-while-placement-exists": ("turn.forced-play", "domino4d"),
    "play-after-end": ("end.final", "pagat-4x7"),
    "ties-by-seat": ("score.rank", "pagat-4x6"),
    "wrong-end": ("play.match-end", "pagat-4x7"),
}
"""Each seeded bug (examples/bugs/adapter.py --list): the rule it breaks and a preset where
the fuzzer meets it."""

SCORING_BUGS = {"discards-not-counted", "ties-by-seat"}

# opener-ignored breaks every lead rule at once; the fuzzer's shrinking prefers a later hand,
# where it shows as the double lead rule.
FUZZ_RULES = {"opener-ignored": {"open.double-blank", "open.double"}}


@pytest.fixture(scope="module")
def cases() -> list[dict[str, Any]]:
    return all_cases()


def test_the_bug_list_is_the_examples_list() -> None:
    listed = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "bugs" / "adapter.py"), "--list"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    rows = dict(line.split("\t") for line in listed.splitlines())
    assert rows == {bug: rule for bug, (rule, _) in BUG_RULES.items()}


def test_the_example_engine_passes_the_suite_through_the_protocol(
    cases: list[dict[str, Any]],
) -> None:
    summary = run_suite(cases, lambda: SubprocessEngine(ENGINE, timeout=20))
    bad = {o.case: o for o in summary.outcomes if o.status != "passed"}
    assert set(bad) <= KNOWN_ENGINE_DISAGREEMENTS, [o.describe() for o in bad.values()]
    for outcome in bad.values():
        assert outcome.status == "failed"
        assert outcome.difference is not None
        assert outcome.difference.field == "winner"
        assert outcome.rule in ("partner.challenge", "partner.challenge-tie")


@pytest.mark.parametrize("bug", sorted(BUG_RULES))
def test_the_suite_catches_each_seeded_bug_naming_its_rule(
    cases: list[dict[str, Any]], bug: str
) -> None:
    rule, _ = BUG_RULES[bug]
    if bug in SCORING_BUGS and not scoring_available():
        pytest.skip("gaple.result is not on this branch yet: no count level to check")
    summary = run_suite(cases, lambda: SubprocessEngine(f"{BUGS} --bug {bug}", timeout=20))
    # Each bug is the example engine plus one defect, so it inherits the engine's known
    # disagreements; those cases say nothing about the bug.
    failed = [
        o
        for o in summary.outcomes
        if o.status == "failed" and o.case not in KNOWN_ENGINE_DISAGREEMENTS
    ]
    rules = collections.Counter(o.rule for o in failed)
    assert summary.count("errored") == 0
    assert rules, "the bug went unnoticed"
    assert rules.most_common(1)[0][0] == rule, rules


@pytest.mark.parametrize("bug", sorted(BUG_RULES))
def test_the_fuzzer_catches_each_seeded_bug_naming_its_rule(bug: str) -> None:
    rule, preset = BUG_RULES[bug]
    if bug in SCORING_BUGS and not scoring_available():
        pytest.skip("gaple.result is not on this branch yet: no count level to check")
    thorough = os.environ.get("HYPOTHESIS_PROFILE") == "ci"
    # A tie between counts is rare in random hands: it needs more hands than the other bugs
    # (seed 1 meets one within 30; the ci profile searches 300 from seed 0).
    examples, seed = (300, 0) if thorough else (30, 1)
    found = fuzz(
        lambda: SubprocessEngine(f"{BUGS} --bug {bug}", timeout=20),
        preset,
        examples=examples,
        seed=seed,
    )
    assert found is not None
    assert found.outcome.rule in FUZZ_RULES.get(bug, {rule})


def test_the_dominoes_package_findings_hold(cases: list[dict[str, Any]]) -> None:
    # docs/conformance-dominoes.md: it plays 37 cases (four seats, seven tiles, pass, pairs)
    # and their first differences are findings 1 (play.match-end) and 2 (open.double).
    pytest.importorskip("dominoes")
    adapter = f"{sys.executable} {ROOT / 'examples' / 'dominoes_adapter.py'}"
    summary = run_suite(cases, lambda: SubprocessEngine(adapter, timeout=20))
    played = [o for o in summary.outcomes if o.status != "skipped"]
    assert len(played) == 37
    assert {o.status for o in played} == {"failed"}
    rules = collections.Counter(o.rule for o in played)
    assert rules == {"play.match-end": 36, "open.double": 1}
