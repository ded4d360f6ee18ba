"""Seeded bug: the opening rule is ignored; the designated seat leads any tile.

Breaks rules ``open.double-blank`` and ``open.double`` (and ``open.forbidden``): in a 4 x 7
first hand the holder of 0-0 must lead 0-0, in later hands the lead must be a double. The
engine lets the deal's first seat open with whatever it likes.
"""

from __future__ import annotations

from gaple_engine import Game, Tile

RULE = "open.double-blank"


class Engine(Game):
    def allowed_leads(self) -> set[Tile]:
        return set(self.rules.all_tiles())  # bug: no opening rule at all
