"""`gaple play` narrates a hand for a newcomer: each word of the game explained once, every line
within the terminal's width, and the points with the reason for them."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from gaple.cli import main
from gaple.cli.play import MIN_WIDTH, TERMS, line_text, terminal_width
from gaple.presets import PRESETS
from gaple.registry import rule_page

EXPLANATION = re.compile(r"^  \* (\w[\w ]*): ", re.MULTILINE)
"""How the narration explains a word (``set aside`` is two): an indented ``* word:`` line."""


@pytest.fixture(autouse=True)
def _width(monkeypatch: pytest.MonkeyPatch) -> None:
    """80 columns unless a test says otherwise, whatever terminal runs the tests."""
    monkeypatch.setenv("COLUMNS", "80")


def play(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(["play", *args]) == 0
    return capsys.readouterr().out


def explained(text: str) -> list[str]:
    return EXPLANATION.findall(text)


def test_each_word_is_explained_once_where_it_first_comes_up(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("COLUMNS", "100")
    out = play(capsys, "--variant", "pagat-4x7", "--seed", "1")
    # The hand of `make run`: seat 2 opens (opener, and the line it starts), leads 0-0 (the
    # ends column appears with the first row), seat 3 discards 1-3 on move 2, seat 2 goes out
    # on move 25. The table takes 34 of the 100 columns, so a line of 14 tiles (70 characters)
    # is elided: move 15 lays the 14th tile (move 2 was a discard). Nobody passes (this variant
    # discards), the hand is not blocked, and every tile is dealt (no starter, nothing aside).
    words = explained(out)
    assert sorted(words) == sorted(["opener", "line", "end", "discard", "elided", "out", "count"])
    assert out.index("* opener:") < out.index("* line:") < out.index("lead 0-0")
    assert out.index("lead 0-0") < out.index("* end:")
    assert out.index("discard 1-3") < out.index("* discard:") < out.index("place 0-5 right")


def test_a_starter_and_the_tiles_set_aside_are_explained_where_the_deal_shows_them(
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = play(capsys, "--variant", "pagat-4x6", "--seed", "3")
    # pagat-4x6 deals 24 of the 28 tiles: 4-4 is turned up as the starter and 0-1, 1-3, 1-6
    # stay face down. Both words are explained under the deal, before anyone acts; the opener
    # here leads nothing (the starter is the first tile), so its meaning must cover playing
    # first onto the starter.
    assert "starter turned up: 4-4; set aside: 0-1 1-3 1-6" in out
    assert explained(out)[:4] == ["starter", "set aside", "opener", "line"]
    flat = " ".join(out.split())
    assert "* set aside: the other undealt tiles: they stay face down, out of play," in flat
    opener = flat[flat.index("* opener:") : flat.index("* line:")]
    assert "plays first onto the starter" in opener
    assert "puts down the first tile" not in opener


def test_the_ends_column_cannot_be_read_as_a_tile(capsys: pytest.CaptureFixture[str]) -> None:
    out = play(capsys, "--variant", "pagat-4x7", "--seed", "1")
    lines = out.splitlines()
    # Move 3: seat 0 places 0-5 on the right of the lone 0-0, so the left end shows 0 and the
    # right end 5; written "0-5" it would read as the tile just placed.
    assert _row(lines, "3  0").split() == [
        "3",
        "0",
        "place",
        "0-5",
        "right",
        "0",
        "and",
        "5",
        "[0|0][0|5]",
    ]
    # Move 10: seat 3 places 1-4 on the left end 1; the right end is still the 0 of 6-0.
    assert "place 1-4 left  4 and 0 " in _row(lines, " 10  3")


def test_the_ranking_says_low_half_where_the_line_says_end(
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = play(capsys, "--variant", "pagat-4x7", "--seed", "1")
    flat = " ".join(out.split())
    # Seat 2 is left with its discard 3-3 only: 6 pips, whose smaller number (low half) is 3;
    # seat 3's lowest tile is its discard 1-3: 4 pips, low half 1. "End" is kept for the two
    # open ends of the line, so the ranking never says it.
    ranking = flat[flat.index("The lowest count ranks first") : flat.index("Winner:")]
    assert "seat 2 (6, lowest tile 6 pips, low half 3)" in ranking
    assert "seat 3 (12, lowest tile 4 pips, low half 1)" in ranking
    assert "smaller low half (the lower of its two numbers)" in ranking
    assert " end" not in ranking


def _row(lines: list[str], start: str) -> str:
    return next(line for line in lines if line.lstrip().startswith(start.lstrip()))


@pytest.mark.parametrize("variant", sorted(PRESETS))
def test_no_word_is_explained_twice_in_any_variant(
    variant: str, capsys: pytest.CaptureFixture[str]
) -> None:
    for seed in (2, 4, 5, 7):
        out = play(capsys, "--variant", variant, "--seed", str(seed))
        words = explained(out)
        assert len(words) == len(set(words)), words
        assert set(words) <= set(TERMS)
        # A word that comes up is explained: a pass row means "pass" is.
        assert (re.search(r"^ *\d+ +\d+ +pass ", out, re.MULTILINE) is not None) == (
            "pass" in words
        )
        assert ("[end.blocked]" in out) == ("blocked" in words)
    # The checks can fail: a narration explaining a word twice is caught.
    twice = "  * line: the row of tiles\n  #  seat move\n  * line: the row of tiles\n"
    assert len(explained(twice)) != len(set(explained(twice)))


def test_a_blocked_pass_hand_explains_pass_and_blocked(capsys: pytest.CaptureFixture[str]) -> None:
    # domino4d seed 5 blocks with the ends 3 and 3 and seats passing before it does.
    out = play(capsys, "--variant", "domino4d", "--seed", "5")
    assert explained(out).count("pass") == 1
    assert explained(out).count("blocked") == 1
    assert "out" not in explained(out)


def test_terse_explains_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    out = play(capsys, "--variant", "pagat-4x7", "--seed", "1", "--terse")
    assert explained(out) == []
    assert "Gaple is" not in out
    assert "Points: everyone scores +0" in out


@pytest.mark.parametrize("variant", sorted(PRESETS))
def test_no_line_is_wider_than_the_terminal(
    variant: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("COLUMNS", "60")
    for seed in (1, 3, 6):
        out = play(capsys, "--variant", variant, "--seed", str(seed))
        assert max(map(len, out.splitlines())) <= 60


def test_the_181_wide_line_of_make_run_keeps_its_ends(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Before wrapping, the last row of this hand was 181 characters wide.
    monkeypatch.setenv("COLUMNS", "200")
    wide = play(capsys, "--variant", "pagat-4x7", "--seed", "1")
    assert 170 < max(map(len, wide.splitlines())) <= 200
    monkeypatch.setenv("COLUMNS", "60")
    narrow = play(capsys, "--variant", "pagat-4x7", "--seed", "1")
    assert max(map(len, narrow.splitlines())) <= 60
    last = _row(narrow.splitlines(), "25  2")
    # Move 25 is "place 0-3 left" on the left end 0, so the line now starts [3|0]; move 23
    # placed 5-6 on the right end 6, and nothing was placed on the right since: it ends [6|5].
    # 25 moves, of which 2 discards (moves 2 and 21): 23 tiles in the line.
    assert "3 and 5 [3|0]" in last
    assert last.endswith("[6|5]")
    shown = last.count("[")
    hidden = int(re.search(r"\.\.(\d+) more\.\.", last).group(1))  # type: ignore[union-attr]
    assert shown + hidden == 23


@pytest.mark.parametrize("columns", [30, MIN_WIDTH])
def test_a_narrow_columns_is_honoured_with_each_move_on_two_lines(
    columns: int, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("COLUMNS", str(columns))
    for variant in ("pagat-4x7", "pagat-4x6", "suwiki-partnership"):
        out = play(capsys, "--variant", variant, "--seed", "1")
        assert max(map(len, out.splitlines())) <= columns
    lines = play(capsys, "--variant", "pagat-4x7", "--seed", "1").splitlines()
    # The table's 34 columns leave no room for the line: move 3 (seat 0 places 0-5 on the
    # right of 0-0) says its ends in words, and the line follows on a line of its own.
    row = lines.index(next(line for line in lines if line.startswith("  3 seat 0:")))
    assert " ".join(" ".join(lines[row : row + 2]).split()) == (
        "3 seat 0: place 0-5 right, ends 0 and 5"
    )
    assert lines[row + 2] == "    [0|0][0|5]"
    assert "line after the move" not in "".join(lines)


def test_columns_below_the_minimum_gives_the_minimum_width(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # MIN_WIDTH: the 4-space indent of a line under its move and the shortest elided line,
    # two tiles of 5 around "..NN more.." (11): 4 + 21 = 25.
    assert MIN_WIDTH == 25
    monkeypatch.setenv("COLUMNS", "10")
    assert terminal_width() == MIN_WIDTH
    out = play(capsys, "--variant", "pagat-4x7", "--seed", "1")
    assert max(map(len, out.splitlines())) == MIN_WIDTH


def test_columns_wins_and_piped_output_defaults_to_80(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "40")
    assert terminal_width() == 40

    def no_terminal(fd: int = 1) -> os.terminal_size:
        raise OSError(fd, "not a terminal")

    monkeypatch.delenv("COLUMNS")
    monkeypatch.setattr(os, "get_terminal_size", no_terminal)
    assert terminal_width() == 80


def test_line_text_elides_the_middle() -> None:
    line = [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 6), (6, 6), (6, 0)]
    # 8 tiles of 5 characters: 40 fit in 40 and are shown whole.
    assert line_text(line, 40) == "[0|1][1|2][2|3][3|4][4|5][5|6][6|6][6|0]"
    # In 30: showing 7, 6 or 5 tiles with a 10-character "..N more.." takes 45, 40, 35
    # characters; 4 tiles (2 at each end) take 10 + 10 + 10 = 30.
    assert line_text(line, 30) == "[0|1][1|2]..4 more..[6|6][6|0]"
    # In 29 three tiles fit: 2 on the left, 1 on the right, 10 + 10 + 5 = 25 characters.
    assert line_text(line, 29) == "[0|1][1|2]..5 more..[6|0]"
    assert line_text([], 10) == "(empty)"


def test_the_points_say_why_they_are_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    out = play(capsys, "--variant", "pagat-4x7", "--seed", "1")
    # At the end seat 0 holds 1-6 (7), seat 1 3-6 (9), seat 2 nothing but its discard 3-3 (6),
    # seat 3 3-5 (8) and its discard 1-3 (4): counts 7, 9, 6, 12. Seat 2 went out, but its
    # discard counts: it wins because 6 is the lowest count. Per-hand settlement: no points.
    assert "Seat 2 counts 6: discarded 3-3 (6) [score.count]." in out
    assert "Seat 3 counts 12: 3-5 (8) + discarded 1-3 (4) [score.count]." in out
    assert "Winner: seat 2, first in the ranking." in out
    flat = " ".join(out.split())
    assert (
        "Points: everyone scores +0, because this variant settles per hand: a hand only names "
        "its winner [settle.per-hand]." in flat
    )


def test_chips_points_say_who_pays_whom(capsys: pytest.CaptureFixture[str]) -> None:
    out = play(capsys, "--variant", "chips", "--seed", "3")
    flat = " ".join(out.split())
    # At the end seat 0 holds 0-3 and discarded 2-3: 3 + 5 = 8. Seat 1 went out by discarding
    # its last tile; its discards 2-2, 3-3, 3-6 count 4 + 6 + 9 = 19. Seat 2: 5-5 and the
    # discarded 0-0, 10 + 0 = 10. Seat 3: 6-6 and the discarded 1-5, 12 + 6 = 18. Seat 0 has
    # the lowest count and collects 19 - 8 = 11, 10 - 8 = 2 and 18 - 8 = 10: 23 in all.
    # Move 21 is seat 1's discard of 3-3, its last tile: the narration names it.
    assert "The hand is over: seat 1 went out (discarding 3-3, its last tile) [end.out]." in flat
    assert "Winner: seat 0, first in the ranking." in flat
    assert (
        "Points: seat 0 +23, seat 1 -11, seat 2 -2, seat 3 -10, because under chips settlement "
        "every other seat pays the winner the difference between its count and the winner's "
        "[settle.chips]." in flat
    )


def test_an_explanation_names_the_command_that_opens_its_rule(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # The first word explained is "opener" (the opening comes first), whose rule in TERMS is
    # open.lead; gaple docs opens that rule's page offline.
    flat = " ".join(play(capsys, "--variant", "pagat-4x7", "--seed", "1").split())
    assert "(more: gaple docs open.lead)." in flat
    assert "gaple docs end.out opens its page" in flat


def test_every_explanation_names_the_docs_page_of_its_rule() -> None:
    # The command in the narration opens the page the docs' extension places each rule on
    # (gaple.registry.rule_page, which both use): the terms' rules live on these five pages.
    assert {rule_page(rule_id) for _meaning, rule_id in TERMS.values()} == {
        "rules/deal",
        "rules/opening",
        "rules/turn",
        "rules/end-of-hand",
        "rules/counting-and-winner",
    }


def test_a_blocked_partnership_hand_says_who_won_the_challenge(
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = play(capsys, "--variant", "suwiki-partnership", "--seed", "5")
    flat = " ".join(out.split())
    assert "Partners sit opposite: seats 0 and 2 (pair 0) against seats 1 and 3 (pair 1)" in flat
    # Blocked on ends 3 and 3, seat 1 having laid the last tile. Left: seat 0 4-4 (8), seat 1
    # 4-5 (9), seat 2 1-5 and 6-6 (6 + 12 = 18: never dead in a blocked hand), seat 3 1-1, 1-4,
    # 5-5 (2 + 5 + 10 = 17). The blocker's 9 is below the next seat's 18, so the blocker's pair
    # (seats 1 and 3) scores every pip left, 8 + 9 + 18 + 17 = 52, once.
    assert "last tile placed by seat 1 [end.blocked]" in flat
    assert "Seat 1 (blocker) counts 9 against seat 2's 18" in flat
    assert "Winner: seat 1, so pair 1." in flat
    assert "Points: pair 0 +0, pair 1 +52, because in partnership play a blocked hand" in flat


def test_the_header_names_the_variant_and_what_was_changed(
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = play(capsys, "--variant", "pagat", "--set", "blocked_action=pass", "--terse")
    lines = out.splitlines()
    # The alias resolves to the preset's name; the override is named, since the title no longer
    # describes the rules played.
    assert lines[0].startswith("Variant pagat-4x7: ")
    assert "Changed from the variant: blocked_action=pass." in lines
    assert "discard " not in out  # under the pass option nobody discards


def test_every_word_the_narration_explains_is_in_the_docs_glossary() -> None:
    # The glossary's first list holds the words of the game as the pages and the narration use
    # them; "elided" is about the screen, and "pass" is listed with the sources' words for it.
    glossary = (Path(__file__).resolve().parent.parent / "docs" / "glossary.rst").read_text(
        encoding="utf-8"
    )
    terms = set(re.findall(r"^   (\w[\w ]*)$", glossary, re.MULTILINE))
    assert set(TERMS) - {"elided"} <= terms
    assert {"low half", "end"} <= terms
