"""SVG pictures of tiles, the line and hands, for the rules reference and for reports.

Every function is pure: it takes tiles (or a :class:`~gaple.hand.State`) and returns the text
of a standalone SVG document, the same text for the same input. Each picture carries a
``<title>`` that says in words what it shows (the line, its open ends, each hand), so the
picture is readable without sight and its content can be checked as text.

A tile is drawn as two square halves with pips laid out as on a real domino (values up to 9;
higher values are written as numerals). In the line, tiles lie end to end from left to right
with the touching halves equal, and a double stands crosswise as it is laid at the table; the
two open ends are labelled under the line. Each tile carries its own ``<title>`` naming its
halves. For a reader checking a position rather than a player at the table, :func:`state_svg`
can also write each tile's halves under it, lay the discards face up (marked as discards) and
outline the tiles at issue.

>>> from gaple.tiles import Tile
>>> svg = line_svg([(6, 5), (5, 5)])
>>> svg.startswith("<svg") and "<title>Line 6-5 5-5; open ends 6 (left) and 5 (right)" in svg
True
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from html import escape

from attrs import frozen

from gaple.state import State
from gaple.tiles import Tile

__all__ = ["hand_svg", "line_svg", "state_svg", "table_svg", "tile_svg"]

HALF = 34
"""Side of one half of a tile, in SVG user units."""
GAP = 4
"""Space between neighbouring tiles."""
LABEL = 18
"""Height of one line of text."""
_END_LABEL = 100.0
"""Room one end label takes at the pictures' 13 px font ("right end 6 ▶")."""
CAPTION = 14
"""Height of the halves written under a tile, when they are."""
_MIN_WIDTH = 260.0
"""The narrowest line picture: room for both end labels side by side under a short line."""
LINE_WIDTH = 10 * (2 * HALF + GAP)
"""Width of one row of the line: ten tiles lying lengthwise."""

_PIP_RADIUS = HALF * 0.09
_PIP_SPOTS: dict[int, tuple[tuple[float, float], ...]] = {
    0: (),
    1: ((0.5, 0.5),),
    2: ((0.25, 0.25), (0.75, 0.75)),
    3: ((0.25, 0.25), (0.5, 0.5), (0.75, 0.75)),
    4: ((0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)),
    5: ((0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)),
    6: ((0.25, 0.25), (0.75, 0.25), (0.25, 0.5), (0.75, 0.5), (0.25, 0.75), (0.75, 0.75)),
    7: (
        (0.25, 0.25),
        (0.75, 0.25),
        (0.25, 0.5),
        (0.5, 0.5),
        (0.75, 0.5),
        (0.25, 0.75),
        (0.75, 0.75),
    ),
    8: (
        (0.25, 0.25),
        (0.5, 0.25),
        (0.75, 0.25),
        (0.25, 0.5),
        (0.75, 0.5),
        (0.25, 0.75),
        (0.5, 0.75),
        (0.75, 0.75),
    ),
    9: tuple((x, y) for y in (0.25, 0.5, 0.75) for x in (0.25, 0.5, 0.75)),
}
"""Where the pips of a half sit, as fractions of the half's side (a die's faces for 1-6)."""

_STYLE = (
    "<style>"
    ".tile{fill:#fffdf5;stroke:#2b2b2b;stroke-width:1.5}"
    ".bar{stroke:#2b2b2b;stroke-width:1}"
    ".pip{fill:#2b2b2b}"
    ".face-down{fill:#5b6b7a;stroke:#2b2b2b;stroke-width:1.5}"
    ".discard .tile{fill:#e6e1d3;stroke-dasharray:5 3}"
    ".issue{fill:none;stroke:#d9480f;stroke-width:3.5}"
    ".caption{font-size:12px;text-anchor:middle}"
    ".at-issue .caption{fill:#d9480f;font-weight:bold}"
    ".discards{font-style:italic;fill:#555}"
    "text{font-family:sans-serif;font-size:13px;fill:#2b2b2b}"
    ".num{font-size:14px;font-weight:bold;text-anchor:middle;dominant-baseline:central}"
    ".end{fill:#b3261e;font-weight:bold}"
    "</style>"
)


def _half(x: float, y: float, value: int) -> str:
    """One half of a tile with its top-left corner at (x, y)."""
    if value in _PIP_SPOTS:
        return "".join(
            f'<circle class="pip" cx="{x + fx * HALF:g}" cy="{y + fy * HALF:g}" '
            f'r="{_PIP_RADIUS:g}"/>'
            for fx, fy in _PIP_SPOTS[value]
        )
    return f'<text class="num" x="{x + HALF / 2:g}" y="{y + HALF / 2:g}">{value}</text>'


@frozen
class _Look:
    """How tiles are drawn: for the table (the default), or for a reader checking a position."""

    reveal: bool = False
    """Write each tile's halves under it and lay discards face up, marked as discards."""
    marked: frozenset[Tile] = frozenset()
    """Tiles at issue, outlined."""

    @property
    def caption(self) -> float:
        """Height added under a row of tiles for the halves written there."""
        return CAPTION if self.reveal else 0


_TABLE = _Look()


def _tile(
    x: float,
    y: float,
    first: int,
    second: int,
    *,
    upright: bool,
    look: _Look = _TABLE,
    discard: bool = False,
) -> str:
    """A tile at (x, y): ``first`` on the left (or top when upright), ``second`` after it;
    when the look reveals, its halves are written under it (at the foot of its row, whose
    height the caller gives room for)."""
    width, height = (HALF, 2 * HALF) if upright else (2 * HALF, HALF)
    tile = Tile(first, second)
    at_issue = tile in look.marked
    name = f"{tile}" + (", discarded" if discard else "") + (", at issue" if at_issue else "")
    if upright:
        bar = f'<line class="bar" x1="{x + 4:g}" y1="{y + HALF:g}" x2="{x + HALF - 4:g}" '
        bar += f'y2="{y + HALF:g}"/>'
        halves = _half(x, y, first) + _half(x, y + HALF, second)
    else:
        bar = f'<line class="bar" x1="{x + HALF:g}" y1="{y + 4:g}" x2="{x + HALF:g}" '
        bar += f'y2="{y + HALF - 4:g}"/>'
        halves = _half(x, y, first) + _half(x + HALF, y, second)
    extra = (" discard" if discard else "") + (" at-issue" if at_issue else "")
    parts = [
        f'<g class="domino{extra}" data-tile="{tile}"><title>{escape(name)}</title>',
        f'<rect class="tile" x="{x:g}" y="{y:g}" width="{width:g}" height="{height:g}" rx="4"/>',
        bar,
        halves,
    ]
    if at_issue:
        parts.append(
            f'<rect class="issue" x="{x - 3:g}" y="{y - 3:g}" width="{width + 6:g}" '
            f'height="{height + 6:g}" rx="6"/>'
        )
    if look.reveal:
        # All captions of a row on one baseline: a tile lying lengthwise sits half a half
        # below the top of its row, centred on the doubles standing across it.
        foot = y + (2 * HALF if upright else 1.5 * HALF) + CAPTION - 2
        # As drawn: in the line a tile reads as it was laid, 4-0 where the move said 0-4.
        parts.append(_text(x + width / 2, foot, f"{first}-{second}", "caption"))
    return "".join(parts) + "</g>"


def _face_down(x: float, y: float) -> str:
    """A tile lying face down (a discard), upright."""
    return (
        f'<rect class="face-down" data-face-down="1" x="{x:g}" y="{y:g}" width="{HALF:g}" '
        f'height="{2 * HALF:g}" rx="4"/>'
    )


def _text(x: float, y: float, text: str, css: str = "") -> str:
    attr = f' class="{css}"' if css else ""
    return f'<text{attr} x="{x:g}" y="{y:g}">{escape(text)}</text>'


def _document(width: float, height: float, title: str, body: str) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" role="img" viewBox="0 0 {width:g} {height:g}" '
        f'width="{width:g}" height="{height:g}"><title>{escape(title)}</title>'
        f"{_STYLE}{body}</svg>"
    )


def tile_svg(tile: Tile) -> str:
    """One tile lying lengthwise, lower value on the left.

    >>> tile_svg(Tile(3, 6)).count('class="pip"')
    9
    """
    pad = GAP
    body = _tile(pad, pad, tile.low, tile.high, upright=False)
    return _document(2 * HALF + 2 * pad, HALF + 2 * pad, f"Tile {tile}", body)


def _rows(line: Sequence[tuple[int, int]]) -> list[list[tuple[int, int]]]:
    """The line cut into rows of at most :data:`LINE_WIDTH`, as a long line turns at the edge
    of the table."""
    rows: list[list[tuple[int, int]]] = [[]]
    used = 0
    for left, right in line:
        size = (HALF if left == right else 2 * HALF) + GAP
        if rows[-1] and used + size - GAP > LINE_WIDTH:
            rows.append([])
            used = 0
        rows[-1].append((left, right))
        used += size
    return rows


def _line_body(
    line: Sequence[tuple[int, int]], top: float, look: _Look = _TABLE
) -> tuple[str, float, float]:
    """The line laid out from x = GAP at height ``top``: (SVG, width used, height used).

    A line longer than :data:`LINE_WIDTH` continues on the next row; it is still read left to
    right, row after row. Each end's label sits by its own tile: under the line when it fits
    in one row, else the left end's above the first row and the right end's under the last
    tile.
    """
    if not line:
        text = _text(GAP, top + HALF, "Empty table: the opener leads.")
        return text, _MIN_WIDTH, 2 * HALF
    rows = _rows(line)
    left_label = f"◀ left end {line[0][0]}"
    parts: list[str] = []
    y = top
    if len(rows) > 1:
        parts.append(_text(GAP, top + LABEL - 4, left_label, "end"))
        y += LABEL
    widest = 0.0
    for row in rows:
        x = float(GAP)
        for left, right in row:
            if left == right:
                parts.append(_tile(x, y, left, right, upright=True, look=look))
                x += HALF + GAP
            else:
                parts.append(_tile(x, y + HALF / 2, left, right, upright=False, look=look))
                x += 2 * HALF + GAP
        widest = max(widest, x)
        y += 2 * HALF + look.caption + GAP
    below = y - GAP + LABEL
    # One row: both labels side by side under it, which a short line still leaves room for.
    width = max(widest, _MIN_WIDTH)
    if len(rows) == 1:
        parts.append(_text(GAP, below, left_label, "end"))
        right_at = width - GAP
    else:
        right_at = max(x - GAP, GAP + _END_LABEL)
    parts.append(
        f'<text class="end" x="{right_at:g}" y="{below:g}" text-anchor="end">'
        f"{escape(f'right end {line[-1][1]} ▶')}</text>"
    )
    return "".join(parts), width, below - top + 6


def _line_title(line: Sequence[tuple[int, int]]) -> str:
    if not line:
        return "Empty table"
    shown = " ".join(f"{a}-{b}" for a, b in line)
    return f"Line {shown}; open ends {line[0][0]} (left) and {line[-1][1]} (right)"


def line_svg(line: Sequence[tuple[int, int]]) -> str:
    """The line as placed, each tile given as (left half, right half) like ``State.line``.

    >>> "open ends 3 (left) and 5 (right)" in line_svg([(3, 6), (6, 5)])
    True
    """
    body, width, height = _line_body(line, GAP)
    return _document(width + GAP, height + GAP, _line_title(line), body)


_DISCARDED = "discarded"
"""The word over a seat's discards when they lie face up."""


def _room(text: str) -> float:
    """Room a line of text takes at the pictures' 13 px font, with some to spare (8 units a
    character, where sans-serif letters average about 7)."""
    return 8.0 * len(text)


def _hand_row(
    x: float,
    y: float,
    label: str,
    tiles: Sequence[Tile],
    discards: int | Sequence[Tile],
    *,
    look: _Look = _TABLE,
) -> tuple[str, float]:
    """One labelled row of upright tiles, then the discards: face down, or face up after the
    word "discarded" when the look reveals them (and they are known); returns (SVG, width)."""
    parts = [_text(x, y + LABEL - 4, label)]
    cursor = x
    top = y + LABEL
    for tile in tiles:
        parts.append(_tile(cursor, top, tile.low, tile.high, upright=True, look=look))
        cursor += HALF + GAP
    hidden = discards if isinstance(discards, int) else len(discards)
    if not tiles and not hidden:
        parts.append(_text(cursor, top + HALF, "(no tiles left)"))
    width = x + _room(label)
    if hidden and look.reveal and not isinstance(discards, int):
        # Past the seat's label, which the word above the discards must not overrun.
        cursor = max(cursor + 3 * GAP, width)
        parts.append(_text(cursor, y + LABEL - 4, _DISCARDED, "discards"))
        # The word is wider than one or two tiles: the hand beside this one starts past it.
        width = cursor + _room(_DISCARDED)
        for tile in discards:
            parts.append(
                _tile(cursor, top, tile.low, tile.high, upright=True, look=look, discard=True)
            )
            cursor += HALF + GAP
    elif hidden:
        cursor += 2 * GAP
        for _ in range(hidden):
            parts.append(_face_down(cursor, top))
            cursor += HALF + GAP
    return "".join(parts), max(cursor, width)


_ROW = LABEL + 2 * HALF + 2 * GAP


def _describe(label: str, tiles: Sequence[Tile], discards: int | Sequence[Tile]) -> str:
    held = " ".join(map(str, tiles)) or "no tiles"
    if isinstance(discards, int):
        down = f"; {discards} discarded face down" if discards else ""
    else:
        down = f"; discarded {' '.join(map(str, discards))}" if discards else ""
    return f"{label}: {held}{down}"


def hand_svg(label: str, tiles: Sequence[Tile], discards: int | Sequence[Tile] = 0) -> str:
    """One hand: a label, the tiles upright, then its discards face down.

    ``discards`` is either the discarded tiles (to describe them in the title) or how many
    there are; the picture shows them face down either way, as they lie at the table.

    >>> svg = hand_svg("A", [Tile(1, 1), Tile(1, 3)])
    >>> svg.count('class="domino"'), "<title>A: 1-1 1-3</title>" in svg
    (2, True)
    """
    body, width = _hand_row(GAP, GAP, label, tiles, discards)
    return _document(width + GAP, _ROW + GAP, _describe(label, tiles, discards), body)


def _table(
    line: Sequence[tuple[int, int]] | None,
    hands: Sequence[tuple[str, Sequence[Tile]]],
    discards: Sequence[int | Sequence[Tile]],
    ends: tuple[int, int] | None = None,
    look: _Look = _TABLE,
) -> str:
    """The line (``None``: leave it out, or name only its ``ends``) above one row per hand."""
    marks = list(discards) or [0] * len(hands)
    if len(marks) != len(hands):
        msg = f"{len(hands)} hands but {len(marks)} discard entries"
        raise ValueError(msg)
    parts: list[str] = []
    titles: list[str] = []
    width = _MIN_WIDTH
    y = float(GAP)
    if line is not None:
        body, used_width, used_height = _line_body(line, y, look)
        parts.append(body)
        titles.append(_line_title(line))
        width = max(width, used_width)
        y += used_height + GAP
    elif ends is not None:
        note = f"Open ends {ends[0]} (left) and {ends[1]} (right)"
        parts.append(_text(GAP, y + LABEL - 4, f"open ends ◀ {ends[0]} … {ends[1]} ▶", "end"))
        titles.append(note)
        y += LABEL + GAP
    pairs = list(zip(hands, marks, strict=True))
    rows = [_hand_row(0, 0, label, tiles, down, look=look) for (label, tiles), down in pairs]
    titles.extend(_describe(label, tiles, down) for (label, tiles), down in pairs)
    # Four or more hands sit two to a row, as round a table, so the picture stays compact.
    columns = 2 if len(rows) >= 4 else 1
    column = max((row_width for _, row_width in rows), default=0) + 4 * GAP
    row = _ROW + look.caption
    for i, (body, _) in enumerate(rows):
        x = GAP + (i % columns) * column
        parts.append(f'<g transform="translate({x:g},{y + (i // columns) * row:g})">{body}</g>')
    width = max(width, columns * column)
    y += -(-len(rows) // columns) * row
    return _document(width + GAP, y + GAP, ". ".join(titles) or "Nothing", "".join(parts))


def table_svg(
    line: Sequence[tuple[int, int]],
    hands: Sequence[tuple[str, Sequence[Tile]]],
    discards: Sequence[int | Sequence[Tile]] = (),
    *,
    ends: tuple[int, int] | None = None,
) -> str:
    """The line above, then one labelled row per hand (with its discards, if given).

    ``hands`` pairs a label (``"Seat 0"``, ``"A (count 6)"``) with the tiles held; ``discards``,
    when given, has one entry per hand as in :func:`hand_svg`. An empty ``line`` leaves the
    line out, which suits counting examples where only the hands matter; ``ends`` then names
    the open ends of a line that is not drawn (a finished position records only its ends).

    >>> svg = table_svg([(6, 5)], [("A", [Tile(6, 3)]), ("B", [Tile(1, 4)])])
    >>> svg.count('class="domino"')
    3

    Raises:
        ValueError: ``discards`` is given but does not have one entry per hand.
    """
    return _table(line or None, hands, discards, ends)


def state_svg(
    state: State,
    labels: Sequence[str] = (),
    *,
    reveal: bool = False,
    marked: Collection[Tile] = (),
) -> str:
    """A moment of a hand: the line with its ends, then every seat's hand and discards.

    The seat to act is marked with an arrow; once the hand is over, the seat that went out
    is marked. ``labels`` replaces the default ``Seat 0``, ``Seat 1``... names. The discards
    lie face down as at the table, unless ``reveal`` (for a report, whose reader checks the
    position): then they lie face up after the word "discarded", and every tile has its
    halves written under it. The tiles in ``marked`` (the tiles at issue) are outlined.

    Raises:
        ValueError: ``labels`` is given but does not name every seat.
    """
    names = list(labels) or [f"Seat {seat}" for seat in range(state.rules.players)]
    if len(names) != state.rules.players:
        msg = f"{state.rules.players} seats but {len(names)} labels"
        raise ValueError(msg)
    rows: list[tuple[str, Sequence[Tile]]] = []
    for seat, name in enumerate(names):
        mark = " ◀ to act" if seat == state.to_act else ""
        if seat == state.out_seat:
            mark = " (went out)"
        rows.append((f"{name}{mark}", state.hand(seat)))
    downs = [state.discards(seat) for seat in range(state.rules.players)]
    return _table(state.line, rows, downs, look=_Look(reveal, frozenset(marked)))
