"""Seeded bug: the hand is declared blocked as soon as one seat passes or discards.

Breaks rule ``end.blocked``: the hand is blocked only when no seat that holds tiles can
place; a single pass or discard never ends it. The engine takes "someone is stuck" for
"everyone is stuck".
"""

from __future__ import annotations

from gaple_engine import Game, Move

RULE = "end.blocked"


class Engine(Game):
    def blocked_after(self, move: Move) -> bool:
        return move.kind in ("pass", "discard") or super().blocked_after(move)  # bug
