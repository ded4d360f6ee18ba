"""The hand's plain data: the deal, the moves, the state of a hand and its finished position.

These are values and nothing more: they say what a hand holds, never whether the rules allow
it. The rules decide that (:mod:`gaple.reference`, and the fast :mod:`gaple.engine`), and the
hand's API (:mod:`gaple.deal`, :mod:`gaple.state`, :mod:`gaple.position`) offers the two
together; every name here is also found there.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable

from attrs import evolve, field, frozen

from gaple.rules import Ruleset
from gaple.tiles import TILE_TEXT, Tile, TileSet, tile_set

__all__ = [
    "ERROR_CODES",
    "MOVE_TEXT",
    "Action",
    "Deal",
    "Discard",
    "End",
    "Ending",
    "IllegalMove",
    "InvalidDeal",
    "Lead",
    "Move",
    "MoveSyntaxError",
    "Pass",
    "Place",
    "Position",
    "State",
    "acted",
    "is_move_text",
    "parse_move",
    "state_from_tiles",
]


class InvalidDeal(ValueError):
    """Raised when a deal does not fit its ruleset; the message says what is wrong."""


def _hands(value: Iterable[Iterable[Tile]]) -> tuple[tuple[Tile, ...], ...]:
    return tuple(tuple(sorted(hand)) for hand in value)


def _sorted(value: Iterable[Tile]) -> tuple[Tile, ...]:
    return tuple(sorted(value))


@frozen
class Deal:
    """Who holds what at the start of a hand.

    >>> from gaple.tiles import parse_tiles
    >>> Deal(hands=[parse_tiles("1-1 0-1"), parse_tiles("0-0 1-2")], starter=Tile(0, 2)).hands
    ((Tile(0, 1), Tile(1, 1)), (Tile(0, 0), Tile(1, 2)))

    Whether it fits a ruleset is the rules' question: :func:`gaple.deal.check_deal`.
    """

    hands: tuple[tuple[Tile, ...], ...] = field(converter=_hands)
    """Each seat's tiles, sorted."""
    starter: Tile | None = None
    """The undealt tile turned face up to begin the line, when tiles remain undealt."""
    set_aside: tuple[Tile, ...] = field(default=(), converter=_sorted)
    """The other undealt tiles, face down and out of play."""
    first_seat: int = 0
    """The designated seat: drawn by lot for a first hand, the previous winner afterwards.

    With a starter it acts first (rule ``open.starter-seat``); otherwise the lead search starts
    there (rules ``open.double`` and ``open.any-tile``). The 0-0 lead ignores it.
    """


class End(enum.Enum):
    """An end of the line, named explicitly: never by the pip value it shows."""

    LEFT = "left"
    RIGHT = "right"


@frozen(repr=False)
class Lead:
    """Lead ``tile`` onto the empty table (rule ``open.lead``)."""

    tile: Tile

    def __str__(self) -> str:
        return f"lead {self.tile}"

    def __repr__(self) -> str:
        return f"Lead({self.tile!r})"


@frozen(repr=False)
class Place:
    """Place ``tile`` on ``end`` of the line (rule ``play.match-end``)."""

    tile: Tile
    end: End

    def __str__(self) -> str:
        return f"place {self.tile} {self.end.value}"

    def __repr__(self) -> str:
        return f"Place({self.tile!r}, End.{self.end.name})"


@frozen(repr=False)
class Pass:
    """Pass, having no tile that fits (rule ``block.pass``)."""

    def __str__(self) -> str:
        return "pass"

    def __repr__(self) -> str:
        return "Pass()"


@frozen(repr=False)
class Discard:
    """Discard ``tile`` face down, having no tile that fits (rule ``block.discard``)."""

    tile: Tile

    def __str__(self) -> str:
        return f"discard {self.tile}"

    def __repr__(self) -> str:
        return f"Discard({self.tile!r})"


Move = Lead | Place | Pass | Discard
"""Any action a seat can take."""


class MoveSyntaxError(ValueError):
    """Raised when a text cannot be read as a move."""


MOVE_TEXT = f"lead {TILE_TEXT}|place {TILE_TEXT} (?:left|right)|pass|discard {TILE_TEXT}"
"""A move on the wire, as ``str`` writes it (a regular expression without anchors): the one
grammar of the schemas' patterns, the runner's shape checks and the transcript checker."""

_MOVE = re.compile(f"(?:{MOVE_TEXT})", re.ASCII)
_SHOWN = 40
"""How many characters of a text that is not a move an error message quotes."""


def is_move_text(text: str) -> bool:
    """Whether ``text`` is a move as the wire writes it, :data:`MOVE_TEXT`."""
    return _MOVE.fullmatch(text) is not None


def parse_move(text: str) -> Move:
    """Read a move as the wire writes it: ``lead 0-0``, ``place 6-3 left``, ``pass``,
    ``discard 4-4``: one ASCII space between words, each tile as :data:`~gaple.tiles.TILE_TEXT`.

    >>> parse_move("place 3-6 right")
    Place(Tile(3, 6), End.RIGHT)

    Raises:
        MoveSyntaxError: any other text (``place 3:6 right``, two spaces, a digit that is not
            ASCII, a trailing line separator).
    """
    if not is_move_text(text):
        shown = repr(text[:_SHOWN]) + ("..." if len(text) > _SHOWN else "")
        msg = (
            f"cannot read move {shown}: write 'lead T', 'place T left', 'place T right', "
            "'pass' or 'discard T', T a tile such as 0-3"
        )
        raise MoveSyntaxError(msg)
    match text.split(" "):
        case ["lead", tile]:
            return Lead(Tile.from_wire(tile))
        case ["discard", tile]:
            return Discard(Tile.from_wire(tile))
        case ["place", tile, end]:
            return Place(Tile.from_wire(tile), End(end))
    return Pass()


@frozen
class Action:
    """A move together with the seat that made it."""

    seat: int
    move: Move

    def __str__(self) -> str:
        return f"seat {self.seat}: {self.move}"


class Ending(enum.Enum):
    """How a hand ended."""

    OUT = "out"
    """A seat has no tiles left (rule ``end.out``)."""
    BLOCKED = "blocked"
    """No seat holding tiles can place (rule ``end.blocked``)."""


ERROR_CODES: dict[str, tuple[tuple[str, ...], str]] = {
    "hand-over": (("end.final",), "the hand has ended"),
    "wrong-seat": (("turn.order",), "another seat is to act"),
    "line-started": (("open.lead",), "a lead is only possible on an empty table"),
    "lead-required": (("open.lead",), "the table is empty: the opener must lead"),
    "not-in-hand": (("play.in-hand",), "the tile is not in the acting seat's hand"),
    "illegal-lead": (
        ("open.double-blank", "open.double", "open.any-tile", "open.forbidden"),
        "the opening rule does not allow this tile to be led",
    ),
    "no-match": (("play.match-end",), "the tile shows no half matching the named end"),
    "must-place": (("turn.forced-play",), "a tile fits, so the seat must place one"),
    "pass-not-allowed": (("block.discard",), "under the discard option a stuck seat discards"),
    "discard-not-allowed": (("block.pass",), "under the pass option a stuck seat passes"),
}
"""Every error code: the rule IDs it can name and what it means.

Checks run in this order and the first failure is reported: ``hand-over``, ``wrong-seat``;
then for a lead ``line-started``, ``not-in-hand``, ``illegal-lead``; for a placement
``lead-required``, ``not-in-hand``, ``no-match``; for a pass ``lead-required``,
``pass-not-allowed``, ``must-place``; for a discard ``lead-required``, ``discard-not-allowed``,
``not-in-hand``, ``must-place``.
"""


class IllegalMove(ValueError):
    """An action the rules do not allow, with a stable error code and the rule it breaks."""

    def __init__(self, code: str, rule_id: str, message: str) -> None:
        super().__init__(f"{message} [{rule_id}]")
        self.code = code
        """One of :data:`ERROR_CODES`."""
        self.rule_id = rule_id
        """The ID of the rule broken (see :mod:`gaple.registry`)."""
        self.message = message
        """What went wrong, in words."""


@frozen
class State:
    """One moment of a hand, from the deal to its end; build it with :func:`gaple.state.new_hand`.

    Groups of tiles are bitsets over the set's canonical order (see :mod:`gaple.tiles`);
    :meth:`hand`, :meth:`discards` and :meth:`line_tiles` give them as tiles.
    """

    rules: Ruleset
    """The options in force."""
    deal: Deal
    """The deal this hand started from."""
    first_hand: bool
    """Whether this is a match's first hand (which lead rule applies)."""
    opener: int
    """The seat that leads, or with a starter acts first."""
    hand_masks: tuple[int, ...]
    """Each seat's tiles still in hand."""
    discard_masks: tuple[int, ...]
    """Each seat's face-down discards."""
    line: tuple[tuple[int, int], ...]
    """The placed tiles from left to right, each as (left half, right half)."""
    line_mask: int
    """The tiles in the line."""
    to_act: int | None
    """The seat to act; ``None`` once the hand has ended."""
    history: tuple[Action, ...]
    """Every action so far, in order."""
    ending: Ending | None
    """How the hand ended, or ``None`` while it goes on."""

    @property
    def tiles(self) -> TileSet:
        """The tile set in play."""
        return tile_set(self.rules.max_pip)

    @property
    def ends(self) -> tuple[int, int] | None:
        """The numbers on the open left and right ends, or ``None`` on an empty table."""
        if not self.line:
            return None
        return self.line[0][0], self.line[-1][1]

    @property
    def is_over(self) -> bool:
        """Whether the hand has ended."""
        return self.ending is not None

    def hand(self, seat: int) -> tuple[Tile, ...]:
        """The tiles ``seat`` holds, in canonical order."""
        return self.tiles.unpack(self.hand_masks[seat])

    def discards(self, seat: int) -> tuple[Tile, ...]:
        """The tiles ``seat`` discarded face down, in canonical order."""
        return self.tiles.unpack(self.discard_masks[seat])

    def hand_size(self, seat: int) -> int:
        """How many tiles ``seat`` holds."""
        return self.hand_sizes[seat]

    def discard_count(self, seat: int) -> int:
        """How many tiles ``seat`` discarded."""
        return self.discard_counts[seat]

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        """How many tiles each seat holds, seat by seat."""
        return tuple(map(int.bit_count, self.hand_masks))

    @property
    def discard_counts(self) -> tuple[int, ...]:
        """How many tiles each seat discarded, seat by seat."""
        return tuple(map(int.bit_count, self.discard_masks))

    def line_tiles(self) -> tuple[Tile, ...]:
        """The tiles in the line, from left to right."""
        return tuple(Tile(a, b) for a, b in self.line)

    @property
    def set_aside(self) -> tuple[Tile, ...]:
        """The undealt tiles kept face down (never in play)."""
        return self.deal.set_aside

    @property
    def last_placer(self) -> int | None:
        """The seat that put down the last tile of the line (the blocker of a blocked hand).

        ``None`` when no seat has led or placed yet.
        """
        for action in reversed(self.history):
            if isinstance(action.move, Lead | Place):
                return action.seat
        return None

    @property
    def out_seat(self) -> int | None:
        """The seat that went out, when the hand ended that way."""
        if self.ending is Ending.OUT:
            return self.history[-1].seat
        return None


def state_from_tiles(
    rules: Ruleset,
    deal: Deal,
    *,
    first_hand: bool,
    opener: int,
    hands: tuple[tuple[Tile, ...], ...],
    discards: tuple[tuple[Tile, ...], ...],
    line: tuple[tuple[int, int], ...],
    to_act: int | None,
    history: tuple[Action, ...],
    ending: Ending | None,
) -> State:
    """The :class:`State` of a hand given tile by tile: how :mod:`gaple.reference` builds the
    next state, so that the state's bitset fields are packed here and nowhere in the
    reference."""
    full = tile_set(rules.max_pip)
    return State(
        rules=rules,
        deal=deal,
        first_hand=first_hand,
        opener=opener,
        hand_masks=tuple(full.mask(hand) for hand in hands),
        discard_masks=tuple(full.mask(tiles) for tiles in discards),
        line=line,
        line_mask=full.mask(Tile(left, right) for left, right in line),
        to_act=to_act,
        history=history,
        ending=ending,
    )


def acted(
    state: State,
    action: Action,
    *,
    hand: tuple[Tile, ...],
    discards: tuple[Tile, ...],
    line: tuple[tuple[int, int], ...],
    ending: Ending | None,
    to_act: int | None,
) -> State:
    """The :class:`State` after ``action``: the acting seat's hand and discards as given, the
    line, the ending and the seat to act as given, the action added to the history; every
    other seat's tiles as they were. The reference's transition states only what a move
    changes; its bitset fields are packed here."""
    full = tile_set(state.rules.max_pip)
    seat = action.seat
    return evolve(
        state,
        hand_masks=_replaced(state.hand_masks, seat, full.mask(hand)),
        discard_masks=_replaced(state.discard_masks, seat, full.mask(discards)),
        line=line,
        line_mask=full.mask(Tile(left, right) for left, right in line),
        to_act=to_act,
        history=(*state.history, action),
        ending=ending,
    )


def _replaced(masks: tuple[int, ...], seat: int, mask: int) -> tuple[int, ...]:
    return (*masks[:seat], mask, *masks[seat + 1 :])


def _per_seat(value: Iterable[Iterable[Tile]]) -> tuple[tuple[Tile, ...], ...]:
    return tuple(_sorted(tiles) for tiles in value)


def _ends(value: Iterable[int]) -> tuple[int, int]:
    left, right = value
    return int(left), int(right)


@frozen
class Position:
    """A finished hand as data: what :func:`gaple.result.score_position` needs and nothing more.

    Build it with :func:`gaple.position.make_position` (which can fill in the line) or
    :func:`gaple.position.position_of`, which check that play can reach it.
    """

    rules: Ruleset
    """The options in force."""
    hands: tuple[tuple[Tile, ...], ...] = field(converter=_per_seat)
    """Each seat's tiles still in hand, sorted."""
    discards: tuple[tuple[Tile, ...], ...] = field(converter=_per_seat)
    """Each seat's face-down discards, sorted."""
    line: tuple[Tile, ...] = field(converter=_sorted)
    """The tiles in the line (the order they lie in does not matter for scoring), sorted."""
    set_aside: tuple[Tile, ...] = field(converter=_sorted)
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
        # Built before any check (gaple.position.checked refuses what play cannot reach), so a
        # tile outside the set, or given twice, is simply left out or counted once here.
        index = tile_set(self.rules.max_pip).index
        pairs = zip(self.hands, self.discards, strict=False)
        masks = tuple(
            sum(1 << index[tile] for tile in {*hand, *discards} if tile in index)
            for hand, discards in pairs
        )
        object.__setattr__(self, "scoring_masks", masks)

    def scoring_set(self, seat: int) -> tuple[Tile, ...]:
        """The tiles that count against ``seat``: its hand and its discards (rule score.count)."""
        return _sorted((*self.hands[seat], *self.discards[seat]))
