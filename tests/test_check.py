"""``gaple check``: transcripts that conform, that diverge (first divergence, with its rule),
and files that cannot be read (status 2 with the JSON path)."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gaple.cli import main
from gaple.conformance.checker.compare import compare_observation
from gaple.conformance.checker.transcript import check_transcript
from gaple.conformance.vectors.cases import observe
from gaple.conformance.vectors.schemas import transcript_schema
from gaple.io import FormatError, deal_from_json, rules_from_json, rules_to_json, state_to_json
from gaple.presets import ruleset
from gaple.simulate import random_hand
from gaple.state import new_hand

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
        ("{not json", "line 1: not JSON (column 2)"),
        (
            {"rules": {}, "deal": {"hands": TWO}, "actions": [{"seat": 0, "move": "jump"}]},
            "$.actions[0].move",
        ),
        ({"rules": {"players": "four"}, "deal": {"hands": TWO}, "actions": []}, "$.rules.players"),
        ({"deal": {"hands": TWO}, "actions": []}, "missing key 'rules'"),
        ({"rules": {}, "deal": {"hands": [["0-0"]]}, "actions": []}, "at $.deal"),
    ],
)
def test_an_unreadable_or_invalid_file_exits_2_with_the_json_path(
    tmp_path: Path, content: JSON, words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, "bad.json", content)
    assert main(["check", path]) == 2
    # A rejection is one line on standard error; standard output stays for verdicts.
    captured = capsys.readouterr()
    assert captured.out == ""
    assert words in captured.err
    assert len(captured.err.splitlines()) == 1


def test_a_missing_file_exits_2_and_other_files_are_still_checked(
    tmp_path: Path, transcript: dict[str, JSON], capsys: pytest.CaptureFixture[str]
) -> None:
    good = _write(tmp_path, "t.json", transcript)
    assert main(["check", str(tmp_path / "absent.json"), good]) == 2
    captured = capsys.readouterr()
    assert "cannot read" in captured.err
    assert "conforms" in captured.out


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
    key=st.sampled_from(
        ["rules", "deal", "actions", "first_hand", "line", "result", "hands", "offered"]
    ),
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


# --- offered moves ---------------------------------------------------------------------------

# pagat-4x7 (0-0 opens the first hand, a stuck seat discards), dealt by hand so that seat 1
# holds exactly one blank, 0-3. Every tile of the double-six set appears once.
_SPLIT_DEAL = {
    "hands": [
        ["0-0", "0-1", "0-2", "1-1", "1-2", "2-2", "1-3"],
        ["0-3", "2-3", "3-3", "1-4", "2-4", "3-4", "4-4"],
        ["0-4", "0-5", "0-6", "1-5", "1-6", "2-5", "2-6"],
        ["3-5", "3-6", "4-5", "4-6", "5-5", "5-6", "6-6"],
    ],
    "starter": None,
    "set_aside": [],
    "first_seat": 0,
}


def _offering(second: list[str], after: list[str] | None = None) -> dict[str, JSON]:
    """Seat 0 leads 0-0 (it holds it, and 0-0 is the only tile allowed to open the first hand,
    so it is the only lead offered); seat 1 places 0-3 on the left, having been offered
    ``second``; ``after`` is what was offered to seat 2 after that."""
    data: dict[str, JSON] = {
        "rules": rules_to_json(ruleset("pagat-4x7")),
        "deal": _SPLIT_DEAL,
        "actions": [
            {"seat": 0, "move": "lead 0-0", "offered": ["lead 0-0"]},
            {"seat": 1, "move": "place 0-3 left", "offered": second},
        ],
    }
    if after is not None:
        data["offered"] = after
    return data


def test_offering_one_placement_when_both_ends_match_is_play_match_end(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # After the lead 0-0 both ends show 0, so 0-3 fits either end: the spec has two moves,
    # place 0-3 left and place 0-3 right (seat 1's other tiles show no 0). An engine that
    # offers only the left one misses the right one, a placement on a matching end:
    # play.match-end, before step 2, at that action's offered list.
    path = _write(tmp_path, "t.json", _offering(["place 0-3 left"]))
    assert main(["check", path, "--format", "json"]) == 1
    record = json.loads(capsys.readouterr().out)[0]
    divergence = record["divergence"]
    assert record["status"] == "diverges"
    assert (divergence["field"], divergence["rule"]) == ("offered", "play.match-end")
    assert (divergence["step"], divergence["seat"]) == (2, 1)
    assert divergence["missing"] == ["place 0-3 right"]
    assert divergence["extra"] == []
    assert divergence["path"] == "$.actions[1].offered"
    assert record["actions"] == 1  # the lead was replayed before the divergence
    assert main(["check", path]) == 1
    assert "did not offer place 0-3 right" in capsys.readouterr().out


def test_offering_both_placements_conforms(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The same hand with both placements offered (in any order: a set), and after it seat 2
    # offered its three blanks on the right end, which shows 0 (the left end shows 3 and seat
    # 2 holds no 3): place 0-4 right, place 0-5 right, place 0-6 right.
    after = ["place 0-6 right", "place 0-4 right", "place 0-5 right"]
    data = _offering(["place 0-3 right", "place 0-3 left"], after)
    path = _write(tmp_path, "t.json", data)
    assert main(["check", path]) == 0
    assert "conforms (2 actions, not ended)" in capsys.readouterr().out


def test_offering_a_pass_while_a_tile_fits_is_turn_forced_play(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Seat 1 can place 0-3, so a pass offered beside the placements is extra and breaks
    # turn.forced-play (under pagat-4x7 a stuck seat would discard, but seat 1 is not stuck).
    data = _offering(["place 0-3 left", "place 0-3 right", "pass"])
    path = _write(tmp_path, "t.json", data)
    assert main(["check", path, "--format", "json"]) == 1
    divergence = json.loads(capsys.readouterr().out)[0]["divergence"]
    assert (divergence["rule"], divergence["missing"], divergence["extra"]) == (
        "turn.forced-play",
        [],
        ["pass"],
    )


def test_offered_moves_after_the_last_action_are_checked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Seat 2 is offered 0-4 on the left end too, but the left end shows 3: an extra move on a
    # non-matching end, play.match-end, at the top-level offered list.
    after = ["place 0-4 left", "place 0-4 right", "place 0-5 right", "place 0-6 right"]
    path = _write(tmp_path, "t.json", _offering(["place 0-3 left", "place 0-3 right"], after))
    assert main(["check", path, "--format", "json"]) == 1
    divergence = json.loads(capsys.readouterr().out)[0]["divergence"]
    assert (divergence["path"], divergence["rule"]) == ("$.offered", "play.match-end")
    assert (divergence["step"], divergence["extra"]) == (2, ["place 0-4 left"])


def test_an_offered_list_that_is_not_moves_is_invalid(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, "t.json", _offering(["place 0-3 up"]))
    assert main(["check", path]) == 2
    assert "invalid at $.actions[1].offered[0]" in capsys.readouterr().err


# --- the end of the hand ---------------------------------------------------------------------

# Double-2 set, 2 seats of 1 tile, pass option: the starter 2-2 is turned up, seat 0 holds
# 0-0 and seat 1 holds 1-1; nobody holds a 2, so the hand is blocked at the deal (step 0).
_BLOCKED_AT_DEAL = {
    "rules": {"max_pip": 2, "players": 2, "hand_size": 1, "blocked_action": "pass"},
    "deal": {
        "hands": [["0-0"], ["1-1"]],
        "starter": "2-2",
        "set_aside": ["0-1", "0-2", "1-2"],
        "first_seat": 0,
    },
    "actions": [],
}
# Same set and seats, default options: the starter 0-1 is turned up; seat 0 places 0-0 on
# the left end (0) and, its hand empty, goes out at step 1.
_OUT_AT_STEP_1 = {
    "rules": {"max_pip": 2, "players": 2, "hand_size": 1},
    "deal": {
        "hands": [["0-0"], ["1-1"]],
        "starter": "0-1",
        "set_aside": ["0-2", "1-2", "2-2"],
        "first_seat": 0,
    },
    "actions": [{"seat": 0, "move": "place 0-0 left"}],
}


@pytest.mark.parametrize(
    ("base", "extra", "rule", "said"),
    [
        (_BLOCKED_AT_DEAL, {"seat": 0, "move": "pass"}, "end.blocked", "ended blocked at step 0"),
        (_OUT_AT_STEP_1, {"seat": 1, "move": "place 1-1 right"}, "end.out", "ended out at step 1"),
    ],
)
def test_an_action_after_the_end_names_how_the_hand_ended(
    tmp_path: Path,
    *,
    base: dict[str, JSON],
    extra: dict[str, JSON],
    rule: str,
    said: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # The engine accepted one more action: the rule it missed is the ending's, and the JSON
    # record gives the ending as the spec writes it ("blocked", "out").
    data = {**base, "actions": [*base["actions"], extra]}
    path = _write(tmp_path, "t.json", data)
    assert main(["check", path, "--format", "json"]) == 1
    record = json.loads(capsys.readouterr().out)[0]
    assert record["divergence"]["rule"] == rule
    assert said in record["divergence"]["expected"]
    assert record["ending"] == rule.removeprefix("end.")
    assert "Ending" not in json.dumps(record)


@pytest.mark.parametrize("base", [_BLOCKED_AT_DEAL, _OUT_AT_STEP_1])
def test_nothing_may_be_offered_once_the_hand_has_ended(
    tmp_path: Path, base: dict[str, JSON], capsys: pytest.CaptureFixture[str]
) -> None:
    # An empty list conforms; any move offered after the end breaks the ending's rule.
    path = _write(tmp_path, "t.json", {**base, "offered": []})
    assert main(["check", path]) == 0
    capsys.readouterr()
    path = _write(tmp_path, "t.json", {**base, "offered": ["pass"]})
    assert main(["check", path, "--format", "json"]) == 1
    record = json.loads(capsys.readouterr().out)[0]
    assert record["divergence"]["rule"] == f"end.{record['ending']}"
    assert record["divergence"]["extra"] == ["pass"]


# Double-2 set, 2 seats of 1 tile, discard option: the starter 0-1 is turned up (ends 0 and
# 1) and seat 0, the first seat, acts first. Seat 0 holds 2-2, which matches neither end, so it
# must discard it; seat 1's 1-1 matches the 1, so the hand is not blocked: end.blocked needs
# every seat that holds tiles to be unable to place.
_STUCK_NOT_BLOCKED = {
    "rules": {"max_pip": 2, "players": 2, "hand_size": 1, "blocked_action": "discard"},
    "deal": {
        "hands": [["2-2"], ["1-1"]],
        "starter": "0-1",
        "set_aside": ["0-0", "0-2", "1-2"],
        "first_seat": 0,
    },
    "actions": [],
}


@pytest.mark.parametrize(
    ("base", "claim", "field", "rule"),
    [
        # An engine that takes seat 0's stuck turn for a blocked hand claims the ending and
        # offers nothing: the missing discard 2-2 follows from the early ending, so the rule
        # named is end.blocked, not block.discard (the old blame, at $.offered).
        (
            _STUCK_NOT_BLOCKED,
            {"ending": "blocked", "to_act": None, "offered": []},
            "ending",
            "end.blocked",
        ),
        # The same early ending claimed as going out: seat 0 still holds its tile, and the
        # ending it misapplies is end.out (the old blame: end.blocked whatever the claim).
        (_STUCK_NOT_BLOCKED, {"ending": "out", "to_act": None, "offered": []}, "ending", "end.out"),
        # A late ending: the hand is blocked at the deal, but the engine goes on with seat 0 to
        # pass. The ending is named at $.ending before the pass it offers (the old blame named
        # end.blocked too, but at $.offered).
        (
            _BLOCKED_AT_DEAL,
            {"ending": None, "to_act": 0, "offered": ["pass"]},
            "ending",
            "end.blocked",
        ),
        # Seat 1 shown to act first: with a starter turned up the first seat acts first, by
        # open.starter-seat (the old blame: turn.order, the rule of later turns).
        (_STUCK_NOT_BLOCKED, {"to_act": 1}, "to_act", "open.starter-seat"),
        # An empty line at the deal: the turned-up starter begins it, by deal.starter (the old
        # blame: play.match-end, the rule of a placement, though nothing was placed).
        (_STUCK_NOT_BLOCKED, {"line": []}, "line", "deal.starter"),
    ],
)
def test_a_final_field_is_named_in_the_order_and_by_the_rule_of_the_suite(
    tmp_path: Path,
    *,
    base: dict[str, JSON],
    claim: dict[str, JSON],
    field: str,
    rule: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = _write(tmp_path, "t.json", {**base, **claim})
    assert main(["check", path, "--format", "json"]) == 1
    divergence = json.loads(capsys.readouterr().out)[0]["divergence"]
    assert (divergence["field"], divergence["rule"], divergence["path"]) == (
        field,
        rule,
        f"$.{field}",
    )
    # gaple conformance run names the same rule for a state reply showing the same claim in
    # the same position (its legal moves are the transcript's offered ones).
    state = new_hand(rules_from_json(base["rules"]), deal_from_json(base["deal"]))
    expected = observe(state)
    shown = {**expected, **claim}
    if "offered" in shown:
        shown["legal"] = shown.pop("offered")
    difference = compare_observation(expected, shown, state, ("line", "turns"))
    assert difference is not None
    assert (difference.field, difference.rule) == (field, rule)


# --- replayed hands --------------------------------------------------------------------------


def _tied_challenge(capsys: pytest.CaptureFixture[str]) -> dict[str, JSON]:
    # suwiki-partnership replays a hand whose blocked-hand challenge is tied. `gaple play`
    # seed 15 ends blocked by seat 2's last tile with seat 2 holding 2-6 5-5 (8 + 10 = 18) and
    # the next seat, 3, holding 1-1 1-3 6-6 (2 + 4 + 12 = 18; 6-6 is never dead in a blocked
    # hand): a tie, so nobody wins, no pair scores, and the hand is dealt again.
    assert (
        main(["play", "--variant", "suwiki-partnership", "--seed", "15", "--format", "json"]) == 0
    )
    data: dict[str, JSON] = json.loads(capsys.readouterr().out)
    assert data["ending"] == "blocked"
    assert data["actions"][-1]["seat"] == 2
    assert (data["hands"][2], data["hands"][3]) == (["2-6", "5-5"], ["1-1", "1-3", "6-6"])
    return data


def test_a_replayed_hand_checks_and_says_it_is_replayed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = _tied_challenge(capsys)
    # What the engine should claim, from the reasoning above: no winner, no team, 0 points for
    # each pair, replay.
    expected = {"winner": None, "winning_team": None, "points": [0, 0], "replay": True}
    assert {key: data["result"][key] for key in expected} == expected
    path = _write(tmp_path, "t.json", data)
    assert main(["check", path]) == 0
    out = capsys.readouterr().out
    assert "conforms" in out
    assert "replayed" in out


@pytest.mark.parametrize(
    "claim",
    [
        {"replay": False},  # an engine that scores the tie instead of replaying it
        {"winner": 3, "winning_team": 1, "points": [0, 36]},  # the tie given to the other pair
    ],
)
def test_a_replayed_hand_scored_as_won_diverges_at_partner_challenge_tie(
    tmp_path: Path, claim: dict[str, JSON], capsys: pytest.CaptureFixture[str]
) -> None:
    data = _tied_challenge(capsys)
    data["result"] = {**data["result"], **claim}
    path = _write(tmp_path, "t.json", data)
    assert main(["check", path, "--format", "json"]) == 1
    divergence = json.loads(capsys.readouterr().out)[0]["divergence"]
    assert divergence["rule"] == "partner.challenge-tie"


# --- JSON-lines logs -------------------------------------------------------------------------


def _line(data: JSON) -> str:
    return json.dumps(data) + "\n"


def test_a_jsonl_log_is_summarised_by_rule_with_the_first_example(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = _offering(["place 0-3 left", "place 0-3 right"])
    bad = _offering(["place 0-3 left"])
    lines = [
        _line(good),  # 1: conforms
        _line(bad),  # 2: play.match-end (first example)
        "\n",  # blank: skipped, not counted
        "{not json\n",  # 4: invalid, counted, and checking goes on
        _line(good),  # 5: conforms
        _line(bad),  # 6: play.match-end again
        _line(_BLOCKED_AT_DEAL),  # 7: conforms (blocked at the deal)
    ]
    log = tmp_path / "log.jsonl"
    log.write_text("".join(lines))
    # 6 transcripts: 3 conform, 2 diverge (both play.match-end, first at line 2), 1 invalid at
    # line 4; an invalid line makes the status 2.
    assert main(["check", str(log), "--format", "json"]) == 2
    summary = json.loads(capsys.readouterr().out)[0]
    totals = [summary[k] for k in ("transcripts", "conforming", "diverging", "invalid")]
    assert totals == [6, 3, 2, 1]
    groups = {g["rule"]: g for g in summary["by_rule"]}
    assert set(groups) == {"play.match-end", "invalid"}
    assert (groups["play.match-end"]["count"], groups["play.match-end"]["first_line"]) == (2, 2)
    assert "did not offer place 0-3 right" in groups["play.match-end"]["first_message"]
    assert (groups["invalid"]["count"], groups["invalid"]["first_line"]) == (1, 4)
    assert main(["check", str(log)]) == 2
    out = capsys.readouterr().out
    assert "6 transcripts: 3 conform, 2 diverge, 1 invalid" in out
    assert "play.match-end: 2 (first: line 2: does not conform at step 2" in out
    # "{not json": after "{" a key is expected, at column 2.
    assert "invalid: 1 (first: line 4: not JSON (column 2)" in out


def test_a_log_on_standard_input_and_with_jsonl(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    good = _line(_offering(["place 0-3 left", "place 0-3 right"]))
    bad = _line(_offering(["place 0-3 left"]))
    # Two conforming lines: status 0; with a diverging one: status 1.
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO((good * 2).encode())))
    assert main(["check", "-"]) == 0
    assert "standard input: 2 transcripts: 2 conform" in capsys.readouterr().out
    log = tmp_path / "log.txt"  # not .jsonl: --jsonl says how to read it
    log.write_text(good + bad)
    assert main(["check", "--jsonl", str(log)]) == 1
    assert "1 conform, 1 diverge, 0 invalid" in capsys.readouterr().out


def test_a_json_lines_file_read_as_one_document_says_to_pass_jsonl(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Two transcripts, one a line, in a file named .log: without --jsonl it is read as one
    # document, which ends after line 1, so line 2 column 1 is extra data. Line 1 alone is a
    # JSON document, so the file looks like JSON lines and the error says to pass --jsonl.
    good = _line(_offering(["place 0-3 left", "place 0-3 right"]))
    log = tmp_path / "selfplay.log"
    log.write_text(good * 2)
    assert main(["check", str(log)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    (error,) = captured.err.splitlines()  # one line: no traceback
    assert error.startswith(f"gaple check: error: {log}: line 2: not JSON (column 1): Extra data")
    assert "pass --jsonl" in error
    assert main(["check", str(log), "--format", "json"]) == 2
    assert "pass --jsonl" in json.loads(capsys.readouterr().out)[0]["error"]
    # As the hint says: with --jsonl both lines conform.
    assert main(["check", "--jsonl", str(log)]) == 0
    capsys.readouterr()
    # A document whose first line is not JSON on its own (one transcript written over several
    # lines, then a stray line) gets no hint: it does not look like JSON lines.
    spread = tmp_path / "spread.log"
    spread.write_text(json.dumps(_BLOCKED_AT_DEAL, indent=1) + "\n{}\n")
    assert main(["check", str(spread)]) == 2
    assert "--jsonl" not in capsys.readouterr().err


def test_an_unreadable_log_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(tmp_path / "absent.jsonl")]) == 2
    assert "cannot read" in capsys.readouterr().out


def test_the_schema_and_the_checker_agree_on_the_offered_lists(
    transcript: dict[str, JSON],
) -> None:
    # The checker reads transcripts with the typed readers (fast, no schema per transcript);
    # the committed schema must accept what they accept and refuse a move they refuse.
    jsonschema = pytest.importorskip("jsonschema")
    validator = jsonschema.Draft202012Validator(transcript_schema())
    good = _offering(["place 0-3 left", "place 0-3 right"], ["place 0-4 right"])
    for data in (good, transcript, _BLOCKED_AT_DEAL, _OUT_AT_STEP_1):
        assert not list(validator.iter_errors(data))
        check_transcript(data)
    bad = _offering(["place 0-3 up"])
    assert list(validator.iter_errors(bad))
    with pytest.raises(FormatError, match="cannot read move"):
        check_transcript(bad)


@settings(max_examples=60, deadline=None)
@given(index=st.integers(0, 3), value=_JSON)
def test_any_damage_to_an_action_gives_a_verdict_never_a_traceback(index: int, value: JSON) -> None:
    # Replace one action, or its offered list, by arbitrary JSON: a verdict or a located
    # FormatError, nothing else.
    data = _offering(["place 0-3 left", "place 0-3 right"])
    actions = data["actions"]
    if index < len(actions):
        actions[index] = value
    else:
        actions[index - len(actions)] = {**actions[index - len(actions)], "offered": value}
    where = None
    try:
        check_transcript(data)
    except FormatError as error:
        where = error.path
    assert where is None or where.startswith("$.actions[")
