"""The reference's reckoning, the engine's quiet scoring and the public result agree.

Three implementations score a finished hand: :func:`gaple.reference.scoring.reckon` (the rules
written for reading, on tiles), :func:`gaple.engine.scoring.quiet_fields` and
:func:`~gaple.engine.scoring.position_fields` (bitsets, no notes: ``gaple check``'s path) and
:func:`gaple.result.hand_result` / :func:`~gaple.result.score_position` (the public API, its
notes worded from the reference's facts). They must give the same counts, winner, winning
team, points and replay:

* on every finished hand reachable by play on the double-2 set, for every seat count and hand
  size that fits, pass and discard, every lead rule where it matters, scored under every
  individual settlement with and without the double-blank option, and with four seats under
  partnership per-hand and partnership scoring with every partnership option (dead and closing
  doubles, debit, the house rule, tie handling, stakes); under the ``ci`` profile also the
  double-3 set;
* on finished positions typed in as data (:func:`~gaple.result.make_position`, with discards
  and set-aside tiles) on the double-6 set, drawn by Hypothesis: they reach what play rarely
  does (dead doubles, a discarded tile of a double's number, 0-0 at 25, closing doubles,
  stakes, tied challenges).

Scoring options never change play, so each finished hand is played once under its playing
rules and scored under every scoring variant. Partnership scoring where play blocks hands and
kills doubles (double-4 deal families) is compared in :mod:`test_partnership_exhaustive`.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator

import attrs
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from gaple.engine.scoring import QuietFields, position_fields, quiet_fields, rank_keys, ranked
from gaple.position import InvalidPosition, Position, make_position, position_of
from gaple.reference.counting import count_seat, rank
from gaple.reference.deal import undealt
from gaple.reference.scoring import Reckoning, reckon
from gaple.result import HandResult, hand_result, score_position
from gaple.rules import BlockedAction, ChallengeTie, LeadRule, Ruleset, Settlement, StakeBase
from gaple.state import Ending, State, apply, legal_moves, new_hand
from gaple.tiles import Tile, tile_set
from test_exhaustive import CI, DOUBLE_2, all_deals

INDIVIDUAL = (Settlement.PER_HAND, Settlement.CHIPS, Settlement.DIFFERENCE, Settlement.CUMULATIVE)


def _individual(rules: Ruleset, settlement: Settlement, double_blank_25: bool) -> Ruleset:
    match_hands = 1 if settlement is Settlement.CUMULATIVE else None
    return attrs.evolve(
        rules, settlement=settlement, match_hands=match_hands, double_blank_25=double_blank_25
    )


def partnership_options(*, few: bool = False) -> Iterator[dict[str, object]]:
    """Every partnership option that changes a score, in a product small enough to run on
    every finished hand: bonuses off, top only, both; debit; the house rule; both tie rules;
    the default stakes and one with other bases and multipliers; the double-blank option.
    The debit and the house rule go together: neither reads what the other decides. With
    ``few`` (for the larger double-3 enumeration), both bonuses on and the double-blank
    option off."""
    stakes = [
        {},
        {
            "challenge_win_base": StakeBase.BLOCKER_PAIR,
            "challenge_win_multiplier": 3,
            "challenge_loss_base": StakeBase.OTHER_PAIR,
            "challenge_loss_multiplier": 1,
        },
    ]
    for (top, blank), debit_and_any_double, tie, stake, blank_25 in itertools.product(
        [(100, 50)] if few else [(0, 0), (100, 0), (100, 50)],
        [False, True],
        ChallengeTie,
        stakes,
        [False] if few else [False, True],
    ):
        yield {
            "top_double_bonus": top,
            "blank_double_bonus": blank,
            "dead_double_debit": debit_and_any_double,
            "closing_any_double": debit_and_any_double,
            "challenge_tie": tie,
            "double_blank_25": blank_25,
            **stake,
        }


def scoring_variants(rules: Ruleset, *, few: bool = False) -> list[Ruleset]:
    """``rules`` under every scoring option that fits its seats (see
    :func:`partnership_options` for ``few``)."""
    variants = [
        _individual(rules, settlement, blank_25)
        for settlement in INDIVIDUAL
        for blank_25 in (False, True)
    ]
    if rules.players == 4:
        variants += [
            attrs.evolve(rules, partnership=True, double_blank_25=blank_25)
            for blank_25 in (False, True)
        ]
        variants += [
            attrs.evolve(rules, partnership=True, settlement=Settlement.PARTNERSHIP, **options)  # type: ignore[arg-type]
            for options in partnership_options(few=few)
        ]
    return variants


def finished_hands(rules: Ruleset) -> Iterator[State]:
    """Every finished hand reachable by play from every deal with seat 0 designated."""
    for deal in all_deals(rules, renamed=False):
        stack = [new_hand(rules, deal)]
        while stack:
            state = stack.pop()
            if state.ending is not None:
                yield state
            stack.extend(apply(state, move) for move in legal_moves(state))


def fields_of(result: HandResult | Reckoning) -> QuietFields:
    counts = result.counts
    plain = tuple(c if isinstance(c, int) else c.count for c in counts)
    return QuietFields(plain, result.winner, result.winning_team, result.points, result.replay)


def engine_agrees(
    state: State, expected: QuietFields, quiet: Callable[[State], QuietFields] = quiet_fields
) -> None:
    """The engine's quiet fields of ``state`` (by ``quiet``, the engine's own unless a test
    plants a break) are ``expected``, the reference's (:func:`fields_of` its reckoning)."""
    assert quiet(state) == expected, state.history


def agree(state: State) -> Reckoning:
    """The engine's quiet fields, the reference's reckoning and hand_result agree on ``state``;
    returns the reckoning."""
    reckoning = reckon(position_of(state))
    expected = fields_of(reckoning)
    engine_agrees(state, expected)
    assert fields_of(hand_result(state)) == expected, state.history
    return reckoning


def situations(reckoning: Reckoning) -> set[str]:
    """What partnership scoring met in ``reckoning``: each double's fate, where the tiles
    that kept a double alive lay, closing bonuses, tie rulings."""
    score = reckoning.partnership
    if score is None:
        return set()
    seen = {f"fate {fate.fate.value}" for fate in score.fates}
    seen |= {f"keeper {k.spot.value}" for fate in score.fates for k in fate.keepers}
    if score.out is not None and score.out.closing is not None:
        seen.add("closing house rule" if score.out.closing.house_rule else "closing")
    if score.challenge is not None:
        tie = score.challenge.tie
        seen.add("challenge" if tie is None else f"tie {tie.value}")
    return seen


def check_every_finished_hand(rules: Ruleset, *, few: bool = False) -> tuple[int, set[str]]:
    """Score every finished hand of ``rules`` under every scoring variant; return how many
    hands and the partnership situations met."""
    variants = scoring_variants(rules, few=few)
    hands = 0
    seen: set[str] = set()
    for state in finished_hands(rules):
        hands += 1
        for variant in variants:
            seen |= situations(agree(attrs.evolve(state, rules=variant)))
    return hands, seen


# Partnership needs four seats: on the double-2 set only 4 x 1 fits (two tiles undealt). The
# enumeration must meet at least these partnership situations, so that it cannot shrink to
# miss them unnoticed; one such hand: the starter 0-2, seat 3 places 1-2 and goes out, ends 0
# and 1, seat 0 holding 2-2 is dead (every other 2 in the line). A discarded tile keeping a
# double alive needs the discard option. No hand of one tile each blocks there, so the
# challenge is met only on the double-3 set (under ci) and by the typed-in positions below.
DOUBLE_2_SITUATIONS = {
    BlockedAction.PASS: {
        "fate dead",
        "fate kept-alive",
        "fate open-end",
        "fate own-pair-out",
        "keeper hand",
        "keeper set-aside",
        "closing",
        "closing house rule",
    },
}
DOUBLE_2_SITUATIONS[BlockedAction.DISCARD] = {
    *DOUBLE_2_SITUATIONS[BlockedAction.PASS],
    "keeper discarded",
}


@pytest.mark.parametrize(
    "rules",
    DOUBLE_2,
    ids=lambda r: f"{r.players}x{r.hand_size}-{r.blocked_action.value}-{r.first_lead.value}",
)
def test_every_finished_double_2_hand_scores_alike_in_all_three(rules: Ruleset) -> None:
    hands, seen = check_every_finished_hand(rules)
    # Every deal is played to at least one end.
    assert hands >= sum(1 for _ in all_deals(rules, renamed=False))
    if rules.players == 4:
        assert seen >= DOUBLE_2_SITUATIONS[rules.blocked_action]
    else:
        assert not seen


# Double-3 shapes whose every deal and play fit in a CI run (at most about 1.5 minutes each),
# four seats among them, scored under fewer partnership variants.
DOUBLE_3 = [
    Ruleset(max_pip=3, players=p, hand_size=h, blocked_action=action, first_lead=LeadRule.ANY_TILE)
    for p, h in [(2, 2), (4, 1)]
    for action in BlockedAction
]
# With four seats of one tile the double-3 set meets the challenge, both tie rules and doubles
# in blocked hands. No double can die on it: each number has three other tiles, and a line
# holding all three shows that number an odd number of times, so at an open end.
DOUBLE_3_SITUATIONS = {
    "challenge",
    "tie replay",
    "tie blocker-loses",
    "fate blocked-hand",
    "fate kept-alive",
    "fate open-end",
    "fate own-pair-out",
    "closing",
    "closing house rule",
}


@pytest.mark.skipif(not CI, reason="every finished double-3 hand: runs under HYPOTHESIS_PROFILE=ci")
@pytest.mark.parametrize(
    "rules", DOUBLE_3, ids=lambda r: f"{r.players}x{r.hand_size}-{r.blocked_action.value}"
)
def test_every_finished_double_3_hand_scores_alike_in_all_three(rules: Ruleset) -> None:
    hands, seen = check_every_finished_hand(rules, few=True)
    assert hands >= sum(1 for _ in all_deals(rules, renamed=False))
    if rules.players == 4:
        assert seen >= DOUBLE_3_SITUATIONS
        assert "fate dead" not in seen
    else:
        assert not seen


# --- finished positions typed in as data -------------------------------------------------------


@st.composite
def double_6_rules(draw: st.DrawFn) -> Ruleset:
    """Four seats on the double-6 set, discarding, with every scoring option drawn; seven
    tiles each (none set aside) or six (three set aside)."""
    # Partnership three times in four: most of what a typed-in position reaches is there.
    individual = draw(st.booleans()) and draw(st.booleans())
    settlement = draw(st.sampled_from(INDIVIDUAL)) if individual else Settlement.PARTNERSHIP
    rules = Ruleset(
        max_pip=6,
        players=4,
        hand_size=draw(st.sampled_from([7, 6])),
        blocked_action=BlockedAction.DISCARD,
        double_blank_25=draw(st.booleans()),
    )
    if settlement is not Settlement.PARTNERSHIP:
        return _individual(rules, settlement, rules.double_blank_25)
    bases = st.sampled_from(StakeBase)
    return attrs.evolve(
        rules,
        partnership=True,
        settlement=settlement,
        top_double_bonus=draw(st.sampled_from([0, 100, 40])),
        blank_double_bonus=draw(st.sampled_from([0, 50, 30])),
        dead_double_debit=draw(st.booleans()),
        closing_any_double=draw(st.booleans()),
        challenge_tie=draw(st.sampled_from(ChallengeTie)),
        challenge_win_base=draw(bases),
        challenge_win_multiplier=draw(st.integers(1, 3)),
        challenge_loss_base=draw(bases),
        challenge_loss_multiplier=draw(st.integers(1, 3)),
    )


@st.composite
def trails(draw: st.DrawFn, max_pip: int) -> tuple[list[Tile], tuple[int, int], int | None]:
    """A line as a walk from its left end: each tile matches the number showing on the
    right; returns the tiles in order, the two ends and the favoured number (see below).

    Often the walk favours the tiles of 0 or of the top number but never lays that double,
    so that every other tile of the number lies in the line (what makes a held double dead);
    often it ends with a double, which the seat going out may have placed last.
    """
    full = tile_set(max_pip)
    favoured = draw(st.sampled_from([None, 0, max_pip]))
    start = draw(st.integers(0, max_pip))
    end, line = start, []
    length = draw(st.integers(1, full.size - 4))
    for _ in range(length):
        fits = [t for t in full.tiles if t.has(end) and t not in line]
        if favoured is not None:
            fits = [t for t in fits if t != Tile(favoured, favoured)]
            fits = [t for t in fits if t.has(favoured)] or fits
        if not fits:
            break
        tile = draw(st.sampled_from(fits))
        line.append(tile)
        end = tile.other(end)
    if Tile(end, end) not in line and draw(st.booleans()):
        line.append(Tile(end, end))
    return line, (start, end), favoured


@st.composite
def typed_positions(draw: st.DrawFn) -> Position:
    """A finished double-6 position typed in: a drawn line, the other tiles shared among the
    hands, the discards and the set-aside tiles, a seat gone out or a blocked hand."""
    rules = draw(double_6_rules())
    line, ends, favoured = draw(trails(rules.max_pip))
    rest = [t for t in tile_set(rules.max_pip).tiles if t not in line]
    aside_count = undealt(rules) - 1 if undealt(rules) else 0
    assume(len(rest) >= aside_count)
    aside = draw(st.permutations(rest))[:aside_count]
    rest = [t for t in rest if t not in aside]
    blocked = draw(st.booleans())
    hide_keepers = draw(st.booleans())
    out_seat = None if blocked else draw(st.integers(0, 3))
    hands: list[list[Tile]] = [[] for _ in range(4)]
    discards: list[list[Tile]] = [[] for _ in range(4)]
    for tile in rest:
        seats = [s for s in range(4) if len(hands[s]) + len(discards[s]) < rules.hand_size]
        assume(seats)
        seat = draw(st.sampled_from(seats))
        # A blocked hand holds no tile showing an end; the seat that went out holds none.
        must_discard = seat == out_seat or (blocked and (tile.has(ends[0]) or tile.has(ends[1])))
        # Often the favoured number's double stays in a hand and its other tiles off the line
        # are discarded: only discards then keep the double alive.
        if favoured is not None and tile.has(favoured) and hide_keepers:
            must_discard = must_discard or tile != Tile(favoured, favoured)
            may_discard = tile != Tile(favoured, favoured)
        else:
            may_discard = True
        (discards if must_discard or (may_discard and draw(st.booleans())) else hands)[seat].append(
            tile
        )
    closing = None if blocked or draw(st.booleans()) else line[-1]
    try:
        return make_position(
            rules,
            hands=hands,
            discards=discards,
            line=line,
            set_aside=aside,
            ends=ends,
            ending=Ending.BLOCKED if blocked else Ending.OUT,
            out_seat=out_seat,
            blocker=draw(st.integers(0, 3)) if blocked else None,
            closing=closing,
        )
    except InvalidPosition:
        assume(False)
        raise


@given(typed_positions())
def test_a_typed_in_position_scores_alike_in_all_three(pos: Position) -> None:
    expected = fields_of(reckon(pos))
    assert position_fields(pos) == expected
    assert fields_of(score_position(pos)) == expected


@st.composite
def scoring_sets(draw: st.DrawFn) -> tuple[int, list[tuple[Tile, ...]]]:
    """Two to six disjoint scoring sets of at most three tiles of a double-N set (N from 1 to
    9): small sets make equal counts, and so the tie-breaks, common."""
    max_pip = draw(st.integers(1, 9))
    tiles = draw(st.permutations(tile_set(max_pip).tiles))
    sizes = draw(st.lists(st.integers(0, 3), min_size=2, max_size=6))
    assume(sum(sizes) <= len(tiles))
    starts = list(itertools.accumulate([0, *sizes]))
    return max_pip, [tuple(tiles[a:b]) for a, b in itertools.pairwise(starts)]


@given(scoring_sets(), st.booleans())
def test_the_ranking_is_the_same_in_the_engine_and_the_reference(
    drawn: tuple[int, list[tuple[Tile, ...]]], double_blank_25: bool
) -> None:
    # The quiet fields name only the winner; the whole ranking and every key are compared
    # here, on sets where equal counts are common.
    max_pip, sets = drawn
    full = tile_set(max_pip)
    keys = rank_keys(full, [full.mask(s) for s in sets], double_blank_25)
    counts = [
        count_seat(seat, s, (), double_blank_25=double_blank_25) for seat, s in enumerate(sets)
    ]
    reference = rank(counts)
    assert [entry.seat for entry in reference] == list(ranked(keys))
    assert [entry.key for entry in reference] == sorted(keys)
    assert [c.count for c in counts] == [key[0] for key in keys]
