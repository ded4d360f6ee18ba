"""The oracle's fast paths give exactly what the checked paths give.

:func:`gaple.simulate.random_hand` deals without validating and plays without verifying (see
docs/guide/speed.rst). Its documented meaning is the slow loop written out below: the deal of
:func:`~gaple.deal.shuffle_deal` through :func:`~gaple.state.new_hand`, then
``legal_moves(state)[rng.below(len(moves))]`` through :func:`~gaple.state.apply` with a
generator seeded ``seed + 1``. Both must reach equal states, field by field.
"""

from __future__ import annotations

import attrs
import pytest

from checks import every_move
from gaple.conformance.checker import transcript
from gaple.deal import Deal, SplitMix64, shuffle_deal
from gaple.engine.play import PASS, Pick, fits, move_text, moves_on, run, tables
from gaple.engine.scoring import played_position, quiet_fields
from gaple.presets import PRESETS
from gaple.result import Position, hand_result, position_of
from gaple.rules import BlockedAction, Ruleset
from gaple.simulate import play_out, random_hand
from gaple.state import (
    Move,
    State,
    apply,
    is_legal,
    legal_moves,
    new_hand,
    parse_move,
)


def _checked_random_hand(rules: Ruleset, seed: int) -> State:
    state = new_hand(rules, shuffle_deal(rules, seed))
    rng = SplitMix64(seed + 1)
    while moves := legal_moves(state):
        state = apply(state, moves[rng.below(len(moves))])
    return state


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_random_hand_equals_the_checked_loop(name: str) -> None:
    rules = PRESETS[name].rules
    for seed in range(100):
        assert random_hand(rules, seed) == _checked_random_hand(rules, seed), f"seed {seed}"


@pytest.mark.parametrize("name", ["pagat-4x6", "domino4d"])
def test_a_shuffled_deal_equals_one_built_through_the_converters(name: str) -> None:
    # Deal's converters sort each hand and the set-aside tiles; the shuffle builds the deal
    # without them, so its tiles must already be sorted.
    rules = PRESETS[name].rules
    for seed in range(100):
        deal = shuffle_deal(rules, seed)
        rebuilt = Deal(
            hands=[list(reversed(hand)) for hand in deal.hands],
            starter=deal.starter,
            set_aside=list(reversed(deal.set_aside)),
            first_seat=deal.first_seat,
        )
        assert deal == rebuilt, f"seed {seed}"


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_aplayed_position_equals_the_checked_one(name: str) -> None:
    # gaple check scores a replayed hand from played_position, which skips Position's
    # converters and checks: it must build the same position, field by field and type by
    # type (a list where the converters make a tuple would compare unequal).
    rules = PRESETS[name].rules
    for seed in range(100):
        state = random_hand(rules, seed)
        fast, checked = played_position(state), position_of(state)
        assert fast == checked, f"seed {seed}"
        for field in attrs.fields(Position):
            assert type(getattr(fast, field.name)) is type(getattr(checked, field.name))


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_thequiet_fields_are_those_of_the_hand_result(name: str) -> None:
    # gaple check compares a claimed result with quiet_fields, which skips the notes and,
    # outside partnership scoring, the position: the fields must be hand_result's, in the
    # order of the transcript's result fields.
    rules = PRESETS[name].rules
    for seed in range(100):
        state = random_hand(rules, seed)
        result = hand_result(state)
        expected = tuple(getattr(result, field) for field in transcript._RESULT)
        assert quiet_fields(state) == expected, f"seed {seed}"


def test_playing_out_a_finished_hand_gives_that_hand() -> None:
    # Nobody is to act once a hand has ended, so there is nothing to play: the same state.
    finished = random_hand(PRESETS["domino4d"].rules, 5)
    assert finished.ending is not None
    assert play_out(finished, SplitMix64(0)) is finished


def _random_pick(seed: int, k: int, chosen: list[Move]) -> Pick:
    """Random picks as random_hand draws them, noted in ``chosen``; after ``k`` of them, stop."""
    rng = SplitMix64(seed + 1)

    def pick(moves: tuple[Move, ...], _seat: int) -> Move | None:
        if len(chosen) == k:
            return None
        chosen.append(moves[rng.below(len(moves))])
        return chosen[-1]

    return pick


@pytest.mark.parametrize("name", ["pagat-4x7", "domino4d"])
def test_a_pick_that_stops_leaves_the_state_after_the_moves_it_chose(name: str) -> None:
    # _run plays what pick chooses until pick gives None: stopping after k moves must leave
    # exactly the state that applying those k moves one at a time reaches.
    rules = PRESETS[name].rules
    for seed in range(20):
        start = new_hand(rules, shuffle_deal(rules, seed))
        for k in range(len(random_hand(rules, seed).history) + 1):
            chosen: list[Move] = []
            stopped = run(start, _random_pick(seed, k, chosen))
            checked = start
            for move in chosen:
                checked = apply(checked, move)
            assert len(chosen) == k, f"seed {seed}: stopped before {k} moves"
            assert stopped == checked, f"seed {seed}, {k} moves"


@pytest.mark.parametrize("action", list(BlockedAction))
def test_a_move_fits_exactly_when_it_is_among_the_legal_moves(action: BlockedAction) -> None:
    # Exhaustive on the double-3 set: every hand, every pair of ends, every move of the
    # set. _fits is the membership test of _moves_on's set, written on bitsets.
    rules = Ruleset(max_pip=3, players=2, hand_size=3, blocked_action=action)
    table = tables(3)
    suit = table.tiles.suit
    for hand in range(1 << table.tiles.size):
        for left in range(4):
            for right in range(4):
                legal = {id(m) for m in moves_on(table, rules, hand, suit[left], suit[right])}
                for move in every_move(3):
                    own = table.own(move)
                    _, kind, bit, _, _ = table.effects[id(own)]
                    fitting = fits(kind, bit, hand, suit[left], suit[right], rules=rules)
                    assert fitting == (id(own) in legal), (hand, left, right, str(move))


@pytest.mark.parametrize("name", ["pagat-4x7", "domino4d", "pagat-5x5"])
def test_following_makes_a_move_exactly_when_apply_accepts_it(name: str) -> None:
    # gaple check replays a log with run(follow=moves), which checks each move itself: at
    # every state of some random hands, every move of the tables must be made exactly when
    # apply accepts it, reaching apply's state, and otherwise leave the state as it was.
    rules = PRESETS[name].rules
    for seed in range(3):
        state = new_hand(rules, shuffle_deal(rules, seed))
        for made in random_hand(rules, seed).history:
            for move in every_move(rules.max_pip):
                followed = run(state, None, follow=iter([move]))
                if is_legal(state, move):
                    assert followed == apply(state, move), f"seed {seed}: {move}"
                else:
                    assert followed == state, f"seed {seed}: {move} was made"
            state = apply(state, made.move)


@pytest.mark.parametrize("max_pip", [1, 6, 9])
def test_a_move_s_text_read_from_the_tables_is_its_text(max_pip: int) -> None:
    # move_text reads the tables' own moves by identity: every one of them, and an equal move
    # built elsewhere (another object, not in the tables), must read as str() writes it.
    table = tables(max_pip)
    own: list[Move] = [
        PASS,
        *table.lead,
        *table.discard,
        *(m for pair in table.place for m in pair),
    ]
    assert len(own) == 1 + 4 * table.tiles.size
    for move in own:
        assert move_text(move) == str(move)
        twin = parse_move(str(move))
        assert twin is not move
        assert move_text(twin) == str(move)
