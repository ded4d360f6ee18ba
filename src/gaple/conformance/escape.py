"""Text an engine wrote, made safe to show: on a terminal, in a JSON-lines report, in XML.

An engine may send anything: control characters that move a terminal's cursor or are forbidden
in XML 1.0, lone UTF-16 surrogates that no encoder accepts, text of any length. Whatever of it
is shown goes through :func:`printable` first.
"""

from __future__ import annotations

import unicodedata

__all__ = ["printable"]

_HIDDEN = frozenset({"Cc", "Cs", "Cn", "Co", "Zl", "Zp"})
"""Controls, surrogates, unassigned and private code points, line and paragraph separators."""

_BIDI = frozenset(range(0x202A, 0x202F)) | frozenset(range(0x2066, 0x206A))
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


def _escape(char: str) -> str:
    code = ord(char)
    if unicodedata.category(char) not in _HIDDEN and code not in _BIDI:
        return char
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"
