"""Cases made to measure: the fewest hands that reach every situation cell a scope can reach.

For a scope (:mod:`gaple.conformance.vectors.scope`) the **targets** are the cells its rules can
reach (:func:`gaple.conformance.vectors.situations.unreachable_reason` inside it) less those the
cases already at hand reach. Hands are drawn inside the scope as the fuzzer draws them
(:func:`gaple.conformance.vectors.drawing.draw_hand`), one play policy after another; every other
draw is aimed at a target not yet reached (what it needs of the options and the first-hand flag).
Drawing stops when every target is reached or after a fixed number of draws, so the same scope
and seed always give the same cases. The greedy set cover then keeps the fewest hands: the one
reaching the most targets not yet kept, until none adds any.

The committed vectors hold such a set for each preset with its defaults (``tools/cover.py
--preset``, the ``measure-*`` groups of ``scenario_data/``); the runner builds one for any
other scope before a run and keeps it on disk (:func:`cached_cases`).
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs
from attrs import frozen

from gaple.conformance.vectors.cases import assemble_case
from gaple.conformance.vectors.coverage import case_cells
from gaple.conformance.vectors.drawing import POLICIES, Hand, draw_hand, play_draw, playable
from gaple.conformance.vectors.scope import Scope
from gaple.conformance.vectors.situations import Cell, all_cells, needs, unreachable_reason
from gaple.conformance.wire.bounded import json_line
from gaple.conformance.wire.files import write_atomically
from gaple.io import rules_to_json
from gaple.position import position_of
from gaple.reference.scoring import reckon
from gaple.result import result_of

__all__ = [
    "DRAWS",
    "SEED",
    "Tailored",
    "cache_folder",
    "cached_cases",
    "hand_case",
    "reachable",
    "tailor",
    "tailored_cases",
]

JSON = Any

SEED = 2026
"""The seed a scope's cases are drawn with."""

DRAWS = 3000
"""Draws at most for one scope: enough for every cell of each preset but the rarest few, and
under 10 s on a 2-core machine (the guide gives the figures)."""


@frozen
class Tailored:
    """A covering set of hands for a scope, and the targets no draw reached."""

    hands: tuple[tuple[Hand, frozenset[Cell]], ...]
    """Each hand kept, with the targets it was kept for, in the order chosen."""
    targets: frozenset[Cell]
    still_open: tuple[Cell, ...]
    """The targets no hand reached, in report order."""
    draws: int
    """How many hands were drawn."""


def _frozen(within: Mapping[str, frozenset[str]]) -> tuple[tuple[str, frozenset[str]], ...]:
    return tuple(sorted(within.items()))


def reachable(scope: Scope | None) -> tuple[Cell, ...]:
    """The cells the rules of ``scope`` (every rule when ``None``) can reach, as far as the
    facts of :mod:`gaple.conformance.vectors.situations` tell, in report order."""
    return _reachable(_frozen({} if scope is None else scope.within()))


@functools.cache
def _reachable(within: tuple[tuple[str, frozenset[str]], ...]) -> tuple[Cell, ...]:
    allowed = dict(within)
    return tuple(cell for cell in all_cells() if unreachable_reason(cell, allowed) is None)


def tailor(
    scope: Scope,
    cases: Iterable[Mapping[str, JSON]] = (),
    *,
    seed: int = SEED,
    draws: int = DRAWS,
) -> Tailored:
    """The hands that reach every cell of ``scope`` that ``cases`` inside it do not (as far as
    ``draws`` draws find them), by the greedy set cover."""
    given: set[Cell] = set()
    for case in cases:
        if scope.outside(case) is None:
            given.update(case_cells(case))
    targets = frozenset(reachable(scope)).difference(given)
    names, fixed, allowed = scope.draws()
    names = playable(names, fixed)
    within = scope.within()
    found: list[tuple[Hand, frozenset[Cell]]] = []
    left = set(targets)
    number = 0
    while left and number < draws and names:
        # Every other draw aims at the first target not yet reached (its options, its hand).
        aim = needs(min(left), within) if number % 2 else None
        draw = draw_hand(seed, number, names, fixed, aim, allowed=allowed)
        number += 1
        if draw is None or not scope.admits(draw.rules):
            continue
        hand = play_draw(attrs.evolve(draw, policy=POLICIES[number // 2 % len(POLICIES)]))
        if scope.outside({"rules": rules_to_json(hand.draw.rules), "situation": hand.situation}):
            continue
        reached = hand.cells.intersection(targets)
        if reached:
            found.append((hand, reached))
            left.difference_update(reached)
    order = {cell: n for n, cell in enumerate(all_cells())}
    return Tailored(
        _cover(found, targets), targets, tuple(sorted(left, key=order.__getitem__)), number
    )


def _cover(
    found: Sequence[tuple[Hand, frozenset[Cell]]], targets: frozenset[Cell]
) -> tuple[tuple[Hand, frozenset[Cell]], ...]:
    """The greedy set cover: the hand reaching the most targets not yet kept, until none adds
    any (ties: the earliest drawn)."""
    chosen: list[tuple[Hand, frozenset[Cell]]] = []
    left = set(targets)
    while True:
        best = max(found, key=lambda item: len(item[1].intersection(left)), default=None)
        if best is None or best[1].isdisjoint(left):
            return tuple(chosen)
        chosen.append((best[0], best[1].intersection(left)))
        left.difference_update(best[1])


def hand_case(
    hand: Hand,
    case_id: str,
    description: str,
    *,
    topic: str,
    steps: int | None = None,
    annotated: bool = True,
) -> dict[str, JSON]:
    """The drawn ``hand`` as a case (:func:`~gaple.conformance.vectors.cases.assemble_case`), cut
    after ``steps`` steps when given, with the reference's result of its end."""
    draw = hand.draw
    played = hand.played if steps is None else hand.played[:steps]
    final = played[-1].after if played else hand.start
    if final.ending is None:
        reckoning = None
    else:
        reckoning = hand.reckoning if final is hand.final else reckon(position_of(final))
    return assemble_case(
        case_id=case_id,
        topic=topic,
        description=description,
        preset=draw.preset,
        overrides=draw.changed,
        start=hand.start,
        played=played,
        result=None if reckoning is None else result_of(reckoning, worded=annotated),
        legal=hand.legal,
        situation=hand.situation if final is hand.final else None,
        annotated=annotated,
    )


def tailored_cases(scope: Scope, cases: Iterable[Mapping[str, JSON]] = ()) -> list[dict[str, JSON]]:
    """The cases made to measure for ``scope`` beside ``cases`` (IDs ``tailored-<scope key>-N``,
    topic ``tailored``)."""
    made = tailor(scope, cases)
    return [
        hand_case(
            hand,
            f"tailored-{scope.key[:8]}-{number:03d}",
            f"A hand drawn for {scope.name or 'the scope'} reaching {len(pins)} of its cells "
            "no other case reaches (made to measure by gaple conformance run).",
            topic="tailored",
        )
        for number, (hand, pins) in enumerate(made.hands, start=1)
    ]


def cache_folder() -> Path:
    """Where cases made to measure are kept: ``$GAPLE_CACHE_DIR``, else ``$XDG_CACHE_HOME/
    gaple``, else ``~/.cache/gaple``."""
    if os.environ.get("GAPLE_CACHE_DIR"):
        return Path(os.environ["GAPLE_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "gaple"


def cached_cases(
    scope: Scope, cases: Sequence[Mapping[str, JSON]], version: str
) -> list[dict[str, JSON]]:
    """:func:`tailored_cases` of ``scope`` beside ``cases``, read from the cache when a run of
    the same vector set (``version``) built them already, else built and kept there (written
    whole or not at all). A cache that cannot be read or written is passed by, never fatal."""
    digest = hashlib.sha256(json_line([version, scope.key, SEED, DRAWS])).hexdigest()[:24]
    path = cache_folder() / "tailored" / f"{digest}.json"
    try:
        kept = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(kept, list) and all(isinstance(case, dict) for case in kept):
            return kept
    except (OSError, ValueError):
        pass
    made = tailored_cases(scope, cases)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(path, json.dumps(made))
    except OSError:
        pass
    return made
