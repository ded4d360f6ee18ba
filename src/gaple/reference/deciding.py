"""Which reference function decides which rule: the :func:`decides` mark and its table.

Every rule of :data:`gaple.registry.RULES` that the code decides is decided by exactly one
function of :mod:`gaple.reference`, marked ``@decides("rule.id")`` (several IDs where one
function decides them together). The table :data:`DECIDERS` is filled as the reference modules
are imported; importing :mod:`gaple.reference` imports them all. A test counts the marks, the
docs show each rule's function beside its text, and a failing conformance case names the rule:
from the case to the rule's text to its code is one step each.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from gaple.registry import RULES

__all__ = ["DECIDERS", "decided_by", "decides"]

_F = TypeVar("_F", bound=Callable[..., object])

DECIDERS: dict[str, list[Callable[..., object]]] = {}
"""For each rule ID, the reference functions marked as deciding it (exactly one, once every
reference module is imported)."""


def decides(*rule_ids: str) -> Callable[[_F], _F]:
    """Mark the decorated function as the one that decides the rules ``rule_ids``.

    Raises:
        ValueError: no rule ID is given, or one is not in :data:`gaple.registry.RULES`.
    """
    if not rule_ids:
        msg = "@decides needs at least one rule ID"
        raise ValueError(msg)
    unknown = [rule_id for rule_id in rule_ids if rule_id not in RULES]
    if unknown:
        msg = f"@decides names rule IDs that are not in the registry: {', '.join(unknown)}"
        raise ValueError(msg)

    def mark(function: _F) -> _F:
        for rule_id in rule_ids:
            DECIDERS.setdefault(rule_id, []).append(function)
        return function

    return mark


def decided_by(rule_id: str) -> Callable[..., object]:
    """The one reference function that decides ``rule_id``.

    Raises:
        KeyError: no function, or more than one, is marked as deciding it.
    """
    deciders = DECIDERS.get(rule_id, [])
    if len(deciders) != 1:
        msg = f"{rule_id} is decided by {len(deciders)} reference functions, not exactly one"
        raise KeyError(msg)
    return deciders[0]
