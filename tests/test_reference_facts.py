"""The facts the reference's partnership functions return, reasoned by hand from the rules.

Labels of the fuzzer and the conformance cover criteria read these facts, so each must say
exactly what decided: which special double, whose, dead or not and why, which tile kept it
alive and where that tile lies; the closing bonus and whether only the house rule earned it;
the challenge's sides, counts, tie handling and stake.

Most positions are on the double-4 set (15 tiles) with four seats of three tiles, two tiles
set aside: small enough to list every tile. N = 0 and S = 2 are pair 0, E = 1 and W = 3 pair
1. Every position's line is the tiles not listed; its ends are the two numbers shown an odd
number of times by the line's tiles (worked out next to each case). The double-4 set has four
tiles with a 4 besides 4-4, so a line can hold all four without showing 4 at an end.
"""

from __future__ import annotations

import ast
import inspect
from types import ModuleType

import attrs
import pytest

from gaple.engine.scoring import position_fields
from gaple.position import Position, make_position
from gaple.reference import counting, decided_by, partnership, scoring, settlement
from gaple.reference.partnership import (
    Challenge,
    ClosingBonus,
    DoubleFate,
    Fate,
    Keeper,
    Spot,
    challenge,
    closing_bonus,
    double_fates,
    score_out,
)
from gaple.reference.scoring import counts_of, reckon
from gaple.reference.settlement import settle
from gaple.registry import RULES
from gaple.result import score_position
from gaple.rules import BlockedAction, ChallengeTie, Ruleset, Settlement, StakeBase
from gaple.state import Ending
from gaple.tiles import Tile, parse_tiles

N, E, S, W = 0, 1, 2, 3
DOUBLE_4 = Ruleset(
    max_pip=4,
    players=4,
    hand_size=3,
    partnership=True,
    settlement=Settlement.PARTNERSHIP,
    blocked_action=BlockedAction.DISCARD,
    top_double_bonus=100,
    blank_double_bonus=50,
)
T = Tile.parse


def went_out(
    hands: list[str],
    discards: list[str],
    aside: str,
    ends: tuple[int, int],
    closing: str | None,
    *,
    rules: Ruleset = DOUBLE_4,
    out_seat: int = N,
) -> Position:
    """``out_seat`` (N unless given) went out; the line is every tile not listed."""
    return make_position(
        rules,
        hands=[parse_tiles(h) for h in hands],
        discards=[parse_tiles(d) for d in discards],
        set_aside=parse_tiles(aside),
        ends=ends,
        ending=Ending.OUT,
        out_seat=out_seat,
        closing=None if closing is None else T(closing),
    )


def fates(pos: Position) -> tuple[DoubleFate, ...]:
    return double_fates(pos, counts_of(pos))


# Line 0-1 0-2 0-4 1-3 1-4 2-3 3-3: 0 shown 3 times, 1 three, 2 twice, 3 four, 4 twice: ends
# 0 and 1. The 4s: 0-4 and 1-4 in the line, 2-4 discarded by S, 3-4 discarded by W.
KEPT_BY_DISCARDS = went_out(
    ["", "4-4 1-1", "0-0", "1-2"], ["", "", "2-4", "3-4"], "2-2 0-3", (0, 1), "0-1"
)


def test_a_held_double_is_kept_alive_by_discarded_tiles_of_its_number() -> None:
    # E holds 4-4 and N went out, no end shows 4, and no tile with a 4 is in a hand or set
    # aside: a check that looked only at hands would call 4-4 dead. But 2-4 and 3-4 lie face
    # down among the discards of S and W, not in the line, so 4-4 is not dead (a tile of its
    # number anywhere but the line keeps it alive): it counts its 8 pips. Both keepers are
    # named, with their seats, in the set's order.
    top, blank = fates(KEPT_BY_DISCARDS)
    assert top == DoubleFate(
        tile=T("4-4"),
        seat=E,
        discarded=False,
        value=100,
        counted=8,
        fate=Fate.KEPT_ALIVE,
        keepers=(Keeper(T("2-4"), Spot.DISCARDED, S), Keeper(T("3-4"), Spot.DISCARDED, W)),
    )
    assert not top.dead
    # S holds 0-0, but S is N's partner: its own pair went out.
    assert blank == DoubleFate(T("0-0"), S, False, 50, 0, Fate.OWN_PAIR_OUT)
    # N and S score E (4-4 8 + 1-1 2 = 10) and W (1-2 3 + discarded 3-4 7 = 10): 20, no more.
    out = score_out(KEPT_BY_DISCARDS, counts_of(KEPT_BY_DISCARDS), (top, blank))
    assert (out.opponents, out.opponent_counts, out.dead_extra, out.points) == (
        (E, W),
        (10, 10),
        0,
        (20, 0),
    )
    assert "4-4 of seat 1 is not dead: 2-4 is discarded by seat 2, not in the line" in [
        note.text for note in score_position(KEPT_BY_DISCARDS).notes
    ]


# Line 0-1 0-2 0-4 1-3 1-4 2-4 3-3 3-4: 0 three times, 1 three, 2 twice, 3 four, 4 four: ends
# 0 and 1. Every tile with a 4 but 4-4 is in the line.
DEAD_TOP = (["", "4-4 1-1", "0-0", "1-2"], ["", "", "", "2-3"], "0-3 2-2", (0, 1), "0-1")


def test_a_held_double_with_every_other_tile_of_its_number_in_the_line_is_dead() -> None:
    # E (the losing pair) holds 4-4, no end shows 4, every other 4 is in the line: dead, 100
    # instead of its 8 pips. N and S score E 10 and W (1-2 3 + 2-3 5) 8 = 18, plus 92 = 110.
    pos = went_out(*DEAD_TOP)
    top, _ = fates(pos)
    assert top == DoubleFate(T("4-4"), E, False, 100, 8, Fate.DEAD)
    assert top.dead
    out = reckon(pos).partnership
    assert out is not None
    assert out.out is not None
    assert (out.out.dead_extra, out.out.debit, out.out.points) == (92, 0, (110, 0))


def test_the_debit_option_takes_a_dead_double_off_its_holders_pair_too() -> None:
    pos = went_out(*DEAD_TOP, rules=DOUBLE_4.replace(dead_double_debit=True))
    out = reckon(pos).partnership
    assert out is not None
    assert out.out is not None
    assert (out.out.debit, out.out.points) == (100, (110, -100))


def test_the_debit_falls_on_the_pair_that_did_not_go_out() -> None:
    # The dead case turned one seat on: E goes out, S holds the dead 4-4, W 0-0 (its own pair
    # went out), N 1-2 and discarded 2-3. E and W score N 8 and S 10, plus 92: 110; pair 0,
    # S's, loses 100.
    pos = went_out(
        ["1-2", "", "4-4 1-1", "0-0"],
        ["2-3", "", "", ""],
        "0-3 2-2",
        (0, 1),
        "0-1",
        rules=DOUBLE_4.replace(dead_double_debit=True),
        out_seat=E,
    )
    score = reckon(pos).partnership
    assert score is not None
    assert score.out is not None
    assert (score.out.team, score.out.losing_team, score.out.points) == (1, 0, (-100, 110))
    assert "debit option: pair 0 also loses 100" in [n.text for n in score_position(pos).notes]


def test_a_discarded_double_is_never_dead() -> None:
    # As the dead case, but E discarded 4-4 instead of holding it: only a double still in a
    # hand can die (decided reading C20), so it counts its 8 pips with E: 18.
    _, _, aside, ends, closing = DEAD_TOP
    pos = went_out(["", "1-1", "0-0", "1-2"], ["", "4-4", "", "2-3"], aside, ends, closing)
    top, _ = fates(pos)
    assert top == DoubleFate(T("4-4"), E, True, 100, 8, Fate.DISCARDED)
    assert reckon(pos).points == (18, 0)


def test_an_open_end_showing_its_number_keeps_a_double_alive() -> None:
    # Line 0-1 0-2 0-3 0-4 1-3 1-4 2-4 3-3: 0 four times, 1 three, 2 twice, 3 four, 4 three:
    # ends 1 and 4. 4 shows at an end, which keeps 4-4 alive before anything else is asked,
    # so no keeper is named (3-4, set aside, would be one).
    pos = went_out(["", "4-4 1-1", "0-0", "1-2"], ["", "", "", "2-3"], "3-4 2-2", (1, 4), "1-4")
    top, _ = fates(pos)
    assert top == DoubleFate(T("4-4"), E, False, 100, 8, Fate.OPEN_END)


def test_set_aside_tiles_of_its_number_keep_a_double_alive() -> None:
    # Line 0-1 0-2 0-3 0-4 1-3 1-4 3-3: 0 four times, 1 three, 2 once, 3 four, 4 twice: ends
    # 1 and 2. 2-4 and 3-4 were never dealt: they are not in the line, so 4-4 lives.
    pos = went_out(["", "4-4 1-1", "0-0 2-2", "1-2"], ["", "", "", "2-3"], "2-4 3-4", (1, 2), "0-2")
    top, _ = fates(pos)
    assert top.fate is Fate.KEPT_ALIVE
    assert top.keepers == (
        Keeper(T("2-4"), Spot.SET_ASIDE, None),
        Keeper(T("3-4"), Spot.SET_ASIDE, None),
    )


def test_every_tile_of_its_number_off_the_line_is_named_as_a_keeper() -> None:
    # Line 0-1 0-2 1-3 1-4 2-3 2-4 3-3: 0 twice, 1 three times, 2 three, 3 four, 4 twice: ends
    # 1 and 2. E holds 0-0; of the other blanks 0-1 and 0-2 are in the line, 0-3 is among W's
    # discards and 0-4 set aside: both keep 0-0 alive, the highest number's tile too.
    pos = went_out(["", "0-0 1-1", "4-4", "1-2"], ["", "", "", "0-3 3-4"], "0-4 2-2", (1, 2), "1-3")
    top, blank = fates(pos)
    assert top.fate is Fate.OWN_PAIR_OUT
    assert blank == DoubleFate(
        T("0-0"),
        E,
        False,
        50,
        0,
        Fate.KEPT_ALIVE,
        (Keeper(T("0-3"), Spot.DISCARDED, W), Keeper(T("0-4"), Spot.SET_ASIDE, None)),
    )


def test_a_dead_double_blank_counts_its_value_instead_of_25() -> None:
    # Line 0-1 0-2 0-3 0-4 1-3 1-4 2-4 3-3: ends 1 and 4 (as above); every blank but 0-0 is
    # in the line and no end shows 0. E holds 0-0 and 1-1: under the double-blank option 0-0
    # is E's only blank and counts 25, so E counts 27; dead, it counts 50 instead of 25.
    # N and S score E 27 and W (1-2 3 + 2-3 5) 8 = 35, plus 25 = 60. S holds 4-4 (own pair).
    rules = DOUBLE_4.replace(double_blank_25=True)
    pos = went_out(
        ["", "0-0 1-1", "4-4", "1-2"], ["", "", "", "2-3"], "3-4 2-2", (1, 4), "1-4", rules=rules
    )
    top, blank = fates(pos)
    assert top == DoubleFate(T("4-4"), S, False, 100, 8, Fate.OWN_PAIR_OUT)
    assert blank == DoubleFate(T("0-0"), E, False, 50, 25, Fate.DEAD)
    assert reckon(pos).points == (60, 0)
    assert (
        "0-0 of seat 1 is dead: no open end shows 0 and every other tile with a 0 is in the "
        "line, so it counts 50 instead of 25"
    ) in [note.text for note in score_position(pos).notes]


def test_no_double_dies_in_a_blocked_hand() -> None:
    # Hands N 2-4, E 4-4 2-3, S 2-2, W 3-3 3-4; N discarded 0-2 and 1-2; 0-0 and 1-1 set
    # aside. Line 0-1 0-3 0-4 1-3 1-4: 0 three times, 1 three, 3 twice, 4 twice: ends 0 and
    # 1, and no hand holds a 0 or a 1, so the hand is blocked. E placed last.
    pos = make_position(
        DOUBLE_4,
        hands=[parse_tiles(h) for h in ["2-4", "4-4 2-3", "2-2", "3-3 3-4"]],
        discards=[parse_tiles("0-2 1-2"), (), (), ()],
        set_aside=parse_tiles("0-0 1-1"),
        ends=(0, 1),
        ending=Ending.BLOCKED,
        blocker=E,
    )
    (top,) = fates(pos)
    assert top == DoubleFate(T("4-4"), E, False, 100, 8, Fate.BLOCKED_HAND)
    # Counts: N 6 + 2 + 3 = 11, E 8 + 5 = 13, S 4, W 6 + 7 = 13; 41 in all. E (13) is not
    # lower than S (4): N and S score all hands' pips twice, 82.
    lost = challenge(pos, [11, 13, 4, 13])
    assert not lost.blocker_won
    assert lost == Challenge(
        blocker=E,
        rival=S,
        blocker_count=13,
        rival_count=4,
        tie=None,
        winner=S,
        winning_team=0,
        stake_base=StakeBase.ALL,
        stake=41,
        multiplier=2,
        points=(82, 0),
    )
    assert reckon(pos).points == (82, 0)
    assert (
        "seat 1 (blocker) counts 13 against seat 2's 4, not lower (neunggar cadas): the other "
        "pair (pair 0) scores the pips of all hands, 41 x 2 = 82"
    ) in [note.text for note in score_position(pos).notes]
    # Had S placed last, S (4) against W (13) is strictly lower: S's pair scores 41 once.
    won = challenge(attrs.evolve(pos, blocker=S), [11, 13, 4, 13])
    assert won.blocker_won
    assert won == Challenge(S, W, 4, 13, None, S, 0, StakeBase.ALL, 41, 1, (41, 0))
    assert (
        "seat 2 (blocker) counts 4 against seat 3's 13, strictly lower: the blocker's pair "
        "(pair 0) scores the pips of all hands, 41 x 1 = 41"
    ) in [note.text for note in score_position(attrs.evolve(pos, blocker=S)).notes]


def x9(tie: ChallengeTie) -> Position:
    """SU-X9 of tests/test_partnership.py on the double-6 set: N 0-5 2-3 4-4 0-2 (20), E 2-4
    1-2 1-3 0-1 (14), S 5-5 0-4 (14), W 0-0 1-5 (6); 54 in all; E placed last, the ends show
    6."""
    return make_position(
        Ruleset(partnership=True, settlement=Settlement.PARTNERSHIP, challenge_tie=tie),
        hands=[
            parse_tiles(h) for h in ["0-5 2-3 4-4 0-2", "2-4 1-2 1-3 0-1", "5-5 0-4", "0-0 1-5"]
        ],
        ends=(6, 6),
        ending=Ending.BLOCKED,
        blocker=E,
    )


def test_a_tied_challenge_the_blocker_loses_names_the_tie_and_the_stake() -> None:
    # E 14 against S 14: a tie; under BLOCKER_LOSES it is not "lower", so S's pair scores all
    # 54 pips twice.
    assert challenge(x9(ChallengeTie.BLOCKER_LOSES), [20, 14, 14, 6]) == Challenge(
        E, S, 14, 14, ChallengeTie.BLOCKER_LOSES, S, 0, StakeBase.ALL, 54, 2, (108, 0)
    )


def test_a_tied_challenge_replayed_has_no_winner_and_no_stake() -> None:
    replayed = challenge(x9(ChallengeTie.REPLAY), [20, 14, 14, 6])
    assert replayed == Challenge(E, S, 14, 14, ChallengeTie.REPLAY, None, None, None, 0, 0, (0, 0))
    assert replayed.replay


def test_the_closing_bonus_says_whether_only_the_house_rule_earned_it() -> None:
    # Going out with the top double (4-4 here) earns its 100, 0-0 its 50; another double
    # nothing, unless the house rule gives any double the top double's 100 (0-0 too).
    assert closing_bonus(DOUBLE_4, N, T("4-4")) == ClosingBonus(T("4-4"), N, 100, False)
    assert closing_bonus(DOUBLE_4, N, T("0-0")) == ClosingBonus(T("0-0"), N, 50, False)
    assert closing_bonus(DOUBLE_4, N, T("1-1")) is None
    assert closing_bonus(DOUBLE_4, N, T("1-4")) is None
    assert closing_bonus(DOUBLE_4, N, None) is None
    house = DOUBLE_4.replace(closing_any_double=True)
    assert closing_bonus(house, S, T("1-1")) == ClosingBonus(T("1-1"), S, 100, True)
    assert closing_bonus(house, S, T("0-0")) == ClosingBonus(T("0-0"), S, 100, True)
    assert closing_bonus(house, S, T("4-4")) == ClosingBonus(T("4-4"), S, 100, False)
    # A bonus of 0 is no bonus.
    assert closing_bonus(DOUBLE_4.replace(blank_double_bonus=0), N, T("0-0")) is None


# --- the reference's shape ----------------------------------------------------------------------

SCORING_RULES = (
    "score.count",
    "score.double-blank-25",
    "score.rank",
    "score.team",
    "settle.per-hand",
    "settle.chips",
    "settle.difference",
    "settle.cumulative",
    "partner.out",
    "partner.challenge",
    "partner.challenge-tie",
    "partner.dead-double",
    "partner.closing-double",
)
"""The rules of the scoring pages (registry.py): counting, settlements, partnership."""


def test_each_scoring_rule_is_decided_by_exactly_one_reference_function() -> None:
    assert {
        rule_id for rule_id in RULES if rule_id.startswith(("score.", "settle.", "partner."))
    } == set(SCORING_RULES)
    for rule_id in SCORING_RULES:
        assert decided_by(rule_id).__module__.startswith("gaple.reference."), rule_id


BITSETS = (
    "hand_masks",
    "discard_masks",
    "line_mask",
    "scoring_masks",
    "iter_bits",
    "tile_set",
    ".mask(",
)
"""What the reference never reads: the engine's bitsets."""


@pytest.mark.parametrize("module", [counting, settlement, partnership, scoring])
def test_the_scoring_reference_reads_tiles_not_bitsets(module: ModuleType) -> None:
    source = inspect.getsource(module)
    assert not [word for word in BITSETS if word in source]
    # No BitOr: it is also the union of types (`Tile | None`).
    bit_operators = (ast.BitAnd, ast.BitXor, ast.LShift, ast.RShift, ast.Invert)
    assert not [node for node in ast.walk(ast.parse(source)) if isinstance(node, bit_operators)]


def test_partnership_scoring_is_no_individual_settlement() -> None:
    # Partnership points read the whole position (doubles, the line, the blocker), not just
    # the counts and the winner.
    with pytest.raises(ValueError, match="partnership points depend on the whole position"):
        settle(Settlement.PARTNERSHIP, [1, 2, 3, 4], 0)


def _hand_made() -> list[Position]:
    """Every position of this file."""
    hands, discards, aside, ends, closing = DEAD_TOP
    return [
        KEPT_BY_DISCARDS,
        went_out(hands, discards, aside, ends, closing),
        went_out(["", "1-1", "0-0", "1-2"], ["", "4-4", "", "2-3"], aside, ends, closing),
        went_out(["", "0-0 1-1", "4-4", "1-2"], ["", "", "", "0-3 3-4"], "0-4 2-2", (1, 2), "1-3"),
        x9(ChallengeTie.REPLAY),
        x9(ChallengeTie.BLOCKER_LOSES),
    ]


@pytest.mark.parametrize(
    "changes",
    [
        {},
        # Values of 1: a bonus is on as soon as it is above 0.
        {"top_double_bonus": 1, "blank_double_bonus": 1, "dead_double_debit": True},
        {"double_blank_25": True, "closing_any_double": True},
    ],
)
def test_the_engine_scores_every_hand_made_position_as_the_reference(
    changes: dict[str, object],
) -> None:
    for pos in _hand_made():
        changed = attrs.evolve(pos, rules=pos.rules.replace(**changes))
        reckoning = reckon(changed)
        counts = tuple(c.count for c in reckoning.counts)
        expected = (counts, reckoning.winner, reckoning.winning_team, reckoning.points)
        assert position_fields(changed)[:4] == expected, changed
        assert position_fields(changed).replay == reckoning.replay
