"""The reference's answers about a ruleset that the engine asks on every hand, kept.

The reference, written for reading, works each answer out when asked: the seats, whether a
starter is turned up, whether a hand can be played at all. The engine asks them for every hand
it deals, so it keeps each answer by the few options the reference reads for it, as
consensus-specs adds caching where the spec is built rather than in the spec. Each function
returns exactly what its reference function returns (the tests compare them on every preset
and on drawn rulesets).
"""

from __future__ import annotations

from gaple.reference.deal import turns_up_starter as _reference_turns_up_starter
from gaple.reference.equipment import Table
from gaple.reference.equipment import table as _reference_table
from gaple.reference.opening import check_rules as _reference_check_rules
from gaple.rules import Ruleset

__all__ = ["check_rules", "table", "turns_up_starter"]

_STARTERS: dict[tuple[int, int, int], bool] = {}
_TABLES: dict[tuple[int, bool], Table] = {}
_PLAYABLE: dict[Ruleset, None] = {}
_KEPT = 16384
"""How many playable rulesets :func:`check_rules` keeps: enough for every ban of up to three
tiles of the double-six set under each lead rule (about 11,000), which the fuzzer draws; past
it the table starts again."""


def turns_up_starter(rules: Ruleset) -> bool:
    """Whether a starter is turned up, kept by set and deal sizes.

    Mirrors :func:`gaple.reference.deal.turns_up_starter`.
    """
    key = (rules.max_pip, rules.players, rules.hand_size)
    known = _STARTERS.get(key)
    if known is None:
        known = _STARTERS[key] = _reference_turns_up_starter(rules)
    return known


def table(rules: Ruleset) -> Table:
    """The seats and teams, kept by seats and partnership.

    Mirrors :func:`gaple.reference.equipment.table`.
    """
    key = (rules.players, rules.partnership)
    known = _TABLES.get(key)
    if known is None:
        known = _TABLES[key] = _reference_table(rules)
    return known


def check_rules(rules: Ruleset) -> None:
    """Refuse rules under which no hand can be played, keeping the rulesets it passed.

    Mirrors :func:`gaple.reference.opening.check_rules`.

    Raises:
        gaple.rules.InvalidRuleset: no hand can be played under ``rules``.
    """
    if rules in _PLAYABLE:
        return
    _reference_check_rules(rules)
    if len(_PLAYABLE) >= _KEPT:
        _PLAYABLE.clear()
    _PLAYABLE[rules] = None
