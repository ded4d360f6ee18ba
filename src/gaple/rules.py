"""Rule options: one frozen :class:`Ruleset` holds every documented choice.

Each option is a typed field whose metadata names the rule it changes and the sources that
document it. A ruleset is data: when it is built, each option is checked for a value it can
take and for options that contradict each other (team chips, a target without growing points).
Whether a hand can be played under it (five seats with seven tiles on a double-six set, a lead
rule nobody can satisfy) is the rules' question, :func:`gaple.state.check_rules`, asked
whenever a hand is dealt.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from typing import Any

import attrs
from attrs import field, frozen

from gaple.tiles import Tile

__all__ = [
    "MAX_PIP",
    "SOURCED_DEALS",
    "BlockedAction",
    "ChallengeTie",
    "InvalidRuleset",
    "LeadRule",
    "OptionInfo",
    "Ruleset",
    "Settlement",
    "StakeBase",
    "option_info",
]


MAX_PIP = 9
"""The largest N of a double-N set a ruleset may use. Every source plays double-six; the small
sets (N from 1) let the tests enumerate hands exhaustively, and N up to 9 (55 tiles, the largest
set commonly sold) is kept for study. A bound is needed at all because the tables of a set
grow with the cube of N: double-1000 would take minutes and gigabytes to build."""


SOURCED_DEALS: tuple[tuple[int, int], ...] = ((4, 7), (4, 6), (5, 5))
"""The deals the sources describe, as (seats, tiles each), all with the double-six set. Every
other deal is accepted for study but unsourced (:func:`gaple.reference.deal.sourced`)."""


class InvalidRuleset(ValueError):
    """Raised when options do not form a ruleset, or no hand can be played under them; the
    message says why."""


class LeadRule(enum.Enum):
    """How the first tile of a hand with no starter is led."""

    DOUBLE_BLANK = "double-blank"
    """The holder of 0-0 leads 0-0 (rule ``open.double-blank``)."""
    DOUBLE = "double"
    """The designated seat leads a double, else the next seat with one (``open.double``)."""
    ANY_TILE = "any-tile"
    """The designated seat leads any tile (``open.any-tile``)."""

    @property
    def rule_id(self) -> str:
        """The ID of the rule this lead enforces."""
        return f"open.{self.value}"


class BlockedAction(enum.Enum):
    """What a seat that cannot place does."""

    PASS = "pass"
    """It passes (rule ``block.pass``)."""
    DISCARD = "discard"
    """It discards one tile face down, which counts against it (rule ``block.discard``)."""

    @property
    def rule_id(self) -> str:
        """The ID of the rule this choice enforces."""
        return f"block.{self.value}"


class Settlement(enum.Enum):
    """How a finished hand turns into points."""

    PER_HAND = "per-hand"
    """The winner is named, nobody scores (``settle.per-hand``)."""
    CHIPS = "chips"
    """The winner collects each difference (``settle.chips``)."""
    DIFFERENCE = "difference"
    """The winner scores the sum of differences (``settle.difference``)."""
    CUMULATIVE = "cumulative"
    """Every seat adds its own count (``settle.cumulative``)."""
    PARTNERSHIP = "partnership"
    """Sundanese pair scoring (``partner.out``, ``partner.challenge``)."""


class ChallengeTie(enum.Enum):
    """What a tied blocked-hand challenge means (rule ``partner.challenge-tie``)."""

    REPLAY = "replay"
    """Nobody scores and the hand is dealt again."""
    BLOCKER_LOSES = "blocker-loses"
    """Only a strictly lower count wins, so the blocker's pair loses (neunggar cadas)."""


class StakeBase(enum.Enum):
    """Whose remaining pips a challenge pays, seen from the blocker."""

    ALL = "all"
    """All four hands (SUWIKI)."""
    BLOCKER_PAIR = "blocker-pair"
    """The blocker's own pair."""
    OTHER_PAIR = "other-pair"
    """The pair that did not block."""


@frozen
class OptionInfo:
    """What one option of :class:`Ruleset` means and where it is documented."""

    name: str
    """The field name, also the key in JSON forms and ``--set`` overrides."""
    doc: str
    """One sentence on what the option changes."""
    rule_ids: tuple[str, ...]
    """The rules it changes."""
    sources: tuple[str, ...]
    """The sources that document its choices."""


def _option(
    default: Any,
    doc: str,
    rules: tuple[str, ...],
    sources: tuple[str, ...],
    converter: Any = None,
) -> Any:
    return field(
        default=default,
        converter=converter,
        metadata={"doc": doc, "rules": rules, "sources": sources},
        kw_only=True,
    )


def _tiles(value: Any) -> frozenset[Tile]:
    return frozenset(tile if isinstance(tile, Tile) else Tile.parse(str(tile)) for tile in value)


@frozen
class Ruleset:
    """Every option of one hand and its match; the defaults are pagat's 4 x 7 game.

    >>> Ruleset(hand_size=6).hand_size
    6
    >>> Ruleset(settlement=Settlement.PARTNERSHIP)
    Traceback (most recent call last):
    ...
    gaple.rules.InvalidRuleset: settlement = partnership needs partnership = true
    """

    max_pip: int = _option(
        6,
        "N of the double-N set (6: 28 tiles), from 1 to 9.",
        ("tiles.set",),
        ("PAGAT", "DOMINO4D"),
    )
    players: int = _option(
        4, "Number of seats.", ("deal.sizes", "table.seats"), ("PAGAT", "BLOCK100", "CHIPS")
    )
    hand_size: int = _option(
        7,
        "Tiles dealt to each seat; the rest are undealt (one turned up as the starter).",
        ("deal.sizes", "deal.starter"),
        ("PAGAT", "BLOCK100", "CHIPS"),
    )
    partnership: bool = _option(
        False,
        "Seats 0 and 2 play against seats 1 and 3 (four seats only).",
        ("table.seats", "score.team"),
        ("PAGAT", "SUWIKI", "CHIPS"),
    )
    first_lead: LeadRule = _option(
        LeadRule.DOUBLE_BLANK,
        "How the first hand of a match is led when no starter is turned up.",
        ("open.double-blank", "open.double", "open.any-tile"),
        ("PAGAT", "DOMINO4D", "SUWIKI"),
        converter=LeadRule,
    )
    later_lead: LeadRule = _option(
        LeadRule.DOUBLE,
        "How later hands are led when no starter is turned up, from the previous winner's seat.",
        ("open.double", "open.any-tile", "match.opener"),
        ("PAGAT", "SUWIKI", "DOMINO4D"),
        converter=LeadRule,
    )
    forbidden_leads: frozenset[Tile] = _option(
        frozenset(),
        "House rule: tiles that may not be led (for example 6-6).",
        ("open.forbidden",),
        ("SUWIKI", "KAMPUNG2009"),
        converter=_tiles,
    )
    blocked_action: BlockedAction = _option(
        BlockedAction.DISCARD,
        "What a seat that cannot place does: pass, or discard a tile face down.",
        ("block.pass", "block.discard"),
        ("PAGAT", "SUWIKI", "DOMINO4D", "BLOCK100", "CHIPS"),
        converter=BlockedAction,
    )
    double_blank_25: bool = _option(
        False,
        "0-0 counts 25 unless its holder has another blank tile (then 0).",
        ("score.double-blank-25",),
        ("PAGAT", "PAGAT-ID", "CHIPS"),
    )
    settlement: Settlement = _option(
        Settlement.PER_HAND,
        "How a finished hand turns into points.",
        (
            "settle.per-hand",
            "settle.chips",
            "settle.difference",
            "settle.cumulative",
            "partner.out",
        ),
        ("PAGAT", "CHIPS", "BLOCK100", "SUWIKI"),
        converter=Settlement,
    )
    target: int | None = _option(
        None,
        "Points that end a match (difference or partnership points); none for no target.",
        ("match.target",),
        ("BLOCK100", "SUWIKI"),
    )
    match_hands: int | None = _option(
        None,
        "Number of hands of a cumulative match; the lowest total then wins.",
        ("match.rounds",),
        ("CHIPS",),
    )
    challenge_tie: ChallengeTie = _option(
        ChallengeTie.REPLAY,
        "What a tied blocked-hand challenge means in partnership play.",
        ("partner.challenge-tie",),
        ("SUWIKI", "KAMPUNG2009"),
        converter=ChallengeTie,
    )
    challenge_win_base: StakeBase = _option(
        StakeBase.ALL,
        "Whose pips the blocker's pair scores when the blocker wins the challenge.",
        ("partner.challenge",),
        ("SUWIKI", "LAMPUNG"),
        converter=StakeBase,
    )
    challenge_win_multiplier: int = _option(
        1,
        "Multiplier on a won challenge.",
        ("partner.challenge",),
        ("SUWIKI", "LAMPUNG"),
    )
    challenge_loss_base: StakeBase = _option(
        StakeBase.ALL,
        "Whose pips the opponents score when the blocker loses the challenge.",
        ("partner.challenge",),
        ("SUWIKI", "LAMPUNG"),
        converter=StakeBase,
    )
    challenge_loss_multiplier: int = _option(
        2,
        "Multiplier on a lost challenge (neunggar cadas).",
        ("partner.challenge",),
        ("SUWIKI", "LAMPUNG"),
    )
    top_double_bonus: int = _option(
        0,
        "Partnership: value of a dead N-N (6-6) and bonus for going out with it; 0 is off.",
        ("partner.dead-double", "partner.closing-double"),
        ("SUWIKI",),
    )
    blank_double_bonus: int = _option(
        0,
        "Partnership: value of a dead 0-0 and bonus for going out with it; 0 is off.",
        ("partner.dead-double", "partner.closing-double"),
        ("SUWIKI",),
    )
    dead_double_debit: bool = _option(
        False,
        "Partnership: a dead double is also taken off its holder's pair.",
        ("partner.dead-double",),
        ("SUWIKI",),
    )
    closing_any_double: bool = _option(
        False,
        "House rule: going out with any double earns the top-double closing bonus.",
        ("partner.closing-double",),
        ("SUWIKI",),
    )

    def __attrs_post_init__(self) -> None:
        for problem in _problems(self):
            raise InvalidRuleset(problem)

    def replace(self, **changes: Any) -> Ruleset:
        """A copy with some options changed, checked again as it is built.

        Raises:
            InvalidRuleset: an option name is unknown or the options contradict each other.
        """
        unknown = sorted(set(changes).difference(OPTION_NAMES))
        if unknown:
            msg = f"unknown option(s) {', '.join(unknown)}; options are {', '.join(OPTION_NAMES)}"
            raise InvalidRuleset(msg)
        return attrs.evolve(self, **changes)

    def options(self) -> Mapping[str, Any]:
        """Every option with its value, in declaration order."""
        return {name: getattr(self, name) for name in OPTION_NAMES}


def _problems(rules: Ruleset) -> list[str]:
    """Every option without a value it can take, and every pair of options that contradict
    each other, most basic first."""
    if not 1 <= rules.max_pip <= MAX_PIP:
        return [
            f"max_pip must be from 1 to {MAX_PIP}, got {rules.max_pip}: the sources play "
            f"double-six; 1 to 5 serve exhaustive checks and up to {MAX_PIP} study, and "
            "a larger set's tables grow with the cube of N"
        ]
    if rules.players < 2:
        return [f"a hand needs at least 2 seats, got {rules.players}"]
    if rules.hand_size < 1:
        return [f"each seat needs at least 1 tile, got hand_size = {rules.hand_size}"]
    problems: list[str] = []
    outside = sorted(t for t in rules.forbidden_leads if t.high > rules.max_pip)
    if outside:
        problems.append(
            f"forbidden_leads names {', '.join(map(str, outside))}, "
            f"not in the double-{rules.max_pip} set"
        )
    team_settlement = rules.settlement is Settlement.PARTNERSHIP
    if team_settlement and not rules.partnership:
        problems.append("settlement = partnership needs partnership = true")
    if rules.partnership and rules.settlement in (
        Settlement.CHIPS,
        Settlement.DIFFERENCE,
        Settlement.CUMULATIVE,
    ):
        problems.append(
            f"settlement = {rules.settlement.value} is defined per seat; no source says how "
            "teams settle it (C23 in the docs' disagreements page), so use per-hand or "
            "partnership with teams"
        )
    if rules.target is not None:
        if rules.target < 1:
            problems.append(f"target must be at least 1, got {rules.target}")
        if rules.settlement not in (Settlement.DIFFERENCE, Settlement.PARTNERSHIP):
            problems.append(
                f"a target needs points that grow: settlement difference or partnership, "
                f"not {rules.settlement.value}"
            )
    if rules.settlement is Settlement.CUMULATIVE:
        if rules.match_hands is None or rules.match_hands < 1:
            problems.append("settlement = cumulative needs match_hands >= 1")
    elif rules.match_hands is not None:
        problems.append("match_hands applies only to settlement = cumulative")
    for name in ("challenge_win_multiplier", "challenge_loss_multiplier"):
        if getattr(rules, name) < 1:
            problems.append(f"{name} must be at least 1, got {getattr(rules, name)}")
    for name in ("top_double_bonus", "blank_double_bonus"):
        if getattr(rules, name) < 0:
            problems.append(f"{name} cannot be negative, got {getattr(rules, name)}")
    return problems


OPTION_NAMES: tuple[str, ...] = tuple(a.name for a in attrs.fields(Ruleset))
"""The option names, in declaration order."""


def option_info() -> tuple[OptionInfo, ...]:
    """What each option means, which rules it changes and which sources document it."""
    return tuple(
        OptionInfo(
            name=a.name,
            doc=a.metadata["doc"],
            rule_ids=a.metadata["rules"],
            sources=a.metadata["sources"],
        )
        for a in attrs.fields(Ruleset)
    )
