"""The rule-ID registry: every rule the specification enforces, stated once.

A rule ID (``play.match-end``, ``block.pass``, ``score.double-blank-25``) is the same in the
code, in error messages, in the docs and in the conformance vectors, so a failing check points
straight at the rule's text. IDs are stable: a rule may be reworded but never renumbered.
"""

from __future__ import annotations

from attrs import frozen

from gaple.sources import check_source_keys

__all__ = ["RULES", "Rule", "rule", "rule_anchor", "rule_page", "rule_url"]


@frozen
class Rule:
    """One rule of the game as the specification reads it."""

    id: str
    """The stable ID, ``section.name``."""
    section: str
    """The part of the game it belongs to (the docs have one chapter per section)."""
    statement: str
    """The rule in one sentence, in the specification's own words."""
    sources: tuple[str, ...]
    """The keys of the sources that document it (see :mod:`gaple.sources`)."""


_SECTIONS = {
    "tiles": "Equipment and seats",
    "table": "Equipment and seats",
    "deal": "Deal",
    "open": "Opening",
    "turn": "Turn",
    "play": "Turn",
    "block": "Turn",
    "end": "End of hand",
    "score": "Counting and winner",
    "settle": "Settlements",
    "match": "Matches",
    "partner": "Partnership play",
}


def _rules(*entries: tuple[str, str, tuple[str, ...]]) -> dict[str, Rule]:
    table: dict[str, Rule] = {}
    for rule_id, statement, sources in entries:
        if rule_id in table:
            msg = f"rule ID {rule_id} defined twice"
            raise ValueError(msg)
        section = _SECTIONS[rule_id.split(".", 1)[0]]
        table[rule_id] = Rule(rule_id, section, statement, check_source_keys(sources))
    return table


RULES: dict[str, Rule] = _rules(
    (
        "tiles.set",
        "The game uses one double-N set, normally double-six: every unordered pair of pip values "
        "from 0 to N exactly once, so 28 tiles and 168 pips.",
        ("PAGAT", "DOMINO4D", "CHIPS"),
    ),
    (
        "table.seats",
        "Seats are numbered from 0 and act in that order, wrapping round; in partnership play "
        "seats 0 and 2 are partners against seats 1 and 3, and the seat 'below' or to the "
        "'left' of a player is the next one in turn.",
        ("SUWIKI", "PAGAT"),
    ),
    (
        "deal.sizes",
        "Each seat receives the same number of tiles and no more tiles are dealt than the set "
        "holds; with double-six the documented deals are 4 x 7, 4 x 6 and 5 x 5.",
        ("PAGAT", "BLOCK100", "CHIPS", "DOMINO4D"),
    ),
    (
        "deal.starter",
        "When tiles remain undealt, one of them is turned face up to begin the line and the rest "
        "stay face down out of play; no tile is ever drawn.",
        ("PAGAT", "PAGAT-ID", "BLOCK100", "CHIPS"),
    ),
    (
        "deal.unsourced",
        "A deal that no source describes (any set but double-six, or any deal but 4 x 7, 4 x 6 "
        "and 5 x 5) is played by the same rules, for study only, and its results say so; "
        "so are the readings only such deals reach, such as a starter that blocks at once.",
        ("PAGAT", "BLOCK100", "CHIPS"),
    ),
    (
        "open.lead",
        "On an empty table the opener's first action must be to lead a tile, which becomes the "
        "whole line with its lower half on the left; a lead is only possible on an empty table.",
        ("PAGAT", "SUWIKI", "DOMINO4D"),
    ),
    (
        "open.double-blank",
        "In a hand opened by the double-blank rule, the holder of 0-0 opens and must lead 0-0.",
        ("PAGAT", "PAGAT-ID", "DOMINO4D"),
    ),
    (
        "open.double",
        "In a hand opened by the double rule, the designated seat must lead a double; if it "
        "holds none, the right to lead passes to the next seat in turn that holds one.",
        ("PAGAT", "PAGAT-ID"),
    ),
    (
        "open.any-tile",
        "In a hand opened by the any-tile rule, the designated seat leads any tile it holds.",
        ("SUWIKI", "DOMINO4D"),
    ),
    (
        "open.forbidden",
        "House rule: the listed tiles may not be led; the right to lead passes to the next seat "
        "in turn that holds a tile it may lead.",
        ("SUWIKI", "KAMPUNG2009"),
    ),
    (
        "open.starter-seat",
        "When a starter tile begins the line, the designated seat acts first: drawn by lot in the "
        "first hand, the previous winner in later hands.",
        ("PAGAT", "PAGAT-ID", "BLOCK100"),
    ),
    (
        "turn.order",
        "After every action the turn passes to the next seat; only the seat to act may act.",
        ("SUWIKI", "PAGAT", "DOMINO4D"),
    ),
    (
        "play.in-hand",
        "A seat may only lead, place or discard a tile that is in its own hand.",
        ("SUWIKI", "PAGAT"),
    ),
    (
        "play.match-end",
        "A placed tile joins one named end of the line with a half showing that end's number; "
        "its other half becomes the new end. The line is a single chain: doubles sit in line "
        "and never branch.",
        ("SUWIKI", "PAGAT", "DOMINO4D", "BLOCK100", "CHIPS"),
    ),
    (
        "turn.forced-play",
        "A seat that can place a tile must place one; it may pass or discard only when none of "
        "its tiles matches either end.",
        ("SUWIKI", "DOMINO4D", "PAGAT"),
    ),
    (
        "block.pass",
        "Under the pass option a seat that cannot place simply passes; it never discards.",
        ("SUWIKI", "DOMINO4D", "PAGAT"),
    ),
    (
        "block.discard",
        "Under the discard option a seat that cannot place must discard one tile of its choice "
        "face down; the discard stays the seat's and counts against it; it never simply passes.",
        ("PAGAT", "PAGAT-ID", "BLOCK100", "CHIPS"),
    ),
    (
        "end.out",
        "The hand ends at once when a seat has no tiles left, whether it placed or discarded its "
        "last tile (it goes out, poldan).",
        ("SUWIKI", "PAGAT", "CHIPS", "DOMINO4D"),
    ),
    (
        "end.blocked",
        "The hand ends at once when no seat that still holds tiles can place one (gapléh); a "
        "single pass or discard never ends it.",
        ("SUWIKI", "PAGAT", "DOMINO4D", "BLOCK100"),
    ),
    (
        "end.final",
        "Once the hand has ended no further action is accepted.",
        ("SUWIKI", "PAGAT"),
    ),
    (
        "score.count",
        "A seat's count is the pip total of the tiles left in its hand plus the tiles it "
        "discarded.",
        ("PAGAT", "PAGAT-ID", "BLOCK100", "CHIPS", "DOMINO4D"),
    ),
    (
        "score.double-blank-25",
        "Option: 0-0 counts 25 when its holder has no other tile with a blank among its hand and "
        "discards, and 0 otherwise.",
        ("PAGAT", "PAGAT-ID", "CHIPS"),
    ),
    (
        "score.rank",
        "The lowest count wins the hand; between equal counts, the seat whose lowest tile has "
        "the fewest pips, then the seat whose lowest tile has the smaller low half (the lower of "
        "its two numbers); a seat with no tiles ranks first.",
        ("PAGAT", "PAGAT-ID", "BLOCK100", "CHIPS"),
    ),
    (
        "score.team",
        "With teams, the hand goes to the team of the winning seat, whatever its partner holds.",
        ("PAGAT", "CHIPS", "SUWIKI"),
    ),
    (
        "settle.per-hand",
        "Per-hand settlement names the winner of each hand and awards no points.",
        ("PAGAT", "CHIPS", "DOMINO4D"),
    ),
    (
        "settle.chips",
        "Chips settlement: the winner collects from every other seat the difference between "
        "that seat's count and its own.",
        ("PAGAT", "CHIPS"),
    ),
    (
        "settle.difference",
        "Difference points: the winner scores the sum of the differences between each other "
        "seat's count and its own.",
        ("BLOCK100",),
    ),
    (
        "settle.cumulative",
        "Cumulative settlement: every seat adds its own count to its running total.",
        ("CHIPS",),
    ),
    (
        "partner.out",
        "In partnership play, when a seat goes out its pair scores the pips left in the two "
        "opponents' hands.",
        ("SUWIKI",),
    ),
    (
        "partner.challenge",
        "In partnership play a blocked hand is decided by comparing the blocker (who placed the "
        "last tile) with the next seat: strictly lower, the blocker's pair scores the pips of all "
        "four hands; otherwise (neunggar cadas) the opponents score twice that.",
        ("SUWIKI", "LAMPUNG"),
    ),
    (
        "partner.challenge-tie",
        "Option: a tied challenge is replayed (default) or lost by the blocker.",
        ("SUWIKI", "KAMPUNG2009"),
    ),
    (
        "partner.dead-double",
        "When the opponents go out, a 6-6 (or 0-0) still held by the losing pair, with no open "
        "end showing its number and every other tile of that number in the line, is dead and "
        "counts 100 (or 50) instead of its pips; never in a blocked hand or when its holder's "
        "partner goes out.",
        ("SUWIKI",),
    ),
    (
        "partner.closing-double",
        "In partnership play, going out with 6-6 (or 0-0) as the last tile earns the winners a "
        "further 100 (or 50).",
        ("SUWIKI",),
    ),
    (
        "match.target",
        "A points match ends after the hand in which a seat or pair first reaches the target "
        "(at least the target).",
        ("SUWIKI", "BLOCK100"),
    ),
    (
        "match.rounds",
        "A cumulative match ends after the agreed number of hands; the lowest total wins, and a "
        "tie plays further hands until it is broken.",
        ("CHIPS",),
    ),
    (
        "match.single-hand",
        "A match with neither a target nor an agreed number of hands (per-hand and chips "
        "settlement) is a single hand, won by that hand's winner.",
        ("PAGAT", "CHIPS", "DOMINO4D"),
    ),
    (
        "match.opener",
        "Each later hand of a match is opened from the previous hand's winning seat, by the "
        "ruleset's later-hand opening rule.",
        ("PAGAT", "BLOCK100", "SUWIKI"),
    ),
)
"""Every rule, by ID."""


def rule(rule_id: str) -> Rule:
    """Look up a rule by ID.

    Raises:
        KeyError: no rule has this ID.
    """
    try:
        return RULES[rule_id]
    except KeyError:
        msg = f"unknown rule ID {rule_id!r}"
        raise KeyError(msg) from None


def rule_anchor(rule_id: str) -> str:
    """The HTML anchor of a rule in the docs: ``play.match-end`` -> ``rule-play-match-end``."""
    return "rule-" + rule_id.replace(".", "-").lower()


def rule_page(rule_id: str) -> str:
    """The docs page of a rule, from its section: ``Turn`` -> ``rules/turn``.

    Raises:
        KeyError: no rule has this ID.
    """
    return "rules/" + rule(rule_id).section.lower().replace(" ", "-")


def rule_url(rule_id: str) -> str:
    """Where a rule is explained, relative to the docs root (the address reports link to).

    >>> rule_url("play.match-end")
    'rules/turn.html#rule-play-match-end'

    Raises:
        KeyError: no rule has this ID.
    """
    return f"{rule_page(rule_id)}.html#{rule_anchor(rule_id)}"
