"""The conformance cases: the hand-written scenarios and the seeded random hands.

The hand-written scenarios are package data, one TOML file per group in ``scenario_data/``,
each with its deal, moves and claimed verdicts and the reasoning behind them; :mod:`.builder`
reads them and :func:`gaple.conformance.vectors.cases.build_case` refuses a scenario whose claimed
verdicts or ends the spec does not reproduce. Only the full expected observations come from
the spec.

What is code stays here: the ending group (:func:`_ending_cases`) and the cover group
(:func:`cover_cases`) state a criterion on the end of a hand, and the first seeded random hand
meeting it becomes the case; the seeded random hands of every variant follow them.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterator, Mapping
from typing import Any, cast

import attrs
from attrs import frozen

from gaple.conformance.vectors.builder import group_cases
from gaple.conformance.vectors.cases import JSON, ScenarioError, Step, build_case
from gaple.deal import SplitMix64, shuffle_deal
from gaple.position import position_of
from gaple.presets import PRESETS, find_preset
from gaple.reference.deal import turns_up_starter
from gaple.reference.equipment import table
from gaple.reference.partnership import DoubleFate, Fate, Spot
from gaple.reference.scoring import reckon
from gaple.result import hand_result
from gaple.rules import ChallengeTie, Ruleset, Settlement, StakeBase
from gaple.state import (
    Action,
    Discard,
    End,
    Ending,
    IllegalMove,
    Lead,
    Move,
    Pass,
    Place,
    State,
    apply,
    is_legal,
    legal_moves,
    new_hand,
    verify,
)
from gaple.tiles import Tile, tile_set

__all__ = ["COVER_SEEDS", "all_cases", "cover_cases", "random_case", "scripted_cases"]


def _hand_over(state: State) -> list[Step]:
    """A probe after the end: any action by any seat is hand-over."""
    return [
        (0, "pass", "hand-over"),
        (state.rules.players - 1, str(_any_tile_move(state)), "hand-over"),
    ]


def _any_tile_move(state: State) -> Move:
    for seat in range(state.rules.players):
        hand = state.hand(seat)
        if hand:
            return Place(hand[0], End.LEFT)
    return Pass()


def _ending_cases() -> Iterator[dict[str, JSON]]:
    # Hands that end each way, found as the first seeded random hand (seed 1, 2, ...) that ends
    # as described; the criterion is the hand reasoning, the spec plays the hand.
    wanted: list[tuple[str, str, str, Callable[[State], bool]]] = [
        (
            "end-out-by-placing",
            "domino4d",
            "A seat places its last tile and the hand ends at once (out).",
            lambda s: s.ending is Ending.OUT and isinstance(s.history[-1].move, Place),
        ),
        (
            "end-out-by-discarding",
            "pagat-4x7",
            "A seat discards its last tile and the hand ends at once (out).",
            lambda s: s.ending is Ending.OUT and isinstance(s.history[-1].move, Discard),
        ),
        (
            "end-blocked-pass-option",
            "domino4d",
            "No seat holding tiles can place: the hand is blocked, with tiles left.",
            lambda s: s.ending is Ending.BLOCKED,
        ),
        (
            "end-blocked-discard-option",
            "pagat-4x7",
            "Blocked under the discard option: the last placement leaves nobody able to place.",
            lambda s: s.ending is Ending.BLOCKED,
        ),
        (
            "end-blocked-starter-deal",
            "pagat-4x6",
            "Blocked in a starter deal.",
            lambda s: s.ending is Ending.BLOCKED,
        ),
    ]
    for case_id, preset, description, criterion in wanted:
        rules = find_preset(preset).rules
        seed = next(s for s in range(1, 10_000) if criterion(_random_final(rules, s)))
        yield random_case(
            case_id,
            "end",
            f"{description} (first seed meeting it: {seed})",
            preset,
            overrides={},
            seed=seed,
            probes=False,
        )


def _random_final(rules: Ruleset, seed: int, *, first_hand: bool = True) -> State:
    state = new_hand(rules, shuffle_deal(rules, seed), first_hand=first_hand)
    rng = SplitMix64(seed + 1)
    while moves := legal_moves(state):
        state = apply(state, moves[rng.below(len(moves))])
    return state


def _probe(state: State, rng: SplitMix64) -> Action | None:
    """An illegal action for ``state``, drawn from the kinds engines get wrong."""
    seat = state.to_act
    assert seat is not None
    players = state.rules.players
    hand = state.hand(seat)
    full = tile_set(state.rules.max_pip).tiles
    candidates: list[Action] = [Action((seat + 1) % players, Pass())]
    if state.line:
        left, right = state.line[0][0], state.line[-1][1]
        candidates += [Action(seat, Place(t, End.LEFT)) for t in hand if not t.has(left)]
        candidates += [Action(seat, Place(t, End.RIGHT)) for t in hand if not t.has(right)]
        candidates.append(Action(seat, Pass()))
        candidates += [Action(seat, Discard(t)) for t in hand[:2]]
        candidates += [Action(seat, Lead(t)) for t in hand[:1]]
    else:
        candidates += [Action(seat, Lead(t)) for t in hand]
    candidates += [Action(seat, Place(t, End.LEFT)) for t in full if t not in hand][:2]
    illegal = [a for a in candidates if not is_legal(state, a.move, a.seat)]
    if not illegal:
        return None
    return illegal[rng.below(len(illegal))]


def random_case(
    case_id: str,
    topic: str,
    description: str,
    preset: str,
    *,
    overrides: Mapping[str, Any],
    seed: int,
    probes: bool = True,
    first_hand: bool = True,
) -> dict[str, JSON]:
    """A seeded random hand (deal :func:`~gaple.deal.shuffle_deal` from ``seed``, moves from
    ``SplitMix64(seed + 1)`` as :func:`~gaple.simulate.random_hand`), with an illegal probe
    before about one step in four when ``probes`` is set, and two hand-over probes at the end."""
    rules = find_preset(preset).rules.replace(**overrides)
    deal = shuffle_deal(rules, seed)
    state = new_hand(rules, deal, first_hand=first_hand)
    rng = SplitMix64(seed + 1)
    probe_rng = SplitMix64(seed + 2)
    steps: list[Step] = []
    while moves := legal_moves(state):
        if probes and probe_rng.below(4) == 0:
            probe = _probe(state, probe_rng)
            if probe is not None:
                code = _code(state, probe)
                steps.append((probe.seat, str(probe.move), code))
        move = moves[rng.below(len(moves))]
        assert state.to_act is not None
        steps.append((state.to_act, str(move), None))
        state = apply(state, move)
    steps += _hand_over(state)
    return build_case(
        case_id=case_id,
        topic=topic,
        description=description,
        preset=preset,
        overrides=overrides,
        deal=deal,
        steps=steps,
        first_hand=first_hand,
    )


def _code(state: State, action: Action) -> str:
    try:
        verify(state, action.move, action.seat)
    except IllegalMove as error:
        return error.code
    msg = f"{action} is legal"
    raise AssertionError(msg)


RANDOM_PER_VARIANT = 6
"""Seeded random hands per variant: enough to reach every ending and forced play in each."""

_EXTRA_VARIANTS: tuple[tuple[str, str, dict[str, Any]], ...] = (
    ("pagat-4x7-pass", "pagat-4x7", {"blocked_action": "pass"}),
    # PAGAT's teams (the hand goes to the individual winner's pair) with its pass variation.
    ("pagat-4x7-teams-pass", "pagat-4x7", {"partnership": True, "blocked_action": "pass"}),
    ("pagat-4x7-double-blank-25", "pagat-4x7", {"double_blank_25": True}),
    ("chips-cumulative", "chips", {"settlement": "cumulative", "match_hands": 4}),
    ("suwiki-partnership-blocker-loses", "suwiki-partnership", {"challenge_tie": "blocker-loses"}),
    (
        "suwiki-partnership-debit-any-double",
        "suwiki-partnership",
        {"dead_double_debit": True, "closing_any_double": True},
    ),
)


def _random_cases() -> Iterator[dict[str, JSON]]:
    variants: list[tuple[str, str, dict[str, Any]]] = [(name, name, {}) for name in PRESETS] + list(
        _EXTRA_VARIANTS
    )
    for label, preset, overrides in variants:
        for seed in range(1, RANDOM_PER_VARIANT + 1):
            yield random_case(
                f"random-{label}-{seed}",
                f"random/{label}",
                f"Seeded random hand {seed} of {label}, with illegal probes.",
                preset,
                overrides=overrides,
                seed=seed,
            )
        rules = find_preset(preset).rules.replace(**overrides)
        if not turns_up_starter(rules):
            yield random_case(
                f"random-{label}-later-hand",
                f"random/{label}",
                f"Seeded random later hand of {label} (later-hand lead rule).",
                preset,
                overrides=overrides,
                seed=RANDOM_PER_VARIANT + 1,
                first_hand=False,
            )


def scripted_cases() -> Iterator[dict[str, JSON]]:
    """The hand-written scenarios (the groups of ``scenario_data/``), the ending group between
    them, and the cover group."""
    for group in ("open", "play", "turns"):
        yield from group_cases(group)
    yield from _ending_cases()
    for group in ("score", "suwiki"):
        yield from group_cases(group)
    yield from cover_cases()


def all_cases() -> list[dict[str, JSON]]:
    """Every case, in a fixed order: scripted first, then random hands per variant, then the
    drawn hands that reach the cells no other case reaches (``combination``, written by
    ``tools/cover.py``), then each preset's covering set (``measure-<preset>``, written by
    ``tools/cover.py --preset``). A fresh copy on each call, the cases being built once a
    process."""
    return cast("list[dict[str, JSON]]", json.loads(_built()))


@functools.cache
def _built() -> str:
    """Every case built by the spec, as JSON text: building them plays and reckons some
    10,000 moves (seconds), reading the text back a tenth of that."""
    measured = [case for name in PRESETS for case in group_cases(f"measure-{name}")]
    return json.dumps([*scripted_cases(), *_random_cases(), *group_cases("combination"), *measured])


# --- cover: every option value and every interacting pair, in real hands ----------------------

COVER_SEEDS = 20_000
"""How many seeds (1, 2, ...) a cover case searches before the build gives up."""

Criterion = Callable[[State], bool]


@frozen
class _Cover:
    """A cover case: the first seeded random hand of a variant whose end meets ``criterion``."""

    case_id: str
    description: str
    preset: str
    overrides: Mapping[str, Any]
    criterion: Criterion
    first_hand: bool = True


def _last_tile(state: State) -> Tile | None:
    """The tile the last action put down; ``None`` after a pass or discard, or no action."""
    if not state.history:
        return None
    move = state.history[-1].move
    return move.tile if isinstance(move, Lead | Place) else None


def _out_placing(test: Callable[[Tile], bool]) -> Criterion:
    """The hand ends with a seat going out by placing a tile that passes ``test``."""

    def met(state: State) -> bool:
        tile = _last_tile(state)
        return state.ending is Ending.OUT and tile is not None and test(tile)

    return met


def _out_discarding(state: State) -> bool:
    return state.ending is Ending.OUT and isinstance(state.history[-1].move, Discard)


def _fates(state: State, *, valued: bool = False) -> tuple[DoubleFate, ...]:
    """The reference's fate of each special double of an ended partnership hand
    (:func:`gaple.reference.partnership.double_fates`); none for another hand. ``valued``:
    as if both doubles had a value, so that a criterion can ask whether a double whose value
    the options set to 0 would be dead."""
    if state.ending is None or state.rules.settlement is not Settlement.PARTNERSHIP:
        return ()
    position = position_of(state)
    if valued:
        rules = position.rules.replace(
            top_double_bonus=position.rules.top_double_bonus or 1,
            blank_double_bonus=position.rules.blank_double_bonus or 1,
        )
        position = attrs.evolve(position, rules=rules)
    score = reckon(position).partnership
    assert score is not None  # a partnership settlement
    return score.fates


def _fate(double: Tile, test: Callable[[DoubleFate], bool], *, valued: bool = False) -> Criterion:
    """partner.dead-double: the reference's fate of ``double`` passes ``test``."""

    def met(state: State) -> bool:
        return any(f.tile == double and test(f) for f in _fates(state, valued=valued))

    return met


def _dead(double: Tile, *, valued: bool = False) -> Criterion:
    """``double`` is dead (with ``valued``: would be, had it a value)."""
    return _fate(double, lambda f: f.dead, valued=valued)


def _fated(double: Tile, why: Fate) -> Criterion:
    return _fate(double, lambda f: f.fate is why)


def _dead_in_one_seat(first: Tile, second: Tile) -> Criterion:
    """``first`` and ``second`` are both dead in one seat of the losing pair."""

    def met(state: State) -> bool:
        dead = [f for f in _fates(state) if f.dead]
        return any(
            {first, second} <= {f.tile for f in dead if f.seat == seat}
            for seat in range(state.rules.players)
        )

    return met


def _kept_alive_by(double: Tile, spot: Spot, *, only: bool = False) -> Criterion:
    """``double``, held by the losing pair, is kept alive and the first tile of its number off
    the line lies in ``spot`` (``only``: every such tile does)."""

    def kept(fate: DoubleFate) -> bool:
        spots = [keeper.spot for keeper in fate.keepers]
        return fate.fate is Fate.KEPT_ALIVE and (set(spots) == {spot} if only else spots[0] is spot)

    return _fate(double, kept)


def _kept_by(fate: DoubleFate) -> list[Tile]:
    """The tiles that keep a double alive (none unless its fate is kept alive)."""
    return [keeper.tile for keeper in fate.keepers]


def _dead_if_held(double: Tile) -> Criterion:
    """``double`` was discarded by the losing pair, and the reference would call it dead had
    its discarder kept it in hand (so only the rule about discarded doubles saves it)."""

    def met(state: State) -> bool:
        fate = next((f for f in _fates(state) if f.tile == double), None)
        if fate is None or fate.fate is not Fate.DISCARDED:
            return False
        position = position_of(state)
        seat = fate.seat
        hands = [*position.hands]
        discards = [*position.discards]
        hands[seat] = (*hands[seat], double)
        discards[seat] = tuple(t for t in discards[seat] if t != double)
        held = attrs.evolve(position, hands=hands, discards=discards)
        score = reckon(held).partnership
        assert score is not None  # the same partnership rules
        return any(f.tile == double and f.dead for f in score.fates)

    return met


def _suit_in_line(double: Tile) -> Criterion:
    """Every other tile of ``double``'s number lies in the line (a fact of the line)."""

    def met(state: State) -> bool:
        line = set(state.line_tiles())
        pip = double.low
        others = [Tile(pip, q) for q in range(state.rules.max_pip + 1) if q != pip]
        return all(tile in line for tile in others)

    return met


def _challenge(outcome: str, pair: int) -> Criterion:
    """partner.challenge: blocked by a seat of ``pair``, the three stakes (all hands, the
    blocker's pair, the other pair) differ and none is 0, and the reference's challenge has
    the blocker win ("win"), lose on a higher count ("loss") or tie ("tie")."""

    def met(state: State) -> bool:
        if state.ending is not Ending.BLOCKED:
            return False
        reckoning = reckon(position_of(state))
        challenge = reckoning.partnership.challenge if reckoning.partnership else None
        if challenge is None or table(state.rules).team_of(challenge.blocker) != pair:
            return False
        counts = [count.count for count in reckoning.counts]
        # Distinct stakes, so a case tells the three stake bases apart.
        own = sum(counts[s] for s in table(state.rules).teams[pair])
        stakes = {sum(counts), own, sum(counts) - own}
        if len(stakes) < 3 or 0 in stakes:
            return False
        tied = challenge.tie is not None  # the reference applied a tie option
        return {
            "win": challenge.blocker_won,
            "loss": not tied and not challenge.blocker_won,
            "tie": tied,
        }[outcome]

    return met


def _blocked(state: State) -> bool:
    return state.ending is Ending.BLOCKED


def _blocked_at_once(state: State) -> bool:
    return state.ending is Ending.BLOCKED and not state.history


def _blocked_at_once_decided(state: State) -> bool:
    """Blocked at once, and the seat before the designated one, the designated seat and the
    seat after it all count differently, so which seat is read as the blocker shows in the
    challenge's winner."""
    if not _blocked_at_once(state):
        return False
    seat, players = state.deal.first_seat, state.rules.players
    counts = hand_result(state).counts
    return len({counts[(seat + k) % players] for k in (-1, 0, 1)}) == 3


def _starter_number_unheld(half: int) -> Criterion:
    """A starter deal where no hand shows the starter's low (``half`` 0) or high (1) number,
    while some hand shows the other one."""

    def met(state: State) -> bool:
        starter = state.deal.starter
        if starter is None or starter.is_double:
            return False
        numbers = (starter.low, starter.high)
        held = {pip for hand in state.deal.hands for tile in hand for pip in (tile.low, tile.high)}
        return numbers[half] not in held and numbers[1 - half] in held

    return met


def _lone_blank_before_out(state: State) -> bool:
    """A seat went out, and a seat with a lower number is left with only 0-0 (count 0 too)."""
    out = state.out_seat
    lone = (Tile(0, 0),)
    return out is not None and any((*state.hand(s), *state.discards(s)) == lone for s in range(out))


def _opener_not_designated(state: State) -> bool:
    return state.opener != state.deal.first_seat


def _designated_holds(tile: Tile, *, opens: bool) -> Criterion:
    """The designated seat holds ``tile``; ``opens``: it is also the opener."""

    def met(state: State) -> bool:
        seat = state.deal.first_seat
        held = tile in state.deal.hands[seat]
        return held and (state.opener == seat) is opens

    return met


def _opener_holds(tile: Tile) -> Criterion:
    def met(state: State) -> bool:
        return tile in state.deal.hands[state.opener]

    return met


def _first_lead_not_double(state: State) -> bool:
    first = state.history[0].move if state.history else None
    return isinstance(first, Lead) and not first.tile.is_double


def _discarded(tile: Tile) -> Criterion:
    def met(state: State) -> bool:
        return state.is_over and any(tile in state.discards(s) for s in range(state.rules.players))

    return met


def _all(*criteria: Criterion) -> Criterion:
    def met(state: State) -> bool:
        return all(criterion(state) for criterion in criteria)

    return met


_SIX_SIX, _BLANK = Tile(6, 6), Tile(0, 0)
_SUWIKI = "suwiki-partnership"


def _cover_list() -> Iterator[_Cover]:  # noqa: PLR0915 (one statement per cover case)
    six_banned = {"forbidden_leads": ["6-6"]}
    # Numeric options at other values; a starter that blocks at once needs a deal that leaves
    # most tiles face down, so that no hand shows either number of the starter.
    yield _Cover(
        "cover-tiles-double-five-three-seats",
        "tiles.set, deal.sizes: a double-5 set (21 tiles) dealt 3 x 7; a seat goes out.",
        "pagat-4x7",
        {"max_pip": 5, "players": 3},
        lambda s: s.ending is Ending.OUT,
    )
    # One undealt tile: it is the starter and nothing is set aside (3 x 9 on the double-6 set).
    yield _Cover(
        "cover-starter-one-undealt",
        "deal.starter: 3 x 9 leaves one tile undealt; it is turned up as the starter and nothing "
        "is set aside.",
        "pagat-4x7",
        {"players": 3, "hand_size": 9},
        lambda s: s.ending is not None,
    )
    yield _Cover(
        "cover-starter-blocks-at-once",
        "end.blocked: 2 x 3 deal; no hand shows a number of the starter, so the hand is blocked "
        "before anyone acts (the seat before the designated one counts as the blocker).",
        "pagat-4x7",
        {"players": 2, "hand_size": 3},
        _blocked_at_once,
    )
    yield _Cover(
        "cover-starter-blocks-at-once-partnership",
        "partner.challenge: 4 x 1 deal blocked by the starter at once; the seat before the "
        "designated one is the blocker and faces the designated seat (no tie).",
        _SUWIKI,
        {"hand_size": 1},
        _blocked_at_once_decided,
    )
    for half, name in ((0, "low"), (1, "high")):
        yield _Cover(
            f"cover-starter-{name}-number-unheld",
            f"end.blocked: 2 x 3 deal; no hand shows the starter's {name} number but one shows "
            "the other, so the hand is not blocked at once (both numbers are checked).",
            "pagat-4x7",
            {"players": 2, "hand_size": 3},
            _starter_number_unheld(half),
        )
    yield _Cover(
        "cover-blocked-pagat-5x5",
        "end.blocked in the 5 x 5 starter deal.",
        "pagat-5x5",
        {},
        _blocked,
    )
    yield _Cover(
        "cover-blocked-chips",
        "settle.chips: a blocked 4 x 6 starter hand; the lowest count collects the differences.",
        "chips",
        {},
        _blocked,
    )
    yield _Cover(
        "cover-blocked-block100",
        "settle.difference: a blocked 4 x 6 starter hand; the lowest count scores the differences.",
        "block100",
        {},
        _blocked,
    )
    # Lead rules, alone and with a banned lead (open.forbidden).
    yield _Cover(
        "cover-first-lead-double-passes-on",
        "open.double in a first hand: the designated seat has no double, a later seat leads.",
        "pagat-4x7",
        {"first_lead": "double"},
        _opener_not_designated,
    )
    yield _Cover(
        "cover-first-lead-any-tile",
        "open.any-tile in a first hand: the designated seat leads a tile that is not a double.",
        "pagat-4x7",
        {"first_lead": "any-tile"},
        _first_lead_not_double,
    )
    yield _Cover(
        "cover-later-lead-double-blank",
        "open.double-blank in a later hand: the holder of 0-0 leads, not the designated seat.",
        "pagat-4x7",
        {"later_lead": "double-blank"},
        _opener_not_designated,
        first_hand=False,
    )
    yield _Cover(
        "cover-forbidden-with-double-blank-lead",
        "open.forbidden with open.double-blank: the 0-0 holder also holds the banned 6-6.",
        "pagat-4x7",
        six_banned,
        _opener_holds(_SIX_SIX),
    )
    yield _Cover(
        "cover-forbidden-with-first-double-lead",
        "open.forbidden with open.double (first hand): the designated seat's only double is the "
        "banned 6-6, so a later seat leads.",
        "pagat-4x7",
        {**six_banned, "first_lead": "double"},
        _designated_holds(_SIX_SIX, opens=False),
    )
    yield _Cover(
        "cover-forbidden-with-first-any-tile-lead",
        "open.forbidden with open.any-tile (first hand): the designated seat holds the banned "
        "6-6 and leads another tile.",
        "pagat-4x7",
        {**six_banned, "first_lead": "any-tile"},
        _designated_holds(_SIX_SIX, opens=True),
    )
    yield _Cover(
        "cover-forbidden-with-later-any-tile-lead",
        "open.forbidden with open.any-tile (later hand): the designated seat holds the banned "
        "6-6 and leads another tile.",
        "domino4d",
        six_banned,
        _designated_holds(_SIX_SIX, opens=True),
        first_hand=False,
    )
    yield _Cover(
        "cover-forbidden-with-later-double-blank-lead",
        "open.forbidden with open.double-blank (later hand): the 0-0 holder also holds 6-6.",
        "pagat-4x7",
        {**six_banned, "later_lead": "double-blank"},
        _opener_holds(_SIX_SIX),
        first_hand=False,
    )
    # Settlement and the blocked action with and without pairs.
    yield _Cover(
        "cover-teams-per-hand-discard-blocked",
        "score.team with block.discard: a blocked per-hand hand goes to the best seat's pair.",
        "pagat-4x7",
        {"partnership": True},
        _blocked,
    )
    yield _Cover(
        "cover-partnership-discard-blocked",
        "partner.challenge with block.discard: discards count in the blocked-hand challenge.",
        _SUWIKI,
        {"blocked_action": "discard"},
        _all(_blocked, lambda s: any(s.discards(seat) for seat in range(4))),
    )
    yield _Cover(
        "cover-partnership-out-by-discarding",
        "partner.closing-double with block.discard: going out by discarding places no closing "
        "tile, so no closing bonus.",
        _SUWIKI,
        {"blocked_action": "discard"},
        _out_discarding,
    )
    yield _Cover(
        "cover-double-blank-25-discarded",
        "score.double-blank-25: a discarded 0-0 counts against the seat like a held one.",
        "chips",
        {"double_blank_25": True},
        _discarded(_BLANK),
    )
    yield _Cover(
        "cover-rank-out-before-lone-double-blank",
        "score.rank: the seat that went out (no tiles) ranks before a lower seat left with only "
        "0-0, though both count 0.",
        "domino4d",
        {},
        _lone_blank_before_out,
        first_hand=False,
    )
    # Closing doubles (partner.closing-double).
    yield _Cover(
        "cover-closing-blank-double",
        "partner.closing-double: going out with 0-0 earns the blank-double bonus (first hand, "
        "any-tile lead).",
        _SUWIKI,
        {"first_lead": "any-tile"},
        _out_placing(lambda t: t == _BLANK),
    )
    yield _Cover(
        "cover-closing-blank-double-bonus-off",
        "partner.closing-double: going out with 0-0 earns nothing when blank_double_bonus is 0.",
        _SUWIKI,
        {"blank_double_bonus": 0},
        _out_placing(lambda t: t == _BLANK),
        first_hand=False,
    )
    yield _Cover(
        "cover-closing-top-double-bonus-off",
        "partner.closing-double: going out with 6-6 earns nothing when top_double_bonus is 0.",
        _SUWIKI,
        {"top_double_bonus": 0},
        _out_placing(lambda t: t == _SIX_SIX),
    )
    yield _Cover(
        "cover-closing-top-double-any-double-on",
        "partner.closing-double: with the any-double house rule 6-6 still earns the top bonus.",
        _SUWIKI,
        {"closing_any_double": True},
        _out_placing(lambda t: t == _SIX_SIX),
    )
    yield _Cover(
        "cover-closing-any-double",
        "partner.closing-double, any-double house rule: going out with a double other than 6-6 "
        "and 0-0 earns the top-double bonus.",
        _SUWIKI,
        {"closing_any_double": True},
        _out_placing(lambda t: t.is_double and t not in (_SIX_SIX, _BLANK)),
    )
    yield _Cover(
        "cover-closing-any-double-blank",
        "partner.closing-double, any-double house rule: going out with 0-0 earns the top-double "
        "bonus, not the blank-double one.",
        _SUWIKI,
        {"closing_any_double": True},
        _out_placing(lambda t: t == _BLANK),
        first_hand=False,
    )
    yield _Cover(
        "cover-closing-other-double-no-bonus",
        "partner.closing-double: without the house rule a double other than 6-6 and 0-0 earns "
        "nothing.",
        _SUWIKI,
        {},
        _out_placing(lambda t: t.is_double and t not in (_SIX_SIX, _BLANK)),
    )
    # Dead doubles (partner.dead-double): debit x any-double x double-blank-25 pairwise.
    yield _Cover(
        "cover-dead-top-double",
        "partner.dead-double: the losing pair's 6-6 is dead and counts 100; no debit.",
        _SUWIKI,
        {},
        _dead(_SIX_SIX),
    )
    yield _Cover(
        "cover-dead-top-double-bonus-off",
        "partner.dead-double: with top_double_bonus 0 a 6-6 that would be dead has no dead "
        "value and counts its 12 pips.",
        _SUWIKI,
        {"top_double_bonus": 0},
        _dead(_SIX_SIX, valued=True),
    )
    yield _Cover(
        "cover-dead-top-double-value-one",
        "partner.dead-double: any positive top_double_bonus gives 6-6 a dead value; at 1 the "
        "losing pair's dead 6-6 counts 1.",
        _SUWIKI,
        {"top_double_bonus": 1},
        _dead(_SIX_SIX),
    )
    yield _Cover(
        "cover-dead-blank-double-any-double-blank-25",
        "partner.dead-double with score.double-blank-25 and the any-double house rule: the "
        "losing pair's 0-0 is dead and counts 50 instead of its 25 or 0.",
        _SUWIKI,
        {"closing_any_double": True, "double_blank_25": True},
        _dead(_BLANK),
        first_hand=False,
    )
    yield _Cover(
        "cover-dead-top-double-debit-blank-25",
        "partner.dead-double, debit option: the losing pair's dead 6-6 is also taken off it "
        "(double-blank-25 on).",
        _SUWIKI,
        {"dead_double_debit": True, "double_blank_25": True},
        _dead(_SIX_SIX),
    )
    yield _Cover(
        "cover-dead-blank-double-debit-any-double",
        "partner.dead-double, debit option: the losing pair's dead 0-0 counts 50 and is taken "
        "off it (any-double house rule on).",
        _SUWIKI,
        {"dead_double_debit": True, "closing_any_double": True},
        _dead(_BLANK),
        first_hand=False,
    )
    # Both special doubles dead in one seat: each counts its dead value (an engine that stops
    # at the first dead double it finds misscores it). A later hand, as 0-0 opens a first hand.
    yield _Cover(
        "cover-dead-both-doubles-one-seat",
        "partner.dead-double: one seat of the losing pair holds both 6-6 and 0-0, both dead: "
        "they count 100 and 50.",
        _SUWIKI,
        {},
        _dead_in_one_seat(_SIX_SIX, _BLANK),
        first_hand=False,
    )
    yield _Cover(
        "cover-debit-no-dead-double",
        "partner.dead-double, debit option: the losing pair's 6-6 is alive, so nothing is debited.",
        _SUWIKI,
        {"dead_double_debit": True},
        _kept_alive_by(_SIX_SIX, Spot.HAND),
    )
    yield _Cover(
        "cover-alive-open-end",
        "partner.dead-double: the losing pair's 6-6 is not dead while an open end shows 6.",
        _SUWIKI,
        {},
        _fated(_SIX_SIX, Fate.OPEN_END),
    )
    yield _Cover(
        "cover-alive-both-ends-show-its-number",
        "partner.dead-double: every other six is in the line, but both open ends show 6, so the "
        "losing pair's 6-6 is not dead.",
        _SUWIKI,
        {},
        _all(_fated(_SIX_SIX, Fate.OPEN_END), _suit_in_line(_SIX_SIX)),
    )
    yield _Cover(
        "cover-alive-blank-in-hand",
        "partner.dead-double: the losing pair's 0-0 is kept alive by a blank tile in a hand.",
        _SUWIKI,
        {},
        _kept_alive_by(_BLANK, Spot.HAND),
        first_hand=False,
    )
    # A double held in hand that only discarded tiles of its number keep alive: an engine
    # that looks for the other tiles in hands alone kills it.
    # The top tiles of a number's suit count too: 0-5 and 0-6 alone keep 0-0 alive (an engine
    # that looks for the other blanks among the lower tiles only kills it).
    yield _Cover(
        "cover-alive-blank-by-its-top-tiles",
        "partner.dead-double: the losing pair's 0-0 is kept alive by 0-5 and 0-6 alone, every "
        "other blank being in the line.",
        _SUWIKI,
        {},
        _fate(_BLANK, lambda f: _kept_by(f) == [Tile(0, 5), Tile(0, 6)]),
        first_hand=False,
    )
    yield _Cover(
        "cover-alive-discarded",
        "partner.dead-double with block.discard: the losing pair holds 6-6 in hand and every "
        "other six off the line was discarded, which keeps it alive (it counts 12).",
        _SUWIKI,
        {"blocked_action": "discard"},
        _kept_alive_by(_SIX_SIX, Spot.DISCARDED, only=True),
    )
    yield _Cover(
        "cover-alive-blank-discarded",
        "partner.dead-double with block.discard: the losing pair holds 0-0 in hand and every "
        "other blank off the line was discarded, which keeps it alive.",
        _SUWIKI,
        {"blocked_action": "discard"},
        _kept_alive_by(_BLANK, Spot.DISCARDED, only=True),
        first_hand=False,
    )
    yield _Cover(
        "cover-discarded-top-double-not-dead",
        "partner.dead-double with block.discard: the losing pair discarded 6-6, and although "
        "every other six is in the line and no open end shows 6, only a double still in a hand "
        "dies, so it counts 12.",
        _SUWIKI,
        {"blocked_action": "discard"},
        _dead_if_held(_SIX_SIX),
    )
    yield _Cover(
        "cover-alive-set-aside",
        "partner.dead-double in a 4 x 6 starter deal: the losing pair's 6-6 is kept alive by a "
        "six set aside.",
        _SUWIKI,
        {"hand_size": 6},
        _kept_alive_by(_SIX_SIX, Spot.SET_ASIDE),
    )
    yield _Cover(
        "cover-double-of-winning-pair",
        "partner.dead-double: 6-6 held by the partner of the seat that went out is never dead.",
        _SUWIKI,
        {},
        _fated(_SIX_SIX, Fate.OWN_PAIR_OUT),
    )
    # The blocked-hand challenge: every stake base for a win and a loss, under both tie
    # options, multipliers other than the defaults under blocker-loses; and a tie that the
    # blocker loses for every loss base.
    for base in StakeBase:
        for tie in ChallengeTie:
            # Under blocker-loses the blocker sits in pair 1 and the multiplier is 3, so each
            # base is seen from both pairs and with a multiplier other than the default.
            other = tie is ChallengeTie.BLOCKER_LOSES
            pair, mult = (1, 3) if other else (0, 1)
            yield _Cover(
                f"cover-challenge-win-{base.value}-tie-{tie.value}",
                f"partner.challenge: the blocker (pair {pair}) counts strictly lower and wins; "
                f"its pair scores the {base.value} stake x {mult} (tie option {tie.value}).",
                _SUWIKI,
                {
                    "challenge_win_base": base.value,
                    "challenge_tie": tie.value,
                    "challenge_win_multiplier": mult,
                },
                _challenge("win", pair),
            )
            yield _Cover(
                f"cover-challenge-loss-{base.value}-tie-{tie.value}",
                f"partner.challenge: the blocker (pair {pair}) counts higher and loses; the other "
                f"pair scores the {base.value} stake x {mult} (tie option {tie.value}).",
                _SUWIKI,
                {
                    "challenge_loss_base": base.value,
                    "challenge_tie": tie.value,
                    "challenge_loss_multiplier": mult,
                },
                _challenge("loss", pair),
            )
        yield _Cover(
            f"cover-challenge-tie-blocker-loses-{base.value}",
            f"partner.challenge-tie, blocker-loses: a tied challenge goes to the other pair, "
            f"which scores the {base.value} stake x 2.",
            _SUWIKI,
            {"challenge_loss_base": base.value, "challenge_tie": "blocker-loses"},
            _challenge("tie", 1),
        )


def cover_cases() -> Iterator[dict[str, JSON]]:
    """The cover group (topic ``cover``): for each entry of :func:`_cover_list`, the first
    seeded random hand (seed 1, 2, ...; moves as :func:`random_case`) whose end meets the
    entry's criterion, with illegal probes. No seed up to :data:`COVER_SEEDS`: the build fails.
    """
    for want in _cover_list():
        rules = find_preset(want.preset).rules.replace(**want.overrides)
        seed = next(
            (
                seed
                for seed in range(1, COVER_SEEDS + 1)
                if want.criterion(_random_final(rules, seed, first_hand=want.first_hand))
            ),
            None,
        )
        if seed is None:
            msg = f"case {want.case_id}: no seed in 1..{COVER_SEEDS} meets its criterion"
            raise ScenarioError(msg)
        yield random_case(
            want.case_id,
            "cover",
            f"{want.description} (first seed meeting it: {seed})",
            want.preset,
            overrides=want.overrides,
            seed=seed,
            first_hand=want.first_hand,
        )
