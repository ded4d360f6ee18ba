"""Named variants: documented combinations of options, each option citing its source.

>>> find_preset("PAGAT_4x7").name
'pagat-4x7'
>>> ruleset("suwiki-partnership").target
500
>>> ruleset("chips", settlement="cumulative", match_hands=4).match_hands
4
"""

from __future__ import annotations

from typing import Any

from attrs import frozen

from gaple.rules import BlockedAction, LeadRule, Ruleset, Settlement
from gaple.sources import check_source_keys

__all__ = ["PRESETS", "Preset", "UnknownPreset", "find_preset", "ruleset"]


class UnknownPreset(KeyError):
    """Raised for a preset name that is neither a name nor an alias."""

    def __str__(self) -> str:
        return str(self.args[0])


@frozen
class Citation:
    """Why a preset gives an option its value."""

    sources: tuple[str, ...]
    """Source keys."""
    note: str = ""
    """A short remark, for example which point of the docs' disagreements page (C1 to C28) it
    follows."""


@frozen
class Preset:
    """A named variant: a ruleset and the source of each option it sets."""

    name: str
    """The canonical name, e.g. ``pagat-4x7``."""
    aliases: tuple[str, ...]
    """Other accepted names."""
    title: str
    """One line saying what the variant is."""
    rules: Ruleset
    """The options."""
    citations: dict[str, Citation]
    """For each option this preset sets, where that value is documented."""

    def citation(self, option: str) -> Citation | None:
        """Where this preset's value of ``option`` comes from, if it sets it."""
        return self.citations.get(option)


def _preset(
    name: str,
    aliases: tuple[str, ...],
    title: str,
    **options: tuple[Any, tuple[str, ...]] | tuple[Any, tuple[str, ...], str],
) -> Preset:
    values = {key: spec[0] for key, spec in options.items()}
    citations = {
        key: Citation(check_source_keys(spec[1]), spec[2] if len(spec) == 3 else "")
        for key, spec in options.items()
    }
    return Preset(name, aliases, title, Ruleset(**values), citations)


_PAGAT_DEAL = ("PAGAT", "PAGAT-ID")

PRESETS: dict[str, Preset] = {
    preset.name: preset
    for preset in (
        _preset(
            "pagat-4x7",
            ("pagat", "gaple"),
            "Four seats, seven tiles each, 0-0 opens; a stuck seat discards (PAGAT).",
            players=(4, _PAGAT_DEAL),
            hand_size=(7, _PAGAT_DEAL),
            first_lead=(LeadRule.DOUBLE_BLANK, _PAGAT_DEAL),
            later_lead=(LeadRule.DOUBLE, _PAGAT_DEAL),
            blocked_action=(BlockedAction.DISCARD, _PAGAT_DEAL, "pass is PAGAT's variation"),
            settlement=(Settlement.PER_HAND, ("PAGAT", "CHIPS")),
        ),
        _preset(
            "pagat-4x6",
            (),
            "Four seats, six tiles each, four undealt with one turned up as the starter (PAGAT).",
            players=(4, _PAGAT_DEAL),
            hand_size=(6, ("PAGAT", "BLOCK100", "CHIPS")),
            blocked_action=(BlockedAction.DISCARD, _PAGAT_DEAL),
            settlement=(Settlement.PER_HAND, ("PAGAT", "CHIPS")),
        ),
        _preset(
            "pagat-5x5",
            (),
            "Five seats, five tiles each, three undealt with one turned up as the starter (PAGAT).",
            players=(5, ("PAGAT",), "PAGAT-ID's five-with-seven is impossible (C1)"),
            hand_size=(5, ("PAGAT",)),
            blocked_action=(BlockedAction.DISCARD, _PAGAT_DEAL),
            settlement=(Settlement.PER_HAND, ("PAGAT",)),
        ),
        _preset(
            "block100",
            (),
            "4 x 6 with a starter; the winner scores the differences; first to 100 (BLOCK100).",
            players=(4, ("BLOCK100",), "its 'four or five' fits four only (C2)"),
            hand_size=(6, ("BLOCK100",)),
            blocked_action=(BlockedAction.DISCARD, ("BLOCK100",)),
            settlement=(Settlement.DIFFERENCE, ("BLOCK100",), "winner-only reading (C15)"),
            target=(100, ("BLOCK100",)),
        ),
        _preset(
            "chips",
            (),
            "4 x 6 with a starter; the winner collects each difference in chips (CHIPS).",
            players=(4, ("CHIPS",)),
            hand_size=(6, ("CHIPS",)),
            blocked_action=(BlockedAction.DISCARD, ("CHIPS",), "pass is its variation"),
            settlement=(
                Settlement.CHIPS,
                ("CHIPS", "PAGAT"),
                "cumulative mode: settlement=cumulative with match_hands",
            ),
        ),
        _preset(
            "domino4d",
            (),
            "Four seats, seven tiles each, 0-0 opens, a stuck seat passes (DOMINO4D).",
            players=(4, ("DOMINO4D",)),
            hand_size=(7, ("DOMINO4D",)),
            first_lead=(LeadRule.DOUBLE_BLANK, ("DOMINO4D",)),
            later_lead=(LeadRule.ANY_TILE, ("DOMINO4D",), "left to agreement (C8)"),
            blocked_action=(BlockedAction.PASS, ("DOMINO4D",)),
            settlement=(Settlement.PER_HAND, ("DOMINO4D",)),
        ),
        _preset(
            "suwiki-individual",
            ("sunda-individual",),
            "Sundanese individual play: going out wins, else the lowest count (SUWIKI).",
            players=(4, ("SUWIKI",)),
            hand_size=(7, ("SUWIKI",), "not stated; the 28 tiles shared by 4"),
            first_lead=(LeadRule.DOUBLE_BLANK, ("PAGAT",), "SUWIKI is silent (C7); option"),
            later_lead=(
                LeadRule.ANY_TILE,
                ("PAGAT", "BLOCK100"),
                "SUWIKI is silent (C8): the winner starts, as in the starter deals; option",
            ),
            blocked_action=(BlockedAction.PASS, ("SUWIKI",)),
            settlement=(Settlement.PER_HAND, ("SUWIKI",)),
        ),
        _preset(
            "suwiki-partnership",
            ("sunda-partnership",),
            "Sundanese pairs: opponents' pips, the blocked-hand challenge, dead 6-6; to 500.",
            players=(4, ("SUWIKI",)),
            hand_size=(7, ("SUWIKI",), "not stated; the 28 tiles shared by 4"),
            partnership=(True, ("SUWIKI",)),
            first_lead=(LeadRule.DOUBLE_BLANK, ("PAGAT",), "SUWIKI is silent (C7); option"),
            later_lead=(
                LeadRule.ANY_TILE,
                ("PAGAT", "BLOCK100"),
                "SUWIKI is silent (C8): the winner starts, as in the starter deals; option",
            ),
            blocked_action=(BlockedAction.PASS, ("SUWIKI",)),
            settlement=(Settlement.PARTNERSHIP, ("SUWIKI",)),
            target=(500, ("SUWIKI",), "its example target; agreed before play"),
            top_double_bonus=(100, ("SUWIKI",)),
            blank_double_bonus=(50, ("SUWIKI",), "'often' half the 6-6 value; on by default"),
        ),
    )
}
"""Every preset, by canonical name."""


def _key(name: str) -> str:
    return name.strip().lower().replace("_", "-")


_BY_KEY: dict[str, Preset] = {
    _key(alias): preset for preset in PRESETS.values() for alias in (preset.name, *preset.aliases)
}


def find_preset(name: str) -> Preset:
    """The preset called ``name`` or one of its aliases, ignoring case and ``_`` vs ``-``.

    Raises:
        UnknownPreset: no preset has this name.
    """
    try:
        return _BY_KEY[_key(name)]
    except KeyError:
        msg = f"unknown variant {name!r}; known variants: {', '.join(PRESETS)}"
        raise UnknownPreset(msg) from None


def ruleset(name: str, **overrides: Any) -> Ruleset:
    """The preset's ruleset with some options overridden (checked again as it is built;
    whether a hand can be played under it is :func:`gaple.state.check_rules`).

    Raises:
        UnknownPreset: no preset has this name.
        gaple.rules.InvalidRuleset: an override is unknown or contradicts another option.
    """
    rules = find_preset(name).rules
    return rules.replace(**overrides) if overrides else rules
