"""The reasons a result gives: the rule each refused position names, and the exact text of the
explanation notes, the counting and ranking helpers' documented values, and the text form.

Every expected value is worked out by hand in the comment beside it. The base position is
PAGAT-ID's first tie-break example as a blocked 4 x 6 hand (as in tests/test_result.py): N
{1-1, 1-3} = 6, E {1-5} = 6, S {2-4} = 6, W {2-3} = 5; 0-4, 0-5 and 6-6 set aside; the other
19 tiles in the line, ends 0 and 0 (every number shows an even number of times there).
"""

from __future__ import annotations

from typing import Any

import pytest

from gaple.presets import ruleset
from gaple.result import (
    HandResult,
    InvalidPosition,
    count_tiles,
    ending_text,
    format_result,
    make_position,
    rank_key,
    rank_seats,
    score_position,
)
from gaple.rules import Settlement
from gaple.state import Ending
from gaple.tiles import Tile, parse_tiles

PAGAT_4X6 = ruleset("pagat-4x6")
BASE: dict[str, Any] = {
    "hands": ["1-1 1-3", "1-5", "2-4", "2-3"],
    "set_aside": "0-4 0-5 6-6",
    "ends": (0, 0),
    "ending": Ending.BLOCKED,
    "blocker": 0,
}
# E went out placing 1-5: 1-5 joins the line, so 1 and 5 show an odd number of times there,
# and the ends are 1 and 5.
E_OUT: dict[str, Any] = {
    **BASE,
    "hands": ["1-1 1-3", "", "2-4", "2-3"],
    "ends": (1, 5),
    "ending": Ending.OUT,
    "blocker": None,
    "out_seat": 1,
    "closing": Tile(1, 5),
}


def position(rules: Any = PAGAT_4X6, **changes: Any) -> Any:
    spec = {**BASE, **changes}
    for key in ("hands", "discards"):
        if isinstance(spec.get(key), list):
            spec[key] = [parse_tiles(h) if isinstance(h, str) else h for h in spec[key]]
    for key in ("set_aside", "line"):
        if isinstance(spec.get(key), str):
            spec[key] = parse_tiles(spec[key])
    return make_position(rules, **spec)


def result(rules: Any = PAGAT_4X6, **changes: Any) -> HandResult:
    return score_position(position(rules, **changes))


def notes(res: HandResult, rule_id: str) -> list[str]:
    return [n.text for n in res.notes if n.rule_id == rule_id]


# --- every refusal names its rule -------------------------------------------------------------

# E's 1-5 moved to a hand that keeps the line's parity: S holds 2-2 as well (two 2s off the
# line), so the line is the base line plus 1-5 minus 2-2, ends 1 and 5.
ONE_FIVE_IN_LINE = {"hands": ["1-1 1-3", "2-2", "2-4", "2-3"], "ends": (1, 5)}
# Every tile with a 5 off the line (0-5 aside, the others held): 5 cannot be an end.
NO_FIVE = {"hands": ["1-1 1-3 2-5", "1-5 3-5", "2-4 4-5", "2-3 5-5 5-6"], "ends": (0, 5)}


@pytest.mark.parametrize(
    ("changes", "rule_id", "why"),
    [
        # Three hands for four seats, and four hands with three discard lists.
        ({"hands": ["1-1 1-3", "1-5", "2-4"]}, "table.seats", "has 3 hands and 3 discard"),
        ({"discards": [(), (), ()]}, "table.seats", "has 4 hands and 3 discard lists"),
        # A tile outside the double-6 set, a tile twice, tiles missing from a given line.
        ({"hands": ["1-1 1-3", "1-5", "2-4", "2-3 7-7"]}, "tiles.set", "not in the double-6"),
        ({"hands": ["1-1 1-1", "1-5", "2-4", "2-3"]}, "tiles.set", "1-1 is also in"),
        ({"line": "0-0"}, "tiles.set", "tiles missing from the position"),
        # 4 x 6 deals 24 of 28 tiles: the starter is turned up, 3 are set aside, not 2.
        ({"set_aside": "0-4 0-5"}, "deal.starter", "set 3 tiles aside, the position has 2"),
        # N holds 2 and discarded 5: 7 tiles, more than the 6 dealt.
        (
            {"discards": ["0-1 0-2 0-3 0-6 1-2", "", "", ""]},
            "deal.sizes",
            "holds and discarded 7 tiles",
        ),
        ({"blocker": 4}, "table.seats", "blocker 4 is not a seat (0..3)"),
        # Ends 0 and 6 with every number even in the line: no chain ends there.
        ({"ends": (0, 6)}, "play.match-end", "cannot lie in one chain with ends 0 and 6"),
        (NO_FIVE, "play.match-end", "ends 0 and 5 must both be numbers shown"),
        # Going out: the seat, that it alone is empty, the closing tile in the line and on an end.
        ({**E_OUT, "out_seat": None}, "end.out", "needs out_seat"),
        ({**E_OUT, "out_seat": 3}, "end.out", "out_seat is 3, so exactly that seat"),
        ({**E_OUT, "closing": Tile(1, 1)}, "end.out", "closing tile 1-1 is not in the line"),
        ({**E_OUT, "closing": Tile(0, 0)}, "play.match-end", "0-0 shows neither end (1, 5)"),
        # Blocked: no out seat; nobody empty; nobody able to place (1-1 shows 1 but not 5).
        ({"out_seat": 1}, "end.blocked", "a blocked hand has no out_seat"),
        ({**ONE_FIVE_IN_LINE}, "end.blocked", "seat 0 can still place 1-1 on ends (1, 5)"),
    ],
)
def test_each_refused_position_names_its_rule(
    changes: dict[str, Any], rule_id: str, why: str
) -> None:
    with pytest.raises(InvalidPosition) as refused:
        position(**changes)
    assert refused.value.rule_id == rule_id
    assert why in refused.value.message


def test_a_discard_under_the_pass_option_is_refused_by_block_pass() -> None:
    # Under the pass option nobody discards, so N's discarded 0-1 cannot happen (N holds 3
    # tiles in all, within the 6 dealt).
    with pytest.raises(InvalidPosition) as refused:
        position(PAGAT_4X6.replace(blocked_action="pass"), discards=["0-1", "", "", ""])
    assert refused.value.rule_id == "block.pass"
    assert refused.value.message.startswith("seat 0 discarded 0-1, but under the pass option")


def test_a_blocked_hand_with_an_empty_seat_went_out() -> None:
    with pytest.raises(InvalidPosition) as refused:
        position(**{**E_OUT, "ending": Ending.BLOCKED, "out_seat": None, "closing": None})
    assert refused.value.rule_id == "end.out"
    assert (
        refused.value.message == "seat 1 has no tiles, so the hand ended by going out, not blocked"
    )


# --- the notes, word for word -----------------------------------------------------------------


def test_the_blocked_ending_note_names_the_blocker_or_says_unknown() -> None:
    assert notes(result(), "end.blocked") == [
        "blocked: no seat can place on ends 0 and 0; last tile placed by seat 0"
    ]
    assert notes(result(blocker=None), "end.blocked") == [
        "blocked: no seat can place on ends 0 and 0; last tile placed by unknown"
    ]


def test_going_out_by_placing_names_the_tile() -> None:
    assert notes(result(**E_OUT), "end.out") == ["seat 1 went out (placing 1-5, its last tile)"]


def test_going_out_by_a_discard_names_the_tile_when_the_history_knows_it() -> None:
    # E discarded 1-5 instead of placing it: 1-5 is not in the line, whose ends stay 0 and 0.
    # The position keeps E's discards sorted, so only a caller with the history can say which
    # was last; without it the text says so without a tile.
    out = position(**{**E_OUT, "discards": ["", "1-5", "", ""], "ends": (0, 0), "closing": None})
    assert ending_text(out, Tile(1, 5)) == "seat 1 went out (discarding 1-5, its last tile)"
    assert ending_text(out) == "seat 1 went out (discarding its last tile)"
    assert notes(score_position(out), "end.out") == [ending_text(out)]
    with pytest.raises(ValueError, match="only a hand that a seat went out of"):
        ending_text(position())


def test_count_and_rank_notes_of_an_empty_seat_and_of_tied_counts() -> None:
    res = result(**E_OUT)
    # N 1-1 (2) + 1-3 (4) = 6; E none; S 2-4 = 6; W 2-3 = 5.
    assert notes(res, "score.count") == [
        "seat 0 counts 6: 1-1 (2) + 1-3 (4)",
        "seat 1 counts 0: no tiles left",
        "seat 2 counts 6: 2-4 (6)",
        "seat 3 counts 5: 2-3 (5)",
    ]
    # E (0, empty) first, W (5), then the 6s by lowest tile: N's 1-1 (2 pips) before S's 2-4.
    assert notes(res, "score.rank") == [
        "ranking: seat 1 (0, no tiles); seat 3 (5, lowest tile 5 pips, low half 2); "
        "seat 0 (6, lowest tile 2 pips, low half 1); seat 2 (6, lowest tile 6 pips, low half 2)"
    ]


DOUBLE_BLANK_25 = PAGAT_4X6.replace(double_blank_25=True)


def test_the_double_blank_note_says_25_when_it_is_the_only_blank() -> None:
    # W holds 0-0 with 2-3 (moving 0-0 off the line keeps every count in it even): 25 + 5.
    res = result(DOUBLE_BLANK_25, **{**E_OUT, "hands": ["1-1 1-3", "", "2-4", "2-3 0-0"]})
    assert res.counts[3] == 30
    assert notes(res, "score.double-blank-25") == [
        "seat 3 holds 0-0 with no other blank, so it counts 25"
    ]
    # Without the option 0-0 counts its 0 pips and no note is written.
    plain = result(**{**E_OUT, "hands": ["1-1 1-3", "", "2-4", "2-3 0-0"]})
    assert plain.counts[3] == 5
    assert notes(plain, "score.double-blank-25") == []


def test_the_double_blank_note_says_0_beside_another_blank() -> None:
    # S holds 0-0 and 0-4 (0-4 comes off the aside, 4-4 goes there: the line loses two 0s and
    # two 4s): 2-4 6 + 0-4 4 + 0-0 0 = 10.
    hands = ["1-1 1-3", "", "2-4 0-0 0-4", "2-3"]
    res = result(DOUBLE_BLANK_25, **{**E_OUT, "hands": hands, "set_aside": "0-5 6-6 4-4"})
    assert res.counts[2] == 10
    assert notes(res, "score.double-blank-25") == [
        "seat 2 holds 0-0 with another blank, so it counts 0"
    ]


@pytest.mark.parametrize(
    ("settlement", "rule_id", "text"),
    [
        # W (5) wins the base position; N, E, S count 6 each: 1 from each, 3 in all.
        (
            Settlement.CHIPS,
            "settle.chips",
            "seat 3 collects 1 from seat 0 (6 - 5) + 1 from seat 1 (6 - 5) + 1 from seat 2 "
            "(6 - 5) = 3",
        ),
        (
            Settlement.DIFFERENCE,
            "settle.difference",
            "seat 3 scores 1 from seat 0 (6 - 5) + 1 from seat 1 (6 - 5) + 1 from seat 2 "
            "(6 - 5) = 3",
        ),
        (Settlement.PER_HAND, "settle.per-hand", "seat 3 wins the hand; nobody scores points"),
    ],
)
def test_the_settlement_note(settlement: Settlement, rule_id: str, text: str) -> None:
    res = result(PAGAT_4X6.replace(settlement=settlement))
    assert [(n.rule_id, n.text) for n in res.notes if n.rule_id.startswith("settle.")] == [
        (rule_id, text)
    ]


def test_the_cumulative_settlement_note() -> None:
    rules = PAGAT_4X6.replace(settlement=Settlement.CUMULATIVE, match_hands=5)
    res = result(rules)
    assert [(n.rule_id, n.text) for n in res.notes if n.rule_id.startswith("settle.")] == [
        (
            "settle.cumulative",
            "each seat adds its own count: seat 0 +6, seat 1 +6, seat 2 +6, seat 3 +5",
        )
    ]


# --- the counting helpers' documented values ---------------------------------------------------


def test_count_and_rank_without_the_option_count_double_blank_as_0() -> None:
    # The option is off unless asked for: 0-0 counts its 0 pips.
    assert count_tiles([Tile(0, 0)]) == 0
    # (count 0, non-empty 1, lowest tile 0-0: 0 pips, low end 0)
    assert rank_key([Tile(0, 0)]) == (0, 1, 0, 0)
    # 0-0 (0) ranks before 0-1 (1); with the option on it would count 25 and rank after.
    assert rank_seats([[Tile(0, 0)], [Tile(0, 1)]]) == (0, 1)
    assert rank_seats([[Tile(0, 0)], [Tile(0, 1)]], double_blank_25=True) == (1, 0)


def test_rank_key_of_an_empty_and_a_non_empty_set() -> None:
    # The docstring's slots: (count, 0 for an empty set else 1, pips of the lowest tile, its
    # low end); an empty set has no lowest tile, so those slots are 0 as well.
    assert rank_key([]) == (0, 0, 0, 0)
    # 1-2 and 3-3: count 3 + 6 = 9, lowest tile 1-2 (3 pips, low end 1).
    assert rank_key([Tile(3, 3), Tile(1, 2)]) == (9, 1, 3, 1)


def test_the_top_double_alone_is_its_own_lowest_tile() -> None:
    # 6-6 alone: count 12, and the lowest tile is 6-6 itself (12 pips, low end 6), the last
    # tile of the set in the order of (pips, low end).
    assert rank_key([Tile(6, 6)]) == (12, 1, 12, 6)


def test_rank_key_counts_tiles_beyond_the_double_six_set() -> None:
    # 9-9 (18 pips) and 0-7 (7): count 25; the lowest tile is 0-7 (7 pips, low end 0). The
    # tiles, not the rules, say which set they come from.
    assert rank_key([Tile(9, 9), Tile(0, 7)]) == (25, 1, 7, 0)


def test_a_scoring_set_holding_a_tile_twice_is_refused() -> None:
    # A scoring set is a set: the same tile twice is a mistake to report, never to count.
    with pytest.raises(ValueError, match="1-3 appears twice"):
        rank_key([Tile(1, 3), Tile(3, 1)])
    with pytest.raises(ValueError, match="appears twice"):
        count_tiles([Tile(0, 0), Tile(0, 0)], double_blank_25=True)


def test_each_seat_is_counted_from_its_hand_and_discards_as_one_bitset() -> None:
    # The base position with S having also discarded 3-3 (as in the chips example below). In
    # the double-six order 0-0 .. 0-6 are bits 0-6, 1-1 .. 1-6 bits 7-12, 2-2 .. 2-6 bits
    # 13-17, 3-3 .. 3-6 bits 18-21: N {1-1, 1-3} = bits 7, 9; E {1-5} = bit 11; S {2-4} and
    # 3-3 = bits 15, 18; W {2-3} = bit 14.
    position = make_position(
        PAGAT_4X6,
        hands=[parse_tiles(h) for h in BASE["hands"]],
        discards=[(), (), parse_tiles("3-3"), ()],
        set_aside=parse_tiles("0-4 0-5 6-6"),
        ends=(0, 0),
        ending=Ending.BLOCKED,
        blocker=0,
    )
    assert position.scoring_masks == (1 << 7 | 1 << 9, 1 << 11, 1 << 15 | 1 << 18, 1 << 14)


# --- the text form ---------------------------------------------------------------------------


def test_format_result_of_a_chips_hand_with_a_discard() -> None:
    # The base position, S having also discarded 3-3 (which takes two 3s off the line, so it
    # stays a chain): S counts 2-4 6 + 3-3 6 = 12.
    rules = PAGAT_4X6.replace(settlement=Settlement.CHIPS)
    res = result(rules, discards=["", "", "3-3", ""])
    # Counts N 6, E 6, S 12, W 5: W wins and collects 1 + 1 + 7 = 9.
    text = format_result(res)
    lines = text.splitlines()
    assert lines[:8] == [
        "ending: blocked",
        "seat  count  tiles",
        "   0      6  1-1 1-3",
        "   1      6  1-5",
        "   2     12  2-4  discarded: 3-3",
        "   3      5  2-3",
        "ranking: 3, 0, 1, 2",
        "winner: seat 3",
    ]
    assert lines[8] == "points (chips): seat 0 -1, seat 1 -1, seat 2 -7, seat 3 +9"
    assert lines[9] == "why:"


def test_format_result_of_an_empty_hand_shows_a_dash() -> None:
    lines = format_result(result(**E_OUT)).splitlines()
    assert lines[3] == "   1      0  -"
