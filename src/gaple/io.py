"""JSON forms of rulesets, deals, moves, states, transcripts, results and matches.

The forms are plain JSON (objects, arrays, strings, integers, booleans, null) so that any
language can read and write them. Tiles are canonical strings (``"0-3"``), moves are their text
notation (``"place 6-3 left"``), options use their enum values (``"double-blank"``). Every
reader reports a problem as :class:`FormatError` with the JSON path of the offending value.

>>> from gaple.presets import ruleset
>>> from gaple.simulate import random_hand
>>> state = random_hand(ruleset("domino4d"), seed=3)
>>> state_from_json(state_to_json(state)) == state
True
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import attrs

from gaple.deal import Deal, InvalidDeal
from gaple.match import MatchState
from gaple.reference.equipment import table
from gaple.result import HandResult, InvalidPosition, Position, make_position
from gaple.rules import OPTION_NAMES, InvalidRuleset, Ruleset
from gaple.state import (
    Action,
    Ending,
    IllegalMove,
    Move,
    MoveSyntaxError,
    State,
    apply,
    check_rules,
    new_hand,
    parse_move,
)
from gaple.tiles import Tile, TileSyntaxError

__all__ = [
    "FORMAT_VERSION",
    "FormatError",
    "action_from_json",
    "action_to_json",
    "deal_from_json",
    "deal_to_json",
    "is_exactly",
    "match_to_json",
    "move_from_json",
    "option_from_json",
    "position_from_json",
    "position_to_json",
    "result_to_json",
    "rules_from_json",
    "rules_to_json",
    "state_from_json",
    "state_to_json",
    "tile_from_json",
]

FORMAT_VERSION = 1
"""Version of the JSON forms; bumped on any incompatible change."""

JSON = Any
"""A decoded JSON value."""


class FormatError(ValueError):
    """A JSON document that does not have the expected form, located by its JSON path."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}")
        self.path = path
        """Where the problem is, e.g. ``$.deal.hands[2][0]``."""
        self.message = message
        """What is wrong."""


def _get(data: JSON, key: str, path: str) -> JSON:
    if not isinstance(data, Mapping):
        raise FormatError(path, f"expected an object, got {_kind(data)}")
    if key not in data:
        raise FormatError(path, f"missing key {key!r}")
    return data[key]


def _kind(value: JSON) -> str:
    names = {dict: "an object", list: "an array", str: "a string", bool: "a boolean"}
    if value is None:
        return "null"
    return names.get(type(value), "a number" if isinstance(value, int | float) else "a value")


def _int(value: JSON, path: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise FormatError(path, f"expected an integer, got {_kind(value)}")
    return value


def is_exactly(value: JSON, number: int) -> bool:
    """Whether ``value`` is the integer ``number`` as JSON writes it: a version or a format
    tag of ``1`` is neither ``true`` nor ``1.0``, though Python finds both equal to it.

    >>> is_exactly(1, 1), is_exactly(True, 1), is_exactly(1.0, 1)
    (True, False, False)
    """
    return type(value) is int and value == number


def _list(value: JSON, path: str) -> Sequence[JSON]:
    if not isinstance(value, list):
        raise FormatError(path, f"expected an array, got {_kind(value)}")
    return value


def tile_from_json(value: JSON, path: str = "$") -> Tile:
    """Read a tile string such as ``"0-3"``, as the wire writes it (:meth:`Tile.from_wire`)."""
    if not isinstance(value, str):
        raise FormatError(path, f"expected a tile string such as '0-3', got {_kind(value)}")
    try:
        return Tile.from_wire(value)
    except TileSyntaxError as error:
        raise FormatError(path, str(error)) from None


def _tiles(value: JSON, path: str) -> tuple[Tile, ...]:
    if not isinstance(value, list):
        raise FormatError(
            path, f"expected an array of tiles such as ['0-3', '4-4'], got {_kind(value)}"
        )
    return tuple(tile_from_json(item, f"{path}[{i}]") for i, item in enumerate(value))


def rules_to_json(rules: Ruleset) -> dict[str, JSON]:
    """Every option by name; enums as their values, tile sets as sorted tile strings."""
    return {name: _option_to_json(value) for name, value in rules.options().items()}


def _option_to_json(value: object) -> JSON:
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, frozenset):
        return [str(tile) for tile in sorted(value)]
    return value


def rules_from_json(data: JSON, path: str = "$") -> Ruleset:
    """Read a ruleset; missing options take the :class:`Ruleset` defaults.

    Raises:
        FormatError: not an object, an unknown option, a wrong type, or unplayable options.
    """
    if not isinstance(data, Mapping):
        raise FormatError(path, f"expected an object of options, got {_kind(data)}")
    fields = attrs.fields_dict(Ruleset)
    values: dict[str, object] = {}
    for name, value in data.items():
        if name not in fields:
            known = ", ".join(OPTION_NAMES)
            raise FormatError(f"{path}.{name}", f"unknown option; options are {known}")
        values[name] = option_from_json(name, value, f"{path}.{name}")
    try:
        rules = Ruleset(**values)  # type: ignore[arg-type]
        check_rules(rules)
    except InvalidRuleset as error:
        raise FormatError(path, str(error)) from None
    return rules


def option_from_json(name: str, value: JSON, path: str = "$") -> object:
    """One option's value, read as :class:`Ruleset` holds it (not checked against the others).

    Raises:
        FormatError: not a value of that option.
    """
    default = attrs.fields_dict(Ruleset)[name].default
    if isinstance(default, enum.Enum):
        choices = [member.value for member in type(default)]
        if value not in choices:
            raise FormatError(path, f"expected one of {', '.join(choices)}, got {value!r}")
        return type(default)(value)
    if isinstance(default, frozenset):
        return frozenset(_tiles(value, path))
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise FormatError(path, f"expected true or false, got {_kind(value)}")
        return value
    if default is None and value is None:
        return None
    return _int(value, path)


def deal_to_json(deal: Deal) -> dict[str, JSON]:
    """The deal: each seat's tiles, the starter (or null), the set-aside tiles, first seat."""
    return {
        "hands": [[str(tile) for tile in hand] for hand in deal.hands],
        "starter": None if deal.starter is None else str(deal.starter),
        "set_aside": [str(tile) for tile in deal.set_aside],
        "first_seat": deal.first_seat,
    }


def deal_from_json(data: JSON, path: str = "$") -> Deal:
    """Read a deal (not yet validated against a ruleset).

    Raises:
        FormatError: a missing key, a wrong type or an unreadable tile.
    """
    hands = _list(_get(data, "hands", path), f"{path}.hands")
    starter = data.get("starter")
    return Deal(
        hands=[_tiles(hand, f"{path}.hands[{seat}]") for seat, hand in enumerate(hands)],
        starter=None if starter is None else tile_from_json(starter, f"{path}.starter"),
        set_aside=_tiles(data.get("set_aside", []), f"{path}.set_aside"),
        first_seat=_int(data.get("first_seat", 0), f"{path}.first_seat"),
    )


def action_to_json(action: Action) -> dict[str, JSON]:
    """``{"seat": 0, "move": "lead 0-0"}``."""
    return {"seat": action.seat, "move": str(action.move)}


def move_from_json(value: JSON, path: str = "$") -> Move:
    """Read a move in its text notation, as the wire writes it (:func:`parse_move`)."""
    if not isinstance(value, str):
        raise FormatError(path, f"expected a move such as 'place 6-3 left', got {_kind(value)}")
    try:
        return parse_move(value)
    except MoveSyntaxError as error:
        raise FormatError(path, str(error)) from None


def action_from_json(data: JSON, path: str = "$") -> Action:
    """Read ``{"seat": ..., "move": ...}``."""
    seat = _int(_get(data, "seat", path), f"{path}.seat")
    return Action(seat, move_from_json(_get(data, "move", path), f"{path}.move"))


def state_to_json(state: State) -> dict[str, JSON]:
    """A state: how it was reached (rules, deal, actions) and what it shows.

    The observable part (``to_act``, ``line``, ``ends``, ``hands``, ``discards``, ``ending``)
    is derived from the rest; :func:`state_from_json` replays the actions and checks it.
    """
    players = range(state.rules.players)
    return {
        "format": FORMAT_VERSION,
        "rules": rules_to_json(state.rules),
        "deal": deal_to_json(state.deal),
        "first_hand": state.first_hand,
        "actions": [action_to_json(action) for action in state.history],
        "to_act": state.to_act,
        "line": [list(pair) for pair in state.line],
        "ends": None if state.ends is None else list(state.ends),
        "hands": [[str(t) for t in state.hand(seat)] for seat in players],
        "discards": [[str(t) for t in state.discards(seat)] for seat in players],
        "ending": None if state.ending is None else state.ending.value,
    }


_OBSERVED = ("to_act", "line", "ends", "hands", "discards", "ending")


def state_from_json(data: JSON, path: str = "$") -> State:
    """Rebuild a state by replaying its actions, checking any observable fields present.

    Raises:
        FormatError: the document is malformed, an action is illegal (the message names the
            rule ID), or an observable field disagrees with the replay.
    """
    rules = rules_from_json(_get(data, "rules", path), f"{path}.rules")
    deal = deal_from_json(_get(data, "deal", path), f"{path}.deal")
    first_hand = data.get("first_hand", True)
    if not isinstance(first_hand, bool):
        raise FormatError(f"{path}.first_hand", f"expected true or false, got {_kind(first_hand)}")
    try:
        state = new_hand(rules, deal, first_hand=first_hand)
    except InvalidDeal as error:
        raise FormatError(f"{path}.deal", str(error)) from None
    actions = _list(data.get("actions", []), f"{path}.actions")
    for i, item in enumerate(actions):
        where = f"{path}.actions[{i}]"
        action = action_from_json(item, where)
        try:
            state = apply(state, action.move, action.seat)
        except IllegalMove as error:
            raise FormatError(where, f"{error.code}: {error}") from None
    expected = state_to_json(state)
    for key in _OBSERVED:
        if key in data and data[key] != expected[key]:
            raise FormatError(
                f"{path}.{key}", f"the actions lead to {expected[key]!r}, not {data[key]!r}"
            )
    return state


def _tile_strings(tiles: Iterable[Tile]) -> list[str]:
    return [str(t) for t in tiles]


def _tile_lists(value: JSON, path: str) -> list[tuple[Tile, ...]]:
    if not isinstance(value, list):
        raise FormatError(path, f"expected one array of tiles per seat, got {_kind(value)}")
    return [_tiles(item, f"{path}[{i}]") for i, item in enumerate(value)]


def position_to_json(pos: Position) -> dict[str, Any]:
    """The position as plain JSON data (the input form of :func:`position_from_json`)."""
    return {
        "hands": [_tile_strings(h) for h in pos.hands],
        "discards": [_tile_strings(d) for d in pos.discards],
        "line": _tile_strings(pos.line),
        "set_aside": _tile_strings(pos.set_aside),
        "ends": list(pos.ends),
        "ending": pos.ending.value,
        "out_seat": pos.out_seat,
        "blocker": pos.blocker,
        "closing": None if pos.closing is None else str(pos.closing),
    }


def position_from_json(rules: Ruleset, data: Any, path: str = "$") -> Position:
    """Read a finished position (the input of ``gaple score``).

    Keys: ``hands`` (required, one tile list per seat), ``ends`` (required, ``[left,
    right]``), ``ending`` (required, ``"out"`` or ``"blocked"``), ``out_seat`` (required when
    out), ``blocker`` (required for a blocked partnership hand), ``closing`` (the last tile
    placed by the seat going out, if any), ``discards``, ``line`` (default: every tile not
    held, discarded or set aside) and ``set_aside`` (default none).

    Raises:
        FormatError: a malformed value (located by its JSON path) or a position the rules
            cannot reach (located at ``path``).
    """
    if not isinstance(data, Mapping):
        raise FormatError(path, "expected an object describing a finished position")
    known = {
        "hands",
        "discards",
        "line",
        "set_aside",
        "ends",
        "ending",
        "out_seat",
        "blocker",
        "closing",
    }
    for key in data:
        if key not in known:
            raise FormatError(f"{path}.{key}", f"unknown key; keys are {', '.join(sorted(known))}")
    for key in ("hands", "ends", "ending"):
        if key not in data:
            raise FormatError(path, f"missing key {key!r}")
    hands = _tile_lists(data["hands"], f"{path}.hands")
    discards = None
    if data.get("discards") is not None:
        discards = _tile_lists(data["discards"], f"{path}.discards")
    line = None
    if data.get("line") is not None:
        line = _tiles(data["line"], f"{path}.line")
    set_aside = _tiles(data.get("set_aside") or [], f"{path}.set_aside")
    ends = data["ends"]
    if (
        not isinstance(ends, list)
        or len(ends) != 2
        or not all(isinstance(e, int) and not isinstance(e, bool) for e in ends)
    ):
        raise FormatError(f"{path}.ends", "expected two pip values [left, right]")
    ending_value = data["ending"]
    if ending_value not in ("out", "blocked"):
        raise FormatError(f"{path}.ending", f"expected 'out' or 'blocked', got {ending_value!r}")
    seats = {}
    for key in ("out_seat", "blocker"):
        value = data.get(key)
        if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
            raise FormatError(f"{path}.{key}", "expected a seat number or null")
        seats[key] = value
    closing = data.get("closing")
    try:
        return make_position(
            rules,
            hands=hands,
            discards=discards,
            line=line,
            set_aside=set_aside,
            ends=(ends[0], ends[1]),
            ending=Ending(ending_value),
            out_seat=seats["out_seat"],
            blocker=seats["blocker"],
            closing=None if closing is None else tile_from_json(closing, f"{path}.closing"),
        )
    except InvalidPosition as error:
        raise FormatError(path, str(error)) from None


def result_to_json(result: HandResult) -> dict[str, Any]:
    """The result as plain JSON data (str, int, bool, None, lists and dicts only)."""
    rules = result.rules
    return {
        "rules": rules_to_json(rules),
        "position": position_to_json(result.position),
        "ending": result.ending.value,
        "counts": list(result.counts),
        "ranking": list(result.ranking),
        "winner": result.winner,
        "teams": [list(team) for team in table(rules).teams],
        "winning_team": result.winning_team,
        "settlement": rules.settlement.value,
        "points": list(result.points),
        "replay": result.replay,
        "notes": [{"rule": n.rule_id, "text": n.text} for n in result.notes],
    }


def match_to_json(match: MatchState) -> dict[str, Any]:
    """The match as plain JSON data, each hand as :func:`result_to_json`."""
    rules = match.rules
    return {
        "rules": rules_to_json(rules),
        "teams": [list(team) for team in table(rules).teams],
        "settlement": rules.settlement.value,
        "target": rules.target,
        "match_hands": rules.match_hands,
        "hands_played": match.hands_played,
        "replays": len(match.results) - match.hands_played,
        "totals": list(match.totals),
        "next_first_seat": match.next_first_seat,
        "first_hand": match.first_hand,
        "finished": match.finished,
        "winner": match.winner,
        "hands": [result_to_json(result) for result in match.results],
    }
