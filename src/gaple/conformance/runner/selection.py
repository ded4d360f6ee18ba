"""Choosing the cases of a run by name: ``--case ID`` and ``-k EXPRESSION``.

An expression is read like pytest's ``-k``: a bare word matches a case when it is part of the
case's ID or of one of its feature tags (:mod:`gaple.conformance.vectors.tags`), ignoring case;
words combine with ``and``, ``or``, ``not`` and parentheses (``not`` binds tightest, then ``and``,
then ``or``). The expression is parsed here, by recursive descent, never evaluated as code;
its nesting (parentheses and ``not``) is bounded by :data:`MOST_NESTED`, and a message quotes at
most :data:`SHOWN` characters of it.
"""

from __future__ import annotations

import difflib
import itertools
import re
from collections.abc import Callable, Iterable, Iterator, Sequence

from attrs import frozen

from gaple.conformance.wire.escape import printable

__all__ = [
    "MOST_NESTED",
    "SHOWN",
    "BadExpression",
    "Matcher",
    "closest",
    "parse_keywords",
    "quoted",
]

Matcher = Callable[[str, Sequence[str]], bool]
"""Whether a case, given by its ID and its feature tags, is selected."""

_TOKEN = re.compile(r"\s*(?:(?P<paren>[()])|(?P<word>[^\s()]+))")
_KEYWORDS = frozenset({"and", "or", "not"})

MOST_NESTED = 50
"""Parentheses and ``not`` nested deeper than this are refused: far beyond any selection a
person writes, and far inside Python's recursion limit, which the parser would otherwise hit."""

SHOWN = 80
"""Characters of an expression a message quotes, as ``--case`` quotes a name."""


class BadExpression(ValueError):
    """A ``-k`` expression that does not parse: the message names the column (from 1)."""


@frozen
class _Token:
    text: str
    column: int


def _tokens(text: str) -> Iterator[_Token]:
    # Each match starts where the last ended (the pattern takes any character that is not a
    # space), so the matches are the whole text but its trailing spaces, read in one pass,
    # and only as far as the parser goes: a mistake in the first words of a long expression
    # is found without reading the rest.
    for match in _TOKEN.finditer(text):
        word = match.group("paren") or match.group("word")
        yield _Token(word, match.start(match.lastgroup or 0) + 1)


class _Parser:
    """expression := term ("or" term)*; term := factor ("and" factor)*;
    factor := "not" factor | "(" expression ")" | word."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = _tokens(text)
        self.next = next(self.tokens, None)
        """The token the parser looks at, ``None`` at the end."""
        self.taken: _Token | None = None
        """The token taken last."""
        self.depth = 0

    def _advance(self) -> None:
        self.taken, self.next = self.next, next(self.tokens, None)

    def _fail(self, wanted: str) -> BadExpression:
        token = self.next
        if token is None:
            where = f"column {len(self.text) + 1}: {wanted}, found the end"
        else:
            where = f"column {token.column}: {wanted}, found {quoted(token.text)}"
        return BadExpression(f"-k {quoted(self.text)}: {where}")

    def _take(self, text: str) -> bool:
        if self.next is not None and self.next.text.lower() == text:
            self._advance()
            return True
        return False

    def whole(self) -> Matcher:
        if self.next is None:
            msg = f"-k {quoted(self.text)}: empty; give a word of a case ID or a feature tag"
            raise BadExpression(msg)
        matcher = self._expression()
        if self.next is not None:
            raise self._fail("expected 'and', 'or' or the end")
        return matcher

    def _expression(self) -> Matcher:
        parts = [self._term()]
        while self._take("or"):
            parts.append(self._term())
        return parts[0] if len(parts) == 1 else _any(parts)

    def _term(self) -> Matcher:
        parts = [self._factor()]
        while self._take("and"):
            parts.append(self._factor())
        return parts[0] if len(parts) == 1 else _all(parts)

    def _factor(self) -> Matcher:
        if self._take("not"):
            inner = self._nested(self._factor)
            return lambda case, tags: not inner(case, tags)
        if self._take("("):
            inner = self._nested(self._expression)
            if not self._take(")"):
                raise self._fail("expected ')'")
            return inner
        token = self.next
        if token is None or token.text == ")" or token.text.lower() in _KEYWORDS:
            raise self._fail("expected a word, 'not' or '('")
        self._advance()
        return _word(token.text.lower())

    def _nested(self, parse: Callable[[], Matcher]) -> Matcher:
        assert self.taken is not None  # the 'not' or '(' that opens it
        if self.depth == MOST_NESTED:
            msg = (
                f"-k {quoted(self.text)}: column {self.taken.column}: nested deeper than "
                f"{MOST_NESTED} parentheses and 'not's"
            )
            raise BadExpression(msg)
        self.depth += 1
        inner = parse()
        self.depth -= 1
        return inner


def quoted(text: str) -> str:
    """``text`` as a message quotes it: escaped, and cut (its repr, of its head only)."""
    shown = printable(repr(text[:SHOWN]))
    return shown + "..." if len(text) > SHOWN else shown


def _word(word: str) -> Matcher:
    return lambda case, tags: word in case.lower() or any(word in tag for tag in tags)


def _any(parts: Sequence[Matcher]) -> Matcher:
    return lambda case, tags: any(part(case, tags) for part in parts)


def _all(parts: Sequence[Matcher]) -> Matcher:
    return lambda case, tags: all(part(case, tags) for part in parts)


def parse_keywords(text: str) -> Matcher:
    """The matcher of a ``-k`` expression.

    >>> selected = parse_keywords("open and not (forbidden or starter)")
    >>> selected("open-pass-on-empty-table", ["individual", "pass"])
    True
    >>> selected("open-starter-begins-line", ["individual", "starter"])
    False

    Raises:
        BadExpression: the expression does not parse (the message names the column).
    """
    return _Parser(text).whole()


def closest(name: str, known: Iterable[str], count: int = 3) -> list[str]:
    """Up to ``count`` of the ``known`` names most like ``name``: the closest by
    ``difflib``, then those that begin with it; failing both, those that share the longest
    beginning with it (three characters at least), in order.

    >>> closest("open-00", ["open-any-tile-later-hand", "open-double-passes", "play-x"])
    ['open-any-tile-later-hand', 'open-double-passes']
    """
    names = sorted(known)
    similar = difflib.get_close_matches(name, names, n=count, cutoff=0.5)
    found = list(dict.fromkeys([*similar, *(k for k in names if k.startswith(name))]))
    if found:
        return found[:count]
    shared = {k: _shared(name, k) for k in names}
    longest = max(shared.values(), default=0)
    return [k for k in names if shared[k] == longest][:count] if longest >= 3 else []


def _shared(one: str, other: str) -> int:
    """How many characters ``one`` and ``other`` begin with in common."""
    return sum(
        1
        for _ in itertools.takewhile(lambda pair: pair[0] == pair[1], zip(one, other, strict=False))
    )
