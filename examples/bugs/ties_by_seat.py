"""Seeded bug: equal counts are settled in favour of the lowest seat number.

Breaks rule ``score.rank``: between equal counts the seat whose lowest tile has the fewest
pips wins, then the lower end of that tile, and a seat with no tiles ranks first. The
engine just takes the first seat with the lowest count.
"""

from __future__ import annotations

from gaple_engine import Game

RULE = "score.rank"


class Engine(Game):
    def rank_key(self, seat: int) -> tuple[int, tuple[int, int]]:
        return (self.count(seat), (seat, 0))  # bug: the seat number breaks ties
