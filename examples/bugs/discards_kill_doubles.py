"""Seeded bug: a tile its holder discarded counts as played, so the holder's double can die.

Breaks rule ``partner.dead-double``: a special double left in a hand of the losing pair is dead
only when no open end shows its number and every other tile of that number is in the line. A
tile of the number discarded face down has left play without reaching the line, so it keeps
the double alive (vector ``cover-alive-discarded``). The engine counts the holder's own
discards with the line, on the reasoning that a seat that threw its six away can no longer
play sixes. Both situations are needed: an opponent goes out while the double is stuck, and
the tiles of its number not in the line were all discarded by the double's own holder, which
only the discard house rule (``blocked_action = discard``) allows.

Rare: of 20,000 seeded random hands of suwiki-partnership with ``blocked_action=discard``
(``examples/bugs/rates.py``) it changes 39 first hands (1 in 513) and 49 later hands (1 in
408); under the preset's ``pass`` none of 5,000 first or later hands.
"""

from __future__ import annotations

from gaple_engine import Game, Tile, tile

RULE = "partner.dead-double"


class Engine(Game):
    def dead_doubles(self, seat: int) -> list[tuple[Tile, int]]:
        dead = []
        played = {tile(*piece) for piece in self.line}.union(self.discards[seat])  # bug
        for double in ((self.rules.max_pip, self.rules.max_pip), (0, 0)):
            value = self.bonus_of(double)
            ends = self.ends()
            if value == 0 or double not in self.hands[seat] or (ends and double[0] in ends):
                continue
            suit = [t for t in self.rules.all_tiles() if double[0] in t and t != double]
            if all(t in played for t in suit):
                dead.append((double, value))
        return dead
