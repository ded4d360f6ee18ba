"""Rule options, their validation, and the named presets."""

from __future__ import annotations

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gaple.presets import PRESETS, UnknownPreset, find_preset, ruleset
from gaple.reference.deal import sourced, turns_up_starter, undealt
from gaple.reference.equipment import table
from gaple.reference.opening import lead_rule, leadable, rule_leads
from gaple.registry import RULES
from gaple.rules import (
    OPTION_NAMES,
    BlockedAction,
    InvalidRuleset,
    LeadRule,
    Ruleset,
    Settlement,
    option_info,
)
from gaple.sources import SOURCES
from gaple.state import check_rules
from gaple.tiles import Tile, tile_set

# ---------------------------------------------------------------------------------------------
# Validation
# ---------------------------------------------------------------------------------------------


def test_five_seats_of_seven_are_refused_naming_35_and_28() -> None:
    # PAGAT-ID's five players with seven tiles each would need 35 tiles (research C1).
    with pytest.raises(InvalidRuleset) as caught:
        check_rules(Ruleset(players=5, hand_size=7))
    assert "35" in str(caught.value)
    assert "28" in str(caught.value)


def test_billions_of_seats_are_refused_by_their_count_without_being_seated() -> None:
    # A typed-in seat count is bounded by the set before any seat is laid out: 10**10 seats x
    # 7 tiles = 7 x 10**10 tiles against 28. Seating them first (as the ci fuzzing of --set
    # found) exhausted memory instead of answering.
    with pytest.raises(InvalidRuleset, match="10000000000 seats x 7 tiles = 70000000000 tiles"):
        check_rules(Ruleset(players=10**10, hand_size=7))


def test_partnership_needs_four_seats() -> None:
    with pytest.raises(InvalidRuleset, match="exactly 4 seats, got 5"):
        check_rules(Ruleset(players=5, hand_size=5, partnership=True))


@pytest.mark.parametrize(
    ("options", "fragment"),
    [
        ({"max_pip": 0}, "max_pip must be from 1 to 9, got 0"),
        # One above the research range (MAX_PIP = 9): refused before any set is built.
        ({"max_pip": 10}, "max_pip must be from 1 to 9, got 10"),
        ({"players": 1}, "at least 2 seats"),
        ({"hand_size": 0}, "at least 1 tile"),
        ({"forbidden_leads": [Tile(7, 7)]}, "7-7, not in the double-6 set"),
        (
            {"forbidden_leads": [Tile(0, 0)]},
            "first_lead = double-blank leaves no tile to lead once 0-0 may not be led",
        ),
        ({"settlement": Settlement.PARTNERSHIP}, "needs partnership = true"),
        (
            {"partnership": True, "settlement": Settlement.CHIPS},
            "settlement = chips is defined per seat",
        ),
        ({"settlement": Settlement.DIFFERENCE, "target": 0}, "target must be at least 1"),
        ({"target": 100}, "a target needs points that grow"),
        ({"settlement": Settlement.CUMULATIVE}, "needs match_hands >= 1"),
        ({"match_hands": 3}, "match_hands applies only to settlement = cumulative"),
        ({"challenge_loss_multiplier": 0}, "challenge_loss_multiplier must be at least 1"),
        ({"top_double_bonus": -1}, "top_double_bonus cannot be negative"),
    ],
)
def test_unplayable_options_are_refused_with_the_reason(
    options: dict[str, object], fragment: str
) -> None:
    # The options themselves are refused as the ruleset is built; a hand that cannot be played
    # under them (no tile to lead) by check_rules, which asks the reference.
    with pytest.raises(InvalidRuleset) as caught:
        check_rules(Ruleset(**options))  # type: ignore[arg-type]
    assert fragment in str(caught.value)


def test_the_ends_of_the_research_range_are_playable() -> None:
    # Double-one: 3 tiles (0-0 0-1 1-1), two seats of one tile and one starter left over.
    assert undealt(Ruleset(max_pip=1, players=2, hand_size=1)) == 1
    # Double-nine: (9 + 1)(9 + 2) / 2 = 55 tiles; 4 seats x 13 leave 3 undealt.
    assert undealt(Ruleset(max_pip=9, players=4, hand_size=13)) == 3


def test_a_huge_set_is_refused_at_once_naming_the_range_and_why() -> None:
    # Building the double-1000 set's tables would take minutes; the check comes first.
    with pytest.raises(InvalidRuleset) as caught:
        Ruleset(max_pip=1000)
    assert "from 1 to 9" in str(caught.value)
    assert "cube of N" in str(caught.value)


def test_a_ban_on_leading_only_matters_when_no_starter_is_turned_up() -> None:
    # 4 x 6 turns up a starter, so nobody leads: banning the only 0-0 lead is harmless there.
    rules = Ruleset(hand_size=6, forbidden_leads=frozenset({Tile(0, 0)}))
    assert turns_up_starter(rules)
    check_rules(rules)


def test_string_values_are_converted_to_options() -> None:
    # JSON forms and --set overrides hand options over as strings; the converters read them.
    options: dict[str, object] = {
        "blocked_action": "pass",
        "first_lead": "any-tile",
        "forbidden_leads": ["6-6", "[0|0]"],
    }
    rules = Ruleset(**options)  # type: ignore[arg-type]
    assert rules.blocked_action is BlockedAction.PASS
    assert rules.first_lead is LeadRule.ANY_TILE
    assert rules.forbidden_leads == frozenset({Tile(6, 6), Tile(0, 0)})


def test_deal_shapes_of_the_double_six_set() -> None:
    # 28 tiles: 4 x 7 leaves none, 4 x 6 leaves 4 (starter + 3), 5 x 5 leaves 3 (starter + 2).
    assert (undealt(Ruleset()), turns_up_starter(Ruleset())) == (0, False)
    assert (undealt(Ruleset(hand_size=6)), turns_up_starter(Ruleset(hand_size=6))) == (4, True)
    five = Ruleset(players=5, hand_size=5)
    assert (undealt(five), turns_up_starter(five)) == (3, True)


def test_teams() -> None:
    assert table(Ruleset(partnership=True)).teams == ((0, 2), (1, 3))
    assert [table(Ruleset(partnership=True)).team_of(s) for s in range(4)] == [0, 1, 0, 1]
    assert table(Ruleset()).teams == ((0,), (1,), (2,), (3,))


def test_lead_rule_of_first_and_later_hands() -> None:
    rules = Ruleset(first_lead=LeadRule.DOUBLE_BLANK, later_lead=LeadRule.ANY_TILE)
    assert lead_rule(rules, first_hand=True) is LeadRule.DOUBLE_BLANK
    assert lead_rule(rules, first_hand=False) is LeadRule.ANY_TILE


def test_rule_leads() -> None:
    assert rule_leads(LeadRule.DOUBLE_BLANK, 6) == {Tile(0, 0)}
    assert rule_leads(LeadRule.DOUBLE, 6) == {Tile(p, p) for p in range(7)}
    assert len(rule_leads(LeadRule.ANY_TILE, 6)) == 28


def test_replace_validates_and_refuses_unknown_options() -> None:
    assert Ruleset().replace(hand_size=6).hand_size == 6
    with pytest.raises(InvalidRuleset, match="unknown option"):
        Ruleset().replace(hand_sise=6)
    with pytest.raises(InvalidRuleset, match="needs partnership = true"):
        Ruleset().replace(settlement=Settlement.PARTNERSHIP)


def test_rulesets_are_frozen() -> None:
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        Ruleset().players = 3  # type: ignore[misc]


def test_every_option_documents_its_rules_and_sources() -> None:
    infos = option_info()
    assert tuple(info.name for info in infos) == OPTION_NAMES
    for info in infos:
        assert info.doc, info.name
        assert info.rule_ids, info.name
        assert info.sources, info.name
        for rule_id in info.rule_ids:
            assert rule_id in RULES, f"{info.name} names unknown rule {rule_id}"
        for key in info.sources:
            assert key in SOURCES, f"{info.name} cites unknown source {key}"


def test_every_lead_and_blocked_action_names_a_registered_rule() -> None:
    for lead in LeadRule:
        assert lead.rule_id in RULES
    for action in BlockedAction:
        assert action.rule_id in RULES


# ---------------------------------------------------------------------------------------------
# Presets
# ---------------------------------------------------------------------------------------------

DECIDED = {
    "pagat-4x7",
    "pagat-4x6",
    "pagat-5x5",
    "block100",
    "chips",
    "domino4d",
    "suwiki-individual",
    "suwiki-partnership",
}
"""The presets decisions.md asks for at least."""


def test_every_decided_preset_exists_and_builds() -> None:
    assert set(PRESETS) >= DECIDED
    for name, preset in PRESETS.items():
        assert preset.name == name
        assert isinstance(ruleset(name), Ruleset)
        assert preset.title


def test_every_preset_uses_a_legal_deal_shape() -> None:
    # Research invariant 2: (4, 7, 0), (4, 6, 4) and (5, 5, 3) are the double-six deals.
    for preset in PRESETS.values():
        rules = preset.rules
        assert (rules.players, rules.hand_size, undealt(rules)) in {(4, 7, 0), (4, 6, 4), (5, 5, 3)}


@pytest.mark.parametrize(
    ("alias", "name"),
    [
        ("PAGAT", "pagat-4x7"),
        ("Gaple", "pagat-4x7"),
        ("pagat_4x7", "pagat-4x7"),
        ("  PAGAT-4X7 ", "pagat-4x7"),
        ("Block100", "block100"),
        ("CHIPS", "chips"),
        ("Sunda_Partnership", "suwiki-partnership"),
        ("sunda-individual", "suwiki-individual"),
        ("DOMINO4D", "domino4d"),
    ],
)
def test_aliases_resolve_ignoring_case_and_underscores(alias: str, name: str) -> None:
    assert find_preset(alias).name == name


def test_every_alias_resolves_to_its_preset() -> None:
    for preset in PRESETS.values():
        for alias in (preset.name, *preset.aliases):
            assert find_preset(alias.upper()) is preset


def test_unknown_preset_names_the_known_ones() -> None:
    with pytest.raises(UnknownPreset) as caught:
        find_preset("pagat-3x9")
    message = str(caught.value)
    assert "'pagat-3x9'" in message
    assert all(name in message for name in PRESETS)


def test_preset_overrides_are_validated() -> None:
    assert ruleset("chips", settlement="cumulative", match_hands=4).match_hands == 4
    with pytest.raises(InvalidRuleset, match="35"):
        check_rules(ruleset("pagat-5x5", hand_size=7))


def test_every_option_a_preset_changes_is_cited_with_known_sources() -> None:
    default = Ruleset()
    for preset in PRESETS.values():
        for option in OPTION_NAMES:
            if getattr(preset.rules, option) != getattr(default, option):
                citation = preset.citation(option)
                assert citation is not None, f"{preset.name}.{option} is not cited"
                assert citation.sources, f"{preset.name}.{option} cites nothing"
                for key in citation.sources:
                    assert key in SOURCES, f"{preset.name}.{option} cites unknown {key}"
        for option, citation in preset.citations.items():
            assert option in OPTION_NAMES, f"{preset.name} cites unknown option {option}"
            assert all(key in SOURCES for key in citation.sources)


def test_presets_follow_the_decided_readings() -> None:
    # decisions.md points 6-11: 0-0 opens 4 x 7 first hands; pagat discards, DOMINO4D and
    # SUWIKI pass; DOMINO4D's and SUWIKI's later hands are led with any tile.
    assert ruleset("pagat-4x7").first_lead is LeadRule.DOUBLE_BLANK
    assert ruleset("pagat-4x7").later_lead is LeadRule.DOUBLE
    assert ruleset("pagat-4x7").blocked_action is BlockedAction.DISCARD
    assert ruleset("domino4d").blocked_action is BlockedAction.PASS
    assert ruleset("domino4d").later_lead is LeadRule.ANY_TILE
    assert ruleset("suwiki-individual").blocked_action is BlockedAction.PASS
    assert ruleset("suwiki-partnership").partnership
    assert ruleset("block100").target == 100
    assert ruleset("suwiki-partnership").target == 500


# ---------------------------------------------------------------------------------------------
# Sourced and unsourced deals (C27)
# ---------------------------------------------------------------------------------------------


def test_every_preset_deal_is_sourced() -> None:
    # The presets deal 4 x 7, 4 x 6 and 5 x 5 from the double-six set, the three deals the
    # sources describe (PAGAT; BLOCK100 and CHIPS for 4 x 6).
    assert all(sourced(preset.rules) for preset in PRESETS.values())
    assert sourced(Ruleset(players=5, hand_size=5))


@pytest.mark.parametrize(
    "options",
    [
        {"players": 3},  # 3 x 7: 21 of 28 tiles, no source deals to three
        {"players": 2},  # 2 x 7
        {"players": 4, "hand_size": 5},  # 4 x 5
        {"players": 4, "hand_size": 1},  # 4 x 1
        {"players": 5, "hand_size": 4},  # 5 x 4: five seats, but not five tiles each
        {"max_pip": 5, "players": 4, "hand_size": 5},  # 4 x 5 of the double-five set
        {"max_pip": 7, "players": 4, "hand_size": 7},  # 4 x 7, but of the double-seven set
    ],
)
def test_other_deals_are_unsourced(options: dict[str, int]) -> None:
    assert not sourced(Ruleset().replace(**options))


@pytest.mark.parametrize("name", ["suwiki-individual", "suwiki-partnership"])
def test_sundanese_later_lead_does_not_cite_the_silent_article(name: str) -> None:
    # SUWIKI never says who leads later hands (C8): the value any-tile is the docs' reading,
    # borrowed from the starter deals where the previous winner starts (PAGAT, BLOCK100), so
    # the citation names C8 and not SUWIKI.
    citation = find_preset(name).citation("later_lead")
    assert citation is not None
    assert "SUWIKI" not in citation.sources
    assert "C8" in citation.note


# --- the defaults and the bounds of the numeric options ---------------------------------------


def test_the_default_options_are_the_base_rules_with_suwikis_challenge_multipliers() -> None:
    rules = Ruleset()
    # PAGAT counts 0-0 as 0 pips; the 25 is PAGAT-ID's and CHIPS' option.
    assert rules.double_blank_25 is False
    # SUWIKI: a won challenge scores the stake once, a lost one (neunggar cadas) twice.
    assert rules.challenge_win_multiplier == 1
    assert rules.challenge_loss_multiplier == 2
    # The dead and closing double values, the debit and the any-double house rule are SUWIKI's
    # options, off in the base rules.
    assert (rules.top_double_bonus, rules.blank_double_bonus) == (0, 0)
    assert rules.dead_double_debit is False
    assert rules.closing_any_double is False


def test_options_are_keyword_only() -> None:
    # Ruleset(6) would silently mean max_pip=6 if options were positional.
    with pytest.raises(TypeError):
        Ruleset(6)


def test_a_target_and_a_hand_count_of_1_are_the_smallest_allowed() -> None:
    # "at least 1": 1 is accepted, 0 refused.
    assert Ruleset(settlement=Settlement.DIFFERENCE, target=1).target == 1
    with pytest.raises(InvalidRuleset, match="target must be at least 1, got 0"):
        Ruleset(settlement=Settlement.DIFFERENCE, target=0)
    assert Ruleset(settlement=Settlement.CUMULATIVE, match_hands=1).match_hands == 1
    with pytest.raises(InvalidRuleset, match="needs match_hands >= 1"):
        Ruleset(settlement=Settlement.CUMULATIVE, match_hands=0)


@settings(max_examples=300)
@given(
    first=st.sampled_from(list(LeadRule)),
    later=st.sampled_from(list(LeadRule)),
    bans=st.frozensets(st.sampled_from(tile_set(6).tiles), max_size=8),
)
def test_a_ruleset_is_refused_exactly_when_the_reference_leaves_no_lead(
    first: LeadRule, later: LeadRule, bans: frozenset[Tile]
) -> None:
    # check_rules keeps the rulesets it passed; its answer must be the reference's own. The
    # reference is asked afresh of the same options on 4 x 6, a deal
    # that leaves tiles undealt, where no lead check applies (a starter opens the line).
    asked = Ruleset(hand_size=6, first_lead=first, later_lead=later, forbidden_leads=bans)
    no_lead = [
        name
        for name, hand in (("first_lead", True), ("later_lead", False))
        if not leadable(asked, first_hand=hand)
    ]
    whole = Ruleset(first_lead=first, later_lead=later)
    if no_lead:
        with pytest.raises(InvalidRuleset, match=f"^{no_lead[0]} = "):
            check_rules(whole.replace(forbidden_leads=bans))
    else:
        check_rules(whole.replace(forbidden_leads=bans))
