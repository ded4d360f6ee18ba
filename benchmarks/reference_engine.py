"""A plain mutable Gaple engine: the ceiling for random play in pure Python.

It plays the same rules as :mod:`gaple.state` for any :class:`~gaple.rules.Ruleset` (the
shuffle of :func:`gaple.deal.shuffle_deal`, the opening, placing, passing or discarding, the
end of the hand) and draws its random moves exactly as :func:`gaple.simulate.random_hand` does,
from the same legal moves in the same order, so a seed gives the same hand in both;
``tests/test_reference_engine.py`` checks that. Nothing else: hands are ints used as bitsets
in a list, the line is its two ends, moves are small ints, and nothing is validated. The
benchmark compares the oracle with it to show what immutability and checking cost.
"""

from __future__ import annotations

from dataclasses import dataclass

from gaple.reference.deal import turns_up_starter
from gaple.rules import BlockedAction, LeadRule, Ruleset

_MASK64 = (1 << 64) - 1

# A move is one int: a tile index times 4 plus its kind; a pass is -1.
LEAD, LEFT, RIGHT, DISCARD = 0, 1, 2, 3
PASS = -1


class Table:
    """The lookup tables of one ruleset, built once."""

    def __init__(self, rules: Ruleset) -> None:
        n = rules.max_pip
        self.tiles = [(low, high) for low in range(n + 1) for high in range(low, n + 1)]
        self.suit = [
            sum(1 << i for i, tile in enumerate(self.tiles) if pip in tile) for pip in range(n + 1)
        ]
        self.players = rules.players
        self.hand_size = rules.hand_size
        self.has_starter = turns_up_starter(rules)
        self.passes = rules.blocked_action is BlockedAction.PASS
        doubles = sum(1 << i for i, (low, high) in enumerate(self.tiles) if low == high)
        allowed = {
            LeadRule.DOUBLE_BLANK: 1,
            LeadRule.DOUBLE: doubles,
            LeadRule.ANY_TILE: (1 << len(self.tiles)) - 1,
        }[rules.first_lead]
        forbidden = sum(1 << self.tiles.index((t.low, t.high)) for t in rules.forbidden_leads)
        self.first_lead = allowed & ~forbidden


@dataclass
class Outcome:
    """How a hand ended: the seats' hands and discards, the line's tiles and ends, the actions."""

    hands: list[int]
    discards: list[int]
    line: int
    ends: tuple[int, int]
    out: bool
    """True if a seat went out, False if the hand was blocked."""
    history: list[tuple[int, int]]
    """(seat, move) for every action."""


# One flat function on purpose: calls and objects are what this engine leaves out.
def play(table: Table, seed: int) -> Outcome:  # noqa: PLR0915
    """Deal from ``seed`` and play to the end with random legal moves, as ``random_hand``."""
    # The deal: shuffle_deal's Fisher-Yates over tile indices, SplitMix64 inlined.
    state = seed & _MASK64
    order = list(range(len(table.tiles)))
    for i in range(len(order) - 1, 0, -1):
        state = (state + 0x9E3779B97F4A7C15) & _MASK64
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        j = (z ^ (z >> 31)) % (i + 1)
        order[i], order[j] = order[j], order[i]
    players, size, suit, tiles = table.players, table.hand_size, table.suit, table.tiles
    hands = [0] * players
    for seat in range(players):
        for i in order[seat * size : (seat + 1) * size]:
            hands[seat] |= 1 << i
    state = (state + 0x9E3779B97F4A7C15) & _MASK64
    z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    seat = (z ^ (z >> 31)) % players
    discards = [0] * players
    history: list[tuple[int, int]] = []
    left = right = -1
    line = 0
    if table.has_starter:
        starter = order[players * size]
        left, right = tiles[starter]
        line = 1 << starter
        playable = suit[left] | suit[right]
        if not any(hand & playable for hand in hands):
            return Outcome(hands, discards, line, (left, right), False, history)
    else:
        while not hands[seat] & table.first_lead:
            seat = (seat + 1) % players
    rng = (seed + 1) & _MASK64
    moves: list[int] = []
    while True:
        hand = hands[seat]
        moves.clear()
        if left < 0:
            fitting = hand & table.first_lead
            kind = LEAD
        else:
            left_suit, right_suit = suit[left], suit[right]
            fitting = hand & (left_suit | right_suit)
            kind = LEFT
        if fitting or left < 0:
            while fitting:
                low = fitting & -fitting
                i = low.bit_length() - 1
                fitting ^= low
                if kind == LEAD:
                    moves.append(4 * i)
                else:
                    if low & left_suit:
                        moves.append(4 * i + LEFT)
                    if low & right_suit:
                        moves.append(4 * i + RIGHT)
        elif table.passes:
            moves.append(PASS)
        else:
            while hand:
                low = hand & -hand
                moves.append(4 * (low.bit_length() - 1) + DISCARD)
                hand ^= low
        rng = (rng + 0x9E3779B97F4A7C15) & _MASK64
        z = ((rng ^ (rng >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        move = moves[(z ^ (z >> 31)) % len(moves)]
        history.append((seat, move))
        if move == PASS:
            seat = (seat + 1) % players
            continue
        i, kind = divmod(move, 4)
        bit = 1 << i
        hands[seat] ^= bit
        if kind == DISCARD:
            discards[seat] |= bit
        else:
            low, high = tiles[i]
            if kind == LEAD:
                left, right = low, high
            elif kind == LEFT:
                left = high if left == low else low
            else:
                right = high if right == low else low
            line |= bit
        if not hands[seat]:
            return Outcome(hands, discards, line, (left, right), True, history)
        if kind != DISCARD:
            playable = suit[left] | suit[right]
            if not any(hand & playable for hand in hands):
                return Outcome(hands, discards, line, (left, right), False, history)
        seat = (seat + 1) % players
