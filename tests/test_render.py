"""The SVG pictures of gaple.render: what they show must match the tiles they are given.

Expected values are worked out by hand next to each test: a tile shows as many pips as its
value, the line's left end is the first tile's left half, a double stands crosswise, and every
tile of a dealt hand appears once, face up in a hand or the line, or face down as a discard.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gaple.deal import Deal, shuffle_deal
from gaple.presets import ruleset
from gaple.render import HALF, hand_svg, line_svg, state_svg, table_svg, tile_svg
from gaple.simulate import random_hand
from gaple.state import State, apply, new_hand, parse_move
from gaple.tiles import Tile, parse_tiles

SVG = "{http://www.w3.org/2000/svg}"


def _parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    return root


def _title(svg: str) -> str:
    title = _parse(svg).find(f"{SVG}title")
    assert title is not None
    return title.text or ""


def _dominoes(svg: str) -> list[ET.Element]:
    return [g for g in _parse(svg).iter(f"{SVG}g") if "domino" in (g.get("class") or "").split()]


@given(st.integers(0, 9), st.integers(0, 9))
def test_a_tile_shows_as_many_pips_as_its_value(a: int, b: int) -> None:
    # Halves up to 9 are drawn as pips, one circle per pip: 3-6 shows 9 circles, 0-0 none.
    svg = tile_svg(Tile(a, b))
    pips = [c for c in _parse(svg).iter(f"{SVG}circle") if c.get("class") == "pip"]
    assert len(pips) == a + b
    assert _title(svg) == f"Tile {min(a, b)}-{max(a, b)}"


def test_halves_above_nine_are_written_as_numerals() -> None:
    svg = tile_svg(Tile(10, 12))
    numerals = [t.text for t in _parse(svg).iter(f"{SVG}text") if t.get("class") == "num"]
    assert numerals == ["10", "12"]
    assert 'class="pip"' not in svg


def test_the_line_names_its_open_ends() -> None:
    # Line 6-5 5-5 (the domino4d position of E002-1): left end is 6, right end is 5.
    svg = line_svg([(6, 5), (5, 5)])
    assert _title(svg) == "Line 6-5 5-5; open ends 6 (left) and 5 (right)"
    labels = [t.text for t in _parse(svg).iter(f"{SVG}text") if t.get("class") == "end"]
    assert labels == ["◀ left end 6", "right end 5 ▶"]


def test_a_double_stands_crosswise_in_the_line() -> None:
    # 6-5 and 5-2 lie lengthwise (2 halves wide, 1 high); the double 5-5 stands across.
    svg = line_svg([(6, 5), (5, 5), (5, 2)])
    sizes = [
        (float(rect.get("width", "0")), float(rect.get("height", "0")))
        for g in _dominoes(svg)
        for rect in g.iter(f"{SVG}rect")
    ]
    assert sizes == [(2 * HALF, HALF), (HALF, 2 * HALF), (2 * HALF, HALF)]
    assert [g.get("data-tile") for g in _dominoes(svg)] == ["5-6", "5-5", "2-5"]


def test_an_empty_line_says_the_table_is_empty() -> None:
    assert _title(line_svg([])) == "Empty table"


def test_a_hand_shows_its_discards_face_down() -> None:
    # Discards lie face down: drawn as blank tiles, named only in the title.
    svg = hand_svg("A", [Tile(1, 1)], [Tile(4, 4), Tile(0, 3)])
    face_down = [r for r in _parse(svg).iter(f"{SVG}rect") if r.get("data-face-down") == "1"]
    assert len(face_down) == 2
    assert len(_dominoes(svg)) == 1
    assert _title(svg) == "A: 1-1; discarded 4-4 0-3"
    assert _title(hand_svg("B", [], 2)) == "B: no tiles; 2 discarded face down"


def test_labels_are_escaped() -> None:
    svg = hand_svg("<A & B>", [Tile(0, 1)])
    assert _title(svg) == "<A & B>: 0-1"
    assert "&lt;A &amp; B&gt;" in svg


def test_a_table_without_a_line_shows_only_the_hands() -> None:
    # The counting examples: pagat's example 1 hands, no line.
    svg = table_svg([], [("A", [Tile(1, 1), Tile(1, 3)]), ("D", [Tile(2, 3)])])
    assert _title(svg) == "A: 1-1 1-3. D: 2-3"
    assert len(_dominoes(svg)) == 3
    assert "open ends" not in svg


def test_a_table_needs_one_discard_entry_per_hand() -> None:
    with pytest.raises(ValueError, match="2 hands but 1 discard entries"):
        table_svg([(1, 2)], [("A", []), ("B", [])], [0])


def test_a_new_hand_shows_every_tile_and_the_seat_to_act() -> None:
    # pagat-4x7, seed 7: seat 3 holds 0-0 and must lead it (the opening page's example), the
    # table is empty and all 28 tiles are in the four hands.
    rules = ruleset("pagat-4x7")
    state = new_hand(rules, shuffle_deal(rules, seed=7))
    svg = state_svg(state)
    title = _title(svg)
    assert title.startswith("Empty table. Seat 0: ")
    assert re.search(r"Seat 3 ◀ to act: 0-0 ", title)
    assert len(_dominoes(svg)) == 28


def test_state_labels_must_name_every_seat() -> None:
    rules = ruleset("pagat-4x7")
    state = new_hand(rules, shuffle_deal(rules, seed=7))
    with pytest.raises(ValueError, match="4 seats but 2 labels"):
        state_svg(state, ["N", "E"])
    assert "North ◀ to act" in _title(state_svg(state, ["N", "E", "S", "North"]))


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(["pagat-4x7", "domino4d", "pagat-4x6"]))
def test_a_finished_hand_shows_each_dealt_tile_once(seed: int, name: str) -> None:
    # Conservation in the picture: the line, the hands and the discards hold every dealt tile
    # (28 minus the face-down undealt ones, which are not drawn), each exactly once.
    rules = ruleset(name)
    state = random_hand(rules, seed)
    svg = state_svg(state)
    face_up = [g.get("data-tile") for g in _dominoes(svg)]
    face_down = [r for r in _parse(svg).iter(f"{SVG}rect") if r.get("data-face-down") == "1"]
    assert len(face_up) == len(set(face_up))
    assert len(face_up) + len(face_down) == 28 - len(state.set_aside)
    if state.out_seat is not None:
        assert f"Seat {state.out_seat} (went out)" in _title(svg)


def test_pictures_are_pure() -> None:
    line = [(0, 0), (0, 3)]
    assert line_svg(line) == line_svg(list(line))


def test_a_table_can_name_the_ends_of_a_line_it_does_not_draw() -> None:
    # A finished position keeps only the two open ends (here 0 and 0, pagat's first example).
    svg = table_svg([], [("A", [Tile(1, 1)])], ends=(0, 0))
    assert _title(svg) == "Open ends 0 (left) and 0 (right). A: 1-1"
    assert len(_dominoes(svg)) == 1


def test_a_long_line_continues_on_the_next_row_in_order() -> None:
    # Fourteen non-doubles, 0-1 1-2 2-3 ... lie lengthwise: ten fit in one row, four go on the
    # next, still left to right, and the ends are still the first and last halves (0 and 0).
    chain = [(i % 7, (i + 1) % 7) for i in range(14)]
    svg = line_svg(chain)
    rows = [float(rect.get("y", "0")) for g in _dominoes(svg) for rect in g.iter(f"{SVG}rect")]
    assert rows == [rows[0]] * 10 + [rows[10]] * 4
    assert rows[10] > rows[0]
    assert [g.get("data-tile") for g in _dominoes(svg)][:3] == ["0-1", "1-2", "2-3"]
    assert "open ends 0 (left) and 0 (right)" in _title(svg)


def _end_labels(svg: str) -> list[ET.Element]:
    return [t for t in _parse(svg).iter(f"{SVG}text") if t.get("class") == "end"]


def test_each_end_label_sits_by_its_tile_when_the_line_wraps() -> None:
    # Eleven non-doubles 0-1 1-2 ... 3-4 (ends 0 and 4): ten fill the first row (10 x 72 = 720
    # units), the eleventh lies alone at the start of the second, from x = 4 to 72. Under the
    # last row at the picture's right edge (x = 720) the right end's label would sit ten tiles
    # away from 3-4: it ends under that tile instead, at max(72, 4 + 100) = 104, the room the
    # label needs. The left end's tile is the first of the first row, so its label goes above
    # that row rather than under the last one.
    svg = line_svg([(i % 7, (i + 1) % 7) for i in range(11)])
    left, right = _end_labels(svg)
    assert (left.text, right.text) == ("◀ left end 0", "right end 4 ▶")
    tops = [float(rect.get("y", "0")) for g in _dominoes(svg) for rect in g.iter(f"{SVG}rect")]
    assert float(left.get("y", "0")) < tops[0]
    assert float(right.get("y", "0")) > tops[-1] + HALF
    assert float(right.get("x", "0")) == 104
    assert right.get("text-anchor") == "end"


def test_a_line_in_one_row_keeps_both_labels_under_it() -> None:
    # Two tiles, 144 units, in the 260-unit minimum width: both labels under the row, the right
    # one at the right edge, 260 - 4 = 256.
    left, right = _end_labels(line_svg([(6, 5), (5, 2)]))
    assert left.get("y") == right.get("y")
    assert float(right.get("x", "0")) == 256


def test_every_tile_carries_a_title_naming_it() -> None:
    # The line 6-5 5-5 of E002-1: each tile's own title names it low half first.
    svg = line_svg([(6, 5), (5, 5)])
    titles = [g.find(f"{SVG}title") for g in _dominoes(svg)]
    assert [t.text for t in titles if t is not None] == ["5-6", "5-5"]


def _stuck() -> State:
    # pagat-4x7 dealt in order: seat 0 holds the seven blanks and leads 0-0; seat 1 holds
    # 1-1 1-2 1-3 1-4 1-5 1-6 2-2, none with a blank, so it is stuck and discards 1-1.
    tiles = [Tile(a, b) for a in range(7) for b in range(a, 7)]
    hands = tuple(tuple(tiles[7 * seat : 7 * seat + 7]) for seat in range(4))
    state = new_hand(ruleset("pagat-4x7"), Deal(hands))
    return apply(apply(state, parse_move("lead 0-0"), 0), parse_move("discard 1-1"), 1)


def _captions(svg: str) -> list[str]:
    return [t.text or "" for t in _parse(svg).iter(f"{SVG}text") if t.get("class") == "caption"]


def test_a_revealed_position_writes_every_tile_and_lays_discards_face_up() -> None:
    # 28 tiles: 0-0 in the line, 1-1 discarded, 26 in hands. Revealed, all 28 are drawn face
    # up with their halves written under them; 1-1 is marked as a discard, after the word.
    svg = state_svg(_stuck(), reveal=True)
    assert len(_dominoes(svg)) == 28
    assert 'data-face-down="1"' not in svg
    assert sorted(_captions(svg)) == sorted(str(t) for t in _all_tiles())
    discards = [g for g in _dominoes(svg) if "discard" in (g.get("class") or "").split()]
    assert [g.get("data-tile") for g in discards] == ["1-1"]
    assert ">discarded</text>" in svg
    # At the table the same discard lies face down, and nothing is written under the tiles.
    plain = state_svg(_stuck())
    assert plain.count('data-face-down="1"') == 1
    assert _captions(plain) == []


def _all_tiles() -> list[Tile]:
    return [Tile(a, b) for a in range(7) for b in range(a, 7)]


def test_the_tiles_at_issue_are_outlined() -> None:
    # 1-1 (a discard) and 0-0 (in the line) marked: each gets an outline, no other tile does.
    svg = state_svg(_stuck(), reveal=True, marked=[Tile(1, 1), Tile(0, 0)])
    marked = [
        str(g.get("data-tile")) for g in _dominoes(svg) if "at-issue" in str(g.get("class")).split()
    ]
    assert sorted(marked) == ["0-0", "1-1"]
    outlines = [r for r in _parse(svg).iter(f"{SVG}rect") if r.get("class") == "issue"]
    assert len(outlines) == 2


def test_the_word_over_a_few_discards_keeps_clear_of_the_hand_beside_it() -> None:
    # After _stuck, seat 2 (2-3 2-4 2-5 2-6 3-3 3-4 3-5, no blank) is stuck too and discards
    # 2-3. Seats 1 and 2 then each hold six tiles (6 x (34 + 4) = 228 wide) and, 12 further,
    # at 240, the word "discarded" over one discard: the tile ends at 278, but the word takes
    # 9 x 8 = 72, to 312. The four hands sit two to a row, each column 312 + 4 x 4 = 328
    # wide, the first at x = 4: seats 1 and 3 at 4 + 328 = 332.
    state = apply(_stuck(), parse_move("discard 2-3"), 2)
    svg = state_svg(state, reveal=True)
    columns = re.findall(r'<g transform="translate\(([\d.]+),[\d.]+\)">', svg)
    assert columns == ["4", "332", "4", "332"]
    assert svg.count('<text class="discards" x="240"') == 2


def test_a_caption_reads_as_the_tile_lies_in_the_line() -> None:
    rules = ruleset("domino4d")
    hands = tuple(
        tuple(parse_tiles(text))
        for text in (
            "0-0 2-3 2-4 2-5 2-6 3-3 3-4",
            "0-1 1-1 1-2 1-3 1-4 1-5 1-6",
            "0-2 0-3 0-4 0-5 0-6 2-2 3-5",
            "3-6 4-4 4-5 4-6 5-5 5-6 6-6",
        )
    )
    # domino4d: seat 0 holds 0-0 and leads it; seat 1 lays 1-0 on the left, so the line
    # reads 1-0 0-0 and the caption of that tile is 1-0.
    state = apply(new_hand(rules, Deal(hands)), parse_move("lead 0-0"), 0)
    state = apply(state, parse_move("place 0-1 left"), 1)
    assert state.line == ((1, 0), (0, 0))
    assert _captions(state_svg(state, reveal=True))[:2] == ["1-0", "0-0"]
