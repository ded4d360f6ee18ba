"""Differential fuzzing: hands drawn cheaply from a seed (rules, deal and actions, legal and
illegal), played by the spec and the engine side by side; a disagreement is shrunk by
Hypothesis to a minimal case.

Swarm testing: each hand draws its own ruleset, a preset (one, or any of them) with each
option either kept or drawn anew among the values that form a valid ruleset; options the
caller fixes (``--set``) are never drawn. Deal sizes stay those of the presets, which the
sources give.

Drawing is cheap: hand N of seed S is drawn from its own ``random.Random``, so it is
replayed from (S, N) alone, and the spec's side of a hand (playing it, its case, its
situation) costs about what the engine's does. Steering: random deals and random play rarely
reach the rules that matter (a tied challenge, a dead double, a closing double), so most
deals gather N-N and 0-0 into one hand, and each hand is played under a play policy
(:data:`~gaple.conformance.vectors.drawing.POLICIES`) chosen by how many cells
(:mod:`gaple.conformance.vectors.situations`) the run had not reached yet that policy's recent hands
reached. Aiming: half the hands are drawn for a cell the run has reached least (of a few
picked at random among the cells a hand can reach), their options and first-hand flag drawn
until they have what the cell needs (:func:`gaple.conformance.vectors.situations.needs`); a cell the
draws cannot aim at under the run's presets and fixed options is left alone after a few tries.
The report counts the hands reaching each feature value and each cell.

Scope: a run given a scope (:mod:`gaple.conformance.vectors.scope`), or against an engine whose
hello declares what it plays, draws only inside it (its presets, its fixed options, and the
values it plays of the others), aims only at the cells its rules can reach, and counts those; a draw
outside it (an invalid ruleset, rules it does not play, a situation or feature it does not
play) is counted, never sent, and the shrinker never leaves it. Without a scope the draws are
exactly those of the presets and options asked for (an invalid ruleset counted outside).

The hand is turned into an ordinary case (:func:`gaple.conformance.vectors.cases.assemble_case`) and
run with :func:`gaple.conformance.runner.run.run_case`, in one ``batch`` when the engine offers
it, so the fuzzer compares exactly what the suite compares and the case it reports is ready
to commit under ``spec/vectors/v1/``. Shrinking: ``hypothesis.find`` searches for the
simplest variant of the failing hand (options put back to the preset's, illegal probes
dropped, choices put to the policy's favourite) that still fails on the same rule.
"""

from __future__ import annotations

import gc
import hashlib
import json
import multiprocessing
import os
import random
import signal
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from multiprocessing.connection import Connection
from typing import Any

import attrs
from attrs import frozen
from hypothesis import HealthCheck, Phase, find, settings
from hypothesis import strategies as st
from hypothesis.errors import NoSuchExample

from gaple.conformance.runner.engines import Engine, EngineError, kill_all
from gaple.conformance.runner.run import CaseOutcome, EngineInfo, hello, run_case
from gaple.conformance.vectors.drawing import (
    POLICIES,
    Allowed,
    Draw,
    Hand,
    draw_hand,
    meets,
    play_draw,
    playable,
)
from gaple.conformance.vectors.scope import Scope
from gaple.conformance.vectors.situations import (
    FEATURES,
    Cell,
    all_cells,
    needs,
    value_key,
)
from gaple.conformance.vectors.tailor import hand_case, reachable
from gaple.conformance.wire.bounded import json_line
from gaple.io import rules_to_json
from gaple.presets import PRESETS, find_preset
from gaple.rules import (
    InvalidRuleset,
)
from gaple.state import check_rules

__all__ = [
    "MAX_SECONDS",
    "EmptyScope",
    "Finding",
    "FuzzReport",
    "Unsupported",
    "fuzz",
    "owner",
]

JSON = Any

EXAMPLES = 10_000_000
"""Default number of hands: more than fit in :data:`MAX_SECONDS`, so time is the limit."""

MAX_SECONDS = 60.0
"""Default search time. A defect in 1 hand of 1,000 under one option value is found well
within it (guide: fuzzing)."""

SHRINK_SECONDS = 15.0
"""Time allowed for shrinking after the first disagreement; the smallest case so far is kept."""


@frozen
class Finding:
    """A minimal disagreement: the case and how the engine failed it."""

    case: dict[str, JSON]
    outcome: CaseOutcome


@frozen
class FuzzReport:
    """What a run did: the finding (if any), how many hands were played or skipped, how many
    were drawn inside the scope and outside it, and how many reached each feature value and
    each cell of the scope."""

    finding: Finding | None
    played: int
    """Hands played on the engine and compared, the one that disagreed included (of every job,
    when several searched side by side)."""
    skipped: int
    """Hands the engine declined (``unsupported``), not compared."""
    seconds: float
    """Wall time of the whole run, shrinking included."""
    found_after: float | None
    """Seconds until the first disagreement (before shrinking), if there was one: those of the
    job that found it, when several searched side by side."""
    found_after_hands: int | None
    """Hands that job played up to the first disagreement, the one that disagreed included."""
    counts: dict[str, int]
    """For each feature value (``"ending=blocked"``) and each cell
    (:func:`~gaple.conformance.vectors.situations.all_cells`; of a scope, those it can reach:
    :func:`~gaple.conformance.vectors.tailor.reachable`), the played hands that reached it."""
    skip_reason: str | None = None
    """The first reason an engine gave for declining a hand."""
    inside: int = 0
    """Hands drawn inside the scope (every hand with a valid ruleset, without a scope)."""
    outside: int = 0
    """Draws outside the scope: an invalid ruleset, one the scope does not play, or a hand
    reaching a situation or feature it does not play. Never sent to the engine."""
    scope: str | None = None
    """The scope searched (:meth:`~gaple.conformance.vectors.scope.Scope.label`); ``None`` for none
    (the presets and options asked for, drawn as they come)."""

    @property
    def cells_reached(self) -> int:
        """How many cells at least one played hand reached."""
        return sum(1 for key in self.counts if _is_cell(key) and self.counts[key])

    def table(self) -> str:
        """The counts as text: the hands, the hands skipped and each feature value (those at
        zero left out, and their number said last), and the cells reached."""
        values = [key for key in self.counts if not _is_cell(key)]
        counted = {"skipped (unsupported)": self.skipped, **{k: self.counts[k] for k in values}}
        shown = {key: n for key, n in counted.items() if n}
        rows = [] if self.scope is None else [("scope", self.scope)]
        rows += [("draws", self.draws()), ("hands played", str(self.played))]
        rows += [(key, str(n)) for key, n in shown.items()]
        rows.append(("cells reached", f"{self.cells_reached} of {len(self.counts) - len(values)}"))
        if len(shown) < len(counted):
            rows.append(("counts at zero", f"{len(counted) - len(shown)}, not shown"))
        width = max(len(label) for label, _ in rows)
        return "\n".join(f"{label:<{width}}  {text}" for label, text in rows)

    def draws(self) -> str:
        """``120 inside the scope (96.0%), 5 outside``: the share of draws inside it."""
        total = self.inside + self.outside
        share = f" ({100 * self.inside / total:.1f}%)" if total else ""
        return f"{self.inside} inside the scope{share}, {self.outside} outside"

    def to_json(self) -> dict[str, JSON]:
        """The report as JSON (the case itself is written separately)."""
        return {
            "scope": self.scope,
            "played": self.played,
            "skipped": self.skipped,
            "inside": self.inside,
            "outside": self.outside,
            "skip_reason": self.skip_reason,
            "seconds": round(self.seconds, 3),
            "found_after": None if self.found_after is None else round(self.found_after, 3),
            "finding": None if self.finding is None else self.finding.outcome.to_json(),
            "situations": dict(self.counts),
        }


def _is_cell(key: str) -> bool:
    return " & " in key or " @ " in key


COUNTED: tuple[str, ...] = (
    *(value_key(f.name, v) for f in FEATURES for v in f.values),
    *all_cells(),
)
"""What a report counts, in report order: every feature value, then every cell."""


FEW_COLLECTIONS = 10_000
"""The cycle collector's first threshold during a search: more new objects than a hand
holds at once."""

AIM_SAMPLE = 8
"""The cells picked at random for an aimed hand, of which the least reached is aimed at."""

AIM_MISSES = 3
"""Aimed draws that miss a cell's options before the run stops aiming at it."""


@frozen
class _Aims:
    """What a run inside one scope may aim at: the cells its rules can reach, and what a hand
    needs to reach each (:func:`~gaple.conformance.vectors.situations.needs` inside the scope)."""

    cells: tuple[Cell, ...]
    needs: dict[Cell, dict[str, frozenset[str]]]


_AIMS: dict[str | None, _Aims] = {}
"""The aims of each scope a run searched (by :attr:`~gaple.conformance.vectors.scope.Scope.key`,
``None`` for every rule)."""


def _aimable(scope: Scope | None = None) -> _Aims:
    """The cells of ``scope`` no fact rules out (every rule's when ``None``): what a run may
    aim at, with what each needs worked out once per scope, before the jobs are forked, so
    that no job works it out again."""
    key = None if scope is None else scope.key
    if key not in _AIMS:
        within = None if scope is None else scope.within()
        cells = reachable(scope)
        _AIMS[key] = _Aims(cells, {cell: needs(cell, within) for cell in cells})
    return _AIMS[key]


def _counted(scope: Scope | None) -> tuple[str, ...]:
    """What a report of a run inside ``scope`` counts, in report order: every feature value,
    then each cell of the scope (every cell, :data:`COUNTED`, without one)."""
    if scope is None:
        return COUNTED
    values = tuple(value_key(f.name, v) for f in FEATURES for v in f.values)
    return (*values, *_aimable(scope).cells)


class _OutOfTime(BaseException):
    """Raised inside Hypothesis's search to end the shrinking: a BaseException, so Hypothesis
    neither reports nor shrinks it."""


class Unsupported(Exception):
    """The engine declined every hand drawn: nothing was compared."""


class EmptyScope(ValueError):
    """No hand drawn lies inside the scope: its rules fit no preset's deal, or contradict the
    presets and options asked for."""


def _case(
    hand: Hand, seed: int, steps: int | None = None, *, annotated: bool = True
) -> dict[str, JSON]:
    """The hand as a case (:func:`~gaple.conformance.vectors.tailor.hand_case`, ``annotated`` or
    not), cut after ``steps`` steps when given; its ID ends with a digest of what makes the
    hand (variant, deal, actions, first hand), taken from the case's own JSON."""
    draw = hand.draw
    description = f"Found by gaple conformance fuzz (variant {draw.preset}, seed {seed})."
    case = hand_case(hand, "fuzz", description, topic="fuzz", steps=steps, annotated=annotated)
    actions = [step["action"] for step in case["steps"]]
    key = [case["variant"], case["deal"], actions, case["first_hand"]]
    digest = hashlib.sha1(json_line(key)).hexdigest()[:10]
    case["id"] = f"fuzz-{rules_label(draw.preset, draw.changed)}-{digest}"
    return case


# --- the run -----------------------------------------------------------------------------


class _Run:
    """The mutable side of one run: the engine (restarted after a crash), the tallies, the
    cells reached, the finding and the clock."""

    def __init__(
        self,
        make_engine: Callable[[], Engine],
        seed: int,
        max_seconds: float | None,
        shrink_seconds: float,
        *,
        scope: Scope | None = None,
        greeted: tuple[Engine, EngineInfo] | None = None,
    ) -> None:
        self.make_engine = make_engine
        self.seed = seed
        self.max_seconds = max_seconds
        self.shrink_seconds = shrink_seconds
        self.scope = scope
        self.aims = _aimable(scope)
        self.began = time.monotonic()
        self.current: tuple[Engine, EngineInfo] | None = greeted
        self.found: Finding | None = None
        self.found_after: float | None = None
        self.found_after_hands: int | None = None
        self.counts: Counter[str] = Counter()
        self.reached: set[str] = set()
        self.rng = random.Random(seed)
        self.novelty = dict.fromkeys(POLICIES, 1.0)
        """Per play policy, the new cells its recent hands reached, plus 1 (steering)."""
        self.missed: Counter[str] = Counter()
        """Per cell, the aimed draws that did not get the options it needs."""
        self.played = 0
        self.skipped = 0
        self.inside = 0
        self.outside = 0
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
        """Past the search time, or the engine broke."""
        if self.broken is not None:
            return True
        return self.max_seconds is not None and self.elapsed() > self.max_seconds

    def aim(self) -> str | None:
        """The cell half the hands are drawn for: of a few picked at random, the one the run
        has reached least; ``None`` for a plain draw."""
        if self.rng.random() < 0.5:
            return None
        aimable = self.aims.cells
        picked = self.rng.sample(aimable, min(AIM_SAMPLE, len(aimable)))
        cells = [cell for cell in picked if self.missed[cell] < AIM_MISSES]
        return min(cells, key=self.counts.__getitem__, default=None)

    def draw(
        self,
        number: int,
        presets: Sequence[str],
        fixed: Mapping[str, JSON],
        allowed: Allowed | None = None,
    ) -> Draw | None:
        """Hand ``number`` of the run, aimed (:meth:`aim`) or not, its options among those
        ``allowed``; ``None`` (a draw outside) when they form no valid ruleset or one the
        scope does not play."""
        cell = self.aim()
        aim = None if cell is None else self.aims.needs[cell]
        draw = draw_hand(self.seed, number, presets, fixed, aim, allowed=allowed)
        if aim is not None and cell is not None and draw is not None and not meets(aim, draw):
            self.missed[cell] += 1
        if draw is None or (self.scope is not None and not self.scope.admits(draw.rules)):
            self.outside += 1
            return None
        return draw

    def admits(self, hand: Hand) -> bool:
        """Whether the played ``hand`` lies inside the scope: its rules, and the situation and
        feature tags it reached."""
        if self.scope is None:
            return True
        return self.scope.outside(_inside_of(hand)) is None

    def steer(self, draw: Draw) -> Hand:
        """The drawn hand under a play policy chosen by how many cells the run had not yet
        reached its recent hands reached (each policy keeps a floor, so all are tried)."""
        weights = [self.novelty[policy] for policy in POLICIES]
        policy = self.rng.choices(POLICIES, weights)[0]
        hand = play_draw(attrs.evolve(draw, policy=policy))
        fresh = len(hand.cells.difference(self.reached))
        self.novelty[policy] = 0.9 * self.novelty[policy] + 0.1 * (1 + fresh)
        return hand

    def play(self, hand: Hand) -> CaseOutcome | None:
        """Run the hand on the engine; the outcome when it disagrees (``None`` otherwise)."""
        outcome, case = self.attempt(hand)
        if outcome.status == "skipped":
            self.skipped += 1
            self.reasons.append(outcome.message or "no reason given")
            return None
        if outcome.status == "errored":
            self.broken = outcome.message
            return None
        self.played += 1
        self.counts.update(value_key(name, value) for name, value in hand.situation.items())
        self.counts.update(hand.cells)
        self.reached.update(hand.cells)
        if outcome.status != "failed":
            return None
        self.found_after = self.elapsed()
        self.found_after_hands = self.played
        self.found = _shrink(self, hand, outcome, case)
        return outcome

    def attempt(self, hand: Hand, steps: int | None = None) -> tuple[CaseOutcome, dict[str, JSON]]:
        current, info = self.engine()
        # Most hands pass: their case is annotated (rule IDs, tags, the rules behind the
        # result: a tenth of the fuzzer's time) only when the engine is checked on the rules
        # or fails the case, which is then reported.
        annotated = "rules" in info.levels
        case = _case(hand, self.seed, steps, annotated=annotated)
        try:
            outcome = run_case(current, info, case, info.levels)
        except EngineError as error:
            self.close()
            failure = CaseOutcome(
                case=case["id"], topic="fuzz", status="errored", seconds=0.0, message=str(error)
            )
            return failure, case
        if outcome.status == "failed" and not annotated:
            case = _case(hand, self.seed, steps)
            outcome = attrs.evolve(outcome, rule_ids=tuple(case["rule_ids"]))
        return outcome, case

    def report(self) -> FuzzReport:
        return FuzzReport(
            finding=self.found,
            played=self.played,
            skipped=self.skipped,
            seconds=self.elapsed(),
            found_after=self.found_after,
            found_after_hands=self.found_after_hands,
            counts={key: self.counts[key] for key in _counted(self.scope)},
            skip_reason=self.reasons[0] if self.reasons else None,
            inside=self.inside,
            outside=self.outside,
            scope=None if self.scope is None else self.scope.label(),
        )


def _inside_of(hand: Hand) -> dict[str, JSON]:
    """What :meth:`~gaple.conformance.vectors.scope.Scope.outside` reads of a hand's case: its rules
    and its situation (its feature tags follow from both)."""
    return {"rules": rules_to_json(hand.draw.rules), "situation": hand.situation}


# --- shrinking ---------------------------------------------------------------------------


def _simplify(draw: Draw, plan: tuple[list[bool], list[bool], bool]) -> Draw | None:
    """``draw`` with the simplifications ``plan`` marks: options put back to the preset's,
    actions made the policy's favourite move (illegal probes dropped), the hand made a first
    hand; ``None`` when the options left form no valid ruleset."""
    resets, plain, first = plan
    changed = {
        k: v for (k, v), reset in zip(draw.changed.items(), resets, strict=True) if not reset
    }
    choices = tuple(
        (False, 0) if simple else choice for choice, simple in zip(draw.choices, plain, strict=True)
    )
    try:
        rules = find_preset(draw.preset).rules.replace(**changed)
        check_rules(rules)
    except InvalidRuleset:
        return None
    first = draw.first or first
    return attrs.evolve(draw, changed=changed, choices=choices, first=first, rules=rules)


_SIMPLIFY = st.integers(0, 3).map(lambda n: n == 0)
"""A simplification flag: Hypothesis shrinks toward 0, so toward simplifying; a random draw
simplifies one time in four, so most first tries still fail as the original did."""


def _shrink(run: _Run, hand: Hand, outcome: CaseOutcome, case: dict[str, JSON]) -> Finding:
    """The simplest variant of ``hand`` Hypothesis finds in the shrinking time that fails on
    the same rule (``hand`` itself if none), cut after its first difference."""
    draw = hand.draw
    deadline = time.monotonic() + run.shrink_seconds
    best = (hand, outcome, case)
    tried: dict[str, bool] = {}  # each plan's verdict, so an engine's whims are never flaky

    def still_fails(plan: tuple[list[bool], list[bool], bool]) -> bool:
        if time.monotonic() > deadline or run.broken is not None:
            raise _OutOfTime
        key = json.dumps(plan)
        if key not in tried:
            tried[key] = _fails_alike(plan)
        return tried[key]

    def _fails_alike(plan: tuple[list[bool], list[bool], bool]) -> bool:
        simpler = _simplify(draw, plan)
        if simpler is None:
            return False
        candidate = play_draw(simpler)
        if not run.admits(candidate):
            return False  # a simpler hand the scope does not play (a preset's option put back)
        result, built = run.attempt(candidate)
        if result.status == "errored":
            run.broken = result.message
        if result.status != "failed" or result.rule != outcome.rule:
            return False
        nonlocal best
        best = (candidate, result, built)
        return True

    plans = st.tuples(
        st.lists(_SIMPLIFY, min_size=len(draw.changed), max_size=len(draw.changed)),
        st.lists(_SIMPLIFY, min_size=len(draw.choices), max_size=len(draw.choices)),
        _SIMPLIFY,
    )
    try:
        plan = find(
            plans,
            still_fails,
            settings=settings(
                max_examples=500,
                database=None,
                deadline=None,
                phases=(Phase.generate, Phase.shrink),
                suppress_health_check=list(HealthCheck),
            ),
            random=random.Random(run.seed),
        )
        simpler = _simplify(draw, plan)
        assert simpler is not None  # the plan was found failing, so its ruleset is valid
        # find() returns the simplest plan; ``best`` is the last failing one tried, kept
        # when time ran out before the simplest was replayed.
        smallest = play_draw(simpler)
        result, built = run.attempt(smallest)
        if result.status == "failed" and result.rule == outcome.rule:
            best = (smallest, result, built)
    except (NoSuchExample, _OutOfTime):
        pass  # ``best`` is the simplest failing hand tried
    hand, outcome, case = best
    if outcome.step is not None and outcome.step < len(hand.played):
        # The steps after the divergence add nothing: keep the shorter case if it still fails.
        shorter, short_case = run.attempt(hand, outcome.step)
        if shorter.status == outcome.status and shorter.rule == outcome.rule:
            outcome, case = shorter, short_case
    return _naming_its_rule(case, outcome)


def _naming_its_rule(case: dict[str, JSON], outcome: CaseOutcome) -> Finding:
    """The finding, its case's ``rule_ids`` holding the rule the engine broke: the rules a
    case lists are those the spec's play exercises, and a case cut at the divergence may stop
    short of the broken one (an end the engine declared too soon)."""
    if outcome.rule is None or outcome.rule in case["rule_ids"]:
        return Finding(case, outcome)
    rule_ids = sorted({*case["rule_ids"], outcome.rule})
    return Finding({**case, "rule_ids": rule_ids}, attrs.evolve(outcome, rule_ids=tuple(rule_ids)))


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
    scope: Scope | None = None,
) -> FuzzReport:
    """Play up to ``examples`` drawn hands (for at most ``max_seconds``) on the engine and the
    spec; the report holds the first disagreement, shrunk for at most ``shrink_seconds``.

    ``variants`` is one preset, several, or ``None`` for every preset; ``overrides`` are
    options fixed in every example (the others are drawn per example).

    ``scope`` (else what the engine's hello declares it plays, when it declares it: the
    engine is greeted once first) confines the search: hands are drawn only inside it
    (:meth:`~gaple.conformance.vectors.scope.Scope.draws`; among ``variants``, with ``overrides``),
    aimed only at its cells, and a draw it does not play is counted outside and never sent.
    Without either the draws are those of ``variants`` and ``overrides`` alone.

    ``shard`` (I, N) plays only the hands of shard I of N (:func:`owner` of the hand's
    number): the shards of one seed play disjoint hands, the same ones in every run that is
    not cut short by the time. ``jobs`` processes search side by side,
    each a shard of the shard; their counts are added up, and the disagreement reported is
    that of the job that found one soonest, with its own seconds and hands to it.

    Raises:
        EngineError: the engine cannot even be started and greeted, or it crashed, hung or
            answered out of protocol during the search (never reported as a disagreement).
        Unsupported: the engine declined every hand.
        EmptyScope: no hand drawn lies inside the scope.
        gaple.rules.InvalidRuleset: ``overrides`` fit none of the variants.
    """
    if variants is None:
        names = list(PRESETS)
    elif isinstance(variants, str):
        names = [find_preset(variants).name]
    else:
        names = [find_preset(name).name for name in variants]
    fixed = dict(overrides or {})
    greeted = None
    if scope is None:
        greeted = _greet(make_engine)
        scope = greeted[1].plays
        if jobs > 1:  # each job starts its own engine
            greeted[0].close()
            greeted = None
    try:
        presets, fixed, allowed = _drawn_from(scope, names, fixed)
    except BaseException:
        if greeted is not None:
            greeted[0].close()
        raise
    _aimable(scope)  # once, before the jobs are forked
    index, count = shard or (1, 1)

    def search(job: int) -> FuzzReport:
        # Job j of J in shard I of N is shard I + N * (j - 1) of N * J: an owner() equal to I
        # modulo N, so together the jobs take exactly the hands of the shard.
        part = (index + count * (job - 1), count * jobs)
        run = _Run(make_engine, seed, max_seconds, shrink_seconds, scope=scope, greeted=greeted)
        return _search(run, presets, fixed, examples, part, allowed=allowed)

    report = search(1) if jobs == 1 else _merge(_in_processes(search, jobs))
    if scope is not None and report.outside and not report.inside:
        msg = f"no hand drawn of {report.outside} lies inside {scope.label()}"
        raise EmptyScope(msg)
    if report.finding is None and report.skipped and not report.played:
        raise Unsupported(report.skip_reason)
    return report


def _greet(make_engine: Callable[[], Engine]) -> tuple[Engine, EngineInfo]:
    """A fresh engine and its hello (what it declares it plays).

    Raises:
        EngineError: it cannot be started or greeted.
    """
    engine = make_engine()
    try:
        return engine, hello(engine)
    except BaseException:
        engine.close()
        raise


def _drawn_from(
    scope: Scope | None, names: list[str], fixed: dict[str, JSON]
) -> tuple[list[str], dict[str, JSON], Allowed | None]:
    """The presets hands are drawn from, the options fixed (JSON form) and those drawn among
    a few values: those of ``scope`` (:meth:`~gaple.conformance.vectors.scope.Scope.draws`) among
    the presets ``names``, with the options ``fixed`` fixed; without a scope ``names`` and
    ``fixed`` alone, as they always were.

    Raises:
        EmptyScope: no preset's deal fits the scope and the presets and options asked for.
        gaple.rules.InvalidRuleset: without a scope, ``fixed`` fits none of ``names``.
    """
    if scope is None:
        presets = playable(names, fixed)
        if not presets:
            find_preset(names[0]).rules.replace(**fixed)  # raises, saying why
        return presets, fixed, None
    theirs, their_fixed, allowed = scope.draws()
    chosen = [name for name in theirs if name in names]
    both = {**their_fixed, **fixed}
    presets = playable(chosen, both)
    if not presets:
        asked = "" if set(names) >= set(PRESETS) else f" among {', '.join(names)}"
        shown = "".join(f" {key}={json.dumps(value)}" for key, value in fixed.items())
        asked += f" with{shown}" if shown else ""
        msg = f"no preset's deal lies inside {scope.label()}{asked}"
        raise EmptyScope(msg)
    return presets, both, {k: v for k, v in allowed.items() if k not in fixed}


def owner(number: int, count: int) -> int:
    """The shard (1 to ``count``) of hand ``number``: a hash of the number written in decimal
    (its JSON), so the same hand falls to the same shard in every run, decided before it is
    drawn. Shards nest: shard I + N * (j - 1) of N * J is part of shard I of N."""
    digest = hashlib.sha1(str(number).encode()).digest()
    return int.from_bytes(digest[:8], "big") % count + 1


def _search(
    run: _Run,
    presets: list[str],
    fixed: dict[str, JSON],
    examples: int,
    shard: tuple[int, int],
    *,
    allowed: Allowed | None = None,
) -> FuzzReport:
    """The hands of the run's seed that fall to ``shard``, among its first ``examples``
    (so the shards of a run share them out), until the time is up or one disagrees; those
    drawn outside the run's scope are counted, not played."""
    # A hand's objects die with it, none in a cycle (a test holds it), so the cycle collector
    # finds nothing; but at its usual threshold, 700 new objects, it would walk the live
    # states of every hand several times over: a tenth of the run.
    thresholds = gc.get_threshold()
    gc.set_threshold(FEW_COLLECTIONS, *thresholds[1:])
    try:
        run.engine()  # fail early if the engine cannot start
        for number in range(examples):
            if run.out_of_time():
                break
            if shard[1] > 1 and owner(number, shard[1]) != shard[0]:
                continue  # another shard's hand, not even drawn
            draw = run.draw(number, presets, fixed, allowed)
            if draw is None:
                continue  # an invalid ruleset, or one outside the scope
            hand = run.steer(draw)
            if not run.admits(hand):
                run.outside += 1  # a situation or feature the scope does not play
                continue
            run.inside += 1
            if run.play(hand) is not None:
                break
    finally:
        run.close()
        gc.set_threshold(*thresholds)
    if run.broken is not None and run.found is None:
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
    # What the job inherited (modules, tables, caches) is left out of the collector's full
    # passes, which would otherwise walk all of it again and again for nothing.
    gc.freeze()
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
    """One report for the jobs of a run: counts added up, the finding of the job that found
    one soonest (the jobs start together, so their clocks compare), with its own seconds and
    hands to it."""
    found = [(r.found_after, job) for job, r in enumerate(reports) if r.found_after is not None]
    first = reports[min(found)[1]] if found else None
    reasons = [r.skip_reason for r in reports if r.skip_reason is not None]
    return FuzzReport(
        finding=None if first is None else first.finding,
        played=sum(r.played for r in reports),
        skipped=sum(r.skipped for r in reports),
        seconds=max(r.seconds for r in reports),
        found_after=None if first is None else first.found_after,
        found_after_hands=None if first is None else first.found_after_hands,
        counts={key: sum(r.counts[key] for r in reports) for key in reports[0].counts},
        skip_reason=reasons[0] if reasons else None,
        inside=sum(r.inside for r in reports),
        outside=sum(r.outside for r in reports),
        scope=reports[0].scope,
    )


def rules_label(preset: str, overrides: Mapping[str, JSON] | None) -> str:
    """A short label for case IDs: the preset, plus ``custom`` when options are overridden."""
    return preset + ("-custom" if overrides else "")
