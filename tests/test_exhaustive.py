"""Every deal and every reachable state of small sets, with every invariant checked at each.

* Double-2 (6 tiles): every seat count and hand size that fits, pass and discard, and for the
  deals with no undealt tile every lead rule. Runs by default.
* Double-3 (10 tiles), 2 and 3 seats, with and without undealt tiles, pass and discard. Runs
  under the ``ci`` Hypothesis profile only (``HYPOTHESIS_PROFILE=ci``): several million states.

Two symmetries keep the enumerations small without losing any game:

* Turning the table: a deal with designated seat f plays exactly like the same deal with every
  hand moved f seats back and seat 0 designated (turn order and the lead rules only look at
  seats relative to each other). So only ``first_seat = 0`` is enumerated, with every
  assignment of hands to seats.
* Renaming numbers (double-3 only): exchanging pip values by a permutation maps a deal to one
  whose game is the same up to the names of the numbers and a mirror image of the line, when
  the lead rule is "any tile" or "a double" (a renamed double is a double) or there is a
  starter. Every deal can be renamed so that seat 0's hand is the smallest of its renamings;
  only such deals are enumerated.

``pytest -s`` prints the number of deals and states visited; each test also asserts a lower
bound on them reasoned from the counts of deals, so an enumeration cannot silently shrink.

Sharding: with ``GAPLE_EXHAUSTIVE_SHARD=I/N`` every enumeration still counts every deal but
explores only deal number k (from 0, in enumeration order) with k % N == I - 1, so N processes
or CI jobs share the work evenly; ``tools/exhaustive.py --jobs J --shard I/N`` runs J of them
side by side. The shards together explore every deal once.
"""

from __future__ import annotations

import itertools
import math
import os
from collections.abc import Iterator, Sequence

import pytest
from attrs import frozen
from hypothesis import settings

from checks import check_move_agreement, check_state, check_step, max_actions
from gaple.deal import Deal
from gaple.reference.deal import turns_up_starter
from gaple.rules import BlockedAction, LeadRule, Ruleset
from gaple.state import State, apply, legal_moves, new_hand
from gaple.tiles import Tile, tile_set

CI = settings.get_current_profile_name() == "ci"


def _shard() -> tuple[int, int]:
    """This process's shard (index from 0, count) from ``GAPLE_EXHAUSTIVE_SHARD=I/N``."""
    text = os.environ.get("GAPLE_EXHAUSTIVE_SHARD", "1/1")
    index, _, count = text.partition("/")
    if not (index.isdigit() and count.isdigit() and 1 <= int(index) <= int(count)):
        msg = f"GAPLE_EXHAUSTIVE_SHARD must be I/N with 1 <= I <= N, got {text!r}"
        raise pytest.UsageError(msg)
    return int(index) - 1, int(count)


SHARD = _shard()


@frozen
class Summary:
    """What one enumeration visited."""

    deals: int
    explored: int
    """The deals of this shard, whose states were visited (all of them without sharding)."""
    states: int
    longest: int
    """The most actions in any hand."""


def seat_hands(tiles: Sequence[Tile], players: int, size: int) -> Iterator[list[tuple[Tile, ...]]]:
    """Every way to give ``size`` of ``tiles`` to each of ``players`` seats, in seat order."""
    if players == 0:
        yield []
        return
    for hand in itertools.combinations(tiles, size):
        rest = [t for t in tiles if t not in hand]
        for others in seat_hands(rest, players - 1, size):
            yield [hand, *others]


def _smallest_renaming(hand: tuple[Tile, ...], max_pip: int) -> bool:
    """Whether no renaming of the numbers gives ``hand`` a smaller sorted form."""
    own = sorted(hand)
    for perm in itertools.permutations(range(max_pip + 1)):
        if sorted(Tile(perm[t.low], perm[t.high]) for t in hand) < own:
            return False
    return True


def all_deals(rules: Ruleset, *, renamed: bool) -> Iterator[Deal]:
    """Every deal with seat 0 designated (and, if ``renamed``, seat 0's hand smallest)."""
    tiles = tile_set(rules.max_pip).tiles
    for hand in itertools.combinations(tiles, rules.hand_size):
        if renamed and not _smallest_renaming(hand, rules.max_pip):
            continue
        rest = [t for t in tiles if t not in hand]
        for others in seat_hands(rest, rules.players - 1, rules.hand_size):
            hands = [hand, *others]
            undealt = [t for t in rest if not any(t in h for h in others)]
            if not undealt:
                yield Deal(hands=hands)
            for starter in undealt:
                aside = [t for t in undealt if t != starter]
                yield Deal(hands=hands, starter=starter, set_aside=aside)


def explore(rules: Ruleset, deal: Deal, *, every_move: bool) -> tuple[int, int]:
    """Visit every state reachable from ``deal``, checking every invariant at each.

    Returns the number of states visited and the most actions in a hand. With ``every_move``
    each state is also checked against every move of the set (acceptance and error codes).
    """
    visited = longest = 0
    stack: list[State] = [new_hand(rules, deal)]
    while stack:
        state = stack.pop()
        visited += 1
        check_state(state)
        if every_move:
            check_move_agreement(state)
        longest = max(longest, len(state.history))
        for move in legal_moves(state):
            after = apply(state, move)
            check_step(state, move, after)
            stack.append(after)
    return visited, longest


def enumerate_all(
    rules: Ruleset, *, renamed: bool, every_move: bool, shard: tuple[int, int] = (0, 1)
) -> Summary:
    """Count every deal; explore deal k when k % count == index for ``shard`` (index, count)."""
    index, count = shard
    deals = explored = states = longest = 0
    for k, deal in enumerate(all_deals(rules, renamed=renamed)):
        deals += 1
        if k % count != index:
            continue
        explored += 1
        visited, hand_longest = explore(rules, deal, every_move=every_move)
        states += visited
        longest = max(longest, hand_longest)
    return Summary(deals, explored, states, longest)


def _shard_size(deals: int, shard: tuple[int, int]) -> int:
    """How many of deals 0 .. deals - 1 fall in ``shard``: those k with k % count == index."""
    index, count = shard
    return len(range(index, deals, count))


def deal_count(rules: Ruleset) -> int:
    """Deals with seat 0 designated: ways to fill the seats in order, times starter choices.

    n! / (h!^p (n - p h)!) hand assignments; with u > 0 undealt tiles, u choices of starter.
    """
    n, p, h = tile_set(rules.max_pip).size, rules.players, rules.hand_size
    u = n - p * h
    assignments: int = math.factorial(n) // (math.factorial(h) ** p * math.factorial(u))
    return assignments * max(u, 1)


def _report(rules: Ruleset, summary: Summary) -> None:
    print(
        f"\ndouble-{rules.max_pip} {rules.players}x{rules.hand_size} "
        f"{rules.blocked_action.value} {rules.first_lead.value}: {summary.deals} deals, "
        f"{summary.explored} explored, {summary.states} states, longest hand {summary.longest} "
        "actions "
        f"(bound {max_actions(rules)})"
    )


def _lower_bound(rules: Ruleset, deals: int) -> int:
    # Every deal contributes its first state. Without a starter the opener always has a lead
    # (the lead rules are validated to leave one), so each such deal has a second state too.
    return deals if turns_up_starter(rules) else 2 * deals


def _name(rules: Ruleset) -> str:
    return (
        f"{rules.players}x{rules.hand_size}-{rules.blocked_action.value}-{rules.first_lead.value}"
    )


# Double-2: (players, hand size) with players * hand size <= 6.
DOUBLE_2_SHAPES = [(2, 1), (2, 2), (2, 3), (3, 1), (3, 2), (4, 1), (5, 1), (6, 1)]
DOUBLE_2 = [
    Ruleset(max_pip=2, players=p, hand_size=h, blocked_action=action, first_lead=lead)
    for p, h in DOUBLE_2_SHAPES
    for action in BlockedAction
    # The lead rule matters only when every tile is dealt.
    for lead in (LeadRule if p * h == 6 else [LeadRule.ANY_TILE])
]


@pytest.mark.parametrize(
    "rules",
    DOUBLE_2,
    ids=lambda r: f"{r.players}x{r.hand_size}-{r.blocked_action.value}-{r.first_lead.value}",
)
def test_every_state_of_every_double_2_deal(rules: Ruleset) -> None:
    summary = enumerate_all(rules, renamed=False, every_move=True, shard=SHARD)
    _report(rules, summary)
    assert summary.deals == deal_count(rules)
    assert summary.explored == _shard_size(summary.deals, SHARD)
    assert summary.states >= _lower_bound(rules, summary.explored)
    assert summary.longest <= max_actions(rules)


# Double-3: 2 seats with 5 (none undealt), 4 and 3 tiles; 3 seats with 3 (only the starter
# undealt) and 2 tiles.
DOUBLE_3 = [
    Ruleset(max_pip=3, players=p, hand_size=h, blocked_action=action, first_lead=lead)
    for p, h in [(2, 5), (2, 4), (2, 3), (3, 3), (3, 2)]
    for action in BlockedAction
    for lead in ([LeadRule.ANY_TILE, LeadRule.DOUBLE] if p * h == 10 else [LeadRule.ANY_TILE])
]


@pytest.mark.skipif(not CI, reason="millions of states: runs under HYPOTHESIS_PROFILE=ci")
@pytest.mark.parametrize(
    "rules",
    DOUBLE_3,
    ids=lambda r: f"{r.players}x{r.hand_size}-{r.blocked_action.value}-{r.first_lead.value}",
)
def test_every_state_of_every_double_3_deal_up_to_renaming(rules: Ruleset) -> None:
    summary = enumerate_all(rules, renamed=True, every_move=False, shard=SHARD)
    _report(rules, summary)
    # Each class of renamings holds at most 4! = 24 of seat 0's C(10, h) possible hands and
    # contains one smallest hand, so at least C(10, h) / 24 hands are kept for seat 0, each
    # with every assignment of the other tiles.
    rest = deal_count(rules) // math.comb(tile_set(rules.max_pip).size, rules.hand_size)
    assert (
        summary.deals
        >= math.ceil(math.comb(tile_set(rules.max_pip).size, rules.hand_size) / 24) * rest
    )
    assert summary.deals < deal_count(rules)
    assert summary.explored == _shard_size(summary.deals, SHARD)
    assert summary.states >= _lower_bound(rules, summary.explored)
    assert summary.longest <= max_actions(rules)


# --- the exact maximum length of a hand --------------------------------------------------------


def longest_from(state: State, memo: dict[tuple[object, ...], int]) -> int:
    """The most actions any legal continuation of ``state`` takes to the end of the hand.

    What can still happen depends only on the hands, the ends and the seat to act, never on the
    way there, so a position reached by several orders of play is searched once (``memo``).
    """
    key = (state.hand_masks, state.ends, state.to_act)
    if key not in memo:
        memo[key] = max(
            (1 + longest_from(apply(state, move), memo) for move in legal_moves(state)), default=0
        )
    return memo[key]


# (players, hand size, exact maximum) on the double-3 set under PASS, every lead allowed. The
# maxima were first found by the independent review's own referee; the search below finds them
# again with the spec's state machine. 2 x 3 with a starter: 9 is reached by the hand in
# test_state_properties and is also max_actions' bound (T = 5, 5 + 1 * 4), so it is exact by
# hand. The others lie below the bound: 2 x 4 (T = 7, bound 13), 3 x 3 (T = 7, bound 19) with a
# starter, 2 x 5 without one (T = 9, bound 9 + 1 * 7 = 16).
EXACT_MAXIMA = [(2, 3, 9), (2, 4, 11), (3, 3, 14), (2, 5, 12)]


@pytest.mark.skipif(SHARD[0] != 0, reason="a search over every deal: runs in shard 1 only")
@pytest.mark.parametrize(("players", "hand_size", "maximum"), EXACT_MAXIMA)
def test_exact_maximum_length_of_a_double_3_pass_hand(
    players: int, hand_size: int, maximum: int
) -> None:
    rules = Ruleset(
        max_pip=3,
        players=players,
        hand_size=hand_size,
        blocked_action=BlockedAction.PASS,
        first_lead=LeadRule.ANY_TILE,
    )
    longest = deals = 0
    for deal in all_deals(rules, renamed=True):
        deals += 1
        longest = max(longest, longest_from(new_hand(rules, deal), {}))
    # As in the double-3 enumeration above: at least C(10, h) / 24 of seat 0's hands are kept.
    rest = deal_count(rules) // math.comb(tile_set(rules.max_pip).size, hand_size)
    assert deals >= math.ceil(math.comb(tile_set(rules.max_pip).size, hand_size) / 24) * rest
    assert longest == maximum
    assert maximum <= max_actions(rules)
