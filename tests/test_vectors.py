"""The committed conformance vectors: equal to a fresh build, valid, and covering the spec."""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from typing import Any

import pytest

from gaple.cli import main
from gaple.conformance.cases import LEVELS, ScenarioError, build_case
from gaple.conformance.scenarios import all_cases
from gaple.conformance.schemas import SCHEMAS, case_schema
from gaple.conformance.vectors import VECTORS_DIR, build, check, load_cases
from gaple.deal import shuffle_deal
from gaple.io import rules_from_json, rules_to_json
from gaple.presets import PRESETS, ruleset
from gaple.registry import RULES
from gaple.state import ERROR_CODES, parse_move

jsonschema: Any = importlib.import_module("jsonschema")

SPEC = Path(__file__).resolve().parent.parent / "spec"

NOT_A_VECTOR = {
    "match.target": "a match spans several hands; a vector is one hand (tests/test_match*.py)",
    "match.rounds": "a match spans several hands; a vector is one hand (tests/test_match*.py)",
    "match.single-hand": "it decides a match, which the protocol does not play (test_match*.py)",
}
"""Rules no single-hand vector can exercise, with the reason (also in spec/INTERPRETING.md)."""


@pytest.fixture(scope="module")
def cases() -> list[dict[str, Any]]:
    return load_cases(SPEC / VECTORS_DIR)


@pytest.fixture(scope="module")
def fresh() -> dict[str, str]:
    return build()


def test_committed_spec_folder_equals_a_fresh_build(fresh: dict[str, str]) -> None:
    assert check(SPEC, fresh) == []


def test_vectors_check_command_agrees(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["vectors", "check", "--out", str(SPEC)]) == 0
    assert "all equal to a fresh build" in capsys.readouterr().out


def test_vectors_check_reports_an_edited_and_a_stale_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["vectors", "build", "--out", str(tmp_path)]) == 0
    edited = tmp_path / VECTORS_DIR / "play" / "play-domino4d-e002.json"
    edited.write_text(edited.read_text().replace('"lead 0-0"', '"lead 0-1"', 1))
    (tmp_path / VECTORS_DIR / "play" / "invented.json").write_text("{}")
    capsys.readouterr()
    assert main(["vectors", "check", "--out", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "play-domino4d-e002.json: differs" in out
    assert "invented.json: not produced by the spec" in out


def test_build_is_deterministic(fresh: dict[str, str]) -> None:
    assert build() == fresh


def test_every_schema_is_a_valid_draft_2020_12_schema() -> None:
    for schema in SCHEMAS.values():
        jsonschema.Draft202012Validator.check_schema(schema)


def test_every_case_validates_against_the_case_schema(cases: list[dict[str, Any]]) -> None:
    validator = jsonschema.Draft202012Validator(case_schema())
    for case in cases:
        errors = list(validator.iter_errors(case))
        assert errors == [], (case["id"], errors[:1])


def test_case_id_is_the_file_name_and_unique(cases: list[dict[str, Any]]) -> None:
    paths = sorted((SPEC / VECTORS_DIR).rglob("*.json"))
    assert [p.stem for p in paths] == [c["id"] for c in cases]
    assert len({c["id"] for c in cases}) == len(cases)
    for path, case in zip(paths, cases, strict=True):
        assert path.parent.relative_to(SPEC / VECTORS_DIR).as_posix() == case["topic"]


def test_every_rule_id_is_exercised_by_a_case(cases: list[dict[str, Any]]) -> None:
    exercised = set().union(*(case["rule_ids"] for case in cases))
    assert exercised <= set(RULES)
    assert set(RULES) - exercised - set(NOT_A_VECTOR) == set()


def test_excluded_rules_really_are_not_exercised(cases: list[dict[str, Any]]) -> None:
    exercised = set().union(*(case["rule_ids"] for case in cases))
    assert exercised.isdisjoint(NOT_A_VECTOR)


def test_every_error_code_is_expected_by_some_case(cases: list[dict[str, Any]]) -> None:
    codes = {step["error"]["code"] for c in cases for step in c["steps"] if "error" in step}
    assert codes == set(ERROR_CODES)


def test_every_error_names_a_rule_its_code_allows(cases: list[dict[str, Any]]) -> None:
    for case in cases:
        for step in case["steps"]:
            if "error" in step:
                code, rule = step["error"]["code"], step["error"]["rule"]
                assert rule in ERROR_CODES[code][0], (case["id"], code, rule)


def test_every_preset_has_cases_that_play_a_whole_hand(cases: list[dict[str, Any]]) -> None:
    for name in PRESETS:
        mine = [c for c in cases if c["variant"]["preset"] == name]
        assert any(c["steps"] and "turns" in c["levels"] for c in mine), name


def test_each_level_is_checked_by_some_case(cases: list[dict[str, Any]]) -> None:
    levels = {level for case in cases for level in case["levels"]}
    assert levels == set(LEVELS)


def test_case_rules_object_is_the_preset_with_its_overrides(cases: list[dict[str, Any]]) -> None:
    for case in cases:
        variant = case["variant"]
        rules = ruleset(variant["preset"], **_from_json(variant["overrides"]))
        assert rules_to_json(rules) == case["rules"], case["id"]


def _from_json(overrides: dict[str, Any]) -> dict[str, Any]:
    base = rules_from_json(overrides)
    return {name: getattr(base, name) for name in overrides}


def test_legal_moves_of_each_step_are_in_spec_order(cases: list[dict[str, Any]]) -> None:
    # The order promised by gaple.state.legal_moves: leads, or placements by tile with left
    # before right, or the pass, or discards by tile. Checked on the written files directly.
    def key(text: str) -> tuple[Any, ...]:
        move = parse_move(text)
        tile = getattr(move, "tile", None)
        end = getattr(getattr(move, "end", None), "value", "")
        return (tile, end == "right")

    for case in cases:
        for seen in [case["initial"]] + [s["expect"] for s in case["steps"] if "expect" in s]:
            assert seen["legal"] == sorted(seen["legal"], key=key), case["id"]


def test_worked_examples_of_the_sources_are_cases(cases: list[dict[str, Any]]) -> None:
    # DOMINO4D E002-1..3: on ends (2,5) 2-6 goes on the 2 end giving (6,5); on (6,5) 1-4 fits
    # neither end; 6-3 on the 6 end gives (3,5).
    case = next(c for c in cases if c["id"] == "play-domino4d-e002")
    ends = [s["expect"]["ends"] for s in case["steps"] if "expect" in s]
    assert ends[-2:] == [[6, 5], [3, 5]]
    assert [s["error"]["code"] for s in case["steps"] if "error" in s][:2] == ["no-match"] * 2


def test_a_scenario_the_spec_does_not_play_as_reasoned_is_refused() -> None:
    rules = ruleset("pagat-4x7")
    deal = shuffle_deal(rules, 1)
    holder = next(s for s in range(4) if any(str(t) == "0-0" for t in deal.hands[s]))
    with pytest.raises(ScenarioError, match="spec accepts it"):
        build_case(
            case_id="x",
            topic="x",
            description="x",
            preset="pagat-4x7",
            overrides={},
            deal=deal,
            steps=[(holder, "lead 0-0", "illegal-lead")],
        )
    with pytest.raises(ScenarioError, match=r"ends are \(0, 0\), not \(0, 1\)"):
        build_case(
            case_id="x",
            topic="x",
            description="x",
            preset="pagat-4x7",
            overrides={},
            deal=deal,
            steps=[(holder, "lead 0-0", (0, 1))],
        )


def test_all_cases_in_memory_equal_the_committed_files(cases: list[dict[str, Any]]) -> None:
    built = {case["id"]: case for case in json.loads(json.dumps(all_cases()))}
    assert built == {case["id"]: case for case in cases}


# What the sources state for each scoring example (research section 6), as seats -> values.
# Only the stated numbers are listed; the rest of each result is the spec's business.
SOURCE_RESULTS: dict[str, dict[str, Any]] = {
    # PAGAT-ID tie-breaks: D wins with 5 against 6, 6, 6; all 6 and A wins by 1-1; all 10
    # and B wins by the lower end of 1-3.
    "score-pagat-id-tie-break-1": {"counts": [6, 6, 6, 5], "winner": 3},
    "score-pagat-id-tie-break-2": {"counts": [6, 6, 6, 6], "winner": 0},
    "score-pagat-id-tie-break-3": {"counts": [10, 10, 10, 10], "winner": 1},
    # DOMINO4D: 4-4 = 8 and 0-3 = 3 make 11; 6-2 and 5-1 make 14.
    "score-domino4d-counts-11-and-14": {"counts": {0: 11, 1: 14}},
    # 0-0 = 25 unless another blank is held: 0 + 5; 25; 25 + 3.
    "score-double-blank-with-another-blank": {"counts": {0: 5}},
    "score-double-blank-alone": {"counts": {0: 25}},
    "score-double-blank-with-a-non-blank": {"counts": {0: 28}},
    # CHIPS: B collects 12-5, 11-5 and 7-5: +15, zero-sum. BLOCK100: B scores the same 15.
    "score-chips-collects-15": {
        "counts": [12, 5, 11, 7],
        "winner": 1,
        "points": [-7, 15, -6, -2],
    },
    "score-block100-difference-15": {
        "counts": [12, 5, 11, 7],
        "winner": 1,
        "points": [0, 15, 0, 0],
    },
    # SU-X examples, points per pair (N-S, E-W).
    "score-suwiki-x1-out": {"counts": {1: 13, 3: 7}, "points": [20, 0], "winning_team": 0},
    "score-suwiki-x2-dead-six-six": {"points": [111, 0]},
    "score-suwiki-x3-live-six-six": {"points": [34, 0]},
    "score-suwiki-x4-closing-six-six": {"counts": {1: 5, 3: 10}, "points": [115, 0]},
    "score-suwiki-x5-closing-double-blank": {"counts": {1: 5, 3: 10}, "points": [65, 0]},
    "score-suwiki-x6-dead-double-blank": {"points": [67, 0]},
    "score-suwiki-x9-tied-challenge-replay": {
        "counts": {1: 14, 2: 14},
        "replay": True,
        "points": [0, 0],
    },
    "score-suwiki-x9-tied-challenge-blocker-loses": {"replay": False, "points": [108, 0]},
    "score-suwiki-x10-no-dead-double-when-blocked": {"counts": {3: 14}},
}


def test_scoring_examples_give_the_results_the_sources_state(
    cases: list[dict[str, Any]],
) -> None:
    by_id = {case["id"]: case for case in cases}
    assert set(SOURCE_RESULTS) == {c["id"] for c in cases if c["topic"] == "score"}
    for case_id, stated in SOURCE_RESULTS.items():
        result = by_id[case_id]["result"]
        for name, value in stated.items():
            if isinstance(value, dict):
                assert {seat: result[name][seat] for seat in value} == value, case_id
            else:
                assert result[name] == value, (case_id, name)


# Files only where asked: the build writes into a new, empty or gaple-marked folder, never
# through a link, and deletes only its own stale files.


def test_build_refuses_a_link_planted_inside_the_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out, outside = tmp_path / "out", tmp_path / "outside"
    outside.mkdir()
    assert main(["vectors", "build", "--out", str(out)]) == 0
    # vectors/v1/play now leads outside: a build following it would write there.
    play = out / VECTORS_DIR / "play"
    for path in play.iterdir():
        path.unlink()
    play.rmdir()
    play.symlink_to(outside, target_is_directory=True)
    capsys.readouterr()
    assert main(["vectors", "build", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert f"{play}: a symbolic link" in err
    assert len(err.strip().splitlines()) == 1
    assert list(outside.iterdir()) == []


def test_build_refuses_a_linked_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out, victim = tmp_path / "out", tmp_path / "victim.txt"
    victim.write_text("mine")
    assert main(["vectors", "build", "--out", str(out)]) == 0
    schema = out / "schema" / "case.schema.json"
    schema.unlink()
    schema.symlink_to(victim)
    assert main(["vectors", "build", "--out", str(out)]) == 2
    assert "case.schema.json: a symbolic link" in capsys.readouterr().err
    assert victim.read_text() == "mine"


def test_the_folder_as_given_may_itself_be_a_link(tmp_path: Path) -> None:
    # The link the user names is where they asked for the files; only links inside are refused.
    real, named = tmp_path / "real", tmp_path / "named"
    real.mkdir()
    named.symlink_to(real, target_is_directory=True)
    assert main(["vectors", "build", "--out", str(named)]) == 0
    assert (real / "schema" / "case.schema.json").is_file()


def test_build_refuses_a_folder_it_does_not_own(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "notes.json").write_text("{}")
    assert main(["vectors", "build", "--out", str(tmp_path)]) == 2
    assert "not written by gaple vectors build" in capsys.readouterr().err
    assert [p.name for p in tmp_path.iterdir()] == ["notes.json"]


def test_build_prunes_only_its_own_stale_files(tmp_path: Path) -> None:
    assert main(["vectors", "build", "--out", str(tmp_path)]) == 0
    stale = tmp_path / VECTORS_DIR / "play" / "invented.json"
    stale.write_text("{}")
    # Not under schema/, protocol/ or vectors/v1/, or not *.json: not the build's to delete.
    kept = [tmp_path / "notes.json", tmp_path / VECTORS_DIR / "play" / "README.txt"]
    for path in kept:
        path.write_text("mine")
    assert main(["vectors", "build", "--out", str(tmp_path)]) == 0
    assert not stale.exists()
    assert all(path.read_text() == "mine" for path in kept)


def test_check_compares_bytes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["vectors", "build", "--out", str(tmp_path)]) == 0
    crlf = tmp_path / "schema" / "case.schema.json"
    crlf.write_bytes(crlf.read_bytes().replace(b"\n", b"\r\n"))
    latin = tmp_path / VECTORS_DIR / "play" / "play-domino4d-e002.json"
    latin.write_bytes(latin.read_bytes() + b"\xe9")  # not UTF-8
    capsys.readouterr()
    assert main(["vectors", "check", "--out", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "case.schema.json: differs" in out
    assert "play-domino4d-e002.json: differs" in out
    assert "2 file(s) differ" in out
    # The same two files restored: equal again (the check does not just always fail).
    assert main(["vectors", "build", "--out", str(tmp_path)]) == 0
    assert main(["vectors", "check", "--out", str(tmp_path)]) == 0
