"""The rules explorer's Python side: what the page (``docs/_build/html/explorer/``) asks the
reference, as JSON text in and JSON text out.

The page runs this package in the browser through Pyodide. Its JavaScript only draws and
forwards: every legal move, refusal, ending and reckoning comes from the reference through the
few functions here, each taking and returning JSON text, so that a call from JavaScript is one
string each way:

- :func:`catalogue`: the presets with the source of each option, the options, the rules and
  their addresses in the docs;
- :func:`deal`: a new hand, dealt by seed or typed in;
- :func:`show`: a hand (a transcript: rules, deal and actions) or a finished position, as the
  page draws it;
- :func:`attempt`: a move tried in a hand, played or refused with the rule that forbids it.

Each answer is ``{"ok": true, "view": ..., "refusal": ...}`` or, for a document or request that
cannot be read, ``{"ok": false, "error": "<where>: <what>"}``: a located, one-line message.

>>> import json
>>> answer = json.loads(deal('{"preset": "pagat-4x7", "seed": 7}'))
>>> answer["view"]["moves"]
[{'text': 'lead 0-0', 'kind': 'lead', 'tile': '0-0', 'end': None}]
>>> tried = json.loads(attempt(json.dumps(answer["view"]["state"]), "lead 1-2"))
>>> tried["refusal"]["code"], tried["refusal"]["rule"]
('not-in-hand', 'play.in-hand')
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from typing import Any

import attrs

from gaple.deal import Deal, InvalidDeal, shuffle_deal
from gaple.io import (
    JSON,
    FormatError,
    deal_from_json,
    position_from_json,
    position_to_json,
    result_to_json,
    rules_from_json,
    rules_to_json,
    state_from_json,
    state_to_json,
)
from gaple.presets import PRESETS, UnknownPreset, find_preset
from gaple.reference.counting import RANK_KEY_PARTS
from gaple.reference.equipment import table
from gaple.reference.scoring import Reckoning
from gaple.registry import RULES, rule_url
from gaple.result import HandResult, Position, hand_result, score_position
from gaple.rules import InvalidRuleset, OptionInfo, Ruleset, option_info
from gaple.sources import SOURCES
from gaple.state import (
    ERROR_CODES,
    Discard,
    IllegalMove,
    Lead,
    Move,
    MoveSyntaxError,
    Place,
    State,
    apply,
    check_rules,
    legal_moves,
    new_hand,
    parse_move,
)
from gaple.tiles import Tile, TileSyntaxError, parse_tiles, tile_set

__all__ = ["PIP_WORDS", "attempt", "catalogue", "deal", "show", "tile_name"]

PIP_WORDS = ("blank", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
"""How a player says each pip value, 0 to 9 (the largest set is double-nine)."""


class _Unreadable(ValueError):
    """A request the explorer cannot act on; the message is located and one line."""


def tile_name(tile: Tile) -> str:
    """A tile as a player says it, high half first: the accessible name the page gives it.

    >>> tile_name(Tile(4, 6)), tile_name(Tile(0, 0))
    ('six-four', 'blank-blank')
    """
    return f"{PIP_WORDS[tile.high]}-{PIP_WORDS[tile.low]}"


def catalogue() -> str:
    """What the page offers before any hand: each preset with its options and the source of
    each value it sets, every option with its choices, every rule with its statement and its
    address in the docs (relative to the docs root), every source and error code."""
    infos = {item.name: item for item in option_info()}
    defaults = rules_to_json(Ruleset())
    return _dumps(
        {
            "presets": [_preset_json(name) for name in PRESETS],
            "options": [
                _option_json(attribute, infos[attribute.name], defaults[attribute.name])
                for attribute in attrs.fields(Ruleset)
            ],
            "rules": {
                rule_id: {
                    "statement": rule.statement,
                    "section": rule.section,
                    "url": rule_url(rule_id),
                }
                for rule_id, rule in RULES.items()
            },
            "sources": {key: {"title": s.title, "url": s.url} for key, s in SOURCES.items()},
            "error_codes": {
                code: {"rules": list(ids), "meaning": text}
                for code, (ids, text) in ERROR_CODES.items()
            },
        }
    )


def deal(request: str) -> str:
    """A new hand: ``{"preset": name, "options": {...}, "seed": n}`` deals by seed
    (:func:`~gaple.deal.shuffle_deal`); ``"deal": {...}`` (the JSON form of
    :func:`~gaple.io.deal_to_json`) or ``"typed": "<text>"`` in place of the seed deals the
    tiles given. A typed deal has one line per seat, its tiles such as ``0-0 1-3``, then
    optional lines ``starter: 2-5``, ``set aside: 0-4 6-6`` and ``first seat: 1``.
    ``"first_hand": false`` makes it a later hand of a match (the later lead rule)."""
    return _answer(lambda: _view(_dealt(_object(_loads(request, "the request"), "$"))))


def show(document: str) -> str:
    """The view of a document: a hand (:func:`~gaple.io.state_to_json`'s form: its actions
    are replayed and checked) or a finished position (``{"rules": ..., "position": ...}``,
    :func:`~gaple.io.position_from_json`'s form)."""
    return _answer(lambda: _document_view(_loads(document, "the document")))


def attempt(document: str, move: str) -> str:
    """Try ``move`` (``place 6-3 left``; ``seat 2: place 6-3 left`` for another seat than the
    one to act) in the hand ``document``: the view after it, or the view unchanged and the
    refusal (its words, error code, rule ID, the rule's statement and address)."""

    def run() -> dict[str, JSON]:
        state = _state(_loads(document, "the document"))
        seat, chosen = _seat_move(move, state)
        try:
            after = apply(state, chosen, seat)
        except IllegalMove as error:
            acting = state.to_act if seat is None else seat
            return {**_view(state), "refusal": _refusal(error, acting, chosen)}
        return _view(after)

    return _answer(run)


# --- reading requests ------------------------------------------------------------------------


def _answer(run: Callable[[], dict[str, JSON]]) -> str:
    try:
        view = run()
    except (_Unreadable, FormatError) as error:
        return _dumps({"ok": False, "error": str(error)})
    refusal = view.pop("refusal", None)
    return _dumps({"ok": True, "view": view, "refusal": refusal})


def _dumps(value: JSON) -> str:
    return json.dumps(value, separators=(",", ":"))


def _loads(text: str, what: str) -> JSON:
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        msg = f"{what} is not JSON: {error.msg} at line {error.lineno}, column {error.colno}"
        raise _Unreadable(msg) from None


def _object(value: JSON, path: str) -> Mapping[str, JSON]:
    if not isinstance(value, Mapping):
        raise FormatError(path, "expected an object")
    return value


def _dealt(request: Mapping[str, JSON]) -> State:
    rules = _requested_rules(request)
    first_hand = request.get("first_hand", True)
    if not isinstance(first_hand, bool):
        raise FormatError("$.first_hand", "expected true or false")
    chosen = _requested_deal(request, rules)
    try:
        return new_hand(rules, chosen, first_hand=first_hand)
    except InvalidDeal as error:
        raise FormatError("$.typed" if "typed" in request else "$.deal", str(error)) from None


def _requested_rules(request: Mapping[str, JSON]) -> Ruleset:
    name = request.get("preset", "pagat-4x7")
    if not isinstance(name, str):
        raise FormatError("$.preset", "expected a preset name")
    try:
        base = find_preset(name).rules
    except UnknownPreset as error:
        raise FormatError("$.preset", str(error)) from None
    options = _object(request.get("options", {}), "$.options")
    merged = {**rules_to_json(base), **options}
    rules = rules_from_json(merged, "$.options")
    check_rules(rules)
    return rules


def _requested_deal(request: Mapping[str, JSON], rules: Ruleset) -> Deal:
    if "deal" in request:
        return deal_from_json(request["deal"], "$.deal")
    if "typed" in request:
        typed = request["typed"]
        if not isinstance(typed, str):
            raise FormatError("$.typed", "expected the deal as text, one line per seat")
        return _typed_deal(typed)
    seed = request.get("seed", 1)
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise FormatError("$.seed", "expected a whole number from 0")
    return shuffle_deal(rules, seed)


_LABELLED = re.compile(r"(starter|set aside|first seat)\s*:\s*(.*)", re.IGNORECASE)


def _typed_deal(text: str) -> Deal:
    hands: list[tuple[Tile, ...]] = []
    starter: tuple[Tile, ...] = ()
    set_aside: tuple[Tile, ...] = ()
    first_seat = 0
    for number, line in enumerate(text.splitlines(), start=1):
        where = f"$.typed line {number}"
        found = _LABELLED.fullmatch(line.strip())
        label, value = ("seat", line) if found is None else (found[1].lower(), found[2])
        try:
            if label == "first seat":
                first_seat = int(value) if value.isdigit() else -1
                if first_seat < 0:
                    raise FormatError(where, f"expected a seat number, got {value!r}")
            elif label == "starter":
                starter = parse_tiles(value)
                if len(starter) != 1:
                    raise FormatError(where, "expected one starter tile")
            elif label == "set aside":
                set_aside = parse_tiles(value)
            elif line.strip():
                hands.append(parse_tiles(line))
        except TileSyntaxError as error:
            raise FormatError(where, str(error)) from None
    return Deal(
        hands=hands,
        starter=starter[0] if starter else None,
        set_aside=set_aside,
        first_seat=first_seat,
    )


def _state(document: JSON) -> State:
    try:
        return state_from_json(document)
    except InvalidRuleset as error:
        raise FormatError("$.rules", str(error)) from None


def _seat_move(text: str, state: State) -> tuple[int | None, Move]:
    seat: int | None = None
    said = text
    if text.startswith("seat "):
        number, _, said = text[len("seat ") :].partition(": ")
        if not number.isdigit() or int(number) >= state.rules.players:
            msg = f"the move {text!r}: no seat {number} at a table of {state.rules.players}"
            raise _Unreadable(msg)
        seat = int(number)
    try:
        return seat, parse_move(said)
    except MoveSyntaxError as error:
        raise _Unreadable(str(error)) from None


def _refusal(error: IllegalMove, state_seat: int | None, move: Move) -> dict[str, JSON]:
    return {
        "seat": state_seat,
        "move": str(move),
        "code": error.code,
        "rule": error.rule_id,
        "message": error.message,
        "statement": RULES[error.rule_id].statement,
        "url": rule_url(error.rule_id),
    }


# --- views -----------------------------------------------------------------------------------


def _document_view(document: JSON) -> dict[str, JSON]:
    if isinstance(document, Mapping) and "position" in document and "deal" not in document:
        rules = rules_from_json(_object(document, "$").get("rules", {}), "$.rules")
        position = position_from_json(rules, document["position"], "$.position")
        return _position_view(position)
    return _view(_state(document))


def _view(state: State) -> dict[str, JSON]:
    """A hand as the page draws it: its JSON form, the moves legal now, tile names and, once
    it has ended, the reckoning."""
    return {
        "kind": "hand",
        "state": state_to_json(state),
        "moves": [_move_json(move) for move in legal_moves(state)],
        "names": _names(state.rules),
        "teams": _teams(state.rules),
        "result": None if state.ending is None else _result_json(hand_result(state)),
    }


def _position_view(position: Position) -> dict[str, JSON]:
    return {
        "kind": "position",
        "rules": rules_to_json(position.rules),
        "position": position_to_json(position),
        "names": _names(position.rules),
        "teams": _teams(position.rules),
        "result": _result_json(score_position(position)),
    }


def _names(rules: Ruleset) -> dict[str, str]:
    return {str(tile): tile_name(tile) for tile in tile_set(rules.max_pip).tiles}


def _teams(rules: Ruleset) -> list[list[int]]:
    return [list(team) for team in table(rules).teams]


def _move_json(move: Move) -> dict[str, JSON]:
    tile = move.tile if isinstance(move, Lead | Place | Discard) else None
    return {
        "text": str(move),
        "kind": str(move).split(" ", 1)[0],
        "tile": None if tile is None else str(tile),
        "end": move.end.value if isinstance(move, Place) else None,
    }


def _result_json(result: HandResult) -> dict[str, JSON]:
    """The reckoning: :func:`~gaple.io.result_to_json`, each note with its rule's address,
    each seat's ranking key and the place of the key that put the winner first."""
    return {
        **result_to_json(result),
        "notes": [
            {"rule": note.rule_id, "text": note.text, "url": rule_url(note.rule_id)}
            for note in result.notes
        ],
        "keys": [
            {
                "seat": entry.seat,
                "count": entry.count,
                "key": list(entry.key),
                "lowest": None if entry.lowest is None else str(entry.lowest),
            }
            for entry in result.reckoning.ranking
        ],
        "decided_by": _decided_by(result.reckoning),
    }


def _decided_by(reckoning: Reckoning) -> str | None:
    """What set the first-ranked seat above the second: the first place where their ranking
    keys differ (``None`` with one seat)."""
    if len(reckoning.ranking) < 2:
        return None
    first, second = reckoning.ranking[0].key, reckoning.ranking[1].key
    place = next(i for i, (a, b) in enumerate(zip(first, second, strict=True)) if a != b)
    return RANK_KEY_PARTS[place]


def _preset_json(name: str) -> dict[str, JSON]:
    preset = PRESETS[name]
    options = rules_to_json(preset.rules)
    cited = {}
    for option, value in options.items():
        citation = preset.citation(option)
        cited[option] = {
            "value": value,
            "sources": [] if citation is None else list(citation.sources),
            "note": "" if citation is None else citation.note,
        }
    return {"name": name, "aliases": list(preset.aliases), "title": preset.title, "options": cited}


def _option_json(
    attribute: attrs.Attribute[Any], info: OptionInfo, default: JSON
) -> dict[str, JSON]:
    kind, choices = _option_kind(attribute.default)
    return {
        "name": attribute.name,
        "doc": info.doc,
        "rules": list(info.rule_ids),
        "sources": list(info.sources),
        "kind": kind,
        "choices": choices,
        "default": default,
    }


def _option_kind(default: object) -> tuple[str, list[JSON] | None]:
    if isinstance(default, bool):
        return "boolean", None
    if isinstance(default, frozenset):
        return "tiles", None
    if default is None or isinstance(default, int):
        return ("number or none" if default is None else "number"), None
    return "choice", [member.value for member in type(default)]  # type: ignore[attr-defined]
