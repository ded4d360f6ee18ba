"""Structural facts about double-six deals from the research (section 7), each with its proof.

(a) A blocked 4 x 7 hand with no discards shows one number on both ends.
(b) A turned-up starter never blocks a 4 x 6 or 5 x 5 hand at once.
(c) In 4 x 7 later hands the double lead always finds an opener.
(d) With every non-double of a number placed, zero or two open ends show it.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable

from hypothesis import given
from hypothesis import strategies as st

from gaple.deal import Deal, shuffle_deal
from gaple.presets import ruleset
from gaple.reference.deal import undealt
from gaple.rules import BlockedAction, LeadRule, Ruleset
from gaple.simulate import random_hand
from gaple.state import Ending, Lead, State, apply, legal_moves, new_hand
from gaple.testing.strategies import deals, playouts
from gaple.tiles import Tile, tile_set

FULL = tile_set(6)

# ---------------------------------------------------------------------------------------------
# (a) Blocked 4 x 7 hands
#
# In the double-six set each number shows on 8 halves: one on each of its 6 non-doubles and
# two on its double. In the line every joint puts two equal halves together, so the halves
# showing n in the line are twice the joints on n plus the open ends showing n. When a 4 x 7
# hand is blocked, no hand holds a tile showing an end number e, and with every tile dealt the
# 8 halves showing e are in the line or among the discards. Under PASS there are no discards,
# so 8 = 2 * joints + (ends showing e): the ends showing e are even in number, i.e. 2, so both
# ends show e. Under DISCARD the argument only says that the discards hold an odd number of
# halves of an end number shown once: a blocked hand CAN show two numbers. The research states
# the fact for 4 x 7 without this condition; it holds for pagat-4x7 only in its PASS form.
# ---------------------------------------------------------------------------------------------


def _halves(tiles: Iterable[Tile], number: int) -> int:
    return sum((t.low == number) + (t.high == number) for t in tiles)


def _blocked_hands(rules: Ruleset, seeds: range) -> list[State]:
    hands = [random_hand(rules, seed) for seed in seeds]
    return [hand for hand in hands if hand.ending is Ending.BLOCKED]


def _check_blocked_parity(state: State) -> None:
    """At a blocked 4 x 7 end, each end number's discarded halves have the parity of the
    number of ends showing it (8 halves in all, an even number)."""
    assert state.ends is not None
    discarded = [t for seat in range(4) for t in state.discards(seat)]
    for number in set(state.ends):
        showing = state.ends.count(number)
        assert _halves(discarded, number) % 2 == showing % 2
        assert _halves(state.line_tiles(), number) + _halves(discarded, number) == 8


def test_blocked_4x7_pass_hand_shows_the_same_number_on_both_ends() -> None:
    for name in ("domino4d", "suwiki-individual", "suwiki-partnership"):
        blocked = _blocked_hands(ruleset(name), range(400))
        assert len(blocked) > 50, f"{name}: too few blocked hands to mean anything"
        for state in blocked:
            assert state.ends is not None
            left, right = state.ends
            assert left == right, f"{name}: blocked with ends {state.ends}"
            _check_blocked_parity(state)


def test_blocked_4x7_discard_hand_keeps_the_parity_but_may_show_two_numbers() -> None:
    # pagat-4x7 is the DISCARD form: the parity holds at every blocked end, and some blocked
    # hands do show two different numbers (their discards hold an odd count of each).
    blocked = _blocked_hands(ruleset("pagat-4x7"), range(400))
    assert len(blocked) > 50
    for state in blocked:
        _check_blocked_parity(state)
    assert any(state.ends is not None and state.ends[0] != state.ends[1] for state in blocked)


@given(st.data())
def test_blocked_4x7_pass_hand_shows_one_number_property(data: st.DataObject) -> None:
    rules = Ruleset(
        blocked_action=BlockedAction.PASS,
        first_lead=data.draw(st.sampled_from(LeadRule)),
        later_lead=data.draw(st.sampled_from(LeadRule)),
        partnership=data.draw(st.booleans()),
    )
    deal = data.draw(deals(rules))
    first_hand = data.draw(st.booleans())
    final = data.draw(playouts(rules, deal, first_hand=first_hand))[-1]
    if final.ending is Ending.BLOCKED:
        assert final.ends is not None
        assert final.ends[0] == final.ends[1]


# ---------------------------------------------------------------------------------------------
# (b) A turned-up starter never blocks the hand at once on double-six
#
# A starter x-y with x != y leaves 6 other tiles showing x and 6 showing y (x-y itself is the
# starter): 12 tiles that fit. A double x-x leaves 6. Besides the starter, at most 3 tiles stay
# face down in 4 x 6 (4 undealt) and 2 in 5 x 5 (3 undealt), so at least 6 - 3 = 3 fitting
# tiles are in the hands whatever is set aside, and some seat can place. The worst cases are
# the set-aside tiles all fitting the starter; the test below tries every such choice.
# ---------------------------------------------------------------------------------------------


def _fitting(starter: Tile) -> list[Tile]:
    return [t for t in FULL.tiles if t != starter and (t.has(starter.low) or t.has(starter.high))]


def test_every_starter_has_more_fitting_tiles_than_can_be_set_aside() -> None:
    for starter in FULL.tiles:
        assert len(_fitting(starter)) == (6 if starter.is_double else 12), starter
        for name in ("pagat-4x6", "pagat-5x5"):
            aside = undealt(ruleset(name)) - 1
            assert len(_fitting(starter)) - aside >= 3


def test_a_turned_up_starter_never_blocks_the_hand_at_once_on_double_six() -> None:
    for name, aside_count in (("pagat-4x6", 3), ("pagat-5x5", 2)):
        rules = ruleset(name)
        assert undealt(rules) - 1 == aside_count
        tried = 0
        for starter in FULL.tiles:
            for aside in itertools.combinations(_fitting(starter), aside_count):
                rest = [t for t in FULL.tiles if t != starter and t not in aside]
                size = rules.hand_size
                hands = [rest[seat * size : (seat + 1) * size] for seat in range(rules.players)]
                state = new_hand(rules, Deal(hands=hands, starter=starter, set_aside=aside))
                assert state.ending is None, f"{name}: starter {starter}, aside {aside}"
                assert state.to_act == 0
                assert state.line == ((starter.low, starter.high),)
                tried += 1
        # 21 non-doubles with C(12, k) choices and 7 doubles with C(6, k), k set aside.
        expected = {3: 21 * 220 + 7 * 20, 2: 21 * 66 + 7 * 15}[aside_count]
        assert tried == expected


@given(st.sampled_from(["pagat-4x6", "pagat-5x5", "block100", "chips"]), st.data())
def test_a_hand_with_a_starter_on_double_six_always_starts(name: str, data: st.DataObject) -> None:
    rules = ruleset(name)
    state = new_hand(rules, data.draw(deals(rules)))
    assert state.ending is None
    assert state.to_act == state.deal.first_seat


# ---------------------------------------------------------------------------------------------
# (c) 4 x 7 later hands: the double lead always finds an opener
#
# With 4 x 7 every tile is dealt, so all 7 doubles are in the hands and the search from the
# designated seat in turn order meets a seat holding one within four seats. Even with 6-6
# banned from leading (a house rule) the other 6 doubles are dealt.
# ---------------------------------------------------------------------------------------------


def _check_double_opener(state: State, allowed: set[Tile]) -> None:
    first = state.deal.first_seat
    order = [(first + k) % 4 for k in range(4)]
    holders = [seat for seat in order if set(state.hand(seat)) & allowed]
    # The opener is the first seat in turn order from the designated one that holds a double.
    assert state.opener == holders[0]
    assert state.to_act == holders[0]
    want = {Lead(t) for t in state.hand(state.opener) if t in allowed}
    assert set(legal_moves(state)) == want
    assert want


def test_4x7_later_hands_always_find_a_double_to_lead() -> None:
    doubles = {t for t in FULL.tiles if t.is_double}
    plain = ruleset("pagat-4x7")
    banned = plain.replace(forbidden_leads=[Tile(6, 6)])
    assert plain.later_lead is LeadRule.DOUBLE
    for seed in range(200):
        for first_seat in range(4):
            deal = shuffle_deal(plain, seed, first_seat=first_seat)
            _check_double_opener(new_hand(plain, deal, first_hand=False), doubles)
            _check_double_opener(new_hand(banned, deal, first_hand=False), doubles - {Tile(6, 6)})


@given(st.data())
def test_4x7_later_hands_always_find_a_double_to_lead_property(data: st.DataObject) -> None:
    rules = ruleset("pagat-4x7")
    state = new_hand(rules, data.draw(deals(rules)), first_hand=False)
    _check_double_opener(state, {t for t in FULL.tiles if t.is_double})


# ---------------------------------------------------------------------------------------------
# (d) Dead-double parity (research invariant 11, C20)
#
# Once the 6 non-doubles of a number n are all in the line, the line holds 6 halves showing n,
# or 8 with n-n. Joints use halves in equal pairs, so the open ends showing n are even in
# number: 0 or 2. Hence n-n can be placed then only if both ends show n, and is otherwise dead.
# ---------------------------------------------------------------------------------------------


def test_with_every_non_double_of_a_number_placed_zero_or_two_ends_show_it() -> None:
    seen = 0
    for name in ("pagat-4x7", "domino4d", "pagat-4x6"):
        rules = ruleset(name)
        for seed in range(150):
            final = random_hand(rules, seed)
            state = new_hand(rules, final.deal)
            for action in final.history:
                state = apply(state, action.move)
                assert state.ends is not None
                placed = set(state.line_tiles())
                for number in range(7):
                    others = {Tile(number, k) for k in range(7) if k != number}
                    if others <= placed:
                        seen += 1
                        assert state.ends.count(number) in (0, 2), (name, seed, state.ends)
    assert seen > 100, "too few positions with a whole suit placed to mean anything"
