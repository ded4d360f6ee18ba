"""The scenario data files: read as written, every file built, and a malformed entry refused
with an error that names the file and the scenario."""

from __future__ import annotations

import importlib.resources
import tomllib

import pytest

from gaple.conformance.vectors.builder import DATA_DIR, scenario_cases
from gaple.conformance.vectors.cases import ScenarioError
from gaple.conformance.vectors.scenarios import all_cases

# Seat 1 holds 0-0 in a DOMINO4D first hand, so it opens: a pass on the empty table is refused
# (lead-required), and leading 0-0 gives the ends (0, 0).
GOOD = """
[[scenario]]
id = "open-x"
description = "x"
why = "Seat 1 holds 0-0 and must lead it."
preset = "domino4d"
moves = ["1 pass -> lead-required", "1 lead 0-0 -> ends 0 0"]
seats = { 1 = "0-0" }
"""


def test_an_entry_is_built_as_written() -> None:
    (case,) = scenario_cases(GOOD, "good.toml")
    assert (case["id"], case["topic"], case["variant"]["preset"]) == ("open-x", "open", "domino4d")
    assert [step["action"] for step in case["steps"]] == [
        {"seat": 1, "move": "pass"},
        {"seat": 1, "move": "lead 0-0"},
    ]
    assert case["steps"][0]["error"]["code"] == "lead-required"
    assert case["steps"][1]["expect"]["ends"] == [0, 0]
    assert "0-0" in case["deal"]["hands"][1]


# The hand of GOOD again, under the pass option of PAGAT.
AGAIN = """
[[scenario]]
id = "open-z"
description = "z"
why = "The same hand under the pass option."
preset = "pagat-4x7"
options = {{ blocked_action = "pass" }}
same_hand_as = "{other}"
"""


def test_same_hand_as_plays_the_hand_of_an_earlier_entry() -> None:
    first, again = scenario_cases(GOOD + AGAIN.format(other="open-x"), "good.toml")
    assert again["id"] == "open-z"
    assert again["variant"] == {"preset": "pagat-4x7", "overrides": {"blocked_action": "pass"}}
    assert (again["deal"], again["steps"]) == (first["deal"], first["steps"])


MALFORMED = [
    pytest.param(
        GOOD.replace('preset = "domino4d"', 'preset = "domino4d"\ncolour = "red"'),
        "scenario open-x: unknown key(s) colour",
        id="unknown-key",
    ),
    pytest.param(
        GOOD.replace('"0-0" }', '"0-0 1-x" }'),
        "scenario open-x: seat 1: cannot read '1-x' as a tile",
        id="bad-tile-text",
    ),
    pytest.param(
        GOOD.replace('preset = "domino4d"\n', ""),
        "scenario open-x: missing key(s) preset",
        id="missing-field",
    ),
    pytest.param(
        GOOD.replace('why = "Seat 1 holds 0-0 and must lead it."\n', 'why = ""\n'),
        "scenario open-x: why is empty",
        id="empty-reasoning",
    ),
    pytest.param(
        GOOD.replace("-> ends 0 0", "-> ends 0"),
        "scenario open-x: move 2 ('1 lead 0-0 -> ends 0'): after '->' write an error code",
        id="bad-claim",
    ),
    pytest.param(
        GOOD.replace("1 pass", "1 leed 0-0"),
        "scenario open-x: move 1 ('1 leed 0-0 -> lead-required'): cannot read move 'leed 0-0'",
        id="bad-move-text",
    ),
    pytest.param(
        GOOD.replace("lead-required", "lead-needed"),
        "scenario open-x: move 1 ('1 pass -> lead-needed'): after '->' write an error code",
        id="unknown-error-code",
    ),
    pytest.param(
        GOOD.replace("-> ends 0 0", "-> ends 0 1"),
        "scenario open-x: step 2 (seat 1: lead 0-0): ends are (0, 0), not (0, 1)",
        id="claim-the-spec-refutes",
    ),
    pytest.param(
        GOOD + AGAIN.format(other="open-y"),
        "scenario open-z: same_hand_as names 'open-y', which is not an earlier scenario",
        id="same-hand-as-unknown",
    ),
]


@pytest.mark.parametrize(("text", "message"), MALFORMED)
def test_a_malformed_entry_names_the_file_and_the_scenario(text: str, message: str) -> None:
    with pytest.raises(ScenarioError) as caught:
        list(scenario_cases(text, "bad.toml"))
    assert str(caught.value).startswith(f"bad.toml: {message}")


def test_an_entry_without_an_id_is_named_by_its_number() -> None:
    with pytest.raises(ScenarioError) as caught:
        list(scenario_cases(GOOD.replace('id = "open-x"\n', ""), "bad.toml"))
    assert str(caught.value) == "bad.toml: scenario number 1 (no id): missing key(s) id"


def test_text_that_is_not_toml_names_the_file() -> None:
    with pytest.raises(ScenarioError, match=r"^bad\.toml: "):
        list(scenario_cases(GOOD + "\n[[scenario]\n", "bad.toml"))


def test_every_packaged_scenario_becomes_a_case() -> None:
    # A data file left out of the cases, or an entry skipped, would be missing here (the
    # combination group comes after the random hands, in all_cases).
    folder = importlib.resources.files("gaple.conformance.vectors") / DATA_DIR
    files = [item for item in folder.iterdir() if item.name.endswith(".toml")]
    written = [
        entry["id"]
        for item in sorted(files, key=lambda item: item.name)
        # A preset whose rules another's covering set already covers has an empty one.
        for entry in tomllib.loads(item.read_text(encoding="utf-8")).get("scenario", [])
    ]
    generated = {"end", "cover", "random"}  # built by code, not from the data files
    built = [case["id"] for case in all_cases() if case["topic"].split("/")[0] not in generated]
    assert len(written) == len(set(written))
    assert sorted(written) == sorted(built)
