"""The Hypothesis strategies of :mod:`gaple.testing`: rules, deals, hands, positions, transcripts.

Every strategy draws only valid things (a ruleset :class:`gaple.rules.Ruleset` accepts, a deal
of the whole set, legal moves), and draws them so that Hypothesis shrinks a failure towards a small
set, few seats and a short hand.
"""

# No "from __future__ import annotations": the docs read the annotations of the functions
# st.composite wraps, which would have to be resolved in Hypothesis's namespace.

from typing import Any

from attrs import frozen
from hypothesis import strategies as st

from gaple.deal import Deal, deal_in_order, shuffle_deal
from gaple.io import state_to_json
from gaple.presets import PRESETS
from gaple.result import Position, position_of
from gaple.rules import BlockedAction, InvalidRuleset, LeadRule, Ruleset, Settlement
from gaple.state import State, apply, check_rules, legal_moves, new_hand
from gaple.tiles import Tile, tile_set

__all__ = [
    "SMALL_SETS",
    "Playout",
    "deals",
    "games",
    "playouts",
    "positions",
    "preset_rulesets",
    "random_rulesets",
    "rulesets",
    "states",
    "transcripts",
]

SMALL_SETS = (2, 3, 4)
"""The small double-N sets random rulesets use besides double-six."""

_SEED = st.integers(min_value=0, max_value=2**64 - 1)


def preset_rulesets() -> st.SearchStrategy[Ruleset]:
    """The ruleset of every preset."""
    return st.sampled_from([preset.rules for preset in PRESETS.values()])


@st.composite
def random_rulesets(draw: st.DrawFn, max_pips: tuple[int, ...] = (*SMALL_SETS, 6)) -> Ruleset:
    """A random valid combination of options, on a small set or the double-six set.

    Covers every seat count and hand size that fits the set (so deals with and without
    undealt tiles), pass and discard, every lead rule for first and later hands, house bans on
    leading some tiles, and partnership seating with four seats.
    """
    max_pip = draw(st.sampled_from(max_pips))
    full = tile_set(max_pip)
    players = draw(st.integers(min_value=2, max_value=min(6, full.size)))
    hand_size = draw(st.integers(min_value=1, max_value=full.size // players))
    partnership = players == 4 and draw(st.booleans())
    first_lead = draw(st.sampled_from(LeadRule))
    later_lead = draw(st.sampled_from(LeadRule))
    forbidden = draw(st.frozensets(st.sampled_from(full.tiles), max_size=2))
    if players * hand_size == full.size and LeadRule.DOUBLE_BLANK in (first_lead, later_lead):
        # With every tile dealt and only 0-0 allowed to open, banning 0-0 leaves no lead at
        # all; check_rules refuses that (tested in test_rules), so it is not drawn here.
        forbidden = forbidden.difference({Tile(0, 0)})
    if partnership:
        settlement = draw(st.sampled_from([Settlement.PER_HAND, Settlement.PARTNERSHIP]))
    else:
        settlement = draw(
            st.sampled_from([Settlement.PER_HAND, Settlement.CHIPS, Settlement.DIFFERENCE])
        )
    try:
        rules = Ruleset(
            max_pip=max_pip,
            players=players,
            hand_size=hand_size,
            partnership=partnership,
            first_lead=first_lead,
            later_lead=later_lead,
            forbidden_leads=forbidden,
            blocked_action=draw(st.sampled_from(BlockedAction)),
            double_blank_25=draw(st.booleans()),
            settlement=settlement,
        )
        check_rules(rules)
    except InvalidRuleset as error:  # pragma: no cover - a strategy bug, not a rules bug
        msg = f"random_rulesets drew an invalid combination: {error}"
        raise AssertionError(msg) from error
    return rules


def rulesets() -> st.SearchStrategy[Ruleset]:
    """A preset or a random valid option combination."""
    return st.one_of(preset_rulesets(), random_rulesets())


@st.composite
def deals(draw: st.DrawFn, rules: Ruleset) -> Deal:
    """A deal for ``rules``: from a drawn shuffle seed, or from a drawn order of the set.

    The designated first seat is drawn too, so every seat gets to open or act first.
    """
    first_seat = draw(st.integers(min_value=0, max_value=rules.players - 1))
    if draw(st.booleans()):
        return shuffle_deal(rules, draw(_SEED), first_seat=first_seat)
    order = draw(st.permutations(tile_set(rules.max_pip).tiles))
    return deal_in_order(rules, order, first_seat)


@st.composite
def playouts(
    draw: st.DrawFn, rules: Ruleset, deal: Deal, *, first_hand: bool = True
) -> tuple[State, ...]:
    """Every state of one hand from the deal to its end, each move drawn from ``legal_moves``."""
    state = new_hand(rules, deal, first_hand=first_hand)
    states = [state]
    while moves := legal_moves(state):
        state = apply(state, moves[draw(st.integers(min_value=0, max_value=len(moves) - 1))])
        states.append(state)
    return tuple(states)


@frozen
class Playout:
    """A hand played to its end: its rules, deal, which lead rule applied, and every state."""

    rules: Ruleset
    deal: Deal
    first_hand: bool
    states: tuple[State, ...]


@st.composite
def games(draw: st.DrawFn, rules: st.SearchStrategy[Ruleset] | None = None) -> Playout:
    """Rules, a deal, a first or later hand, and a random playout of it."""
    chosen = draw(rulesets() if rules is None else rules)
    deal = draw(deals(chosen))
    first_hand = draw(st.booleans())
    states = draw(playouts(chosen, deal, first_hand=first_hand))
    return Playout(chosen, deal, first_hand, states)


@st.composite
def states(draw: st.DrawFn, rules: st.SearchStrategy[Ruleset] | None = None) -> State:
    """One state of a hand: the deal, the end, or anywhere in between."""
    played = draw(games(rules))
    return played.states[draw(st.integers(min_value=0, max_value=len(played.states) - 1))]


@st.composite
def positions(draw: st.DrawFn, rules: st.SearchStrategy[Ruleset] | None = None) -> Position:
    """The finished position of a hand played to its end."""
    return position_of(draw(games(rules)).states[-1])


@st.composite
def transcripts(draw: st.DrawFn, rules: st.SearchStrategy[Ruleset] | None = None) -> dict[str, Any]:
    """A finished hand as a transcript: rules, deal, actions and what the spec shows at the end."""
    return state_to_json(draw(games(rules)).states[-1])
