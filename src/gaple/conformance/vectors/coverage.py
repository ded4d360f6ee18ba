"""How many of the coverage cells (:mod:`gaple.conformance.vectors.situations`) the vectors reach.

Each cell is **covered** (some case reaches it: its ``situation`` and its rules), **unreachable**
(:func:`~gaple.conformance.vectors.situations.unreachable_reason` proves no hand with the presets'
deal sizes reaches it) or **open** (neither: a hole in the vectors, or a reason not yet written).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping
from itertools import combinations
from typing import Any

from attrs import frozen

from gaple.conformance.vectors.scope import Scope
from gaple.conformance.vectors.situations import (
    FEATURES,
    Cell,
    all_cells,
    cells_of,
    option_values,
    unreachable_reason,
)
from gaple.io import rules_from_json

__all__ = ["Coverage", "case_cells", "coverage", "reason"]

JSON = Any


reason = functools.cache(unreachable_reason)
""":func:`~gaple.conformance.vectors.situations.unreachable_reason`, each cell worked out once."""


@frozen
class Coverage:
    """Every cell and what the vectors do for it."""

    covered: dict[Cell, tuple[str, ...]]
    """Each covered cell and the IDs of the cases reaching it, in case order."""
    unreachable: dict[Cell, str]
    """Each cell no hand reaches, and why."""
    open: tuple[Cell, ...]
    """The cells neither covered nor proven unreachable, in report order."""
    scope: Scope | None = None
    """The scope counted in, ``None`` for every rule."""

    @property
    def reachable(self) -> int:
        """How many cells the scope's rules can reach (covered or open)."""
        return len(self.covered) + len(self.open)

    def headline(self) -> str:
        """``within pagat-4x7: 303 of 303 reachable cells covered (1,796 unreachable)``."""
        where = "every rule" if self.scope is None else self.scope.label()
        return (
            f"within {where}: {len(self.covered)} of {self.reachable} reachable cells covered, "
            f"{len(self.open)} open ({len(self.unreachable)} unreachable)"
        )

    def rows(self) -> list[tuple[str, int, int, int]]:
        """Per pair of features, then per feature and option: the group's name and its
        covered, unreachable and open cells."""
        groups = [f"{a.name} & {b.name}" for a, b in combinations(FEATURES, 2)]
        groups += [f"{f.name} @ {o}" for f in FEATURES for o in f.options]
        tally = {group: [0, 0, 0] for group in groups}
        for cell in all_cells():
            column = 0 if cell in self.covered else 1 if cell in self.unreachable else 2
            tally[_group(cell)][column] += 1
        return [(group, c, u, o) for group, (c, u, o) in tally.items()]

    def table(self, *, every_cell: bool = False) -> str:
        """The rows as text, the totals and each open cell; with ``every_cell``, also each
        cell with its cases or its reason."""
        rows = self.rows()
        width = max(len(row[0]) for row in rows)
        lines = [f"{'cells':<{width}}  covered  unreachable  open"]
        lines += [f"{g:<{width}}  {c:>7}  {u:>11}  {o:>4}" for g, c, u, o in rows]
        total = len(self.covered) + len(self.unreachable) + len(self.open)
        lines.append(
            f"{total} cells: {len(self.covered)} covered, {len(self.unreachable)} unreachable, "
            f"{len(self.open)} open"
        )
        lines.append(self.headline())
        lines += [f"open: {cell}" for cell in self.open]
        if every_cell:
            lines += [f"covered: {cell} by {', '.join(ids)}" for cell, ids in self.covered.items()]
            lines += [f"unreachable: {cell}: {why}" for cell, why in self.unreachable.items()]
        return "\n".join(lines)

    def to_json(self) -> dict[str, JSON]:
        """Every cell by status, with its cases or its reason."""
        return {
            "scope": None if self.scope is None else self.scope.label(),
            "covered": {cell: list(ids) for cell, ids in self.covered.items()},
            "unreachable": dict(self.unreachable),
            "open": list(self.open),
        }


def _group(cell: Cell) -> str:
    """The row of ``cell``: its two features, or its feature and option."""
    joint = " @ " if " @ " in cell else " & "
    first, second = cell.split(joint)
    return f"{first.split('=')[0]}{joint}{second.split('=')[0]}"


def case_cells(case: Mapping[str, JSON]) -> set[Cell]:
    """The cells a case reaches: its situation under its rules."""
    return cells_of(case["situation"], option_values(rules_from_json(case["rules"])))


def coverage(cases: Iterable[Mapping[str, JSON]], scope: Scope | None = None) -> Coverage:
    """What ``cases`` cover of every cell; with ``scope``, what the cases inside it cover of
    the cells its rules reach (every other cell is unreachable, with its reason)."""
    reached: dict[Cell, list[str]] = {}
    for case in cases:
        if scope is not None and scope.outside(case) is not None:
            continue
        for cell in case_cells(case):
            reached.setdefault(cell, []).append(case["id"])
    why = reason if scope is None else _reasons(scope)
    covered: dict[Cell, tuple[str, ...]] = {}
    unreachable: dict[Cell, str] = {}
    still_open: list[Cell] = []
    for cell in all_cells():
        if cell in reached:
            covered[cell] = tuple(reached[cell])
        elif (because := why(cell)) is not None:
            unreachable[cell] = because
        else:
            still_open.append(cell)
    return Coverage(covered, unreachable, tuple(still_open), scope)


def _reasons(scope: Scope) -> Callable[[Cell], str | None]:
    within = scope.within()
    return lambda cell: unreachable_reason(cell, within)
