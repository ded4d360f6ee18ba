"""Partnership scoring, engine against reference, on every play of families of double-4 deals.

The exhaustive comparisons of :mod:`test_reference_result` reach partnership scoring only on
sets where no hand of four seats blocks (double-2, 4 x 1) or no double can die (double-3: a
line holding every other tile of a number shows it an odd number of times, so at an end).
The double-4 set has both: four other tiles per number, so a line can hold them all with the
number inside it. All 15 tiles dealt 4 x 2 with every starter is about 10^8 deals, so each
*family* fixes the starter and the 8 dealt tiles and takes every one of the
8! / 2!^4 = 2520 ways to deal them to seats 0..3 (seat 0 designated); the 6 other tiles are
set aside. Each family is played under pass and under discard, every legal play sequence
to its end, and every end state is scored by the engine and the reference under three sets
of scoring options (:data:`VARIANTS`).

* Family "dead 4-4": starter 1-4; dealt 0-4 2-4 3-4 4-4 0-0 1-1 0-2 1-3. Every other 4 can
  reach the line with 4 inside it (0-4 4-1 1-3 3-4 4-2, ends 0 and 2), so 4-4 can die; or
  with 4 at both ends (4-1 1-3 3-4 4-0 0-2 2-4), so it is kept alive by an open end alone.
* Family "dead 0-0": starter 0-2; dealt 0-0 0-1 0-3 0-4 4-4 1-1 3-3 3-4. Likewise for 0-0
  (1-0 0-3 3-4 4-0 0-2, ends 1 and 2), where it counts 25 under the double-blank option. The
  starter is a 0 so that a discarded 0-0 can die: with two tiles each a hand has at most
  five actions (the first seat's second ends it), 0-0 is discarded only when no end shows a
  0, and the four other 0s must still all reach the line; with the starter 1-2 no hand of
  the family did that (the mutant "a discarded double dies" survived).

Tiles of the other special double's number lie set aside in each, keeping it alive from
there. Under the ``ci`` Hypothesis profile each family also takes each of its nine tiles as
the starter (9 x 2520 deals).

Scoring reads only the finished position, so play sequences ending in the same hands,
discards, line, ends and last action (which fixes the seat out, the closing tile or the
blocker) are scored once: each distinct finished position is compared under every variant.
The engine's fields (:class:`~gaple.engine.scoring.QuietFields`: counts, winner, team,
points, replay) are compared with the reference's (:func:`test_reference_result.fields_of`);
the engine keeps no fates, closing bonus or challenge of its own, so a wrong one shows in
the points. Default figures (``pytest -s`` prints them); the shares are of end states, under
the "suwiki" variant ("tied" is a tie replayed, "closing" a closing bonus paid, "out with a
double" a seat out placing any double):

=================  ======  =====  =========  =======  =====  =====  =======  ============
family, action     deals   end    positions  blocked  tied   dead   closing  out with a
                           states                                            double
=================  ======  =====  =========  =======  =====  =====  =======  ============
dead 4-4, pass     2520    11726  5585       19.2%    1.30%  5.9%   11.0%    17.2%
dead 4-4, discard  2520    17692  10108      19.4%    1.33%  2.6%   7.2%     13.2%
dead 0-0, pass     2520    4236   2946       23.2%    0.21%  6.7%   9.6%     22.0%
dead 0-0, discard  2520    11886  11598      19.9%    0.19%  0.6%   5.8%     22.5%
=================  ======  =====  =========  =======  =====  =====  =======  ============

:func:`test_every_mutant_of_partnership_scoring_is_caught` plants each break of the engine's
dead-double, closing-bonus and challenge rules (:data:`MUTANTS`, text edits of
:mod:`gaple.engine.scoring`) and shows the same comparison fails on these end states.
"""

from __future__ import annotations

import collections
import functools
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import attrs
import pytest
from attrs import frozen

import gaple.engine.scoring
from gaple.deal import Deal
from gaple.engine.scoring import QuietFields
from gaple.hand import Ending
from gaple.position import position_of
from gaple.reference.scoring import Reckoning, reckon
from gaple.rules import BlockedAction, ChallengeTie, LeadRule, Ruleset, Settlement, StakeBase
from gaple.state import State, apply, legal_moves, new_hand
from gaple.tiles import Tile, parse_tiles, tile_set
from test_exhaustive import CI, seat_hands
from test_reference_result import engine_agrees, fields_of, situations


@frozen
class Family:
    """A starter and the 8 tiles dealt around it; the rest of the set is set aside."""

    name: str
    starter: str
    dealt: str

    def tiles(self) -> tuple[Tile, ...]:
        """The starter and the dealt tiles."""
        return (Tile.parse(self.starter), *parse_tiles(self.dealt))


FAMILIES = (
    Family("dead 4-4", "1-4", "0-4 2-4 3-4 4-4 0-0 1-1 0-2 1-3"),
    Family("dead 0-0", "0-2", "0-0 0-1 0-3 0-4 4-4 1-1 3-3 3-4"),
)

DEALS_PER_STARTER = 2520
"""8 tiles to four seats, 2 each, in seat order: 8! / 2!^4 = 40320 / 16."""

# Each option of partnership scoring takes at least two values across the three sets, and in
# each the two special doubles have different values, so that one taken for the other shows.
# "suwiki" is the preset's scoring (the shares are counted under it); "flipped" turns every
# other option; "top only" leaves 0-0 without a value, so that a double of value 0 dying
# would show, and pays each challenge on a stake neither other set uses.
VARIANTS: dict[str, dict[str, Any]] = {
    "suwiki": {"top_double_bonus": 100, "blank_double_bonus": 50},
    "flipped": {
        "top_double_bonus": 40,
        "blank_double_bonus": 30,
        "dead_double_debit": True,
        "closing_any_double": True,
        "challenge_tie": ChallengeTie.BLOCKER_LOSES,
        "challenge_win_base": StakeBase.BLOCKER_PAIR,
        "challenge_win_multiplier": 3,
        "challenge_loss_base": StakeBase.OTHER_PAIR,
        "challenge_loss_multiplier": 1,
        "double_blank_25": True,
    },
    "top only": {
        "top_double_bonus": 100,
        "double_blank_25": True,
        "challenge_win_base": StakeBase.OTHER_PAIR,
        "challenge_win_multiplier": 2,
        "challenge_loss_base": StakeBase.BLOCKER_PAIR,
        "challenge_loss_multiplier": 3,
    },
}


def playing_rules(action: BlockedAction) -> Ruleset:
    """Four seats of two double-4 tiles in partnership; seven undealt, so a starter."""
    return Ruleset(
        max_pip=4,
        players=4,
        hand_size=2,
        partnership=True,
        settlement=Settlement.PARTNERSHIP,
        blocked_action=action,
        first_lead=LeadRule.ANY_TILE,
    )


def family_deals(family: Family, starters: tuple[Tile, ...]) -> Iterator[Deal]:
    """Every deal of the family's tiles around each of ``starters``, seat 0 designated."""
    tiles = family.tiles()
    aside = [t for t in tile_set(4).tiles if t not in tiles]
    for starter in starters:
        dealt = [t for t in tiles if t != starter]
        for hands in seat_hands(dealt, 4, 2):
            yield Deal(hands=hands, starter=starter, set_aside=aside)


Case = tuple[State, QuietFields, frozenset[str]]
"""An end state under one scoring variant, the reference's fields for it, and its facts."""


@frozen
class Enumeration:
    """What one family under one blocked action reached."""

    deals: int
    end_states: int
    positions: int
    """Distinct finished positions, each scored under every variant."""
    shares: collections.Counter[str]
    """End states meeting each fact under the "suwiki" variant."""
    met: frozenset[str]
    """Facts met under any variant."""
    cases: tuple[Case, ...]


def facts_of(reckoning: Reckoning) -> frozenset[str]:
    """What scoring met (:func:`~test_reference_result.situations`), and whether the hand
    blocked and the blocker won, which special double died and whether the seat went out
    placing a double."""
    score = reckoning.partnership
    assert score is not None  # scored under partnership settlement
    seen = set(situations(reckoning))
    seen |= {f"dead {fate.tile}" for fate in score.fates if fate.dead}
    if reckoning.position.ending is Ending.BLOCKED:
        seen.add("blocked")
    if score.challenge is not None and score.challenge.blocker_won:
        seen.add("blocker won")
    closing = reckoning.position.closing
    if closing is not None and closing.is_double:
        seen.add("out with a double")
    return frozenset(seen)


def _scoring_key(state: State) -> tuple[object, ...]:
    # Everything scoring reads: the hands, discards and line, the ends, and the last action,
    # which fixes the seat out and its closing tile, or the blocker (with no action, the
    # starter blocked the hand and the blocker is the seat before seat 0).
    last = state.history[-1] if state.history else None
    return (state.hand_masks, state.discard_masks, state.line_mask, state.ends, last)


@functools.cache
def enumerate_family(family: Family, action: BlockedAction) -> Enumeration:
    """Play every deal of ``family`` to every end and compare the engine with the reference
    on each distinct finished position under every variant."""
    rules = playing_rules(action)
    starters = family.tiles() if CI else family.tiles()[:1]
    finished: dict[tuple[object, ...], tuple[State, int]] = {}
    deals = 0
    for deal in family_deals(family, starters):
        deals += 1
        stack = [new_hand(rules, deal)]
        while stack:
            state = stack.pop()
            if state.ending is None:
                stack.extend(apply(state, move) for move in legal_moves(state))
                continue
            key = _scoring_key(state)
            first, seen = finished.get(key, (state, 0))
            finished[key] = (first, seen + 1)
    cases: list[Case] = []
    shares: collections.Counter[str] = collections.Counter()
    met: set[str] = set()
    variants = {name: attrs.evolve(rules, **options) for name, options in VARIANTS.items()}
    for state, weight in finished.values():
        position = position_of(state)
        for name, variant in variants.items():
            reckoning = reckon(attrs.evolve(position, rules=variant))
            expected = fields_of(reckoning)
            scored = attrs.evolve(state, rules=variant)
            engine_agrees(scored, expected)
            facts = facts_of(reckoning)
            cases.append((scored, expected, facts))
            met |= facts
            if name == "suwiki":
                shares.update(dict.fromkeys(facts, weight))
    ends = sum(weight for _, weight in finished.values())
    return Enumeration(deals, ends, len(finished), shares, frozenset(met), tuple(cases))


# Met in every family and both actions: the challenge and a tie under each rule; every fate
# but a discarded double's, a tile of the double's number keeping it alive from a hand and
# from the set-aside tiles; closing bonuses, by the rule and by the house rule.
REQUIRED = frozenset(
    {
        "blocked",
        "challenge",
        "tie replay",
        "tie blocker-loses",
        "fate dead",
        "fate kept-alive",
        "fate open-end",
        "fate own-pair-out",
        "fate blocked-hand",
        "keeper hand",
        "keeper set-aside",
        "closing",
        "closing house rule",
        "out with a double",
    }
)
# Only a seat that cannot place discards: a discarded double, and a discarded tile keeping a
# double alive.
REQUIRED_DISCARD = REQUIRED | {"fate discarded", "keeper discarded"}

SHOWN = ("blocked", "tie replay", "dead 4-4", "dead 0-0", "closing", "out with a double")


@pytest.mark.parametrize("action", BlockedAction, ids=lambda a: a.value)
@pytest.mark.parametrize("family", FAMILIES, ids=lambda f: f.name.replace(" ", "-"))
def test_every_end_of_a_family_scores_alike_in_the_engine_and_the_reference(
    family: Family, action: BlockedAction
) -> None:
    found = enumerate_family(family, action)
    shares = ", ".join(f"{fact} {found.shares[fact] / found.end_states:.2%}" for fact in SHOWN)
    print(
        f"\n{family.name} {action.value}: {found.deals} deals, {found.end_states} end states, "
        f"{found.positions} positions x {len(VARIANTS)} variants; {shares}"
    )
    assert found.deals == (len(family.tiles()) if CI else 1) * DEALS_PER_STARTER
    assert found.end_states >= found.deals  # every deal is played to at least one end
    required = REQUIRED_DISCARD if action is BlockedAction.DISCARD else REQUIRED
    assert required | {family.name} <= found.met
    # Counted under "suwiki" alone, each fact shown is met there.
    assert all(found.shares[fact] > 0 for fact in ("blocked", "tie replay", family.name))


# --- planted breaks ------------------------------------------------------------------------

SOURCE_PATH = Path(gaple.engine.scoring.__file__)

# (name, anchor in gaple/engine/scoring.py, what replaces it): each flips or changes one branch
# of the dead-double (_specials, _out), closing-bonus (_closing) or challenge (_challenge,
# _partnership) rules.
MUTANTS = (
    ("a double of value 0 is special", "if value > 0)", "if value >= 0)"),
    ("own pair's double dies", "for s in opponents if double", "for s in range(4) if double"),
    (
        "a discarded double dies",
        "double in pos.hands[s]",
        "double in pos.hands[s] + pos.discards[s]",
    ),
    (
        "an open end keeps nothing alive",
        "holder is None or pip in pos.ends or",
        "holder is None or",
    ),
    (
        "nothing keeps a double alive",
        " or full.suit[pip] & ~line & ~(1 << full.index[double]):",
        ":",
    ),
    ("set-aside tiles keep nothing alive", "& ~line &", "& ~line & ~full.mask(pos.set_aside) &"),
    (
        "discards keep nothing alive",
        "& ~line &",
        "& ~line & ~full.mask([t for d in pos.discards for t in d]) &",
    ),
    (
        "hands keep nothing alive",
        "& ~line &",
        "& ~line & ~full.mask([t for h in pos.hands for t in h]) &",
    ),
    ("a dead double adds its pips", "extra += value - (", "extra += value + ("),
    ("the top double counts one half", "else 2 * pip)", "else pip)"),
    (
        "a dead 0-0 counted nothing",
        "(blank_bonus(full, held, rules.double_blank_25) if pip == 0",
        "(0 if pip == 0",
    ),
    ("the debit ignores its option", "if debit and rules.dead_double_debit:", "if debit:"),
    ("the debit is credited", "points[1 - team] = -debit", "points[1 - team] = debit"),
    ("no closing bonus", " + _closing(rules, pos.closing)", ""),
    (
        "any last tile closes",
        "if closing is None or not closing.is_double:",
        "if closing is None:",
    ),
    (
        "the house rule ignored",
        "closing.low == rules.max_pip or rules.closing_any_double",
        "closing.low == rules.max_pip",
    ),
    (
        "the house rule needed for the top double",
        "closing.low == rules.max_pip or rules.closing_any_double",
        "closing.low == rules.max_pip and rules.closing_any_double",
    ),
    (
        "0-0 closes at the top value",
        "return rules.blank_double_bonus if closing.low == 0 else 0",
        "return rules.top_double_bonus if closing.low == 0 else 0",
    ),
    (
        "any double closes at the blank value",
        "return rules.blank_double_bonus if closing.low == 0 else 0",
        "return rules.blank_double_bonus",
    ),
    (
        "the rival is the seat before",
        "rival = (blocker + 1) % rules.players",
        "rival = (blocker + 3) % rules.players",
    ),
    (
        "every tie replayed",
        "if mine == theirs and rules.challenge_tie is ChallengeTie.REPLAY:",
        "if mine == theirs:",
    ),
    ("the tie rules swapped", "ChallengeTie.REPLAY:", "ChallengeTie.BLOCKER_LOSES:"),
    ("a tie won by the blocker", "if mine < theirs:", "if mine <= theirs:"),
    (
        "a win at the loss base",
        "blocker, rules.challenge_win_base,",
        "blocker, rules.challenge_loss_base,",
    ),
    (
        "a loss at the win base",
        "rival, rules.challenge_loss_base,",
        "rival, rules.challenge_win_base,",
    ),
    (
        "a win at the loss multiplier",
        "rules.challenge_win_multiplier",
        "rules.challenge_loss_multiplier",
    ),
    (
        "a loss at the win multiplier",
        "rules.challenge_loss_multiplier",
        "rules.challenge_win_multiplier",
    ),
    (
        "the stake of all hands taken by pair",
        "if base is StakeBase.ALL:",
        "if base is not StakeBase.ALL:",
    ),
    (
        "the pairs' stakes swapped",
        "own if base is StakeBase.BLOCKER_PAIR else 1 - own",
        "1 - own if base is StakeBase.BLOCKER_PAIR else own",
    ),
    ("the stake not multiplied", "= stake * multiplier", "= stake"),
    (
        "the blocker's pair always paid",
        "points[table(rules).team_of(winner)] = stake",
        "points[table(rules).team_of(blocker)] = stake",
    ),
    ("a replay not flagged", "points, winner is None)", "points, False)"),
)


def mutant_module(source: str, anchor: str, replacement: str) -> ModuleType:
    """``source`` (a copy of :mod:`gaple.engine.scoring`) with its one ``anchor`` replaced,
    loaded as a module of its own; an anchor found other than once is an error, so a drifted
    source fails loudly rather than leaving a break unplanted."""
    found = source.count(anchor)
    assert found == 1, f"anchor {anchor!r} found {found} times in {SOURCE_PATH}"
    module = ModuleType("gaple_engine_scoring_mutant")
    exec(compile(source.replace(anchor, replacement), str(SOURCE_PATH), "exec"), module.__dict__)
    return module


@functools.cache
def every_case() -> tuple[Case, ...]:
    """Every case of the enumeration, first one of each ruleset and set of facts, so that a
    break only a rare fact or one variant shows is found without scanning the rest."""
    cases = [
        case
        for family in FAMILIES
        for action in BlockedAction
        for case in enumerate_family(family, action).cases
    ]
    firsts = {(case[0].rules, case[2]): case for case in reversed(cases)}
    chosen = set(map(id, firsts.values()))
    return (*firsts.values(), *(case for case in cases if id(case) not in chosen))


def disagrees(quiet: Callable[[State], QuietFields]) -> bool:
    """Whether the comparison fails for some case with ``quiet`` as the engine."""
    for state, expected, _ in every_case():
        try:
            engine_agrees(state, expected, quiet)
        except AssertionError:
            return True
    return False


def test_the_unmutated_copy_passes_the_comparison() -> None:
    # The loading alone must not make the comparison fail: the empty edit of an anchor.
    module = mutant_module(SOURCE_PATH.read_text(), "if mine < theirs:", "if mine < theirs:")
    assert not disagrees(module.quiet_fields)


@pytest.mark.parametrize(
    ("anchor", "replacement"), [m[1:] for m in MUTANTS], ids=[m[0] for m in MUTANTS]
)
def test_every_mutant_of_partnership_scoring_is_caught(anchor: str, replacement: str) -> None:
    module = mutant_module(SOURCE_PATH.read_text(), anchor, replacement)
    assert disagrees(module.quiet_fields)


@pytest.mark.parametrize("source", ["y = 1\n", "x = 1\nx = 1\n"], ids=["missing", "twice"])
def test_an_anchor_found_other_than_once_is_refused(source: str) -> None:
    with pytest.raises(AssertionError, match=r"found [02] times"):
        mutant_module(source, "x = 1", "x = 2")
