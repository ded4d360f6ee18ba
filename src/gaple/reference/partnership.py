"""Partnership scoring (SUWIKI): going out, the blocked-hand challenge, dead and closing doubles.

Each result keeps the facts that decided it: for every special double in a scoring set its
:class:`DoubleFate` (dead or not, and why), the :class:`ClosingBonus`, the :class:`OutScore`
or the :class:`Challenge`. Labels, coverage criteria and the notes of :mod:`gaple.result`
read these facts and decide nothing of their own.

>>> from gaple.presets import ruleset
>>> closing_bonus(ruleset("suwiki-partnership"), 0, Tile(6, 6))
ClosingBonus(tile=Tile(6, 6), seat=0, bonus=100, house_rule=False)
"""

from __future__ import annotations

import enum
from collections.abc import Sequence

from attrs import frozen

from gaple.hand import Ending, Position
from gaple.reference.counting import DOUBLE_BLANK, SeatCount
from gaple.reference.deciding import decides
from gaple.reference.equipment import table
from gaple.rules import ChallengeTie, Ruleset, StakeBase
from gaple.tiles import Tile

__all__ = [
    "Challenge",
    "ClosingBonus",
    "DoubleFate",
    "Fate",
    "Keeper",
    "OutScore",
    "PartnershipScore",
    "Spot",
    "challenge",
    "closing_bonus",
    "double_fates",
    "score_out",
    "score_partnership",
    "special_doubles",
    "stake",
    "tied_challenge_winner",
]


@decides("partner.out")
def score_out(pos: Position, counts: Sequence[SeatCount], fates: Sequence[DoubleFate]) -> OutScore:
    """When a seat goes out its pair scores the pips left in the two opponents' hands and
    discards, with each dead double at its value, plus the closing bonus; under the debit
    option the losing pair also loses its dead doubles' values."""
    rules = pos.rules
    out = pos.out_seat
    assert out is not None  # checked when the position was built
    team = table(rules).team_of(out)
    opponents = table(rules).teams[1 - team]
    dead = [f for f in fates if f.dead]
    dead_extra = sum(f.value - f.counted for f in dead)
    bonus = closing_bonus(rules, out, pos.closing)
    debit = sum(f.value for f in dead) if rules.dead_double_debit else 0
    opponent_counts = tuple(counts[s].count for s in opponents)
    points = [0, 0]
    points[team] = sum(opponent_counts) + dead_extra + (0 if bonus is None else bonus.bonus)
    if debit:
        points[1 - team] = -debit
    return OutScore(
        out_seat=out,
        team=team,
        opponents=opponents,
        opponent_counts=opponent_counts,
        dead_extra=dead_extra,
        closing=bonus,
        debit=debit,
        points=(points[0], points[1]),
    )


@decides("partner.challenge")
def challenge(pos: Position, counts: Sequence[int]) -> Challenge:
    """A blocked hand is decided by comparing the blocker (who placed the last tile) with the
    next seat: strictly lower, the blocker's pair scores its stake times its multiplier;
    otherwise (neunggar cadas) the opponents score theirs. Doubles count their pips."""
    rules = pos.rules
    blocker = pos.blocker
    assert blocker is not None  # checked when the position was built
    rival = (blocker + 1) % rules.players
    mine, theirs = counts[blocker], counts[rival]
    tie: ChallengeTie | None = None
    if mine == theirs:
        tie, winner = rules.challenge_tie, tied_challenge_winner(rules, blocker)
    else:
        winner = blocker if mine < theirs else rival
    if winner is None:
        return Challenge(blocker, rival, mine, theirs, tie, None, None, None, 0, 0, (0, 0))
    if winner == blocker:
        base, multiplier = rules.challenge_win_base, rules.challenge_win_multiplier
    else:
        base, multiplier = rules.challenge_loss_base, rules.challenge_loss_multiplier
    pips = stake(base, rules, blocker, counts)
    team = table(rules).team_of(winner)
    points = [0, 0]
    points[team] = pips * multiplier
    return Challenge(
        blocker=blocker,
        rival=rival,
        blocker_count=mine,
        rival_count=theirs,
        tie=tie,
        winner=winner,
        winning_team=team,
        stake_base=base,
        stake=pips,
        multiplier=multiplier,
        points=(points[0], points[1]),
    )


@decides("partner.challenge-tie")
def tied_challenge_winner(rules: Ruleset, blocker: int) -> int | None:
    """A tied challenge is replayed (``None``: no winner) or, under the option, lost by the
    blocker (the next seat wins)."""
    if rules.challenge_tie is ChallengeTie.REPLAY:
        return None
    return (blocker + 1) % rules.players


@decides("partner.dead-double")
def double_fates(pos: Position, counts: Sequence[SeatCount]) -> tuple[DoubleFate, ...]:
    """When the opponents go out, a special double still held by the losing pair, with no
    open end showing its number and every other tile of that number in the line, is dead and
    counts its value instead of its pips; never in a blocked hand or when its holder's partner
    goes out. A tile of its number in any hand, discarded or set aside keeps it alive."""
    seats = table(pos.rules)
    out_team = None if pos.out_seat is None else seats.team_of(pos.out_seat)
    fates = []
    for double, value in special_doubles(pos.rules):
        number = double.low
        for count in counts:
            if double not in count.tiles:
                continue
            discarded = double in count.discards
            keepers: tuple[Keeper, ...] = ()
            if pos.ending is Ending.BLOCKED:
                fate = Fate.BLOCKED_HAND
            elif seats.team_of(count.seat) == out_team:
                fate = Fate.OWN_PAIR_OUT
            elif discarded:
                fate = Fate.DISCARDED
            elif number in pos.ends:
                fate = Fate.OPEN_END
            else:
                others = (
                    Tile(number, other) for other in range(pos.rules.max_pip + 1) if other != number
                )
                keepers = tuple(_spot(pos, tile) for tile in sorted(others) if tile not in pos.line)
                fate = Fate.KEPT_ALIVE if keepers else Fate.DEAD
            counted = _counted(count, double)
            fates.append(DoubleFate(double, count.seat, discarded, value, counted, fate, keepers))
    return tuple(fates)


@decides("partner.closing-double")
def closing_bonus(rules: Ruleset, out_seat: int, closing: Tile | None) -> ClosingBonus | None:
    """Going out with N-N (or 0-0) as the last tile earns the winners its value; under the
    house rule ``closing_any_double`` any double earns the top double's. ``None`` when the
    seat went out by discarding or the last tile earns nothing."""
    if closing is None or not closing.is_double:
        return None
    top = Tile(rules.max_pip, rules.max_pip)
    house_rule = closing != top and rules.closing_any_double
    if closing == top or house_rule:
        bonus = rules.top_double_bonus
    elif closing == DOUBLE_BLANK:
        bonus = rules.blank_double_bonus
    else:
        return None
    return ClosingBonus(closing, out_seat, bonus, house_rule) if bonus else None


def score_partnership(pos: Position, counts: Sequence[SeatCount]) -> PartnershipScore:
    """Partnership scoring of ``pos``: the doubles' fates, then :func:`score_out` or
    :func:`challenge` by how the hand ended."""
    fates = double_fates(pos, counts)
    if pos.ending is Ending.OUT:
        return PartnershipScore(fates, score_out(pos, counts, fates), None)
    return PartnershipScore(fates, None, challenge(pos, [c.count for c in counts]))


def special_doubles(rules: Ruleset) -> tuple[tuple[Tile, int], ...]:
    """The doubles with a dead and closing value, with that value: N-N (``top_double_bonus``)
    then 0-0 (``blank_double_bonus``), each only when its value is not 0."""
    top = Tile(rules.max_pip, rules.max_pip)
    specials = ((top, rules.top_double_bonus), (DOUBLE_BLANK, rules.blank_double_bonus))
    return tuple((tile, value) for tile, value in specials if value > 0)


def stake(base: StakeBase, rules: Ruleset, blocker: int, counts: Sequence[int]) -> int:
    """The pips a challenge is played for: all hands', the blocker's pair's or the other
    pair's."""
    if base is StakeBase.ALL:
        return sum(counts)
    own = table(rules).team_of(blocker)
    team = own if base is StakeBase.BLOCKER_PAIR else 1 - own
    return sum(counts[s] for s in table(rules).teams[team])


def _spot(pos: Position, tile: Tile) -> Keeper:
    """Where ``tile``, not in the line, is: in a hand, among a seat's discards, or set aside."""
    for seat in range(pos.rules.players):
        if tile in pos.hands[seat]:
            return Keeper(tile, Spot.HAND, seat)
        if tile in pos.discards[seat]:
            return Keeper(tile, Spot.DISCARDED, seat)
    return Keeper(tile, Spot.SET_ASIDE, None)


def _counted(count: SeatCount, double: Tile) -> int:
    """What ``double`` adds to ``count``: its pips, or for 0-0 its double-blank value."""
    if double == DOUBLE_BLANK and count.blank_double is not None:
        return count.blank_double.value
    return double.pips


class Fate(enum.Enum):
    """Why a special double is dead or not; only :attr:`DEAD` is dead."""

    OWN_PAIR_OUT = "own-pair-out"
    """Its holder's own pair went out."""
    BLOCKED_HAND = "blocked-hand"
    """The hand was blocked: no double dies then."""
    DISCARDED = "discarded"
    """It was discarded face down: only a double still in a hand can die (decided reading,
    C20), so it counts its pips with its discarder."""
    OPEN_END = "open-end"
    """An open end of the line shows its number."""
    KEPT_ALIVE = "kept-alive"
    """Another tile of its number is not in the line (see :attr:`DoubleFate.keepers`)."""
    DEAD = "dead"
    """The opponents went out, it is in a hand of the losing pair, no open end shows its
    number and every other tile of that number is in the line."""


class Spot(enum.Enum):
    """Where a tile off the line lies."""

    HAND = "hand"
    """In a seat's hand."""
    DISCARDED = "discarded"
    """Among a seat's face-down discards."""
    SET_ASIDE = "set-aside"
    """Undealt, face down."""


@frozen
class Keeper:
    """A tile of a double's number that is not in the line, and where it is."""

    tile: Tile
    """The tile."""
    spot: Spot
    """Where it lies."""
    seat: int | None
    """The seat whose hand or discards hold it; ``None`` when set aside."""


@frozen
class DoubleFate:
    """What became of one special double (N-N or 0-0 with a value) in a seat's scoring set."""

    tile: Tile
    """The double."""
    seat: int
    """The seat whose hand or discards hold it."""
    discarded: bool
    """Whether it lies among that seat's discards rather than in its hand."""
    value: int
    """Its dead value under the options (``top_double_bonus`` or ``blank_double_bonus``)."""
    counted: int
    """What it adds to its holder's count as a tile: its pips (0-0: its double-blank value)."""
    fate: Fate
    """Dead or not, and why."""
    keepers: tuple[Keeper, ...] = ()
    """Under :attr:`Fate.KEPT_ALIVE`, every other tile of its number not in the line, in the
    set's order (at least one); empty under every other fate."""

    @property
    def dead(self) -> bool:
        """Whether it counts its dead value instead of :attr:`counted`."""
        return self.fate is Fate.DEAD


@frozen
class ClosingBonus:
    """The bonus for going out with a special double as the last tile placed."""

    tile: Tile
    """The closing tile."""
    seat: int
    """The seat that went out with it."""
    bonus: int
    """What the winners score for it (more than 0)."""
    house_rule: bool
    """Whether it is earned only by the house rule that any double earns the top-double
    bonus (``closing_any_double``)."""


@frozen
class OutScore:
    """A seat went out: what its pair scores."""

    out_seat: int
    """The seat that went out."""
    team: int
    """Its pair (index in :attr:`~gaple.reference.equipment.Table.teams`), which scores."""
    opponents: tuple[int, ...]
    """The other pair's seats."""
    opponent_counts: tuple[int, ...]
    """Their counts, in the order of :attr:`opponents`."""
    dead_extra: int
    """What dead doubles add: their dead values less what they counted as tiles."""
    closing: ClosingBonus | None
    """The closing bonus, if the last tile earned one."""
    debit: int
    """What the losing pair loses under the debit option (their dead doubles' values); 0
    when the option is off or no double died."""
    points: tuple[int, int]
    """Each pair's points (:attr:`~gaple.reference.equipment.Table.teams` order)."""

    @property
    def base(self) -> int:
        """The opponents' pips."""
        return sum(self.opponent_counts)

    @property
    def losing_team(self) -> int:
        """The other pair."""
        return 1 - self.team


@frozen
class Challenge:
    """A blocked hand: the blocker against the next seat."""

    blocker: int
    """The seat that placed the last tile."""
    rival: int
    """The next seat in turn order."""
    blocker_count: int
    """The blocker's count."""
    rival_count: int
    """The rival's count."""
    tie: ChallengeTie | None
    """The tie option applied, when the counts are equal; else ``None``."""
    winner: int | None
    """The blocker (strictly lower count) or the rival; ``None`` when a tie is replayed."""
    winning_team: int | None
    """The winner's pair; ``None`` when a tie is replayed."""
    stake_base: StakeBase | None
    """Whose pips make the stake; ``None`` when a tie is replayed."""
    stake: int
    """Those pips (0 when a tie is replayed)."""
    multiplier: int
    """What the stake is multiplied by (0 when a tie is replayed)."""
    points: tuple[int, int]
    """Each pair's points (:attr:`~gaple.reference.equipment.Table.teams` order)."""

    @property
    def replay(self) -> bool:
        """Whether the hand is void and dealt again."""
        return self.winner is None

    @property
    def blocker_won(self) -> bool:
        """Whether the blocker's count was strictly lower."""
        return self.winner == self.blocker


@frozen
class PartnershipScore:
    """Partnership scoring of a finished hand: the doubles' fates, then going out or the
    challenge (exactly one of the two)."""

    fates: tuple[DoubleFate, ...]
    """The fate of each special double held or discarded by a seat, top double first."""
    out: OutScore | None
    """When a seat went out."""
    challenge: Challenge | None
    """When the hand was blocked."""

    @property
    def winner(self) -> int | None:
        """The seat that went out or won the challenge; ``None`` when a tie is replayed."""
        if self.out is not None:
            return self.out.out_seat
        assert self.challenge is not None  # exactly one of the two is set
        return self.challenge.winner

    @property
    def points(self) -> tuple[int, int]:
        """Each pair's points."""
        decided = self.out if self.out is not None else self.challenge
        assert decided is not None  # exactly one of the two is set
        return decided.points
