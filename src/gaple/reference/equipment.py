"""Equipment and seats: the tiles of the set and the seats round the table.

Rules ``tiles.set`` and ``table.seats``, as the first page of the rules states them.
"""

from __future__ import annotations

from attrs import frozen

from gaple.reference.deciding import decides
from gaple.rules import InvalidRuleset, Ruleset
from gaple.tiles import Tile

__all__ = ["Table", "set_of", "table"]


@decides("tiles.set")
def set_of(max_pip: int) -> tuple[Tile, ...]:
    """The double-``max_pip`` set: every unordered pair of pip values from 0 to ``max_pip``
    exactly once, in canonical order ``0-0, 0-1, ..., 0-N, 1-1, ..., N-N`` (PAGAT, DOMINO4D:
    double-six, 28 tiles)."""
    return tuple(Tile(low, high) for low in range(max_pip + 1) for high in range(low, max_pip + 1))


@decides("table.seats")
def table(rules: Ruleset) -> Table:
    """Seats are numbered from 0 and act in that order, wrapping round; partnership play needs
    exactly four seats, and seats 0 and 2 are partners against seats 1 and 3 (SUWIKI, PAGAT).

    Raises:
        gaple.rules.InvalidRuleset: partnership play with other than four seats.
    """
    seats = tuple(range(rules.players))
    if rules.partnership:
        if rules.players != 4:
            msg = f"partnership play needs exactly 4 seats, got {rules.players}"
            raise InvalidRuleset(msg)
        return Table(seats=seats, teams=((0, 2), (1, 3)))
    return Table(seats=seats, teams=tuple((seat,) for seat in seats))


@frozen
class Table:
    """The seats in turn order and the sides they play for."""

    seats: tuple[int, ...]
    """Every seat, numbered from 0 in turn order."""
    teams: tuple[tuple[int, ...], ...]
    """The sides: partners together, or one seat each."""

    def after(self, seat: int) -> int:
        """The seat that acts after ``seat`` (its 'below' or 'left'), wrapping round."""
        return (seat + 1) % len(self.seats)

    def before(self, seat: int) -> int:
        """The seat that acts just before ``seat``, wrapping round."""
        return (seat - 1) % len(self.seats)

    def in_turn_from(self, seat: int) -> tuple[int, ...]:
        """Every seat once, in turn order, starting with ``seat``."""
        return tuple((seat + k) % len(self.seats) for k in range(len(self.seats)))

    def team_of(self, seat: int) -> int:
        """The index in :attr:`teams` of the side ``seat`` plays for."""
        return next(side for side, team in enumerate(self.teams) if seat in team)
