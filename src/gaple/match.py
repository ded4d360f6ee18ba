"""Matches: a run of hands, running totals per side, who opens next, and when it ends.

A :class:`MatchState` is a frozen value; :func:`record_hand` returns the next one. The end
of a match depends on the ruleset:

* a ``target`` (difference points, partnership): the match ends after the hand in which a
  side's total first reaches the target (rule ``match.target``);
* ``match_hands`` (cumulative): after that many hands the lowest total wins; a tie plays
  further hands, one at a time, until it is broken (rule ``match.rounds``);
* neither (per-hand, chips, or any settlement without a target): the match is a single hand
  won by that hand's winner (rule ``match.single-hand``). Chips are a running balance a
  table can keep across as many such matches as it likes; no source gives chips an end, so
  the model gives them none.

A hand that a tied challenge voids (REPLAY) is dealt again with the same designated seat and
the same first-hand flag; it adds no points and does not count as a hand played.

Every one of these rules is decided by :mod:`gaple.reference.match`: a :class:`MatchState` is
the reference's :class:`~gaple.reference.match.Tally` with the hands' results beside it, and
this module only checks that a hand belongs to the match and words it.

>>> from gaple.presets import ruleset
>>> results, match = play_match(ruleset("block100"), seed=1)
>>> match.finished, max(match.totals) >= 100
(True, True)
"""

from __future__ import annotations

from attrs import frozen

from gaple.deal import Deal, SplitMix64, shuffle_deal
from gaple.reference.match import Tally, after_hand, start_hand, start_tally
from gaple.result import HandResult, format_result, hand_result
from gaple.rules import Ruleset
from gaple.simulate import play_out
from gaple.state import State

__all__ = [
    "MatchError",
    "MatchState",
    "MatchTooLong",
    "format_match",
    "next_deal",
    "play_match",
    "record_hand",
    "start_match",
    "start_next_hand",
]


class MatchError(ValueError):
    """A hand that does not belong to the match at this point, or a finished match."""


class MatchTooLong(MatchError):
    """:func:`play_match` dealt its cap of hands without the match ending."""


@frozen
class MatchState:
    """A match between hands: the hands played and the reference's tally of them
    (:class:`~gaple.reference.match.Tally`), which decides totals, the next opener and the end."""

    rules: Ruleset
    """The options in force."""
    results: tuple[HandResult, ...]
    """Every hand dealt so far, replayed ones included, in order."""
    tally: Tally
    """The match as the match rules see it (:mod:`gaple.reference.match`)."""

    @property
    def totals(self) -> tuple[int, ...]:
        """Each side's running total (:attr:`~gaple.reference.equipment.Table.teams` order)."""
        return self.tally.totals

    @property
    def hands_played(self) -> int:
        """Hands that counted (a replayed hand does not)."""
        return self.tally.hands_played

    @property
    def next_first_seat(self) -> int | None:
        """The designated seat of the next deal (rule ``match.opener``); ``None`` before the
        first hand, whose designated seat the deal draws by lot."""
        return self.tally.upcoming.first_seat

    @property
    def first_hand(self) -> bool:
        """Whether the next hand is the match's first (it decides the lead rule)."""
        return self.tally.upcoming.first_hand

    @property
    def finished(self) -> bool:
        """Whether the match has ended."""
        return self.tally.winner is not None

    @property
    def winner(self) -> int | None:
        """The winning side (index in :attr:`~gaple.reference.equipment.Table.teams`) once
        finished."""
        return self.tally.winner


def start_match(rules: Ruleset) -> MatchState:
    """A match before its first hand: totals at zero."""
    return MatchState(rules=rules, results=(), tally=start_tally(rules))


def next_deal(match: MatchState, seed: int) -> Deal:
    """The next deal shuffled from ``seed`` (:func:`~gaple.deal.shuffle_deal`), its designated
    seat the match's (by lot from the seed for the first hand)."""
    return shuffle_deal(match.rules, seed, first_seat=match.next_first_seat)


def start_next_hand(match: MatchState, deal: Deal) -> State:
    """The start of the match's next hand from ``deal``.

    The deal supplies the tiles; the match supplies the first-hand flag and, after the first
    hand, the designated seat (the previous winner, rule ``match.opener``), which replaces the
    deal's own ``first_seat``.

    Raises:
        MatchError: the match has finished.
        gaple.hand.InvalidDeal: the deal does not fit the rules.
    """
    if match.finished:
        msg = f"the match has finished (won by side {match.winner}); no further hand is dealt"
        raise MatchError(msg)
    return start_hand(match.rules, deal, match.tally.upcoming)


def record_hand(match: MatchState, state: State) -> MatchState:
    """The match after the finished hand ``state``: totals, the next opener, the end.

    Raises:
        MatchError: the match has finished, or ``state`` is not its next hand (other rules,
            another first-hand flag or designated seat) or has not ended.
    """
    if match.finished:
        msg = "the match has finished; no further hand can be recorded"
        raise MatchError(msg)
    if state.rules != match.rules:
        msg = "the hand was played under other rules than the match"
        raise MatchError(msg)
    if state.first_hand != match.first_hand:
        msg = f"the match's next hand has first_hand={match.first_hand}, the hand has the opposite"
        raise MatchError(msg)
    if match.next_first_seat is not None and state.deal.first_seat != match.next_first_seat:
        msg = (
            f"the match's next hand is designated to seat {match.next_first_seat}, the hand's "
            f"deal to seat {state.deal.first_seat}; start it with start_next_hand"
        )
        raise MatchError(msg)
    if not state.is_over:
        msg = "the hand has not ended, so it cannot be recorded"
        raise MatchError(msg)
    result = hand_result(state)
    tally = after_hand(
        match.rules,
        match.tally,
        designated=state.deal.first_seat,
        winner=result.winner,
        points=result.points,
    )
    return MatchState(rules=match.rules, results=(*match.results, result), tally=tally)


def play_match(
    rules: Ruleset, seed: int, *, max_hands: int = 1000
) -> tuple[tuple[HandResult, ...], MatchState]:
    """Play a whole match with random legal moves, reproducibly from ``seed``.

    A :class:`~gaple.deal.SplitMix64` seeded with ``seed`` gives one number per deal, ``k``;
    the deal is :func:`next_deal` of ``k`` and the moves come from
    :func:`~gaple.simulate.play_out` with ``SplitMix64(k + 1)`` (as in
    :func:`~gaple.simulate.random_hand`).

    Returns:
        Every hand's result (replays included) and the finished match.

    Raises:
        MatchTooLong: ``max_hands`` deals did not finish the match.
    """
    deals = SplitMix64(seed)
    match = start_match(rules)
    while not match.finished:
        if len(match.results) >= max_hands:
            msg = (
                f"the match did not end within {max_hands} deals (totals {list(match.totals)}); "
                "raise max_hands or check the target"
            )
            raise MatchTooLong(msg)
        k = deals.next()
        state = start_next_hand(match, next_deal(match, k))
        match = record_hand(match, play_out(state, SplitMix64(k + 1)))
    return match.results, match


def format_match(match: MatchState, *, hands: bool = False) -> str:
    """The match as text: one line per hand and the totals; with ``hands``, every hand's
    full :func:`~gaple.result.format_result` too."""
    rules = match.rules
    side = "team" if rules.partnership else "seat"
    lines = []
    for number, result in enumerate(match.results, start=1):
        won = "replayed (tied challenge)" if result.replay else f"won by seat {result.winner}"
        points = ", ".join(f"{p:+d}" for p in result.points)
        lines.append(f"hand {number}: {result.ending.value}, {won}; points {points}")
        if hands:
            lines.extend("  " + line for line in format_result(result).splitlines())
    lines.append("totals: " + ", ".join(f"{side} {i} {t}" for i, t in enumerate(match.totals)))
    if match.finished:
        lines.append(f"winner: {side} {match.winner} after {match.hands_played} hand(s)")
    else:
        lines.append(f"not finished after {match.hands_played} hand(s)")
    return "\n".join(lines)
