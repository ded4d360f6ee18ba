"""Hands drawn cheaply from a seed, for the fuzzer and for the vectors that cover the
situations: the rules (swarm testing over the presets), the deal, the actions (legal ones
chosen by a play policy, and illegal probes), and the hand played by the spec with its
situation (:mod:`gaple.conformance.vectors.situations`).

Hand N of seed S is drawn from its own ``random.Random``, so (S, N) replays it.
"""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Mapping, Sequence
from typing import Any, TypeAlias

from attrs import frozen

from gaple.conformance.vectors.cases import Played
from gaple.conformance.vectors.situations import (
    OPTIONS,
    cells_of,
    features_of,
    option_label,
    option_values,
)
from gaple.deal import deal_indices
from gaple.engine.play import playable_count, run
from gaple.engine.play import start as start_hand
from gaple.engine.scoring import played_position
from gaple.io import rules_to_json
from gaple.presets import find_preset
from gaple.reference.deal import turns_up_starter
from gaple.reference.scoring import Reckoning, reckon
from gaple.reference.turn import move_error
from gaple.rules import (
    BlockedAction,
    ChallengeTie,
    InvalidRuleset,
    LeadRule,
    Ruleset,
    Settlement,
    StakeBase,
)
from gaple.state import (
    Action,
    Discard,
    End,
    Ending,
    Lead,
    Move,
    Pass,
    Place,
    State,
    check_rules,
    is_legal,
    legal_moves,
)
from gaple.tiles import Tile, tile_set

__all__ = [
    "MAX_STEPS",
    "POLICIES",
    "Draw",
    "Hand",
    "draw_hand",
    "meets",
    "play_draw",
    "playable",
]

JSON = Any

MAX_STEPS = 60
"""Actions drawn per hand: more than any hand lasts, counting illegal attempts."""

POLICIES = ("random", "block", "hold-doubles", "block-hold-doubles", "starve-doubles")
"""How the legal moves of a hand are chosen: uniformly; preferring the placement that
leaves the fewest tiles able to follow (blocked hands, challenges); playing doubles last
(closing doubles); both; or using up the other tiles of N and 0 without showing N or 0 on an
end, the doubles N-N and 0-0 kept back (dead doubles)."""

ILLEGAL_SHARE = 6
"""One action in this many is an illegal probe (a rejected move the engine must refuse)."""


# --- drawing the rules -------------------------------------------------------------------


def playable(names: Sequence[str], fixed: Mapping[str, JSON]) -> list[str]:
    ok = []
    for name in names:
        try:
            check_rules(find_preset(name).rules.replace(**fixed))
        except InvalidRuleset:
            continue
        ok.append(name)
    return ok


AIM_TRIES = 32
"""Draws of the options tried for one aimed hand before taking the last one as it is."""


Allowed = Mapping[str, Sequence[Any]]
"""Per option, the values a scope plays (as :class:`~gaple.rules.Ruleset` holds them): drawn
only among them (:meth:`gaple.conformance.vectors.scope.Scope.draws`)."""


def _variant(
    rng: random.Random,
    names: Sequence[str],
    fixed: Mapping[str, JSON],
    aim: Mapping[str, frozenset[str]] | None = None,
    allowed: Allowed | None = None,
) -> tuple[str, dict[str, JSON], Ruleset] | None:
    """A preset, the options drawn for it (in JSON form) and the ruleset they make: each
    option kept at the preset's value or drawn (swarm testing), never one of ``fixed``;
    ``None`` when the draw is not a valid ruleset. With ``aim`` (the option labels a cell
    needs, :func:`gaple.conformance.vectors.situations.needs`), the first of a few draws whose
    options it allows, and a preset that turns up a starter exactly when it asks for one."""
    if aim is not None and "lead" in aim:
        starter = aim["lead"] == {"starter"}
        names = [n for n in names if turns_up_starter(find_preset(n).rules) == starter] or names
    if aim is not None and "players" in aim:
        seats = fixed.get("players")
        names = [
            n
            for n in names
            if option_label("players", seats or find_preset(n).rules.players) in aim["players"]
        ] or names
    for _ in range(AIM_TRIES if aim is not None else 1):
        name, drawn = _options(rng, names, fixed, aim or {}, allowed or {})
        if aim is None or _fits(aim, find_preset(name).rules, drawn, fixed):
            break
    built = _built(name, json.dumps(fixed, sort_keys=True), tuple(sorted(drawn.items())))
    return None if built is None else (name, *built)


def _fits(
    aim: Mapping[str, frozenset[str]],
    base: Ruleset,
    drawn: Mapping[str, JSON],
    fixed: Mapping[str, JSON],
) -> bool:
    """Whether the options drawn over ``base`` have the labels ``aim`` allows (before the
    ruleset is built: building it costs more than drawing again). Whether a starter turns up
    follows from several options and is judged on the built ruleset (:func:`meets`)."""
    labels = {
        name: option_label(name, drawn.get(name, fixed.get(name, getattr(base, name))))
        for name in aim
        if name in OPTIONS and name != "has_starter"
    }
    return _within(aim, labels)


def meets(aim: Mapping[str, frozenset[str]], draw: Draw) -> bool:
    """Whether ``draw`` has the option labels and the first-hand flag ``aim`` allows."""
    return _within(aim, {**option_values(draw.rules), "hand": "first" if draw.first else "later"})


def _within(aim: Mapping[str, frozenset[str]], labels: Mapping[str, str]) -> bool:
    """Whether each of ``labels`` that ``aim`` narrows is among the values it allows."""
    return all(labels[name] in allowed for name, allowed in aim.items() if name in labels)


def _options(
    rng: random.Random,
    names: Sequence[str],
    fixed: Mapping[str, JSON],
    aim: Mapping[str, frozenset[str]],
    allowed: Allowed,
) -> tuple[str, dict[str, Any]]:
    """A preset and the options drawn for it (not yet checked as a ruleset); an option
    ``aim`` narrows is drawn among the values it allows whenever the preset's is not one, and
    one ``allowed`` lists only among its values."""
    name = rng.choice(names)
    base = find_preset(name).rules
    drawn: dict[str, JSON] = {}

    # Options the preset does not use are kept at SUWIKI's values, the sourced ones.
    team_base = base if base.partnership else find_preset("suwiki-partnership").rules

    def pick(option: str, values: Sequence[Any], kept: Ruleset = base) -> Any:
        played = allowed.get(option)
        values = values if played is None else played
        aimed = aim.get(option)
        if aimed is not None:
            values = [v for v in values if option_label(option, v) in aimed] or values
        if option not in fixed:
            value = getattr(kept, option)
            kept_out = (aimed is not None and option_label(option, value) not in aimed) or (
                played is not None and value not in played
            )
            if rng.random() < 0.5 or kept_out:
                value = rng.choice(values)
            if value != getattr(base, option):
                drawn[option] = value
        return drawn.get(option, fixed.get(option, getattr(base, option)))

    pick("blocked_action", _BLOCKED_ACTIONS)
    pick("double_blank_25", _FLAGS)
    # The lead options are drawn with a starter too: valid, and never in play then.
    pick("first_lead", _LEAD_RULES)
    pick("later_lead", _LEAD_RULES)
    tiles = _ban_candidates(base.max_pip)
    # Of 0 to 3 tiles, the sizes of a ban whose label the aim allows (all when none does).
    banned = aim.get("forbidden_leads")
    sizes = [
        n
        for n in range(4)
        if banned is None or option_label("forbidden_leads", frozenset(tiles[:n])) in banned
    ] or [0, 3]
    pick("forbidden_leads", [frozenset(rng.sample(tiles, rng.randint(sizes[0], sizes[-1])))])
    # Half the four-seat hands are played in pairs, whose scoring has the most rare paths
    # (all of them when the aim is a settlement only pairs have).
    pairs = aim.get("settlement") == frozenset({"partnership"})
    partnership = base.players == 4 and pick("partnership", [pairs], team_base)
    if not partnership:
        drawn.pop("partnership", None)
    fits = _TEAM_SETTLEMENTS if partnership else _SEAT_SETTLEMENTS
    settlement = pick("settlement", fits, team_base if partnership else base)
    if settlement not in fits and "settlement" not in fixed:
        settlement = drawn["settlement"] = fits[0]
    if "target" not in fixed:
        keeps = settlement in (Settlement.DIFFERENCE, Settlement.PARTNERSHIP)
        drawn["target"] = base.target if keeps else None
    if "match_hands" not in fixed:
        drawn["match_hands"] = 4 if settlement is Settlement.CUMULATIVE else None
    if settlement is Settlement.PARTNERSHIP:
        pick("challenge_tie", _CHALLENGE_TIES, team_base)
        pick("challenge_win_base", _STAKE_BASES, team_base)
        pick("challenge_win_multiplier", (1, 2, 3), team_base)
        pick("challenge_loss_base", _STAKE_BASES, team_base)
        pick("challenge_loss_multiplier", (1, 2, 3), team_base)
        pick("top_double_bonus", (100, 50, 0), team_base)
        pick("blank_double_bonus", (50, 25, 0), team_base)
        pick("dead_double_debit", _FLAGS, team_base)
        pick("closing_any_double", _FLAGS, team_base)
    return name, drawn


# The values each option is drawn among, built once: a run draws options for every hand.
_BLOCKED_ACTIONS = tuple(BlockedAction)
_LEAD_RULES = tuple(LeadRule)
_CHALLENGE_TIES = tuple(ChallengeTie)
_STAKE_BASES = tuple(StakeBase)
_FLAGS = (False, True)
_TEAM_SETTLEMENTS = (Settlement.PARTNERSHIP, Settlement.PER_HAND)
_SEAT_SETTLEMENTS = tuple(s for s in Settlement if s is not Settlement.PARTNERSHIP)


@functools.cache
def _ban_candidates(max_pip: int) -> tuple[Tile, ...]:
    """The tiles a ban is drawn among: the set's, the top double listed twice (which makes a
    ban of it twice as likely as of any other tile)."""
    return (Tile(max_pip, max_pip), *tile_set(max_pip).tiles)


@functools.lru_cache(maxsize=4096)
def _built(
    name: str, fixed: str, drawn: tuple[tuple[str, Any], ...]
) -> tuple[dict[str, JSON], Ruleset] | None:
    """The options changed (JSON form) and the ruleset of preset ``name`` with ``fixed`` (JSON
    text) and ``drawn``, or ``None`` if invalid: validating a ruleset costs more than playing a
    hand, and a run draws the same rules again and again."""
    try:
        rules = find_preset(name).rules.replace(**json.loads(fixed), **dict(drawn))
        check_rules(rules)
    except InvalidRuleset:
        return None
    base_json, rules_json = _preset_json(name), rules_to_json(rules)
    return {k: rules_json[k] for k in rules_json if rules_json[k] != base_json[k]}, rules


@functools.cache
def _preset_json(name: str) -> dict[str, JSON]:
    """The options of preset ``name`` in JSON form (:func:`_built` compares with them)."""
    return rules_to_json(find_preset(name).rules)


# --- drawing the hand --------------------------------------------------------------------


@frozen
class Draw:
    """Everything a fuzzed hand is made of; :func:`play_draw` plays it the same every time."""

    preset: str
    changed: dict[str, JSON]
    """The options changed from the preset's, in JSON form."""
    first: bool
    """Whether it is the first hand of a match."""
    policy: str
    """The play policy (:data:`POLICIES`)."""
    order: tuple[int, ...]
    """The shuffled set, as indices into its canonical order (:func:`gaple.deal.deal_indices`
    deals it)."""
    seat: int
    """The seat dealt first."""
    choices: tuple[tuple[bool, int], ...]
    """Each action: whether it is an illegal probe, and which move (or probe) it picks."""
    rules: Ruleset
    """The ruleset the hand is played under: the preset's with ``changed``."""


def draw_hand(
    seed: int,
    number: int,
    names: Sequence[str],
    fixed: Mapping[str, JSON],
    aim: Mapping[str, frozenset[str]] | None = None,
    *,
    allowed: Allowed | None = None,
) -> Draw | None:
    """Hand ``number`` of the run with ``seed`` over the presets ``names`` (options ``fixed``,
    and those ``allowed`` lists drawn among its values), aimed at what ``aim`` allows
    (:func:`_variant`; a first or a later hand as it asks); ``None`` when its drawn options
    form no valid ruleset."""
    rng = random.Random(f"{seed}/{number}")
    variant = _variant(rng, names, fixed, aim, allowed)
    if variant is None:
        return None
    preset, changed, rules = variant
    first, policy = rng.random() < 0.5, rng.choice(POLICIES)
    if aim is not None and len(aim.get("hand", ())) == 1:
        first = aim["hand"] == {"first"}
    order = _shuffled(rng, tile_set(rules.max_pip).size)
    # Most deals give one seat both special doubles; a number past the seats means none.
    gather = rng.randint(0, rules.players)
    if gather < rules.players:
        order = _gather(order, rules, gather)
    seat = rng.randrange(rules.players)
    # One call for all the actions' bits, not two to the random module per action (a third
    # of drawing a hand), 16 per action (two bytes, low then high): the low 7 say whether it
    # is a probe, the 9 above them which move it picks.
    raw = rng.getrandbits(16 * MAX_STEPS).to_bytes(2 * MAX_STEPS, "little")
    choices = tuple(
        ((low & 0x7F) % ILLEGAL_SHARE == 0, high << 1 | low >> 7)
        for low, high in zip(raw[::2], raw[1::2], strict=True)
    )
    return Draw(preset, changed, first, policy, tuple(order), seat, choices, rules)


def _shuffled(rng: random.Random, size: int) -> list[int]:
    """The indices of a set of ``size`` tiles in a random order: sorted by a random key of 32
    bits each, all drawn in one call (``rng.shuffle`` asks for a number per tile)."""
    bits = rng.getrandbits(32 * size)
    keys = [bits >> at & 0xFFFFFFFF for at in range(0, 32 * size, 32)]
    return sorted(range(size), key=keys.__getitem__)


def _gather(order: list[int], rules: Ruleset, seat: int) -> list[int]:
    """``order`` with the special doubles (N-N and 0-0) swapped into ``seat``'s hand, so one
    seat can be left holding both (dead doubles, closing doubles)."""
    order = list(order)
    size = rules.hand_size
    mine = range(seat * size, (seat + 1) * size)
    index = tile_set(rules.max_pip).index
    specials = [index[Tile(rules.max_pip, rules.max_pip)], index[Tile(0, 0)]]
    free = [i for i in mine if order[i] not in specials]
    for tile in specials:
        where = order.index(tile)
        if where not in mine:
            slot = free.pop()
            order[where], order[slot] = order[slot], order[where]
    return order


@functools.cache
def _all_actions(max_pip: int, players: int) -> list[tuple[int, Move]]:
    """Every action of every seat with the double-``max_pip`` set: where probes are drawn."""
    tiles = tile_set(max_pip).tiles
    moves: list[Move] = [Pass()]
    for tile in tiles:
        moves += [Lead(tile), Place(tile, End.LEFT), Place(tile, End.RIGHT), Discard(tile)]
    return [(seat, move) for seat in range(players) for move in moves]


def _followers(state: State) -> int:
    """How many tiles in hand fit an open end: the fewer, the nearer the hand is to blocking."""
    if state.ends is None or state.ending is not None:
        return -1 if state.ending is Ending.BLOCKED else 0
    return playable_count(state)


def _made(state: State, move: Move) -> State:
    """The state after ``move``, one of ``legal_moves(state)``: made by the engine's
    :func:`~gaple.engine.play.run` as :func:`~gaple.state.apply` makes it, without checking
    again a move the same tables have just listed."""
    return run(state, None, move)


Option: TypeAlias = tuple[Move, State | None]
"""A legal move and the state it leads to, when a policy looked ahead (``None`` if not)."""


def _ranked(state: State, policy: str, listed: dict[int, tuple[Move, ...]]) -> list[Option]:
    """The legal moves, the ones ``policy`` prefers first, each with the state it leads to
    when the policy looked ahead to rank it (so the move chosen is not made twice); the
    moves are kept in ``listed`` by the state's identity, for the hand's case to show."""
    moves = listed[id(state)] = legal_moves(state)
    if policy == "random" or len(moves) == 1:
        return [(move, None) for move in moves]
    ahead = policy.startswith("block") or policy == "starve-doubles"
    options = [(move, _made(state, move) if ahead else None) for move in moves]
    return sorted(options, key=lambda option: _preference(state, policy, *option))


def _preference(state: State, policy: str, move: Move, after: State | None) -> tuple[int, int]:
    """How ``policy`` ranks ``move`` (lowest first), ``after`` being the state it leads to."""
    tile = getattr(move, "tile", None)
    if policy == "starve-doubles":
        assert after is not None  # the policy looks ahead (_ranked)
        return _starving(state, move, tile, after)
    double = int(tile is not None and tile.is_double and "hold" in policy)
    follow = 0 if after is None else _followers(after)
    return (double, follow)


def _starving(state: State, move: Move, tile: Tile | None, after: State) -> tuple[int, int]:
    """The ``starve-doubles`` order of ``move``: special doubles last, then by how little it
    does for their suits (a tile of N or 0 spent is good, an end showing N or 0 is bad)."""
    suits = (0, state.rules.max_pip)
    if tile is None or not isinstance(move, Lead | Place):
        return (0, 1)
    if tile.is_double and tile.low in suits:
        return (1, 0)
    ends = after.ends or ()
    return (0, int(not any(tile.has(pip) for pip in suits)) + sum(e in suits for e in ends))


def _choose(options: list[Option], policy: str, k: int) -> Option:
    """The policy's favourite seven times in eight, otherwise any move (so it explores)."""
    if policy == "random":
        return options[k % len(options)]
    return options[0] if k % 8 else options[(k // 8) % len(options)]


def _refusal(state: State, actions: list[tuple[int, Move]], k: int) -> Played:
    """The first action refused in ``state`` from position ``k`` of ``actions`` on (most
    actions are refused, so this stops at once instead of testing all of them); but one probe
    in two on an empty table is the opener leading a tile it holds that is banned, when it
    has one, the refusal a random probe almost never finds (``open.forbidden``)."""
    if state.ends is None and state.to_act is not None and k % 2 == 0:
        held = [t for t in state.hand(state.to_act) if t in state.rules.forbidden_leads]
        if held:
            actions = [(state.to_act, Lead(held[k // 2 % len(held)]))]
    count = len(actions)
    for at in range(k, k + count):
        seat, move = actions[at % count]
        # The error verify would raise, never raised: raising costs more than the checks, and
        # its traceback would reach back to the hand's steps (a cycle for the collector).
        refusal = None if is_legal(state, move, seat) else move_error(state, move, seat)
        if refusal is not None:
            return Played(Action(seat, move), refusal.to_error(), state)
    msg = "every action is legal"
    raise AssertionError(msg)


@frozen
class Hand:
    """A drawn hand played by the spec: its start, each step, its end with the reference's
    reckoning, and the situation and cells it reached."""

    draw: Draw
    start: State
    played: tuple[Played, ...]
    final: State
    reckoning: Reckoning
    situation: dict[str, str]
    cells: frozenset[str]
    listed: dict[int, tuple[Move, ...]]
    """The legal moves of the states the hand chose a move in, by identity (each state is held
    by the hand, so no other object takes its identity while the hand lives)."""

    def legal(self, state: State) -> tuple[Move, ...]:
        """:func:`~gaple.state.legal_moves` of one of the hand's states, listed once."""
        moves = self.listed.get(id(state))
        return legal_moves(state) if moves is None else moves


def play_draw(draw: Draw) -> Hand:
    """Play ``draw`` on the spec: the drawn actions, then the hand finished with the policy's
    favourite moves, then one action after the end; so every hand reaches its end."""
    rules = draw.rules
    # Every tile of the set dealt once: the deal fits the rules, with nothing to check.
    deal, hands = deal_indices(rules, draw.order, draw.seat)
    state = start = start_hand(rules, deal, hands, first_hand=draw.first)
    actions = _all_actions(rules.max_pip, rules.players)
    played: list[Played] = []
    listed: dict[int, tuple[Move, ...]] = {}
    for illegal, k in draw.choices:
        if state.to_act is None:
            break
        if illegal:
            played.append(_refusal(state, actions, k))
            continue
        move, after = _choose(_ranked(state, draw.policy, listed), draw.policy, k)
        state = _made(state, move) if after is None else after
        played.append(Played(state.history[-1], None, state))  # the action just made
    while state.to_act is not None:
        move, after = _ranked(state, draw.policy, listed)[0]
        state = _made(state, move) if after is None else after
        played.append(Played(state.history[-1], None, state))
    played.append(_refusal(state, [(0, Pass())], 0))
    reckoning = reckon(played_position(state))  # reached by play: no checks needed
    refused = [(p.action.move, p.error.code) for p in played if p.error is not None]
    situation = features_of(start, state, refused, reckoning)
    cells = frozenset(cells_of(situation, option_values(rules)))
    return Hand(draw, start, tuple(played), state, reckoning, situation, cells, listed)
