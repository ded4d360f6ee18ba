"""The shape of each reply, checked before anything in it is compared with the spec.

A reply whose fields have the wrong types (a hand size that is a string, a line that is an
object) is out of protocol: the case is *errored*, not *failed*, since no rule was broken
that anyone could name. The checks are the types of ``spec/protocol/*-reply`` and the other
reply schemas, written by hand so that they always run and cost next to nothing (``--validate``
adds the full schemas, enums included). A move is read with the schemas' own grammar
(:data:`gaple.hand.MOVE_TEXT`) here too: ``place ٣-٤ left`` or ``place 3:4 left`` is out of
protocol whether or not ``--validate`` is given.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from gaple.conformance.vectors.cases import LEVELS
from gaple.conformance.wire.escape import printable
from gaple.state import is_move_text

__all__ = ["reply_problem", "state_fits"]

JSON = Any
Check = Callable[[JSON], bool]


def _nat(value: JSON) -> bool:
    return type(value) is int and value >= 0


def _int(value: JSON) -> bool:
    return type(value) is int


def _text(value: JSON) -> bool:
    return isinstance(value, str)


def _unicode(value: JSON) -> bool:
    """A string of Unicode text: a lone surrogate (``"\\ud800"`` in JSON) is none."""
    return isinstance(value, str) and not any("\ud800" <= char <= "\udfff" for char in value)


def _bool(value: JSON) -> bool:
    return type(value) is bool


def _list(item: Check) -> Check:
    # map, not a generator: every state reply of a run goes through here.
    return lambda value: isinstance(value, list) and all(map(item, value))


def _or_null(check: Check) -> Check:
    return lambda value: value is None or check(value)


def _pairs(value: JSON) -> bool:
    """Whether ``value`` is a list of [low, high] pairs of integers >= 0: one loop over a
    line, not a call per tile (every tile of every line of a run goes through here)."""
    if type(value) is not list:
        return False
    # Of what JSON gives, only a list of two integers unpacks into two integers: a string,
    # an object (its keys are strings) or a list of another length cannot.
    try:
        for low, high in value:
            if type(low) is not int or type(high) is not int or low < 0 or high < 0:
                return False
    except (TypeError, ValueError):  # not iterable, or not two items
        return False
    return True


def _pair(value: JSON) -> bool:
    return _pairs([value])


def state_fits(reply: Mapping[str, JSON]) -> bool:
    """Whether a ``state`` reply passes every check of its row in ``_SHAPES``, answered in one
    function: a run reads a state reply after every action, and the row goes through a lambda
    or two per field and a generic loop (with the line's pairs, two fifths of the runner's
    time on a random hand). Only a ``True`` skips the row; a ``False`` goes through it, which
    words the problem."""
    try:
        to_act, line, ends = reply["to_act"], reply["line"], reply["ends"]
        legal, sizes, counts = reply["legal"], reply["hand_sizes"], reply["discard_counts"]
        ending = reply["ending"]
    except KeyError:
        return False
    if not (to_act is None or (type(to_act) is int and to_act >= 0)):
        return False
    if not _pairs(line) or not (ends is None or _pair(ends)):
        return False
    if type(legal) is not list or type(sizes) is not list or type(counts) is not list:
        return False
    for move in legal:
        if not isinstance(move, str) or not is_move_text(move):
            return False
    for number in sizes + counts:
        if type(number) is not int or number < 0:
            return False
    return ending in (None, "out", "blocked")


def _levels(value: JSON) -> bool:
    return _list(lambda x: x in LEVELS)(value) and len(set(value)) == len(value)


Field = tuple[Check, str, bool]
"""How to check one field, what it must be (for the message), and whether it is required."""

_SHAPES: dict[str, dict[str, Field]] = {
    "hello": {
        "protocol": (lambda v: _int(v) and v == 1, "1", True),
        "name": (_unicode, "a string of Unicode text", True),
        "version": (_unicode, "a string of Unicode text", False),
        "levels": (_levels, f"a list of distinct levels from {', '.join(LEVELS)}", True),
        "error_codes": (_bool, "true or false", True),
        "batch": (_bool, "true or false", False),
    },
    "started": {},
    "unsupported": {"reason": (_text, "a string", False)},
    "state": {
        "to_act": (_or_null(_nat), "a seat (an integer >= 0) or null", True),
        "line": (_pairs, "a list of [low, high] pairs of integers >= 0", True),
        "ends": (_or_null(_pair), "a pair of integers >= 0 or null", True),
        "legal": (
            _list(lambda v: isinstance(v, str) and is_move_text(v)),
            "a list of moves written as 'lead 0-3', 'place 0-3 left', 'pass' or 'discard 0-3'",
            True,
        ),
        "hand_sizes": (_list(_nat), "a list of integers >= 0", True),
        "discard_counts": (_list(_nat), "a list of integers >= 0", True),
        "ending": (lambda v: v in (None, "out", "blocked"), 'null, "out" or "blocked"', True),
    },
    "ok": {},
    "rejected": {
        "code": (_or_null(_text), "a string or null", True),
        "rule": (_text, "a string", False),
        "message": (_text, "a string", False),
    },
    "result": {
        "counts": (_list(_nat), "a list of integers >= 0", True),
        "winner": (_or_null(_nat), "a seat (an integer >= 0) or null", True),
        "winning_team": (_or_null(_nat), "a team (an integer >= 0) or null", True),
        "points": (_list(_int), "a list of integers", True),
        "replay": (_bool, "true or false", True),
        "rules": (_list(_text), "a list of strings", False),
    },
}


def reply_problem(request: str, reply: Mapping[str, JSON]) -> str | None:
    """What is wrong with the shape of ``reply`` (a JSON object answering ``request``), in one
    line, or ``None`` when every field it needs is there with the right type.

    Only replies of a known type are checked; which type may answer which request is the
    runner's business.

    >>> reply_problem("state", {"type": "ok"}) is None
    True
    >>> reply_problem("act", {"type": "rejected", "code": 3})
    "reply of type 'rejected' to 'act': code must be a string or null, got 3"
    """
    kind = reply.get("type")
    if not isinstance(kind, str) or kind not in _SHAPES:
        return None
    if kind == "state" and state_fits(reply):
        return None
    return _table_problem(request, kind, reply)


def _table_problem(request: str, kind: str, reply: Mapping[str, JSON]) -> str | None:
    """The first field of ``reply`` that fails its check in the row of ``kind``, worded."""
    for name, (check, wanted, required) in _SHAPES[kind].items():
        if name not in reply:
            if required:
                return f"reply of type {kind!r} to {request!r}: {name} is missing"
            continue
        if not check(reply[name]):
            got = printable(json.dumps(reply[name]), limit=200)
            return f"reply of type {kind!r} to {request!r}: {name} must be {wanted}, got {got}"
    return None
