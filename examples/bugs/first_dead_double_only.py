"""Seeded bug: when a seat holds two dead doubles, only the first one is valued.

Breaks rule ``partner.dead-double``: when a seat goes out, every double left with the other
pair that can no longer be placed counts its dead value (6-6 ``top_double_bonus``, 0-0
``blank_double_bonus``). The engine stops at the first dead double it finds in a seat, so a
seat holding both a dead 6-6 and a dead 0-0 is valued for the 6-6 only.

Rare: of 5,000 seeded random hands of suwiki-partnership (``examples/bugs/rates.py``) it
changes no first hand (0-0 is led first) and 18 later hands (0.4%).
"""

from __future__ import annotations

from gaple_engine import Game, Tile

RULE = "partner.dead-double"


class Engine(Game):
    def dead_doubles(self, seat: int) -> list[tuple[Tile, int]]:
        return super().dead_doubles(seat)[:1]  # bug: the search stops at the first dead double
