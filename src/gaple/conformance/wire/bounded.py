"""The one JSON reader of every document a user hands to gaple: bounded before it is decoded.

Python's ``json.loads`` recurses once per level of nesting (a deep enough array ends in
``RecursionError``), refuses integers of more than 4,300 digits with a bare
``ValueError``, accepts ``NaN`` and ``Infinity`` (which are not JSON) and keeps the last of
two equal keys; and a document of any size is decoded whole before anyone looks at it. So
:func:`parse` first scans the text once, without recursing, for the limits of :data:`LIMITS`
(size, nesting depth, length of a number, items in one array or object) and for the words
``NaN`` and ``Infinity``, then decodes it refusing duplicate keys. Every refusal is a
:class:`Refused` that says where (the line, or the key) and what limit was passed.

Where orjson is installed (a dependency of gaple on CPython) it decodes the documents on which
it surely gives json.loads' value, in half the time; json.loads decodes the others and words
every refusal, so the value or the refusal never depends on orjson.
"""

from __future__ import annotations

import errno
import itertools
import json
import math
import os
import re
import stat
import sys
from collections.abc import Callable, Iterator
from types import FrameType
from typing import IO, Any

from attrs import frozen

from gaple.conformance.wire.escape import printable

__all__ = [
    "LIMITS",
    "Limits",
    "Refused",
    "exact_key",
    "json_line",
    "lines",
    "loads",
    "open_regular",
    "parse",
    "read",
]


@frozen
class Limits:
    """How large a document may be; each far above what a hand or a case needs."""

    max_bytes: int = 1 << 20
    """Bytes in one document, or one line of a JSON-lines log (1 MiB; a conformance case of
    the double-six set is about 20 KB)."""
    max_depth: int = 32
    """Arrays and objects open at once (a case nests 6 deep)."""
    max_number: int = 32
    """Characters in one number (an unsigned 64-bit seed has 20 digits)."""
    max_items: int = 10_000
    """Items in one array or members in one object (a hand has well under 100 actions)."""


LIMITS = Limits()
"""The limits of every reader of the command line and the conformance runner."""


class Refused(ValueError):
    """A document that is not JSON or passes a limit; ``line`` is 1-based, when known."""

    def __init__(self, message: str, line: int | None = None, *, limit: bool = False) -> None:
        super().__init__(message if line is None else f"line {line}: {message}")
        self.line = line
        self.message = message
        self.limit = limit
        """Whether a limit was passed (the text may be valid JSON)."""


# One token per string (so brackets in strings are skipped), bracket, comma, number or word;
# everything else (white space, colons, stray characters) is left to json.loads to judge. A
# string runs to its quote or the end of its line, so an unclosed one is not rescanned from
# every later quote (which would take quadratic time).
_TOKEN = re.compile(r'"[^"\\\n]*(?:\\.[^"\\\n]*)*"?|[\[\]{},]|-?[0-9][-+.0-9eE]*|[A-Za-z_]\w*')
_NOT_NUMBERS = frozenset({"NaN", "Infinity"})
"""The words json.loads accepts although JSON has no such numbers; other words it refuses."""

_SKELETON = b'[]{}"\\\n'
"""What decides the nesting of a document: brackets, and what decides where strings end."""
_NUMBER_CHARACTERS = b"-+.0123456789eE"
_KEPT = bytes(48 if c in _NUMBER_CHARACTERS else c for c in range(256))
"""A translation table: each character a number token may hold to 0, any other to itself."""
_NOT_KEPT = bytes(sorted(set(range(256)) - set(_NUMBER_CHARACTERS) - set(_SKELETON)))
"""What :func:`_within` drops: all but the skeleton and the numbers' characters."""


def open_regular(path: str | os.PathLike[str]) -> IO[bytes]:
    """``path`` opened for reading when it is a regular file: a file found in a folder (not
    named by the user) may be a FIFO, whose opening waits for a writer forever, or a device
    that never ends. It is opened without waiting and checked once open, so nothing swapped in
    between a check and the opening is read.

    Raises:
        OSError: it cannot be opened, or it is not a regular file.
    """
    descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    if not stat.S_ISREG(os.fstat(descriptor).st_mode):
        os.close(descriptor)
        raise OSError(errno.EINVAL, "not a regular file", str(path))
    return os.fdopen(descriptor, "rb")


def read(stream: IO[bytes], limits: Limits = LIMITS) -> Any:
    """Read at most ``limits.max_bytes`` (plus one, to tell a longer stream) and parse it.

    Raises:
        Refused: see :func:`parse`.
        OSError: the stream cannot be read.
    """
    return parse(stream.read(limits.max_bytes + 1), limits)


def lines(stream: IO[bytes], limits: Limits = LIMITS) -> Iterator[Any]:
    """Each line of a JSON-lines stream, parsed (:func:`parse`); a line is read only up to one
    byte past ``limits.max_bytes``, so a longer one (or an endless one, ``/dev/zero``) costs
    no more memory than the limit.

    Raises:
        Refused: at the first line that is not JSON or passes a limit, with its number.
        OSError: the stream cannot be read.
    """
    for number in itertools.count(1):
        line = stream.readline(limits.max_bytes + 2)  # the limit, a byte past it, the newline
        if not line:
            return
        text = line.removesuffix(b"\n")
        if len(text) > limits.max_bytes:
            msg = f"more than {limits.max_bytes} bytes"
            raise Refused(msg, number, limit=True)
        try:
            yield parse(text, limits)
        except Refused as error:
            raise Refused(error.message, number, limit=error.limit) from None


def parse(document: bytes | str, limits: Limits = LIMITS) -> Any:
    """The decoded JSON of ``document`` (UTF-8 bytes, with or without a byte order mark).

    >>> parse(b'{"seat": 2, "move": "pass"}')
    {'seat': 2, 'move': 'pass'}
    >>> parse("[" * 40 + "]" * 40)
    Traceback (most recent call last):
    ...
    gaple.conformance.wire.bounded.Refused: line 1: more than 32 arrays or objects nested
    >>> parse('{"a": 1, "a": 2}')
    Traceback (most recent call last):
    ...
    gaple.conformance.wire.bounded.Refused: duplicate key "a" in one object

    Raises:
        Refused: too many bytes, not UTF-8, nested too deep, a number too long, too many items,
            ``NaN`` or ``Infinity``, a number too large for a float, a duplicate key, or not
            JSON at all.
    """
    raw = document.encode("utf-8", "surrogatepass") if isinstance(document, str) else document
    if len(raw) > limits.max_bytes:
        msg = f"more than {limits.max_bytes} bytes"
        raise Refused(msg, limit=True)
    if isinstance(document, bytes):
        try:
            text = document.decode("utf-8")
        except UnicodeDecodeError as error:
            line = document.count(b"\n", 0, error.start) + 1
            raise Refused(f"not UTF-8 text (byte {error.start + 1})", line) from None
    else:
        text = document
    text = text.removeprefix("\ufeff")
    if _within(raw, limits):
        value = _decoded_quickly(raw)
        if value is not _UNDECIDED:
            return value
    else:
        _scan(text, limits)
    try:
        keys = _KeyCount()
        value = json.loads(text, object_hook=keys, parse_float=_finite)
        # Keys decoded = keys written - keys lost to a duplicate, and colons = keys written +
        # colons in strings: equal only when neither happened. Any other document is read
        # again, refusing duplicate keys by name (with the hook of pairs, which costs more).
        if keys.count == text.count(":"):
            return value
        return json.loads(text, object_pairs_hook=_unique, parse_float=_finite)
    except json.JSONDecodeError as error:
        msg = f"not JSON (column {error.colno}): {error.msg}"
        raise Refused(msg, error.lineno) from None


def loads(raw: bytes) -> Any:
    """``json.loads`` of the text of ``raw`` (UTF-8, each byte that is not UTF-8 read as
    U+FFFD), with none of :func:`parse`'s limits or refusals: how the runner reads an engine's
    reply, which is not a user's document. orjson decodes it where it surely gives the same
    value (:func:`_shallow_and_short`), in less than half the time; json.loads decodes the
    rest, so the value or the error never depends on orjson.

    Raises:
        ValueError: not JSON.
        RecursionError: nested deeper than json.loads can follow.
    """
    # orjson reads a long number or a nesting json.loads cannot follow (1,000 deep) where
    # json.loads does not: a reply with neither is left to it without _within's other passes.
    if _COMPILED is not None and _shallow_and_short(raw):
        try:
            return _COMPILED[0](raw)
        except ValueError:  # orjson's refusals (NaN, 1e999, bad UTF-8): json.loads decides
            pass
    return json.loads(raw.decode("utf-8", errors="replace"))


def _shallow_and_short(raw: bytes) -> bool:
    """Whether ``raw`` surely nests no deeper than json.loads follows here and holds no number
    too long for orjson to read as json.loads does: fewer brackets than json.loads has levels
    left, and no long run of a number's characters; else as :func:`_within` finds."""
    if raw.count(b"[") + raw.count(b"{") > _levels_left():
        return _within(raw, LIMITS)
    # _within's table, nothing dropped: a number's characters become a run of 0s, and no
    # other character is a 0.
    return _NUMBER_RUN not in raw.translate(_KEPT)


def _levels_left() -> int:
    """How deep json.loads, called from here, can nest: each level takes one of the
    recursion limit's frames, as each frame of its callers has (``_JSON_FRAMES`` kept for its
    own)."""
    frames = 0
    frame: FrameType | None = sys._getframe()  # no public API counts the frames
    while frame is not None:
        frames += 1
        frame = frame.f_back
    return sys.getrecursionlimit() - frames - _JSON_FRAMES


_JSON_FRAMES = 50
"""Frames kept for json.loads's own calls and the C code under it (fewer than 10 measured on
CPython 3.11)."""


def _compiled_decoder() -> tuple[Callable[[bytes], Any], Callable[[Any], bytes]] | None:
    """orjson's ``loads`` and ``dumps``, where it is installed (it is a dependency of gaple on
    CPython, which its wheels cover)."""
    try:
        import orjson  # noqa: PLC0415
    except ImportError:
        return None
    return orjson.loads, orjson.dumps


_COMPILED = _compiled_decoder()
_EXACT_NUMBER = 19
"""The longest number :func:`_within` clears: orjson reads an integer past 64 bits (20 digits
may be) as a float, where json.loads keeps it exact."""
_NUMBER_RUN = b"0" * (_EXACT_NUMBER + 1)
"""A run of a number's characters too long for :func:`loads` to leave to orjson, once
translated by :data:`_KEPT`."""
_UNDECIDED = object()
"""What :func:`_decoded_quickly` returns when json.loads must decide."""


def exact_key(value: Any) -> bytes | str:
    """A key of a decoded value, equal to another's only when the two are the same JSON value
    (in the same key order), where Python's == is not so strict (``true == 1``, ``2.0 == 2``)
    and a dict or list cannot be hashed: compact JSON from orjson, else from json.dumps (each
    writes a tuple as an array, so the spec's tuples need no copying into lists). A decoded
    value holds no NaN or infinity, which orjson writes as ``null``.

    >>> exact_key([1, 2]) == exact_key([1, 2.0]), exact_key({"a": True}) == exact_key({"a": 1})
    (False, False)
    >>> exact_key([[0, 3], [3, 5]]) == exact_key(((0, 3), (3, 5)))
    True
    """
    compact = _compact(value)
    if compact is not None:
        return compact
    # A str, never equal to orjson's bytes: a value orjson refuses differs from any it writes.
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def json_line(value: Any) -> bytes:
    """``value`` as one line of ASCII JSON text with its newline, as the runner sends a
    request: orjson's compact JSON where it writes ASCII (ten times faster than json.dumps),
    else json.dumps's. ``value`` holds no NaN or infinity, which orjson writes as ``null``.

    >>> json.loads(json_line({"type": "state", "seat": 2}))
    {'type': 'state', 'seat': 2}
    """
    compact = _compact(value)
    if compact is not None and compact.isascii():
        return compact + b"\n"
    return (json.dumps(value) + "\n").encode()


def _compact(value: Any) -> bytes | None:
    """orjson's compact JSON of ``value``, or ``None`` where orjson is missing or refuses it
    (an integer past 64 bits, a lone surrogate), which json.dumps writes."""
    if _COMPILED is None:
        return None
    try:
        return _COMPILED[1](value)
    except TypeError:
        return None


def _decoded_quickly(raw: bytes) -> Any:
    """The value json.loads (with :func:`parse`'s checks) would give, decoded by orjson in
    half the time; or ``_UNDECIDED`` when orjson is missing, refuses the document, or may
    differ from json.loads on it.

    ``raw`` has passed :func:`_within`, so it holds no backslash and no number of more than
    ``_EXACT_NUMBER`` characters. orjson keeps the last of two equal keys, as json.loads
    does; so the keys decoded are counted as the colons orjson writes back, each key's own
    plus those in strings. A lost key takes at least its own colon with it, and writing back
    adds no colon unless one was escaped (``\\u003a``, a backslash): equal counts mean no key
    was lost. Every refusal (NaN, a float too large, a byte order mark) json.loads words.
    """
    if _COMPILED is None:
        return _UNDECIDED
    loads, dumps = _COMPILED
    try:
        value = loads(raw)
        if dumps(value).count(b":") == raw.count(b":"):
            return value
    except (ValueError, TypeError):  # orjson's errors: json.loads will word them
        pass
    return _UNDECIDED


def _within(raw: bytes, limits: Limits) -> bool:
    """Whether the document surely passes :func:`_scan`, and orjson can decode it as json.loads
    would (:func:`_decoded_quickly`), found by a few passes in C instead of _scan's token loop
    (a tenth of its time on a transcript); when in doubt ``False``, and _scan and json.loads
    decide. Each test sees a superset of what _scan counts."""
    # A document of fewer bytes than the items allowed holds fewer commas: no need to count.
    if len(raw) >= limits.max_items and raw.count(b",") >= limits.max_items:
        return False
    # A search for one letter (memchr) is several times faster than for a word, and most
    # documents hold no capital N or I at all.
    if (b"N" in raw and b"NaN" in raw) or (b"I" in raw and b"Infinity" in raw):
        return False
    # One pass keeps the skeleton and the numbers' characters, each as a 0. A number's
    # characters stay side by side, so no long number hides; dropping what lies between
    # characters of a string can only make a run longer (json.loads then decides, needlessly).
    kept = raw.translate(_KEPT, _NOT_KEPT)
    if b"0" * (min(limits.max_number, _EXACT_NUMBER) + 1) in kept:
        return False
    # Two adjacent quotes (no newline, bracket or backslash between them) are one string for
    # _TOKEN too: what is left once they go are the brackets outside strings.
    brackets = kept.translate(None, b"0").replace(b'""', b"")
    if b'"' in brackets:
        return False
    brackets = brackets.replace(b"\n", b"")
    # Each pass removes the innermost empty arrays, or the innermost empty objects: at most one
    # level of nesting (replace does not look again at what its own removals join), so a
    # skeleton that max_depth passes empty nests no deeper. Faster than a regular expression.
    # No pass removes a backslash, so a document with one is never cleared.
    for empty in itertools.islice(itertools.cycle((b"[]", b"{}")), limits.max_depth):
        if not brackets:
            return True
        brackets = brackets.replace(empty, b"")
    return not brackets


def _scan(text: str, limits: Limits) -> None:
    """Refuse, at its line, the first place ``text`` passes a limit or has a bare word that is
    not JSON. Unbalanced brackets are left to json.loads, which locates them better."""
    counts: list[int] = []  # per open array or object: the commas seen in it so far
    for token in _TOKEN.finditer(text):
        kind = token.group()
        first = kind[0]
        if first in "[{":
            if len(counts) == limits.max_depth:
                msg = f"more than {limits.max_depth} arrays or objects nested"
                raise Refused(msg, _line(text, token.start()), limit=True)
            counts.append(0)
        elif first in "]}":
            if counts:
                counts.pop()
        elif first == ",":
            if counts:
                counts[-1] += 1
                if counts[-1] == limits.max_items:
                    msg = f"more than {limits.max_items} items in one array or object"
                    raise Refused(msg, _line(text, token.start()), limit=True)
        elif first == '"':
            continue
        elif first.isalpha() or first == "_":
            if kind in _NOT_NUMBERS:
                column = token.start() - text.rfind("\n", 0, token.start())
                msg = f"not JSON (column {column}): {kind} is not a JSON number"
                raise Refused(msg, _line(text, token.start()))
        elif len(kind) > limits.max_number:
            msg = f"a number of more than {limits.max_number} characters"
            raise Refused(msg, _line(text, token.start()), limit=True)


def _line(text: str, position: int) -> int:
    return text.count("\n", 0, position) + 1


def _finite(literal: str) -> float:
    # 1e999 is a short literal, but Python reads it as infinity, which JSON cannot write back.
    value = float(literal)
    if math.isinf(value):
        msg = f"the number {literal} is too large for a 64-bit float"
        raise Refused(msg, limit=True)
    return value


class _KeyCount:
    """An object hook of ``json.loads`` that counts the keys of the objects it decodes."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, members: dict[str, Any]) -> dict[str, Any]:
        self.count += len(members)
        return members


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    members = dict(pairs)
    if len(members) == len(pairs):
        return members
    members = {}
    for key, value in pairs:
        if key in members:
            msg = f'duplicate key "{printable(key, limit=40)}" in one object'
            raise Refused(msg)
        members[key] = value
    return members
