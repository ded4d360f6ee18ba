"""The hand as an immutable state machine: moves, legal moves, apply, end of hand.

A :class:`State` is a frozen value. :func:`apply` takes a state and a move and returns the next
state, or raises :class:`IllegalMove` naming the error code and the rule broken; nothing is ever
modified in place, so every earlier state stays valid.

>>> from gaple.presets import ruleset
>>> from gaple.deal import shuffle_deal
>>> rules = ruleset("pagat-4x7")
>>> state = new_hand(rules, shuffle_deal(rules, seed=7))
>>> legal_moves(state)      # the holder of 0-0 must lead it (open.double-blank)
(Lead(Tile(0, 0)),)
>>> opener = state.to_act
>>> state = apply(state, Lead(Tile(0, 0)))
>>> state.ends, state.to_act == (opener + 1) % 4   # the line is 0-0; the next seat acts
((0, 0), True)
"""

from __future__ import annotations

import enum
import re

from attrs import frozen

from gaple.deal import Deal
from gaple.rules import Ruleset
from gaple.tiles import TILE_TEXT, Tile, TileSet, tile_set

__all__ = [
    "ERROR_CODES",
    "MOVE_TEXT",
    "Action",
    "Discard",
    "End",
    "Ending",
    "IllegalMove",
    "Lead",
    "Move",
    "MoveSyntaxError",
    "Pass",
    "Place",
    "State",
    "apply",
    "is_legal",
    "is_move_text",
    "legal_moves",
    "new_hand",
    "parse_move",
    "replay",
    "state_from_tiles",
    "to_act",
    "verify",
]


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
    """One moment of a hand, from the deal to its end; build it with :func:`new_hand`.

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


# The functions that play a hand are the fast engine's (gaple.engine.play), proven equal to the
# rules as written for reading in gaple.reference; they are imported here, after the types they
# use, so that gaple.state stays the one module a user imports a hand from.
from gaple.engine.play import (  # noqa: E402
    apply,
    is_legal,
    legal_moves,
    new_hand,
    replay,
    to_act,
    verify,
)
