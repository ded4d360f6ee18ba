"""A small, plain Gaple engine written from the rules, independently of the ``gaple`` package.

This is the kind of engine a newcomer writes: mutable objects, tiles as ``(low, high)`` tuples,
one :class:`Game` that deals with turns, legal moves, the end of the hand and the scoring. It
exists to be checked *against* the ``gaple`` specification by the conformance runner, so it
never imports ``gaple``; every rule below was written from the rules reference (the docs' rule
pages and "Where the sources disagree"), and each method names the rule ID it implements.

Where the rules leave room for more than one reading, the reading chosen is written down in a
comment starting with ``Reading:``; the conformance run shows where the specification reads
them otherwise.

>>> game = Game(Rules(max_pip=2, players=2, hand_size=3),
...             hands=[[(0, 0), (0, 1), (1, 2)], [(0, 2), (1, 1), (2, 2)]])
>>> game.to_act(), [str(m) for m in game.legal_moves()]
(0, ['lead 0-0'])
>>> game.play(0, Move("lead", (0, 0)))
>>> [str(m) for m in game.legal_moves()]
['place 0-2 left', 'place 0-2 right']
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

Tile = tuple[int, int]
"""A tile as ``(low, high)`` with ``low <= high``."""

LEFT, RIGHT = "left", "right"
OUT, BLOCKED = "out", "blocked"

LEAD_RULES = ("double-blank", "double", "any-tile")
BLOCKED_ACTIONS = ("pass", "discard")
SETTLEMENTS = ("per-hand", "chips", "difference", "cumulative", "partnership")
CHALLENGE_TIES = ("replay", "blocker-loses")
STAKE_BASES = ("all", "blocker-pair", "other-pair")


def tile(a: int, b: int) -> Tile:
    """The tile with halves ``a`` and ``b``, low half first."""
    return (a, b) if a <= b else (b, a)


def tile_text(t: Tile) -> str:
    """``(0, 3)`` -> ``"0-3"``."""
    return f"{t[0]}-{t[1]}"


def pips(t: Tile) -> int:
    """The number of pips on a tile."""
    return t[0] + t[1]


class RuleError(Exception):
    """An action the rules forbid; ``code`` is one of the protocol's error codes."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class Move(NamedTuple):
    """``lead T``, ``place T left|right``, ``pass`` or ``discard T``.

    A named tuple rather than a frozen dataclass: it is as immutable, and three times as
    quick to make, which counts when every state's legal moves are listed."""

    kind: str
    tile: Tile | None = None
    end: str = ""

    def __str__(self) -> str:
        if self.tile is None:
            return self.kind
        text = f"{self.kind} {tile_text(self.tile)}"
        return f"{text} {self.end}" if self.end else text


PASS = Move("pass")


@dataclass
class Rules:
    """Every option of a hand, with the protocol's names and its default (pagat's 4 x 7)."""

    max_pip: int = 6
    players: int = 4
    hand_size: int = 7
    partnership: bool = False
    first_lead: str = "double-blank"
    later_lead: str = "double"
    forbidden_leads: frozenset[Tile] = frozenset()
    blocked_action: str = "discard"
    double_blank_25: bool = False
    settlement: str = "per-hand"
    target: int | None = None
    match_hands: int | None = None
    challenge_tie: str = "replay"
    challenge_win_base: str = "all"
    challenge_win_multiplier: int = 1
    challenge_loss_base: str = "all"
    challenge_loss_multiplier: int = 2
    top_double_bonus: int = 0
    blank_double_bonus: int = 0
    dead_double_debit: bool = False
    closing_any_double: bool = False

    def all_tiles(self) -> list[Tile]:
        """The double-N set: every pair ``(a, b)`` with ``0 <= a <= b <= max_pip`` (tiles.set)."""
        return [(a, b) for a in range(self.max_pip + 1) for b in range(a, self.max_pip + 1)]

    def sides(self) -> int:
        """How many sides score: two teams, or one per seat."""
        return 2 if self.partnership else self.players


@dataclass
class Result:
    """What a finished hand is worth."""

    counts: list[int]
    winner: int | None
    winning_team: int | None
    points: list[int]
    replay: bool = False


@dataclass
class Game:
    """One hand of Gaple, from the deal to its end.

    ``hands`` are the dealt tiles per seat. With a ``starter`` (tiles left undealt) the line
    starts with it and ``first_seat`` acts first; otherwise ``first_seat`` is where the search
    for the opener starts. ``first_hand`` picks the first-hand or the later-hand lead rule.
    """

    rules: Rules
    hands: list[list[Tile]]
    starter: Tile | None = None
    first_seat: int = 0
    first_hand: bool = True
    discards: list[list[Tile]] = field(init=False)
    line: list[tuple[int, int]] = field(init=False, default_factory=list)
    turn: int = field(init=False, default=0)
    ending: str | None = field(init=False, default=None)
    last_placer: int | None = field(init=False, default=None)
    last_move: Move | None = field(init=False, default=None)
    out_seat: int | None = field(init=False, default=None)

    def __post_init__(self) -> None:
        self.hands = [sorted(tile(*t) for t in hand) for hand in self.hands]
        self.discards = [[] for _ in self.hands]
        if self.starter is not None:
            # deal.starter: the turned-up tile begins the line, low half on the left.
            self.line = [tile(*self.starter)]
            self.turn = self.first_seat
            if self.is_blocked():
                self.ending = BLOCKED
        else:
            self.turn = self.find_opener()

    # -- opening -------------------------------------------------------------------------

    def lead_rule(self) -> str:
        """The first hand of a match uses ``first_lead``, later hands ``later_lead``."""
        return self.rules.first_lead if self.first_hand else self.rules.later_lead

    def allowed_leads(self) -> set[Tile]:
        """Tiles that may open the line (open.double-blank, open.double, open.any-tile,
        open.forbidden)."""
        rule = self.lead_rule()
        if rule == "double-blank":
            allowed = {(0, 0)}
        elif rule == "double":
            allowed = {t for t in self.rules.all_tiles() if t[0] == t[1]}
        else:
            allowed = set(self.rules.all_tiles())
        return allowed - self.rules.forbidden_leads

    def find_opener(self) -> int:
        """The first seat, from ``first_seat`` in turn order, holding a tile it may lead.

        With the 0-0 rule this is simply the holder of 0-0 (open.double-blank).
        """
        allowed = self.allowed_leads()
        for k in range(self.rules.players):
            seat = (self.first_seat + k) % self.rules.players
            if not allowed.isdisjoint(self.hands[seat]):
                return seat
        msg = "no seat holds a tile it may lead"
        raise ValueError(msg)

    # -- what may be played --------------------------------------------------------------

    def to_act(self) -> int | None:
        """The seat to act, or ``None`` once the hand is over (turn.order, end.final)."""
        return None if self.ending else self.turn

    def ends(self) -> tuple[int, int] | None:
        """The numbers showing on the left and right ends, or ``None`` on an empty table."""
        if not self.line:
            return None
        return self.line[0][0], self.line[-1][1]

    def end_value(self, end: str) -> int:
        """The number showing on ``end`` (the line is not empty)."""
        return self.line[0][0] if end == LEFT else self.line[-1][1]

    def placements(self, seat: int) -> list[Move]:
        """Every placement ``seat`` could make now; a tile fitting both ends gives two moves
        (play.match-end)."""
        ends = self.ends()
        if ends is None:
            return []
        left, right = ends
        moves = []
        for t in self.hands[seat]:
            if left in t:
                moves.append(Move("place", t, LEFT))
            if right in t:
                moves.append(Move("place", t, RIGHT))
        return moves

    def must_place(self, seat: int) -> bool:
        """A seat that can place must place (turn.forced-play)."""
        return bool(self.placements(seat))

    def is_blocked(self) -> bool:
        """No seat that still holds tiles can place one (end.blocked)."""
        ends = self.ends()
        if ends is None:
            return True
        left, right = ends
        return not any(left in t or right in t for hand in self.hands for t in hand)

    def legal_moves(self) -> list[Move]:
        """Every move the seat to act may make: a lead, else placements, else pass/discard."""
        seat = self.to_act()
        if seat is None:
            return []
        if not self.line:
            allowed = self.allowed_leads()
            return [Move("lead", t) for t in self.hands[seat] if t in allowed]
        moves = self.placements(seat)
        if not self.must_place(seat):
            if self.rules.blocked_action == "pass":
                moves.append(PASS)
            else:
                moves.extend(Move("discard", t) for t in self.hands[seat])
        return moves

    # -- checking an action --------------------------------------------------------------

    def check_not_over(self) -> None:
        """No action is accepted once the hand has ended (end.final)."""
        if self.ending:
            raise RuleError("hand-over", f"the hand has ended ({self.ending})")

    def check(self, seat: int, move: Move) -> None:
        """Raise :class:`RuleError` for the first rule ``move`` by ``seat`` breaks.

        The checks run in the protocol's order: hand over, wrong seat; for a lead
        line-started, not-in-hand, illegal-lead; for a placement lead-required, not-in-hand,
        no-match; for a pass lead-required, pass-not-allowed, must-place; for a discard
        lead-required, discard-not-allowed, not-in-hand, must-place.
        """
        self.check_not_over()
        if seat != self.turn:
            raise RuleError("wrong-seat", f"seat {self.turn} is to act, not seat {seat}")
        kind, t = move.kind, move.tile
        if kind == "lead" and self.line:
            raise RuleError("line-started", "a lead is only possible on an empty table")
        if kind != "lead" and not self.line:
            raise RuleError("lead-required", f"the table is empty: seat {seat} must lead")
        if kind == "pass" and self.rules.blocked_action != "pass":
            raise RuleError("pass-not-allowed", "a seat that cannot place must discard")
        if kind == "discard" and self.rules.blocked_action != "discard":
            raise RuleError("discard-not-allowed", "a seat that cannot place must pass")
        if t is not None and t not in self.hands[seat]:
            raise RuleError("not-in-hand", f"seat {seat} does not hold {tile_text(t)}")
        if kind == "lead" and t not in self.allowed_leads():
            raise RuleError("illegal-lead", f"the opening rule does not allow: {move}")
        if kind == "place" and t is not None and self.fitting_end(t, move.end) is None:
            shown = self.end_value(move.end)
            raise RuleError("no-match", f"{move}: the {move.end} end shows {shown}")
        if kind in ("pass", "discard") and self.must_place(seat):
            raise RuleError("must-place", f"seat {seat} has a tile that fits, so must place")

    def fitting_end(self, t: Tile, end: str) -> str | None:
        """The end ``t`` joins when placed on ``end``: that end if it shows one of ``t``'s
        halves, else ``None`` (play.match-end)."""
        return end if self.end_value(end) in t else None

    # -- making an action ----------------------------------------------------------------

    def play(self, seat: int, move: Move) -> None:
        """Make ``move`` for ``seat``, or raise :class:`RuleError` leaving the game unchanged."""
        self.check(seat, move)
        t = move.tile
        if t is not None:  # every move but a pass takes a tile from the hand
            self.hands[seat].remove(t)
            if move.kind == "discard":
                self.discards[seat].append(t)
            elif move.kind == "lead":
                self.line = [t]  # open.lead: low half on the left
                self.last_placer = seat
            else:
                end = self.fitting_end(t, move.end)
                assert end is not None  # check() made sure
                self.attach(t, end)
                self.last_placer = seat
        self.last_move = move
        if not self.hands[seat]:
            self.ending = OUT  # end.out, by placing or by discarding the last tile
            self.out_seat = seat
        elif self.blocked_after(move):
            self.ending = BLOCKED
        self.turn = (seat + 1) % self.rules.players

    def attach(self, t: Tile, end: str) -> None:
        """Put ``t`` on ``end``: the matching half touches the line, the other becomes the end."""
        value = self.end_value(end)
        other = t[1] if t[0] == value else t[0]
        if end == LEFT:
            self.line.insert(0, (other, value))
        else:
            self.line.append((value, other))

    def blocked_after(self, move: Move) -> bool:
        """Whether ``move`` blocked the hand (end.blocked).

        Only a tile put into the line changes the ends, so only a lead or a placement can
        block; a pass or a discard never ends the hand by itself.
        """
        return move.kind in ("lead", "place") and self.is_blocked()

    # -- counting and the winner ---------------------------------------------------------

    def scoring_tiles(self, seat: int) -> list[Tile]:
        """A seat's tiles for the count: its hand plus its face-down discards (score.count)."""
        return self.hands[seat] + self.discards[seat]

    def tile_value(self, seat: int, t: Tile) -> int:
        """What ``t`` adds to ``seat``'s count: its pips, except that with ``double_blank_25``
        a 0-0 counts 25 when no other tile of the seat has a blank (score.double-blank-25).

        Reading: "the seat's tiles" are its hand plus its discards, like the count.
        """
        if t == (0, 0) and self.rules.double_blank_25:
            other_blanks = [u for u in self.scoring_tiles(seat) if u != t and 0 in u]
            return 0 if other_blanks else 25
        return pips(t)

    def count(self, seat: int) -> int:
        """The values of hand plus discards (score.count)."""
        return sum(self.tile_value(seat, t) for t in self.scoring_tiles(seat))

    def rank_key(self, seat: int) -> tuple[int, tuple[int, int]]:
        """Lower ranks first: the count, then the lowest tile by pips, then its low end;
        a seat with no tiles ranks first (score.rank).

        Reading: tie-breaks use the natural pips of the tiles (0-0 is 0, even when it counts
        25) and look at hand plus discards, like the count.
        """
        tiles = self.scoring_tiles(seat)
        if not tiles:
            return (self.count(seat), (-1, -1))
        lowest = min((pips(t), t[0]) for t in tiles)
        return (self.count(seat), lowest)

    def winner(self) -> int:
        """The seat with the lowest rank key (score.rank)."""
        return min(range(self.rules.players), key=self.rank_key)

    def result(self) -> Result:
        """Counts, winner and points of the finished hand.

        The winner is the lowest rank key (score.rank), except in partnership settlement,
        where the hand is won by the seat that went out or by the winner of the blocked-hand
        challenge, and a replayed tie has no winner (SUWIKI); the team is the winner's
        (score.team).
        """
        if not self.ending:
            msg = "the hand has not ended"
            raise ValueError(msg)
        counts = [self.count(seat) for seat in range(self.rules.players)]
        winner = self.winner()
        team = winner % 2 if self.rules.partnership else None  # score.team: 0+2 vs 1+3
        result = Result(counts, winner, team, [0] * self.rules.sides())
        settlement = self.rules.settlement
        others = [seat for seat in range(self.rules.players) if seat != winner]
        if settlement == "chips":
            # settle.chips: the winner collects each seat's difference; zero-sum.
            for seat in others:
                result.points[seat] = -(counts[seat] - counts[winner])
            result.points[winner] = sum(counts[seat] - counts[winner] for seat in others)
        elif settlement == "difference":
            # settle.difference: the winner alone scores the sum of the differences.
            result.points[winner] = sum(counts[seat] - counts[winner] for seat in others)
        elif settlement == "cumulative":
            result.points = list(counts)  # settle.cumulative: each seat adds its own count
        elif settlement == "partnership":
            result.winner = self.partnership_points(result)
            result.winning_team = None if result.winner is None else result.winner % 2
        return result  # settle.per-hand: nobody scores

    # -- Sundanese partnership scoring (SUWIKI) ------------------------------------------

    def pair_total(self, counts: list[int], team: int) -> int:
        """The counts of both seats of ``team``."""
        return sum(counts[seat] for seat in range(self.rules.players) if seat % 2 == team)

    def partnership_points(self, result: Result) -> int | None:
        """Fill ``result.points`` (per team) by the SUWIKI rules: partner.out and the
        dead/closing doubles when a seat went out, partner.challenge when blocked. Returns
        the seat that won the hand, or None for a replayed tie."""
        if self.ending == OUT:
            self.out_points(result)
            return self.out_seat
        return self.challenge_points(result)

    def out_points(self, result: Result) -> None:
        """partner.out: the pair that went out scores the opponents' counts, a dead double
        counting its bonus instead (partner.dead-double), plus the closing bonus
        (partner.closing-double).

        Reading: an opponent's count is the one used for the winner (hand plus discards,
        with the 0-0 = 25 option when it is on); a dead double counts its bonus *instead of*
        its value in that count, and with ``dead_double_debit`` the same bonus is also taken
        off the holder's pair.
        """
        assert self.out_seat is not None
        winners = self.out_seat % 2
        losers = 1 - winners
        total = 0
        for seat in range(self.rules.players):
            if seat % 2 != losers:
                continue
            total += result.counts[seat]
            for double, value in self.dead_doubles(seat):
                total += value - self.tile_value(seat, double)
                if self.rules.dead_double_debit:
                    result.points[losers] -= value
        result.points[winners] += total + self.closing_bonus()

    def bonus_of(self, double: Tile) -> int:
        """The dead/closing value of the top double N-N or of 0-0; 0 when the option is off."""
        if double == (self.rules.max_pip, self.rules.max_pip):
            return self.rules.top_double_bonus
        if double == (0, 0):
            return self.rules.blank_double_bonus
        return 0

    def dead_doubles(self, seat: int) -> list[tuple[Tile, int]]:
        """The doubles dead in ``seat``'s hand, with their value (partner.dead-double).

        Called only for the pair that did not go out. A double is dead when it is still in
        the hand, no open end shows its number and every other tile of that number is in
        the line.

        Reading (C20): a double discarded face down counts its pips with the discards but is
        never dead, because it is no longer in the hand.
        """
        dead = []
        in_line = {tile(*piece) for piece in self.line}
        for double in ((self.rules.max_pip, self.rules.max_pip), (0, 0)):
            value = self.bonus_of(double)
            if value == 0 or double not in self.hands[seat]:
                continue
            number = double[0]
            ends = self.ends()
            if ends is not None and number in ends:
                continue
            suit = [t for t in self.rules.all_tiles() if number in t and t != double]
            if all(t in in_line for t in suit):
                dead.append((double, value))
        return dead

    def closing_bonus(self) -> int:
        """Going out by placing N-N (or 0-0) as the last tile earns its bonus; with
        ``closing_any_double`` any double earns the N-N bonus (partner.closing-double).

        Reading: only a tile put into the line closes; going out by discarding earns
        nothing. Under ``closing_any_double`` 0-0 too earns the N-N bonus.
        """
        move = self.last_move
        if move is None or move.kind not in ("lead", "place") or move.tile is None:
            return 0
        t = move.tile
        if t[0] != t[1]:
            return 0
        if self.rules.closing_any_double:
            return self.rules.top_double_bonus
        return self.bonus_of(t)

    def challenge_points(self, result: Result) -> int | None:
        """partner.challenge: the blocker (last seat to put a tile down) against the next
        seat; strictly lower wins the win stake for the blocker's pair, otherwise the other
        pair takes the loss stake; a tie is replayed or lost (partner.challenge-tie).

        Reading: a hand blocked by the starter itself has no placer; the seat before the
        first seat is then taken as the blocker, as if it had put the starter down.
        """
        players = self.rules.players
        blocker = self.last_placer
        if blocker is None:
            blocker = (self.first_seat - 1) % players
        challenger = (blocker + 1) % players
        counts = result.counts
        mine, theirs = blocker % 2, challenger % 2
        if counts[blocker] == counts[challenger] and self.rules.challenge_tie == "replay":
            result.replay = True
            return None
        if counts[blocker] < counts[challenger]:
            base = self.stake(counts, self.rules.challenge_win_base, mine)
            result.points[mine] += base * self.rules.challenge_win_multiplier
            return blocker
        base = self.stake(counts, self.rules.challenge_loss_base, mine)
        result.points[theirs] += base * self.rules.challenge_loss_multiplier
        return challenger

    def stake(self, counts: list[int], base: str, blocker_team: int) -> int:
        """The counts a challenge pays: all four seats, the blocker's pair or the other pair."""
        if base == "blocker-pair":
            return self.pair_total(counts, blocker_team)
        if base == "other-pair":
            return self.pair_total(counts, 1 - blocker_team)
        return sum(counts)
