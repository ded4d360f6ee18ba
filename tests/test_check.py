"""``gaple check``: transcripts that conform, that diverge (first divergence, with its rule),
and files that cannot be read (status 2 with the JSON path)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gaple.cli import main
from gaple.io import state_to_json
from gaple.presets import ruleset
from gaple.simulate import random_hand

JSON = Any
TWO = [["0-0"], ["0-1"]]


def _write(tmp_path: Path, name: str, data: JSON) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data) if not isinstance(data, str) else data)
    return str(path)


@pytest.fixture
def transcript() -> dict[str, JSON]:
    return state_to_json(random_hand(ruleset("domino4d"), seed=5))


def test_a_transcript_of_a_spec_hand_conforms(
    tmp_path: Path, transcript: dict[str, JSON], capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, "t.json", transcript)
    assert main(["check", path]) == 0
    assert "conforms" in capsys.readouterr().out


def test_an_illegal_action_is_the_first_divergence(
    tmp_path: Path, transcript: dict[str, JSON], capsys: pytest.CaptureFixture[str]
) -> None:
    # domino4d: the holder of 0-0 opens. Replacing the lead by 1-1 breaks open.double-blank at
    # step 1 (seat of the holder), whatever follows.
    first = transcript["actions"][0]
    assert first["move"] == "lead 0-0"
    transcript["actions"][0] = {"seat": first["seat"], "move": "lead 1-1"}
    holder_has_1_1 = "1-1" in transcript["deal"]["hands"][first["seat"]]
    path = _write(tmp_path, "t.json", transcript)
    assert main(["check", path, "--format", "json"]) == 1
    record = json.loads(capsys.readouterr().out)[0]
    divergence = record["divergence"]
    assert record["status"] == "diverges"
    assert divergence["step"] == 1
    assert divergence["seat"] == first["seat"]
    assert divergence["rule"] == ("open.double-blank" if holder_has_1_1 else "play.in-hand")
    assert divergence["claimed"] == "accepted"
    assert divergence["path"] == "$.actions[0]"


def test_a_wrong_final_field_is_reported_with_its_rule(
    tmp_path: Path, transcript: dict[str, JSON], capsys: pytest.CaptureFixture[str]
) -> None:
    transcript["ends"] = [9, 9]
    path = _write(tmp_path, "t.json", transcript)
    assert main(["check", path]) == 1
    out = capsys.readouterr().out
    assert "rule play.match-end" in out
    assert "$.ends" in out


def test_a_transcript_claiming_an_ending_too_early_names_end_blocked(
    tmp_path: Path, transcript: dict[str, JSON], capsys: pytest.CaptureFixture[str]
) -> None:
    # Cut after the first two actions: the hand goes on, but the transcript still says it ended.
    transcript["actions"] = transcript["actions"][:2]
    for key in ("to_act", "line", "ends", "hands", "discards"):
        del transcript[key]
    transcript["ending"] = "blocked"
    path = _write(tmp_path, "t.json", transcript)
    assert main(["check", path, "--format", "json"]) == 1
    divergence = json.loads(capsys.readouterr().out)[0]["divergence"]
    assert (divergence["field"], divergence["rule"]) == ("ending", "end.blocked")
    assert divergence["step"] == 2


@pytest.mark.parametrize(
    ("content", "words"),
    [
        ("{not json", "not JSON (line 1 column 2)"),
        (
            {"rules": {}, "deal": {"hands": TWO}, "actions": [{"seat": 0, "move": "jump"}]},
            "$.actions[0].move",
        ),
        ({"rules": {"players": "four"}, "deal": {"hands": TWO}, "actions": []}, "$.rules.players"),
        ({"deal": {"hands": TWO}, "actions": []}, "'rules' is a required property"),
        ({"rules": {}, "deal": {"hands": [["0-0"]]}, "actions": []}, "at $.deal"),
    ],
)
def test_an_unreadable_or_invalid_file_exits_2_with_the_json_path(
    tmp_path: Path, content: JSON, words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, "bad.json", content)
    assert main(["check", path]) == 2
    out = capsys.readouterr().out
    assert words in out
    assert "Traceback" not in out


def test_a_missing_file_exits_2_and_other_files_are_still_checked(
    tmp_path: Path, transcript: dict[str, JSON], capsys: pytest.CaptureFixture[str]
) -> None:
    good = _write(tmp_path, "t.json", transcript)
    assert main(["check", str(tmp_path / "absent.json"), good]) == 2
    out = capsys.readouterr().out.splitlines()
    assert "cannot read" in out[0]
    assert "conforms" in out[1]


_SCALARS = st.none() | st.booleans() | st.integers(-3, 30) | st.sampled_from(["0-0", "x", "pass"])
_JSON = st.recursive(
    _SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    key=st.sampled_from(["rules", "deal", "actions", "first_hand", "line", "result", "hands"]),
    value=_JSON,
)
def test_any_damage_to_a_transcript_gives_a_verdict_never_a_traceback(
    tmp_path: Path, key: str, value: JSON
) -> None:
    # Replace one part of a real transcript by arbitrary JSON: the checker must still answer
    # with status 0, 1 or 2 (conforms, diverges, invalid with a path).
    data = state_to_json(random_hand(ruleset("pagat-4x7"), seed=2))
    data[key] = value
    path = _write(tmp_path, "t.json", data)
    assert main(["check", path, "--format", "json"]) in (0, 1, 2)
