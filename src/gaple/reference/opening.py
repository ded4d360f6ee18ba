"""Opening: who opens the hand and which tiles may be led.

Rules ``open.lead``, ``open.double-blank``, ``open.double``, ``open.any-tile``,
``open.forbidden`` and ``open.starter-seat``; :func:`new_hand` sets the hand out from a deal.
"""

from __future__ import annotations

from gaple.hand import Deal, Ending, InvalidDeal, State, state_from_tiles
from gaple.reference.deal import deal_problem, hand_sizes, turns_up_starter
from gaple.reference.deciding import decides
from gaple.reference.ending import blocks
from gaple.reference.equipment import set_of, table
from gaple.reference.line import Line, line_ends, opened
from gaple.rules import InvalidRuleset, LeadRule, Ruleset
from gaple.tiles import Tile

__all__ = [
    "any_tile_leads",
    "banned",
    "check_rules",
    "double_blank_leads",
    "double_leads",
    "lead_rule",
    "lead_seat",
    "leadable",
    "must_lead",
    "new_hand",
    "rule_leads",
    "starter_seat",
]


@decides("open.lead")
def must_lead(line: Line) -> bool:
    """On an empty table the seat to act must lead a tile, and a lead is only possible on an
    empty table; the tile led becomes the whole line, its lower half on the left
    (:func:`~gaple.reference.line.opened`)."""
    return not line


@decides("open.double-blank", "open.double")
def lead_seat(rules: Ruleset, deal: Deal, *, first_hand: bool) -> int:
    """In a hand with no starter the designated seat leads when it holds a tile it may lead;
    if it holds none, the right to lead passes to the next seat in turn that holds one. Under
    the double rule the lead must be a double (PAGAT); under the double-blank rule only 0-0
    may be led, so its holder opens (PAGAT, DOMINO4D); a banned tile never leads
    (``open.forbidden``)."""
    allowed = leadable(rules, first_hand=first_hand)
    return next(
        seat
        for seat in table(rules).in_turn_from(deal.first_seat)
        if any(tile in allowed for tile in deal.hands[seat])
    )


@decides("open.any-tile")
def any_tile_leads(tiles: tuple[Tile, ...]) -> frozenset[Tile]:
    """Under the any-tile rule any tile may be led (SUWIKI, DOMINO4D)."""
    return frozenset(tiles)


@decides("open.forbidden")
def banned(rules: Ruleset, tile: Tile) -> bool:
    """House rule: a listed tile may not be led, whatever the lead rule; a seat holding no
    other tile it may lead passes the right to lead on (:func:`lead_seat`) (SUWIKI,
    KAMPUNG2009)."""
    return tile in rules.forbidden_leads


@decides("open.starter-seat")
def starter_seat(deal: Deal) -> int:
    """When a starter begins the line, the designated seat acts first: drawn by lot in the
    first hand, the previous winner in later hands (PAGAT, BLOCK100)."""
    return deal.first_seat


def new_hand(rules: Ruleset, deal: Deal, *, first_hand: bool = True) -> State:
    """The state at the start of a hand.

    With a starter the line begins with it and the designated seat acts first, unless nobody
    can place on it and the hand is blocked at once (``end.blocked``); otherwise the table is
    empty and :func:`lead_seat` opens.

    Raises:
        gaple.hand.InvalidDeal: the deal does not fit the rules (:func:`deal_problem`).
    """
    problem = deal_problem(rules, deal)
    if problem is not None:
        raise InvalidDeal(problem)
    if deal.starter is None:
        line: Line = ()
        opener = lead_seat(rules, deal, first_hand=first_hand)
        ending = None
    else:
        line = opened(deal.starter)
        opener = starter_seat(deal)
        ending = Ending.BLOCKED if blocks(None, deal.hands, line_ends(line)) else None
    return state_from_tiles(
        rules,
        deal,
        first_hand=first_hand,
        opener=opener,
        hands=deal.hands,
        discards=tuple(() for _ in table(rules).seats),
        line=line,
        to_act=None if ending else opener,
        history=(),
        ending=ending,
    )


def leadable(rules: Ruleset, *, first_hand: bool) -> frozenset[Tile]:
    """The tiles that may open a hand with no starter: those the lead rule in force allows,
    less the banned ones."""
    lead = lead_rule(rules, first_hand=first_hand)
    return frozenset(tile for tile in rule_leads(lead, rules.max_pip) if not banned(rules, tile))


def lead_rule(rules: Ruleset, *, first_hand: bool) -> LeadRule:
    """The lead rule in force: the first hand's in a match's first hand, the later hands' rule
    after it (``match.opener``)."""
    return rules.first_lead if first_hand else rules.later_lead


def rule_leads(lead: LeadRule, max_pip: int) -> frozenset[Tile]:
    """The tiles of the double-``max_pip`` set that ``lead`` lets open, before house bans."""
    tiles = set_of(max_pip)
    match lead:
        case LeadRule.DOUBLE_BLANK:
            return double_blank_leads(tiles)
        case LeadRule.DOUBLE:
            return double_leads(tiles)
        case LeadRule.ANY_TILE:
            return any_tile_leads(tiles)


def double_blank_leads(tiles: tuple[Tile, ...]) -> frozenset[Tile]:
    """The tiles the double-blank rule lets open: only 0-0 (:func:`lead_seat`)."""
    return frozenset(tile for tile in tiles if tile == Tile(0, 0))


def double_leads(tiles: tuple[Tile, ...]) -> frozenset[Tile]:
    """The tiles the double rule lets open: the doubles (:func:`lead_seat`)."""
    return frozenset(tile for tile in tiles if tile.is_double)


def check_rules(rules: Ruleset) -> None:
    """Check that a hand can be dealt and opened under ``rules``: the tiles each seat
    receives (:func:`~gaple.reference.deal.hand_sizes`, the set's size bounding the seats
    before they are laid out), the seats round the table
    (:func:`~gaple.reference.equipment.table`), and, when every tile is dealt so that no
    starter opens, a tile each lead rule lets open once the banned ones are left out.

    Raises:
        gaple.rules.InvalidRuleset: the first of these that fails.
    """
    hand_sizes(rules)
    if turns_up_starter(rules):
        return
    for name, first_hand in (("first_lead", True), ("later_lead", False)):
        if not leadable(rules, first_hand=first_hand):
            banned_tiles = ", ".join(map(str, sorted(rules.forbidden_leads)))
            msg = (
                f"{name} = {lead_rule(rules, first_hand=first_hand).value} leaves no tile to "
                f"lead once {banned_tiles} may not be led"
            )
            raise InvalidRuleset(msg)
