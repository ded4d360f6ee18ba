"""Individual settlements: how the counts of a finished hand turn into each seat's points.

Each settlement is one function; :func:`settle` chooses by the option. Partnership scoring
reads the whole position and lives in :mod:`gaple.reference.partnership`.

>>> settle(Settlement.CHIPS, [12, 5, 11, 7], winner=1).points
(-7, 15, -6, -2)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from attrs import frozen

from gaple.reference.deciding import decides
from gaple.rules import Settlement

__all__ = [
    "Settling",
    "settle",
    "settle_chips",
    "settle_cumulative",
    "settle_difference",
    "settle_per_hand",
]


@decides("settle.per-hand")
def settle_per_hand(counts: Sequence[int], winner: int) -> Settling:
    """Per-hand settlement names the winner of each hand and awards no points."""
    return _settling(Settlement.PER_HAND, counts, winner, [0] * len(counts))


@decides("settle.chips")
def settle_chips(counts: Sequence[int], winner: int) -> Settling:
    """The winner collects from every other seat the difference between that seat's count and
    its own; that seat pays it."""
    own = counts[winner]
    total = sum(c - own for c in counts)
    points = [total if s == winner else own - c for s, c in enumerate(counts)]
    return _settling(Settlement.CHIPS, counts, winner, points)


@decides("settle.difference")
def settle_difference(counts: Sequence[int], winner: int) -> Settling:
    """The winner scores the sum of the differences between each other seat's count and its
    own; nobody else scores."""
    own = counts[winner]
    total = sum(c - own for c in counts)
    points = [total if s == winner else 0 for s in range(len(counts))]
    return _settling(Settlement.DIFFERENCE, counts, winner, points)


@decides("settle.cumulative")
def settle_cumulative(counts: Sequence[int], winner: int) -> Settling:
    """Every seat adds its own count to its running total."""
    return _settling(Settlement.CUMULATIVE, counts, winner, counts)


def settle(settlement: Settlement, counts: Sequence[int], winner: int) -> Settling:
    """The points of each seat under the individual ``settlement``.

    Raises:
        ValueError: ``settlement`` is partnership scoring, which needs the whole position.
    """
    if settlement not in _SETTLE:
        msg = "partnership points depend on the whole position: use score_position"
        raise ValueError(msg)
    return _SETTLE[settlement](counts, winner)


@frozen
class Settling:
    """The points of each seat under an individual settlement, and what they were made of."""

    settlement: Settlement
    """The settlement applied."""
    winner: int
    """The winning seat."""
    counts: tuple[int, ...]
    """Each seat's count."""
    points: tuple[int, ...]
    """Each seat's points this hand."""

    @property
    def differences(self) -> tuple[tuple[int, int], ...]:
        """(seat, its count minus the winner's) for every seat but the winner, in seat order."""
        own = self.counts[self.winner]
        return tuple((s, c - own) for s, c in enumerate(self.counts) if s != self.winner)

    @property
    def total(self) -> int:
        """The sum of the differences: what the winner collects or scores."""
        return sum(d for _, d in self.differences)


def _settling(
    settlement: Settlement, counts: Sequence[int], winner: int, points: Sequence[int]
) -> Settling:
    return Settling(settlement, winner, tuple(counts), tuple(points))


_SETTLE: dict[Settlement, Callable[[Sequence[int], int], Settling]] = {
    Settlement.PER_HAND: settle_per_hand,
    Settlement.CHIPS: settle_chips,
    Settlement.DIFFERENCE: settle_difference,
    Settlement.CUMULATIVE: settle_cumulative,
}
