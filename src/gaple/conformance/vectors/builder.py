"""The hand-written scenarios: read from the TOML files of ``scenario_data/`` and built into cases.

Each file is one group of scenarios, ``[[scenario]]`` entries built in file order by
:func:`gaple.conformance.vectors.cases.build_case`, which refuses a scenario whose claimed verdicts
or ends the spec does not reproduce. An entry states:

* ``id``, ``description`` and ``why`` (the hand reasoning behind it), all required; the topic
  is the id up to its first ``-``;
* ``preset`` (required) and ``options``, the options it overrides (``unset``: those it sets
  to none, such as ``target``, which TOML cannot write as a value);
* the deal, as ``seats`` (the tiles that matter, per seat number; the rest are given out in
  tile order) or ``hands`` (every seat's tiles, a whole deal, with the set-aside tiles in
  ``aside``), and ``starter``, ``first_seat`` and ``first_hand`` (default ``0`` and ``true``);
* ``moves``, each ``"<seat> <move>"`` optionally followed by what its author reasoned:
  ``-> <error code>`` (the spec refuses it so) or ``-> ends <left> <right>`` (the ends after it);
* ``written_for``, the rule IDs the scenario was written for (see ``build_case``);
* ``pins``, the coverage cells (:mod:`gaple.conformance.vectors.situations`) the hand was chosen to
  reach: building fails when it no longer reaches one of them;
* or ``same_hand_as``, the id of an earlier scenario of the file whose deal and moves it
  plays again (under other options).

A malformed entry raises :class:`~gaple.conformance.vectors.cases.ScenarioError` naming the file and
the scenario.
"""

from __future__ import annotations

import importlib.resources
import tomllib
from collections.abc import Iterator, Mapping
from typing import Any

from gaple.conformance.vectors.cases import JSON, ScenarioError, Step, build_case
from gaple.conformance.vectors.situations import cells_of, option_values
from gaple.deal import Deal, check_deal
from gaple.presets import UnknownPreset, find_preset
from gaple.reference.deal import turns_up_starter
from gaple.rules import Ruleset
from gaple.state import ERROR_CODES, parse_move
from gaple.tiles import Tile, parse_tiles, tile_set

__all__ = ["DATA_DIR", "group_cases", "scenario_cases"]

DATA_DIR = "scenario_data"
"""The folder of :mod:`gaple.conformance.vectors` holding one ``<group>.toml`` per group."""

_REQUIRED = ("id", "description", "why", "preset")
_HAND = ("seats", "hands", "aside", "starter", "first_seat", "first_hand", "moves")
"""The keys that make up the hand itself, which ``same_hand_as`` takes from another entry."""
_KEYS = frozenset({*_REQUIRED, *_HAND, "options", "unset", "written_for", "same_hand_as", "pins"})


def group_cases(group: str) -> Iterator[dict[str, JSON]]:
    """The cases of the packaged group ``group`` (``scenario_data/<group>.toml``), in order."""
    data = importlib.resources.files("gaple.conformance.vectors") / DATA_DIR / f"{group}.toml"
    yield from scenario_cases(data.read_text(encoding="utf-8"), f"{DATA_DIR}/{group}.toml")


def scenario_cases(text: str, source: str) -> Iterator[dict[str, JSON]]:
    """The cases of the TOML ``text``, read from ``source`` (named in errors), in order.

    Raises:
        ScenarioError: the text is not TOML, an entry is malformed, or the spec does not play
            a scenario as written; the message starts with ``source`` and the scenario's id.
    """
    try:
        entries = tomllib.loads(text).get("scenario", [])
    except tomllib.TOMLDecodeError as error:
        msg = f"{source}: {error}"
        raise ScenarioError(msg) from None
    if not isinstance(entries, list) or not all(isinstance(entry, dict) for entry in entries):
        msg = f"{source}: write each scenario as a [[scenario]] table"
        raise ScenarioError(msg)
    seen: dict[str, dict[str, Any]] = {}
    for number, entry in enumerate(entries, start=1):
        name = entry["id"] if isinstance(entry.get("id"), str) else f"number {number} (no id)"
        try:
            complete = _complete(entry, seen)
            case = _build(complete)
        except (ValueError, UnknownPreset) as error:
            reason = error.args[0] if error.args else repr(error)
            msg = f"{source}: scenario {name}: {reason}"
            raise ScenarioError(msg) from error
        seen[complete["id"]] = complete
        yield case


def _complete(entry: dict[str, Any], seen: Mapping[str, dict[str, Any]]) -> dict[str, Any]:
    """The entry checked for its keys, with the hand of ``same_hand_as`` filled in."""
    unknown = sorted(set(entry).difference(_KEYS))
    if unknown:
        msg = f"unknown key(s) {', '.join(unknown)}; keys are {', '.join(sorted(_KEYS))}"
        raise ScenarioError(msg)
    missing = [key for key in _REQUIRED if key not in entry]
    if missing:
        msg = f"missing key(s) {', '.join(missing)}"
        raise ScenarioError(msg)
    if _text(entry, "id") in seen:
        msg = "a second scenario with this id"
        raise ScenarioError(msg)
    if "same_hand_as" not in entry:
        return entry
    other = _text(entry, "same_hand_as")
    given = sorted(set(entry).intersection(_HAND))
    if given:
        msg = f"same_hand_as takes the hand from {other}; drop {', '.join(given)}"
        raise ScenarioError(msg)
    if other not in seen:
        msg = f"same_hand_as names {other!r}, which is not an earlier scenario of the file"
        raise ScenarioError(msg)
    return {**entry, **{key: value for key, value in seen[other].items() if key in _HAND}}


def _build(entry: dict[str, Any]) -> dict[str, JSON]:
    case_id = _text(entry, "id")
    if not _text(entry, "why").strip():
        msg = "why is empty: state the reasoning behind the scenario"
        raise ScenarioError(msg)
    preset = _text(entry, "preset")
    overrides = {**_table(entry, "options"), **dict.fromkeys(_texts(entry, "unset"))}
    rules = find_preset(preset).rules.replace(**overrides)
    first_hand = entry.get("first_hand", True)
    if not isinstance(first_hand, bool):
        msg = "first_hand must be true or false"
        raise ScenarioError(msg)
    case = build_case(
        case_id=case_id,
        topic=case_id.split("-", 1)[0],
        description=_text(entry, "description"),
        preset=preset,
        overrides=overrides,
        deal=_deal(entry, rules),
        steps=[_step(number, text) for number, text in enumerate(_texts(entry, "moves"), 1)],
        first_hand=first_hand,
        rules_note=_texts(entry, "written_for"),
    )
    if "pins" in entry:
        pins = _texts(entry, "pins")
        lost = sorted(set(pins).difference(cells_of(case["situation"], option_values(rules))))
        if lost:
            msg = f"the hand no longer reaches the cell(s) it pins: {'; '.join(lost)}"
            raise ScenarioError(msg)
        case["pins"] = pins
    return case


def _deal(entry: dict[str, Any], rules: Ruleset) -> Deal:
    """The entry's deal, from ``seats`` or from ``hands`` and ``aside`` (exactly one)."""
    first_seat = entry.get("first_seat", 0)
    if not isinstance(first_seat, int) or isinstance(first_seat, bool):
        msg = "first_seat must be a seat number"
        raise ScenarioError(msg)
    starter = _starter(entry)
    if ("seats" in entry) == ("hands" in entry):
        msg = "give the deal as either seats (the tiles that matter) or hands (all of them)"
        raise ScenarioError(msg)
    if "seats" in entry:
        if "aside" in entry:
            msg = "aside goes with hands; with seats the rest is set aside in tile order"
            raise ScenarioError(msg)
        seats = _table(entry, "seats")
        named = {_seat(key): _tiles(text, f"seat {key}") for key, text in seats.items()}
        return _deal_around(rules, named, starter=starter, first_seat=first_seat)
    return Deal(
        hands=[_tiles(text, f"hand {seat}") for seat, text in enumerate(_texts(entry, "hands"))],
        starter=starter,
        set_aside=_tiles(entry.get("aside", ""), "aside"),
        first_seat=first_seat,
    )


def _starter(entry: Mapping[str, Any]) -> Tile | None:
    if "starter" not in entry:
        return None
    tiles = _tiles(entry["starter"], "starter")
    if len(tiles) != 1:
        msg = "starter: write one tile"
        raise ScenarioError(msg)
    return tiles[0]


def _tiles(text: Any, where: str) -> tuple[Tile, ...]:
    """The tiles of ``text`` (one string, tiles separated by spaces), located in errors."""
    if not isinstance(text, str):
        msg = f"{where}: write the tiles as one string, as in '0-0 1-2'"
        raise ScenarioError(msg)
    try:
        return parse_tiles(text)
    except ValueError as error:
        msg = f"{where}: {error}"
        raise ScenarioError(msg) from None


def _deal_around(
    rules: Ruleset,
    named: Mapping[int, tuple[Tile, ...]],
    *,
    starter: Tile | None = None,
    first_seat: int = 0,
) -> Deal:
    """A complete deal: the tiles named per seat, the rest given out in canonical order.

    The remaining tiles (``0-0, 0-1, ...``) fill the seats with room, seat by seat; then come
    the starter (when the rules turn one up and none is named) and the set-aside tiles, so
    every deal is fixed and complete.
    """
    used = {tile for hand in named.values() for tile in hand}
    if starter is not None:
        used.add(starter)
    rest = [t for t in tile_set(rules.max_pip).tiles if t not in used]
    hands = []
    for seat in range(rules.players):
        hand = list(named.get(seat, ()))
        while len(hand) < rules.hand_size:
            hand.append(rest.pop(0))
        hands.append(hand)
    if starter is None and turns_up_starter(rules):
        starter = rest.pop(0)
    deal = Deal(hands=hands, starter=starter, set_aside=rest, first_seat=first_seat)
    check_deal(rules, deal)
    return deal


def _step(number: int, text: str) -> Step:
    """A move line: ``"<seat> <move>"``, then ``-> <error code>`` or ``-> ends <l> <r>``."""
    action, _, claim = text.partition(" -> ")
    seat, _, move = action.strip().partition(" ")
    where = f"move {number} ({text!r})"
    if not seat.isdigit():
        msg = f"{where}: write the seat number first, as in '0 lead 0-0'"
        raise ScenarioError(msg)
    try:
        parse_move(move)
    except ValueError as error:
        msg = f"{where}: {error}"
        raise ScenarioError(msg) from None
    if not claim:
        return (int(seat), move, None)
    words = claim.split()
    if len(words) == 3 and words[0] == "ends" and words[1].isdigit() and words[2].isdigit():
        return (int(seat), move, (int(words[1]), int(words[2])))
    if len(words) == 1 and words[0] in ERROR_CODES:
        return (int(seat), move, words[0])
    msg = f"{where}: after '->' write an error code or 'ends <left> <right>', not {claim!r}"
    raise ScenarioError(msg)


def _seat(key: str) -> int:
    if not key.isdigit():
        msg = f"seats: {key!r} is not a seat number"
        raise ScenarioError(msg)
    return int(key)


def _text(entry: Mapping[str, Any], key: str) -> str:
    value = entry[key]
    if not isinstance(value, str):
        msg = f"{key} must be a string"
        raise ScenarioError(msg)
    return value


def _texts(entry: Mapping[str, Any], key: str) -> list[str]:
    value = entry.get(key, [])
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        msg = f"{key} must be a list of strings"
        raise ScenarioError(msg)
    return value


def _table(entry: Mapping[str, Any], key: str) -> dict[str, Any]:
    value = entry.get(key, {})
    if not isinstance(value, dict):
        msg = f"{key} must be a table"
        raise ScenarioError(msg)
    return value
