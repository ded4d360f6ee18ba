"""A stateful test: Hypothesis drives hands move by move, mixing legal and random moves.

Each run draws a ruleset and a seed, then interleaves three rules: apply a legal move picked by
index from ``legal_moves``; try any move of the set (often illegal) and check that acceptance
agrees with ``legal_moves`` and that a rejection names the right code and rule; and, once the
hand is over, deal a new one (a later hand of the match, led by the previous winner's seat
rules). The invariants run after every step.
"""

from __future__ import annotations

import copy

from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from checks import (
    check_conservation,
    check_end_matching,
    check_ending,
    check_error,
    check_forced_play,
    check_length_bound,
    check_live,
    check_step,
    check_turn,
    every_move,
)
from gaple.deal import shuffle_deal
from gaple.rules import Ruleset
from gaple.state import IllegalMove, State, apply, is_legal, legal_moves, new_hand
from gaple.testing.strategies import rulesets

_SEEDS = st.integers(min_value=0, max_value=2**64 - 1)


class HandMachine(RuleBasedStateMachine):
    """One table playing hand after hand under one ruleset."""

    ruleset: Ruleset
    state: State

    @initialize(rules=rulesets(), seed=_SEEDS)
    def deal_first_hand(self, rules: Ruleset, seed: int) -> None:
        self.ruleset = rules
        self.state = new_hand(rules, shuffle_deal(rules, seed), first_hand=True)

    @precondition(lambda self: not self.state.is_over)
    @rule(data=st.data())
    def play_a_legal_move(self, data: st.DataObject) -> None:
        moves = legal_moves(self.state)
        move = moves[data.draw(st.integers(min_value=0, max_value=len(moves) - 1))]
        before = self.state
        snapshot = copy.deepcopy(before)
        self.state = apply(before, move)
        assert before == snapshot, "apply changed the state it was given"
        check_step(before, move, self.state)

    @rule(data=st.data())
    def try_any_move(self, data: st.DataObject) -> None:
        move = data.draw(st.sampled_from(every_move(self.ruleset.max_pip)))
        seat = data.draw(st.none() | st.integers(min_value=0, max_value=self.ruleset.players - 1))
        check_error(self.state, move, seat)
        listed = move in legal_moves(self.state)
        assert is_legal(self.state, move) == listed
        try:
            after = apply(self.state, move, seat)
        except IllegalMove:
            assert not listed or seat != self.state.to_act
            return
        assert listed
        check_step(self.state, move, after)
        self.state = after

    @precondition(lambda self: self.state.is_over)
    @rule(seed=_SEEDS)
    def deal_next_hand(self, seed: int) -> None:
        self.state = new_hand(self.ruleset, shuffle_deal(self.ruleset, seed), first_hand=False)

    @invariant()
    def tiles_are_conserved(self) -> None:
        check_conservation(self.state)

    @invariant()
    def ends_match(self) -> None:
        check_end_matching(self.state)

    @invariant()
    def a_seat_acts_iff_the_hand_goes_on(self) -> None:
        check_turn(self.state)
        assert (self.state.to_act is None) == self.state.is_over

    @invariant()
    def a_live_hand_offers_a_move(self) -> None:
        check_live(self.state)

    @invariant()
    def the_hand_ends_exactly_when_the_rules_say(self) -> None:
        check_ending(self.state)
        check_length_bound(self.state)

    @invariant()
    def legal_moves_are_what_the_rules_allow(self) -> None:
        check_forced_play(self.state)


TestHandMachine = HandMachine.TestCase
