"""SUWIKI partnership scoring: the constructed cases SU-X1..SU-X10 and every dead-double case.

SUWIKI has no numeric examples, so these are constructed (rules-research 6.4, decisions points
17-19). Seats N = 0, E = 1, S = 2, W = 3; N and S are pair 0, E and W pair 1; turn order
N, E, S, W. Each case is a complete finished position: the line is every tile not held (so
its tiles are not listed), and the position checks that the line can lie as one chain with
the given ends. The research table gives only the hands that count, so the partner of the
seat that went out (whose tiles never count) sometimes holds extra tiles to make the line
possible; where that was not enough the case says what was changed and why.
"""

from __future__ import annotations

import attrs
import pytest

from gaple.deal import Deal
from gaple.engine.scoring import position_fields
from gaple.presets import ruleset
from gaple.reference.equipment import table
from gaple.result import (
    HandResult,
    InvalidPosition,
    format_result,
    hand_result,
    make_position,
    score_position,
)
from gaple.rules import BlockedAction, ChallengeTie, Ruleset, Settlement, StakeBase
from gaple.simulate import random_hand
from gaple.state import Discard, Ending, new_hand
from gaple.tiles import Tile, parse_tiles, tile_set

N, E, S, W = 0, 1, 2, 3
SUWIKI = ruleset("suwiki-partnership")
SUWIKI_DISCARD = attrs.evolve(SUWIKI, blocked_action=BlockedAction.DISCARD)


def went_out(
    hands: list[str],
    ends: tuple[int, int],
    closing: str,
    *,
    rules: Ruleset = SUWIKI,
    discards: list[str] | None = None,
    set_aside: str = "",
) -> HandResult:
    """N went out placing ``closing``; ``hands`` are N, E, S, W."""
    pos = make_position(
        rules,
        hands=[parse_tiles(h) for h in hands],
        discards=None if discards is None else [parse_tiles(d) for d in discards],
        set_aside=parse_tiles(set_aside),
        ends=ends,
        ending=Ending.OUT,
        out_seat=N,
        closing=Tile.parse(closing),
    )
    return score_position(pos)


def blocked(
    hands: list[str],
    ends: tuple[int, int],
    *,
    rules: Ruleset = SUWIKI,
    set_aside: str = "",
) -> HandResult:
    """E placed the last tile and nobody can place; ``hands`` are N, E, S, W."""
    pos = make_position(
        rules,
        hands=[parse_tiles(h) for h in hands],
        set_aside=parse_tiles(set_aside),
        ends=ends,
        ending=Ending.BLOCKED,
        blocker=E,
    )
    return score_position(pos)


def rules_of(result: HandResult) -> list[str]:
    return [note.rule_id for note in result.notes]


def note_texts(result: HandResult, rule_id: str) -> str:
    return " | ".join(n.text for n in result.notes if n.rule_id == rule_id)


# 4 x 6 partnership (three tiles set aside): needed where the research's totals are odd.
# In a 4 x 7 blocked hand every tile showing an end number is in the line, so that number
# shows an even number of times there and both ends must show it; then every number shows an
# even number of times, the line's pips are even, and so are the 168 - line pips left in the
# hands. SU-X7 (49) and SU-X8 (55) are odd, so they are played with 4 x 6 (set-aside tiles
# break the parity), which changes nothing in the challenge.
SUWIKI_4X6 = ruleset("suwiki-partnership", hand_size=6)


# --- SU-X1..SU-X10 ---------------------------------------------------------------------------


def test_su_x1_winners_score_the_opponents_pips() -> None:
    # N goes out with [2-3]; E {5-4, 2-2} = 9 + 4 = 13; W {6-1} = 7; S (N's partner) does not
    # count. NS + 20.
    result = went_out(["", "4-5 2-2", "3-3 1-2 4-6", "1-6"], (2, 5), "2-3")
    assert result.counts[E] == 13
    assert result.counts[W] == 7
    assert result.points == (20, 0)
    assert result.winner == N
    assert result.winning_team == 0


def test_su_x2_dead_six_six_counts_100() -> None:
    # E {6-6, 0-3}, W {4-4}; ends (3, 5); all of 0-6..5-6 in the line: no end shows 6 and every
    # other six is placed, so 6-6 is dead and counts 100 instead of 12: E 100 + 3, W 8:
    # NS + 111. (The research writes that N went out with [1-2], but a tile placed last shows
    # one of the ends, and 1-2 shows neither 3 nor 5; N's last tile is 1-3 here.)
    hands = ["", "6-6 0-3", "0-5", "4-4"]
    result = went_out(hands, (3, 5), "1-3")
    assert result.points == (111, 0)
    assert "6-6 of seat 1 is dead" in note_texts(result, "partner.dead-double")
    # The debit option also takes the dead 100 from E and W's pair.
    debit = went_out(hands, (3, 5), "1-3", rules=SUWIKI.replace(dead_double_debit=True))
    assert debit.points == (111, -100)


def test_su_x3_six_six_not_dead_while_a_six_is_in_a_hand() -> None:
    # As X2 but W also holds [5-6]: not every six is in the line, so 6-6 counts 12:
    # E 12 + 3, W 8 + 11: NS + 34. (Parity: with 5-6 off the line the line shows 6 an odd
    # number of times, so 6 would have to be an end; for ends (3, 5) a second six must be off
    # the line too, and S, whose tiles do not count, holds 0-6.)
    result = went_out(["", "6-6 0-3", "0-6", "4-4 5-6"], (3, 5), "1-3")
    assert result.points == (34, 0)
    assert "not dead" in note_texts(result, "partner.dead-double")


def test_su_x4_closing_with_six_six_earns_100() -> None:
    # N goes out placing [6-6] last; E {1-4} = 5; W {2-5, 0-3} = 7 + 3 = 10: NS 15 + 100.
    result = went_out(["", "1-4", "0-1 2-3 4-5", "2-5 0-3"], (6, 6), "6-6")
    assert result.points == (115, 0)
    assert "partner.closing-double" in rules_of(result)


def test_su_x5_closing_with_double_blank_earns_50() -> None:
    # N goes out placing [0-0] last (the 0-0 rule is on in the preset); E {1-4} = 5;
    # W {1-2, 2-5} = 3 + 7 = 10: NS 15 + 50.
    result = went_out(["", "1-4", "0-4", "1-2 2-5"], (0, 5), "0-0")
    assert result.points == (65, 0)


def test_su_x6_dead_double_blank_counts_50() -> None:
    # W {0-0, 3-4}; ends (2, 5); all of 0-1..0-6 in the line: 0-0 is dead and counts 50
    # instead of 0, so W = 57; E {5-5} = 10: NS + 67.
    result = went_out(["", "5-5", "2-3 4-5", "0-0 3-4"], (2, 5), "1-2")
    assert result.points == (67, 0)


def test_su_x7_blocker_strictly_lower_scores_all_four_hands() -> None:
    # E blocked: E {4-4, 0-0, 0-1} = 9 against S {1-4, 1-1, 3-4} = 14: 9 < 14, so E and W
    # score all four hands: N {0-6, 4-6, 0-4} 20 + E 9 + S 14 + W {3-3} 6 = 49.
    result = blocked(
        ["0-6 4-6 0-4", "4-4 0-0 0-1", "1-4 1-1 3-4", "3-3"],
        (5, 2),
        rules=SUWIKI_4X6,
        set_aside="1-2 0-3 1-5",
    )
    assert result.counts == (20, 9, 14, 6)
    assert result.points == (0, 49)
    assert result.winner == E
    assert not result.replay


def test_su_x8_blocker_not_lower_neunggar_cadas_pays_double() -> None:
    # E {3-5, 2-2, 1-2} = 15 against S {2-5, 2-3, 1-1} = 14: not lower, so N and S score
    # twice all four hands: 2 x (N {1-4, 4-4, 3-4} 20 + 15 + 14 + W {3-3} 6) = 2 x 55 = 110.
    result = blocked(
        ["1-4 4-4 3-4", "3-5 2-2 1-2", "2-5 2-3 1-1", "3-3"],
        (0, 6),
        rules=SUWIKI_4X6,
        set_aside="1-3 0-1 2-6",
    )
    assert result.counts == (20, 15, 14, 6)
    assert result.points == (110, 0)
    assert result.winner == S


X9_HANDS = ["0-5 2-3 4-4 0-2", "2-4 1-2 1-3 0-1", "5-5 0-4", "0-0 1-5"]
"""N 5 + 5 + 8 + 2 = 20, E 6 + 3 + 4 + 1 = 14, S 10 + 4 = 14, W 0 + 6 = 6; 54 in all."""


def test_su_x9_tied_challenge_is_replayed_by_default() -> None:
    # E 14 against S 14: a tie. REPLAY (default): nobody scores, no winner, deal again. The
    # engine's quiet fields (gaple check's fast path) say the same.
    explained = blocked(X9_HANDS, (6, 6))
    for result in (explained, position_fields(explained.position)):
        assert result.counts == (20, 14, 14, 6)
        assert result.replay
        assert result.winner is None
        assert result.winning_team is None
        assert result.points == (0, 0)


def test_su_x9_tied_challenge_lost_by_the_blocker() -> None:
    # BLOCKER_LOSES: a tie is not "smaller", so N and S score 2 x 54 = 108.
    rules = SUWIKI.replace(challenge_tie=ChallengeTie.BLOCKER_LOSES)
    result = blocked(X9_HANDS, (6, 6), rules=rules)
    assert result.points == (108, 0)
    assert result.winner == S
    assert not result.replay


def test_su_x10_six_six_never_dead_in_a_blocked_hand() -> None:
    # W {6-6, 1-1}: no end shows 6 and every other six is in the line, but the hand is
    # blocked, so 6-6 counts 12 and W 14. E {1-5, 4-5} = 15 < S {2-4, 5-5, 2-3} = 21: E and W
    # score N {1-3} 4 + 15 + 21 + 14 = 54.
    result = blocked(["1-3", "1-5 4-5", "2-4 5-5 2-3", "6-6 1-1"], (0, 0))
    assert result.counts[W] == 14
    assert result.points == (0, 54)
    assert "never dead in a blocked hand" in note_texts(result, "partner.dead-double")


# --- every other condition of a dead double --------------------------------------------------


def test_dead_double_not_dead_when_an_open_end_shows_its_number() -> None:
    # E {6-6, 1-2}, W {3-4}; every other six is in the line but both ends show 6 (6-6 could
    # still be placed), so it counts 12: E 15 + W 7 = 22.
    result = went_out(["", "6-6 1-2", "1-3 2-4", "3-4"], (6, 6), "0-6")
    assert result.points == (22, 0)
    assert "an open end shows 6" in note_texts(result, "partner.dead-double")


def test_dead_double_not_dead_when_a_six_is_in_the_winners_hand() -> None:
    # The sixes 2-6 and 3-6 are in S's hand (the winning side's): not every six is in the
    # line, so E's 6-6 counts 12: 15 + 7 = 22.
    result = went_out(["", "6-6 1-2", "2-6 3-6 1-4", "3-4"], (1, 1), "0-1")
    assert result.points == (22, 0)
    assert "2-6 is in seat 2's hand" in note_texts(result, "partner.dead-double")


def test_dead_double_not_dead_when_a_six_was_discarded() -> None:
    # W discarded 4-6 and 5-6 face down (so the table plays SUWIKI with the discard option:
    # under its pass rule nobody discards): they are not in the line, so 6-6 counts 12.
    # E 12 + 3 = 15; W 3-4 (7) + 4-6 (10) + 5-6 (11) = 28: 43.
    result = went_out(
        ["", "6-6 1-2", "1-3 2-5", "3-4"],
        (1, 1),
        "0-1",
        discards=["", "", "", "4-6 5-6"],
        rules=SUWIKI_DISCARD,
    )
    assert result.counts[W] == 28
    assert result.points == (43, 0)
    assert "4-6 is discarded by seat 3" in note_texts(result, "partner.dead-double")


def test_dead_double_not_dead_when_a_six_was_never_dealt() -> None:
    # 4 x 6 partnership: 2-6 and 4-6 stayed face down, never in the line, so every other six
    # is not in the line (read literally) and 6-6 counts 12: E 15 + W 7 = 22.
    result = went_out(
        ["", "6-6 1-2", "1-3", "3-4"], (1, 1), "0-1", rules=SUWIKI_4X6, set_aside="2-6 4-6 0-0"
    )
    assert result.points == (22, 0)
    assert "set aside" in note_texts(result, "partner.dead-double")


def test_dead_double_not_dead_when_the_holders_partner_went_out() -> None:
    # S holds 6-6 with every other six in the line and no end showing 6, but S's partner N
    # went out: S's tiles do not count at all and nothing is dead. E {1-2} 3 + W {3-4} 7.
    result = went_out(["", "1-2", "6-6 1-3 2-4", "3-4"], (1, 1), "0-1")
    assert result.points == (10, 0)
    assert "its own pair went out" in note_texts(result, "partner.dead-double")


def test_dead_double_discarded_by_its_holder_is_not_dead() -> None:
    # Under the discard house rule (SUWIKI's 'nutup sakartu') E's face-down 6-6 counts its 12
    # pips with E's remainder, but a double dies only while still in a hand of the losing pair
    # (C20), as a discarded other six keeps it alive in the test above: every other six in
    # the line and no end showing 6 do not make it dead. E 12 + 3 = 15, W 7: 22.
    rules = SUWIKI.replace(blocked_action="discard")
    result = went_out(
        ["", "1-2", "1-3 2-4", "3-4"], (1, 1), "0-1", rules=rules, discards=["", "6-6", "", ""]
    )
    assert result.counts[E] == 15
    assert result.points == (22, 0)
    assert "6-6 discarded by seat 1 is not dead" in note_texts(result, "partner.dead-double")
    # The same 6-6 still in E's hand is dead: E 100 + 3, W 7: 110.
    in_hand = went_out(["", "6-6 1-2", "1-3 2-4", "3-4"], (1, 1), "0-1", rules=rules)
    assert in_hand.points == (110, 0)


def test_discarded_double_blank_is_not_dead_either() -> None:
    # W discarded 0-0 face down; every other blank is in the line and the ends are 5 and 5:
    # in W's hand it would count 50, discarded it counts its 0 pips. E 1-2 (3) + W 3-4 (7) +
    # 0-0 (0) = 10.
    rules = SUWIKI.replace(blocked_action="discard")
    result = went_out(
        ["", "1-2", "1-3 2-4", "3-4"], (5, 5), "0-5", rules=rules, discards=["", "", "", "0-0"]
    )
    assert result.points == (10, 0)


def test_dead_doubles_both_at_once_and_the_debit() -> None:
    # E {6-6, 1-2}, W {0-0, 3-4}; ends (5, 5); every six and every blank is in the line: both
    # are dead. E 100 + 3, W 50 + 7: 160. With the debit, E and W also lose 100 + 50.
    hands = ["", "6-6 1-2", "1-3 2-4", "0-0 3-4"]
    assert went_out(hands, (5, 5), "0-5").points == (160, 0)
    debit = went_out(hands, (5, 5), "0-5", rules=SUWIKI.replace(dead_double_debit=True))
    assert debit.points == (160, -150)


def test_dead_double_values_off() -> None:
    # With the dead/closing values at 0 (off), X2's 6-6 counts 12: 12 + 3 + 8 = 23.
    rules = SUWIKI.replace(top_double_bonus=0, blank_double_bonus=0)
    assert went_out(["", "6-6 0-3", "0-5", "4-4"], (3, 5), "1-3", rules=rules).points == (23, 0)
    # and X4's closing 6-6 earns nothing: 5 + 10.
    assert went_out(["", "1-4", "0-1 2-3 4-5", "2-5 0-3"], (6, 6), "6-6", rules=rules).points == (
        15,
        0,
    )


def test_dead_double_blank_replaces_its_25() -> None:
    # X6 under the double-blank-25 count: W's 0-0 would count 25 (no other blank), but it is
    # dead and counts 50 instead, not 25 + 50: W 57, E 10, NS 67 as before.
    rules = SUWIKI.replace(double_blank_25=True)
    result = went_out(["", "5-5", "2-3 4-5", "0-0 3-4"], (2, 5), "1-2", rules=rules)
    assert result.counts[W] == 32
    assert result.points == (67, 0)


def test_closing_with_another_double_earns_nothing_by_default() -> None:
    # N goes out placing 3-3: E {1-4} 5 + W {2-5, 0-3} 10 = 15, no bonus.
    hands = ["", "1-4", "0-1 2-4", "2-5 0-3"]
    assert went_out(hands, (3, 5), "3-3").points == (15, 0)


def test_closing_with_any_double_house_rule() -> None:
    # SUWIKI's house rule: closing with any double earns the 6-6 bonus: 15 + 100.
    rules = SUWIKI.replace(closing_any_double=True)
    hands = ["", "1-4", "0-1 2-4", "2-5 0-3"]
    assert went_out(hands, (3, 5), "3-3", rules=rules).points == (115, 0)
    # 0-0 too is 'any double' and earns the 6-6 bonus (100), not its own 50: X5 gives 115.
    assert went_out(["", "1-4", "0-4", "1-2 2-5"], (0, 5), "0-0", rules=rules).points == (115, 0)


# --- challenge stakes (LAMPUNG) and bad input ------------------------------------------------


LAMPUNG_STAKES = SUWIKI_4X6.replace(
    challenge_win_base=StakeBase.OTHER_PAIR,
    challenge_win_multiplier=2,
    challenge_loss_base=StakeBase.BLOCKER_PAIR,
    challenge_loss_multiplier=3,
)


def test_lampung_stakes_win_pays_twice_the_other_pair() -> None:
    # X7 with LAMPUNG's stakes: E (9) wins; E and W score 2 x (N 20 + S 14) = 68.
    result = blocked(
        ["0-6 4-6 0-4", "4-4 0-0 0-1", "1-4 1-1 3-4", "3-3"],
        (5, 2),
        rules=LAMPUNG_STAKES,
        set_aside="1-2 0-3 1-5",
    )
    assert result.points == (0, 68)


def test_lampung_stakes_loss_pays_three_times_the_blockers_pair() -> None:
    # X8 with LAMPUNG's stakes: E (15) loses to S (14); N and S score 3 x (E 15 + W 6) = 63.
    result = blocked(
        ["1-4 4-4 3-4", "3-5 2-2 1-2", "2-5 2-3 1-1", "3-3"],
        (0, 6),
        rules=LAMPUNG_STAKES,
        set_aside="1-3 0-1 2-6",
    )
    assert result.points == (63, 0)


def test_blocked_partnership_hand_needs_its_blocker() -> None:
    with pytest.raises(InvalidPosition, match="needs the blocker") as refused:
        make_position(
            SUWIKI,
            hands=[parse_tiles(h) for h in X9_HANDS],
            ends=(6, 6),
            ending=Ending.BLOCKED,
        )
    # The challenge is between the blocker and the next seat: without it there is none.
    assert refused.value.rule_id == "partner.challenge"


def test_a_starter_that_blocks_at_once_makes_the_seat_before_the_first_seat_the_blocker() -> None:
    # Reading (no source covers it): with one tile each, 23 tiles are set aside, so the turned-
    # up 6-6 can block the hand before anyone acts (every other six is set aside); the seat
    # before the designated first seat counts as the blocker, as if it had turned the starter
    # up. First seat 2, so the blocker is seat 1, holding 0-2 (2), against seat 2, holding 1-2
    # (3): strictly lower, so the blocker's pair (seats 1 and 3) scores all four hands,
    # 1 + 2 + 3 + 3 = 9.
    rules = Ruleset(
        players=4,
        hand_size=1,
        partnership=True,
        settlement=Settlement.PARTNERSHIP,
        blocked_action=BlockedAction.PASS,
    )
    hands = parse_tiles("0-1 0-2 1-2 0-3")
    starter = Tile(6, 6)
    aside = [t for t in tile_set(6).tiles if t not in hands and t != starter]
    deal = Deal(hands=[[t] for t in hands], starter=starter, set_aside=aside, first_seat=2)
    state = new_hand(rules, deal)
    assert state.ending is Ending.BLOCKED
    assert state.history == ()
    result = hand_result(state)
    assert result.winner == 1
    assert result.points == (0, 9)
    # 4 seats x 1 tile is no sourced deal, and the result labels this reading as unsourced.
    label = note_texts(result, "deal.unsourced")
    assert "seat 1 counts as the blocker, a reading only such deals reach (C4)" in label


# --- going out by a discard (poldan under the discard house rule) -----------------------------


def test_going_out_by_a_discard_is_poldan() -> None:
    # Under the discard house rule N lays its last tile, 6-6, face down: N's hand is empty, so
    # N has gone out (poldan) and N-S score the opponents' pips, E 2-3 (5) + W 3-4 (7) = 12.
    # No closing bonus: 6-6 was not laid. N's own discard is not scored (its pair went out).
    rules = SUWIKI.replace(blocked_action="discard")
    pos = make_position(
        rules,
        hands=[(), parse_tiles("2-3"), parse_tiles("2-4"), parse_tiles("3-4")],
        discards=[parse_tiles("6-6"), (), (), ()],
        ends=(1, 1),
        ending=Ending.OUT,
        out_seat=N,
    )
    result = score_position(pos)
    assert result.winner == N
    assert result.winning_team == 0
    assert result.points == (12, 0)
    assert note_texts(result, "partner.closing-double") == ""
    # A position keeps its discards sorted, not in the order laid: the note cannot say which.
    assert "seat 0 went out (discarding its last tile)" in note_texts(result, "end.out")
    # Laying the same 6-6 instead earns the 100 bonus: 12 + 100.
    laid = make_position(
        rules,
        hands=[(), parse_tiles("2-3"), parse_tiles("2-4"), parse_tiles("3-4")],
        ends=(6, 6),
        ending=Ending.OUT,
        out_seat=N,
        closing=Tile(6, 6),
    )
    assert score_position(laid).points == (112, 0)


def test_random_hands_going_out_by_a_discard_are_won_by_the_seat_that_went_out() -> None:
    # Whatever the tiles, a seat whose last tile went face down has gone out: it is the winner
    # and its pair scores at least the opponents' counts (dead doubles only add).
    rules = SUWIKI.replace(blocked_action="discard")
    seen = 0
    for seed in range(400):
        state = random_hand(rules, seed)
        if state.ending is not Ending.OUT or not isinstance(state.history[-1].move, Discard):
            continue
        seen += 1
        result = hand_result(state)
        out = state.out_seat
        assert out is not None
        assert result.winner == out
        team = table(rules).team_of(out)
        opponents = table(rules).teams[1 - team]
        assert result.points[team] >= sum(result.counts[s] for s in opponents)
        assert note_texts(result, "partner.closing-double") == ""
    # Random moves discard often, so many hands end this way (126 of these 400); at least a
    # few must, or the loop proved nothing.
    assert seen >= 5


# --- the notes and the text form, word for word ----------------------------------------------


def test_the_debit_note_names_the_pair_and_the_sum() -> None:
    # Both doubles dead (100 + 50), the debit option on: E and W's pair 1 loses 150.
    hands = ["", "6-6 1-2", "1-3 2-4", "0-0 3-4"]
    debit = went_out(hands, (5, 5), "0-5", rules=SUWIKI.replace(dead_double_debit=True))
    assert "debit option: pair 1 also loses 150" in note_texts(debit, "partner.dead-double")


def test_a_top_double_value_of_1_still_makes_a_dead_6_6_special() -> None:
    # X2 with the 6-6 value at 1: the dead 6-6 counts 1 instead of 12: 1 + 3 + 8 = 12.
    rules = SUWIKI.replace(top_double_bonus=1)
    assert went_out(["", "6-6 0-3", "0-5", "4-4"], (3, 5), "1-3", rules=rules).points == (12, 0)


def test_closing_any_double_earns_nothing_for_a_tile_that_is_not_a_double() -> None:
    # The house rule is about doubles: N going out with 3-5 earns E 5 + W 10 = 15 only.
    rules = SUWIKI.replace(closing_any_double=True)
    result = went_out(["", "1-4", "0-1 2-4", "2-5 0-3"], (3, 5), "3-5", rules=rules)
    assert result.points == (15, 0)
    assert note_texts(result, "partner.closing-double") == ""


def test_the_closing_double_note_names_the_house_rule_only_for_another_double() -> None:
    rules = SUWIKI.replace(closing_any_double=True)
    other = went_out(["", "1-4", "0-1 2-4", "2-5 0-3"], (3, 5), "3-3", rules=rules)
    assert note_texts(other, "partner.closing-double") == (
        "seat 0 went out with 3-3: +100 (house rule: any double earns the top-double bonus)"
    )
    top = went_out(["", "1-4", "0-1 2-3 4-5", "2-5 0-3"], (6, 6), "6-6", rules=rules)
    assert note_texts(top, "partner.closing-double") == "seat 0 went out with 6-6: +100"


def test_in_a_blocked_hand_only_the_held_special_double_gets_a_note() -> None:
    # X10: W holds 6-6; 0-0 is in the line, so it gets no note.
    result = blocked(["1-3", "1-5 4-5", "2-4 5-5 2-3", "6-6 1-1"], (0, 0))
    assert note_texts(result, "partner.dead-double") == (
        "6-6 of seat 3 is never dead in a blocked hand: it counts its pips"
    )
    # E 15 against S 21 is no tie, so there is no tie note.
    assert note_texts(result, "partner.challenge-tie") == ""


def test_a_tie_lost_by_the_blocker_says_so() -> None:
    # X9: E (blocker) 14 against S 14.
    rules = SUWIKI.replace(challenge_tie=ChallengeTie.BLOCKER_LOSES)
    result = blocked(X9_HANDS, (6, 6), rules=rules)
    assert note_texts(result, "partner.challenge-tie") == (
        "seat 1 (blocker) counts 14 against seat 2's 14: a tie, which the blocker loses"
    )


def test_the_winning_team_is_named_in_a_note() -> None:
    # X1: N (seat 0) goes out, so the hand goes to N and S, seats 0 and 2, pair 0.
    result = went_out(["", "4-5 2-2", "3-3 1-2 4-6", "1-6"], (2, 5), "2-3")
    assert note_texts(result, "score.team") == (
        "the hand goes to team 0 (seats 0 and 2), the team of seat 0"
    )


def test_format_result_of_a_partnership_hand_names_teams() -> None:
    # X4: N went out with 6-6, pair 0 (N and S) scores 15 + 100.
    text = format_result(went_out(["", "1-4", "0-1 2-3 4-5", "2-5 0-3"], (6, 6), "6-6"))
    assert "winner: seat 0 (team 0)" in text.splitlines()
    assert "points (partnership): team 0 +115, team 1 +0" in text.splitlines()
    # X9's tie is replayed: no winner.
    assert (
        "winner: none (tied challenge: the hand is dealt again)"
        in format_result(blocked(X9_HANDS, (6, 6))).splitlines()
    )
