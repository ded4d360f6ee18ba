"""The one place where the reference's tiles become the engine's :class:`~gaple.state.State`.

The reference reads a state only through its tile-level views (:meth:`State.hand`,
:meth:`State.discards`, :attr:`State.ends`, :attr:`State.line`) and builds the next state here,
so that its bitset fields are written in one function and nowhere else.
"""

from __future__ import annotations

from gaple.deal import Deal
from gaple.reference.line import Line
from gaple.rules import Ruleset
from gaple.state import Action, Ending, State
from gaple.tiles import Tile, tile_set

__all__ = ["state_of"]


def state_of(
    rules: Ruleset,
    deal: Deal,
    *,
    first_hand: bool,
    opener: int,
    hands: tuple[tuple[Tile, ...], ...],
    discards: tuple[tuple[Tile, ...], ...],
    line: Line,
    to_act: int | None,
    history: tuple[Action, ...],
    ending: Ending | None,
) -> State:
    """The :class:`~gaple.state.State` of a hand given tile by tile."""
    full = tile_set(rules.max_pip)
    return State(
        rules=rules,
        deal=deal,
        first_hand=first_hand,
        opener=opener,
        hand_masks=tuple(full.mask(hand) for hand in hands),
        discard_masks=tuple(full.mask(tiles) for tiles in discards),
        line=line,
        line_mask=full.mask(Tile(left, right) for left, right in line),
        to_act=to_act,
        history=history,
        ending=ending,
    )
