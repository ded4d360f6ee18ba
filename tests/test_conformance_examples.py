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

from gaple.conformance.fuzzer.fuzz import fuzz
from gaple.conformance.runner.engines import SubprocessEngine
from gaple.conformance.runner.run import run_suite
from gaple.conformance.vectors.scenarios import all_cases
from gaple.conformance.vectors.scope import preset_scope

ROOT = Path(__file__).resolve().parent.parent
ENGINE = f"{sys.executable} {ROOT / 'examples' / 'engine' / 'adapter.py'}"
BUGS = f"{sys.executable} {ROOT / 'examples' / 'bugs' / 'adapter.py'}"

BUG_RULES = {
    "blocked-on-first-pass": ("end.blocked", "domino4d"),
    "discards-not-counted": ("score.count", "pagat-4x7"),
    "opener-ignored": ("open.double-blank", "pagat-4x7"),
    "pass-while-placement-exists": ("turn.forced-play", "domino4d"),
    "play-after-end": ("end.final", "pagat-4x7"),
    "ties-by-seat": ("score.rank", "pagat-4x6"),
    "wrong-end": ("play.match-end", "pagat-4x7"),
    "tie-not-replayed": ("partner.challenge-tie", "suwiki-partnership"),
    "first-dead-double-only": ("partner.dead-double", "suwiki-partnership"),
    "rank-ignores-low-end": ("score.rank", "domino4d"),
    # Each shows only under an option value (blank_double_bonus > 0, blocked_action=discard,
    # double_blank_25) and in about 1 random hand in 1,000 (examples/bugs/rates.py).
    "top-closing-skips-dead": ("partner.dead-double", "suwiki-partnership"),
    "discards-kill-doubles": ("partner.dead-double", "suwiki-partnership"),
    "tie-on-pips": ("partner.challenge-tie", "suwiki-partnership"),
    # Each shows only in one combination of two rare situations of its preset's own rules
    # (its module's docstring names the two cells), in under 1 random hand in 100.
    "blocking-six-forfeited": ("partner.challenge", "suwiki-partnership"),
    "low-end-flipped-after-discard": ("score.rank", "pagat-4x7"),
    "blank-double-never-blocks": ("end.blocked", "pagat-5x5"),
    "blocking-six-wins": ("score.rank", "chips"),
}
"""Each seeded bug (examples/bugs/adapter.py --list): the rule it breaks and a preset where
the fuzzer meets it."""

RARE = {
    "tie-not-replayed",
    "first-dead-double-only",
    "rank-ignores-low-end",
    "top-closing-skips-dead",
    "discards-kill-doubles",
    "tie-on-pips",
    "blocking-six-forfeited",
    "low-end-flipped-after-discard",
    "blank-double-never-blocks",
    "blocking-six-wins",
}
"""The bugs that show in under 1 random hand in 100: the fuzzer's default run must find them
(tests/test_conformance_fuzz.py), a short run need not."""

SUITE_MISSES: dict[str, str] = {}
"""The bugs the committed vectors miss, with the combination of situations no vector holds yet:
each expected failure turns into a failure when a vector holding it is added. The combination
vectors catch top-closing-skips-dead (combination-013, -063: 6-6 closes beside a dead 0-0) and
discards-kill-doubles (combination-082, -131); tie-on-pips is caught by
score-suwiki-challenge-on-counts-not-pips, a challenge level on pips but won on counts, which
the cell challenge=won & challenge-counts=with-blank-25 asks for."""

# opener-ignored breaks every lead rule at once: the fuzzer names the one of the hand it meets
# first (a later hand's double rule, or a lead ban that moved the lead to another seat).
FUZZ_RULES = {"opener-ignored": {"open.double-blank", "open.double", "open.forbidden"}}


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
    assert summary.count("passed") == len(cases), [
        o.describe() for o in summary.outcomes if o.status != "passed"
    ]
    # The example engine declares the four levels, not rules: every case is checked at all of
    # its levels but rules, and none is skipped for the missing one.
    assert all(
        set(o.levels) == set(c["levels"]) - {"rules"}
        for o, c in zip(summary.outcomes, cases, strict=True)
    )


@pytest.mark.parametrize(
    "bug",
    [
        pytest.param(
            bug,
            marks=pytest.mark.xfail(
                bug in SUITE_MISSES,
                reason=f"no vector holds {SUITE_MISSES.get(bug)} yet (issue 24)",
                strict=True,
            ),
        )
        for bug in sorted(BUG_RULES)
    ],
)
def test_the_suite_catches_each_seeded_bug_naming_its_rule(
    cases: list[dict[str, Any]], bug: str
) -> None:
    rule = BUG_RULES[bug][0]
    summary = run_suite(cases, lambda: SubprocessEngine(f"{BUGS} --bug {bug}", timeout=20))
    rules = collections.Counter(o.rule for o in summary.outcomes if o.status == "failed")
    assert summary.count("errored") == 0
    assert rules, "the bug went unnoticed"
    assert rules.most_common(1)[0][0] == rule, rules


@pytest.mark.parametrize("bug", sorted(set(BUG_RULES) - RARE))
def test_the_fuzzer_catches_each_seeded_bug_naming_its_rule(bug: str) -> None:
    rule, preset = BUG_RULES[bug]
    thorough = os.environ.get("HYPOTHESIS_PROFILE") == "ci"
    # A tie between counts is rare in random hands: it needs more hands than the other bugs
    # (measured for ties-by-seat: seeds 0 to 5 meet one within 30, 19, 49, 29, 2 and 11
    # hands; the default takes seed 4, the ci profile searches 300 from seed 0).
    examples, seed = (300, 0) if thorough else (30, 4)
    found = fuzz(
        lambda: SubprocessEngine(f"{BUGS} --bug {bug}", timeout=20),
        preset,
        examples=examples,
        seed=seed,
        max_seconds=None,
        shrink_seconds=3,  # naming the rule needs no small case
    ).finding
    assert found is not None
    assert found.outcome.rule in FUZZ_RULES.get(bug, {rule})


IN_ONE_PRESET = (
    "blocking-six-forfeited",
    "low-end-flipped-after-discard",
    "blank-double-never-blocks",
    "blocking-six-wins",
)
"""The bugs seeded inside one preset's default rules (BUG_RULES names the preset)."""


@pytest.mark.parametrize("bug", IN_ONE_PRESET)
def test_a_bug_inside_one_preset_is_caught_by_that_preset_s_own_cases(
    cases: list[dict[str, Any]], bug: str
) -> None:
    # Only the committed cases inside the preset's scope run, as for an engine declaring it.
    rule, preset = BUG_RULES[bug]
    scope = preset_scope(preset)
    inside = [case for case in cases if scope.outside(case) is None]
    summary = run_suite(inside, lambda: SubprocessEngine(f"{BUGS} --bug {bug}", timeout=20))
    rules = {o.rule for o in summary.outcomes if o.status == "failed"}
    assert rules == {rule}


@pytest.mark.parametrize("bug", IN_ONE_PRESET)
def test_the_fuzzer_limited_to_the_preset_finds_a_bug_inside_it(bug: str) -> None:
    # Seed 0 finds each within 350 hands drawn inside the scope (benchmarks/fuzz_find.py
    # --exact: 7 to 350); 3,000 hands leave room without a clock.
    rule, preset = BUG_RULES[bug]
    report = fuzz(
        lambda: SubprocessEngine(f"{BUGS} --bug {bug}", timeout=20),
        examples=3000,
        seed=0,
        max_seconds=None,
        shrink_seconds=3,
        scope=preset_scope(preset),
    )
    assert report.finding is not None
    assert report.finding.outcome.rule == rule
    assert report.outside == 0


def test_the_dominoes_package_findings_hold(cases: list[dict[str, Any]]) -> None:
    # docs/guide/dominoes.md: it plays 72 cases (four seats, seven tiles, pass, pairs, no lead
    # bans: the 37 of the other topics and 35 cover cases); their first differences are
    # findings 1 (play.match-end) and 2 (open.double), except in two cover hands that never
    # offer a tile on two equal ends: the library counts W's lone 0-0 as 0, not 25 (finding 7),
    # and scores the partner's pips with a dead 0-0 (finding 3, partner.out).
    # The page reports the topics before the combination one (drawn hands, issue 24) and the
    # presets' covering sets (issue 33), which are left out here.
    pytest.importorskip("dominoes")
    adapter = f"{sys.executable} {ROOT / 'examples' / 'dominoes_adapter.py'}"
    reported = [case for case in cases if case["topic"] not in {"combination", "measure"}]
    summary = run_suite(reported, lambda: SubprocessEngine(adapter, timeout=20))
    played = [o for o in summary.outcomes if o.status != "skipped"]
    assert len(played) == 72
    assert {o.status for o in played} == {"failed"}
    rules = collections.Counter(o.rule for o in played)
    assert rules == {
        "play.match-end": 69,
        "open.double": 1,
        "score.double-blank-25": 1,
        "partner.out": 1,
    }
