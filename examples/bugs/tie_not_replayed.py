"""Seeded bug: a tied blocked-hand challenge is lost by the blocker even under ``replay``.

Breaks rule ``partner.challenge-tie``: with ``challenge_tie = replay`` (SUWIKI's reading) a
blocker whose count equals the next seat's scores nothing and the hand is dealt again. The
engine always applies the neunggar-cadas reading: the other pair takes the loss stake.

Rare: of 5,000 seeded random hands of suwiki-partnership (``examples/bugs/rates.py``) it
changes 36 first hands (0.7%) and 41 later hands (0.8%).
"""

from __future__ import annotations

from gaple_engine import Game, Result

RULE = "partner.challenge-tie"


class Engine(Game):
    def challenge_points(self, result: Result) -> int | None:
        players = self.rules.players
        blocker = self.last_placer
        if blocker is None:
            blocker = (self.first_seat - 1) % players
        challenger = (blocker + 1) % players
        counts = result.counts
        mine, theirs = blocker % 2, challenger % 2
        # bug: no replay when the counts are equal; a tie falls through to a lost challenge
        if counts[blocker] < counts[challenger]:
            base = self.stake(counts, self.rules.challenge_win_base, mine)
            result.points[mine] += base * self.rules.challenge_win_multiplier
            return blocker
        base = self.stake(counts, self.rules.challenge_loss_base, mine)
        result.points[theirs] += base * self.rules.challenge_loss_multiplier
        return challenger
