"""Seeded bug: under the 0-0 = 25 option, a blocked-hand challenge is tied on natural pips.

Breaks rule ``partner.challenge-tie``: the challenge compares the blocker's count with the next
seat's, and it is the counts that must be equal for a tie to be replayed. Under
``double_blank_25`` a lone 0-0 counts 25, while the tie-breaks of ``score.rank`` use its natural
0; the engine borrows that reading for the challenge's tie test, so two seats with equal pips
replay the hand although one of them counts 25 more (and wins or loses the challenge), and
equal counts that differ in pips are not replayed. Both situations are needed: a challenge whose
two seats have equal pips (or equal counts), and a lone 0-0 in one of them, which only the
option prices differently; in a first hand 0-0 is led, so only later hands show it.

Rare: of 20,000 seeded random hands of suwiki-partnership with ``double_blank_25=true``
(``examples/bugs/rates.py``) it changes no first hand and 24 later hands (1 in 833); with the
option off none of 5,000 first or later hands.
"""

from __future__ import annotations

from gaple_engine import Game, Result, pips

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
        natural = [sum(pips(t) for t in self.scoring_tiles(s)) for s in (blocker, challenger)]
        tied = natural[0] == natural[1]  # bug: a lone 0-0 taken at 0, not at its 25
        if tied and self.rules.challenge_tie == "replay":
            result.replay = True
            return None
        if counts[blocker] < counts[challenger] and not tied:
            base = self.stake(counts, self.rules.challenge_win_base, mine)
            result.points[mine] += base * self.rules.challenge_win_multiplier
            return blocker
        base = self.stake(counts, self.rules.challenge_loss_base, mine)
        result.points[theirs] += base * self.rules.challenge_loss_multiplier
        return challenger
