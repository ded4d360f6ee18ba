"""Seeded bug: a blocker that lays 6-6 and loses the challenge forfeits the 6-6 bonus.

Breaks rule ``partner.challenge``: a blocked hand is settled by the challenge alone, whatever
tile blocked it; a lost challenge pays the other pair the loss stake and nothing more, the
6-6 bonus being earned only by going out with 6-6 (``partner.closing-double``). The engine
reads SUWIKI's neunggar cadas (a blocker that fails its challenge pays twice) as also
forfeiting the double it blocked with: when the blocking tile is 6-6 and the blocker's count
is not lower than the next seat's, the other pair scores ``top_double_bonus`` on top of the
loss stake. Both situations are needed: the hand is blocked by 6-6, and the blocker loses the
challenge; blocked by 6-6 and won (or tied, hence replayed), or lost after any other tile,
the hand scores right. It lives in the preset's own rules: no option needs changing.

Cells: ``challenge=lost & last-tile=top-double``, each rare (1 blocked hand in 4 is lost, 1
hand in 26 ends on 6-6). Rare: of 5,000 seeded random hands of suwiki-partnership
(``examples/bugs/rates.py``) it changes 12 first hands (1 in 417) and 16 later hands (1 in
313), every hand of its cell and no other.
"""

from __future__ import annotations

from gaple_engine import Game, Result

RULE = "partner.challenge"


class Engine(Game):
    def challenge_points(self, result: Result) -> int | None:
        winner = super().challenge_points(result)
        blocker = self.last_placer
        move = self.last_move
        top = (self.rules.max_pip, self.rules.max_pip)
        laid_top = move is not None and move.kind in ("lead", "place") and move.tile == top
        if laid_top and blocker is not None and winner is not None and winner != blocker:
            result.points[winner % 2] += self.rules.top_double_bonus  # bug: no bonus when blocked
        return winner
