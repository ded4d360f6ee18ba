"""The harness at speed: the optional ``batch`` request (a whole case in one message), and
its fallback to one request at a time for engines that do not offer it.

Engines are the reference engine in process, with one behaviour changed, so the expected
outcome of each test follows from that change alone; the example engine is run once through
both paths as a subprocess.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, ClassVar

import pytest

from gaple.cli import main
from gaple.cli.sharding import ALL, Shard
from gaple.conformance.fuzzer.fuzz import fuzz, owner
from gaple.conformance.runner.engines import (
    EngineError,
    ReferenceEngine,
    SubprocessEngine,
    Validator,
)
from gaple.conformance.runner.report import summary_text
from gaple.conformance.runner.run import CaseOutcome, Summary, run_suite
from gaple.conformance.vectors.scenarios import all_cases
from mutants import write_mutant_adapter

JSON = Any
ROOT = Path(__file__).resolve().parent.parent
SCORED = "score-domino4d-counts-11-and-14"
"""A whole hand of 26 steps, checked at every level, with a result."""
EXAMPLE = f"{sys.executable} {ROOT / 'examples' / 'engine' / 'adapter.py'}"


@pytest.fixture(scope="module")
def cases() -> list[dict[str, JSON]]:
    return all_cases()


def _content(summary: Summary) -> list[dict[str, JSON]]:
    """The report records of a run without their timings."""
    return [{**o.to_json(), "seconds": None} for o in summary.outcomes]


class _Recording(ReferenceEngine):
    """Notes the type of every request it gets."""

    def __init__(self, *, batch: bool) -> None:
        super().__init__(batch=batch)
        self.kinds: list[str] = []

    def request(self, message: dict[str, JSON]) -> dict[str, JSON]:
        self.kinds.append(message["type"])
        return super().request(message)


def test_batch_and_one_request_at_a_time_give_the_same_outcomes(
    cases: list[dict[str, JSON]],
) -> None:
    engines: list[_Recording] = []

    def make(*, batch: bool) -> _Recording:
        engines.append(_Recording(batch=batch))
        return engines[-1]

    batched = run_suite(cases, lambda: make(batch=True))
    one_by_one = run_suite(cases, lambda: make(batch=False))
    assert _content(batched) == _content(one_by_one)
    assert batched.count("passed") == len(cases)
    # With batch offered: hello, then one batch per case (the reference plays every case).
    # Without: never a batch, and a start per case, so the runner fell back.
    assert engines[0].kinds == ["hello", *["batch"] * len(cases)]
    assert "batch" not in engines[1].kinds
    assert engines[1].kinds.count("start") == len(cases)


class _TamperedBatch(ReferenceEngine):
    """The reference engine offering ``batch``, whose batch replies :meth:`tamper` changes;
    every other reply is its own."""

    def __init__(self) -> None:
        super().__init__(batch=True)

    def request(self, message: dict[str, JSON]) -> dict[str, JSON]:
        reply = super().request(message)
        if message["type"] == "batch":
            self.tamper([r["type"] for r in message["requests"]], reply["replies"])
        return reply

    def tamper(self, kinds: list[str], replies: list[dict[str, JSON]], /) -> None:
        """Change ``replies`` (to requests of ``kinds``) in place."""
        raise NotImplementedError


class _BatchOnlyLies(_TamperedBatch):
    """Answers alone correctly, but in a batch shows the first state after the first act
    with its seat to act off by one: a defect only the batch path can reveal."""

    def tamper(self, kinds: list[str], replies: list[dict[str, JSON]], /) -> None:
        if "act" in kinds:
            after = replies[kinds.index("act") + 1]
            if after.get("to_act") is not None:
                after["to_act"] = (after["to_act"] + 1) % len(after["hand_sizes"])


def test_a_wrong_state_inside_a_batch_fails_the_case_at_its_step(
    cases: list[dict[str, JSON]],
) -> None:
    # The case starts with a legal lead of 0-0 by seat 2 (its holder) on four seats, so seat 3
    # acts next; the liar shows seat 0 at step 1. Alone, the liar passes the case.
    case = next(c for c in cases if c["id"] == SCORED)
    assert case["steps"][0] == {"action": {"seat": 2, "move": "lead 0-0"}, **case["steps"][0]}
    assert run_suite([case], ReferenceEngine).outcomes[0].status == "passed"
    outcome = run_suite([case], _BatchOnlyLies).outcomes[0]
    assert outcome.status == "failed"
    assert outcome.step == 1
    assert outcome.difference is not None
    assert outcome.difference.field == "to_act"
    assert (outcome.difference.expected, outcome.difference.actual) == (3, 0)
    assert outcome.rule == "turn.order"


def test_a_trace_marks_the_replies_of_a_batch_after_the_first_difference(
    cases: list[dict[str, JSON]],
) -> None:
    # The liar's difference is in the fourth reply (started, the state before any act, the
    # first act's ok, the state after it): the batch carried 55 requests, so 51 replies came
    # after the difference, received but never compared; one by one, they are never sent.
    case = next(c for c in cases if c["id"] == SCORED)
    (outcome,) = run_suite([case], _BatchOnlyLies, trace=True).outcomes
    assert outcome.status == "failed"
    assert outcome.trace is not None
    received = [exchange for exchange in outcome.trace if not exchange.sent]
    assert len(received) == 55
    assert [exchange.compared for exchange in received] == [True] * 4 + [False] * 51
    assert all(exchange.compared for exchange in outcome.trace if exchange.sent)
    shown = summary_text(run_suite([case], _BatchOnlyLies, trace=True))
    assert shown.count("< (not compared) ") == 51
    assert {"received": received[-1].text, "compared": False} == received[-1].to_json()


class _ShortBatch(_TamperedBatch):
    """Leaves the last request of each batch unanswered."""

    def tamper(self, _kinds: list[str], replies: list[dict[str, JSON]], /) -> None:
        replies.pop()


class _ErrorMidBatch(_TamperedBatch):
    """Answers the first act of each batch with an error reply."""

    def tamper(self, kinds: list[str], replies: list[dict[str, JSON]], /) -> None:
        replies[kinds.index("act")] = {"type": "error", "message": "no"}


class _BadShapeInBatch(_TamperedBatch):
    """Shows hand sizes as strings in the first state of each batch."""

    def tamper(self, _kinds: list[str], replies: list[dict[str, JSON]], /) -> None:
        replies[1]["hand_sizes"] = [str(n) for n in replies[1]["hand_sizes"]]


class _TrueSeatInBatch(_TamperedBatch):
    """Shows seat 1 to act as JSON ``true`` (equal to 1 in Python, so no comparison of values
    tells them apart: only the shape check does)."""

    def tamper(self, _kinds: list[str], replies: list[dict[str, JSON]], /) -> None:
        first = next(r for r in replies if r.get("type") == "state" and r["to_act"] == 1)
        first["to_act"] = True


@pytest.mark.parametrize(
    ("engine", "words"),
    [
        # The case has 26 steps and a result: start, 27 states, 26 acts, result = 55 requests.
        (_ShortBatch, "a batch of 55 requests answered with 54 replies"),
        # The first act is step 1, seat 2 leading 0-0 (the case's first step, checked in
        # test_a_wrong_state_inside_a_batch_fails_the_case_at_its_step).
        (
            _ErrorMidBatch,
            "the engine answered 'act' in a batch at step 1 (seat 2: lead 0-0) with an error: no",
        ),
        # The second reply is the state before any act, that is before step 1; its four hand
        # sizes (domino4d: 4 seats of 7 tiles) are the strings "7".
        (
            _BadShapeInBatch,
            'hand_sizes must be a list of integers >= 0, got ["7", "7", "7", "7"]'
            " (in a batch before step 1)",
        ),
        (_TrueSeatInBatch, "to_act must be a seat"),
    ],
)
def test_a_batch_out_of_protocol_errors_the_case(
    cases: list[dict[str, JSON]], engine: type[ReferenceEngine], words: str
) -> None:
    case = next(c for c in cases if c["id"] == SCORED)
    assert len(case["steps"]) == 26
    assert case["result"] is not None
    assert "count" in case["levels"]
    outcome: CaseOutcome = run_suite([case], engine).outcomes[0]
    assert outcome.status == "errored"
    assert words in outcome.message


def test_an_error_in_a_batch_names_the_step_of_its_request(
    cases: list[dict[str, JSON]],
) -> None:
    # The requests are start, the dealt state, then an act and a state per step: the error
    # replaces the state reply after the second act, so it names "after step 2" and that
    # step's action, which the case gives (its second step).
    class _ErrsAfterStep2(_TamperedBatch):
        def tamper(self, kinds: list[str], replies: list[dict[str, JSON]], /) -> None:
            second_act = [i for i, kind in enumerate(kinds) if kind == "act"][1]
            replies[second_act + 1] = {"type": "error", "message": "lost"}

    case = next(c for c in cases if c["id"] == SCORED)
    action = case["steps"][1]["action"]
    (outcome,) = run_suite([case], _ErrsAfterStep2).outcomes
    assert outcome.status == "errored"
    assert outcome.message == (
        f"the engine answered 'state' in a batch after step 2 (seat {action['seat']}: "
        f"{action['move']}) with an error: lost"
    )


def test_an_error_after_the_first_difference_leaves_the_case_failed(
    cases: list[dict[str, JSON]],
) -> None:
    # The liar and an error at the last request: the batch path reads replies in order and
    # stops at the difference of step 1, as the one-by-one path stops sending there.
    class _LiesThenErrs(_BatchOnlyLies):
        def tamper(self, kinds: list[str], replies: list[dict[str, JSON]], /) -> None:
            super().tamper(kinds, replies)
            replies[-1] = {"type": "error", "message": "late"}

    case = next(c for c in cases if c["id"] == SCORED)
    assert run_suite([case], _LiesThenErrs).outcomes[0].status == "failed"


def test_validate_checks_each_request_and_reply_inside_a_batch() -> None:
    validator = Validator()
    state = {"type": "state"}
    shown = {
        "type": "state",
        "to_act": 0,
        "line": [],
        "ends": None,
        "legal": ["lead 0-0"],
        "hand_sizes": [7, 7, 7, 7],
        "discard_counts": [0, 0, 0, 0],
        "ending": None,
    }
    validator.check("batch", {"type": "batch", "requests": [state]})
    validator.check_reply("batch", {"type": "batch", "replies": [shown]}, batched=[state])
    # A hello cannot be batched; an act without its seat breaks act.schema.json.
    with pytest.raises(EngineError, match=r"batch.schema.json at \$\.requests\[0\]\.type"):
        validator.check("batch", {"type": "batch", "requests": [{"type": "hello"}]})
    with pytest.raises(EngineError, match=r"act.schema.json at \$: 'seat' is a required"):
        validator.check("batch", {"type": "batch", "requests": [{"type": "act", "move": "pass"}]})
    # A state reply whose move is not a move breaks state-reply.schema.json.
    bad = {**shown, "legal": ["lead 0"]}
    with pytest.raises(EngineError, match=r"state-reply.schema.json at \$\.legal\[0\]"):
        validator.check_reply("batch", {"type": "batch", "replies": [bad]}, batched=[state])


def test_the_example_engine_passes_through_batch_and_one_by_one_alike(
    cases: list[dict[str, JSON]],
) -> None:
    # The example engine offers batch; the reference conforms, and the example engine is
    # checked the same way whichever path carries its replies (the report's content is the
    # same, timings aside).
    class _NoBatch:
        """The example engine with batch taken out of its hello."""

        def __init__(self) -> None:
            self.engine = SubprocessEngine(EXAMPLE, timeout=20)

        def request(self, message: dict[str, JSON]) -> dict[str, JSON]:
            assert message["type"] != "batch"
            reply = self.engine.request(message)
            return {k: v for k, v in reply.items() if k != "batch"}

        def close(self) -> None:
            self.engine.close()

    batched = run_suite(cases, lambda: SubprocessEngine(EXAMPLE, timeout=20))
    assert batched.engine is not None
    assert batched.engine.batch
    one_by_one = run_suite(cases, _NoBatch)
    assert one_by_one.engine is not None
    assert not one_by_one.engine.batch
    assert _content(batched) == _content(one_by_one)
    assert batched.ok


# --jobs and --shard


def test_shards_deal_the_items_round_robin() -> None:
    # Item k goes to shard (k % 3) + 1: 0, 3, 6, 9 to the first; 1, 4, 7 to the second; 2, 5, 8
    # to the third. Disjoint, and together the list.
    items = list(range(10))
    assert Shard(1, 3).take(items) == [0, 3, 6, 9]
    assert Shard(2, 3).take(items) == [1, 4, 7]
    assert Shard(3, 3).take(items) == [2, 5, 8]
    assert ALL.take(items) == items


def _records(path: Path) -> list[dict[str, JSON]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def _cases_of(records: list[dict[str, JSON]]) -> list[dict[str, JSON]]:
    """The case records without their timings."""
    return [{**r, "seconds": None} for r in records if r["type"] == "case"]


def test_shards_of_a_run_split_the_sorted_cases(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    whole = tmp_path / "whole.jsonl"
    argv = ["conformance", "run", "--reference", "--variant", "domino4d", "--jobs", "1"]
    assert main([*argv, "--report", str(whole)]) == 0
    everything = _cases_of(_records(whole))
    ids = [r["case"] for r in everything]
    assert ids == sorted(ids)  # the report lists the cases by ID
    assert "shard" not in _records(whole)[0]
    parts = []
    for index in (1, 2, 3):
        path = tmp_path / f"{index}.jsonl"
        assert main([*argv, "--shard", f"{index}/3", "--report", str(path)]) == 0
        records = _records(path)
        assert records[0]["shard"] == {"index": index, "count": 3}
        assert records[0]["cases"] == len(ids[index - 1 :: 3])
        assert [r["case"] for r in _cases_of(records)] == ids[index - 1 :: 3]
        parts += _cases_of(records)
    capsys.readouterr()
    assert sorted(parts, key=lambda r: r["case"]) == everything


def test_a_run_of_several_jobs_reports_what_one_job_reports(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The wrong-end bug fails many cases: with --max-fail 5 the run stops at the fifth failure
    # in ID order, however the jobs finish theirs.
    engine = f"{sys.executable} {ROOT / 'examples' / 'bugs' / 'adapter.py'} --bug wrong-end"
    argv = ["conformance", "run", "--impl", engine, "--max-fail", "5", "--timeout", "20"]
    reports = []
    for jobs in ("1", "3"):
        path = tmp_path / f"{jobs}.jsonl"
        assert main([*argv, "--jobs", jobs, "--report", str(path)]) == 1
        records = _records(path)
        footer = {k: v for k, v in records[-1].items() if k != "seconds"}
        reports.append((_cases_of(records), footer))
    capsys.readouterr()
    assert reports[0] == reports[1]
    cases, footer = reports[0]
    assert footer["counts"]["failed"] == 5
    assert footer["stopped_early"] is True
    assert [r["status"] for r in cases][-1] == "failed"


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        (["--jobs", "0"], "argument --jobs: expected a whole number >= 1, got '0'"),
        (["--shard", "0/3"], "argument --shard: expected I/N with 1 <= I <= N, such as 1/4, got"),
        (["--shard", "4/3"], "got '4/3'"),
        (["--shard", "x/y"], "got 'x/y'"),
        (["--shard", "2"], "got '2'"),
        (["--shard", "1/0"], "got '1/0'"),
    ],
)
@pytest.mark.parametrize("action", ["run", "fuzz"])
def test_bad_jobs_and_shards_are_usage_errors(
    action: str, extra: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["conformance", action, "--reference", *extra])
    assert caught.value.code == 2
    err = capsys.readouterr().err
    assert words in err
    assert len(err.strip().splitlines()) == 1


def test_every_hand_belongs_to_one_shard_and_shards_nest() -> None:
    # owner() depends on the key (a hand's number) alone, gives 1..N, and shard I + 2 (j - 1)
    # of 4 lies inside shard I of 2 (the jobs of a shard split it).
    keys = list(range(200))
    halves = [owner(key, 2) for key in keys]
    quarters = [owner(key, 4) for key in keys]
    assert halves == [owner(key, 2) for key in keys]
    assert set(quarters) == {1, 2, 3, 4}  # 200 keys hashed: each shard gets some
    assert all((q - 1) % 2 + 1 == h for q, h in zip(quarters, halves, strict=True))
    assert {owner(key, 1) for key in keys} == {1}


class _Starts(ReferenceEngine):
    """Notes the ID of every case it is asked to start (the ID hashes the hand)."""

    started: ClassVar[list[str]] = []

    def request(self, message: dict[str, JSON]) -> dict[str, JSON]:
        if message["type"] == "start":
            type(self).started.append(message["case"])
        return super().request(message)


def _hands(**spread: Any) -> tuple[set[str], int, dict[str, int]]:
    """The hands a fuzz run of 60 draws played on the engine, how many, and what they reached."""
    _Starts.started = []
    report = fuzz(_Starts, "domino4d", examples=60, seed=5, max_seconds=None, **spread)
    assert report.finding is None
    return set(_Starts.started), report.played, report.counts


def test_fuzz_shards_play_disjoint_hands_the_same_in_every_run() -> None:
    # Shard I of 2 plays only the hands owner() gives it: no hand is played by both, and a
    # seed gives a shard the same hands each time (no time limit).
    first, first_played, _ = _hands(shard=(1, 2))
    second, _, _ = _hands(shard=(2, 2))
    assert first
    assert second
    assert not first & second
    # Different draws can make the same hand (moves drawn past its end are dropped).
    assert 0 < len(first) <= first_played
    assert _hands(shard=(1, 2))[0] == first
    # A third of the 60 hand numbers, about, falls to each of three shards; all of them to one
    # shard (each played unless its drawn options make no valid ruleset).
    third = _hands(shard=(3, 3))[1]
    assert 0 < third < 60
    assert third < _hands(shard=(1, 1))[1] <= 60


def test_fuzz_jobs_are_the_shards_of_the_run() -> None:
    # Two jobs of one run play what shards 1/2 and 2/2 play, and add up their counts; with a
    # shard given too, job j of 2 in shard 2 of 2 is shard 2 + 2 (j - 1) of 4.
    _, first_played, first_counts = _hands(shard=(1, 2))
    _, second_played, second_counts = _hands(shard=(2, 2))
    report = fuzz(ReferenceEngine, "domino4d", examples=60, seed=5, max_seconds=None, jobs=2)
    assert report.played == first_played + second_played
    assert report.counts == {k: first_counts[k] + second_counts[k] for k in first_counts}
    in_shard = fuzz(
        ReferenceEngine, "domino4d", examples=60, seed=5, max_seconds=None, shard=(2, 2), jobs=2
    )
    quarters = [_hands(shard=(index, 4))[1] for index in (2, 4)]
    assert in_shard.played == sum(quarters)


def test_fuzz_with_two_jobs_still_finds_and_writes_the_disagreement(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Every pass-option hand offers a pass only when no tile fits; this adapter offers it
    # always (turn.forced-play), which the first few hands of domino4d reach.
    adapter = write_mutant_adapter(
        tmp_path / "mutant.py",
        "    if m['type'] == 'state' and r['line'] and r['to_act'] is not None"
        " and 'pass' not in r['legal']:\n        r['legal'] = r['legal'] + ['pass']",
    )
    argv = ["conformance", "fuzz", "--impl", f"{sys.executable} {adapter}", "--jobs", "2"]
    argv += ["--variant", "domino4d", "--set", "blocked_action=pass", "--seed", "1"]
    argv += ["--out", str(tmp_path / "found"), "--max-seconds", "60", "--timeout", "20"]
    assert main(argv) == 1
    out = capsys.readouterr().out
    assert "turn.forced-play" in out
    assert len(list((tmp_path / "found").iterdir())) == 1
