"""The result of a finished hand: counts, the ranking, the winner and the points.

One pure function, :func:`score_position`, scores a finished position given as data: each
seat's remaining tiles and discards, the tiles in the line and its two open ends, how the hand
ended and who went out or blocked. :func:`hand_result` scores a finished
:class:`~gaple.state.State` by building that :class:`Position` from it (:func:`position_of`),
so a replayed hand and a position typed in by hand go through the same code.

Every number explains itself: :attr:`HandResult.notes` lists, in order, each rule applied
(by rule ID) and what it did.

>>> from gaple.tiles import parse_tiles
>>> from gaple.presets import ruleset
>>> position = make_position(  # PAGAT-ID's first tie-break example, as a blocked 4 x 6 hand
...     ruleset("pagat-4x6"),
...     hands=[parse_tiles("1-1 1-3"), parse_tiles("1-5"), parse_tiles("2-4"), parse_tiles("2-3")],
...     set_aside=parse_tiles("0-4 0-5 6-6"), ends=(0, 0), ending=Ending.BLOCKED, blocker=0)
>>> result = score_position(position)
>>> result.counts, result.winner
((6, 6, 6, 5), 3)
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Iterable, Sequence

import attrs
from attrs import field, frozen

from gaple.rules import BlockedAction, ChallengeTie, Ruleset, Settlement, StakeBase
from gaple.state import Ending, Lead, Place, State
from gaple.tiles import Tile, TileSet, iter_bits, tile_set

__all__ = [
    "HandResult",
    "InvalidPosition",
    "Note",
    "Position",
    "count_tiles",
    "format_result",
    "hand_result",
    "make_position",
    "position_of",
    "rank_key",
    "rank_seats",
    "score_position",
    "settle_counts",
]


class InvalidPosition(ValueError):
    """A finished position that no hand of the rules can reach, with the rule that makes it so.

    The message reads ``[rule] why``, e.g. ``[block.pass] seat 1 discarded 2-3, but under the
    pass option nobody discards``.
    """

    def __init__(self, rule_id: str, message: str) -> None:
        super().__init__(f"[{rule_id}] {message}")
        self.rule_id = rule_id
        """The ID of the rule no hand can break (see :mod:`gaple.registry`)."""
        self.message = message
        """Why, in words."""


def _tiles(value: Iterable[Tile]) -> tuple[Tile, ...]:
    return tuple(sorted(value))


def _per_seat(value: Iterable[Iterable[Tile]]) -> tuple[tuple[Tile, ...], ...]:
    return tuple(_tiles(tiles) for tiles in value)


def _ends(value: Iterable[int]) -> tuple[int, int]:
    left, right = value
    return int(left), int(right)


@frozen
class Position:
    """A finished hand as data: what :func:`score_position` needs and nothing more.

    Build it with :func:`make_position` (which can fill in the line) or :func:`position_of`.
    It is checked when built: every tile of the set exactly once, hand sizes, a line that can
    be laid as one chain with the given ends, and an ending that fits the hands.
    """

    rules: Ruleset
    """The options in force."""
    hands: tuple[tuple[Tile, ...], ...] = field(converter=_per_seat)
    """Each seat's tiles still in hand, sorted."""
    discards: tuple[tuple[Tile, ...], ...] = field(converter=_per_seat)
    """Each seat's face-down discards, sorted."""
    line: tuple[Tile, ...] = field(converter=_tiles)
    """The tiles in the line (the order they lie in does not matter for scoring), sorted."""
    set_aside: tuple[Tile, ...] = field(converter=_tiles)
    """The undealt tiles that stayed face down (the starter is in the line)."""
    ends: tuple[int, int] = field(converter=_ends)
    """The numbers on the open left and right ends."""
    ending: Ending
    """How the hand ended."""
    out_seat: int | None = None
    """The seat that went out (``Ending.OUT`` only)."""
    blocker: int | None = None
    """The seat that placed the last tile of a blocked hand (``None``: unknown or nobody)."""
    closing: Tile | None = None
    """The tile the seat going out placed last; ``None`` if it went out by discarding."""
    scoring_masks: tuple[int, ...] = field(init=False, eq=False, repr=False)
    """Each seat's :meth:`scoring_set` as a bitset of the set in play (see
    :mod:`gaple.tiles`): what the count is taken of."""

    def __attrs_post_init__(self) -> None:
        problem = _position_problem(self)
        if problem is not None:
            raise InvalidPosition(*problem)
        full = tile_set(self.rules.max_pip)
        pairs = zip(self.hands, self.discards, strict=True)
        masks = tuple(full.mask(hand) | full.mask(discards) for hand, discards in pairs)
        object.__setattr__(self, "scoring_masks", masks)

    def scoring_set(self, seat: int) -> tuple[Tile, ...]:
        """The tiles that count against ``seat``: its hand and its discards (rule score.count)."""
        return _tiles((*self.hands[seat], *self.discards[seat]))


def make_position(
    rules: Ruleset,
    *,
    hands: Sequence[Iterable[Tile]],
    ends: tuple[int, int],
    ending: Ending,
    discards: Sequence[Iterable[Tile]] | None = None,
    line: Iterable[Tile] | None = None,
    set_aside: Iterable[Tile] = (),
    out_seat: int | None = None,
    blocker: int | None = None,
    closing: Tile | None = None,
) -> Position:
    """A :class:`Position`; without ``line``, the line is every tile not held, discarded or
    set aside, and without ``discards`` nobody discarded.

    Raises:
        InvalidPosition: the position cannot be reached under ``rules``.
    """
    hand_list = [_tiles(hand) for hand in hands]
    discard_list = [() for _ in hand_list] if discards is None else [_tiles(d) for d in discards]
    aside = _tiles(set_aside)
    if line is None:
        off_line = {t for group in (*hand_list, *discard_list, aside) for t in group}
        line = [t for t in tile_set(rules.max_pip).tiles if t not in off_line]
    return Position(
        rules=rules,
        hands=hand_list,
        discards=discard_list,
        line=line,
        set_aside=aside,
        ends=ends,
        ending=ending,
        out_seat=out_seat,
        blocker=blocker,
        closing=closing,
    )


_Problem = tuple[str, str]
"""Why a position cannot be reached: the rule ID that forbids it and the reason in words."""


def _position_problem(pos: Position) -> _Problem | None:
    """The first reason ``pos`` cannot be a finished hand under its rules, or ``None``."""
    rules = pos.rules
    full = tile_set(rules.max_pip)
    seats = rules.players
    if len(pos.hands) != seats or len(pos.discards) != seats:
        return (
            "table.seats",
            f"the rules have {seats} seats, the position has {len(pos.hands)} hands and "
            f"{len(pos.discards)} discard lists",
        )
    seen: dict[Tile, str] = {}
    groups = [(f"seat {s}'s hand", pos.hands[s]) for s in range(seats)]
    groups += [(f"seat {s}'s discards", pos.discards[s]) for s in range(seats)]
    groups += [("the line", pos.line), ("the set-aside tiles", pos.set_aside)]
    for where, tiles in groups:
        for tile in tiles:
            if tile not in full.index:
                return "tiles.set", f"{where}: {tile} is not in the double-{rules.max_pip} set"
            if tile in seen:
                return "tiles.set", f"{where}: {tile} is also in {seen[tile]}"
            seen[tile] = where
    missing = [str(t) for t in full.tiles if t not in seen]
    if missing:
        return "tiles.set", f"tiles missing from the position: {' '.join(missing)}"
    wanted_aside = max(rules.undealt - 1, 0)
    if len(pos.set_aside) != wanted_aside:
        return (
            "deal.starter",
            f"the rules set {wanted_aside} tiles aside, the position has {len(pos.set_aside)}",
        )
    for seat in range(seats):
        held = len(pos.hands[seat]) + len(pos.discards[seat])
        if held > rules.hand_size:
            return (
                "deal.sizes",
                f"seat {seat} holds and discarded {held} tiles, more than the {rules.hand_size} "
                "dealt",
            )
    for name in ("out_seat", "blocker"):
        seat_value = getattr(pos, name)
        if seat_value is not None and not 0 <= seat_value < seats:
            return "table.seats", f"{name} {seat_value} is not a seat (0..{seats - 1})"
    if rules.blocked_action is BlockedAction.PASS:
        for seat, tiles in enumerate(pos.discards):
            if tiles:
                return (
                    "block.pass",
                    f"seat {seat} discarded {' '.join(map(str, tiles))}, but under the pass "
                    "option nobody discards",
                )
    chain = _chain_problem(pos.line, pos.ends, rules.max_pip)
    if chain is not None:
        return "play.match-end", chain
    return _ending_problem(pos)


def _chain_problem(line: Sequence[Tile], ends: tuple[int, int], max_pip: int) -> str | None:
    """Why ``line`` cannot be laid as one chain from ``ends[0]`` to ``ends[1]``, or ``None``.

    A chain is a walk using every tile once (an Euler trail, doubles being loops): the tiles
    must be connected, and the numbers shown an odd number of times must be exactly the two
    different ends, or none when both ends show the same number.
    """
    left, right = ends
    if not (0 <= left <= max_pip and 0 <= right <= max_pip):
        return f"ends {ends} are not pip values of the double-{max_pip} set"
    if not line:
        return "the line is empty, but a finished hand has at least one tile in the line"
    degree = [0] * (max_pip + 1)
    parent = list(range(max_pip + 1))

    def root(p: int) -> int:
        while parent[p] != p:
            p = parent[p]
        return p

    for tile in line:
        degree[tile.low] += 1
        degree[tile.high] += 1
        parent[root(tile.low)] = root(tile.high)
    used = [p for p in range(max_pip + 1) if degree[p]]
    if len({root(p) for p in used}) > 1:
        return "the line tiles do not form a single chain (they fall into separate groups)"
    if not degree[left] or not degree[right]:
        return f"the ends {left} and {right} must both be numbers shown by tiles in the line"
    odd = {p for p in used if degree[p] % 2}
    expected = set() if left == right else {left, right}
    if odd != expected:
        return (
            f"the line tiles cannot lie in one chain with ends {left} and {right} "
            f"(numbers shown an odd number of times: {sorted(odd) or 'none'})"
        )
    return None


def _ending_problem(pos: Position) -> _Problem | None:
    empty = [s for s, hand in enumerate(pos.hands) if not hand]
    left, right = pos.ends
    if pos.ending is Ending.OUT:
        if pos.out_seat is None:
            return "end.out", "a hand that ended with a seat going out needs out_seat"
        if empty != [pos.out_seat]:
            return (
                "end.out",
                f"out_seat is {pos.out_seat}, so exactly that seat must have an empty hand; "
                f"empty hands: {empty or 'none'}",
            )
        if pos.closing is not None:
            if pos.closing not in pos.line:
                return "end.out", f"the closing tile {pos.closing} is not in the line"
            if not (pos.closing.has(left) or pos.closing.has(right)):
                return (
                    "play.match-end",
                    f"the closing tile {pos.closing} shows neither end ({left}, {right})",
                )
        return None
    if pos.out_seat is not None or pos.closing is not None:
        return "end.blocked", "a blocked hand has no out_seat and no closing tile"
    if pos.blocker is None and pos.rules.settlement is Settlement.PARTNERSHIP:
        return (
            "partner.challenge",
            "partnership scoring of a blocked hand needs the blocker (who placed the last tile)",
        )
    if empty:
        return (
            "end.out",
            f"seat {empty[0]} has no tiles, so the hand ended by going out, not blocked",
        )
    for seat, hand in enumerate(pos.hands):
        for tile in hand:
            if tile.has(left) or tile.has(right):
                return (
                    "end.blocked",
                    f"seat {seat} can still place {tile} on ends ({left}, {right}), so the hand "
                    "is not blocked",
                )
    return None


def position_of(state: State) -> Position:
    """The finished position of ``state``: what :func:`score_position` scores.

    Raises:
        ValueError: the hand has not ended.
    """
    if state.ending is None or state.ends is None:
        msg = "the hand has not ended, so it has no result yet"
        raise ValueError(msg)
    # The fields of the fast path below, passed through Position's converters and checks.
    return attrs.evolve(_played_position(state))


def _played_position(state: State) -> Position:
    """The finished position of ``state`` built without the converters and checks of
    :class:`Position`: the fast path of ``gaple check``, and what :func:`position_of` checks.

    The state must have been reached by play (:func:`~gaple.state.new_hand`, then legal
    moves): its position is then reachable by construction, and every group of tiles is
    already a sorted tuple (bitsets unpack in canonical order). The checks cost more than
    the scoring itself.
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
        ("blocker", None if out else _blocker(state)),
        ("closing", last.tile if out and isinstance(last, Lead | Place) else None),
        ("scoring_masks", _scoring_masks(state)),
    ):
        object.__setattr__(position, name, value)
    return position


def _scoring_masks(state: State) -> tuple[int, ...]:
    """:attr:`Position.scoring_masks` of a state: each seat's hand and discards."""
    return tuple(map(operator.or_, state.hand_masks, state.discard_masks))


def _blocker(state: State) -> int:
    """The seat that put down the last tile; if the turned-up starter blocked the hand before
    anyone acted, the seat before the designated first seat, as if it had turned the starter
    up (an unsourced reading, rule ``deal.unsourced``: no source covers a starter that blocks
    at once, which needs a deal with many tiles set aside)."""
    placer = state.last_placer
    return (state.opener - 1) % state.rules.players if placer is None else placer


# --- counting and ranking --------------------------------------------------------------------


def count_tiles(tiles: Iterable[Tile], *, double_blank_25: bool = False) -> int:
    """A seat's count: the pips of its tiles (rule ``score.count``); with the option, 0-0
    counts 25 when no other tile has a blank (rule ``score.double-blank-25``).

    >>> count_tiles([Tile(4, 4), Tile(0, 3)])
    11
    >>> count_tiles([Tile(0, 0), Tile(0, 5)], double_blank_25=True)
    5

    Raises:
        ValueError: a tile appears twice (a scoring set holds each tile once).
    """
    return rank_key(tiles, double_blank_25=double_blank_25)[0]


_Key = tuple[int, int, int, int]


def rank_key(tiles: Iterable[Tile], *, double_blank_25: bool = False) -> _Key:
    """The ranking key of a scoring set (rule ``score.rank``); the lowest key wins.

    (count, 0 for an empty set else 1, pips of the lowest tile, low end of that tile), the
    lowest tile being the least by (pips, low end), in natural pips. Distinct tiles never share
    both pips and low end, so two non-empty sets never share a key.

    >>> rank_key([Tile(2, 2), Tile(1, 5)]) > rank_key([Tile(1, 3), Tile(3, 3)])
    True

    Raises:
        ValueError: a tile appears twice (a scoring set holds each tile once).
    """
    tiles = tuple(tiles)
    full = tile_set(max([1, *(t.high for t in tiles)]))  # any set that holds them all
    return _rank_keys(full, (full.mask(tiles),), double_blank_25)[0]


def _rank_keys(full: TileSet, masks: Iterable[int], double_blank_25: bool) -> list[_Key]:
    """:func:`rank_key` of each scoring set, given as a bitset of ``full``: the one place
    where tiles are counted and the lowest tile is found (rules ``score.count``,
    ``score.double-blank-25``, ``score.rank``)."""
    pips = full.pips
    order = _pips_and_low(full.max_pip)
    keys: list[_Key] = []
    for mask in masks:
        if not mask:
            keys.append((0, 0, 0, 0))
            continue
        count = _blank_bonus(full, mask, double_blank_25)
        lowest = order[-1]  # N-N's: no tile of the set orders after it
        for i in iter_bits(mask):
            count += pips[i]
            lowest = min(lowest, order[i])
        keys.append((count, 1, *lowest))
    return keys


@functools.cache
def _pips_and_low(max_pip: int) -> tuple[tuple[int, int], ...]:
    """(pips, low end) of each tile of the set, by bit index: what orders the lowest tile."""
    return tuple((t.pips, t.low) for t in tile_set(max_pip).tiles)


def _blank_bonus(full: TileSet, mask: int, double_blank_25: bool) -> int:
    """What 0-0 adds to the natural pips of a scoring set given as a bitset of ``full``: 25
    under the option when it is the set's only blank."""
    if not double_blank_25 or not mask & _DOUBLE_BLANK:
        return 0
    return 0 if mask & full.suit[0] & ~_DOUBLE_BLANK else 25


_DOUBLE_BLANK = 1
"""The bit of 0-0, the first tile of every set in canonical order (see :mod:`gaple.tiles`)."""


def rank_seats(
    scoring_sets: Sequence[Iterable[Tile]], *, double_blank_25: bool = False
) -> tuple[int, ...]:
    """The seats from best to worst by :func:`rank_key` (rule ``score.rank``)."""
    return _ranked([rank_key(s, double_blank_25=double_blank_25) for s in scoring_sets])


def _ranked(keys: Sequence[_Key]) -> tuple[int, ...]:
    """The seats in order of their rank keys, lowest (best) first."""
    return tuple(sorted(range(len(keys)), key=keys.__getitem__))


def settle_counts(settlement: Settlement, counts: Sequence[int], winner: int) -> tuple[int, ...]:
    """The points of each seat under an individual settlement, given the counts and winner.

    per-hand: none (``settle.per-hand``); chips: the winner collects each other seat's
    difference and that seat pays it (``settle.chips``); difference: the winner scores the sum
    of the differences (``settle.difference``); cumulative: each seat its own count
    (``settle.cumulative``).

    >>> settle_counts(Settlement.CHIPS, [12, 5, 11, 7], winner=1)
    (-7, 15, -6, -2)

    Raises:
        ValueError: ``settlement`` is partnership scoring, which needs the whole position.
    """
    diffs = [c - counts[winner] for c in counts]
    if settlement is Settlement.PER_HAND:
        return tuple(0 for _ in counts)
    if settlement is Settlement.CUMULATIVE:
        return tuple(counts)
    if settlement is Settlement.CHIPS:
        return tuple(sum(diffs) if s == winner else -d for s, d in enumerate(diffs))
    if settlement is Settlement.DIFFERENCE:
        return tuple(sum(diffs) if s == winner else 0 for s in range(len(counts)))
    msg = "partnership points depend on the whole position: use score_position"
    raise ValueError(msg)


# --- the result ------------------------------------------------------------------------------


@frozen
class Note:
    """One step of the reckoning: the rule applied and what it did."""

    rule_id: str
    """The rule's ID (see :mod:`gaple.registry`)."""
    text: str
    """What the rule did here, with the numbers."""

    def __str__(self) -> str:
        return f"[{self.rule_id}] {self.text}"


@frozen
class HandResult:
    """Everything a finished hand decides, with the reasons (:attr:`notes`)."""

    position: Position
    """The finished position that was scored (it holds the rules)."""
    counts: tuple[int, ...]
    """Each seat's count: hand plus discards (``score.count``, ``score.double-blank-25``)."""
    ranking: tuple[int, ...]
    """The seats from best to worst by count and tie-breaks (``score.rank``)."""
    winner: int | None
    """The winning seat: the best ranked, or in partnership scoring the seat that went out or
    won the blocked-hand challenge; ``None`` only when a tied challenge is replayed."""
    winning_team: int | None
    """With partnership, the index in ``rules.teams`` of the winner's pair (``score.team``)."""
    points: tuple[int, ...]
    """What each side (``rules.teams`` order) receives this hand under the settlement."""
    replay: bool
    """Whether the hand is void and dealt again (a tied challenge under REPLAY)."""
    notes: tuple[Note, ...]
    """Each rule applied, in order."""

    @property
    def rules(self) -> Ruleset:
        """The options in force."""
        return self.position.rules

    @property
    def ending(self) -> Ending:
        """How the hand ended."""
        return self.position.ending


def hand_result(state: State) -> HandResult:
    """Score a finished hand: :func:`score_position` of :func:`position_of` ``state``.

    Raises:
        ValueError: the hand has not ended.
    """
    return score_position(position_of(state))


def score_position(pos: Position) -> HandResult:
    """Count every seat, rank them, find the winner and settle the points."""
    return _score(pos, explain=True)


def _score(pos: Position, *, explain: bool) -> HandResult:
    """:func:`score_position`; without ``explain`` the same fields and no notes (the fast
    path of ``gaple check``, which compares the fields: the notes' text is most of the
    cost of scoring)."""
    rules = pos.rules
    notes: list[Note] = []
    if explain:
        notes.append(_ending_note(pos))
        if not rules.sourced_deal:
            notes.append(_unsourced_note(pos))
    keys, counts, ranking = _counted_and_ranked(rules, pos.scoring_masks)
    if explain:
        for seat, count in enumerate(counts):
            notes.extend(_count_notes(pos, seat, count))
        notes.append(_rank_note(keys, ranking))
    replay = False
    winner: int | None
    if rules.settlement is Settlement.PARTNERSHIP:
        # Partnership notes are written as the rules are applied, so they are kept either way.
        if pos.ending is Ending.OUT:
            winner, points = _partnership_out(pos, counts, notes)
        else:
            winner, points = _challenge(pos, counts, notes)
            replay = winner is None
    else:
        winner, points = _individual(rules, counts, ranking)
        if explain:
            notes.extend(_settle_notes(rules.settlement, counts, winner))
    winning_team = _winning_team(rules, winner)
    if winning_team is not None and explain:
        notes.append(
            Note(
                "score.team",
                f"the hand goes to team {winning_team} (seats "
                f"{_seats(rules.teams[winning_team])}), the team of seat {winner}",
            )
        )
    return HandResult(
        position=pos,
        counts=counts,
        ranking=ranking,
        winner=winner,
        winning_team=winning_team,
        points=points,
        replay=replay,
        notes=tuple(notes) if explain else (),
    )


def _counted_and_ranked(
    rules: Ruleset, masks: Iterable[int]
) -> tuple[list[_Key], tuple[int, ...], tuple[int, ...]]:
    """The rank keys, counts and ranking of the scoring sets ``masks`` (as bitsets)."""
    keys = _rank_keys(tile_set(rules.max_pip), masks, rules.double_blank_25)
    return keys, tuple([key[0] for key in keys]), _ranked(keys)


def _individual(
    rules: Ruleset, counts: tuple[int, ...], ranking: tuple[int, ...]
) -> tuple[int, tuple[int, ...]]:
    """The winner and the points of each team under an individual settlement: the best
    ranked seat wins (``score.rank``) and :func:`settle_counts` settles."""
    winner = ranking[0]
    seat_points = settle_counts(rules.settlement, counts, winner)
    if not rules.partnership:
        return winner, seat_points  # each seat is a team of its own
    return winner, tuple(sum(seat_points[s] for s in team) for team in rules.teams)


def _winning_team(rules: Ruleset, winner: int | None) -> int | None:
    """With partnership, the team of the winner (``score.team``); else ``None``."""
    return rules.team_of(winner) if rules.partnership and winner is not None else None


_Fields = tuple[tuple[int, ...], int | None, int | None, tuple[int, ...], bool]
"""The counts, winner, winning team, points and replay of a :class:`HandResult`."""


def _quiet_fields(state: State) -> _Fields:
    """Those fields of :func:`hand_result` for a state reached by play that has ended: the
    fast path of ``gaple check``, without notes, and without a :class:`Position` unless the
    settlement (partnership) reads more than each seat's tiles."""
    rules = state.rules
    if rules.settlement is Settlement.PARTNERSHIP:
        result = _score(_played_position(state), explain=False)
        return result.counts, result.winner, result.winning_team, result.points, result.replay
    _, counts, ranking = _counted_and_ranked(rules, _scoring_masks(state))
    winner, points = _individual(rules, counts, ranking)
    return counts, winner, _winning_team(rules, winner), points, False


def _seats(seats: Iterable[int]) -> str:
    return " and ".join(str(s) for s in seats)


def _ending_note(pos: Position) -> Note:
    if pos.ending is Ending.OUT:
        how = f"placing {pos.closing}" if pos.closing is not None else "discarding"
        return Note("end.out", f"seat {pos.out_seat} went out ({how}, its last tile)")
    who = "unknown" if pos.blocker is None else f"seat {pos.blocker}"
    return Note(
        "end.blocked",
        f"blocked: no seat can place on ends {pos.ends[0]} and {pos.ends[1]}; last tile "
        f"placed by {who}",
    )


def _unsourced_note(pos: Position) -> Note:
    rules = pos.rules
    text = (
        f"no source describes {rules.players} seats x {rules.hand_size} tiles on the "
        f"double-{rules.max_pip} set: an unsourced deal, scored by the same rules for study "
        "(C27)"
    )
    if pos.ending is Ending.BLOCKED and len(pos.line) == 1 and rules.has_starter:
        text += (
            f"; the starter blocked the hand at once and seat {pos.blocker} counts as the "
            "blocker, a reading only such deals reach (C4)"
        )
    return Note("deal.unsourced", text)


def _count_notes(pos: Position, seat: int, count: int) -> list[Note]:
    mask = pos.scoring_masks[seat]
    if not mask:
        return [Note("score.count", f"seat {seat} counts 0: no tiles left")]
    parts = [f"{t} ({t.pips})" for t in pos.hands[seat]]
    parts += [f"discarded {t} ({t.pips})" for t in pos.discards[seat]]
    notes = [Note("score.count", f"seat {seat} counts {count}: {' + '.join(parts)}")]
    if pos.rules.double_blank_25 and mask & _DOUBLE_BLANK:
        bonus = _blank_bonus(tile_set(pos.rules.max_pip), mask, double_blank_25=True)
        why = "no other blank, so it counts 25" if bonus else "another blank, so it counts 0"
        notes.append(Note("score.double-blank-25", f"seat {seat} holds 0-0 with {why}"))
    return notes


def _rank_note(keys: Sequence[_Key], ranking: Sequence[int]) -> Note:
    parts = []
    for seat in ranking:
        count, nonempty, pips, low = keys[seat]
        lowest = f", lowest tile {pips} pips, end {low}" if nonempty else ", no tiles"
        parts.append(f"seat {seat} ({count}{lowest})")
    return Note("score.rank", "ranking: " + "; ".join(parts))


def _settle_notes(settlement: Settlement, counts: Sequence[int], winner: int) -> list[Note]:
    w = counts[winner]
    others = [s for s in range(len(counts)) if s != winner]
    diffs = " + ".join(f"{counts[s] - w} from seat {s} ({counts[s]} - {w})" for s in others)
    total = sum(counts[s] - w for s in others)
    if settlement is Settlement.PER_HAND:
        return [Note("settle.per-hand", f"seat {winner} wins the hand; nobody scores points")]
    if settlement is Settlement.CHIPS:
        return [Note("settle.chips", f"seat {winner} collects {diffs} = {total}")]
    if settlement is Settlement.DIFFERENCE:
        return [Note("settle.difference", f"seat {winner} scores {diffs} = {total}")]
    return [
        Note(
            "settle.cumulative",
            "each seat adds its own count: "
            + ", ".join(f"seat {s} +{c}" for s, c in enumerate(counts)),
        )
    ]


# --- partnership (SUWIKI) --------------------------------------------------------------------


def _special_doubles(rules: Ruleset) -> list[tuple[Tile, int]]:
    """The doubles with a dead/closing value: N-N (``top_double_bonus``) and 0-0, if on."""
    top = Tile(rules.max_pip, rules.max_pip)
    specials = [(top, rules.top_double_bonus), (Tile(0, 0), rules.blank_double_bonus)]
    return [(tile, value) for tile, value in specials if value > 0]


def _where(pos: Position, tile: Tile) -> str:
    for seat in range(pos.rules.players):
        if tile in pos.hands[seat]:
            return f"in seat {seat}'s hand"
        if tile in pos.discards[seat]:
            return f"discarded by seat {seat}"
    return "set aside (undealt)"


def _dead_check(pos: Position, seat: int, double: Tile, value: int) -> tuple[bool, Note]:
    """Whether ``double``, in the hand of ``seat`` on the losing side, is dead, and why.

    Dead: no open end shows its number and every other tile of that number is in the line
    (rule ``partner.dead-double``); a tile of the number in any hand, discarded or set aside
    keeps it alive.
    """
    pip = double.low
    if pip in pos.ends:
        return False, Note(
            "partner.dead-double", f"{double} of seat {seat} is not dead: an open end shows {pip}"
        )
    suit = [t for t in tile_set(pos.rules.max_pip).tiles if t.has(pip) and t != double]
    missing = [t for t in suit if t not in pos.line]
    if missing:
        return False, Note(
            "partner.dead-double",
            f"{double} of seat {seat} is not dead: {missing[0]} is {_where(pos, missing[0])}, "
            "not in the line",
        )
    return True, Note(
        "partner.dead-double",
        f"{double} of seat {seat} is dead: no open end shows {pip} and every other tile with a "
        f"{pip} is in the line, so it counts {value} instead of {_counted(pos, seat, double)}",
    )


def _counted(pos: Position, seat: int, tile: Tile) -> int:
    """What ``tile`` contributes to the count of ``seat`` (0-0 may count 25 or 0)."""
    full = tile_set(pos.rules.max_pip)
    held = pos.scoring_masks[seat]
    with_it, without = _rank_keys(
        full, (held, held & ~(1 << full.index[tile])), pos.rules.double_blank_25
    )
    return with_it[0] - without[0]


def _partnership_out(
    pos: Position, counts: Sequence[int], notes: list[Note]
) -> tuple[int, tuple[int, ...]]:
    """SUWIKI, a seat went out: its pair scores the opponents' pips, dead doubles at their
    dead value, plus the closing bonus (``partner.out``, ``partner.dead-double``,
    ``partner.closing-double``)."""
    rules = pos.rules
    out = pos.out_seat
    assert out is not None  # checked when the position was built
    winners = rules.team_of(out)
    losers = 1 - winners
    opponents = rules.teams[losers]
    base = sum(counts[s] for s in opponents)
    notes.append(
        Note(
            "partner.out",
            f"pair {winners} scores the opponents' pips: "
            + " + ".join(f"{counts[s]} (seat {s})" for s in opponents)
            + f" = {base}",
        )
    )
    extra = debit = 0
    for double, value in _special_doubles(rules):
        for seat in range(rules.players):
            if double not in pos.scoring_set(seat):
                continue
            if seat not in opponents:
                notes.append(
                    Note(
                        "partner.dead-double",
                        f"{double} of seat {seat} is not dead: its own pair went out",
                    )
                )
                continue
            if double in pos.discards[seat]:
                # Only a double still in hand can die (decided reading, C20): a face-down one
                # left play like any discard and counts its pips with its discarder.
                notes.append(
                    Note(
                        "partner.dead-double",
                        f"{double} discarded by seat {seat} is not dead: only a double still in "
                        "a hand can be, so it counts its pips as a discard",
                    )
                )
                continue
            dead, note = _dead_check(pos, seat, double, value)
            notes.append(note)
            if dead:
                extra += value - _counted(pos, seat, double)
                debit += value
    bonus = _closing_bonus(pos, notes)
    points = [0, 0]
    points[winners] = base + extra + bonus
    if debit and rules.dead_double_debit:
        points[losers] = -debit
        notes.append(Note("partner.dead-double", f"debit option: pair {losers} also loses {debit}"))
    notes.append(Note("partner.out", f"pair {winners} scores {points[winners]} in all"))
    return out, (points[0], points[1])


def _closing_bonus(pos: Position, notes: list[Note]) -> int:
    rules = pos.rules
    tile = pos.closing
    if tile is None or not tile.is_double:
        return 0
    top = Tile(rules.max_pip, rules.max_pip)
    if tile == top or rules.closing_any_double:
        bonus = rules.top_double_bonus
        why = "" if tile == top else " (house rule: any double earns the top-double bonus)"
    elif tile == Tile(0, 0):
        bonus, why = rules.blank_double_bonus, ""
    else:
        return 0
    if bonus:
        notes.append(
            Note(
                "partner.closing-double", f"seat {pos.out_seat} went out with {tile}: +{bonus}{why}"
            )
        )
    return bonus


def _stake(base: StakeBase, rules: Ruleset, blocker: int, counts: Sequence[int]) -> int:
    if base is StakeBase.ALL:
        return sum(counts)
    own = rules.team_of(blocker)
    team = own if base is StakeBase.BLOCKER_PAIR else 1 - own
    return sum(counts[s] for s in rules.teams[team])


def _challenge(
    pos: Position, counts: Sequence[int], notes: list[Note]
) -> tuple[int | None, tuple[int, ...]]:
    """SUWIKI, blocked: the blocker against the next seat (``partner.challenge``,
    ``partner.challenge-tie``); doubles count their pips (never dead in a blocked hand)."""
    rules = pos.rules
    blocker = pos.blocker
    assert blocker is not None  # checked when the position was built
    rival = (blocker + 1) % rules.players
    mine, theirs = counts[blocker], counts[rival]
    facing = f"seat {blocker} (blocker) counts {mine} against seat {rival}'s {theirs}"
    for double, _value in _special_doubles(rules):
        for seat in range(rules.players):
            if double in pos.scoring_set(seat):
                notes.append(
                    Note(
                        "partner.dead-double",
                        f"{double} of seat {seat} is never dead in a blocked hand: it counts "
                        "its pips",
                    )
                )
    if mine == theirs and rules.challenge_tie is ChallengeTie.REPLAY:
        notes.append(
            Note(
                "partner.challenge-tie",
                f"{facing}: a tie, so nobody scores and the hand is dealt again",
            )
        )
        return None, (0, 0)
    if mine < theirs:
        winner, base, mult = blocker, rules.challenge_win_base, rules.challenge_win_multiplier
        how = "strictly lower: the blocker's pair"
    else:
        winner, base, mult = rival, rules.challenge_loss_base, rules.challenge_loss_multiplier
        how = "not lower (neunggar cadas): the other pair"
        if mine == theirs:
            notes.append(Note("partner.challenge-tie", f"{facing}: a tie, which the blocker loses"))
    stake = _stake(base, rules, blocker, counts)
    whose = {
        StakeBase.ALL: "the pips of all hands",
        StakeBase.BLOCKER_PAIR: "the blocker pair's pips",
        StakeBase.OTHER_PAIR: "the other pair's pips",
    }[base]
    team = rules.team_of(winner)
    notes.append(
        Note(
            "partner.challenge",
            f"{facing}, {how} (pair {team}) scores {whose}, {stake} x {mult} = {stake * mult}",
        )
    )
    points = [0, 0]
    points[team] = stake * mult
    return winner, (points[0], points[1])


# --- text form ------------------------------------------------------------------------------------


def format_result(result: HandResult) -> str:
    """The result as text: a table of seats, the winner, the points, then the reasons."""
    pos = result.position
    rules = result.rules
    lines = [f"ending: {result.ending.value}"]
    lines.append("seat  count  tiles")
    for seat in range(rules.players):
        tiles = " ".join(map(str, pos.hands[seat])) or "-"
        if pos.discards[seat]:
            tiles += "  discarded: " + " ".join(map(str, pos.discards[seat]))
        lines.append(f"{seat:>4}  {result.counts[seat]:>5}  {tiles}")
    lines.append("ranking: " + ", ".join(map(str, result.ranking)))
    if result.replay:
        lines.append("winner: none (tied challenge: the hand is dealt again)")
    else:
        team = "" if result.winning_team is None else f" (team {result.winning_team})"
        lines.append(f"winner: seat {result.winner}{team}")
    side = "team" if rules.partnership else "seat"
    lines.append(
        f"points ({rules.settlement.value}): "
        + ", ".join(f"{side} {i} {p:+d}" for i, p in enumerate(result.points))
    )
    lines.append("why:")
    lines.extend(f"  {note}" for note in result.notes)
    return "\n".join(lines)
