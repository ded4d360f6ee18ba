"""Seeded bug: laying 0-0 is taken for the opening lead, so it never blocks the hand.

Breaks rule ``end.blocked``: the hand ends as soon as no seat that still holds tiles can
place one, whichever tile was laid last. The engine skips the block test after a lead (a lead
never blocks: every number has tiles left in the hands), but it tells the lead by its tile,
0-0 under the double-blank opening rule, rather than by the move. In a hand begun by a
turned-up starter 0-0 is placed like any other tile, and when it is the last tile anyone
could play the engine keeps the hand going: it reports no ending and asks the next seat to
discard. Both situations are needed: the hand ends blocked, and the tile that blocked it is
0-0.

Cells: ``ending=blocked & last-tile=double-blank``, in the preset's own rules (1 hand in 6
ends blocked, 1 in 22 on 0-0). Rare: of 5,000 seeded random hands of pagat-5x5
(``examples/bugs/rates.py``) it changes 32 (1 in 156), every hand of its cell and no other;
later hands, also begun by a starter, alike. Under pagat-4x7's first hands 0-0 is led, and a
lead never blocks, so only later hands there show it.
"""

from __future__ import annotations

from gaple_engine import Game, Move

RULE = "end.blocked"


class Engine(Game):
    def blocked_after(self, move: Move) -> bool:
        if move.tile == (0, 0):
            return False  # bug: 0-0 is the opening lead only in a hand without a starter
        return super().blocked_after(move)
