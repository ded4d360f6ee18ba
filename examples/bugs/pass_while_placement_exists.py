"""Seeded bug: a seat may pass (or discard) although one of its tiles fits.

Breaks rule ``turn.forced-play``: play is forced, so a stuck-seat action is only for a seat
with no tile matching either end. The engine forgets the check, so ``pass`` (or every
``discard``) is offered and accepted next to the placements.
"""

from __future__ import annotations

from gaple_engine import Game

RULE = "turn.forced-play"


class Engine(Game):
    def must_place(self, seat: int) -> bool:  # noqa: ARG002 -- the bug
        return False  # bug: never forces a placement
