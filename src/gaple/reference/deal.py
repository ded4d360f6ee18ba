"""Deal: how many tiles each seat gets, the turned-up starter, and which deals are sourced.

Rules ``deal.sizes``, ``deal.starter`` and ``deal.unsourced``; :func:`deal_problem` checks a
written-down deal against them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from attrs import frozen

from gaple.hand import Deal
from gaple.reference.deciding import decides
from gaple.reference.equipment import set_of, table
from gaple.rules import SOURCED_DEALS, InvalidRuleset, Ruleset
from gaple.tiles import Tile

__all__ = [
    "Stray",
    "deal_problem",
    "face_down",
    "hand_sizes",
    "missing",
    "sourced",
    "stray",
    "turns_up_starter",
    "undealt",
]


@decides("deal.sizes")
def hand_sizes(rules: Ruleset) -> tuple[int, ...]:
    """How many tiles each seat receives: the same number for every seat, never more in all
    than the set holds.

    Raises:
        gaple.rules.InvalidRuleset: the seats would need more tiles than the set has.
    """
    # Counted before the seats are laid out: a typed-in count of billions of seats is refused
    # here instead of exhausting memory in building them.
    dealt = rules.players * rules.hand_size
    if dealt > len(set_of(rules.max_pip)):
        msg = (
            f"{rules.players} seats x {rules.hand_size} tiles = {dealt} tiles, "
            f"but the double-{rules.max_pip} set has only {len(set_of(rules.max_pip))}"
        )
        raise InvalidRuleset(msg)
    return tuple(rules.hand_size for _ in table(rules).seats)


@decides("deal.unsourced")
def sourced(rules: Ruleset) -> bool:
    """Whether a source describes the deal: the double-six set dealt 4 x 7, 4 x 6 or 5 x 5
    (:data:`~gaple.rules.SOURCED_DEALS`); any other deal is played by the same rules for study
    only."""
    return rules.max_pip == 6 and (rules.players, rules.hand_size) in SOURCED_DEALS


@decides("deal.starter")
def turns_up_starter(rules: Ruleset) -> bool:
    """Whether a starter is turned up: exactly when some tile is undealt; the other undealt
    tiles stay face down out of play, and no tile is ever drawn (PAGAT, BLOCK100, CHIPS)."""
    return undealt(rules) > 0


def undealt(rules: Ruleset) -> int:
    """How many tiles of the set no seat receives (rule ``deal.sizes``)."""
    return len(set_of(rules.max_pip)) - sum(hand_sizes(rules))


def face_down(rules: Ruleset) -> int:
    """How many tiles lie face down out of play: the undealt ones but the starter (rule
    ``deal.starter``)."""
    return undealt(rules) - 1 if turns_up_starter(rules) else 0


def stray(max_pip: int, parts: Sequence[tuple[str, Iterable[Tile]]]) -> Stray | None:
    """The first tile of the named ``parts`` (in order) that the double-``max_pip`` set lacks
    or that an earlier part holds already (rule ``tiles.set``: each tile once)."""
    tiles = set_of(max_pip)
    seen: dict[Tile, str] = {}
    for where, part in parts:
        for tile in part:
            if tile not in tiles or tile in seen:
                return Stray(where=where, tile=tile, also_in=seen.get(tile))
            seen[tile] = where
    return None


def missing(max_pip: int, parts: Sequence[tuple[str, Iterable[Tile]]]) -> tuple[Tile, ...]:
    """The tiles of the double-``max_pip`` set that none of ``parts`` holds (rule
    ``tiles.set``: every tile somewhere)."""
    held = {tile for _, part in parts for tile in part}
    return tuple(tile for tile in set_of(max_pip) if tile not in held)


def deal_problem(rules: Ruleset, deal: Deal) -> str | None:
    """The first way ``deal`` does not fit ``rules``, or ``None`` when it fits.

    In order: one hand per seat (``deal.sizes``); a starter exactly when tiles are undealt
    (``deal.starter``); every tile of the hands, the starter and the set-aside tiles in the set
    and nowhere twice (``tiles.set``); each hand of the rules' size (``deal.sizes``); no tile of
    the set missing; the designated seat a seat (``table.seats``).
    """
    sizes = hand_sizes(rules)
    if len(deal.hands) != len(sizes):
        return f"the deal has {len(deal.hands)} hands, the rules have {len(sizes)} seats"
    if turns_up_starter(rules) and deal.starter is None:
        return f"{undealt(rules)} tiles are undealt, so one must be turned up as the starter"
    if not turns_up_starter(rules) and deal.starter is not None:
        return "every tile is dealt, so there can be no starter"
    parts: list[tuple[str, Sequence[Tile]]] = [
        *((f"seat {seat}", hand) for seat, hand in enumerate(deal.hands)),
        ("the starter", () if deal.starter is None else (deal.starter,)),
        ("the set-aside tiles", deal.set_aside),
    ]
    found = stray(rules.max_pip, parts)
    if found is not None:
        if found.also_in is None:
            return f"{found.where}: tile {found.tile} is not in the double-{rules.max_pip} set"
        return f"{found.where}: tile {found.tile} is also in {found.also_in}"
    for seat, (hand, size) in enumerate(zip(deal.hands, sizes, strict=True)):
        if len(hand) != size:
            return f"seat {seat} holds {len(hand)} tiles, the rules deal {size}"
    lacking = missing(rules.max_pip, parts)
    if lacking:
        return f"tiles missing from the deal: {' '.join(map(str, lacking))}"
    seats = table(rules).seats
    if deal.first_seat not in seats:
        return f"first_seat {deal.first_seat} is not a seat (0..{len(seats) - 1})"
    return None


@frozen
class Stray:
    """A tile where the set cannot put it: outside the set, or in a second place."""

    where: str
    """The place it was found."""
    tile: Tile
    """The tile."""
    also_in: str | None
    """The place it was found first; ``None`` when it is not in the set at all."""
