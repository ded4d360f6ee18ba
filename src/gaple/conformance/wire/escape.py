"""Text an engine or a document wrote, made safe to show: on a terminal, in a JSON-lines report,
in XML, in JSON output.

An engine may send anything: control characters that move a terminal's cursor or are forbidden
in XML 1.0, lone UTF-16 surrogates that no encoder accepts, text of any length. Whatever of it
is shown goes through :func:`printable` first, and JSON text written for a reader through
:func:`json_escaped`; both hide the same characters.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["json_escaped", "printable"]

_HIDDEN = frozenset({"Cc", "Cs", "Cn", "Co", "Zl", "Zp"})
"""Controls, surrogates, unassigned and private code points, line and paragraph separators."""

_BIDI = frozenset(range(0x202A, 0x202F)).union(range(0x2066, 0x206A))
"""Bidirectional overrides and isolates: they reorder what a terminal shows after them."""


def printable(text: str, limit: int | None = None) -> str:
    """``text`` with every hidden character written as a Python-style escape (``\\x1b``,
    ``\\ud800``), cut to ``limit`` characters (marked with ``...``) when given.

    >>> printable("bad\\x1b[2Jname\\ud800")
    'bad\\\\x1b[2Jname\\\\ud800'
    >>> printable("0123456789", limit=4)
    '0123...'
    """
    cut = limit is not None and len(text) > limit
    if cut:
        text = text[:limit]
    shown = "".join(_escape(char) for char in text)
    return shown + "..." if cut else shown


def json_escaped(text: str) -> str:
    r"""JSON text (as ``json.dumps(..., ensure_ascii=False)`` writes it) with every hidden
    character written as its JSON escape: the text reads back as the same value, encodes as
    UTF-8 (a lone surrogate is escaped too) and moves no terminal's cursor.

    Outside strings JSON text is ASCII, and json.dumps escapes the controls below U+0020
    itself: every character this escapes is inside a string, where an escape is valid.

    >>> json_escaped('["\u009b2J\u202e\ud800", "é"]')
    '["\\u009b2J\\u202e\\ud800", "é"]'
    """
    return _NOT_PRINTABLE_ASCII.sub(_json_escape, text)


_NOT_PRINTABLE_ASCII = re.compile(r"[^\x00-\x7e]")
"""DEL and everything past ASCII: the only characters of JSON text that may be hidden ones
(the category is looked up only for these, so ASCII text costs one scan in C)."""


def _json_escape(match: re.Match[str]) -> str:
    char = match.group()
    if not _hidden(char):
        return char
    code = ord(char)
    if code < 0x10000:
        return f"\\u{code:04x}"
    # JSON writes a code point past U+FFFF as its UTF-16 surrogate pair.
    high, low = divmod(code - 0x10000, 0x400)
    return f"\\u{0xD800 + high:04x}\\u{0xDC00 + low:04x}"


def _hidden(char: str) -> bool:
    return unicodedata.category(char) in _HIDDEN or ord(char) in _BIDI


def _escape(char: str) -> str:
    code = ord(char)
    if not _hidden(char):
        return char
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"
