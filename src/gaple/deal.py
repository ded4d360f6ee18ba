"""Deals: checking one against the rules, and a documented seeded shuffle.

A deal (:class:`~gaple.hand.Deal`, data) says who holds which tiles, which undealt tile is
turned up as the starter, which stay face down, and which seat is designated to act or lead
first. Any deal can be written down and replayed; :func:`check_deal` asks the rules whether it
fits them, and :func:`shuffle_deal` is only a convenience for producing one from a seed.
"""

from __future__ import annotations

import functools
import struct
from collections.abc import Sequence

from gaple.engine.memo import check_rules, turns_up_starter
from gaple.hand import Deal as Deal
from gaple.hand import InvalidDeal as InvalidDeal
from gaple.reference.deal import deal_problem
from gaple.rules import Ruleset
from gaple.tiles import Tile, tile_set

__all__ = [
    "SplitMix64",
    "check_deal",
    "deal_in_order",
    "deal_indices",
    "shuffle_deal",
    "shuffle_with_hands",
    "sorted_deal",
]


def check_deal(rules: Ruleset, deal: Deal) -> None:
    """Check that ``deal`` fits ``rules``: sizes, the starter, every tile exactly once, the
    designated seat, as :func:`gaple.reference.deal.deal_problem` decides it.

    >>> from gaple.tiles import parse_tiles
    >>> deal = Deal(hands=[parse_tiles("0-1 1-1"), parse_tiles("0-0 1-2")], starter=Tile(0, 2),
    ...             set_aside=parse_tiles("2-2"))
    >>> check_deal(Ruleset(max_pip=2, players=2, hand_size=2), deal)

    Raises:
        gaple.rules.InvalidRuleset: no hand can be played under ``rules``.
        InvalidDeal: the first problem found, located by seat or part of the deal.
    """
    check_rules(rules)
    problem = deal_problem(rules, deal)
    if problem is not None:
        raise InvalidDeal(problem)


_MASK64 = (1 << 64) - 1  # a global: reading it costs less than a class attribute through self


class SplitMix64:
    """The SplitMix64 generator (Steele, Lea and Flood, 2014), used by :func:`shuffle_deal`.

    Chosen because it is a few lines in any language, so another implementation can reproduce
    a seeded deal exactly.

    >>> SplitMix64(0).next()
    16294208416658607535
    """

    __slots__ = ("_state",)

    def __init__(self, seed: int) -> None:
        self._state = seed & _MASK64

    def next(self) -> int:
        """The next 64-bit output."""
        self._state = z = (self._state + _GAMMA) & _MASK64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def below(self, bound: int) -> int:
        """A number in ``range(bound)``: the next output modulo ``bound``."""
        return self.next() % bound

    def take(self, count: int) -> list[int]:
        """The next ``count`` outputs, as ``count`` calls of :meth:`next` give them, at once.

        The k-th output mixes only the k-th state, ``state + k * gamma``, so the outputs do not
        depend on each other: one integer holds every state in a lane of 128 bits, and each
        step of the mix acts on all lanes at once (three times faster for a shuffle's 27
        draws). A lane's value stays below 2**64 after each mask, and its product with a
        64-bit constant below 2**128, so no step carries into the next lane; the masks also
        drop what a right shift brings down from the lane above.

        Raises:
            ValueError: ``count`` is negative.
        """
        if count < 0:
            msg = f"cannot take {count} outputs"
            raise ValueError(msg)
        ones, lanes, steps, words = _lanes(count)
        z = (self._state * ones + steps) & lanes
        z = ((z ^ (z >> 30)) & lanes) * 0xBF58476D1CE4E5B9 & lanes
        z = ((z ^ (z >> 27)) & lanes) * 0x94D049BB133111EB & lanes
        z ^= z >> 31
        # Each lane is two little-endian 64-bit words: its output is the first (what the last
        # shift brought down from the lane above is in the second).
        outputs = list(words.unpack(z.to_bytes(16 * count, "little"))[::2])
        self._state = (self._state + count * _GAMMA) & _MASK64
        return outputs


_GAMMA = 0x9E3779B97F4A7C15
"""SplitMix64's step between states: 2**64 divided by the golden ratio, rounded down."""


@functools.lru_cache(maxsize=16)  # a shuffle takes one count per size of set
def _lanes(count: int) -> tuple[int, int, int, struct.Struct]:
    """For :meth:`SplitMix64.take`: 1 in each of ``count`` lanes of 128 bits, 64 one-bits in
    each, ``k * gamma`` in lane ``k - 1``, and the reader of the lanes' 64-bit words."""
    ones = sum(1 << (128 * k) for k in range(count))
    steps = sum((k + 1) * _GAMMA << (128 * k) for k in range(count))
    return ones, ones * _MASK64, steps, struct.Struct(f"<{2 * count}Q")


def shuffle_deal(rules: Ruleset, seed: int, *, first_seat: int | None = None) -> Deal:
    """Deal from a seeded shuffle, by an algorithm any implementation can reproduce.

    1. Start from the set in canonical order (``0-0, 0-1, ..., N-N``) and a
       :class:`SplitMix64` seeded with ``seed`` (taken modulo 2**64).
    2. Fisher-Yates: for ``i`` from the last position down to 1, swap position ``i`` with
       position ``below(i + 1)``.
    3. Seat ``s`` takes positions ``s * hand_size`` to ``(s + 1) * hand_size - 1``; the next
       tile, if any, is the starter; the rest are set aside.
    4. Unless ``first_seat`` is given, it is ``below(players)``, drawn after the shuffle.

    >>> deal = shuffle_deal(Ruleset(), 1)
    >>> [len(hand) for hand in deal.hands], deal.starter
    ([7, 7, 7, 7], None)
    """
    return shuffle_with_hands(rules, seed, first_seat)[0]


def deal_in_order(rules: Ruleset, order: Sequence[Tile], first_seat: int) -> Deal:
    """The deal of ``order``, every tile of the set once, as step 3 of :func:`shuffle_deal`
    deals it: seat ``s`` takes positions ``s * hand_size`` to ``(s + 1) * hand_size - 1``, the
    next tile is the starter when the rules turn one up, and the rest are set aside.

    In canonical order 0-0 .. 0-6 fill positions 0-6, 1-1 .. 1-6 positions 7-12, and so on: in
    4 x 6, seat 1 takes positions 6-11 and the starter is position 24, the third tile of 4-x.

    >>> from gaple.tiles import tile_set
    >>> deal = deal_in_order(Ruleset(hand_size=6), tile_set(6).tiles, first_seat=2)
    >>> deal.hands[1], deal.starter, len(deal.set_aside)
    ((Tile(0, 6), Tile(1, 1), Tile(1, 2), Tile(1, 3), Tile(1, 4), Tile(1, 5)), Tile(4, 6), 3)
    """
    check_rules(rules)
    size = rules.hand_size
    dealt = rules.players * size
    return Deal(
        hands=[order[seat * size : (seat + 1) * size] for seat in range(rules.players)],
        starter=order[dealt] if turns_up_starter(rules) else None,
        set_aside=order[dealt + 1 :],
        first_seat=first_seat,
    )


def shuffle_with_hands(
    rules: Ruleset, seed: int, first_seat: int | None = None
) -> tuple[Deal, tuple[int, ...]]:
    """:func:`shuffle_deal`, also giving each seat's hand as a bitset (see :mod:`gaple.tiles`):
    the engine's start of a seeded hand (:func:`gaple.simulate.random_hand`).

    The shuffle moves tile indices rather than tiles, which is the same permutation; sorting
    indices sorts tiles in canonical order without comparing tiles.
    """
    check_rules(rules)
    rng = SplitMix64(seed)
    size = tile_set(rules.max_pip).size
    order = list(range(size))
    # Draw k below(i + 1) is the k-th output modulo i + 1, for i from the last position down.
    for i, draw in zip(range(size - 1, 0, -1), rng.take(size - 1), strict=True):
        j = draw % (i + 1)
        order[i], order[j] = order[j], order[i]
    seat = rng.below(rules.players) if first_seat is None else first_seat
    return deal_indices(rules, order, seat)


def deal_indices(
    rules: Ruleset, order: Sequence[int], first_seat: int
) -> tuple[Deal, tuple[int, ...]]:
    """:func:`deal_in_order` of the tiles at ``order``'s indices into the set's canonical
    order (every index once), also giving each seat's hand as a bitset: sorting indices sorts
    tiles without comparing them."""
    tiles = tile_set(rules.max_pip).tiles
    size = rules.hand_size
    dealt = rules.players * size
    held = [sorted(order[seat * size : (seat + 1) * size]) for seat in range(rules.players)]
    starter = tiles[order[dealt]] if turns_up_starter(rules) else None
    deal = sorted_deal(
        tuple(tuple([tiles[i] for i in hand]) for hand in held),  # lists: faster than generators
        starter,
        tuple(tiles[i] for i in sorted(order[dealt + 1 :])),
        first_seat,
    )
    return deal, tuple(sum([1 << i for i in hand]) for hand in held)


def sorted_deal(
    hands: tuple[tuple[Tile, ...], ...],
    starter: Tile | None,
    set_aside: tuple[Tile, ...],
    first_seat: int,
) -> Deal:
    """A :class:`Deal` of tiles already in canonical order, built without its converters.

    They only sort, and sorting compares tiles one Python call at a time: it was the most
    expensive step of a seeded deal. The result is an ordinary frozen deal.
    """
    deal = object.__new__(Deal)
    object.__setattr__(deal, "hands", hands)
    object.__setattr__(deal, "starter", starter)
    object.__setattr__(deal, "set_aside", set_aside)
    object.__setattr__(deal, "first_seat", first_seat)
    return deal
