"""The feature tags of a conformance case: a small vocabulary to choose cases by (``-k``,
``--skip-feature``) and to declare what an engine plays (``plays.features`` in its hello).

Each tag is derived here, and only here, from a case's ``rules`` and its ``situation``
(:mod:`gaple.conformance.vectors.situations`), so a case written by any tool gets the same tags; the
vectors carry them as their informative ``features`` list. A tag names something an engine
may not implement yet (a way of play, an option, a scoring rule that the hand reaches), not
everything a case holds: a case has every tag that applies to it, and may have none.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from attrs import frozen

__all__ = ["TAGS", "Tag", "case_tags", "tags_of"]

JSON = Any


@frozen
class Tag:
    """One feature tag: its name, what it means, and the test of a case's rules and situation."""

    name: str
    about: str
    applies: Callable[[Mapping[str, JSON], Mapping[str, str]], bool]


_SETTLEMENTS = ("chips", "difference", "cumulative")

TAGS: tuple[Tag, ...] = (
    Tag(
        "partnership",
        "Partnership play: seats 0+2 against 1+3 (option partnership).",
        lambda rules, _: rules["partnership"] is True,
    ),
    Tag(
        "individual",
        "Every seat for itself (option partnership off).",
        lambda rules, _: rules["partnership"] is not True,
    ),
    Tag(
        "pass",
        "A seat that cannot place passes (option blocked_action pass).",
        lambda rules, _: rules["blocked_action"] == "pass",
    ),
    Tag(
        "discard",
        "A seat that cannot place discards a tile (option blocked_action discard).",
        lambda rules, _: rules["blocked_action"] == "discard",
    ),
    Tag(
        "starter",
        "The deal turns up a starter tile, which begins the line (deal.starter).",
        lambda _, situation: situation.get("lead") == "starter",
    ),
    Tag(
        "match",
        "A later hand of a match: led by the later_lead rule from the previous winner's seat.",
        lambda _, situation: situation.get("hand") == "later",
    ),
    Tag(
        "forbidden-lead",
        "Some tiles may not be led (option forbidden_leads not empty).",
        lambda rules, _: bool(rules["forbidden_leads"]),
    ),
    Tag(
        "double-blank-25",
        "The double blank counts 25 (option double_blank_25).",
        lambda rules, _: rules["double_blank_25"] is True,
    ),
    Tag(
        "settlements",
        "Points settled as chips, difference or cumulative (option settlement).",
        lambda rules, _: rules["settlement"] in _SETTLEMENTS,
    ),
    Tag(
        "blocked",
        "The hand ends blocked, during play or at once (end.blocked).",
        lambda _, situation: situation.get("ending") in ("blocked", "blocked-at-once"),
    ),
    Tag(
        "challenge",
        "Partnership, blocked: the blocker's challenge is scored (partner.challenge).",
        lambda _, situation: "challenge" in situation,
    ),
    Tag(
        "closing-bonus",
        "Partnership, out: a bonus is paid for the closing tile (partner.closing-double).",
        lambda _, situation: situation.get("closing-bonus", "none") != "none",
    ),
    Tag(
        "dead-double",
        "Partnership, out: a special double dies in a hand (partner.dead-double).",
        lambda _, situation: situation.get("dead-doubles", "none") != "none",
    ),
)
"""Every tag, in the order a case lists them."""


def tags_of(rules: Mapping[str, JSON], situation: Mapping[str, str]) -> list[str]:
    """The tags of a hand under ``rules`` (a case's ``rules``, in JSON form) that reached
    ``situation``, in the order of :data:`TAGS`."""
    return [tag.name for tag in TAGS if tag.applies(rules, situation)]


def case_tags(case: Mapping[str, JSON]) -> list[str]:
    """The tags of a case, from its ``rules`` and its ``situation`` (empty when it has none)."""
    return tags_of(case["rules"], case.get("situation", {}))
