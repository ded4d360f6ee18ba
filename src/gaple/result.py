"""The result of a finished hand: counts, the ranking, the winner and the points.

One pure function, :func:`score_position`, scores a finished position given as data: each
seat's remaining tiles and discards, the tiles in the line and its two open ends, how the hand
ended and who went out or blocked. :func:`hand_result` scores a finished
:class:`~gaple.hand.State` by building that :class:`Position` from it (:func:`position_of`),
so a replayed hand and a position typed in by hand go through the same code. The position and
its checks live in :mod:`gaple.position`; the rules that decide the result in
:mod:`gaple.reference` (:func:`gaple.reference.scoring.reckon`).

Every number explains itself: :attr:`HandResult.notes` lists, in order, each rule applied
(by rule ID) and what it did, worded here from the facts the reference functions return.

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

from collections.abc import Iterable, Sequence

from attrs import frozen

from gaple.position import InvalidPosition, Position, make_position, position_of
from gaple.reference.counting import SeatCount, SeatRank, count_seat, rank
from gaple.reference.deal import sourced, turns_up_starter
from gaple.reference.equipment import table
from gaple.reference.partnership import (
    Challenge,
    DoubleFate,
    Fate,
    OutScore,
    PartnershipScore,
    Spot,
)
from gaple.reference.scoring import Reckoning, reckon
from gaple.reference.settlement import Settling, settle
from gaple.rules import Ruleset, Settlement, StakeBase
from gaple.state import Ending, State
from gaple.tiles import Tile

__all__ = [
    "HandResult",
    "InvalidPosition",
    "Note",
    "Position",
    "count_tiles",
    "ending_text",
    "format_result",
    "hand_result",
    "make_position",
    "position_of",
    "rank_key",
    "rank_seats",
    "result_of",
    "score_position",
    "settle_counts",
]


# --- counting and ranking loose tiles ---------------------------------------------------------


def _scoring_set(tiles: Iterable[Tile]) -> tuple[Tile, ...]:
    """``tiles`` as a scoring set, which holds each tile once.

    Raises:
        ValueError: a tile appears twice.
    """
    held = tuple(tiles)
    seen: set[Tile] = set()
    for tile in held:
        if tile in seen:
            msg = f"tile {tile} appears twice"
            raise ValueError(msg)
        seen.add(tile)
    return held


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


def rank_key(tiles: Iterable[Tile], *, double_blank_25: bool = False) -> tuple[int, int, int, int]:
    """The ranking key of a scoring set (rule ``score.rank``); the lowest key wins.

    (count, 0 for an empty set else 1, pips of the lowest tile, low half of that tile), the
    lowest tile being the least by (pips, low half), in natural pips. Distinct tiles never share
    both pips and low half, so two non-empty sets never share a key.

    >>> rank_key([Tile(2, 2), Tile(1, 5)]) > rank_key([Tile(1, 3), Tile(3, 3)])
    True

    Raises:
        ValueError: a tile appears twice (a scoring set holds each tile once).
    """
    count = count_seat(0, _scoring_set(tiles), (), double_blank_25=double_blank_25)
    (entry,) = rank([count])
    return entry.key


def rank_seats(
    scoring_sets: Sequence[Iterable[Tile]], *, double_blank_25: bool = False
) -> tuple[int, ...]:
    """The seats from best to worst by :func:`rank_key` (rule ``score.rank``)."""
    counts = [
        count_seat(seat, _scoring_set(tiles), (), double_blank_25=double_blank_25)
        for seat, tiles in enumerate(scoring_sets)
    ]
    return tuple(entry.seat for entry in rank(counts))


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
    return settle(settlement, counts, winner).points


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
    """Everything a finished hand decides, with the reasons (:attr:`notes`): the reference's
    :class:`~gaple.reference.scoring.Reckoning` with words."""

    reckoning: Reckoning
    """What the rules decided, with the facts behind each number
    (:func:`gaple.reference.scoring.reckon`)."""
    notes: tuple[Note, ...]
    """Each rule applied, in order."""

    @property
    def position(self) -> Position:
        """The finished position that was scored (it holds the rules)."""
        return self.reckoning.position

    @property
    def counts(self) -> tuple[int, ...]:
        """Each seat's count: hand plus discards (``score.count``, ``score.double-blank-25``)."""
        return tuple(count.count for count in self.reckoning.counts)

    @property
    def ranking(self) -> tuple[int, ...]:
        """The seats from best to worst by count and tie-breaks (``score.rank``)."""
        return tuple(entry.seat for entry in self.reckoning.ranking)

    @property
    def winner(self) -> int | None:
        """The winning seat: the best ranked, or in partnership scoring the seat that went out
        or won the blocked-hand challenge; ``None`` only when a tied challenge is replayed."""
        return self.reckoning.winner

    @property
    def winning_team(self) -> int | None:
        """With partnership, the index in :attr:`~gaple.reference.equipment.Table.teams` of the
        winner's pair (``score.team``)."""
        return self.reckoning.winning_team

    @property
    def points(self) -> tuple[int, ...]:
        """What each side (:attr:`~gaple.reference.equipment.Table.teams` order) receives this
        hand under the settlement."""
        return self.reckoning.points

    @property
    def replay(self) -> bool:
        """Whether the hand is void and dealt again (a tied challenge under REPLAY)."""
        return self.reckoning.replay

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
    """Count every seat, rank them, find the winner and settle the points
    (:func:`gaple.reference.scoring.reckon`), with the notes worded from its facts."""
    return result_of(reckon(pos))


def result_of(reckoning: Reckoning, *, worded: bool = True) -> HandResult:
    """The result of a reckoned hand, with the notes worded from the reckoning's facts; with
    none when not ``worded`` (what checks counts and points alone needs: wording the notes
    costs as much as the rest)."""
    return HandResult(reckoning=reckoning, notes=_notes(reckoning) if worded else ())


# --- the notes, worded from the reckoning's facts ---------------------------------------------


def _notes(reckoning: Reckoning) -> tuple[Note, ...]:
    pos = reckoning.position
    rules = pos.rules
    notes = [_ending_note(pos)]
    if not sourced(rules):
        notes.append(_unsourced_note(pos))
    for count in reckoning.counts:
        notes.extend(_count_notes(count))
    notes.append(_rank_note(reckoning.ranking))
    if reckoning.partnership is not None:
        notes.extend(_partnership_notes(reckoning.partnership))
    if reckoning.settling is not None:
        notes.append(_settle_note(reckoning.settling))
    if reckoning.winning_team is not None:
        team = reckoning.winning_team
        notes.append(
            Note(
                "score.team",
                f"the hand goes to team {team} (seats {_seats(table(rules).teams[team])}), "
                f"the team of "
                f"seat {reckoning.winner}",
            )
        )
    return tuple(notes)


def _seats(seats: Iterable[int]) -> str:
    return " and ".join(str(s) for s in seats)


def _ending_note(pos: Position) -> Note:
    if pos.ending is Ending.OUT:
        return Note("end.out", ending_text(pos))
    who = "unknown" if pos.blocker is None else f"seat {pos.blocker}"
    return Note(
        "end.blocked",
        f"blocked: no seat can place on ends {pos.ends[0]} and {pos.ends[1]}; last tile "
        f"placed by {who}",
    )


def ending_text(pos: Position, discarded: Tile | None = None) -> str:
    """How a seat went out (rule ``end.out``), naming its last tile: the one it placed, or
    ``discarded``, which only the history knows (a position keeps its discards sorted).

    Raises:
        ValueError: the hand did not end with a seat going out.
    """
    if pos.out_seat is None:
        msg = "only a hand that a seat went out of has a last tile"
        raise ValueError(msg)
    if pos.closing is not None:
        return f"seat {pos.out_seat} went out (placing {pos.closing}, its last tile)"
    if discarded is not None:
        return f"seat {pos.out_seat} went out (discarding {discarded}, its last tile)"
    return f"seat {pos.out_seat} went out (discarding its last tile)"


def _unsourced_note(pos: Position) -> Note:
    rules = pos.rules
    text = (
        f"no source describes {rules.players} seats x {rules.hand_size} tiles on the "
        f"double-{rules.max_pip} set: an unsourced deal, scored by the same rules for study "
        "(C27)"
    )
    if pos.ending is Ending.BLOCKED and len(pos.line) == 1 and turns_up_starter(rules):
        text += (
            f"; the starter blocked the hand at once and seat {pos.blocker} counts as the "
            "blocker, a reading only such deals reach (C4)"
        )
    return Note("deal.unsourced", text)


def _count_notes(count: SeatCount) -> list[Note]:
    seat = count.seat
    if not count.tiles:
        return [Note("score.count", f"seat {seat} counts 0: no tiles left")]
    parts = [f"{t} ({t.pips})" for t in count.hand]
    parts += [f"discarded {t} ({t.pips})" for t in count.discards]
    notes = [Note("score.count", f"seat {seat} counts {count.count}: {' + '.join(parts)}")]
    if count.blank_double is not None:
        why = (
            "another blank, so it counts 0"
            if count.blank_double.other_blanks
            else f"no other blank, so it counts {count.blank_double.value}"
        )
        notes.append(Note("score.double-blank-25", f"seat {seat} holds 0-0 with {why}"))
    return notes


def _rank_note(ranking: Sequence[SeatRank]) -> Note:
    parts = []
    for entry in ranking:
        lowest = entry.lowest
        shown = (
            ", no tiles"
            if lowest is None
            else f", lowest tile {lowest.pips} pips, low half {lowest.low}"
        )
        parts.append(f"seat {entry.seat} ({entry.count}{shown})")
    return Note("score.rank", "ranking: " + "; ".join(parts))


def _settle_note(settling: Settling) -> Note:
    winner = settling.winner
    own = settling.counts[winner]
    diffs = " + ".join(
        f"{d} from seat {s} ({settling.counts[s]} - {own})" for s, d in settling.differences
    )
    if settling.settlement is Settlement.PER_HAND:
        return Note("settle.per-hand", f"seat {winner} wins the hand; nobody scores points")
    if settling.settlement is Settlement.CHIPS:
        return Note("settle.chips", f"seat {winner} collects {diffs} = {settling.total}")
    if settling.settlement is Settlement.DIFFERENCE:
        return Note("settle.difference", f"seat {winner} scores {diffs} = {settling.total}")
    return Note(
        "settle.cumulative",
        "each seat adds its own count: "
        + ", ".join(f"seat {s} +{c}" for s, c in enumerate(settling.counts)),
    )


def _partnership_notes(score: PartnershipScore) -> list[Note]:
    fates = [_fate_note(fate) for fate in score.fates]
    if score.out is not None:
        return _out_notes(score.out, fates)
    assert score.challenge is not None  # exactly one of the two is set
    return fates + _challenge_notes(score.challenge)


def _out_notes(out: OutScore, fates: list[Note]) -> list[Note]:
    team = out.team
    pips = " + ".join(
        f"{c} (seat {s})" for s, c in zip(out.opponents, out.opponent_counts, strict=True)
    )
    notes = [Note("partner.out", f"pair {team} scores the opponents' pips: {pips} = {out.base}")]
    notes.extend(fates)
    if out.closing is not None:
        bonus = out.closing
        why = " (house rule: any double earns the top-double bonus)" if bonus.house_rule else ""
        notes.append(
            Note(
                "partner.closing-double",
                f"seat {bonus.seat} went out with {bonus.tile}: +{bonus.bonus}{why}",
            )
        )
    if out.debit:
        notes.append(
            Note(
                "partner.dead-double",
                f"debit option: pair {out.losing_team} also loses {out.debit}",
            )
        )
    notes.append(Note("partner.out", f"pair {team} scores {out.points[team]} in all"))
    return notes


def _where(spot: Spot, seat: int | None) -> str:
    if spot is Spot.HAND:
        return f"in seat {seat}'s hand"
    if spot is Spot.DISCARDED:
        return f"discarded by seat {seat}"
    return "set aside (undealt)"


def _fate_note(fate: DoubleFate) -> Note:
    double, seat, pip = fate.tile, fate.seat, fate.tile.low
    texts = {
        Fate.OWN_PAIR_OUT: f"{double} of seat {seat} is not dead: its own pair went out",
        Fate.BLOCKED_HAND: (
            f"{double} of seat {seat} is never dead in a blocked hand: it counts its pips"
        ),
        Fate.DISCARDED: (
            f"{double} discarded by seat {seat} is not dead: only a double still in a hand can "
            "be, so it counts its pips as a discard"
        ),
        Fate.OPEN_END: f"{double} of seat {seat} is not dead: an open end shows {pip}",
        Fate.DEAD: (
            f"{double} of seat {seat} is dead: no open end shows {pip} and every other tile "
            f"with a {pip} is in the line, so it counts {fate.value} instead of {fate.counted}"
        ),
    }
    if fate.fate is Fate.KEPT_ALIVE:
        keeper = fate.keepers[0]
        text = (
            f"{double} of seat {seat} is not dead: {keeper.tile} is "
            f"{_where(keeper.spot, keeper.seat)}, not in the line"
        )
    else:
        text = texts[fate.fate]
    return Note("partner.dead-double", text)


_WHOSE = {
    StakeBase.ALL: "the pips of all hands",
    StakeBase.BLOCKER_PAIR: "the blocker pair's pips",
    StakeBase.OTHER_PAIR: "the other pair's pips",
}


def _challenge_notes(challenge: Challenge) -> list[Note]:
    facing = (
        f"seat {challenge.blocker} (blocker) counts {challenge.blocker_count} against seat "
        f"{challenge.rival}'s {challenge.rival_count}"
    )
    if challenge.replay:
        return [
            Note(
                "partner.challenge-tie",
                f"{facing}: a tie, so nobody scores and the hand is dealt again",
            )
        ]
    notes = []
    if challenge.tie is not None:
        notes.append(Note("partner.challenge-tie", f"{facing}: a tie, which the blocker loses"))
    how = (
        "strictly lower: the blocker's pair"
        if challenge.blocker_won
        else "not lower (neunggar cadas): the other pair"
    )
    assert challenge.stake_base is not None  # a challenge that is not replayed has a stake
    points = challenge.stake * challenge.multiplier
    notes.append(
        Note(
            "partner.challenge",
            f"{facing}, {how} (pair {challenge.winning_team}) scores "
            f"{_WHOSE[challenge.stake_base]}, {challenge.stake} x {challenge.multiplier} = "
            f"{points}",
        )
    )
    return notes


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
