"""Made to measure: the kit judges an engine inside the rules it plays (its scope), counts the
situation cells of that scope, covers each preset's cells with its committed cases, builds
cases for any other scope, and says in its verdict what it measured."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from gaple.cli import main
from gaple.conformance.runner.engines import EngineError, ReferenceEngine, SubprocessEngine
from gaple.conformance.runner.run import Measured, Summary, hello, run_suite
from gaple.conformance.vectors.coverage import coverage
from gaple.conformance.vectors.scenarios import all_cases
from gaple.conformance.vectors.scope import declared_scope, preset_scope
from gaple.conformance.vectors.situations import unreachable_reason
from gaple.conformance.vectors.tailor import cached_cases, reachable, tailor
from gaple.io import rules_to_json
from gaple.presets import PRESETS, find_preset

JSON = Any
ROOT = Path(__file__).resolve().parent.parent
BUGS = f"{sys.executable} {ROOT / 'examples' / 'bugs' / 'adapter.py'}"
ENGINE = f"{sys.executable} {ROOT / 'examples' / 'engine' / 'adapter.py'}"

NEW_BUGS = {
    "blocking-six-forfeited": "suwiki-partnership",
    "low-end-flipped-after-discard": "pagat-4x7",
    "blank-double-never-blocks": "pagat-5x5",
    "blocking-six-wins": "chips",
}
"""The seeded bugs that live in a combination of two rare cells of one preset's own rules."""


@pytest.fixture(scope="module")
def cases() -> list[dict[str, JSON]]:
    return all_cases()


# --- the scope itself --------------------------------------------------------------------


def test_a_preset_scope_is_that_preset_s_rules_exactly() -> None:
    scope = preset_scope("pagat-4x7")
    assert scope.exact == find_preset("pagat-4x7").rules
    assert scope.preset == "pagat-4x7"
    changed = preset_scope("pagat-4x7", {"blocked_action": "pass"})
    assert changed.exact == find_preset("pagat-4x7").rules.replace(blocked_action="pass")
    # Pass is not pagat-4x7's default, and no preset is pagat-4x7 with pass (domino4d, its
    # nearest, leads any tile in later hands).
    assert changed.preset is None
    assert changed.name == "pagat-4x7 with blocked_action=pass"


def test_a_declared_preset_fixes_every_option_and_options_beside_it_change_some() -> None:
    exactly = declared_scope({"preset": "pagat"})  # an alias
    assert (exactly.exact, exactly.label()) == (
        find_preset("pagat-4x7").rules,
        "pagat-4x7 (declared)",
    )
    both = declared_scope(
        {"preset": "pagat-4x7", "options": {"blocked_action": ["pass", "discard"]}}
    )
    assert both.exact is None
    assert both.name == "pagat-4x7 with blocked_action=discard|pass"
    pagat = rules_to_json(find_preset("pagat-4x7").rules)
    assert both.rules_outside(pagat | {"blocked_action": "pass"}) is None
    assert both.rules_outside(pagat | {"hand_size": 6}) == "option hand_size is 6"


@pytest.mark.parametrize(
    ("plays", "words"),
    [
        ({"preset": "pagat-9x9"}, "names unknown pagat-9x9"),
        ({"preset": 7}, "must be a preset's name"),
        ({"options": {"blocked_action": ["sideways"]}}, "blocked_action"),
        ({"rules": {}}, "'preset', 'options'"),
    ],
)
def test_a_malformed_declaration_names_its_field(plays: JSON, words: str) -> None:
    class Engine(ReferenceEngine):
        def _answer(self, message: dict[str, JSON]) -> dict[str, JSON]:
            reply = super()._answer(message)
            return reply | {"plays": plays} if message["type"] == "hello" else reply

    with pytest.raises(EngineError, match=words):
        hello(Engine())


# --- cells inside a scope ----------------------------------------------------------------


def test_a_scope_s_own_rules_rule_out_cells_the_union_reaches() -> None:
    # pagat-4x7 opens with 0-0 and later hands with a double: no hand of it leads any tile;
    # domino4d leads any tile in later hands.
    cell = "ending=blocked & lead=any-tile"
    assert unreachable_reason(cell) is None
    assert unreachable_reason(cell, preset_scope("pagat-4x7").within()) is not None
    assert unreachable_reason(cell, preset_scope("domino4d").within()) is None
    # A starter is turned up only by the deal sizes that leave tiles undealt (4 x 6).
    starter = "ending=blocked & lead=starter"
    assert unreachable_reason(starter, preset_scope("pagat-4x6").within()) is None
    assert unreachable_reason(starter, preset_scope("pagat-4x7").within()) is not None


def test_facts_read_backwards_prove_what_forwards_cannot() -> None:
    # Under SUWIKI partnership a stuck seat passes, so nobody goes out by discarding; a
    # hand that ends on 6-6 placed (out) earns the closing bonus of 100. So 6-6 last with no
    # closing bonus needs a discard: unreachable inside SUWIKI, reachable with discards.
    cell = "last-tile=top-double & closing-bonus=none"
    suwiki = preset_scope("suwiki-partnership")
    assert unreachable_reason(cell, suwiki.within()) is not None
    with_discards = preset_scope("suwiki-partnership", {"blocked_action": "discard"})
    assert unreachable_reason(cell, with_discards.within()) is None


def test_coverage_in_a_scope_counts_only_the_cases_inside_it(
    cases: list[dict[str, JSON]],
) -> None:
    scope = preset_scope("domino4d")
    counted = coverage(cases, scope)
    inside = {c["id"] for c in cases if scope.outside(c) is None}
    assert inside
    assert all(set(ids) <= inside for ids in counted.covered.values())
    # Cases of other rules alone reach nothing here.
    others = [c for c in cases if c["id"] not in inside]
    assert not coverage(others, scope).covered


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_preset_s_cells_are_covered_by_its_own_cases(
    preset: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["vectors", "coverage", "--variant", preset]) == 0
    out = capsys.readouterr().out
    assert f"within {preset} (requested): " in out
    assert ", 0 open (" in out


def test_coverage_of_a_plays_file_and_its_usage_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plays = tmp_path / "plays.json"
    plays.write_text(json.dumps({"preset": "domino4d"}))
    assert main(["vectors", "coverage", "--plays", str(plays)]) == 0
    assert "within domino4d (declared)" in capsys.readouterr().out
    plays.write_text("{")
    assert main(["vectors", "coverage", "--plays", str(plays)]) == 2
    assert f"--plays {plays}: not a JSON document" in capsys.readouterr().err
    assert main(["vectors", "coverage", "--set", "blocked_action=pass"]) == 2
    assert "give the preset with --variant" in capsys.readouterr().err


# --- cases made to measure -----------------------------------------------------------------


def test_cases_made_to_measure_cover_a_non_preset_scope_the_same_every_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cases: list[dict[str, JSON]]
) -> None:
    scope = declared_scope({"preset": "pagat-4x7", "options": {"blocked_action": ["pass"]}})
    inside = [c for c in cases if scope.outside(c) is None]
    monkeypatch.setenv("GAPLE_CACHE_DIR", str(tmp_path / "one"))
    made = cached_cases(scope, inside, "v")
    assert made
    assert all(scope.outside(case) is None for case in made)
    assert all(case["rules"]["blocked_action"] == "pass" for case in made)
    # Built again elsewhere: the same cases; and read back from the cache, the same too.
    monkeypatch.setenv("GAPLE_CACHE_DIR", str(tmp_path / "two"))
    assert cached_cases(scope, inside, "v") == made
    assert cached_cases(scope, inside, "v") == made
    assert len(list((tmp_path / "two" / "tailored").iterdir())) == 1
    # Together with the committed cases inside, they reach every cell the draws found.
    left = tailor(scope, inside)
    covered = coverage([*inside, *made], scope)
    assert len(covered.covered) == len(reachable(scope)) - len(left.still_open)


def test_vectors_build_with_plays_writes_ordinary_case_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GAPLE_CACHE_DIR", str(tmp_path / "cache"))
    plays = tmp_path / "plays.json"
    plays.write_text(json.dumps({"preset": "chips", "options": {"blocked_action": ["pass"]}}))
    out = tmp_path / "cases"
    assert main(["vectors", "build", "--plays", str(plays), "--out", str(out)]) == 0
    written = sorted(out.glob("*.json"))
    assert written
    assert main(["conformance", "run", "--reference", "--cases", str(out)]) == 0


# --- the verdict -----------------------------------------------------------------------------


def test_a_run_names_its_scope_and_its_cells(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["conformance", "run", "--reference", "--variant", "domino4d"]) == 0
    last = capsys.readouterr().out.splitlines()[-1]
    reached = len(reachable(preset_scope("domino4d")))
    assert last.startswith("CONFORMS within domino4d (requested): ")
    assert f", {reached} of {reached} situation cells of this scope, in " in last


def test_a_scope_with_open_cells_is_partial() -> None:
    measured = Measured("x (requested)", reachable=10, selected=9, checked=9)
    summary = Summary((), 0.0, None, False, measured=measured)
    assert summary.verdict == "nothing checked"  # no case passed: nothing else applies
    assert measured.open == 1
    assert measured.describe() == "9 of 10 situation cells of this scope, 1 open"


def test_an_engine_declaring_a_preset_gets_that_preset_s_cases_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    adapter = tmp_path / "declares.py"
    adapter.write_text(
        "import json, sys\n"
        f"sys.path.insert(0, {str(ROOT / 'src')!r})\n"
        "from gaple.conformance.runner.engines import ReferenceEngine\n"
        "engine = ReferenceEngine()\n"
        f"log = open({str(tmp_path / 'started.jsonl')!r}, 'a')\n"
        "for line in sys.stdin:\n"
        "    m = json.loads(line)\n"
        "    r = engine.request(m)\n"
        "    if m['type'] == 'hello':\n"
        "        r['plays'] = {'preset': 'pagat-4x7'}\n"
        "    if m['type'] == 'start':\n"
        "        print(json.dumps(m['rules']), file=log, flush=True)\n"
        "    print(json.dumps(r), flush=True)\n"
        "    if m['type'] == 'bye':\n"
        "        break\n"
    )
    assert main(["conformance", "run", "--impl", f"{sys.executable} {adapter}"]) == 0
    assert "CONFORMS within pagat-4x7 (declared): " in capsys.readouterr().out
    started = [json.loads(line) for line in (tmp_path / "started.jsonl").read_text().splitlines()]
    assert started
    assert all(rules == rules_to_json(find_preset("pagat-4x7").rules) for rules in started)


@pytest.mark.parametrize("bug", sorted(NEW_BUGS))
def test_each_new_seeded_bug_is_caught_by_its_preset_s_cases(
    bug: str, cases: list[dict[str, JSON]]
) -> None:
    scope = preset_scope(NEW_BUGS[bug])
    inside = [c for c in cases if scope.outside(c) is None]
    source = (ROOT / "examples" / "bugs" / f"{bug.replace('-', '_')}.py").read_text()
    rule = re.search(r'^RULE = "(.+)"$', source, re.MULTILINE)
    assert rule is not None
    summary = run_suite(inside, lambda: SubprocessEngine(f"{BUGS} --bug {bug}", timeout=20))
    failed = {o.rule for o in summary.outcomes if o.status == "failed"}
    assert failed == {rule.group(1)}
    # The correct engine passes the same cases.
    fine = run_suite(inside, lambda: SubprocessEngine(ENGINE, timeout=20))
    assert fine.verdict == "conforms"
