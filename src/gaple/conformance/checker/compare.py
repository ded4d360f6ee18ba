"""Comparing what an implementation shows with what the spec expects, naming the rule broken.

The same comparisons serve the adapter runner, the transcript checker and the fuzzer, so a
divergence is reported the same way whichever tool finds it: the field, the rule ID, what the
spec expected and what the implementation showed.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

from attrs import frozen

from gaple.conformance.vectors.cases import move_rule
from gaple.position import position_of
from gaple.reference.counting import winning_team
from gaple.reference.equipment import table
from gaple.reference.opening import lead_rule
from gaple.reference.partnership import stake
from gaple.reference.scoring import Reckoning, reckon
from gaple.reference.settlement import settle
from gaple.rules import BlockedAction, Settlement
from gaple.state import (
    Discard,
    Ending,
    Lead,
    Move,
    MoveSyntaxError,
    Pass,
    Place,
    State,
    legal_moves,
    parse_move,
)
from gaple.tiles import Tile

__all__ = [
    "COUNT_FIELDS",
    "LINE_FIELDS",
    "POINTS_FIELDS",
    "POSITION_ORDER",
    "RESULT_LEVELS",
    "TURNS_FIELDS",
    "Difference",
    "LegalDifference",
    "compare_observation",
    "compare_result",
    "difference_words",
    "failure_name",
    "field_rule",
    "legal_difference",
    "result_level",
]

JSON = Any

LINE_FIELDS = ("line", "ends")
"""Observation fields of the ``line`` level (plus the leads and placements of ``legal``)."""
TURNS_FIELDS = ("ending", "to_act", "hand_sizes", "discard_counts")
"""Observation fields of the ``turns`` level (plus the passes and discards of ``legal``)."""
COUNT_FIELDS = ("counts", "winner", "winning_team")
"""Result fields of the ``count`` level."""
POINTS_FIELDS = ("points", "replay")
"""Result fields of the ``points`` level."""
POSITION_ORDER = ("ending", "to_act", "line", "ends", "legal", "hand_sizes", "discard_counts")
"""The fields of a position in the order they are compared, so that the first difference names
the rule broken first: how the hand stands (ended, whose turn), then the line, then the moves
the line allows and the hand sizes they change. An early or late ending is thus named before
the moves that follow from it. The suite and ``gaple check`` both compare in this order."""
RESULT_LEVELS = ("count", "points", "rules")
"""The levels of a result, in the order :func:`compare_result` compares them."""
_ACT_FIELDS = ("verdict", "code", "rule")
"""Fields of the reply to an action: whether it was accepted, and the code and rule of a
rejection."""


@frozen
class Difference:
    """Where an implementation departs from the spec."""

    field: str
    """The observation or result field (``legal``, ``to_act``, ``points``...), or ``verdict``
    and ``code`` for the acceptance of an action."""
    rule: str
    """The rule ID the difference breaks."""
    expected: JSON
    """What the spec says."""
    actual: JSON
    """What the implementation says."""

    def describe(self) -> str:
        """One line: ``field [rule]: expected ..., got ...``."""
        return f"{_named(self.field, self.rule)}: {self.values()}"

    def values(self) -> str:
        """What the spec expected and what the implementation showed."""
        return f"expected {_show(self.expected)}, got {_show(self.actual)}"

    def said(self, *, teams: bool = False) -> str:
        """What differs: in words for a list field (:func:`difference_words`), else
        :meth:`values`."""
        words = difference_words(self.field, self.expected, self.actual, teams=teams)
        return self.values() if words is None else words


def difference_words(
    field: str, expected: JSON, actual: JSON, *, teams: bool = False
) -> str | None:
    """How a list field the implementation showed differs from the spec's, in the words every
    tool uses (the terminal, the reports, ``gaple check``, the HTML summary): ``did not offer
    place 0-4 right; offered discard 4-6, which is not legal``, ``seat 2's hand lacks 3-3 and
    has 5-6 too``, ``seat 1 holds 7 tiles, not 6``. The subject is always the implementation.

    ``field`` is a position or result field of the suite (``legal``, ``line``, ``ends``,
    ``hand_sizes``, ``discard_counts``, ``counts``, ``points``, ``rules``) or of a transcript
    (``offered``, ``hands``, ``discards``, ``result.counts``...); ``teams`` says the points are
    per team (pair scoring). ``None`` for any other field, or a value not of the field's form
    (the raw values say it then).
    """
    worded = _WORDED.get(field.removeprefix("result."))
    if worded is None or not isinstance(expected, list) or not isinstance(actual, list):
        return _ends_words(expected, actual) if field == "ends" else None
    return worded(expected, actual, teams)


def _texts(value: list[JSON]) -> bool:
    return all(isinstance(item, str) for item in value)


def _numbers(value: list[JSON]) -> bool:
    return all(isinstance(item, int) and not isinstance(item, bool) for item in value)


def _listed(items: Sequence[str]) -> str:
    return ", ".join(items[:-1]) + f" and {items[-1]}" if len(items) > 1 else items[0]


def _legal_words(expected: list[JSON], actual: list[JSON], _teams: bool) -> str | None:
    if not _texts(expected) or not _texts(actual):
        return None
    missing, extra = _apart([str(m) for m in expected], {_canonical(str(m)) for m in actual})
    parts = [f"did not offer {_listed(missing)}"] if missing else []
    if extra:
        which = "which is not legal" if len(extra) == 1 else "which are not legal"
        parts.append(f"offered {_listed(extra)}, {which}")
    return "; ".join(parts) or None


def _tile(value: JSON) -> str | None:
    """A tile of the line (``[a, b]``, as laid) as text, ``a-b``."""
    if isinstance(value, list) and len(value) == 2 and _numbers(value):
        return f"{value[0]}-{value[1]}"
    return None


def _unoriented(text: str) -> str:
    return "-".join(sorted(text.split("-")))


def _line_words(expected: list[JSON], actual: list[JSON], _teams: bool) -> str | None:
    wanted, shown = [_tile(t) for t in expected], [_tile(t) for t in actual]
    if None in wanted or None in shown:
        return None
    spec = [t for t in wanted if t is not None]
    laid = [t for t in shown if t is not None]
    missing = _less([_unoriented(t) for t in spec], [_unoriented(t) for t in laid])
    extra = _less([_unoriented(t) for t in laid], [_unoriented(t) for t in spec])
    if missing or extra:
        parts = [f"the line lacks {_listed(missing)}"] if missing else []
        parts += [f"the line has {_listed(extra)} too"] if extra else []
        return "; ".join(parts)
    moved = _moved_end(spec, laid)
    if moved is not None:
        return moved
    return f"the line reads {' '.join(laid)}, not {' '.join(spec)}"


def _less(items: list[str], other: list[str]) -> list[str]:
    """``items`` less ``other``, as multisets, in the order of ``items``."""
    left = list(other)
    kept = []
    for item in items:
        if item in left:
            left.remove(item)
        else:
            kept.append(item)
    return kept


def _moved_end(spec: list[str], laid: list[str]) -> str | None:
    """The words for a line of the same tiles with one laid at the other end, if it is so; the
    tile is named low-high, as a hand holds it, however the engine turned it."""
    if len(spec) < 2 or len(spec) != len(laid):
        return None
    if spec[1:] == laid[:-1]:
        return f"laid {_unoriented(laid[-1])} at the right end, not the left"
    if spec[:-1] == laid[1:]:
        return f"laid {_unoriented(laid[0])} at the left end, not the right"
    return None


def _ends_words(expected: JSON, actual: JSON) -> str | None:
    def pair(value: JSON) -> bool:
        return isinstance(value, list) and len(value) == 2 and _numbers(value)

    if expected is None and pair(actual):
        return f"shows the ends {actual[0]} and {actual[1]}, where the line is empty"
    if actual is None and pair(expected):
        return f"shows no ends, not {expected[0]} and {expected[1]}"
    if not pair(expected) or not pair(actual):
        return None
    parts = [
        f"the {side} end is {actual[k]}, not {expected[k]}"
        for k, side in enumerate(("left", "right"))
        if actual[k] != expected[k]
    ]
    return "; ".join(parts) or None


def _per_seat(
    verb: str, unit: str = "", *, per_team: bool = False
) -> Callable[[list[JSON], list[JSON], bool], str | None]:
    """The words of a number per seat (``seat 1 holds 7 tiles, not 6``); per team for a
    ``per_team`` field under ``teams`` (the points of pair scoring)."""

    def words(expected: list[JSON], actual: list[JSON], teams: bool) -> str | None:
        if not _numbers(expected) or not _numbers(actual):
            return None
        who = "team" if teams and per_team else "seat"
        if len(expected) != len(actual):
            return f"shows {len(actual)} {who}s, not {len(expected)}"
        parts = [
            f"{who} {k} {verb} {shown}{unit}, not {wanted}"
            for k, (wanted, shown) in enumerate(zip(expected, actual, strict=True))
            if wanted != shown
        ]
        return "; ".join(parts) or None

    return words


def _tiles_per_seat(
    whose: str, lack: str, have: str
) -> Callable[[list[JSON], list[JSON], bool], str | None]:
    """The words of the tiles per seat (``seat 2's hand lacks 3-3 and has 5-6 too``)."""

    def words(expected: list[JSON], actual: list[JSON], _teams: bool) -> str | None:
        if not all(isinstance(v, list) and _texts(v) for v in expected + actual):
            return None
        if len(expected) != len(actual):
            return f"shows {len(actual)} seats, not {len(expected)}"
        parts = []
        for seat, (wanted, shown) in enumerate(zip(expected, actual, strict=True)):
            spec, held = [_unoriented(t) for t in wanted], [_unoriented(t) for t in shown]
            missing, extra = _less(spec, held), _less(held, spec)
            said = [f"{lack} {_listed(missing)}"] if missing else []
            said += [f"{have} {_listed(extra)} too"] if extra else []
            if said:
                parts.append(f"seat {seat}'s {whose} {' and '.join(said)}")
            elif held != spec:
                parts.append(f"seat {seat}'s {whose} lists its tiles in another order")
        return "; ".join(parts) or None

    return words


def _rules_words(expected: list[JSON], actual: list[JSON], _teams: bool) -> str | None:
    if not _texts(expected) or not _texts(actual):
        return None
    missing = sorted(set(expected).difference(actual))
    extra = sorted(set(actual).difference(expected))
    parts = [f"does not name {_listed(missing)}"] if missing else []
    parts += [f"names {_listed(extra)}, which the spec does not apply"] if extra else []
    return "; ".join(parts) or None


_WORDED: dict[str, Callable[[list[JSON], list[JSON], bool], str | None]] = {
    "legal": _legal_words,
    "offered": _legal_words,
    "line": _line_words,
    "hand_sizes": _per_seat("holds", " tiles"),
    "discard_counts": _per_seat("has discarded", " tiles"),
    "counts": _per_seat("counts"),
    "points": _per_seat("scores", per_team=True),
    "hands": _tiles_per_seat("hand", "lacks", "has"),
    "discards": _tiles_per_seat("discards", "lack", "have"),
    "rules": _rules_words,
}
"""The list fields worded, each by the words of its kind (``ends`` is worded on its own: it
may be ``null``)."""


def _named(field: str, rule: JSON) -> str:
    return f"{field} [{rule}]"


def failure_name(step: JSON, seat: JSON, action: JSON, field: str, rule: JSON) -> str:
    """Where in a case a difference was found, then its field and rule, in the words the
    terminal and the HTML report share: the verdict on a step's action (``at step 3 (seat 1:
    place 3-5 left): verdict [...]``), a field of the position a step left (``in the position
    after step 3 (...): legal [...]``) or of the one dealt, or a field of the result."""
    if action is None and field in COUNT_FIELDS + POINTS_FIELDS + ("rules",):
        where = "in the result"
    elif action is None:
        where = "in the position dealt"
    elif field in _ACT_FIELDS:
        where = f"at step {step} (seat {seat}: {action})"
    else:
        where = f"in the position after step {step} (seat {seat}: {action})"
    return f"{where}: {_named(field, rule)}"


def result_level(field: str) -> str:
    """The level at which the result field ``field`` is compared."""
    if field in COUNT_FIELDS:
        return "count"
    return "points" if field in POINTS_FIELDS else "rules"


def _show(value: JSON) -> str:
    return json.dumps(value, ensure_ascii=False)


def _is_line_move(text: str) -> bool:
    return text.startswith(("lead ", "place "))


def compare_observation(
    expected: Mapping[str, JSON],
    actual: Mapping[str, JSON],
    state: State,
    levels: Iterable[str],
) -> Difference | None:
    """The first difference at the given levels between an expected and a shown state.

    ``state`` is the spec's state being observed (it names the rule of a difference). Fields
    are compared in :data:`POSITION_ORDER`, the legal moves as a set.
    """
    checked = set(levels)
    fields = [
        name
        for name in POSITION_ORDER
        if name == "legal"
        or ("turns" in checked and name in TURNS_FIELDS)
        or ("line" in checked and name in LINE_FIELDS)
    ]
    for name in fields:
        if name not in actual:
            return Difference(name, field_rule(name, state, expected, actual), expected[name], None)
        if name == "legal":
            difference = _compare_legal(expected["legal"], actual["legal"], state, checked)
            if difference is not None:
                return difference
        elif _normal(actual[name]) != _normal(expected[name]):
            rule = field_rule(name, state, expected, actual)
            return Difference(name, rule, expected[name], actual[name])
    return None


def _normal(value: JSON) -> JSON:
    if isinstance(value, tuple):
        return [_normal(item) for item in value]
    if isinstance(value, list):
        return [_normal(item) for item in value]
    return value


def _compare_legal(
    expected: Sequence[str], actual: JSON, state: State, checked: set[str]
) -> Difference | None:
    if not isinstance(actual, list) or not all(isinstance(m, str) for m in actual):
        return Difference("legal", "turn.order", list(expected), actual)

    def keep(text: str) -> bool:
        line = _is_line_move(text)
        return ("line" in checked and line) or ("turns" in checked and not line)

    difference = legal_difference(expected, actual, state, keep)
    if difference is None:
        return None
    wanted = [m for m in expected if keep(m)]
    shown = sorted({m for m in map(_canonical, actual) if keep(m)})
    return Difference("legal", difference.rule, wanted, shown)


@frozen
class LegalDifference:
    """Moves an implementation offered that differ from the spec's legal moves."""

    missing: tuple[str, ...]
    """Legal moves it did not offer, in :func:`gaple.state.legal_moves` order."""
    extra: tuple[str, ...]
    """Moves it offered that are not legal, sorted."""
    rule: str
    """The rule ID the difference breaks."""


def legal_difference(
    expected: Sequence[str],
    shown: Iterable[str],
    state: State,
    keep: Callable[[str], bool] | None = None,
) -> LegalDifference | None:
    """Compare offered moves with the spec's legal moves ``expected`` in ``state``, as sets.

    Only the moves ``keep`` selects (all by default) are compared; moves are read leniently
    (a tile's halves in either order: ``place 3-0 left`` is ``place 0-3 left``).
    """
    offered = {m for m in map(_canonical, shown) if keep is None or keep(m)}
    missing, extra = _apart([m for m in expected if keep is None or keep(m)], offered)
    if not missing and not extra:
        return None
    rule = _legal_rule(state, sorted(missing), list(extra), offered)
    return LegalDifference(missing, extra, rule)


def _apart(wanted: Sequence[str], offered: set[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The legal moves ``wanted`` not ``offered`` (in their order), and the offered moves not
    wanted (sorted): the moves offered compared as sets, for the rule and for the words."""
    missing = tuple(m for m in wanted if m not in offered)
    return missing, tuple(sorted(offered.difference(wanted)))


@functools.lru_cache(maxsize=4096)
def _canonical(text: str) -> str:
    # Cached: a log of many hands repeats the same few hundred move texts.
    try:
        return str(parse_move(text))
    except MoveSyntaxError:
        return text


def _legal_rule(state: State, missing: list[str], extra: list[str], shown: set[str]) -> str:
    if state.ending is not None:
        return "end.final"
    offending = [(m, True) for m in missing] + [(m, False) for m in extra]
    text, is_missing = offending[0]
    try:
        move: Move = parse_move(text)
    except MoveSyntaxError:
        return "turn.order"
    if isinstance(move, Lead):
        return move_rule(state, move) if state.line == () else "open.lead"
    if not state.line:
        return "open.lead"
    if isinstance(move, Place):
        stuck_shown = any(not _is_line_move(m) for m in shown)
        return "turn.forced-play" if is_missing and stuck_shown else "play.match-end"
    can_place = any(isinstance(m, Place) for m in map(parse_move, _spec_moves(state)))
    if not is_missing and can_place:
        return "turn.forced-play"
    if isinstance(move, Pass):
        return "block.pass" if is_missing else "block.discard"
    assert isinstance(move, Discard)
    if is_missing:
        return "block.discard"
    return "play.in-hand" if _discards_allowed(state) else "block.pass"


def _spec_moves(state: State) -> list[str]:
    return [str(m) for m in legal_moves(state)]


def _discards_allowed(state: State) -> bool:
    return state.rules.blocked_action is BlockedAction.DISCARD


def field_rule(
    name: str, state: State, expected: Mapping[str, JSON], actual: Mapping[str, JSON]
) -> str:
    """The rule broken by a difference in the position field ``name`` (a field of
    :data:`POSITION_ORDER` but ``legal``) of ``state``: ``expected`` and ``actual`` are the
    spec's and the implementation's positions, of which only ``ending`` is read."""
    if name == "ending":
        ending = expected["ending"] or actual.get("ending")
        return f"end.{ending}" if ending in ("out", "blocked") else "end.blocked"
    if name == "to_act":
        if state.ending is not None:
            return "end.out" if state.ending is Ending.OUT else "end.blocked"
        if not state.history:
            if state.deal.starter is not None:
                return "open.starter-seat"
            if state.rules.forbidden_leads:
                return "open.forbidden"
            return lead_rule(state.rules, first_hand=state.first_hand).rule_id
        return "turn.order"
    if name in ("line", "ends"):
        if not state.history:
            return "deal.starter" if state.deal.starter is not None else "open.lead"
        last = state.history[-1].move
        return "open.lead" if isinstance(last, Lead) else "play.match-end"
    if name == "hand_sizes":
        if not state.history:
            return "deal.sizes"
        return "block.discard" if isinstance(state.history[-1].move, Discard) else "play.in-hand"
    return "block.discard"


def compare_result(
    expected: Mapping[str, JSON], actual: Mapping[str, JSON], state: State, levels: Iterable[str]
) -> Difference | None:
    """The first difference at the ``count``, ``points`` and ``rules`` levels between two
    results (fields missing from ``expected`` are not compared).

    The numbers come first: a wrong count usually changes the explanation too, and the count
    is the more specific finding.
    """
    checked = set(levels)
    fields = (COUNT_FIELDS if "count" in checked else ()) + (
        POINTS_FIELDS if "points" in checked else ()
    )
    compared = [name for name in fields if name in expected]
    for name in compared:
        shown = actual.get(name)
        if _normal(shown) != _normal(expected[name]):
            rule = _result_rule(name, state, expected, actual, compared)
            return Difference(name, rule, expected[name], shown)
    if "rules" in checked and "rules" in expected:
        return _compare_rule_ids(expected["rules"], actual.get("rules"))
    return None


def _compare_rule_ids(expected: Sequence[str], shown: JSON) -> Difference | None:
    """The result's rule IDs compared as a set; the difference names the first missing ID,
    else the first extra one (anything but a list of strings shows none of them)."""
    wanted = set(expected)
    listed = isinstance(shown, list) and all(isinstance(item, str) for item in shown)
    given = set(shown) if listed else set()
    if listed and given == wanted:
        return None
    # Never empty: every spec result has at least the note of its ending.
    rule = (sorted(wanted.difference(given)) + sorted(given.difference(wanted)))[0]
    return Difference("rules", rule, sorted(wanted), sorted(given) if listed else shown)


def _result_rule(
    name: str,
    state: State,
    expected: Mapping[str, JSON],
    actual: Mapping[str, JSON],
    fields: Sequence[str],
) -> str:
    """The rule a wrong result breaks: for counts, the rule that counts the differing seat;
    else the most specific rule whose facts, changed alone, give the engine's answer in every
    compared field (:func:`_changed_facts`); else the rule that sums the differing field."""
    rules = state.rules
    if name == "counts":
        if rules.double_blank_25 and _zero_zero_differs(state, expected[name], actual.get(name)):
            return "score.double-blank-25"
        return "score.count"
    reckoning = reckon(position_of(state))
    shown = {field: _normal(actual.get(field)) for field in fields}
    for rule, answer in _changed_facts(reckoning):
        if all(answer[field] == shown[field] for field in fields):
            return rule
    if name == "replay":
        return "partner.challenge-tie"
    if rules.settlement is Settlement.PARTNERSHIP:
        # Pair scoring decides the hand by going out or by the blocked-hand challenge, so a
        # wrong winner, team or score there breaks those rules rather than the ranking.
        if state.ending is Ending.OUT:
            return "partner.out"
        return "partner.challenge-tie" if reckoning.replay else "partner.challenge"
    if name == "winner":
        return "score.rank"
    if name == "winning_team":
        return "score.team"
    return f"settle.{rules.settlement.value}"


def _changed_facts(reckoning: Reckoning) -> Iterator[tuple[str, dict[str, JSON]]]:
    """Each result the spec would give were one rule's facts otherwise, with that rule, the
    most specific first; the points are the spec's less that rule's part, plus the changed one.

    - ``partner.dead-double``: one valued double of the losing pair alive although dead, or
      dead although alive (its value less its pips to the winners, and under the debit option
      its value from the losers).
    - ``partner.closing-double``: the closing bonus replaced by another one a closing double
      can earn (none, the top double's or the double-blank's).
    - ``partner.challenge-tie``: a tied challenge decided for the other seat, or a challenge
      that is not replayed replayed.
    - ``partner.challenge``: a challenge of unequal counts won by the other seat, with that
      seat's stake.
    - ``score.rank``: the hand won by another seat of the winning count.
    """
    rules = reckoning.position.rules
    counts = [c.count for c in reckoning.counts]
    spec = {
        "counts": counts,
        "winner": reckoning.winner,
        "winning_team": reckoning.winning_team,
        "points": list(reckoning.points),
        "replay": reckoning.replay,
    }

    def changed(**fields: JSON) -> dict[str, JSON]:
        return {**spec, **fields}

    def points_plus(winners: int, extra: int, losers_extra: int = 0) -> list[int]:
        points = list(reckoning.points)
        points[winners] += extra
        points[1 - winners] += losers_extra
        return points

    partnership = reckoning.partnership
    out = None if partnership is None else partnership.out
    if partnership is not None and out is not None:
        for fate in partnership.fates:
            if table(rules).team_of(fate.seat) == out.losing_team:
                sign = -1 if fate.dead else 1
                debit = fate.value if rules.dead_double_debit else 0
                points = points_plus(out.team, sign * (fate.value - fate.counted), -sign * debit)
                yield "partner.dead-double", changed(points=points)
        bonus = 0 if out.closing is None else out.closing.bonus
        for other in sorted(
            {0, rules.top_double_bonus, rules.blank_double_bonus}.difference({bonus})
        ):
            yield "partner.closing-double", changed(points=points_plus(out.team, other - bonus))
    challenge = None if partnership is None else partnership.challenge
    if challenge is not None:
        rule = "partner.challenge" if challenge.tie is None else "partner.challenge-tie"
        for seat in (challenge.blocker, challenge.rival):
            if seat != challenge.winner:
                won = seat == challenge.blocker
                base = rules.challenge_win_base if won else rules.challenge_loss_base
                times = rules.challenge_win_multiplier if won else rules.challenge_loss_multiplier
                team = table(rules).team_of(seat)
                points = [0, 0]
                points[team] = stake(base, rules, challenge.blocker, counts) * times
                yield rule, changed(winner=seat, winning_team=team, points=points, replay=False)
        if not challenge.replay:
            replayed = changed(winner=None, winning_team=None, points=[0, 0], replay=True)
            yield "partner.challenge-tie", replayed
    if reckoning.settling is not None:
        best = reckoning.ranking[0].count
        for entry in reckoning.ranking[1:]:
            if entry.count == best:
                points = list(settle(rules.settlement, counts, entry.seat).points)
                if rules.partnership:  # each team receives what its seats do, as in reckon
                    points = [sum(points[s] for s in team) for team in table(rules).teams]
                side = winning_team(rules, entry.seat)
                yield "score.rank", changed(winner=entry.seat, winning_team=side, points=points)


def _zero_zero_differs(state: State, expected: Sequence[int], shown: JSON) -> bool:
    double_blank = Tile(0, 0)
    for seat, count in enumerate(expected):
        held = double_blank in state.hand(seat) or double_blank in state.discards(seat)
        other = shown[seat] if isinstance(shown, list) and seat < len(shown) else None
        if held and other != count:
            return True
    return False
