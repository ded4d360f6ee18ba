"""End of hand: a seat goes out, or nobody can place, and then nothing more is accepted.

Rules ``end.out``, ``end.blocked`` and ``end.final``, and the blocker a blocked hand names.
"""

from __future__ import annotations

from collections.abc import Sequence

from gaple.hand import Discard, Ending, Lead, Move, Pass, Place, State
from gaple.reference.deciding import decides
from gaple.reference.equipment import table
from gaple.reference.line import Ends, playable
from gaple.tiles import Tile

__all__ = ["blocker", "blocks", "ending_after", "gone_out", "hand_over"]


@decides("end.out")
def gone_out(hand: Sequence[Tile]) -> bool:
    """A seat with no tiles left has gone out (poldan), whether it placed or discarded its
    last tile, and the hand ends at once (SUWIKI, PAGAT, CHIPS, DOMINO4D)."""
    return not hand


@decides("end.blocked")
def blocks(last: Move | None, hands: Sequence[Sequence[Tile]], ends: Ends) -> bool:
    """The hand is blocked (gapléh) when, just after a tile was put down (a lead, a placement,
    or the turned-up starter, ``last`` being ``None``), no seat that still holds tiles can place
    one; a pass or a discard never blocks it (SUWIKI, PAGAT, DOMINO4D, BLOCK100)."""
    if isinstance(last, Pass | Discard):
        return False
    return not any(playable(hand, ends) for hand in hands)


@decides("end.final")
def hand_over(state: State) -> bool:
    """Once the hand has ended, no further action is accepted."""
    return state.ending is not None


def ending_after(
    move: Move, mover: Sequence[Tile], hands: Sequence[Sequence[Tile]], ends: Ends
) -> Ending | None:
    """How the hand ends after ``move``, given the mover's hand, every hand and the line's
    ends after it: out before blocked, since a seat that places its last tile goes out even
    when nobody else could place (``end.out``, ``end.blocked``)."""
    if gone_out(mover):
        return Ending.OUT
    if blocks(move, hands, ends):
        return Ending.BLOCKED
    return None


def blocker(state: State) -> int:
    """The seat that put down the last tile of a blocked hand; when the turned-up starter
    blocked it before anyone acted, the seat before the designated first seat, as if it had
    turned the starter up (an unsourced reading, rule ``deal.unsourced``)."""
    placers = [action.seat for action in state.history if isinstance(action.move, Lead | Place)]
    if placers:
        return placers[-1]
    return table(state.rules).before(state.opener)
