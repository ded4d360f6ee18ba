"""The sources' worked examples of counting, winners and settlements, each reproduced.

Sources by key (rules-research 6.2 and 6.3): PAGAT-ID (pagat's three tie-break examples and
the 0-0 = 25 rule), CHIPS (the chips settlement), DOMINO4D (11 against 14), BLOCK100
(difference points, on the CHIPS totals). Where a source gives only the tiles left, the test
also scores a complete blocked position holding exactly those tiles; its set-aside tiles and
ends are chosen so that the rest of the set can lie in one line and nobody can place (the
position checks this itself), and they change no count.
"""

from __future__ import annotations

from gaple.presets import ruleset
from gaple.result import (
    Position,
    count_tiles,
    make_position,
    rank_key,
    rank_seats,
    score_position,
    settle_counts,
)
from gaple.rules import Settlement
from gaple.state import Ending
from gaple.tiles import Tile, parse_tiles

A, B, C, D = 0, 1, 2, 3


def blocked_4x6(
    hands: list[str],
    set_aside: str,
    ends: tuple[int, int],
    *,
    variant: str = "pagat-4x6",
    discards: list[str] | None = None,
    **options: object,
) -> Position:
    """A blocked pagat 4 x 6 position: seats A..D hold ``hands``; the line is the rest."""
    return make_position(
        ruleset(variant, **options),
        hands=[parse_tiles(h) for h in hands],
        discards=None if discards is None else [parse_tiles(d) for d in discards],
        set_aside=parse_tiles(set_aside),
        ends=ends,
        ending=Ending.BLOCKED,
        blocker=A,
    )


# --- E-count and E-00 (PAGAT-ID, CHIPS) ------------------------------------------------------


def test_e_count_pagat_id_tiles_count_their_pips() -> None:
    # PAGAT-ID: [4-4] counts 8 and [0-3] counts 3.
    assert count_tiles([Tile(4, 4)]) == 8
    assert count_tiles([Tile(0, 3)]) == 3


def test_e_00_pagat_id_double_blank_with_another_blank_counts_nothing() -> None:
    # PAGAT-ID under the 25 rule: [0-0] with [0-5] unplayed counts only the 5 of [0-5].
    assert count_tiles(parse_tiles("0-0 0-5"), double_blank_25=True) == 5


def test_e_00_companions_double_blank_alone_and_with_a_blankless_tile() -> None:
    # Constructed (research 6.2): [0-0] alone is the only blank, so 25; with [1-2], 25 + 3.
    assert count_tiles([Tile(0, 0)], double_blank_25=True) == 25
    assert count_tiles(parse_tiles("0-0 1-2"), double_blank_25=True) == 28
    # Without the option 0-0 is worth its pips, 0.
    assert count_tiles(parse_tiles("0-0 1-2")) == 3


def test_e_00_in_a_blocked_hand() -> None:
    # A {0-0, 0-5} = 0 + 5 = 5 under the option; B {6-6} 12; C {3-4} 7; D {1-1} 2.
    # D wins with 2.
    pos = blocked_4x6(["0-0 0-5", "6-6", "3-4", "1-1"], "0-1 1-3 4-5", (2, 2), double_blank_25=True)
    result = score_position(pos)
    assert result.counts == (5, 12, 7, 2)
    assert result.winner == D
    assert any(n.rule_id == "score.double-blank-25" for n in result.notes)


def test_e_00_the_other_blank_may_be_a_discard() -> None:
    # Decisions point 13 counts over hand + discards: A keeps 0-0 and discarded 0-5, so 0-0 is
    # not A's only blank and counts 0: A = 5, as when both were in hand.
    pos = blocked_4x6(
        ["0-0", "6-6", "3-4", "1-1"],
        "0-1 1-3 4-5",
        (2, 2),
        discards=["0-5", "", "", ""],
        double_blank_25=True,
    )
    assert score_position(pos).counts == (5, 12, 7, 2)


def test_e_00_double_blank_alone_counts_25_and_can_lose() -> None:
    # A {0-0} alone counts 25 under the option, so B {6-6} = 12 is not beaten by A;
    # D {1-1} = 2 wins. Without the option A counts 0 and wins.
    hands = ["0-0", "6-6", "3-4", "1-1"]
    with_option = score_position(blocked_4x6(hands, "0-1 0-3 1-4", (2, 2), double_blank_25=True))
    assert with_option.counts == (25, 12, 7, 2)
    assert with_option.ranking == (D, C, B, A)
    without = score_position(blocked_4x6(hands, "0-1 0-3 1-4", (2, 2)))
    assert without.counts == (0, 12, 7, 2)
    assert without.winner == A


# --- PAGAT-ID's three tie-break examples (research 6.2, E001-1..3) ---------------------------


def test_e001_1_pagat_id_lowest_count_wins() -> None:
    # A [1-1][1-3] = 2 + 4 = 6; B [1-5] = 6; C [2-4] = 6; D [2-3] = 5: D wins outright.
    hands = ["1-1 1-3", "1-5", "2-4", "2-3"]
    sets = [parse_tiles(h) for h in hands]
    assert [count_tiles(s) for s in sets] == [6, 6, 6, 5]
    assert rank_seats(sets)[0] == D
    result = score_position(blocked_4x6(hands, "0-4 0-5 6-6", (0, 0)))
    assert result.counts == (6, 6, 6, 5)
    assert result.winner == D


def test_e001_2_pagat_id_lowest_tile_breaks_a_tie() -> None:
    # All four count 6. Lowest tiles: A [1-1] (2 pips), B [0-6] (6), C [2-4] (6), D [3-3] (6):
    # A wins on the second step. Among B, C, D (all 6 pips) the lowest end orders them: 0, 2, 3.
    hands = ["1-1 1-3", "0-6", "2-4", "3-3"]
    result = score_position(blocked_4x6(hands, "0-1 2-3 4-6", (5, 5)))
    assert result.counts == (6, 6, 6, 6)
    assert result.winner == A
    assert result.ranking == (A, B, C, D)


def test_e001_3_pagat_id_lowest_end_of_the_lowest_tile_breaks_the_next_tie() -> None:
    # All count 10: A [2-2][1-5] = 4 + 6; B [1-3][3-3] = 4 + 6; C [6-4] = 10; D [0-5][2-3].
    # Lowest tiles by pips: A [2-2] (4), B [1-3] (4), C [4-6] (10), D [0-5] (5). A and B tie on
    # 4 pips; B's lowest tile has low half 1 < A's 2, so B wins "because of [1-3]". A's [1-5] also
    # has a 1, which must not count: only the lowest tile's low half does (research C13).
    sets = [parse_tiles(h) for h in ("2-2 1-5", "1-3 3-3", "6-4", "0-5 2-3")]
    assert rank_key(sets[B]) < rank_key(sets[A]) < rank_key(sets[D]) < rank_key(sets[C])
    # As a blocked hand: D's [0-5] was discarded face down, so it still counts and still takes
    # part in the tie-breaks (decisions point 14: the scoring set is hand + discards).
    pos = blocked_4x6(
        ["2-2 1-5", "1-3 3-3", "4-6", "2-3"],
        "0-0 0-4 2-6",
        (0, 0),
        discards=["", "", "", "0-5"],
    )
    result = score_position(pos)
    assert result.counts == (10, 10, 10, 10)
    assert result.winner == B
    assert result.ranking == (B, A, D, C)


# --- DOMINO4D: 11 against 14 (research 6.2, E002-4) ------------------------------------------


def test_e002_4_domino4d_eleven_beats_fourteen() -> None:
    # DOMINO4D: one player has {4-4, 0-3} = 8 + 3 = 11, another {6-2, 5-1} = 8 + 6 = 14; the
    # 11 is lower. The source leaves out the two other hands, so only this pair is compared
    # (no complete position: between them the two hands show every number 0..6, so no line
    # end could leave all four hands stuck).
    eleven, fourteen = parse_tiles("4-4 0-3"), parse_tiles("6-2 5-1")
    assert count_tiles(eleven) == 11
    assert count_tiles(fourteen) == 14
    assert rank_seats([fourteen, eleven]) == (1, 0)


# --- CHIPS and BLOCK100 on the same totals (research 6.3) ------------------------------------

CHIPS_HANDS = ["6-6", "2-3", "5-6", "3-4"]
"""A 12, B 5, C 11, D 7: tiles chosen to give the CHIPS example's totals."""


def test_e004_chips_winner_collects_each_difference() -> None:
    # CHIPS: A 12, B 5, C 11, D 7. B collects 12 - 5 = 7 from A, 11 - 5 = 6 from C and
    # 7 - 5 = 2 from D: 15 in all, and the table stays zero-sum.
    assert settle_counts(Settlement.CHIPS, [12, 5, 11, 7], winner=B) == (-7, 15, -6, -2)
    result = score_position(blocked_4x6(CHIPS_HANDS, "0-0 2-5 4-6", (0, 0), variant="chips"))
    assert result.counts == (12, 5, 11, 7)
    assert result.winner == B
    assert result.points == (-7, 15, -6, -2)


def test_e003_diff_block100_winner_scores_the_sum_of_differences() -> None:
    # BLOCK100 read as winner-only (research C15): on the CHIPS totals B scores
    # 7 + 6 + 2 = 15 towards 100; nobody else scores.
    assert settle_counts(Settlement.DIFFERENCE, [12, 5, 11, 7], winner=B) == (0, 15, 0, 0)
    result = score_position(blocked_4x6(CHIPS_HANDS, "0-0 2-5 4-6", (0, 0), variant="block100"))
    assert result.points == (0, 15, 0, 0)


def test_e004_cumulative_each_seat_adds_its_own_count() -> None:
    # CHIPS' cumulative mode: every seat adds its own count, the winner's too.
    pos = blocked_4x6(
        CHIPS_HANDS, "0-0 2-5 4-6", (0, 0), variant="chips", settlement="cumulative", match_hands=2
    )
    assert score_position(pos).points == (12, 5, 11, 7)


def test_per_hand_settlement_names_the_winner_and_scores_nothing() -> None:
    # PAGAT, CHIPS: some play only to find each hand's winner.
    result = score_position(blocked_4x6(CHIPS_HANDS, "0-0 2-5 4-6", (0, 0)))
    assert result.winner == B
    assert result.points == (0, 0, 0, 0)


def test_teams_pagat_hand_goes_to_the_winners_team() -> None:
    # PAGAT via CHIPS: the hand goes to the team of the winning player, even when that
    # player's partner holds more than the other team's players. A {3-4} 7, B {2-3} 5,
    # C {5-6} 11, D {6-6} 12: B wins with 5, so team 1 (seats 1 and 3) takes the hand although
    # B's partner D has 12, more than A (7) or C (11).
    result = score_position(
        blocked_4x6(["3-4", "2-3", "5-6", "6-6"], "0-0 2-5 4-6", (0, 0), partnership=True)
    )
    assert result.counts == (7, 5, 11, 12)
    assert result.winner == B
    assert result.winning_team == 1
    assert result.points == (0, 0)
