"""Tiles, tile sets and their notation.

A tile (Indonesian *kartu* or *keping*; a double is a *balak*) is an unordered pair of pip
values. A double-N set holds every such pair with values from 0 to N once, so the double-six
set of every Gaple source has 28 tiles and 168 pips (rule ``tiles.set``).

Inside a set, tiles are numbered in canonical order, ``0-0, 0-1, ..., 0-N, 1-1, ..., N-N``,
and a group of tiles (a hand, the line, the discards) is an ``int`` whose bit *i* stands for
tile *i*. Bitsets are immutable, hash, compare and combine in one machine operation, which is
what lets the rules engine serve as a fast oracle.

A tile is written two ways. People may type it loosely (:meth:`Tile.parse`: ``[6|3]``,
``3:0``). Every JSON form and the protocol write it one way, :data:`TILE_TEXT` (``0-3``), and
read it back the same way (:meth:`Tile.from_wire`): the schemas' patterns, the runner and the
transcript checker share that grammar, so a form one of them refuses none of them takes.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Iterator

from attrs import field, frozen

__all__ = ["PIP_TEXT", "TILE_TEXT", "Tile", "TileSet", "TileSyntaxError", "parse_tiles", "tile_set"]


class TileSyntaxError(ValueError):
    """Raised when a text cannot be read as a tile."""


PIP_TEXT = "(?:0|[1-9][0-9]?)"
"""A pip value on the wire: ASCII digits without a leading zero (a regular expression)."""

TILE_TEXT = f"{PIP_TEXT}-{PIP_TEXT}"
"""A tile on the wire: its two pip values joined by ``-``, either first (a regular expression,
without anchors, for the schemas' patterns and the move grammar to embed)."""

_WIRE_TILE = re.compile(f"({PIP_TEXT})-({PIP_TEXT})", re.ASCII)

# People's spellings: any of five separators, spaces, brackets; still ASCII digits only, as
# int() would read an Arabic-Indic or a full-width digit as a pip value.
_PAIR = r"\s*(\d{1,2})\s*[-|:/,]\s*(\d{1,2})\s*"
_TILE_RE = re.compile(rf"^\s*(?:\[{_PAIR}\]|{_PAIR})\s*$", re.ASCII)


_SUCH = "'4-4' or '0-3'"


def _quoted(text: str) -> str:
    # Cut: the text may be a whole document's worth of whatever a reader was given.
    return repr(text[:40]) + ("..." if len(text) > 40 else "")


def _check_pip(value: int) -> int:
    if value < 0:
        msg = f"a tile's pip value cannot be negative, got {value}"
        raise ValueError(msg)
    return value


@frozen(order=False, repr=False, cache_hash=True)
class Tile:
    """An unordered pair of pip values, stored with the lower value first.

    >>> Tile(3, 0)
    Tile(0, 3)
    >>> str(Tile.parse("[6|3]")), Tile.parse("4-4").pips
    ('3-6', 8)

    Tiles order by their lower value, then their higher one: ``0-0 < 0-1 < ... < 6-6``.
    """

    low: int = field(converter=_check_pip)
    """The smaller pip value (for a double, both halves)."""
    high: int = field(converter=_check_pip)
    """The larger pip value."""

    def __attrs_post_init__(self) -> None:
        if self.low > self.high:
            low, high = self.high, self.low
            object.__setattr__(self, "low", low)
            object.__setattr__(self, "high", high)

    @classmethod
    def parse(cls, text: str) -> Tile:
        """Read a tile leniently: ``4-4``, ``[0-3]``, ``0|3``, ``3-0`` and ``3:0`` all work.

        Raises:
            TileSyntaxError: the text is not two pip values joined by ``-``, ``|``, ``:``,
                ``/`` or ``,``.
        """
        match = _TILE_RE.match(text)
        if match is None:
            msg = f"cannot read {_quoted(text)} as a tile: write two pip values such as {_SUCH}"
            raise TileSyntaxError(msg)
        low, high = (int(group) for group in match.groups() if group is not None)
        return cls(low, high)

    @classmethod
    def from_wire(cls, text: str) -> Tile:
        """Read a tile as JSON forms and the protocol write it, :data:`TILE_TEXT`.

        >>> Tile.from_wire("3-0")
        Tile(0, 3)

        Raises:
            TileSyntaxError: any other spelling (``03-1``, ``0:3``, ``[0-3]``, a space, a digit
                that is not ASCII).
        """
        match = _WIRE_TILE.fullmatch(text)
        if match is None:
            msg = f"cannot read {_quoted(text)} as a tile: write two pip values such as '0-3'"
            raise TileSyntaxError(msg)
        return cls(int(match.group(1)), int(match.group(2)))

    @property
    def pips(self) -> int:
        """The tile's value when counting: the sum of its two halves."""
        return self.low + self.high

    @property
    def is_double(self) -> bool:
        """Whether both halves show the same value (a *balak*)."""
        return self.low == self.high

    def has(self, pip: int) -> bool:
        """Whether either half shows ``pip``."""
        return pip in (self.low, self.high)

    def other(self, pip: int) -> int:
        """The half opposite to a half showing ``pip``.

        Raises:
            ValueError: neither half shows ``pip``.
        """
        if pip == self.low:
            return self.high
        if pip == self.high:
            return self.low
        msg = f"tile {self} has no half showing {pip}"
        raise ValueError(msg)

    def __str__(self) -> str:
        return f"{self.low}-{self.high}"

    def __repr__(self) -> str:
        return f"Tile({self.low}, {self.high})"

    # Hand-written comparisons: attrs' generated ones build tuples through a generic helper,
    # which made sorting hands the most expensive step of dealing.
    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Tile):
            return NotImplemented
        return (self.low, self.high) < (other.low, other.high)

    def __le__(self, other: object) -> bool:
        if not isinstance(other, Tile):
            return NotImplemented
        return (self.low, self.high) <= (other.low, other.high)

    def __gt__(self, other: object) -> bool:
        if not isinstance(other, Tile):
            return NotImplemented
        return (self.low, self.high) > (other.low, other.high)

    def __ge__(self, other: object) -> bool:
        if not isinstance(other, Tile):
            return NotImplemented
        return (self.low, self.high) >= (other.low, other.high)


def parse_tiles(text: str | Iterable[str]) -> tuple[Tile, ...]:
    """Read several tiles, from a list of strings or one string separated by spaces.

    >>> parse_tiles("1-1 [1-3] 5|1")
    (Tile(1, 1), Tile(1, 3), Tile(1, 5))
    """
    words = text.split() if isinstance(text, str) else list(text)
    return tuple(Tile.parse(word) for word in words)


@frozen
class TileSet:
    """The double-N set: every tile with pip values 0..N once, in canonical order.

    Use :func:`tile_set` to obtain one; it is cached, so the tables are built once per N.
    """

    max_pip: int
    """N, the highest pip value (6 for the double-six set)."""
    tiles: tuple[Tile, ...]
    """Every tile of the set, in canonical order; a tile's position is its bit index."""
    index: dict[Tile, int] = field(eq=False, hash=False)
    """Bit index of each tile."""
    suit: tuple[int, ...] = field(eq=False)
    """``suit[p]`` is the bitset of the tiles with a half showing ``p``."""
    doubles: int = field(eq=False)
    """The bitset of the doubles."""
    full: int = field(eq=False)
    """The bitset of the whole set."""
    pips: tuple[int, ...] = field(eq=False)
    """``pips[i]`` is the pip value of tile ``i``."""
    by_byte: tuple[tuple[tuple[Tile, ...], ...], ...] = field(eq=False, repr=False)
    """``by_byte[k][b]``: the tiles of bits ``8k`` to ``8k + 7`` set in the byte ``b``, in
    canonical order, so that :meth:`unpack` takes eight tiles per lookup."""

    @property
    def size(self) -> int:
        """How many tiles the set has: (N + 1)(N + 2) / 2."""
        return len(self.tiles)

    @property
    def total_pips(self) -> int:
        """The pip total of the whole set: N(N + 1)(N + 2) / 2 (168 for double-six)."""
        return sum(self.pips)

    def mask(self, tiles: Iterable[Tile]) -> int:
        """The bitset of some tiles of this set.

        Raises:
            ValueError: a tile is not in this set, or appears twice.
        """
        result = 0
        for tile in tiles:
            bit = 1 << self.bit_index(tile)
            if result & bit:
                msg = f"tile {tile} appears twice"
                raise ValueError(msg)
            result |= bit
        return result

    def bit_index(self, tile: Tile) -> int:
        """The bit index of ``tile``.

        Raises:
            ValueError: the tile is not in this set.
        """
        try:
            return self.index[tile]
        except KeyError:
            msg = f"tile {tile} is not in the double-{self.max_pip} set"
            raise ValueError(msg) from None

    def unpack(self, mask: int) -> tuple[Tile, ...]:
        """The tiles of a bitset, in canonical order.

        >>> tile_set(6).unpack(0b1000000101)
        (Tile(0, 0), Tile(0, 2), Tile(1, 3))

        Raises:
            ValueError: a bit of ``mask`` stands for no tile of the set.
        """
        if not 0 <= mask <= self.full:
            msg = f"{mask:#x} is not a bitset of the double-{self.max_pip} set"
            raise ValueError(msg)
        tiles: tuple[Tile, ...] = ()
        for table in self.by_byte:  # a byte at a time, lowest first: the order is canonical
            if not mask:
                break
            tiles += table[mask & 0xFF]
            mask >>= 8
        return tiles


def iter_bits(mask: int) -> Iterator[int]:
    """The indices of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


@functools.cache
def tile_set(max_pip: int = 6) -> TileSet:
    """The double-``max_pip`` set (rule ``tiles.set``).

    >>> s = tile_set(6)
    >>> s.size, s.total_pips, str(s.tiles[0]), str(s.tiles[-1])
    (28, 168, '0-0', '6-6')

    Raises:
        ValueError: ``max_pip`` is below 1.
    """
    if max_pip < 1:
        msg = f"a double-N set needs N >= 1, got N = {max_pip}"
        raise ValueError(msg)
    tiles = tuple(Tile(low, high) for low in range(max_pip + 1) for high in range(low, max_pip + 1))
    index = {tile: i for i, tile in enumerate(tiles)}
    suit = tuple(
        sum(1 << i for i, tile in enumerate(tiles) if tile.has(pip)) for pip in range(max_pip + 1)
    )
    doubles = sum(1 << i for i, tile in enumerate(tiles) if tile.is_double)
    return TileSet(
        max_pip=max_pip,
        tiles=tiles,
        index=index,
        suit=suit,
        doubles=doubles,
        full=(1 << len(tiles)) - 1,
        pips=tuple(tile.pips for tile in tiles),
        by_byte=tuple(
            tuple(
                tuple(tiles[i] for i in iter_bits(byte << k) if i < len(tiles))
                for byte in range(256)
            )
            for k in range(0, len(tiles), 8)
        ),
    )
