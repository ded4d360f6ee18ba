"""The fast engine's play of a hand: bitsets, lookup tables and one move loop.

Not a reference: the rules are stated and decided in :mod:`gaple.reference` (the opening in
:mod:`gaple.reference.opening`, a turn in :mod:`gaple.reference.turn`, the end of a hand in
:mod:`gaple.reference.ending`), and each function here names the reference function it
mirrors. ``tests/test_reference_play.py`` proves them equal on every state of the small sets
and on drawn hands of the full set. The public functions of :mod:`gaple.state` are these.

Groups of tiles are bitsets over the set's canonical order (see :mod:`gaple.tiles`); a move
is one of the objects of ``tables(max_pip)``, so that making it reads one tuple.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator, Sequence

from attrs import frozen

from gaple.engine.memo import check_rules, turns_up_starter
from gaple.hand import (
    Action,
    Deal,
    Discard,
    End,
    Ending,
    InvalidDeal,
    Lead,
    Move,
    Pass,
    Place,
    State,
)
from gaple.reference.deal import deal_problem
from gaple.reference.opening import leadable
from gaple.reference.turn import move_error
from gaple.rules import BlockedAction, LeadRule, Ruleset
from gaple.tiles import Tile, TileSet, iter_bits, tile_set

__all__ = [
    "PASS",
    "Pick",
    "Tables",
    "apply",
    "fits",
    "is_legal",
    "lead_mask",
    "legal_moves",
    "move_text",
    "moves_on",
    "new_hand",
    "playable_count",
    "replay",
    "run",
    "start",
    "tables",
    "to_act",
    "verify",
]

# What a move does, by kind (see Tables.effects).
_PASSES, _LEADS, _TO_LEFT, _TO_RIGHT, _DISCARDS = range(5)

_Effect = tuple[tuple["Action", ...], int, int, int, int]
"""The :class:`Action` of every seat for a move, its kind, its tile's bit and halves."""


@frozen
class Tables:
    """Per-set lookup tables and the move objects, built once per set."""

    tiles: TileSet
    lead: tuple[Lead, ...]
    place: tuple[tuple[Place, Place], ...]
    discard: tuple[Discard, ...]
    effects: dict[int, _Effect]
    """For each move above, by ``id``: the :class:`Action` of every seat that can make it, its
    kind (``_PASSES`` .. ``_DISCARDS``), the bit of its tile and the tile's low and high half
    (zeros for the pass), so that making a move reads one tuple.

    Keyed by identity: the moves live as long as the cache, so no other object can share
    their ids, and an identity lookup costs far less than hashing a move. A seat count never
    exceeds the number of tiles, each seat holding at least one.
    """

    def own(self, move: Move) -> Move:
        """The table's object equal to ``move``, whose tile (if any) is in the set.

        Mirrors no rule: it finds the object whose effects the tables keep.
        """
        if isinstance(move, Pass):
            return PASS
        i = self.tiles.index[move.tile]
        if isinstance(move, Lead):
            return self.lead[i]
        if isinstance(move, Discard):
            return self.discard[i]
        return self.place[i][move.end is End.RIGHT]


@functools.cache
def tables(max_pip: int) -> Tables:
    """The lookup tables and the move objects of the set up to ``max_pip``, built once.

    Mirrors no rule: the moves of every state are these objects, so that making one reads
    its effects by identity.
    """
    full = tile_set(max_pip)
    lead = tuple(Lead(t) for t in full.tiles)
    place = tuple((Place(t, End.LEFT), Place(t, End.RIGHT)) for t in full.tiles)
    discard = tuple(Discard(t) for t in full.tiles)
    seats = range(full.size)
    effects: dict[int, _Effect] = {
        id(PASS): (tuple(Action(seat, PASS) for seat in seats), _PASSES, 0, 0, 0)
    }
    kinds: list[tuple[Sequence[Move], int]] = [(lead, _LEADS), (discard, _DISCARDS)]
    kinds += [([left for left, _ in place], _TO_LEFT), ([right for _, right in place], _TO_RIGHT)]
    for moves, kind in kinds:
        for i, move in enumerate(moves):
            tile = full.tiles[i]
            made = tuple(Action(seat, move) for seat in seats)
            effects[id(move)] = (made, kind, 1 << i, tile.low, tile.high)
    own = (PASS, *lead, *discard, *(move for pair in place for move in pair))
    _TEXTS.update((id(move), str(move)) for move in own)
    return Tables(tiles=full, lead=lead, place=place, discard=discard, effects=effects)


_TEXTS: dict[int, str] = {}
"""The text of each move of the tables, by ``id``, as :attr:`Tables.effects` (the moves live
as long as the cache)."""


def move_text(move: Move) -> str:
    """``str(move)``, read from the tables for their own moves (every move
    :func:`legal_moves` gives): the conformance kit writes each legal move of every state.

    Mirrors no rule: a move's text, kept.
    """
    text = _TEXTS.get(id(move))
    return str(move) if text is None else text


PASS = Pass()
_PASS_ONLY = (PASS,)


def new_hand(rules: Ruleset, deal: Deal, *, first_hand: bool = True) -> State:
    """The state at the start of a hand (who opens, the starter, a starter that blocks at
    once).

    Mirrors :func:`gaple.reference.opening.new_hand`.

    Raises:
        gaple.rules.InvalidRuleset: no hand can be played under ``rules``.
        gaple.hand.InvalidDeal: the deal does not fit the rules.
    """
    check_rules(rules)
    hands = _hands_if_fits(rules, deal)
    if hands is None:
        problem = deal_problem(rules, deal)  # the reference words what is wrong
        if problem is not None:
            raise InvalidDeal(problem)
        hands = tuple(tile_set(rules.max_pip).mask(hand) for hand in deal.hands)
    return start(rules, deal, hands, first_hand=first_hand)


def _hands_if_fits(rules: Ruleset, deal: Deal) -> tuple[int, ...] | None:
    """Each hand of ``deal`` as a bitset when the deal fits ``rules``, else ``None``: when the
    reference finds nothing wrong (sizes, the starter, every tile of the set exactly once, the
    designated seat), on the tables.

    Mirrors :func:`gaple.reference.deal.deal_problem`.
    """
    if len(deal.hands) != rules.players or (deal.starter is None) == turns_up_starter(rules):
        return None
    if not 0 <= deal.first_seat < rules.players:
        return None
    full = tile_set(rules.max_pip)
    index = full.index
    seen = 0
    hands = []
    for group in (*deal.hands, deal.set_aside, () if deal.starter is None else (deal.starter,)):
        mask = 0
        for tile in group:
            i = index.get(tile)
            if i is None or seen >> i & 1:
                return None
            mask |= 1 << i
            seen |= 1 << i
        hands.append(mask)
    if seen != (1 << full.size) - 1:
        return None
    if any(len(hand) != rules.hand_size for hand in deal.hands):
        return None
    return tuple(hands[: rules.players])


def start(rules: Ruleset, deal: Deal, hands: tuple[int, ...], *, first_hand: bool) -> State:
    """:func:`new_hand` for a deal known to fit the rules, its hands given as bitsets: the
    starter's line and its block at once, else the opener.

    Mirrors :func:`gaple.reference.line.opened`, :func:`gaple.reference.ending.blocks` and
    :func:`gaple.reference.opening.lead_seat`.
    """
    full = tile_set(rules.max_pip)
    no_discards = (0,) * rules.players
    if deal.starter is not None:
        line = ((deal.starter.low, deal.starter.high),)
        line_mask = 1 << full.index[deal.starter]
        opener = deal.first_seat
        stuck = not _playable(full, hands, line[0][0], line[-1][1])
        return State(
            rules=rules,
            deal=deal,
            first_hand=first_hand,
            opener=opener,
            hand_masks=hands,
            discard_masks=no_discards,
            line=line,
            line_mask=line_mask,
            to_act=None if stuck else opener,
            history=(),
            ending=Ending.BLOCKED if stuck else None,
        )
    allowed = lead_mask(rules, first_hand=first_hand)
    opener = next(
        seat
        for k in range(rules.players)
        if hands[seat := (deal.first_seat + k) % rules.players] & allowed
    )
    return State(
        rules=rules,
        deal=deal,
        first_hand=first_hand,
        opener=opener,
        hand_masks=hands,
        discard_masks=no_discards,
        line=(),
        line_mask=0,
        to_act=opener,
        history=(),
        ending=None,
    )


_LEAD_MASKS: dict[tuple[int, bool, LeadRule, LeadRule, frozenset[Tile]], int] = {}
""":func:`lead_mask` by the parts of the rules it reads: the set, whether it is the first hand,
the two lead rules and the bans."""


def lead_mask(rules: Ruleset, *, first_hand: bool) -> int:
    """The tiles that may open the line, as a bitset.

    Mirrors :func:`gaple.reference.opening.leadable`.
    """
    key = (rules.max_pip, first_hand, rules.first_lead, rules.later_lead, rules.forbidden_leads)
    mask = _LEAD_MASKS.get(key)
    if mask is None:
        mask = tile_set(rules.max_pip).mask(leadable(rules, first_hand=first_hand))
        _LEAD_MASKS[key] = mask
    return mask


def _playable(full: TileSet, hands: tuple[int, ...], left: int, right: int) -> int:
    """The tiles of all ``hands`` that show ``left`` or ``right``, as a bitset, every hand
    together (none: the hand is blocked). :func:`run` inlines it.

    Mirrors :func:`gaple.reference.line.playable` and :func:`gaple.reference.ending.blocks`.
    """
    # The hands are disjoint, so their sum is their union.
    return sum(hands) & (full.suit[left] | full.suit[right])


def playable_count(state: State) -> int:
    """How many tiles, in all hands together, fit an open end of a begun line.

    Mirrors :func:`gaple.reference.line.playable`.
    """
    assert state.line, "the line has begun"
    full = tables(state.rules.max_pip).tiles
    return _playable(full, state.hand_masks, state.line[0][0], state.line[-1][1]).bit_count()


def to_act(state: State) -> int | None:
    """The seat whose turn it is, or ``None`` once the hand has ended.

    Mirrors no rule: it reads the seat the state keeps, which :func:`~gaple.engine.play.run` set.
    """
    return state.to_act


def legal_moves(state: State) -> tuple[Move, ...]:
    """Every move the seat to act may make, in the reference's order: the leads the lead mask
    allows on an empty table, else :func:`moves_on`. Exactly the moves :func:`apply` accepts.

    Mirrors :func:`gaple.reference.turn.legal_moves`.
    """
    seat = state.to_act
    if seat is None:
        return ()
    rules = state.rules
    table = tables(rules.max_pip)
    hand = state.hand_masks[seat]
    line = state.line
    if not line:
        allowed = hand & lead_mask(rules, first_hand=state.first_hand)
        return tuple(table.lead[i] for i in iter_bits(allowed))
    suit = table.tiles.suit
    return moves_on(table, rules, hand, suit[line[0][0]], suit[line[-1][1]])


def moves_on(
    table: Tables, rules: Ruleset, hand: int, left_suit: int, right_suit: int
) -> tuple[Move, ...]:
    """:func:`legal_moves` once the line has begun, its ends' suits given as bitsets: the
    placements when there are any, else the pass or the discards.

    Mirrors :func:`gaple.reference.turn.legal_moves`, :func:`gaple.reference.line.fits`,
    :func:`gaple.reference.turn.must_place` and :func:`gaple.reference.turn.stuck_seat_passes`.
    """
    fitting = hand & (left_suit | right_suit)
    if fitting:
        place = table.place
        moves: list[Move] = []
        while fitting:  # iter_bits, inlined: this loop is the oracle's innermost
            bit = fitting & -fitting
            fitting ^= bit
            i = bit.bit_length() - 1
            if bit & left_suit:
                moves.append(place[i][0])
            if bit & right_suit:
                moves.append(place[i][1])
        return tuple(moves)
    if rules.blocked_action is _PASSING:
        return _PASS_ONLY
    return tuple(table.discard[i] for i in iter_bits(hand))


_PASSING = BlockedAction.PASS  # read once: an enum member lookup costs more than the test


def fits(
    kind: int, bit: int, hand: int, left_suit: int, right_suit: int, *, rules: Ruleset
) -> bool:
    """Whether the move of ``kind`` and tile ``bit`` is among :func:`moves_on` for the same
    hand and ends, tested on bitsets without building the moves: what the reference accepts
    once the line has begun.

    Mirrors :func:`gaple.reference.turn.move_error`.
    """
    if kind == _TO_LEFT:
        return bool(bit & hand & left_suit)
    if kind == _TO_RIGHT:
        return bool(bit & hand & right_suit)
    if kind == _LEADS or hand & (left_suit | right_suit):
        return False
    passing = rules.blocked_action is _PASSING
    if kind == _PASSES:
        return passing
    return not passing and bool(bit & hand)


def _accepts(state: State, move: Move, seat: int | None) -> bool:
    """Whether the seat to act may make ``move``, tested on the tables: the membership test
    of :func:`legal_moves` (:func:`fits` once the line has begun, the lead mask before).

    Mirrors :func:`gaple.reference.turn.is_legal`.
    """
    acting = state.to_act
    if acting is None or (seat is not None and seat != acting):
        return False
    table = tables(state.rules.max_pip)
    effect = table.effects.get(id(move))
    if effect is None:
        tile = getattr(move, "tile", None)
        if tile is not None and tile not in table.tiles.index:
            return False  # a tile of another set: never held
        effect = table.effects[id(table.own(move))]
    _, kind, bit, _, _ = effect
    hand = state.hand_masks[acting]
    line = state.line
    if not line:
        lead = lead_mask(state.rules, first_hand=state.first_hand)
        return kind == _LEADS and bool(bit & hand & lead)
    suit = table.tiles.suit
    return fits(kind, bit, hand, suit[line[0][0]], suit[line[-1][1]], rules=state.rules)


def verify(state: State, move: Move, seat: int | None = None) -> None:
    """Check ``move`` for the seat to act (and, if given, that ``seat`` is that seat): a move
    the tables accept passes; any other is refused with the reason
    :func:`gaple.reference.turn.move_error` gives, which decides every refusal and words it.

    Mirrors :func:`gaple.reference.turn.verify`.

    Raises:
        gaple.hand.IllegalMove: the first rule the move breaks (in the order of
            :data:`~gaple.hand.ERROR_CODES`).
    """
    if _accepts(state, move, seat):
        return
    refusal = move_error(state, move, seat)
    if refusal is not None:
        raise refusal.to_error()


def is_legal(state: State, move: Move, seat: int | None = None) -> bool:
    """Whether :func:`apply` would accept ``move``.

    Mirrors :func:`gaple.reference.turn.is_legal`.
    """
    return _accepts(state, move, seat)


def apply(state: State, move: Move, seat: int | None = None) -> State:
    """The state after the seat to act makes ``move``; ``state`` itself is unchanged:
    :func:`verify`, then :func:`~gaple.engine.play.run` for one move.

    Mirrors :func:`gaple.reference.turn.apply`.

    Raises:
        gaple.hand.IllegalMove: the first rule the move breaks (order at
            :data:`~gaple.hand.ERROR_CODES`).
    """
    verify(state, move, seat)
    return run(state, None, move)


Pick = Callable[[tuple[Move, ...], int], Move | None]
"""Chooses the next move given the legal moves and the seat to act, or ``None`` to stop."""


def run(  # noqa: PLR0915
    state: State,
    pick: Pick | None,
    move: Move | None = None,
    *,
    follow: Iterator[Move] | None = None,
) -> State:
    """The state after ``move`` if given, then after each move ``pick`` chooses (or each of
    ``follow``), until the hand ends or the moves run out: the one place where a move changes
    a hand.

    Every move must be legal: ``move`` checked by :func:`verify`, and ``pick`` choosing among
    the moves it is given (:func:`legal_moves`). The moves of ``follow`` are checked here
    instead (:func:`fits`, cheaper than building every legal move): the run stops before the
    first that is not legal, with that seat to act. Each move is the reference's next state:
    the tile joins the line turned as the reference turns it, and the hand ends as the
    reference says. Between the states it returns it plays on bitsets and lists, so that
    playing out a hand builds one state, not one per action.

    Mirrors :func:`gaple.reference.turn.next_state`, :func:`gaple.reference.line.joined`,
    :func:`gaple.reference.ending.ending_after` and :func:`gaple.reference.turn.turn_after`.
    """
    seat = state.to_act
    if seat is None:
        return state
    rules = state.rules
    players = rules.players
    table = tables(rules.max_pip)
    suit = table.tiles.suit
    effects = table.effects
    effect_of = effects.get
    hands = list(state.hand_masks)
    discards = list(state.discard_masks)
    history = list(state.history)
    record = history.append
    middle = state.line  # the tiles already down; those put down now go to either side
    lefts: list[tuple[int, int]] = []  # innermost first
    rights: list[tuple[int, int]] = []
    line_mask = state.line_mask
    left, right = (middle[0][0], middle[-1][1]) if middle else (-1, -1)
    ending = None
    while True:
        if move is None:
            if follow is not None:
                move = next(follow, None)
            elif pick is None:
                break
            elif middle:
                move = pick(moves_on(table, rules, hands[seat], suit[left], suit[right]), seat)
            else:
                move = pick(legal_moves(state), seat)  # the lead: the state is still the first
            if move is None:
                break
        made, kind, bit, low, high = effect_of(id(move)) or effects[id(table.own(move))]
        if follow is not None and not (
            fits(kind, bit, hands[seat], suit[left], suit[right], rules=rules)
            if middle
            else kind == _LEADS
            and bit & hands[seat] & lead_mask(rules, first_hand=state.first_hand)
        ):
            break
        record(made[seat])
        if kind != _PASSES:
            hand = hands[seat] ^ bit
            hands[seat] = hand
            if kind == _DISCARDS:
                discards[seat] |= bit
            else:
                line_mask |= bit
                if kind == _LEADS:
                    middle = ((low, high),)
                    left, right = low, high
                elif kind == _TO_LEFT:
                    end = low if left == high else high
                    lefts.append((end, left))
                    left = end
                else:
                    end = low if right == high else high
                    rights.append((right, end))
                    right = end
            if not hand:
                ending = Ending.OUT
                break
            if kind != _DISCARDS and not sum(hands) & (suit[left] | suit[right]):
                ending = Ending.BLOCKED  # the hands are disjoint, so their sum is their union
                break
        seat = (seat + 1) % players
        move = None
    lefts.reverse()
    # Positional, in field order: the fastest way to build the next state.
    return State(
        rules,
        state.deal,
        state.first_hand,
        state.opener,
        tuple(hands),
        tuple(discards),
        (*lefts, *middle, *rights) if lefts or rights else middle,
        line_mask,
        None if ending else seat,
        tuple(history),
        ending,
    )


def replay(
    rules: Ruleset, deal: Deal, moves: Iterable[Move | Action], *, first_hand: bool = True
) -> State:
    """Play ``moves`` from the start of a hand; an :class:`~gaple.hand.Action` also checks its
    seat.

    Mirrors :func:`gaple.reference.opening.new_hand` and :func:`gaple.reference.turn.apply`.

    Raises:
        gaple.hand.InvalidDeal: the deal does not fit the rules.
        gaple.hand.IllegalMove: a move breaks a rule.
    """
    state = new_hand(rules, deal, first_hand=first_hand)
    for item in moves:
        if isinstance(item, Action):
            state = apply(state, item.move, item.seat)
        else:
            state = apply(state, item)
    return state
