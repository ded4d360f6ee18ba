"""A finished hand reckoned by the rules: counts, ranking, winner, team and points, as facts.

:func:`reckon` applies the rules of :mod:`~gaple.reference.counting`,
:mod:`~gaple.reference.settlement` and :mod:`~gaple.reference.partnership` to a finished
:class:`~gaple.hand.Position` and keeps what each decided; :func:`gaple.result.score_position`
words its notes from this :class:`Reckoning`.

>>> from gaple.position import make_position
>>> from gaple.presets import ruleset
>>> from gaple.hand import Ending
>>> from gaple.tiles import parse_tiles
>>> position = make_position(  # PAGAT-ID's first tie-break example, as a blocked 4 x 6 hand
...     ruleset("pagat-4x6"),
...     hands=[parse_tiles("1-1 1-3"), parse_tiles("1-5"), parse_tiles("2-4"), parse_tiles("2-3")],
...     set_aside=parse_tiles("0-4 0-5 6-6"), ends=(0, 0), ending=Ending.BLOCKED, blocker=0)
>>> reckoning = reckon(position)
>>> [entry.seat for entry in reckoning.ranking], reckoning.winner
([3, 0, 1, 2], 3)
"""

from __future__ import annotations

from attrs import frozen

from gaple.hand import Position
from gaple.reference.counting import SeatCount, SeatRank, count_seat, rank, winning_team
from gaple.reference.equipment import table
from gaple.reference.partnership import PartnershipScore, score_partnership
from gaple.reference.settlement import Settling, settle
from gaple.rules import Settlement

__all__ = ["Reckoning", "counts_of", "reckon"]


@frozen
class Reckoning:
    """Everything the rules decide about a finished hand, each with the facts behind it."""

    position: Position
    """The position reckoned."""
    counts: tuple[SeatCount, ...]
    """Each seat's count, in seat order."""
    ranking: tuple[SeatRank, ...]
    """The seats from best to worst."""
    settling: Settling | None
    """Under an individual settlement, its points; else ``None``."""
    partnership: PartnershipScore | None
    """Under partnership scoring, its facts; else ``None``."""
    winner: int | None
    """The winning seat; ``None`` only when a tied challenge is replayed."""
    winning_team: int | None
    """With teams, the winner's team."""
    points: tuple[int, ...]
    """What each side (:attr:`~gaple.reference.equipment.Table.teams` order) receives."""

    @property
    def replay(self) -> bool:
        """Whether the hand is void and dealt again (a tied challenge replayed)."""
        return self.winner is None


def counts_of(pos: Position) -> tuple[SeatCount, ...]:
    """Each seat's count of ``pos`` (:func:`~gaple.reference.counting.count_seat`)."""
    return tuple(
        count_seat(s, pos.hands[s], pos.discards[s], double_blank_25=pos.rules.double_blank_25)
        for s in range(pos.rules.players)
    )


def reckon(pos: Position) -> Reckoning:
    """Count every seat, rank them, find the winner and its team, and settle the points."""
    rules = pos.rules
    counts = counts_of(pos)
    ranking = rank(counts)
    settling: Settling | None = None
    points: tuple[int, ...]
    partnership: PartnershipScore | None = None
    if rules.settlement is Settlement.PARTNERSHIP:
        partnership = score_partnership(pos, counts)
        winner, points = partnership.winner, partnership.points
    else:
        winner = ranking[0].seat
        settling = settle(rules.settlement, [c.count for c in counts], winner)
        points = settling.points
        if rules.partnership:  # each team receives what its seats do
            points = tuple(sum(settling.points[s] for s in team) for team in table(rules).teams)
    return Reckoning(
        position=pos,
        counts=counts,
        ranking=ranking,
        settling=settling,
        partnership=partnership,
        winner=winner,
        winning_team=winning_team(rules, winner),
        points=points,
    )
