"""Tiles, tile sets and their notation (rule ``tiles.set``)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gaple.tiles import Tile, TileSyntaxError, iter_bits, parse_tiles, tile_set


@pytest.mark.parametrize("text", ["0-3", "3-0", "[0-3]", "0|3", "[0|3]", " 3:0 ", "0/3", "0,3"])
def test_parse_is_lenient_about_brackets_separators_and_order(text: str) -> None:
    assert Tile.parse(text) == Tile(0, 3)


@pytest.mark.parametrize(
    "text", ["", "3", "0-3-4", "a-b", "0 3", "-1-2", "0--3", "[0-3", "0-3]", "[[0-3]]"]
)
def test_parse_refuses_what_is_not_two_pip_values_with_a_clear_message(text: str) -> None:
    with pytest.raises(TileSyntaxError) as caught:
        Tile.parse(text)
    message = str(caught.value)
    assert repr(text) in message  # says what it could not read
    assert "'4-4'" in message  # and how to write a tile


@pytest.mark.parametrize("text", ["\u0663-\u0664", "\uff13-4", "3-4\u2028", "\u00a03-4"])
def test_parse_reads_ascii_digits_and_spaces_only(text: str) -> None:
    # int() reads an Arabic-Indic or a full-width digit, and \\s matches U+2028 and a
    # no-break space: lenient about spelling, still never about what a digit is.
    with pytest.raises(TileSyntaxError):
        Tile.parse(text)


@pytest.mark.parametrize(
    ("text", "tile"), [("0-3", Tile(0, 3)), ("3-0", Tile(0, 3)), ("9-10", Tile(9, 10))]
)
def test_the_wire_form_reads_either_half_first(text: str, tile: Tile) -> None:
    assert Tile.from_wire(text) == tile


@pytest.mark.parametrize(
    "text",
    ["[0-3]", "0|3", " 0-3", "0-3 ", "3:0", "03-1", "0-00", "\u0663-\u0664", "3-4\u2028", "0 - 3"],
)
def test_the_wire_form_is_one_spelling(text: str) -> None:
    with pytest.raises(TileSyntaxError) as caught:
        Tile.from_wire(text)
    assert repr(text) in str(caught.value)


def test_a_tile_is_unordered_and_keeps_its_low_half_first() -> None:
    assert Tile(5, 2) == Tile(2, 5)
    assert (Tile(5, 2).low, Tile(5, 2).high) == (2, 5)
    assert str(Tile(6, 3)) == "3-6"
    assert repr(Tile(6, 3)) == "Tile(3, 6)"
    assert hash(Tile(1, 4)) == hash(Tile(4, 1))


def test_tile_facts() -> None:
    assert Tile(4, 4).pips == 8  # research E-count: [4-4] = 8
    assert Tile(0, 3).pips == 3  # and [0-3] = 3
    assert Tile(4, 4).is_double
    assert not Tile(0, 3).is_double
    assert Tile(2, 5).has(5)
    assert not Tile(2, 5).has(3)
    assert Tile(2, 5).other(2) == 5
    assert Tile(3, 3).other(3) == 3
    with pytest.raises(ValueError, match="no half showing 4"):
        Tile(2, 5).other(4)


def test_tiles_order_by_low_half_then_high_half() -> None:
    assert sorted([Tile(1, 1), Tile(0, 6), Tile(0, 2), Tile(6, 6)]) == [
        Tile(0, 2),
        Tile(0, 6),
        Tile(1, 1),
        Tile(6, 6),
    ]


def test_negative_pips_are_refused() -> None:
    with pytest.raises(ValueError, match="negative"):
        Tile(-1, 2)


def test_parse_tiles_reads_a_string_or_a_list() -> None:
    assert parse_tiles("1-1 [1-3] 5|1") == (Tile(1, 1), Tile(1, 3), Tile(1, 5))
    assert parse_tiles(["6-6", "0-0"]) == (Tile(6, 6), Tile(0, 0))
    assert parse_tiles("") == ()
    with pytest.raises(TileSyntaxError, match="'x'"):
        parse_tiles("1-1 x")


def test_double_six_set_has_28_tiles_and_168_pips() -> None:
    full = tile_set(6)
    # (N + 1)(N + 2) / 2 = 7 * 8 / 2 tiles; each number on 8 halves: 8 * (0 + ... + 6) pips.
    assert full.size == 28
    assert full.total_pips == 168
    assert len(set(full.tiles)) == 28
    assert full.tiles[0] == Tile(0, 0)
    assert full.tiles[6] == Tile(0, 6)
    assert full.tiles[7] == Tile(1, 1)
    assert full.tiles[-1] == Tile(6, 6)
    assert list(full.tiles) == sorted(full.tiles)


@pytest.mark.parametrize("n", [1, 2, 3, 4, 6, 9])
def test_double_n_set_tables(n: int) -> None:
    full = tile_set(n)
    assert full.size == (n + 1) * (n + 2) // 2
    assert full.total_pips == (n + 2) * n * (n + 1) // 2
    for i, tile in enumerate(full.tiles):
        assert full.index[tile] == i
        assert full.bit_index(tile) == i
        assert full.pips[i] == tile.pips
    for pip in range(n + 1):
        # Each number is on n + 1 tiles: its double and one tile with each other number.
        suit = full.unpack(full.suit[pip])
        assert len(suit) == n + 1
        assert all(t.has(pip) for t in suit)
    assert full.unpack(full.doubles) == tuple(Tile(p, p) for p in range(n + 1))
    assert full.unpack(full.full) == full.tiles


def test_tile_set_is_cached_and_refuses_n_below_1() -> None:
    assert tile_set(6) is tile_set(6)
    with pytest.raises(ValueError, match="N >= 1"):
        tile_set(0)


def test_mask_refuses_repeats_and_foreign_tiles() -> None:
    full = tile_set(2)
    assert full.mask([Tile(0, 0), Tile(2, 2)]) == 0b100001
    with pytest.raises(ValueError, match="0-1 appears twice"):
        full.mask([Tile(0, 1), Tile(1, 0)])
    with pytest.raises(ValueError, match="3-3 is not in the double-2 set"):
        full.mask([Tile(3, 3)])


@given(st.integers(min_value=0, max_value=2**40))
def test_iter_bits_lists_the_set_bits_lowest_first(mask: int) -> None:
    bits = list(iter_bits(mask))
    assert bits == sorted(bits)
    assert sum(1 << b for b in bits) == mask


@given(st.sets(st.sampled_from(tile_set(6).tiles)))
def test_unpack_inverts_mask(tiles: set[Tile]) -> None:
    full = tile_set(6)
    assert full.unpack(full.mask(tiles)) == tuple(sorted(tiles))


@given(st.integers(min_value=1, max_value=9), st.data())
def test_unpack_gives_the_tile_of_each_set_bit_in_order(n: int, data: st.DataObject) -> None:
    # unpack goes a byte at a time; this is its definition, a bit at a time. The sets of 3, 6,
    # 10, 15, 21, 28, 36, 45 and 55 tiles all end inside a byte, several bytes in, so a last
    # byte's table cut one tile short or long, or bytes taken out of order, would show.
    full = tile_set(n)
    mask = data.draw(st.integers(min_value=0, max_value=full.full))
    assert full.unpack(mask) == tuple(full.tiles[i] for i in range(full.size) if mask >> i & 1)


def test_unpack_refuses_bits_beyond_the_set() -> None:
    # The double-2 set has 6 tiles: bit 6 and negative numbers stand for none of them.
    full = tile_set(2)
    assert full.unpack(0b111111) == full.tiles
    for mask in (0b1000000, -1):
        with pytest.raises(ValueError, match="not a bitset of the double-2 set"):
            full.unpack(mask)
