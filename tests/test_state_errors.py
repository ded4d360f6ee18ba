"""Each error code of ``ERROR_CODES``, and their documented precedence, on hand-built positions.

The positions use the double-2 set (0-0 0-1 0-2 1-1 1-2 2-2) so that every tile is in view;
each comment says who holds what and why the expected code is the first check that fails.
"""

from __future__ import annotations

import pytest

from gaple.deal import Deal
from gaple.registry import RULES
from gaple.rules import BlockedAction, LeadRule, Ruleset
from gaple.state import (
    ERROR_CODES,
    Action,
    Discard,
    End,
    Ending,
    IllegalMove,
    Lead,
    Move,
    Pass,
    Place,
    State,
    apply,
    is_legal,
    new_hand,
    replay,
    verify,
)
from gaple.tiles import Tile, parse_tiles


def _t(text: str) -> Tile:
    return Tile.parse(text)


def _rules(
    blocked: BlockedAction,
    lead: LeadRule = LeadRule.DOUBLE_BLANK,
    forbidden: frozenset[Tile] = frozenset(),
) -> Ruleset:
    return Ruleset(
        max_pip=2,
        players=2,
        hand_size=3,
        blocked_action=blocked,
        first_lead=lead,
        forbidden_leads=forbidden,
    )


# Every tile dealt: seat 0 holds 0-0 0-1 1-1, seat 1 holds 0-2 1-2 2-2.
MIXED = Deal(hands=[parse_tiles("0-0 0-1 1-1"), parse_tiles("0-2 1-2 2-2")])
# Seat 0 holds every blank; seat 1 holds none, so after 0-0 is led it cannot place.
SPLIT = Deal(hands=[parse_tiles("0-0 0-1 0-2"), parse_tiles("1-1 1-2 2-2")])


def _rejects(state: State, move: Move, code: str, rule_id: str, seat: int | None = None) -> None:
    with pytest.raises(IllegalMove) as caught:
        apply(state, move, seat)
    assert (caught.value.code, caught.value.rule_id) == (code, rule_id)
    assert rule_id in ERROR_CODES[code][0]
    assert rule_id in RULES
    assert f"[{rule_id}]" in str(caught.value)
    assert not is_legal(state, move, seat)
    with pytest.raises(IllegalMove):
        verify(state, move, seat)


def _empty_table(blocked: BlockedAction = BlockedAction.PASS) -> State:
    state = new_hand(_rules(blocked), MIXED)
    # 0-0 opens the first hand and seat 0 holds it.
    assert (state.to_act, state.line) == (0, ())
    return state


def _after_lead(deal: Deal, blocked: BlockedAction) -> State:
    state = replay(_rules(blocked), deal, [Lead(_t("0-0"))])
    assert (state.to_act, state.ends) == (1, (0, 0))
    return state


def test_error_codes_name_registered_rules() -> None:
    for code, (rule_ids, meaning) in ERROR_CODES.items():
        assert meaning, code
        for rule_id in rule_ids:
            assert rule_id in RULES, f"{code} names unknown rule {rule_id}"


# hand-over -----------------------------------------------------------------------------------


def _finished() -> State:
    # Double-2, 2 seats of 1 tile: seat 0 holds 0-0, seat 1 holds 1-1, the starter 0-1 is
    # turned up (0 on the left). Seat 0 acts first and places 0-0 on the 0 end: its hand is
    # empty, so the hand is over (end.out).
    rules = Ruleset(max_pip=2, players=2, hand_size=1)
    deal = Deal(
        hands=[[_t("0-0")], [_t("1-1")]], starter=_t("0-1"), set_aside=parse_tiles("0-2 1-2 2-2")
    )
    state = replay(rules, deal, [Place(_t("0-0"), End.LEFT)])
    assert state.ending is Ending.OUT
    return state


@pytest.mark.parametrize(
    "move", [Place(Tile(1, 1), End.RIGHT), Pass(), Discard(Tile(1, 1)), Lead(Tile(1, 1))]
)
def test_hand_over_rejects_every_move(move: Move) -> None:
    _rejects(_finished(), move, "hand-over", "end.final")


def test_hand_over_names_the_ending_by_its_spec_value() -> None:
    # _finished ended by going out, so the message says "out", the spec's word; printing the
    # enum (Ending.OUT) would leak a Python name into a message users read.
    with pytest.raises(IllegalMove) as caught:
        apply(_finished(), Pass())
    assert caught.value.message == "the hand has ended out"
    assert "Ending" not in str(caught.value)


def test_hand_over_comes_before_wrong_seat() -> None:
    # No seat is to act, so even naming a seat is answered with hand-over.
    _rejects(_finished(), Place(Tile(1, 1), End.RIGHT), "hand-over", "end.final", seat=1)


def test_a_hand_blocked_at_the_deal_is_over_before_any_move() -> None:
    # Double-2, 2 seats of 1 tile: starter 2-2, seat 0 holds 0-0, seat 1 holds 1-1; nobody
    # holds a 2, so nobody can ever place (end.blocked) and the hand is over at once. (On the
    # double-six set this cannot happen: see test_state_structure.)
    rules = Ruleset(max_pip=2, players=2, hand_size=1, blocked_action=BlockedAction.PASS)
    deal = Deal(
        hands=[[_t("0-0")], [_t("1-1")]], starter=_t("2-2"), set_aside=parse_tiles("0-1 0-2 1-2")
    )
    state = new_hand(rules, deal)
    assert state.ending is Ending.BLOCKED
    assert state.to_act is None
    _rejects(state, Pass(), "hand-over", "end.final")


# wrong-seat ----------------------------------------------------------------------------------


def test_wrong_seat_comes_before_every_move_check() -> None:
    state = _empty_table()
    # Seat 0 is to act; seat 1 names itself. Leading 0-0 would be legal for seat 0, and 2-2 is
    # seat 1's own tile: both are answered wrong-seat before the move is looked at.
    _rejects(state, Lead(_t("0-0")), "wrong-seat", "turn.order", seat=1)
    _rejects(state, Lead(_t("2-2")), "wrong-seat", "turn.order", seat=1)
    assert is_legal(state, Lead(_t("0-0")), 0)


# leads ---------------------------------------------------------------------------------------


def test_line_started_comes_before_not_in_hand() -> None:
    state = _after_lead(MIXED, BlockedAction.PASS)
    # Seat 1 holds 0-2 but the line has begun; 0-0 is in the line, not in its hand: both are
    # reported as line-started, the first lead check.
    _rejects(state, Lead(_t("0-2")), "line-started", "open.lead")
    _rejects(state, Lead(_t("0-0")), "line-started", "open.lead")


def test_not_in_hand_comes_before_illegal_lead() -> None:
    # 2-2 is seat 1's, and would also break the 0-0 rule: not-in-hand is checked first.
    _rejects(_empty_table(), Lead(_t("2-2")), "not-in-hand", "play.in-hand")


def test_illegal_lead_names_the_lead_rule_in_force() -> None:
    # Seat 0 holds 1-1 but the first hand must open with 0-0 (open.double-blank).
    _rejects(_empty_table(), Lead(_t("1-1")), "illegal-lead", "open.double-blank")
    # Under the double lead, 0-1 is no double (open.double); seat 0 holds 0-0 so it opens.
    state = new_hand(_rules(BlockedAction.PASS, LeadRule.DOUBLE), MIXED)
    assert state.to_act == 0
    _rejects(state, Lead(_t("0-1")), "illegal-lead", "open.double")
    assert is_legal(state, Lead(_t("1-1")))


def test_illegal_lead_names_the_house_ban() -> None:
    # Double lead with 0-0 banned (open.forbidden): seat 0 still opens, with 1-1.
    rules = _rules(BlockedAction.PASS, LeadRule.DOUBLE, frozenset({_t("0-0")}))
    state = new_hand(rules, MIXED)
    assert state.to_act == 0
    _rejects(state, Lead(_t("0-0")), "illegal-lead", "open.forbidden")
    assert is_legal(state, Lead(_t("1-1")))


# placements ----------------------------------------------------------------------------------


@pytest.mark.parametrize("move", [Place(Tile(0, 0), End.LEFT), Place(Tile(2, 2), End.RIGHT)])
def test_lead_required_comes_before_not_in_hand(move: Move) -> None:
    # The table is empty: 0-0 is seat 0's (it must be led, not placed), 2-2 is not seat 0's.
    _rejects(_empty_table(), move, "lead-required", "open.lead")


def test_not_in_hand_comes_before_no_match() -> None:
    state = _after_lead(MIXED, BlockedAction.PASS)
    # Ends (0, 0), seat 1 to act. 0-1 fits but is seat 0's; 1-1 neither fits nor is held.
    _rejects(state, Place(_t("0-1"), End.LEFT), "not-in-hand", "play.in-hand")
    _rejects(state, Place(_t("1-1"), End.RIGHT), "not-in-hand", "play.in-hand")


def test_no_match_when_the_named_end_shows_another_number() -> None:
    state = _after_lead(MIXED, BlockedAction.PASS)
    # Seat 1 holds 1-2: no half shows 0, the number on both ends (play.match-end).
    _rejects(state, Place(_t("1-2"), End.LEFT), "no-match", "play.match-end")
    assert is_legal(state, Place(_t("0-2"), End.RIGHT))
    # After 0-2 goes right, the ends are (0, 2): 2-2 fits the right end only.
    state = apply(state, Place(_t("0-2"), End.RIGHT))
    assert state.ends == (0, 2)
    state = apply(state, Place(_t("0-1"), End.LEFT))  # seat 0: ends (1, 2)
    _rejects(state, Place(_t("2-2"), End.LEFT), "no-match", "play.match-end")
    assert is_legal(state, Place(_t("2-2"), End.RIGHT))


def test_a_tile_outside_the_set_is_not_in_hand() -> None:
    state = _after_lead(MIXED, BlockedAction.PASS)
    _rejects(state, Place(Tile(3, 0), End.LEFT), "not-in-hand", "play.in-hand")


# passes --------------------------------------------------------------------------------------


def test_pass_on_an_empty_table_is_lead_required() -> None:
    _rejects(_empty_table(), Pass(), "lead-required", "open.lead")


def test_pass_not_allowed_comes_before_must_place() -> None:
    # DISCARD rules; seat 1 can place 0-2, and passing is not an option at all: the option
    # check comes first.
    state = _after_lead(MIXED, BlockedAction.DISCARD)
    _rejects(state, Pass(), "pass-not-allowed", "block.discard")
    # Even a stuck seat may not pass under DISCARD.
    _rejects(_after_lead(SPLIT, BlockedAction.DISCARD), Pass(), "pass-not-allowed", "block.discard")


def test_pass_must_place_when_a_tile_fits() -> None:
    # PASS rules; seat 1 holds 0-2, which fits the 0 ends (turn.forced-play).
    _rejects(_after_lead(MIXED, BlockedAction.PASS), Pass(), "must-place", "turn.forced-play")


def test_pass_is_legal_for_a_stuck_seat() -> None:
    # PASS rules; seat 1 holds 1-1 1-2 2-2 and the ends are (0, 0).
    state = _after_lead(SPLIT, BlockedAction.PASS)
    after = apply(state, Pass())
    assert after.to_act == 0
    assert after.ending is None


# discards ------------------------------------------------------------------------------------


def test_discard_on_an_empty_table_is_lead_required() -> None:
    _rejects(_empty_table(BlockedAction.DISCARD), Discard(_t("0-0")), "lead-required", "open.lead")


def test_discard_not_allowed_comes_before_not_in_hand() -> None:
    # PASS rules; seat 1 is stuck. Its own 1-1 and seat 0's 0-1 are both refused by the option.
    state = _after_lead(SPLIT, BlockedAction.PASS)
    _rejects(state, Discard(_t("1-1")), "discard-not-allowed", "block.pass")
    _rejects(state, Discard(_t("0-1")), "discard-not-allowed", "block.pass")


def test_discard_not_in_hand_comes_before_must_place() -> None:
    # DISCARD rules; seat 1 can place 0-2, and 1-1 is seat 0's: not-in-hand is reported.
    state = _after_lead(MIXED, BlockedAction.DISCARD)
    _rejects(state, Discard(_t("1-1")), "not-in-hand", "play.in-hand")


def test_discard_must_place_when_a_tile_fits() -> None:
    # DISCARD rules; seat 1 holds 2-2 but also 0-2, which fits: it must place.
    state = _after_lead(MIXED, BlockedAction.DISCARD)
    _rejects(state, Discard(_t("2-2")), "must-place", "turn.forced-play")


def test_discard_is_legal_for_a_stuck_seat_and_goes_face_down() -> None:
    state = _after_lead(SPLIT, BlockedAction.DISCARD)
    after = apply(state, Discard(_t("2-2")))
    assert after.discards(1) == (_t("2-2"),)
    assert after.hand(1) == parse_tiles("1-1 1-2")
    assert after.ends == (0, 0)
    assert after.ending is None


def test_discarding_the_last_tile_ends_the_hand_by_going_out() -> None:
    # Decision 12: a seat with no tiles left ends the hand, also when it discarded the last.
    # Double-2, 2 seats of 1 tile, DISCARD: starter 0-1 (0 left, 1 right); seat 0 holds 2-2,
    # which shows neither 0 nor 1, so it must discard it and has no tile left.
    rules = Ruleset(max_pip=2, players=2, hand_size=1)
    deal = Deal(
        hands=[[_t("2-2")], [_t("1-1")]], starter=_t("0-1"), set_aside=parse_tiles("0-0 0-2 1-2")
    )
    state = replay(rules, deal, [Discard(_t("2-2"))])
    assert state.ending is Ending.OUT
    assert state.out_seat == 0


def test_replayed_actions_check_their_seat() -> None:
    # Seat 0 holds 0-0 and opens; an Action claiming seat 1 made that lead is refused.
    with pytest.raises(IllegalMove) as caught:
        replay(_rules(BlockedAction.PASS), MIXED, [Action(1, Lead(_t("0-0")))])
    assert caught.value.code == "wrong-seat"
    state = replay(_rules(BlockedAction.PASS), MIXED, [Action(0, Lead(_t("0-0")))])
    assert state.ends == (0, 0)


def test_a_tile_outside_the_set_is_not_in_hand_even_beside_0_0() -> None:
    # Seat 0 acts and holds 0-0, the set's first tile: 3-3 is in no double-2 hand at all.
    _rejects(_empty_table(), Lead(Tile(3, 3)), "not-in-hand", "play.in-hand")


def test_the_illegal_lead_message_names_the_tile_the_lead_must_be() -> None:
    # First hand under the 0-0 lead: "0-0"; under the double lead: "a double".
    with pytest.raises(
        IllegalMove, match=r"1-1 cannot open: the lead must be 0-0 \[open\.double-blank\]"
    ):
        apply(_empty_table(), Lead(_t("1-1")))
    state = new_hand(_rules(BlockedAction.PASS, LeadRule.DOUBLE), MIXED)
    with pytest.raises(
        IllegalMove, match=r"0-1 cannot open: the lead must be a double \[open\.double\]"
    ):
        apply(state, Lead(_t("0-1")))


def test_replay_plays_a_first_hand_unless_told_otherwise() -> None:
    # Like new_hand, replay starts the match's first hand by default.
    assert replay(_rules(BlockedAction.PASS), MIXED, [Lead(_t("0-0"))]).first_hand
    assert not replay(_rules(BlockedAction.PASS), MIXED, [], first_hand=False).first_hand
