"""Differential fuzzing: Hypothesis draws rules, deals and action sequences (legal and
illegal), the engine and the spec play them side by side, and a disagreement is shrunk to a
minimal case.

Swarm testing: each example draws its own ruleset, a preset (one, or any of them) with each
option either kept or drawn anew among the values that form a valid ruleset; options the
caller fixes (``--set``) are never drawn. Deal sizes stay those of the presets, which the
sources give.

Steering: random deals and random play rarely reach the rules that matter in few hands (a
tied challenge, a dead double, a closing double), so most deals gather 6-6 and 0-0 into one
hand, and the drawn moves are played under each play policy (:data:`POLICIES`) on the spec
alone, the hand reaching the rarest situation being sent to the engine. Every played example
is classified (:func:`situations`) and the counts are reported, so a run shows which rare
paths it reached.

The drawn hand is turned into an ordinary case (:func:`gaple.conformance.cases.build_case`) and
run with :func:`gaple.conformance.runner.run_case`, so the fuzzer compares exactly what the
suite compares and the case it reports is ready to commit under ``spec/vectors/v1/``.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import signal
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from multiprocessing.connection import Connection
from typing import Any

from attrs import frozen
from hypothesis import HealthCheck, Phase, assume, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st

from gaple.conformance.cases import ENGINE, Step, build_case
from gaple.conformance.engines import Engine, EngineError, kill_all
from gaple.conformance.runner import CaseOutcome, EngineInfo, hello, run_case
from gaple.deal import Deal, deal_in_order
from gaple.engine.play import playable_count
from gaple.io import rules_to_json
from gaple.position import Position, position_of
from gaple.presets import PRESETS, find_preset
from gaple.reference.opening import banned
from gaple.reference.partnership import PartnershipScore
from gaple.reference.scoring import reckon
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

__all__ = [
    "MAX_SECONDS",
    "POLICIES",
    "SITUATIONS",
    "Finding",
    "FuzzReport",
    "Unsupported",
    "fuzz",
    "owner",
    "situations",
]

JSON = Any

MAX_STEPS = 60
"""Actions drawn per hand: more than any hand lasts, counting illegal attempts."""

EXAMPLES = 20_000
"""Default number of hands: more than fit in :data:`MAX_SECONDS`, so time is the limit."""

MAX_SECONDS = 40.0
"""Default search time. A defect in 1 hand of 200 is found well within it (guide: fuzzing)."""

SHRINK_SECONDS = 15.0
"""Time allowed for shrinking after the first disagreement; the smallest case so far is kept."""

POLICIES = ("random", "block", "hold-doubles", "block-hold-doubles", "starve-doubles")
"""How the legal moves of an example are chosen: uniformly; preferring the placement that
leaves the fewest tiles able to follow (blocked hands, challenges); playing doubles last
(closing doubles); both; or using up the other tiles of N and 0 without showing N or 0 on an
end, the doubles N-N and 0-0 kept back (dead doubles)."""

SITUATIONS = (
    "blocked",
    "out by discarding",
    "starter blocks at once",
    "forbidden lead refused",
    "tie for the lowest count",
    "0-0 counts 25",
    "0-0 counts 0 (other blank)",
    "challenge won",
    "challenge lost",
    "challenge tied",
    "dead top double",
    "dead 0-0",
    "two dead doubles",
    "closing top double",
    "closing 0-0",
    "closing other double",
)
"""The rare situations a run counts, in report order (:func:`situations`)."""

RARITY = (
    "blocked",
    "out by discarding",
    "challenge won",
    "tie for the lowest count",
    "0-0 counts 25",
    "challenge lost",
    "forbidden lead refused",
    "0-0 counts 0 (other blank)",
    "closing other double",
    "dead top double",
    "closing top double",
    "dead 0-0",
    "closing 0-0",
    "challenge tied",
    "two dead doubles",
    "starter blocks at once",
)
"""The situations from the most to the least often reached by drawn hands (measured with
the reference engine), which :func:`_rarest` steers toward."""


@frozen
class Finding:
    """A minimal disagreement: the case and how the engine failed it."""

    case: dict[str, JSON]
    outcome: CaseOutcome


@frozen
class FuzzReport:
    """What a run did: the finding (if any), how many hands were played or skipped, and how
    many reached each rare situation."""

    finding: Finding | None
    played: int
    """Hands played on the engine and compared, before the first disagreement."""
    skipped: int
    """Hands the engine declined (``unsupported``), not compared."""
    seconds: float
    """Wall time of the whole run, shrinking included."""
    found_after: float | None
    """Seconds until the first disagreement (before shrinking), if there was one."""
    counts: dict[str, int]
    """For each of :data:`SITUATIONS`, the played hands that reached it."""
    skip_reason: str | None = None
    """The first reason an engine gave for declining a hand."""

    def table(self) -> str:
        """The counts as text, one situation a line."""
        width = max(map(len, SITUATIONS))
        lines = [f"{'hands played':<{width}}  {self.played}"]
        lines.append(f"{'skipped (unsupported)':<{width}}  {self.skipped}")
        lines += [f"{name:<{width}}  {self.counts[name]}" for name in SITUATIONS]
        return "\n".join(lines)

    def to_json(self) -> dict[str, JSON]:
        """The report as JSON (the case itself is written separately)."""
        return {
            "played": self.played,
            "skipped": self.skipped,
            "skip_reason": self.skip_reason,
            "seconds": round(self.seconds, 3),
            "found_after": None if self.found_after is None else round(self.found_after, 3),
            "finding": None if self.finding is None else self.finding.outcome.to_json(),
            "situations": dict(self.counts),
        }


_CHOICES = st.lists(
    st.tuples(st.integers(0, 3).map(lambda n: n == 3), st.integers(0, 500)), max_size=MAX_STEPS
)
"""Each step of a hand: whether to try an illegal action, and which move to pick."""


class _Disagreement(Exception):
    pass


class _OutOfTime(BaseException):
    """Raised inside the Hypothesis test to end the run: a BaseException, so Hypothesis
    neither reports nor shrinks it."""


class Unsupported(Exception):
    """The engine declined every hand drawn: nothing was compared."""


# --- drawing the rules -------------------------------------------------------------------


def _playable(names: Sequence[str], fixed: Mapping[str, JSON]) -> list[str]:
    ok = []
    for name in names:
        try:
            find_preset(name).rules.replace(**fixed)
        except InvalidRuleset:
            continue
        ok.append(name)
    return ok


@st.composite
def _variants(
    draw: st.DrawFn, names: Sequence[str], fixed: Mapping[str, JSON]
) -> tuple[str, dict[str, JSON]]:
    """A preset and the options drawn for it: each option kept at the preset's value or drawn
    (swarm testing), never one of ``fixed``; only valid combinations pass."""
    name = draw(st.sampled_from(names))
    base = find_preset(name).rules
    drawn: dict[str, JSON] = {}

    # Options the preset does not use are kept at SUWIKI's values, the sourced ones.
    team_base = base if base.partnership else find_preset("suwiki-partnership").rules

    def pick(option: str, values: st.SearchStrategy[Any], kept: Ruleset = base) -> Any:
        if option not in fixed and draw(st.booleans()):
            drawn[option] = draw(values)
        elif option not in fixed and getattr(kept, option) != getattr(base, option):
            drawn[option] = getattr(kept, option)
        return drawn.get(option, fixed.get(option, getattr(base, option)))

    pick("blocked_action", st.sampled_from(BlockedAction))
    pick("double_blank_25", st.booleans())
    if not base.has_starter:
        pick("first_lead", st.sampled_from(LeadRule))
        pick("later_lead", st.sampled_from(LeadRule))
        top = Tile(base.max_pip, base.max_pip)
        pick("forbidden_leads", st.sets(st.sampled_from([top, *tile_set(base.max_pip).tiles])))
    # Half the four-seat hands are played in pairs, whose scoring has the most rare paths.
    partnership = base.players == 4 and pick("partnership", st.just(False), team_base)
    if not partnership:
        drawn.pop("partnership", None)
    individual = [s for s in Settlement if s is not Settlement.PARTNERSHIP]
    fits = [Settlement.PARTNERSHIP, Settlement.PER_HAND] if partnership else individual
    settlement = pick("settlement", st.sampled_from(fits), team_base if partnership else base)
    if settlement not in fits and "settlement" not in fixed:
        settlement = drawn["settlement"] = fits[0]
    if "target" not in fixed:
        keeps = settlement in (Settlement.DIFFERENCE, Settlement.PARTNERSHIP)
        drawn["target"] = base.target if keeps else None
    if "match_hands" not in fixed:
        drawn["match_hands"] = 4 if settlement is Settlement.CUMULATIVE else None
    if settlement is Settlement.PARTNERSHIP:
        pick("challenge_tie", st.sampled_from(ChallengeTie), team_base)
        pick("challenge_win_base", st.sampled_from(StakeBase), team_base)
        pick("challenge_win_multiplier", st.integers(1, 3), team_base)
        pick("challenge_loss_base", st.sampled_from(StakeBase), team_base)
        pick("challenge_loss_multiplier", st.integers(1, 3), team_base)
        pick("top_double_bonus", st.sampled_from([100, 50, 0]), team_base)
        pick("blank_double_bonus", st.sampled_from([50, 25, 0]), team_base)
        pick("dead_double_debit", st.booleans(), team_base)
        pick("closing_any_double", st.booleans(), team_base)
    try:
        rules = base.replace(**fixed, **drawn)
    except InvalidRuleset:
        assume(False)
    base_json, rules_json = rules_to_json(base), rules_to_json(rules)
    changed = {k: rules_json[k] for k in rules_json if rules_json[k] != base_json[k]}
    return name, changed


# --- drawing the hand --------------------------------------------------------------------


def _all_actions(rules: Ruleset) -> list[tuple[int, Move]]:
    tiles = tile_set(rules.max_pip).tiles
    moves: list[Move] = [Pass()]
    for tile in tiles:
        moves += [Lead(tile), Place(tile, End.LEFT), Place(tile, End.RIGHT), Discard(tile)]
    return [(seat, move) for seat in range(rules.players) for move in moves]


def _gather(order: list[Tile], rules: Ruleset, seat: int) -> list[Tile]:
    """``order`` with the special doubles (N-N and 0-0) swapped into ``seat``'s hand, so one
    seat can be left holding both (dead doubles, closing doubles)."""
    order = list(order)
    size = rules.hand_size
    mine = range(seat * size, (seat + 1) * size)
    specials = [Tile(rules.max_pip, rules.max_pip), Tile(0, 0)]
    free = [i for i in mine if order[i] not in specials]
    for tile in specials:
        where = order.index(tile)
        if where not in mine:
            slot = free.pop()
            order[where], order[slot] = order[slot], order[where]
    return order


def _followers(state: State) -> int:
    """How many tiles in hand fit an open end: the fewer, the nearer the hand is to blocking."""
    if state.ends is None or state.ending is not None:
        return -1 if state.ending is Ending.BLOCKED else 0
    return playable_count(state)


def _ranked(state: State, policy: str) -> list[Move]:
    """The legal moves, the ones ``policy`` prefers first."""
    moves = list(legal_moves(state))
    if policy == "random":
        return moves

    def key(move: Move) -> tuple[int, int]:
        tile = getattr(move, "tile", None)
        if policy == "starve-doubles":
            return _starving(state, move, tile)
        double = int(tile is not None and tile.is_double and "hold" in policy)
        follow = _followers(apply(state, move)) if policy.startswith("block") else 0
        return (double, follow)

    return sorted(moves, key=key)


def _starving(state: State, move: Move, tile: Tile | None) -> tuple[int, int]:
    """The ``starve-doubles`` order of ``move``: special doubles last, then by how little it
    does for their suits (a tile of N or 0 spent is good, an end showing N or 0 is bad)."""
    suits = (0, state.rules.max_pip)
    if tile is None or not isinstance(move, Lead | Place):
        return (0, 1)
    if tile.is_double and tile.low in suits:
        return (1, 0)
    after = apply(state, move).ends or ()
    return (0, int(not any(tile.has(pip) for pip in suits)) + sum(e in suits for e in after))


def _choose(moves: list[Move], policy: str, k: int) -> Move:
    """The policy's favourite seven times in eight, otherwise any move (so it explores)."""
    if policy == "random":
        return moves[k % len(moves)]
    return moves[0] if k % 8 else moves[(k // 8) % len(moves)]


def _steps(
    state: State,
    choices: list[tuple[bool, int]],
    actions: list[tuple[int, Move]],
    policy: str,
) -> tuple[list[Step], State]:
    """The drawn choices as steps, then the hand finished with the policy's favourite moves,
    then one action after the end; so every example reaches the end of its hand. Also the
    final state."""
    steps: list[Step] = []
    for illegal, k in choices:
        if state.to_act is None:
            break
        if illegal:
            # The first illegal action from position k on: most actions are illegal, so this
            # stops at once instead of testing all of them.
            seat, move = next(
                (s, m)
                for s, m in actions[k % len(actions) :] + actions[: k % len(actions)]
                if not is_legal(state, m, s)
            )
            steps.append((seat, str(move), _code(state, move, seat)))
            continue
        move = _choose(_ranked(state, policy), policy, k)
        steps.append((state.to_act, str(move), None))
        state = apply(state, move)
    while state.to_act is not None:
        move = _ranked(state, policy)[0]
        steps.append((state.to_act, str(move), None))
        state = apply(state, move)
    steps.append((0, "pass", "hand-over"))
    return steps, state


def _rarest(
    start: State, choices: list[tuple[bool, int]], actions: list[tuple[int, Move]], policy: str
) -> tuple[list[Step], set[str]]:
    """The same choices played under each policy on the spec alone (cheap next to the
    engine), keeping the hand that reaches the rarest situation (:data:`RARITY`), the drawn
    policy's on a draw. The order is fixed, so a hand replays the same while it is shrunk."""
    best: tuple[int, list[Step], set[str]] | None = None
    for candidate in (policy, *(p for p in POLICIES if p != policy)):
        steps, final = _steps(start, choices, actions, candidate)
        reached = situations(start, final, steps)
        score = max((RARITY.index(name) + 1 for name in reached), default=0)
        if best is None or score > best[0]:
            best = (score, steps, reached)
    assert best is not None  # POLICIES is not empty
    return best[1], best[2]


def _code(state: State, move: Move, seat: int) -> str:
    try:
        verify(state, move, seat)
    except IllegalMove as error:
        return error.code
    msg = f"seat {seat}: {move} is legal"
    raise AssertionError(msg)


# --- what a hand reached -----------------------------------------------------------------


def situations(start: State, final: State, steps: Sequence[Step]) -> set[str]:
    """The rare situations (:data:`SITUATIONS`) a hand from ``start`` to ``final`` reached."""
    rules = final.rules
    found: set[str] = set()
    if start.ending is Ending.BLOCKED:
        found.add("starter blocks at once")
    if any(code == "illegal-lead" and _forbidden(text, rules) for _, text, code in steps):
        found.add("forbidden lead refused")
    if rules.forbidden_leads and start.ends is None:
        # The ban matters when without it another seat would lead or other leads be legal.
        free = rules.replace(forbidden_leads=frozenset())
        unbanned = new_hand(free, start.deal, first_hand=start.first_hand)
        if (unbanned.to_act, set(legal_moves(unbanned))) != (start.to_act, set(legal_moves(start))):
            found.add("forbidden lead refused")
    if final.ending is None:
        return found
    pos = position_of(final)
    reckoning = reckon(pos)
    for count in reckoning.counts:
        if count.blank_double is not None:  # 0-0 counted under the double-blank option
            other = count.blank_double.other_blanks
            found.add("0-0 counts 0 (other blank)" if other else "0-0 counts 25")
    if pos.ending is Ending.BLOCKED:
        found.add("blocked")
    elif pos.closing is None:
        found.add("out by discarding")
    partnership = reckoning.partnership
    if partnership is None:
        best, second = reckoning.ranking[:2]
        if best.count == second.count:
            found.add("tie for the lowest count")
        return found
    if partnership.challenge is not None:
        challenge = partnership.challenge
        if challenge.tie is not None:  # the reference applied a tie option
            found.add("challenge tied")
        else:
            found.add("challenge won" if challenge.blocker_won else "challenge lost")
        return found
    return found | _out_doubles(pos, partnership)


def _forbidden(text: str, rules: Ruleset) -> bool:
    words = text.split()
    return words[0] == "lead" and banned(rules, Tile.parse(words[1]))


def _out_doubles(pos: Position, partnership: PartnershipScore) -> set[str]:
    """The labels of the doubles of a hand a seat went out of, as the reference decided them:
    the closing tile and its bonus, and each double's fate."""
    rules = pos.rules
    found: set[str] = set()
    top = Tile(rules.max_pip, rules.max_pip)
    out = partnership.out
    assert out is not None  # a seat went out
    if pos.closing == top:
        found.add("closing top double")
    elif pos.closing == Tile(0, 0):
        found.add("closing 0-0")
    elif out.closing is not None and out.closing.house_rule:
        found.add("closing other double")  # only the house rule pays for another double
    dead = [fate for fate in partnership.fates if fate.dead]
    if any(fate.tile == top for fate in dead):
        found.add("dead top double")
    if any(fate.tile == Tile(0, 0) for fate in dead):
        found.add("dead 0-0")
    if any(sum(fate.seat == seat for fate in dead) == 2 for seat in range(rules.players)):
        found.add("two dead doubles")
    return found


# --- the run -----------------------------------------------------------------------------


@frozen
class _Hand:
    """What a drawn hand is played under: the preset, the options changed, the deal, and
    whether it is a first hand."""

    preset: str
    changed: dict[str, JSON]
    deal: Deal
    first: bool


class _Run:
    """The mutable side of one run: the engine (restarted after a crash), the tallies, the
    findings and the clock."""

    def __init__(
        self,
        make_engine: Callable[[], Engine],
        seed: int,
        max_seconds: float | None,
        shrink_seconds: float,
    ) -> None:
        self.make_engine = make_engine
        self.seed = seed
        self.max_seconds = max_seconds
        self.shrink_seconds = shrink_seconds
        self.began = time.monotonic()
        self.current: tuple[Engine, EngineInfo] | None = None
        self.found: list[Finding] = []
        self.found_after: float | None = None
        self.counts: Counter[str] = Counter()
        self.played = 0
        self.skipped = 0
        self.reasons: list[str] = []
        self.broken: str | None = None
        """Why the engine failed (crash, hang, out of protocol): that ends the search, and is
        never written out as a rules case."""

    def engine(self) -> tuple[Engine, EngineInfo]:
        if self.current is None:
            fresh = self.make_engine()
            self.current = (fresh, hello(fresh))
        return self.current

    def close(self) -> None:
        if self.current is not None:
            self.current[0].close()
            self.current = None

    def elapsed(self) -> float:
        return time.monotonic() - self.began

    def out_of_time(self) -> bool:
        """Past the search time; once a disagreement is found, past its shrinking time; or
        the engine broke."""
        if self.broken is not None:
            return True
        if self.found_after is not None:
            return self.elapsed() > self.found_after + self.shrink_seconds
        return self.max_seconds is not None and self.elapsed() > self.max_seconds

    def play(self, hand: _Hand, steps: list[Step], reached: set[str]) -> CaseOutcome | None:
        """Run the hand on the engine; the outcome when it disagrees (``None`` otherwise).

        Hands are tallied only while searching, not while shrinking.
        """
        outcome, case = self.attempt(hand, steps)
        if outcome.status == "skipped":
            if not self.found:
                self.skipped += 1
                self.reasons.append(outcome.message or "no reason given")
            return None
        if outcome.status == "errored" and not self.found:
            self.broken = outcome.message
            return None
        if not self.found:
            self.played += 1
            self.counts.update(reached)
        if outcome.status != "failed":
            return None
        if self.found_after is None:
            self.found_after = self.elapsed()
        if outcome.step is not None and outcome.step < len(steps):
            # The steps after the divergence add nothing: keep the shorter case if it still fails.
            shorter, short_case = self.attempt(hand, steps[: outcome.step])
            if shorter.status == outcome.status and shorter.rule == outcome.rule:
                outcome, case = shorter, short_case
        self.found.append(Finding(case, outcome))
        return outcome

    def attempt(self, hand: _Hand, steps: list[Step]) -> tuple[CaseOutcome, dict[str, JSON]]:
        preset, changed = hand.preset, hand.changed
        key = [preset, changed, str(hand.deal), steps, hand.first]
        digest = hashlib.sha1(json.dumps(key).encode()).hexdigest()[:10]
        case = build_case(
            case_id=f"fuzz-{rules_label(preset, changed)}-{digest}",
            topic="fuzz",
            description=f"Found by gaple conformance fuzz (variant {preset}, seed {self.seed}).",
            preset=preset,
            overrides=changed,
            deal=hand.deal,
            steps=steps,
            first_hand=hand.first,
            played_by=ENGINE,  # proven equal to the reference, and many times faster
        )
        current, info = self.engine()
        try:
            return run_case(current, info, case, info.levels), case
        except EngineError as error:
            self.close()
            failure = CaseOutcome(
                case=case["id"], topic="fuzz", status="errored", seconds=0.0, message=str(error)
            )
            return failure, case

    def report(self) -> FuzzReport:
        return FuzzReport(
            finding=self.found[-1] if self.found else None,
            played=self.played,
            skipped=self.skipped,
            seconds=self.elapsed(),
            found_after=self.found_after,
            counts={name: self.counts[name] for name in SITUATIONS},
            skip_reason=self.reasons[0] if self.reasons else None,
        )


def fuzz(
    make_engine: Callable[[], Engine],
    variants: str | Sequence[str] | None = None,
    *,
    examples: int = EXAMPLES,
    seed: int = 0,
    overrides: Mapping[str, JSON] | None = None,
    max_seconds: float | None = MAX_SECONDS,
    shrink_seconds: float = SHRINK_SECONDS,
    shard: tuple[int, int] | None = None,
    jobs: int = 1,
) -> FuzzReport:
    """Play up to ``examples`` drawn hands (for at most ``max_seconds``) on the engine and the
    spec; the report holds the first disagreement, shrunk for at most ``shrink_seconds``.

    ``variants`` is one preset, several, or ``None`` for every preset; ``overrides`` are
    options fixed in every example (the others are drawn per example).

    ``shard`` (I, N) plays only the hands of shard I of N (:func:`owner` of the rules, the
    first-hand flag and the policy, drawn first): the shards of one seed play
    disjoint hands, the same ones in every run that is not cut short by the time. ``jobs``
    processes search side by side, each a shard of the shard; their counts are added up, and
    the disagreement reported is that of the first job (in job order) that found one.

    Raises:
        EngineError: the engine cannot even be started and greeted, or it crashed, hung or
            answered out of protocol during the search (never reported as a disagreement).
        Unsupported: the engine declined every hand.
        gaple.rules.InvalidRuleset: ``overrides`` fit none of the variants.
    """
    if variants is None:
        names = list(PRESETS)
    elif isinstance(variants, str):
        names = [find_preset(variants).name]
    else:
        names = [find_preset(name).name for name in variants]
    fixed = dict(overrides or {})
    playable = _playable(names, fixed)
    if not playable:
        find_preset(names[0]).rules.replace(**fixed)  # raises, saying why
    index, count = shard or (1, 1)

    def search(job: int) -> FuzzReport:
        # Job j of J in shard I of N is shard I + N * (j - 1) of N * J: an owner() equal to I
        # modulo N, so together the jobs take exactly the hands of the shard.
        part = (index + count * (job - 1), count * jobs)
        return _search(
            make_engine, playable, fixed, examples, seed, max_seconds, shrink_seconds, part
        )

    report = search(1) if jobs == 1 else _merge(_in_processes(search, jobs))
    if report.finding is None and report.skipped and not report.played:
        raise Unsupported(report.skip_reason)
    return report


def owner(key: object, count: int) -> int:
    """The shard (1 to ``count``) of a hand from what was drawn of it (``key``, JSON): a hash,
    so the same draws fall to the same shard in every run. Shards nest: shard I + N * (j - 1)
    of N * J is part of shard I of N."""
    digest = hashlib.sha1(json.dumps(key, sort_keys=True).encode()).digest()
    return int.from_bytes(digest[:8], "big") % count + 1


def _search(  # noqa: PLR0917  # the arguments of fuzz(), passed on to each job
    make_engine: Callable[[], Engine],
    playable: list[str],
    fixed: dict[str, JSON],
    examples: int,
    seed: int,
    max_seconds: float | None,
    shrink_seconds: float,
    shard: tuple[int, int],
) -> FuzzReport:
    run = _Run(make_engine, seed, max_seconds, shrink_seconds)

    @settings(
        max_examples=examples,
        database=None,
        deadline=None,
        phases=(Phase.generate, Phase.shrink),
        suppress_health_check=list(HealthCheck),
        print_blob=False,
    )
    @hypothesis_seed(seed)
    @given(data=st.data())
    def probe(data: st.DataObject) -> None:
        preset, changed = data.draw(_variants(playable, fixed), label="variant")
        first_hand = data.draw(st.booleans(), label="first_hand")
        policy = data.draw(st.sampled_from(POLICIES), label="policy")
        # The shard is decided before the costly draws (the moves, the order of the tiles), by
        # what is drawn so far: hands of different shards differ there, so no two shards ever
        # play the same hand.
        if owner([preset, changed, first_hand, policy], shard[1]) != shard[0]:
            if run.out_of_time():
                raise _OutOfTime
            return  # another shard's hand: not drawn further, not played, not counted
        choices = data.draw(_CHOICES, label="choices")
        rules = find_preset(preset).rules.replace(**changed)
        order = data.draw(st.permutations(tile_set(rules.max_pip).tiles), label="order")
        # Most deals give one seat both special doubles; a number past the seats means none.
        gather = data.draw(st.integers(0, rules.players), label="gather")
        if gather < rules.players:
            order = _gather(order, rules, gather)
        deal = deal_in_order(
            rules, order, data.draw(st.integers(0, rules.players - 1), label="seat")
        )
        if run.out_of_time():  # after the last draw, which Hypothesis wants the same each time
            raise _OutOfTime
        first = first_hand or rules.has_starter
        start = new_hand(rules, deal, first_hand=first)
        steps, reached = _rarest(start, choices, _all_actions(rules), policy)
        outcome = run.play(_Hand(preset, changed, deal, first), steps, reached)
        if outcome is not None:
            raise _Disagreement(outcome.describe())

    try:
        run.engine()  # fail early, outside Hypothesis, if the engine cannot start
        probe()
    except (_Disagreement, _OutOfTime):
        pass
    finally:
        run.close()
    if run.broken is not None:
        raise EngineError("the engine failed during the search: " + run.broken)
    return run.report()


def _in_processes(search: Callable[[int], FuzzReport], jobs: int) -> list[FuzzReport]:
    """``search(1)`` to ``search(jobs)``, each in a process of its own (forked, so it shares
    the engine factory); the first error of a job is raised. On an interruption each job is
    sent SIGTERM, which ends its search and its engine as a SIGTERM of the command does."""
    context = multiprocessing.get_context("fork")
    pipes = [context.Pipe(duplex=False) for _ in range(jobs)]
    processes = [
        context.Process(target=_job, args=(search, job, pipes[job - 1][1]), daemon=True)
        for job in range(1, jobs + 1)
    ]
    try:
        for process, (_receive, send) in zip(processes, pipes, strict=True):
            process.start()
            send.close()  # the job's copy is the only one left: its end is an EOF here
        results = [_received(receive) for receive, _send in pipes]
    except BaseException:
        for process in processes:
            if process.is_alive():
                process.terminate()
        raise
    finally:
        for process in processes:
            process.join()
    reports = []
    for result in results:
        if isinstance(result, Exception):
            raise result
        reports.append(result)
    return reports


def _received(receive: Connection) -> FuzzReport | Exception:
    try:
        result: FuzzReport | Exception = receive.recv()
    except EOFError:
        return EngineError("a fuzzing job ended without a report (killed or interrupted)")
    return result


def _job(search: Callable[[int], FuzzReport], job: int, send: Connection) -> None:
    for number in (signal.SIGINT, signal.SIGTERM):
        signal.signal(number, _end_job)
    try:
        result: FuzzReport | Exception = search(job)
    except Exception as error:  # raised again in the parent
        result = error
    send.send(result)


def _end_job(number: int, _frame: object) -> None:
    """A job's answer to SIGTERM (from the parent, when the run is interrupted) or SIGINT
    (Ctrl-C): its engine killed at once, then the job gone, wherever it was."""
    kill_all()
    os._exit(128 + number)


def _merge(reports: Sequence[FuzzReport]) -> FuzzReport:
    """One report for the jobs of a run: counts added up, the first job's finding."""
    found = [r for r in reports if r.finding is not None]
    reasons = [r.skip_reason for r in reports if r.skip_reason is not None]
    return FuzzReport(
        finding=found[0].finding if found else None,
        played=sum(r.played for r in reports),
        skipped=sum(r.skipped for r in reports),
        seconds=max(r.seconds for r in reports),
        found_after=found[0].found_after if found else None,
        counts={name: sum(r.counts[name] for r in reports) for name in SITUATIONS},
        skip_reason=reasons[0] if reasons else None,
    )


def rules_label(preset: str, overrides: Mapping[str, JSON] | None) -> str:
    """A short label for case IDs: the preset, plus ``custom`` when options are overridden."""
    return preset + ("-custom" if overrides else "")
