"""Seeded bug: equal counts whose lowest tiles have equal pips go to the lower seat.

Breaks rule ``score.rank``: between equal counts the seat whose lowest tile has the fewest
pips wins, then the one whose lowest tile has the lower end (1-3 beats 2-2). The engine
compares the pips of the lowest tiles only, so the lower seat number wins when they are
equal.

Rare: of 5,000 seeded random hands of domino4d (``examples/bugs/rates.py``) it changes 9 first
hands (0.2%) and 4 later hands (0.1%); in pagat-4x7 about 1 hand in 100.
"""

from __future__ import annotations

from gaple_engine import Game, pips

RULE = "score.rank"


class Engine(Game):
    def rank_key(self, seat: int) -> tuple[int, tuple[int, int]]:
        tiles = self.scoring_tiles(seat)
        if not tiles:
            return (self.count(seat), (-1, -1))
        lowest = min(pips(t) for t in tiles)
        return (self.count(seat), (lowest, 0))  # bug: the low end of the lowest tile is lost
