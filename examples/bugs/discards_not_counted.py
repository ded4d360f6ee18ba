"""Seeded bug: face-down discards are left out of the count.

Breaks rule ``score.count``: a seat's count is its hand plus the tiles it discarded, which
stay its own and count against it. The engine counts the hand only.
"""

from __future__ import annotations

from gaple_engine import Game, Tile

RULE = "score.count"


class Engine(Game):
    def scoring_tiles(self, seat: int) -> list[Tile]:
        return list(self.hands[seat])  # bug: forgets self.discards[seat]
