"""Matches: when a run of hands ends, who wins it, and who opens the next hand.

Rules ``match.target``, ``match.rounds``, ``match.single-hand`` and ``match.opener``, over the
sides' running totals and each hand's winner and points (which the settlement decides).
"""

from __future__ import annotations

import attrs
from attrs import frozen

from gaple.hand import Deal, State
from gaple.reference.deciding import decides
from gaple.reference.equipment import table
from gaple.reference.opening import new_hand
from gaple.rules import Ruleset, Settlement

__all__ = [
    "NextHand",
    "Tally",
    "after_hand",
    "match_winner",
    "next_hand",
    "rounds_winner",
    "single_hand_winner",
    "start_hand",
    "start_tally",
    "target_winner",
]


@decides("match.single-hand")
def single_hand_winner(hand_winner: int) -> int:
    """A match with neither a target nor an agreed number of hands (per-hand and chips
    settlement) is a single hand, won by the side that won it (PAGAT, CHIPS, DOMINO4D)."""
    return hand_winner


@decides("match.target")
def target_winner(target: int, totals: tuple[int, ...]) -> int | None:
    """A points match ends after the hand in which a side first reaches the target: the side
    alone on the highest total, once that total is at least the target, wins (SUWIKI,
    BLOCK100). Only one side gains in a hand under difference and partnership points, so two
    sides cannot reach it together; a shared lead would play on."""
    best = max(totals)
    leaders = [side for side, total in enumerate(totals) if total == best]
    if best >= target and len(leaders) == 1:
        return leaders[0]
    return None


@decides("match.rounds")
def rounds_winner(match_hands: int, totals: tuple[int, ...], played: int) -> int | None:
    """A cumulative match ends after the agreed number of hands: the side alone on the lowest
    total wins, and a tie plays further hands until it is broken (CHIPS)."""
    low = min(totals)
    lowest = [side for side, total in enumerate(totals) if total == low]
    if played >= match_hands and len(lowest) == 1:
        return lowest[0]
    return None


@decides("match.opener")
def next_hand(designated: int, winner: int | None, *, first_hand: bool) -> NextHand:
    """After a hand designated to seat ``designated`` and won by seat ``winner``, the next hand
    is designated to the winner and led by the later hands' rule (PAGAT, BLOCK100, SUWIKI); a
    hand a tied challenge voids (no winner) is dealt again as it was."""
    if winner is None:
        return NextHand(first_seat=designated, first_hand=first_hand)
    return NextHand(first_seat=winner, first_hand=False)


def match_winner(
    rules: Ruleset, totals: tuple[int, ...], played: int, hand_winner: int
) -> int | None:
    """The side that has won the match after ``played`` counted hands, whose last was won by
    side ``hand_winner``, or ``None`` to play on."""
    if rules.target is not None:
        return target_winner(rules.target, totals)
    if rules.settlement is Settlement.CUMULATIVE:
        assert rules.match_hands is not None  # a cumulative ruleset always has one
        return rounds_winner(rules.match_hands, totals, played)
    return single_hand_winner(hand_winner)


@frozen
class NextHand:
    """How the next hand of a match is dealt and opened."""

    first_seat: int | None
    """The designated seat, or ``None`` for the first hand, whose seat is drawn by lot."""
    first_hand: bool
    """Whether the first hand's lead rule applies."""


def start_hand(rules: Ruleset, deal: Deal, upcoming: NextHand) -> State:
    """The start of the next hand from ``deal``, its designated seat replaced by the match's
    when the match has one."""
    if upcoming.first_seat is not None:
        deal = attrs.evolve(deal, first_seat=upcoming.first_seat)
    return new_hand(rules, deal, first_hand=upcoming.first_hand)


@frozen
class Tally:
    """A match between hands, as the match rules see it."""

    totals: tuple[int, ...]
    """Each side's running total."""
    hands_played: int
    """The hands that counted (a replayed hand does not)."""
    upcoming: NextHand
    """How the next hand is dealt and opened."""
    winner: int | None
    """The side that won the match, once it has ended."""


def start_tally(rules: Ruleset) -> Tally:
    """A match before its first hand: every total at zero."""
    return Tally(
        totals=tuple(0 for _ in table(rules).teams),
        hands_played=0,
        upcoming=NextHand(first_seat=None, first_hand=True),
        winner=None,
    )


def after_hand(
    rules: Ruleset,
    tally: Tally,
    *,
    designated: int,
    winner: int | None,
    points: tuple[int, ...],
) -> Tally:
    """The match after a hand designated to seat ``designated``, won by seat ``winner`` (or
    ``None`` when a tied challenge voids it) with ``points`` per side."""
    upcoming = next_hand(designated, winner, first_hand=tally.upcoming.first_hand)
    if winner is None:
        return attrs.evolve(tally, upcoming=upcoming)
    totals = tuple(total + gained for total, gained in zip(tally.totals, points, strict=True))
    played = tally.hands_played + 1
    side = table(rules).team_of(winner)
    return Tally(
        totals=totals,
        hands_played=played,
        upcoming=upcoming,
        winner=match_winner(rules, totals, played, side),
    )
