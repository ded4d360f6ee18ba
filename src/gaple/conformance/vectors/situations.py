"""The situations a hand can reach, named as features with values, read from the reference's
facts; and the cells of combinations the conformance vectors must reach.

A **feature** is one question about a played hand (how did it end? what became of the top
double?), its **value** the reference's answer (:func:`features_of`). A hand reaches one value
of each feature that applies to it. Defects in real engines hide in combinations, so coverage
is counted in **cells**:

* a *pair* cell: two values of two features reached by the same hand;
* an *option* cell: a value of a feature reached under one value of an option that can change
  what the rules decide in that situation (:attr:`Feature.options`).

A cell no hand can reach has its reason from :func:`unreachable_reason`; the tests check each
reason against every hand they play (a witness of an "unreachable" cell fails them).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from itertools import combinations

from attrs import frozen

from gaple.position import position_of
from gaple.reference.counting import SeatCount
from gaple.reference.deal import turns_up_starter
from gaple.reference.opening import banned, lead_rule
from gaple.reference.partnership import Fate, Keeper, PartnershipScore, Spot
from gaple.reference.scoring import Reckoning, reckon
from gaple.rules import Ruleset
from gaple.state import Discard, Ending, Lead, Move, State, legal_moves, new_hand
from gaple.tiles import Tile

__all__ = [
    "ABSENT",
    "FEATURES",
    "IMPLICATIONS",
    "OPTIONS",
    "Cell",
    "Feature",
    "Implies",
    "all_cells",
    "broken_fact",
    "cells_of",
    "features_of",
    "needs",
    "option_label",
    "option_values",
    "unreachable_reason",
    "value_key",
]

Situation = dict[str, str]
"""A hand's value of each feature that applies to it."""


@frozen
class Feature:
    """One question about a played hand, its possible answers, and the options that can change
    what the rules decide when it has each answer."""

    name: str
    values: tuple[str, ...]
    options: tuple[str, ...]
    """The options that interact with it (an option cell per value of each)."""
    about: str
    """The question, in one sentence."""


_DOUBLE_PLACES = (
    "played",
    "discarded",
    "set-aside",
    "held",
    "held-dead",
    "held-by-winners",
    "held-blocked",
    "held-alive-open-end",
    "held-kept-by-hand",
    "held-kept-by-discard",
    "held-kept-by-set-aside",
)
"""Where a special double ended and, held under partnership scoring, its fate."""

FEATURES: tuple[Feature, ...] = (
    Feature(
        "ending",
        ("out-placing", "out-discarding", "blocked", "blocked-at-once"),
        ("blocked_action", "settlement", "players"),
        "How the hand ended: a seat out by placing or by discarding its last tile, blocked "
        "during play, or blocked by the turned-up starter before any move (end.out, "
        "end.blocked).",
    ),
    Feature(
        "last-tile",
        ("top-double", "double-blank", "other-double", "plain"),
        ("closing_any_double", "top_double_bonus", "blank_double_bonus", "settlement"),
        "The kind of the hand's last tile, placed or discarded (partner.closing-double).",
    ),
    Feature(
        "last-move",
        ("lead", "place", "discard"),
        ("blocked_action", "closing_any_double", "settlement"),
        "What the last move of the hand was (block.discard, end.out).",
    ),
    Feature(
        "challenge",
        ("won", "lost", "tied"),
        ("challenge_tie", "challenge_win_base", "challenge_loss_base", "blocked_action"),
        "Partnership, blocked: the blocker against the next seat (partner.challenge, "
        "partner.challenge-tie).",
    ),
    Feature(
        "challenge-counts",
        ("as-pips", "with-blank-25"),
        ("double_blank_25", "challenge_tie"),
        "Partnership, blocked: whether the two counts of the challenge are their pips, or one "
        "holds a 0-0 counted 25, so that counts and pips tie differently "
        "(partner.challenge-tie, score.double-blank-25).",
    ),
    Feature(
        "top-double",
        _DOUBLE_PLACES,
        ("dead_double_debit", "top_double_bonus", "blocked_action"),
        "Where the top double (N-N) ended and, under partnership scoring, its fate "
        "(partner.dead-double): held alone means no fate applies (individual scoring).",
    ),
    Feature(
        "blank-double",
        _DOUBLE_PLACES,
        ("dead_double_debit", "blank_double_bonus", "double_blank_25", "blocked_action"),
        "The same for the double blank (0-0).",
    ),
    Feature(
        "dead-doubles",
        ("none", "one", "two-one-seat", "two-seats"),
        ("dead_double_debit",),
        "Partnership, out: how many special doubles died, and whether one seat held both "
        "(partner.dead-double).",
    ),
    Feature(
        "closing-bonus",
        ("top-double", "double-blank", "other-double", "none"),
        ("closing_any_double", "top_double_bonus", "blank_double_bonus", "dead_double_debit"),
        "Partnership, out: the bonus paid for the closing tile (partner.closing-double).",
    ),
    Feature(
        "lowest",
        ("alone", "tie-by-pips", "tie-by-low-end", "tie-by-no-tiles"),
        ("settlement", "double_blank_25", "blocked_action"),
        "Whether the lowest count was shared and what broke the tie (score.rank).",
    ),
    Feature(
        "double-blank-25",
        ("counted-25", "counted-0"),
        ("settlement", "blocked_action"),
        "Under the double-blank option, a 0-0 in a count: 25, or 0 beside another blank "
        "(score.double-blank-25).",
    ),
    Feature(
        "lead",
        ("double-blank", "double", "any-tile", "starter"),
        ("forbidden_leads",),
        "The rule that chose the hand's first tile (open.*, deal.starter).",
    ),
    Feature(
        "forbidden-lead",
        ("refused", "moved-the-lead", "none"),
        ("first_lead", "later_lead"),
        "A lead ban that mattered: a banned lead refused, or the ban changed who leads or "
        "what may be led (open.forbidden).",
    ),
    Feature(
        "hand",
        ("first", "later"),
        ("first_lead", "later_lead"),
        "The first hand of a match or a later one (open.double-blank, open.double).",
    ),
)
"""Every feature, in report order."""

# --- options --------------------------------------------------------------------------------


def _bucket(value: object) -> str:
    """An option value as a cell label: enums by value, booleans as words, tile sets as
    empty or not, numbers as zero or more (their size changes points, not paths)."""
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, frozenset):
        return "some" if value else "none"
    if value is None:
        return "none"
    if isinstance(value, int):
        return "0" if value == 0 else "more"
    return str(getattr(value, "value", value))


OPTIONS: dict[str, tuple[str, ...]] = {
    "players": ("4", "other"),
    "blocked_action": ("pass", "discard"),
    "settlement": ("per-hand", "chips", "difference", "cumulative", "partnership"),
    "closing_any_double": ("on", "off"),
    "top_double_bonus": ("0", "more"),
    "blank_double_bonus": ("0", "more"),
    "dead_double_debit": ("on", "off"),
    "double_blank_25": ("on", "off"),
    "challenge_tie": ("replay", "blocker-loses"),
    "challenge_win_base": ("all", "blocker-pair", "other-pair"),
    "challenge_loss_base": ("all", "blocker-pair", "other-pair"),
    "forbidden_leads": ("none", "some"),
    "first_lead": ("double-blank", "double", "any-tile"),
    "later_lead": ("double-blank", "double", "any-tile"),
    # Not an option but what the deal sizes decide; no feature's cells use it, but a scope
    # (one preset's rules) narrows by it: a hand without a starter never leads one.
    "has_starter": ("on", "off"),
}
"""Each option a feature interacts with, and its labels (:func:`option_values`)."""


def option_values(rules: Ruleset) -> dict[str, str]:
    """The label of each option of :data:`OPTIONS` under ``rules``; the number of seats is
    4 (pairs possible) or other, and ``has_starter`` is the rule's
    (:func:`~gaple.reference.deal.turns_up_starter`)."""
    return {
        name: option_label(
            name, turns_up_starter(rules) if name == "has_starter" else getattr(rules, name)
        )
        for name in OPTIONS
    }


def option_label(name: str, value: object) -> str:
    """The label of ``value`` of option ``name`` (a name of :data:`OPTIONS`)."""
    if name == "players":
        return "4" if value == 4 else "other"
    return _bucket(value)


# --- what a hand reached --------------------------------------------------------------------


def features_of(
    start: State,
    final: State,
    refused: Iterable[tuple[Move, str]] = (),
    reckoning: Reckoning | None = None,
) -> Situation:
    """The value of each feature the hand from ``start`` to ``final`` reached; ``refused`` are
    the moves the hand's steps tried that the rules refused, each with the error code, and
    ``reckoning`` the reference's reckoning of ``final`` when the caller has it. An unfinished
    hand has only the features of its lead."""
    rules = final.rules
    found: Situation = {"hand": "first" if start.first_hand else "later"}
    found["lead"] = (
        "starter"
        if turns_up_starter(rules)
        else lead_rule(rules, first_hand=start.first_hand).value
    )
    found["forbidden-lead"] = _forbidden_lead(start, refused)
    if final.ending is None:
        return found
    if reckoning is None:
        reckoning = reckon(position_of(final))
    found["ending"] = _ending(start, final)
    if final.history:
        last = final.history[-1].move
        tile: Tile = last.tile  # type: ignore[union-attr]  # the last move placed or discarded
        found["last-move"] = "lead" if isinstance(last, Lead) else _move_kind(last)
        found["last-tile"] = _kind(rules, tile)
    found["lowest"] = _lowest(reckoning)
    for count in reckoning.counts:
        if count.blank_double is not None:
            other = count.blank_double.other_blanks
            found["double-blank-25"] = "counted-0" if other else "counted-25"
    found.update(_doubles(reckoning))
    if reckoning.partnership is not None:
        found.update(_partnership(rules, reckoning.partnership, reckoning.counts))
    return found


def _move_kind(move: Move) -> str:
    return "discard" if isinstance(move, Discard) else "place"


def _ending(start: State, final: State) -> str:
    if start.ending is Ending.BLOCKED:
        return "blocked-at-once"
    if final.ending is Ending.BLOCKED:
        return "blocked"
    return "out-discarding" if isinstance(final.history[-1].move, Discard) else "out-placing"


def _kind(rules: Ruleset, tile: Tile) -> str:
    if tile == Tile(rules.max_pip, rules.max_pip):
        return "top-double"
    if tile == Tile(0, 0):
        return "double-blank"
    return "other-double" if tile.is_double else "plain"


def _lowest(reckoning: Reckoning) -> str:
    best, second = reckoning.ranking[:2]
    if best.count != second.count:
        return "alone"
    if best.lowest is None or second.lowest is None:
        return "tie-by-no-tiles"
    return "tie-by-pips" if best.lowest.pips != second.lowest.pips else "tie-by-low-end"


def _forbidden_lead(start: State, refused: Iterable[tuple[Move, str]]) -> str:
    rules = start.rules
    refusals = [m.tile for m, code in refused if isinstance(m, Lead) and code == "illegal-lead"]
    if any(banned(rules, tile) for tile in refusals):
        return "refused"
    if rules.forbidden_leads and start.ends is None:
        free = new_hand(
            rules.replace(forbidden_leads=frozenset()), start.deal, first_hand=start.first_hand
        )
        if (free.to_act, set(legal_moves(free))) != (start.to_act, set(legal_moves(start))):
            return "moved-the-lead"
    return "none"


_FATES = {
    Fate.DEAD: "held-dead",
    Fate.OWN_PAIR_OUT: "held-by-winners",
    Fate.BLOCKED_HAND: "held-blocked",
    Fate.OPEN_END: "held-alive-open-end",
}


def _doubles(reckoning: Reckoning) -> Situation:
    """Where each special double ended; under partnership scoring, its fate as decided."""
    pos = reckoning.position
    top = Tile(pos.rules.max_pip, pos.rules.max_pip)
    found: Situation = {}
    for name, tile in (("top-double", top), ("blank-double", Tile(0, 0))):
        if tile in pos.line:
            found[name] = "played"
        elif tile in pos.set_aside:
            found[name] = "set-aside"
        elif any(tile in d for d in pos.discards):
            found[name] = "discarded"
        else:
            found[name] = "held"
    if reckoning.partnership is not None:
        for fate in reckoning.partnership.fates:
            name = "top-double" if fate.tile == top else "blank-double"
            if fate.discarded:  # where it lies says more than why it did not die
                found[name] = "discarded"
            else:
                found[name] = _FATES.get(fate.fate) or _kept_by(fate.keepers)
    return found


def _kept_by(keepers: Sequence[Keeper]) -> str:
    """A double kept alive by tiles of its number off the line: by a hand if one is in a hand,
    else by a discard if one is discarded, else by the undealt tiles."""
    spots = {keeper.spot for keeper in keepers}
    if Spot.HAND in spots:
        return "held-kept-by-hand"
    return "held-kept-by-discard" if Spot.DISCARDED in spots else "held-kept-by-set-aside"


def _partnership(rules: Ruleset, score: PartnershipScore, counts: Sequence[SeatCount]) -> Situation:
    found: Situation = {}
    if score.challenge is not None:
        challenge = score.challenge
        if challenge.tie is not None:
            found["challenge"] = "tied"
        else:
            found["challenge"] = "won" if challenge.blocker_won else "lost"
        seats = (counts[challenge.blocker], counts[challenge.rival])
        priced = any(s.blank_double is not None and not s.blank_double.other_blanks for s in seats)
        found["challenge-counts"] = "with-blank-25" if priced else "as-pips"
    if score.out is not None:
        dead = [fate for fate in score.fates if fate.dead]
        if len(dead) == 2:
            found["dead-doubles"] = "two-one-seat" if dead[0].seat == dead[1].seat else "two-seats"
        else:
            found["dead-doubles"] = ("none", "one")[len(dead)]
        closing = score.out.closing
        found["closing-bonus"] = "none" if closing is None else _kind(rules, closing.tile)
    return found


# --- cells -----------------------------------------------------------------------------------

Cell = str
"""A cell's name: ``"F=v & G=w"`` for a pair, ``"F=v @ option=label"`` for an option cell."""


def value_key(name: str, value: str) -> str:
    """How a feature value is named in cells and counts: ``"ending=blocked"``."""
    return f"{name}={value}"


def _pair_cell(a: Feature, x: str, b: Feature, y: str) -> Cell:
    return f"{value_key(a.name, x)} & {value_key(b.name, y)}"


def _option_cell(feature: Feature, value: str, option: str, label: str) -> Cell:
    return f"{value_key(feature.name, value)} @ {option}={label}"


def cells_of(situation: Mapping[str, str], options: Mapping[str, str]) -> set[Cell]:
    """The cells a hand with ``situation`` reached under rules labelled ``options``
    (:func:`option_values`): each pair of its feature values, and each value with the label
    of each option its feature interacts with."""
    # Read from tables of the cells' names, not written anew: a fuzz run asks after every hand.
    values = sorted([_VALUE_INDEX[item] for item in situation.items()])
    cells = {_PAIR_CELLS[v][w] for v, w in combinations(values, 2)}
    for v in values:
        cells.update([named[options[option]] for option, named in _OPTION_CELLS[v]])
    return cells


_VALUES = [(feature, value) for feature in FEATURES for value in feature.values]
"""Every feature value, in report order."""
_VALUE_INDEX = {(feature.name, value): i for i, (feature, value) in enumerate(_VALUES)}
_PAIR_CELLS = [[_pair_cell(a, x, b, y) for b, y in _VALUES] for a, x in _VALUES]
"""The pair cell of values v and w (v first in report order) at [v][w]."""
_OPTION_CELLS = [
    [(o, {label: _option_cell(f, v, o, label) for label in OPTIONS[o]}) for o in f.options]
    for f, v in _VALUES
]
"""For value v, each option its feature interacts with, and the cell of each label."""


def all_cells() -> list[Cell]:
    """Every cell, reachable or not, in report order: the pairs, then the option cells."""
    pairs = [
        _pair_cell(a, x, b, y)
        for a, b in combinations(FEATURES, 2)
        for x in a.values
        for y in b.values
    ]
    options = [
        _option_cell(f, v, o, label)
        for f in FEATURES
        for v in f.values
        for o in f.options
        for label in OPTIONS[o]
    ]
    return pairs + options


# --- unreachable cells ---------------------------------------------------------------------

ABSENT = "absent"
"""The value of a feature that does not apply to a hand (a challenge in a hand someone went
out of); never part of a cell, but what some values rule out."""

_ALWAYS = frozenset({"hand", "lead", "forbidden-lead"})
"""The features every hand has a value of (:func:`features_of`)."""

_DOMAINS: dict[str, frozenset[str]] = {
    **{f.name: frozenset((*f.values, *([] if f.name in _ALWAYS else [ABSENT]))) for f in FEATURES},
    **{name: frozenset(labels) for name, labels in OPTIONS.items()},
}


@frozen
class Implies:
    """A fact of the rules (or of the presets' deal sizes, which the sources give): when each
    name of ``when`` has one of its values, ``then`` has one of ``among``."""

    when: tuple[tuple[str, frozenset[str]], ...]
    then: str
    among: frozenset[str]
    reason: str


def _implies(when: str, then: str, reason: str) -> Implies:
    """``when`` as ``"name=v|w, name=v"``, ``then`` as ``"name=v|w"`` (``!`` before the values
    for all but these)."""

    def values(name: str, text: str) -> frozenset[str]:
        if text == "*":
            return _DOMAINS[name].difference({ABSENT})
        if text.startswith("!"):
            return _DOMAINS[name].difference(text[1:].split("|"))
        return frozenset(text.split("|"))

    conditions = [part.strip().split("=") for part in when.split(",")]
    name, text = then.split("=")
    return Implies(
        tuple((n, values(n, v)) for n, v in conditions), name, values(name, text), reason
    )


_OUT = "out-placing|out-discarding"
_BLOCKED = "blocked|blocked-at-once"
_INDIVIDUAL = "per-hand|chips|difference|cumulative"
_FATES_AFTER_OUT = (
    "held-dead|held-by-winners|held-alive-open-end|held-kept-by-hand|held-kept-by-discard"
    "|held-kept-by-set-aside"
)
_FATED = f"{_FATES_AFTER_OUT}|held-blocked"
_IN_A_COUNT = f"held|discarded|{_FATED}"

NO_MOVE = "a hand its starter blocks at once has no move"
ONLY_PAIRS = "only partnership scoring reckons challenges, closing bonuses and doubles' fates"
ONLY_BLOCKED = "a challenge settles a blocked hand, never one a seat went out of"
ONLY_OUT = "dead doubles and the closing bonus are scored when a seat goes out, never when blocked"
DISCARDS = "only the discard option discards a tile"
ASIDE = "tiles are set aside only in the presets that turn up a starter (4 x 6, 5 x 5)"
WORTH = "a special double has a fate and a closing value only when its option's value is not 0"


def _double_facts(feature: str, bonus: str, tile: str) -> list[Implies]:
    """What follows from where a special double ended (``feature``), valued by ``bonus``."""
    return [
        _implies(f"{feature}=discarded|held-kept-by-discard", "blocked_action=discard", DISCARDS),
        _implies(f"{feature}=set-aside|held-kept-by-set-aside", "lead=starter", ASIDE),
        _implies(f"{feature}={_FATED}", "settlement=partnership", ONLY_PAIRS),
        _implies(f"{feature}={_FATED}", f"{bonus}=more", WORTH),
        _implies(f"settlement={_INDIVIDUAL}", f"{feature}=!{_FATED}", ONLY_PAIRS),
        _implies(f"{bonus}=0", f"{feature}=!{_FATED}", WORTH),
        _implies(
            f"{feature}=held-blocked", f"ending={_BLOCKED}", "no double dies in a blocked hand"
        ),
        _implies(f"{feature}={_FATES_AFTER_OUT}", f"ending={_OUT}", ONLY_OUT),
        _implies(
            f"settlement=partnership, {bonus}=more",
            f"{feature}=!held",
            "under partnership scoring every held special double with a value has a fate",
        ),
        _implies(
            f"{feature}=set-aside|held|{_FATED}",
            f"last-tile=!{tile}",
            f"the last tile was placed or discarded, so a {tile} held or set aside is not it",
        ),
        _implies(
            f"last-tile={tile}, last-move=place",
            f"{feature}=played",
            "the last tile placed is in the line",
        ),
        _implies(
            f"last-tile={tile}, last-move=discard",
            f"{feature}=discarded|{_FATED}",
            "the last tile discarded lies among its seat's discards",
        ),
    ]


IMPLICATIONS: tuple[Implies, ...] = (
    _implies("ending=blocked-at-once", "last-move=absent", NO_MOVE),
    _implies("ending=blocked-at-once", "last-tile=absent", NO_MOVE),
    _implies(
        "ending=blocked",
        "last-move=place|lead",
        "a pass or a discard never blocks a hand: only a tile put down does (end.blocked)",
    ),
    _implies("ending=out-placing", "last-move=place", "going out by placing ends on a placement"),
    _implies("ending=out-discarding", "last-move=discard", "going out by discarding ends on one"),
    _implies("last-move=place", "ending=out-placing|blocked", "a placement ends no other way"),
    _implies(
        "last-move=discard",
        "ending=out-discarding",
        "a discard ends a hand only by emptying its seat's hand (end.blocked, end.out)",
    ),
    _implies("last-move=discard", "blocked_action=discard", DISCARDS),
    _implies("ending=out-discarding", "blocked_action=discard", DISCARDS),
    _implies("challenge=*", f"ending={_BLOCKED}", ONLY_BLOCKED),
    _implies("challenge=*", "settlement=partnership", ONLY_PAIRS),
    _implies(f"ending={_OUT}", "challenge=absent", ONLY_BLOCKED),
    _implies("challenge=*", "challenge-counts=as-pips|with-blank-25", "a challenge has counts"),
    _implies("challenge=absent", "challenge-counts=absent", "no challenge, no counts of one"),
    _implies("challenge-counts=*", "challenge=won|lost|tied", "they are a challenge's counts"),
    _implies(
        "challenge-counts=with-blank-25",
        "double-blank-25=counted-25",
        "it is a 0-0 counted 25 under the option",
    ),
    _implies("double_blank_25=off", "challenge-counts=as-pips|absent", "the option prices 0-0"),
    _implies(f"settlement={_INDIVIDUAL}", "challenge=absent", ONLY_PAIRS),
    _implies(f"settlement={_INDIVIDUAL}", "dead-doubles=absent", ONLY_PAIRS),
    _implies(f"settlement={_INDIVIDUAL}", "closing-bonus=absent", ONLY_PAIRS),
    _implies("players=other", "settlement=!partnership", "pairs need four seats"),
    _implies(
        "players=other",
        "lead=starter",
        "the only preset of other than four seats (5 x 5) turns up a starter",
    ),
    _implies("dead-doubles=*", f"ending={_OUT}", ONLY_OUT),
    _implies("closing-bonus=*", f"ending={_OUT}", ONLY_OUT),
    _implies("dead-doubles=*", "settlement=partnership", ONLY_PAIRS),
    _implies("closing-bonus=*", "settlement=partnership", ONLY_PAIRS),
    _implies(f"ending={_BLOCKED}", "dead-doubles=absent", ONLY_OUT),
    _implies(f"ending={_BLOCKED}", "closing-bonus=absent", ONLY_OUT),
    _implies("dead-doubles=none", "top-double=!held-dead", "a dead double is counted"),
    _implies("dead-doubles=none", "blank-double=!held-dead", "a dead double is counted"),
    _implies("dead-doubles=two-one-seat|two-seats", "top-double=held-dead", "two are both"),
    _implies("dead-doubles=two-one-seat|two-seats", "blank-double=held-dead", "two are both"),
    _implies("top-double=held-dead", "dead-doubles=one|two-one-seat|two-seats", "it is counted"),
    _implies("blank-double=held-dead", "dead-doubles=one|two-one-seat|two-seats", "it is counted"),
    *_double_facts("top-double", "top_double_bonus", "top-double"),
    *_double_facts("blank-double", "blank_double_bonus", "double-blank"),
    _implies(
        "closing-bonus=top-double",
        "last-tile=top-double",
        "the closing bonus is paid for the last tile placed",
    ),
    _implies("closing-bonus=double-blank", "last-tile=double-blank", "the same"),
    _implies("closing-bonus=other-double", "last-tile=other-double", "the same"),
    _implies(
        "closing-bonus=top-double|double-blank|other-double", "ending=out-placing", "the same"
    ),
    _implies("ending=out-discarding", "closing-bonus=none|absent", "a discard earns no bonus"),
    *(
        _implies(
            f"last-tile={tile}, ending=out-placing, settlement=partnership, {worth}",
            f"closing-bonus={tile}",
            "a double with a value that closes the hand by placing earns its bonus",
        )
        for tile, worth in (
            ("top-double", "top_double_bonus=more"),
            ("double-blank", "closing_any_double=off, blank_double_bonus=more"),
            ("double-blank", "closing_any_double=on, top_double_bonus=more"),
            ("other-double", "closing_any_double=on, top_double_bonus=more"),
        )
    ),
    _implies("last-tile=plain", "closing-bonus=none|absent", "only a double earns one"),
    _implies("closing-bonus=other-double", "closing_any_double=on", "only the house rule pays it"),
    _implies("closing-bonus=other-double", "top_double_bonus=more", "it pays N-N's value"),
    _implies("closing-bonus=top-double", "top_double_bonus=more", WORTH),
    _implies(
        "closing-bonus=double-blank, closing_any_double=off",
        "blank_double_bonus=more",
        WORTH + " (the house rule pays 0-0 the top double's value)",
    ),
    _implies(
        "double-blank-25=*",
        "blank-double=held|discarded|" + _FATED,
        "only a 0-0 in a seat's count is counted",
    ),
    _implies("double-blank-25=*", "double_blank_25=on", "it is the option's count"),
    _implies("double_blank_25=off", "double-blank-25=absent", "it is the option's count"),
    _implies(
        "lowest=tie-by-no-tiles",
        "ending=out-placing",
        "a seat with no tiles, hand or discards, went out by placing: one that went out by "
        "discarding keeps its discards in its count",
    ),
    _implies(
        "blank-double=held-dead",
        "double-blank-25=counted-25|absent",
        "a dead 0-0 has every other blank in the line, so none beside it in a count",
    ),
    _implies(
        "double-blank-25=counted-0",
        "blank-double=!held-dead|held-kept-by-set-aside",
        "the blank beside 0-0 in its holder's count keeps it alive, from a hand or a discard",
    ),
    _implies(
        "lead=double-blank",
        "forbidden-lead=!moved-the-lead",
        "under the double-blank rule only 0-0 opens, its holder leads it, and a ban of 0-0 "
        "leaves nothing to lead: a ban moves nothing",
    ),
    _implies(
        "lowest=tie-by-no-tiles",
        f"blank-double=held|{_FATED}",
        "a seat with tiles counts 0 only when 0-0 is all it has, and in its hand: with 0-0 "
        "discarded its hand was empty, so it had gone out first",
    ),
    _implies(
        "lowest=tie-by-no-tiles",
        "dead-doubles=!two-one-seat",
        "the seat counting 0 holds 0-0 alone, so no seat holds both doubles",
    ),
    _implies(
        "lowest=tie-by-no-tiles",
        "double_blank_25=off",
        "under the double-blank option a lone 0-0 counts 25, not 0",
    ),
    _implies(
        "dead-doubles=two-one-seat",
        "blocked_action=pass",
        "under the discard option every turn takes a tile from the seat acting, so the seat "
        "that acts first goes out first and leaves each other seat one tile in hand, too few "
        "to hold both doubles dead (a discarded double never dies)",
    ),
    _implies(
        f"blocked_action=pass, ending={_OUT}",
        "lowest=alone|tie-by-no-tiles",
        "under the pass option the seat that went out has neither tiles nor discards, so it "
        "counts 0 and ranks first, and any seat tying it counts 0 too: the tie is one of no "
        "tiles",
    ),
    _implies(
        "lead=double-blank",
        "blank-double=played|absent",
        "under the double-blank lead rule every tile is dealt and 0-0 is led first",
    ),
    _implies(
        "lead=double-blank",
        "last-tile=!double-blank",
        "0-0, led first, is not the last tile: a lead never ends a hand",
    ),
    _implies("forbidden-lead=refused|moved-the-lead", "forbidden_leads=some", "a ban matters"),
    _implies(
        "forbidden-lead=refused|moved-the-lead",
        "lead=!starter",
        "a turned-up starter is never led, so no ban applies to it",
    ),
    _implies("forbidden_leads=none", "forbidden-lead=none", "no ban, nothing refused"),
    _implies("has_starter=on", "lead=starter", "a turned-up starter begins the line"),
    _implies("has_starter=off", "lead=!starter", "without a starter a seat leads"),
    _implies("lead=starter", "has_starter=on", "only a starter is a starter's lead"),
    _implies("lead=double-blank|double|any-tile, hand=first", "first_lead=*", "by definition"),
    *(
        _implies(
            f"hand={hand}, {option}={rule}, has_starter=off", f"lead={rule}", "the rule in force"
        )
        for hand, option in (("first", "first_lead"), ("later", "later_lead"))
        for rule in ("double-blank", "double", "any-tile")
    ),
    _implies("lead=double-blank, hand=first", "first_lead=double-blank", "the rule in force"),
    _implies("lead=double, hand=first", "first_lead=double", "the rule in force"),
    _implies("lead=any-tile, hand=first", "first_lead=any-tile", "the rule in force"),
    _implies("lead=double-blank, hand=later", "later_lead=double-blank", "the rule in force"),
    _implies("lead=double, hand=later", "later_lead=double", "the rule in force"),
    _implies("lead=any-tile, hand=later", "later_lead=any-tile", "the rule in force"),
    _implies(
        "ending=*",
        "ending=!blocked-at-once",
        "a starter blocks at once only when every other tile of its numbers is set aside: six "
        "at least, and the presets set at most three aside beside it",
    ),
    _implies(
        "last-move=*",
        "last-move=!lead",
        "a lead never ends a hand: at least six other tiles share a number with it and the "
        "presets set at most four aside",
    ),
)
"""Every fact :func:`unreachable_reason` reasons from; each is checked against every hand
the tests play (a hand that breaks one fails them)."""


Within = Mapping[str, frozenset[str]]
"""What a scope plays (:mod:`gaple.conformance.vectors.scope`): for some options and features, the
labels or values its rules allow; the others keep every one."""


def outside_reason(name: str, values: Iterable[str]) -> str:
    """Why a cell lies outside a scope that allows only ``values`` of ``name``."""
    shown = ", ".join(sorted(values)) or "no value"
    return f"outside the scope: its rules give {name} only {shown}"


def _narrowed(
    fixed: Mapping[str, str], within: Within | None = None
) -> tuple[dict[str, frozenset[str]], dict[str, str]]:
    """The values each feature and option can still have when those of ``fixed`` hold inside
    the scope ``within`` (every rule when ``None``), and the reason that narrowed each (the
    facts applied until nothing changes)."""
    allowed = dict(_DOMAINS)
    why: dict[str, str] = {}
    for name, values in (within or {}).items():
        allowed[name] = allowed[name].intersection(values)
        why[name] = outside_reason(name, values.difference({ABSENT}))
    for name, value in fixed.items():
        allowed[name] = allowed[name].intersection({value})
    changed = True
    while changed:
        changed = False
        for fact in IMPLICATIONS:
            narrowing = _consequence(fact, allowed)
            if narrowing is not None:
                name, narrower = narrowing
                allowed[name] = narrower
                why[name] = fact.reason
                changed = True
    return allowed, why


def _consequence(
    fact: Implies, allowed: Mapping[str, frozenset[str]]
) -> tuple[str, frozenset[str]] | None:
    """What ``fact`` narrows when the values still ``allowed`` meet it, or ``None``: its
    ``then`` when every condition holds, or, read backwards, the one condition left open when
    its ``then`` cannot hold and every other condition does."""
    held = [allowed[name] <= values for name, values in fact.when]
    if all(held):
        narrower = allowed[fact.then].intersection(fact.among)
        return None if narrower == allowed[fact.then] else (fact.then, narrower)
    if not allowed[fact.then].isdisjoint(fact.among) or held.count(False) != 1:
        return None
    name, values = fact.when[held.index(False)]
    narrower = allowed[name].difference(values)
    return None if narrower == allowed[name] else (name, narrower)


def _parts(cell: Cell) -> tuple[tuple[str, str], tuple[str, str]]:
    first, _, second = cell.replace(" @ ", " & ").partition(" & ")
    a, x = first.split("=")
    b, y = second.split("=")
    return (a, x), (b, y)


def unreachable_reason(cell: Cell, within: Within | None = None) -> str | None:
    """Why no hand reaches ``cell`` (with the presets' deal sizes) inside the scope
    ``within`` (every rule when ``None``), or ``None`` when the facts of
    :data:`IMPLICATIONS` do not rule it out."""
    (a, x), (b, y) = _parts(cell)
    allowed, why = _narrowed({a: x, b: y}, within)
    for name in (b, a, *allowed):
        if not allowed[name]:
            return why[name]
    return None


def needs(cell: Cell, within: Within | None = None) -> dict[str, frozenset[str]]:
    """What a hand must have to reach ``cell`` inside the scope ``within``, as far as the
    facts of :data:`IMPLICATIONS` tell: each feature or option they narrow, with the values
    left to it (how the fuzzer aims its draws at the cells a run has not reached)."""
    (a, x), (b, y) = _parts(cell)
    allowed, _ = _narrowed({a: x, b: y}, within)
    return {name: values for name, values in allowed.items() if values != _DOMAINS[name]}


def broken_fact(situation: Mapping[str, str], options: Mapping[str, str]) -> Implies | None:
    """The first fact of :data:`IMPLICATIONS` a hand with ``situation`` under rules labelled
    ``options`` breaks (a fact shown false), or ``None``: how the tests check every fact
    against every hand they play."""
    values = {**{f.name: situation.get(f.name, ABSENT) for f in FEATURES}, **options}
    for fact in IMPLICATIONS:
        holds = all(values[name] in among for name, among in fact.when)
        if holds and values[fact.then] not in fact.among:
            return fact
    return None
