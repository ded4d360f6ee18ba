"""Counting and ranking a finished hand: what each seat counts, who ranks first, which team.

Each seat's count is taken of its scoring set, the tiles left in its hand and the tiles it
discarded; the lowest count wins, with tie-breaks on the lowest tile. Every result keeps the
values that decided it, so the words of :mod:`gaple.result` are made from them.

>>> from gaple.tiles import parse_tiles
>>> count_seat(0, parse_tiles("0-0 2-3"), parse_tiles("1-1"), double_blank_25=True).count  # 25+5+2
32
>>> count_seat(0, parse_tiles("0-0 0-3"), parse_tiles("1-1"), double_blank_25=True).count  # 0+3+2
5
>>> counts = [count_seat(0, parse_tiles("1-2"), (), double_blank_25=False),
...           count_seat(1, parse_tiles("0-3"), (), double_blank_25=False)]
>>> [entry.seat for entry in rank(counts)]  # equal counts and pips: low half 0 beats 1
[1, 0]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from attrs import frozen

from gaple.reference.deciding import decides
from gaple.reference.equipment import table
from gaple.rules import Ruleset
from gaple.tiles import Tile

__all__ = [
    "DOUBLE_BLANK",
    "DOUBLE_BLANK_VALUE",
    "RANK_KEY_PARTS",
    "BlankDouble",
    "SeatCount",
    "SeatRank",
    "blank_double",
    "count_seat",
    "rank",
    "winning_team",
]


DOUBLE_BLANK = Tile(0, 0)
"""0-0, the tile whose value the double-blank option changes."""


DOUBLE_BLANK_VALUE = 25
"""What 0-0 counts under the option when it is its holder's only blank."""


@decides("score.count")
def count_seat(
    seat: int, hand: Sequence[Tile], discards: Sequence[Tile], *, double_blank_25: bool
) -> SeatCount:
    """A seat's count is the pip total of the tiles left in its hand plus the tiles it
    discarded (0-0 at the value :func:`blank_double` gives it)."""
    tiles = (*hand, *discards)
    blank = blank_double(tiles, double_blank_25=double_blank_25)
    count = sum(t.pips for t in tiles) + (0 if blank is None else blank.value)
    return SeatCount(
        seat=seat,
        hand=tuple(sorted(hand)),
        discards=tuple(sorted(discards)),
        blank_double=blank,
        count=count,
    )


@decides("score.double-blank-25")
def blank_double(tiles: Iterable[Tile], *, double_blank_25: bool) -> BlankDouble | None:
    """Under the option, 0-0 counts 25 when its holder has no other tile with a blank among
    its hand and discards, and 0 otherwise; ``None`` when the option is off or 0-0 is absent."""
    held = tuple(sorted(tiles))
    if not double_blank_25 or DOUBLE_BLANK not in held:
        return None
    others = tuple(t for t in held if t.has(0) and t != DOUBLE_BLANK)
    return BlankDouble(value=0 if others else DOUBLE_BLANK_VALUE, other_blanks=others)


@decides("score.rank")
def rank(counts: Sequence[SeatCount]) -> tuple[SeatRank, ...]:
    """The lowest count ranks first; between equal counts, the seat whose lowest tile has the
    fewest pips, then the seat whose lowest tile has the smaller low half; a seat with no tiles
    ranks first among equal counts."""
    ranks = []
    for count in counts:
        lowest = min(count.tiles, key=lambda tile: (tile.pips, tile.low), default=None)
        if lowest is None:
            key = (count.count, 0, 0, 0)
        else:
            key = (count.count, 1, lowest.pips, lowest.low)
        ranks.append(SeatRank(count.seat, count.count, lowest, key))
    return tuple(sorted(ranks, key=lambda entry: entry.key))


@decides("score.team")
def winning_team(rules: Ruleset, winner: int | None) -> int | None:
    """With teams, the hand goes to the team of the winning seat (its index in
    :attr:`~gaple.reference.equipment.Table.teams`), whatever its partner holds; ``None``
    without teams or without a winner."""
    if not rules.partnership or winner is None:
        return None
    return table(rules).team_of(winner)


@frozen
class BlankDouble:
    """How 0-0 counted in a scoring set under the double-blank option."""

    value: int
    """What 0-0 counts: 25, or 0 beside another blank."""
    other_blanks: tuple[Tile, ...]
    """The set's other tiles with a blank, sorted; empty exactly when 0-0 counts 25."""


@frozen
class SeatCount:
    """One seat's count and the tiles it was taken of."""

    seat: int
    """The seat counted."""
    hand: tuple[Tile, ...]
    """The tiles left in its hand."""
    discards: tuple[Tile, ...]
    """The tiles it discarded face down."""
    blank_double: BlankDouble | None
    """How 0-0 counted, when the option is on and 0-0 is among these tiles; else ``None``."""
    count: int
    """The pips of hand and discards, 0-0 at its option value."""

    @property
    def tiles(self) -> tuple[Tile, ...]:
        """The scoring set: hand and discards, sorted."""
        return tuple(sorted((*self.hand, *self.discards)))


@frozen
class SeatRank:
    """One seat's place in the ranking and the values that put it there (:func:`rank`)."""

    seat: int
    """The seat ranked."""
    count: int
    """Its count."""
    lowest: Tile | None
    """Its lowest tile by pips then low half; ``None`` when it has no tiles."""
    key: tuple[int, int, int, int]
    """What ordered it, lowest first: the count, 0 with no tiles (else 1), then the lowest
    tile's pips and low half (:data:`RANK_KEY_PARTS` names them)."""


RANK_KEY_PARTS = (
    "the count",
    "having no tiles",
    "the lowest tile's pips",
    "the lowest tile's low half",
)
"""What each place of :attr:`SeatRank.key` compares, in words (the first place where two
seats' keys differ is what ranked one above the other)."""
