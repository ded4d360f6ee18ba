"""Differences of list fields in words, the same in every tool: the run's text and report,
``gaple check``, and what the HTML summary can call (:func:`difference_words`).

Each expected wording is reasoned from the hand-built values beside it; the subject of every
sentence is the implementation.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from gaple.cli import main
from gaple.conformance.checker.compare import Difference, difference_words

JSON = Any
ROOT = Path(__file__).resolve().parent.parent
BUG = f"{sys.executable} {ROOT / 'examples' / 'bugs' / 'adapter.py'} --bug"


@pytest.mark.parametrize(
    ("field", "expected", "actual", "words"),
    [
        # place 0-4 right is legal and missing; discard 4-6 is offered and not legal.
        (
            "legal",
            ["place 0-4 left", "place 0-4 right"],
            ["place 0-4 left", "discard 4-6"],
            "did not offer place 0-4 right; offered discard 4-6, which is not legal",
        ),
        # gaple check's name for the same list.
        (
            "offered",
            ["pass"],
            ["pass", "discard 1-2", "discard 3-4"],
            "offered discard 1-2 and discard 3-4, which are not legal",
        ),
        # 2-3 was laid by the spec and not by the engine; then a 3-3 the spec never laid.
        ("line", [[1, 2], [2, 3]], [[1, 2]], "the line lacks 2-3"),
        ("line", [[1, 2], [2, 3]], [[1, 2], [2, 3], [3, 3]], "the line has 3-3 too"),
        # wrong-end's line: the spec laid 1-6 on the left, the engine on the right.
        (
            "line",
            [[1, 6], [6, 0], [0, 0], [0, 3], [3, 5], [5, 1]],
            [[6, 0], [0, 0], [0, 3], [3, 5], [5, 1], [1, 6]],
            "laid 1-6 at the right end, not the left",
        ),
        # The same tile turned round: neither lacking nor extra, nor moved.
        ("line", [[1, 2]], [[2, 1]], "the line reads 2-1, not 1-2"),
        ("ends", [1, 5], [1, 4], "the right end is 4, not 5"),
        ("ends", None, [1, 5], "shows the ends 1 and 5, where the line is empty"),
        ("ends", [1, 5], None, "shows no ends, not 1 and 5"),
        ("hand_sizes", [6, 6, 6, 7], [6, 7, 6, 7], "seat 1 holds 7 tiles, not 6"),
        ("discard_counts", [0, 1], [0, 2], "seat 1 has discarded 2 tiles, not 1"),
        ("counts", [7, 0, 6, 19], [7, 0, 6, 12], "seat 3 counts 12, not 19"),
        ("result.counts", [7, 0], [7, 1], "seat 1 counts 1, not 0"),
        ("points", [0, 0, 0, 0], [0, 0], "shows 2 seats, not 4"),
        # Seat 0's hand has 3-3 in the spec only; seat 1's 6-6 is in the engine's only.
        (
            "hands",
            [["3-3", "1-2"], ["5-6"]],
            [["1-2"], ["5-6", "6-6"]],
            "seat 0's hand lacks 3-3; seat 1's hand has 6-6 too",
        ),
        ("hands", [["3-3"]], [["5-6"]], "seat 0's hand lacks 3-3 and has 5-6 too"),
        ("discards", [["3-3"]], [[]], "seat 0's discards lack 3-3"),
        (
            "rules",
            ["end.out", "score.count"],
            ["score.count", "score.rank"],
            "does not name end.out; names score.rank, which the spec does not apply",
        ),
    ],
)
def test_each_list_field_differs_in_words(
    field: str, expected: JSON, actual: JSON, words: str
) -> None:
    assert difference_words(field, expected, actual) == words


def test_points_of_pair_scoring_are_per_team_and_counts_per_seat() -> None:
    # Pair scoring: the points are the two teams'; the counts stay the seats'.
    said = difference_words("points", [0, 5], [5, 0], teams=True)
    assert said == "team 0 scores 5, not 0; team 1 scores 0, not 5"
    assert difference_words("counts", [3, 4], [3, 5], teams=True) == "seat 1 counts 5, not 4"


@pytest.mark.parametrize(
    ("field", "expected", "actual"),
    [
        ("to_act", 1, 2),  # no list field: the raw values say it
        ("legal", ["pass"], "pass"),  # not a list of moves
        ("legal", ["place 0-3 right"], ["place 3-0 right"]),  # the same move, halves turned
        ("hand_sizes", [6, 6], [6, True]),  # not a number per seat
    ],
)
def test_no_words_where_the_values_say_it_better(field: str, expected: JSON, actual: JSON) -> None:
    assert difference_words(field, expected, actual) is None


def test_a_difference_says_its_words_or_else_its_values() -> None:
    assert Difference("legal", "r", ["pass"], []).said() == "did not offer pass"
    assert Difference("to_act", "r", 1, 2).said() == "expected 1, got 2"


def test_a_broken_engine_fails_in_words_on_the_terminal_and_in_the_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Before: "legal [turn.forced-play]: expected [...], got [...]", two raw lists.
    # pass-while-placement-exists offers a pass although a placement exists: a pass offered
    # that is not legal. combination-001's first position after the lead is such a one.
    report = tmp_path / "r.jsonl"
    argv = ["conformance", "run", "--jobs", "1", "--impl", f"{BUG} pass-while-placement-exists"]
    assert main([*argv, "--case", "combination-001", "--report", str(report)]) == 1
    out = capsys.readouterr().out
    assert "legal [turn.forced-play]: offered pass, which is not legal" in out
    (record,) = [r for r in map(json.loads, report.read_text().splitlines()) if "words" in r]
    assert record["words"] == "offered pass, which is not legal"
    # The raw values stay: the engine's list holds the pass, the spec's does not.
    assert "pass" in record["actual"]
    assert "pass" not in record["expected"]


def test_wrong_end_reads_as_a_tile_laid_at_the_other_end(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # end-out-by-placing: at step 7 the spec lays 1-6 on the left (the line then reads 6-1
    # 1-1 ... 5-1); wrong-end lays it on the right (... 5-1 1-6).
    argv = ["conformance", "run", "--jobs", "1", "--impl", f"{BUG} wrong-end"]
    assert main([*argv, "--case", "end-out-by-placing"]) == 1
    assert "line [play.match-end]: laid 1-6 at the right end, not the left" in (
        capsys.readouterr().out
    )


def test_gaple_check_says_a_claimed_hand_in_the_same_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Double-2 set, 2 seats of 1 tile: the starter 0-1 is turned up and seat 0 places its
    # only tile, 0-0, on the left: its hand is then empty. A transcript claiming it still
    # holds 0-0 shows seat 0's hand with 0-0 too.
    data = {
        "rules": {"max_pip": 2, "players": 2, "hand_size": 1},
        "deal": {
            "hands": [["0-0"], ["1-1"]],
            "starter": "0-1",
            "set_aside": ["0-2", "1-2", "2-2"],
            "first_seat": 0,
        },
        "actions": [{"seat": 0, "move": "place 0-0 left"}],
        "hands": [["0-0"], ["1-1"]],
    }
    path = tmp_path / "t.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert main(["check", str(path)]) == 1
    assert "hands: seat 0's hand has 0-0 too" in capsys.readouterr().out
    assert main(["check", str(path), "--format", "json"]) == 1
    (record,) = json.loads(capsys.readouterr().out)
    assert record["divergence"]["words"] == "seat 0's hand has 0-0 too"
    assert record["divergence"]["claimed"] == [["0-0"], ["1-1"]]
