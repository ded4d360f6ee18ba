"""The fast, quiet scoring of a finished hand: the fields ``gaple check`` compares, on bitsets.

Each function mirrors a function of :mod:`gaple.reference`, named in its docstring, where the
rule is written out; the tests prove the two equal on every hand of the small sets and on
random positions. Nothing here words a reason.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from gaple.engine.memo import table
from gaple.hand import Ending, Lead, Place, Position, State
from gaple.reference.ending import blocker as blocking_seat
from gaple.rules import ChallengeTie, Ruleset, Settlement, StakeBase
from gaple.tiles import Tile, TileSet, iter_bits, tile_set

__all__ = [
    "DOUBLE_BLANK_BIT",
    "QuietFields",
    "RankKey",
    "blank_bonus",
    "played_position",
    "position_fields",
    "quiet_fields",
    "rank_keys",
    "ranked",
    "scoring_masks",
    "settle_points",
]

RankKey = tuple[int, int, int, int]
"""(count, 0 for no tiles else 1, pips of the lowest tile, its low half): the lowest ranks first;
:attr:`gaple.reference.counting.SeatRank.key`."""

DOUBLE_BLANK_BIT = 1
"""The bit of 0-0, the first tile of every set in canonical order (see :mod:`gaple.tiles`)."""


class QuietFields(NamedTuple):
    """The counts, winner, winning team, points and replay of a
    :class:`~gaple.result.HandResult`, in that order."""

    counts: tuple[int, ...]
    winner: int | None
    winning_team: int | None
    points: tuple[int, ...]
    replay: bool


def rank_keys(full: TileSet, masks: Iterable[int], double_blank_25: bool) -> list[RankKey]:
    """The rank key of each scoring set, given as a bitset of ``full``.

    Mirrors :func:`gaple.reference.counting.count_seat` and :func:`gaple.reference.counting.rank`.
    """
    pips = full.pips
    order = _pips_and_low(full.max_pip)
    keys: list[RankKey] = []
    for mask in masks:
        if not mask:
            keys.append((0, 0, 0, 0))
            continue
        count = blank_bonus(full, mask, double_blank_25)
        lowest = order[-1]  # N-N's: no tile of the set orders after it
        for i in iter_bits(mask):
            count += pips[i]
            lowest = min(lowest, order[i])
        keys.append((count, 1, *lowest))
    return keys


@functools.cache
def _pips_and_low(max_pip: int) -> tuple[tuple[int, int], ...]:
    """(pips, low half) of each tile of the set, by bit index.

    Mirrors no rule: a lookup table for :func:`rank_keys`.
    """
    return tuple((t.pips, t.low) for t in tile_set(max_pip).tiles)


def blank_bonus(full: TileSet, mask: int, double_blank_25: bool) -> int:
    """What 0-0 adds to the natural pips of a scoring set given as a bitset of ``full``.

    Mirrors :func:`gaple.reference.counting.blank_double`.
    """
    if not double_blank_25 or not mask & DOUBLE_BLANK_BIT:
        return 0
    return 0 if mask & full.suit[0] & ~DOUBLE_BLANK_BIT else 25


def ranked(keys: Sequence[RankKey]) -> tuple[int, ...]:
    """The seats in order of their rank keys, lowest first.

    Mirrors :func:`gaple.reference.counting.rank`.
    """
    return tuple(sorted(range(len(keys)), key=keys.__getitem__))


def settle_points(settlement: Settlement, counts: Sequence[int], winner: int) -> tuple[int, ...]:
    """Each seat's points under an individual settlement.

    Mirrors :func:`gaple.reference.settlement.settle`.
    """
    if settlement is Settlement.PER_HAND:
        return tuple(0 for _ in counts)
    if settlement is Settlement.CUMULATIVE:
        return tuple(counts)
    own = counts[winner]
    total = sum(counts) - own * len(counts)
    if settlement is Settlement.CHIPS:
        return tuple(total if s == winner else own - c for s, c in enumerate(counts))
    return tuple(total if s == winner else 0 for s in range(len(counts)))


def scoring_masks(state: State) -> tuple[int, ...]:
    """Each seat's hand and discards as one bitset, as
    :attr:`gaple.hand.Position.scoring_masks` keeps them: the tiles a seat is counted on.

    Mirrors :func:`gaple.reference.scoring.counts_of`.
    """
    return tuple(map(operator.or_, state.hand_masks, state.discard_masks))


def played_position(state: State) -> Position:
    """The finished position of a state reached by play, built without the converters and
    checks of :class:`~gaple.hand.Position`, as :func:`gaple.position.position_of` builds it.

    The state must have been reached by play (:func:`~gaple.state.new_hand`, then legal
    moves): its position is then reachable by construction, and every group of tiles is
    already a sorted tuple (bitsets unpack in canonical order). The checks cost more than
    the scoring itself.

    Mirrors no rule: it gathers the state's groups of tiles, and the blocker is the
    reference's own, called (:func:`gaple.reference.ending.blocker`).
    """
    assert state.ends is not None  # the hand has ended, so its line has begun
    full = state.tiles
    last = state.history[-1].move if state.history else None
    out = state.ending is Ending.OUT
    position = object.__new__(Position)
    for name, value in (
        ("rules", state.rules),
        ("hands", tuple(full.unpack(mask) for mask in state.hand_masks)),
        ("discards", tuple(full.unpack(mask) for mask in state.discard_masks)),
        ("line", full.unpack(state.line_mask)),
        ("set_aside", state.set_aside),
        ("ends", state.ends),
        ("ending", state.ending),
        ("out_seat", state.out_seat),
        ("blocker", None if out else blocking_seat(state)),
        ("closing", last.tile if out and isinstance(last, Lead | Place) else None),
        ("scoring_masks", scoring_masks(state)),
    ):
        object.__setattr__(position, name, value)
    return position


def quiet_fields(state: State) -> QuietFields:
    """The fields of :func:`gaple.result.hand_result` for a state reached by play that has
    ended, without notes, and without a position unless the settlement is partnership's.

    Mirrors :func:`gaple.reference.scoring.reckon`.
    """
    rules = state.rules
    if rules.settlement is Settlement.PARTNERSHIP:
        return position_fields(played_position(state))
    return _individual(rules, scoring_masks(state))


def position_fields(pos: Position) -> QuietFields:
    """The fields of :func:`gaple.result.score_position`, without notes.

    Mirrors :func:`gaple.reference.scoring.reckon`.
    """
    if pos.rules.settlement is Settlement.PARTNERSHIP:
        return _partnership(pos)
    return _individual(pos.rules, pos.scoring_masks)


def _individual(rules: Ruleset, masks: Sequence[int]) -> QuietFields:
    """The fields of a hand scored under an individual settlement.

    Mirrors :func:`gaple.reference.scoring.reckon`.
    """
    keys = rank_keys(tile_set(rules.max_pip), masks, rules.double_blank_25)
    counts = tuple([key[0] for key in keys])
    winner = ranked(keys)[0]
    points = settle_points(rules.settlement, counts, winner)
    if not rules.partnership:
        return QuietFields(counts, winner, None, points, False)
    team_points = tuple(sum(points[s] for s in team) for team in table(rules).teams)
    return QuietFields(counts, winner, table(rules).team_of(winner), team_points, False)


def _partnership(pos: Position) -> QuietFields:
    """The fields of a hand scored by partnership: going out or the challenge.

    Mirrors :func:`gaple.reference.partnership.score_partnership`.
    """
    rules = pos.rules
    full = tile_set(rules.max_pip)
    keys = rank_keys(full, pos.scoring_masks, rules.double_blank_25)
    counts = tuple([key[0] for key in keys])
    if pos.ending is Ending.OUT:
        out, points = _out(pos, full, counts)
        return QuietFields(counts, out, table(rules).team_of(out), points, False)
    winner, points = _challenge(rules, pos.blocker, counts)
    team = None if winner is None else table(rules).team_of(winner)
    return QuietFields(counts, winner, team, points, winner is None)


def _specials(rules: Ruleset) -> tuple[tuple[int, int], ...]:
    """(pip, value) of each double with a value.

    Mirrors :func:`gaple.reference.partnership.special_doubles`.
    """
    specials = ((rules.max_pip, rules.top_double_bonus), (0, rules.blank_double_bonus))
    return tuple((pip, value) for pip, value in specials if value > 0)


def _out(pos: Position, full: TileSet, counts: Sequence[int]) -> tuple[int, tuple[int, ...]]:
    """The seat gone out and each team's points: the opponents' counts, the doubles they
    could not place, the closing bonus and the debit.

    Mirrors :func:`gaple.reference.partnership.score_out` and
    :func:`gaple.reference.partnership.double_fates`.
    """
    rules = pos.rules
    out = pos.out_seat
    assert out is not None  # checked when the position was built, or reached by play
    team = table(rules).team_of(out)
    opponents = table(rules).teams[1 - team]
    line = full.mask(pos.line)
    extra = debit = 0
    for pip, value in _specials(rules):
        double = Tile(pip, pip)
        holder = next((s for s in opponents if double in pos.hands[s]), None)
        if holder is None or pip in pos.ends or full.suit[pip] & ~line & ~(1 << full.index[double]):
            continue
        held = pos.scoring_masks[holder]
        extra += value - (blank_bonus(full, held, rules.double_blank_25) if pip == 0 else 2 * pip)
        debit += value
    points = [0, 0]
    points[team] = sum(counts[s] for s in opponents) + extra + _closing(rules, pos.closing)
    if debit and rules.dead_double_debit:
        points[1 - team] = -debit
    return out, (points[0], points[1])


def _closing(rules: Ruleset, closing: Tile | None) -> int:
    """What the tile that closed the hand adds.

    Mirrors :func:`gaple.reference.partnership.closing_bonus`.
    """
    if closing is None or not closing.is_double:
        return 0
    if closing.low == rules.max_pip or rules.closing_any_double:
        return rules.top_double_bonus
    return rules.blank_double_bonus if closing.low == 0 else 0


def _challenge(
    rules: Ruleset, blocker: int | None, counts: Sequence[int]
) -> tuple[int | None, tuple[int, ...]]:
    """The winner of the blocked hand's challenge (``None``: replayed) and each team's points.

    Mirrors :func:`gaple.reference.partnership.challenge`.
    """
    assert blocker is not None  # checked when the position was built, or reached by play
    rival = (blocker + 1) % rules.players
    mine, theirs = counts[blocker], counts[rival]
    if mine == theirs and rules.challenge_tie is ChallengeTie.REPLAY:
        return None, (0, 0)
    if mine < theirs:
        winner, base, multiplier = blocker, rules.challenge_win_base, rules.challenge_win_multiplier
    else:
        winner, base, multiplier = rival, rules.challenge_loss_base, rules.challenge_loss_multiplier
    if base is StakeBase.ALL:
        stake = sum(counts)
    else:
        seats = table(rules)
        own = seats.team_of(blocker)
        stake = sum(
            counts[s] for s in seats.teams[own if base is StakeBase.BLOCKER_PAIR else 1 - own]
        )
    points = [0, 0]
    points[table(rules).team_of(winner)] = stake * multiplier
    return winner, (points[0], points[1])
