"""Checking a transcript recorded by another implementation against the spec.

A transcript has the form of :func:`gaple.io.state_to_json`: the rules, the deal, whether it is
a first hand, the actions in order, and optionally what the implementation showed: the moves it
offered before each action (``offered`` in the action) and after the last one (``offered`` at
the top level), what it showed at the end (``to_act``, ``line``, ``ends``, ``hands``,
``discards``, ``ending``) and the result it claimed. The checker reads the whole transcript with
the typed readers of :mod:`gaple.io` (so a malformed one is refused before anything is
compared), replays the actions and reports the first divergence.
"""

from __future__ import annotations

import functools
import json
import operator
from collections.abc import Mapping, Sequence
from typing import Any

from attrs import frozen

from gaple.conformance.checker.compare import (
    POSITION_ORDER,
    compare_result,
    difference_words,
    field_rule,
    legal_difference,
)
from gaple.conformance.vectors.cases import result_json
from gaple.conformance.wire.bounded import exact_key
from gaple.deal import InvalidDeal, sorted_deal
from gaple.engine.memo import turns_up_starter
from gaple.engine.play import PASS, run, start, tables
from gaple.engine.scoring import quiet_fields
from gaple.io import (
    FormatError,
    action_from_json,
    deal_from_json,
    is_exactly,
    move_from_json,
    rules_from_json,
    state_to_json,
    tile_from_json,
)
from gaple.reference import opening, turn
from gaple.rules import Ruleset, Settlement
from gaple.state import (
    Action,
    Discard,
    Ending,
    IllegalMove,
    Move,
    MoveSyntaxError,
    State,
    legal_moves,
    parse_move,
)
from gaple.tiles import Tile, TileSet, iter_bits

__all__ = ["Divergence", "Verdict", "check_transcript"]

JSON = Any

_SHOWN_AS = {"legal": "offered", "hand_sizes": "hands", "discard_counts": "discards"}
"""The transcript's final field that shows each position field the suite compares (the hand
sizes by the tiles held, the discard counts by the tiles discarded)."""
_FINAL = tuple(_SHOWN_AS.get(name, name) for name in POSITION_ORDER)
"""The final fields in the suite's order, so both name the same first difference."""
_OBSERVED = tuple(name for name in _FINAL if name != "offered")
_SHOWN_ALIKE = tuple(name for name in POSITION_ORDER if name not in _SHOWN_AS)
"""The final fields the transcript and the suite's state reply show alike."""
_RESULT = ("counts", "winner", "winning_team", "points", "replay")
"""The fields of a claimed result, in the order of :func:`gaple.engine.scoring.quiet_fields`."""


@frozen
class Divergence:
    """The first place a transcript departs from the spec."""

    step: int
    """The action number (1-based); the number of actions for the final fields and result."""
    seat: int | None
    """The seat that acted, for an action."""
    action: str | None
    """The move, for an action."""
    field: str
    """``action`` for a move the spec rejects, ``offered`` for the moves offered before it,
    else the field of the transcript."""
    rule: str
    """The rule ID."""
    expected: JSON
    """What the spec expected."""
    claimed: JSON
    """What the transcript claims."""
    path: str
    """The JSON path of the diverging value in the transcript."""
    missing: tuple[str, ...] = ()
    """For ``offered``: the legal moves the implementation did not offer."""
    extra: tuple[str, ...] = ()
    """For ``offered``: the moves it offered that the spec does not allow."""
    teams: bool = False
    """Whether the points are per team (pair scoring), for the words of ``result.points``."""

    def to_json(self) -> dict[str, JSON]:
        """As a JSON object (``missing`` and ``extra`` only for ``offered``)."""
        record = {
            "step": self.step,
            "seat": self.seat,
            "action": self.action,
            "field": self.field,
            "rule": self.rule,
            "expected": self.expected,
            "claimed": self.claimed,
            "path": self.path,
        }
        if self.field == "offered":
            record["missing"] = list(self.missing)
            record["extra"] = list(self.extra)
        words = self._words()
        if words is not None:
            record["words"] = words
        return record

    def _words(self) -> str | None:
        return difference_words(self.field, self.expected, self.claimed, teams=self.teams)

    def describe(self) -> str:
        """One line: where, the rule, and what differs."""
        where = f"step {self.step}"
        if self.action is not None:
            where += f" (seat {self.seat}: {self.action})"
        else:
            where += f", {self.path}"
        words = self._words()
        if self.field == "offered":
            what = f"the moves offered{' before it' if self.action else ''}: {words}"
        elif words is not None:
            what = f"{self.field}: {words}"
        else:
            what = (
                f"the spec expects {_show(self.expected)}, the transcript claims "
                f"{_show(self.claimed)}"
            )
        return f"{where}: rule {self.rule}: {what}"


def _show(value: JSON) -> str:
    return json.dumps(value, ensure_ascii=False)


@frozen
class Verdict:
    """The outcome of checking one transcript."""

    actions: int
    """The actions replayed before the divergence (all of them when there is none)."""
    ending: str | None
    """The spec's ending (``out``, ``blocked``) of the replayed hand, ``None`` if it goes on."""
    divergence: Divergence | None
    notes: tuple[str, ...] = ()

    @property
    def conforms(self) -> bool:
        """Whether the transcript agrees with the spec everywhere it was checked."""
        return self.divergence is None


_REPLAYED = ("replayed: the tied challenge voids the hand [partner.challenge-tie]",)
"""The note of a replayed hand: its empty result is no defect of the transcript."""


@frozen
class _Step:
    action: Action
    offered: tuple[str, ...] | None


def check_transcript(data: JSON) -> Verdict:
    """Replay a transcript and find its first divergence from the spec.

    Raises:
        FormatError: the transcript is not in the expected form (located by JSON path).
    """
    verdict = _fast_verdict(data)
    return _check_carefully(data) if verdict is None else verdict


def _check_carefully(data: JSON) -> Verdict:
    """:func:`check_transcript` step by step, each problem worded and located, the hand played
    by the reference (:mod:`gaple.reference`) as the fast path plays it on the engine."""
    if not isinstance(data, Mapping):
        raise FormatError("$", "expected a transcript object")
    for key in ("rules", "deal", "actions"):
        if key not in data:
            raise FormatError("$", f"missing key {key!r}")
    if not is_exactly(data.get("format", 1), 1):
        raise FormatError("$.format", f"expected 1, got {_show(data['format'])}")
    rules = rules_from_json(data["rules"], "$.rules")
    deal = deal_from_json(data["deal"], "$.deal")
    first_hand = data.get("first_hand", True)
    if not isinstance(first_hand, bool):
        raise FormatError("$.first_hand", "expected true or false")
    steps = _read_steps(data["actions"])
    offered_after = None
    if "offered" in data:
        offered_after = _read_offered(data["offered"], "$.offered")
    _read_observed(data)
    claimed = _read_result(data.get("result"))
    try:
        state = opening.new_hand(rules, deal, first_hand=first_hand)
    except InvalidDeal as error:
        raise FormatError("$.deal", str(error)) from None
    ended_at = 0
    for number, step in enumerate(steps, start=1):
        where = f"$.actions[{number - 1}]"
        action = step.action
        if step.offered is not None:
            divergence = _offered(state, step.offered, number, action, f"{where}.offered")
            if divergence is not None:
                return Verdict(number - 1, _ending(state), divergence)
        if state.ending is not None:
            # The spec's own rejection names end.final; a transcript that goes on shows an
            # engine that missed the end, so the rule of how the hand ended is the useful one.
            expected = f"rejected (hand-over: {_ended(state, ended_at)})"
            divergence = Divergence(
                number,
                action.seat,
                str(action.move),
                "action",
                _end_rule(state),
                expected,
                "accepted",
                where,
            )
            return Verdict(number - 1, _ending(state), divergence)
        try:
            state = turn.apply(state, action.move, action.seat)
        except IllegalMove as error:
            expected = f"rejected ({error.code}: {error.message})"
            divergence = Divergence(
                number,
                action.seat,
                str(action.move),
                "action",
                error.rule_id,
                expected,
                "accepted",
                where,
            )
            return Verdict(number - 1, _ending(state), divergence)
        if state.ending is not None:
            ended_at = number
    actions = len(steps)
    spec = state_to_json(state)
    for name in _FINAL:
        if name == "offered":
            if offered_after is not None:
                divergence = _offered(state, offered_after, actions, None, "$.offered")
                if divergence is not None:
                    return Verdict(actions, _ending(state), divergence)
        elif name in data and data[name] != spec[name]:
            rule = _rule(name, state, spec, data)
            divergence = Divergence(
                actions, None, None, name, rule, spec[name], data[name], f"$.{name}"
            )
            return Verdict(actions, _ending(state), divergence)
    return _check_result(claimed, state, actions)


def _ending(state: State) -> str | None:
    return None if state.ending is None else state.ending.value


def _end_rule(state: State) -> str:
    return "end.out" if state.ending is Ending.OUT else "end.blocked"


def _ended(state: State, step: int) -> str:
    assert state.ending is not None
    return f"the hand had ended {state.ending.value} at step {step}"


def _offered(
    state: State, offered: Sequence[str], step: int, action: Action | None, path: str
) -> Divergence | None:
    legal = [str(move) for move in turn.legal_moves(state)]
    difference = legal_difference(legal, offered, state)
    if difference is None:
        return None
    # After the end nothing may be offered; legal_difference names end.final, the rule of an
    # action after the end, but an engine offering moves has missed how the hand ended.
    rule = difference.rule if state.ending is None else _end_rule(state)
    return Divergence(
        step,
        None if action is None else action.seat,
        None if action is None else str(action.move),
        "offered",
        rule,
        legal,
        list(offered),
        path,
        difference.missing,
        difference.extra,
    )


def _read_steps(raw: JSON) -> list[_Step]:
    if not isinstance(raw, list):
        raise FormatError("$.actions", "expected an array of actions")
    steps = []
    for i, item in enumerate(raw):
        path = f"$.actions[{i}]"
        if not isinstance(item, Mapping) or "move" not in item or "seat" not in item:
            # The general reader words the problem (not an object, which key is missing).
            action_from_json(item, path)
        for key in item:
            if key not in ("seat", "move", "offered"):
                raise FormatError(f"{path}.{key}", "unknown key; keys are seat, move, offered")
        _nat(item["seat"], f"{path}.seat")
        action = Action(item["seat"], _move(item["move"], f"{path}.move"))
        offered = None
        if "offered" in item:
            offered = _read_offered(item["offered"], f"{path}.offered")
        steps.append(_Step(action, offered))
    return steps


@functools.lru_cache(maxsize=4096)
def _parse(text: str) -> Move | str:
    """The move, or why the text is not one. Cached: a log of many hands repeats the same
    few hundred move texts, and moves are immutable values."""
    try:
        return parse_move(text)
    except MoveSyntaxError as error:
        return str(error)


def _move(value: JSON, path: str) -> Move:
    if not isinstance(value, str):
        return move_from_json(value, path)  # raises, wording the wrong type
    move = _parse(value)
    if isinstance(move, str):
        raise FormatError(path, move)
    return move


def _read_offered(raw: JSON, path: str) -> tuple[str, ...]:
    if not isinstance(raw, list):
        raise FormatError(path, "expected an array of moves such as 'place 0-3 left'")
    for i, item in enumerate(raw):
        _move(item, f"{path}[{i}]")
    return tuple(raw)


def _nat(value: JSON, path: str, *, null: bool = False) -> None:
    if value is None and null:
        return
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise FormatError(path, "expected a whole number >= 0" + (" or null" if null else ""))


def _array(value: JSON, path: str) -> list[JSON]:
    if not isinstance(value, list):
        raise FormatError(path, "expected an array")
    return value


def _pair(value: JSON, path: str) -> None:
    if len(_array(value, path)) != 2:
        raise FormatError(path, "expected two numbers [left, right]")
    for i, item in enumerate(value):
        _nat(item, f"{path}[{i}]")


def _read_observed(data: Mapping[str, JSON]) -> None:
    """Check the form of the final fields present (their values are compared later)."""
    if "to_act" in data:
        _nat(data["to_act"], "$.to_act", null=True)
    if "line" in data:
        for i, pair in enumerate(_array(data["line"], "$.line")):
            _pair(pair, f"$.line[{i}]")
    if data.get("ends") is not None:
        _pair(data["ends"], "$.ends")
    for name in ("hands", "discards"):
        if name in data:
            for seat, tiles in enumerate(_array(data[name], f"$.{name}")):
                for i, tile in enumerate(_array(tiles, f"$.{name}[{seat}]")):
                    tile_from_json(tile, f"$.{name}[{seat}][{i}]")
    if data.get("ending", None) not in (None, "out", "blocked"):
        raise FormatError("$.ending", f"expected null, 'out' or 'blocked', got {data['ending']!r}")


def _read_result(claimed: JSON) -> Mapping[str, JSON] | None:
    if claimed is None:
        return None
    if not isinstance(claimed, Mapping):
        raise FormatError("$.result", "expected an object")
    for name, value in claimed.items():
        path = f"$.result.{name}"
        if name not in _RESULT:
            raise FormatError(path, f"unknown field; fields are {', '.join(_RESULT)}")
        if name in ("winner", "winning_team"):
            _nat(value, path, null=True)
        elif name == "replay":
            if not isinstance(value, bool):
                raise FormatError(path, "expected true or false")
        else:
            for i, item in enumerate(_array(value, path)):
                if not isinstance(item, int) or isinstance(item, bool):
                    raise FormatError(f"{path}[{i}]", "expected an integer")
                if name == "counts":
                    _nat(item, f"{path}[{i}]")
    return claimed


def _rule(name: str, state: State, spec: Mapping[str, JSON], data: Mapping[str, JSON]) -> str:
    """The rule of a difference in the final field ``name`` (``spec`` as the spec writes the
    transcript): that of the suite for a field its state reply shows alike."""
    if name in _SHOWN_ALIKE:
        return field_rule(name, state, spec, data)
    if name == "discards":
        return "block.discard"
    moves = [a.move for a in state.history]
    return "block.discard" if any(isinstance(m, Discard) for m in moves) else "play.in-hand"


def _check_result(claimed: Mapping[str, JSON] | None, state: State, actions: int) -> Verdict:
    ending = _ending(state)
    expected = result_json(state)
    # A replayed hand has no winner and no points; saying so keeps a reader from taking the
    # empty result for a defect of the transcript.
    replayed = _REPLAYED if expected is not None and expected["replay"] else ()
    if claimed is None:
        return Verdict(actions, ending, None, replayed)
    if expected is None:
        divergence = Divergence(
            actions,
            None,
            None,
            "result",
            "end.blocked",
            "no result: the hand goes on",
            claimed,
            "$.result",
        )
        return Verdict(actions, ending, divergence)
    present = {name: expected[name] for name in claimed}
    difference = compare_result(present, claimed, state, ("count", "points"))
    if difference is None:
        return Verdict(actions, ending, None, replayed)
    divergence = Divergence(
        actions,
        None,
        None,
        f"result.{difference.field}",
        difference.rule,
        difference.expected,
        difference.actual,
        f"$.result.{difference.field}",
        teams=state.rules.partnership,
    )
    return Verdict(actions, ending, divergence, replayed)


# --- the fast path ----------------------------------------------------------------------------
#
# Most transcripts of a log conform and are written in the canonical form of state_to_json. For
# them _fast_verdict replays with the oracle's own fast paths (moves as the table's objects, a
# move checked by being among legal_moves, run) and compares every claimed value exactly
# (by repr where == would take true for 1). Anything else, a divergence or an unusual spelling
# ("3-0", "place 3-0 left"), it leaves to check_transcript's careful reading, which words the
# problem; so whatever it accepts, the careful reading accepts too (tests/test_check_fast.py).


@frozen
class _Notation:
    """The canonical texts of a set's tiles and moves, and the oracle's objects for them."""

    full: TileSet
    tile: dict[str, int]
    """Each tile's canonical text to its bit index."""
    move: dict[str, Move]
    """Each move's canonical text to the object legal_moves returns for it."""
    text: dict[int, str]
    """Those objects by ``id`` (they live as long as the tables) to their text."""
    text_of_tile: tuple[str, ...]
    """Each tile's canonical text by bit index."""


@functools.cache
def _notation(max_pip: int) -> _Notation:
    table = tables(max_pip)
    moves: list[Move] = [PASS, *table.lead, *table.discard]
    moves += [move for pair in table.place for move in pair]
    full = table.tiles
    return _Notation(
        full,
        {str(tile): i for i, tile in enumerate(full.tiles)},
        {str(move): move for move in moves},
        {id(move): str(move) for move in moves},
        tuple(str(tile) for tile in full.tiles),
    )


_RULES_CACHE: dict[bytes | str, Ruleset] = {}
"""Rulesets read by rules_from_json, by the exact key of their JSON (a log repeats a few)."""
_ACTION_KEYS = frozenset({"seat", "move", "offered"})


def _fast_rules(raw: JSON) -> Ruleset | None:
    if type(raw) is not dict:
        return None
    try:
        key = exact_key(raw)
    except RecursionError:  # nested deeper than any reader of gaple lets through
        return None
    rules = _RULES_CACHE.get(key)
    if rules is None:
        try:
            rules = rules_from_json(raw, "$.rules")
        except FormatError:
            return None
        if len(_RULES_CACHE) >= 64:
            _RULES_CACHE.clear()
        _RULES_CACHE[key] = rules
    return rules


def _group(raw: JSON, notation: _Notation, seen: int) -> tuple[int, tuple[Tile, ...]] | None:
    """The bitset and tiles of a list of canonical tile texts in canonical order, none of
    them in ``seen`` (the order spares sorting them, as Deal would)."""
    if type(raw) is not list:
        return None
    mask = 0
    last = -1
    index_of = notation.tile
    tiles = notation.full.tiles
    group = []
    for text in raw:
        index = index_of.get(text) if type(text) is str else None
        if index is None or index <= last or seen >> index & 1:
            return None
        mask |= 1 << index
        last = index
        group.append(tiles[index])
    return mask, tuple(group)


def _faststart(rules: Ruleset, raw: JSON, first_hand: bool) -> State | None:
    """The first state of a deal that Deal.validate would accept, else ``None``."""
    if type(raw) is not dict:
        return None
    notation = _notation(rules.max_pip)
    full = notation.full
    hands = raw.get("hands")
    if type(hands) is not list or len(hands) != rules.players:
        return None
    seen = 0
    masks = []
    held = []
    for hand in hands:
        group = _group(hand, notation, seen)
        if group is None or len(hand) != rules.hand_size:
            return None
        masks.append(group[0])
        held.append(group[1])
        seen |= group[0]
    starter_text = raw.get("starter")
    starter = None
    if starter_text is not None:
        group = _group([starter_text], notation, seen)
        if group is None:
            return None
        seen |= group[0]
        starter = group[1][0]
    aside = _group(raw.get("set_aside", []), notation, seen)
    first_seat = raw.get("first_seat", 0)
    if (
        aside is None
        or (starter is None) == turns_up_starter(rules)
        or seen | aside[0] != (1 << full.size) - 1
        or type(first_seat) is not int
        or not 0 <= first_seat < rules.players
    ):
        return None
    deal = sorted_deal(tuple(held), starter, aside[1], first_seat)
    return start(rules, deal, tuple(masks), first_hand=first_hand)


def _same_moves(offered: JSON, moves: tuple[Move, ...], text: Mapping[int, str]) -> bool:
    """Whether ``offered`` lists exactly the canonical texts of ``moves``, each once."""
    if type(offered) is not list or len(offered) != len(moves):
        return False
    try:
        return set(offered) == {text[id(move)] for move in moves}
    except TypeError:  # an unhashable item: the careful reading words it
        return False


def _texts(notation: _Notation, masks: tuple[int, ...]) -> list[list[str]]:
    text = notation.text_of_tile
    return [[text[i] for i in iter_bits(mask)] for mask in masks]


def _observed(state: State, data: Mapping[str, JSON]) -> bool:
    """Whether the final fields ``data`` claims show what state_to_json writes, in the same
    JSON types (true is not 1, 2.0 is not 2): compared as one exact key."""
    names = [name for name in _OBSERVED if name in data]
    if not names:
        return True
    notation = _notation(state.rules.max_pip)
    spec: dict[str, JSON] = {
        "ending": _ending(state),
        "to_act": state.to_act,
        "line": state.line,
        "ends": state.ends,
        "hands": _texts(notation, state.hand_masks),
        "discards": _texts(notation, state.discard_masks),
    }
    return exact_key([data[name] for name in names]) == exact_key([spec[name] for name in names])


def _fast_verdict(data: JSON) -> Verdict | None:
    """The verdict on a conforming transcript in canonical form, else ``None``."""
    if type(data) is not dict or not is_exactly(data.get("format", 1), 1):
        return None
    first_hand = data.get("first_hand", True)
    actions = data.get("actions")
    if "rules" not in data or type(first_hand) is not bool or type(actions) is not list:
        return None
    rules = _fast_rules(data["rules"])
    state = None if rules is None else _faststart(rules, data.get("deal"), first_hand)
    if state is None:
        return None
    notation = _notation(state.rules.max_pip)
    text = notation.text
    written = _written(actions, notation.move)
    if written is None:
        return None
    moves, seats, offers = written
    # Without moves offered to compare, run need not build the legal moves: it checks each
    # move itself. Either way the run stops before the first move it does not take, which
    # leaves the history short of the seats written (compared once the moves are made).
    state = (
        _offered_run(state, actions, moves, text)
        if offers
        else run(state, None, follow=iter(moves))
    )
    if list(map(_seat, state.history)) != seats:
        return None
    if "offered" in data and not _same_moves(data["offered"], legal_moves(state), text):
        return None
    if not _observed(state, data):
        return None
    return _fast_result(data.get("result"), state, len(actions))


_seat = operator.attrgetter("seat")


def _written(
    actions: list[JSON], move_of: Mapping[str, Move]
) -> tuple[list[Move], list[int], bool] | None:
    """The moves and seats of ``actions`` if each is written canonically, and whether any
    lists the moves offered."""
    moves = []
    seats = []
    offers = False
    for item in actions:
        if type(item) is not dict:
            return None
        text = item.get("move")
        seat = item.get("seat")
        if type(text) is not str or type(seat) is not int:
            return None
        move = move_of.get(text)
        if move is None:
            return None
        if len(item) != 2:  # more keys than the move and the seat: only "offered" may be one
            if not item.keys() <= _ACTION_KEYS:
                return None
            offers = True
        moves.append(move)
        seats.append(seat)
    return moves, seats, offers


def _offered_run(
    state: State, actions: list[JSON], moves: list[Move], text: Mapping[int, str]
) -> State:
    """The state after ``moves``, the moves of ``actions``, while each is among the legal
    moves and, where its action lists the moves offered, those are exactly the legal ones."""
    steps = zip(actions, moves, strict=True)

    def pick(legal: tuple[Move, ...], _seat: int) -> Move | None:
        step = next(steps, None)
        if step is None:
            return None
        item, move = step
        # By identity: `in` would call the moves' __eq__ on every move before a match.
        if not any(option is move for option in legal):
            return None
        if "offered" in item and not _same_moves(item["offered"], legal, text):
            return None
        return move

    return run(state, pick)


def _fast_result(claimed: JSON, state: State, actions: int) -> Verdict | None:
    if claimed is None:
        # Only a blocked hand under partnership scoring can be replayed (score_position): no
        # need to score any other to know that it needs no note.
        if state.ending is not Ending.BLOCKED or state.rules.settlement is not _PARTNERSHIP:
            return Verdict(actions, _ending(state), None)
        replayed = quiet_fields(state)[-1]
        return Verdict(actions, _ending(state), None, _REPLAYED if replayed else ())
    if type(claimed) is not dict or state.ending is None:
        return None
    result = dict(zip(_RESULT, quiet_fields(state), strict=True))
    if not claimed.keys() <= result.keys():
        return None
    if exact_key(claimed) != exact_key({name: result[name] for name in claimed}):
        return None
    return Verdict(actions, _ending(state), None, _REPLAYED if result["replay"] else ())


_PARTNERSHIP = Settlement.PARTNERSHIP
