"""Seeded bug: after a hand ends on a discard, the low-half tie-break reads the high half.

Breaks rule ``score.rank``: between equal counts the seat whose lowest tile has the fewest
pips wins, then the seat whose lowest tile has the lower low half. The engine keeps the
tiles of a hand that ended on a discard in another order (high half first, as it logs a
discard), so at the low-half step it compares high halves: between two lowest tiles of equal
pips the lower high half is the higher low half, and the other seat wins. Both situations
are needed: the hand ends on a discard (a seat goes out by discarding, which only the discard
option allows), and the lowest count is shared by seats whose lowest tiles tie on pips
(1-3 against 0-4); a hand ended by a placement is ranked right, and so is any other tie.

Cells: ``lowest=tie-by-low-end & last-move=discard``, in pagat-4x7's own rules (1 hand in 46
is a tie decided by the low half, and the discard option ends 1 hand in 3 on a discard).
Rare: of 5,000 seeded random hands of pagat-4x7 (``examples/bugs/rates.py --cell``) it
changes 67 first hands (1 in 75): every hand reaching its cell, and none outside it.
"""

from __future__ import annotations

from gaple_engine import Game, pips

RULE = "score.rank"


class Engine(Game):
    def rank_key(self, seat: int) -> tuple[int, tuple[int, int]]:
        count, lowest = super().rank_key(seat)
        move = self.last_move
        tiles = self.scoring_tiles(seat)
        if tiles and move is not None and move.kind == "discard":
            lowest = min((pips(t), t[1]) for t in tiles)  # bug: the high half, not the low
        return (count, lowest)
