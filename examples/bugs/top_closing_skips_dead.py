"""Seeded bug: when a seat goes out by laying the top double, no double of the losers dies.

Breaks rule ``partner.dead-double``: when a seat goes out, every special double left in a hand
of the other pair whose number can no longer be played counts its dead value, whatever tile
closed the hand; the closing bonus (``partner.closing-double``) comes on top. The engine skips
the dead-double search when the last tile laid is 6-6, on the reasoning that every six is then
in the line, so nothing can be dead; that holds for 6-6 but forgets a dead 0-0 worth
``blank_double_bonus``. Both situations are needed: a seat closes with 6-6, and a 0-0 of the
opponents is dead at that moment. With ``blank_double_bonus = 0`` only 6-6 can die, and a 6-6
laid last is in the line, so the bug cannot show; under the first-hand 0-0 lead neither.

Rare: of 20,000 seeded random hands of suwiki-partnership (``examples/bugs/rates.py``) it
changes no first hand and 55 later hands (1 in 364); with ``blank_double_bonus=0`` none of
5,000 first or later hands.
"""

from __future__ import annotations

from gaple_engine import Game, Tile

RULE = "partner.dead-double"


class Engine(Game):
    def dead_doubles(self, seat: int) -> list[tuple[Tile, int]]:
        move = self.last_move
        top = (self.rules.max_pip, self.rules.max_pip)
        if move is not None and move.kind == "place" and move.tile == top:
            return []  # bug: a dead 0-0 is possible after 6-6 closes
        return super().dead_doubles(seat)
