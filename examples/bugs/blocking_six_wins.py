"""Seeded bug: a seat that blocks the hand with 6-6 wins it, whatever its count.

Breaks rule ``score.rank``: a blocked hand goes to the lowest count, then the tie-breaks; who
blocked it does not matter in individual play. The engine takes SUWIKI's closing double into
individual play: a hand ended by laying 6-6 is "closed" by its layer, and the engine hands the
win to the seat that closed it, as to a seat that goes out. Both situations are needed: the
hand ends blocked (a seat that goes out wins anyway, its count being lowest), and the tile
that blocked it is 6-6; the bug shows when the blocker's count is not the lowest.

Cells: ``ending=blocked & last-tile=top-double``, in the preset's own rules (3 hands in 10
end blocked, 1 in 16 on 6-6). Rare: of 5,000 seeded random hands of chips
(``examples/bugs/rates.py``) it changes 38 (1 in 132), all in its cell (reached by 71: in the
others the blocker had the lowest count); later hands, also begun by a starter, alike.
"""

from __future__ import annotations

from gaple_engine import BLOCKED, Game

RULE = "score.rank"


class Engine(Game):
    def winner(self) -> int:
        move = self.last_move
        top = (self.rules.max_pip, self.rules.max_pip)
        closed = move is not None and move.kind == "place" and move.tile == top
        if self.ending == BLOCKED and closed and self.last_placer is not None:
            return self.last_placer  # bug: blocking with 6-6 is not going out
        return super().winner()
