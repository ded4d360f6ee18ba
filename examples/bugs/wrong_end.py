"""Seeded bug: a placement goes on whichever end fits, not on the end the move names.

Breaks rule ``play.match-end``: a move names its end, and a tile fitting both ends makes two
different moves. The engine looks for a fitting end itself (right first), so a tile that fits
both ends always goes right, and ``place X left`` is accepted (and put on the right) when only
the right end matches.
"""

from __future__ import annotations

from gaple_engine import LEFT, RIGHT, Game, Tile

RULE = "play.match-end"


class Engine(Game):
    def fitting_end(self, t: Tile, end: str) -> str | None:  # noqa: ARG002 -- the bug
        for candidate in (RIGHT, LEFT):  # bug: ignores the named end
            if self.end_value(candidate) in t:
                return candidate
        return None
