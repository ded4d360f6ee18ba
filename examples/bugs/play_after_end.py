"""Seeded bug: actions are still accepted after the hand has ended.

Breaks rule ``end.final``: once a seat has gone out or the hand is blocked, nothing more may
be played. The engine reports the end but keeps accepting moves from the next seat.
"""

from __future__ import annotations

from gaple_engine import Game

RULE = "end.final"


class Engine(Game):
    def check_not_over(self) -> None:
        pass  # bug: the end of the hand is not checked
