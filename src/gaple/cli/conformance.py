"""``gaple conformance``: run the suite against an engine, read saved reports, fuzz an
engine, or serve gaple as one.

``run`` drives an adapter over protocol v1 (``spec/PROTOCOL.md``) through every case and exits
0 when everything checked passed (or, held against an expectations file, failed as listed),
1 when a case failed or errored (held, otherwise than listed), 3 when nothing was checked
(every case skipped), 4 for a partial run (cases declined or skipped by feature, cells of the
scope unreached), 5 when held and a listed case passed (the file is outdated), 130 or 143 when
SIGINT or SIGTERM stopped it (the report and JUnit file are complete either way, and no
engine process is left); ``fuzz`` searches for a
disagreement with Hypothesis and writes the shrunk case; ``adapter`` is gaple's own adapter,
``example-engine`` the bundled example engine's (``examples/engine/``).
``summary`` shows saved reports side by side (and as an HTML page), ``merge`` joins the
reports of the shards of one run, of one fuzzing run, or the JSON reports of the shards of
``gaple check``; both exit 2 on a file that is not a complete report.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

import attrs
from attrs import frozen

from gaple import __version__
from gaple.cli.common import UsageError, add_scope, dump_json, rules_from_args, scope_from_args
from gaple.cli.paths import check_files
from gaple.cli.sharding import ALL, Shard, add_jobs_and_shard, cores
from gaple.cli.signals import SIGNALS, Signals
from gaple.conformance.runner.engines import (
    Engine,
    EngineError,
    ReferenceEngine,
    SubprocessEngine,
    Validator,
    kill_all,
    serve,
)
from gaple.conformance.runner.example_engine import example_engine_folder, serve_example_engine
from gaple.conformance.runner.expectations import (
    BadExpectations,
    Expectation,
    Judgement,
    expectations_document,
    expectations_text,
    judge,
    read_expectations,
    verdict,
)
from gaple.conformance.runner.merging import merge_shards, overall, read_shard
from gaple.conformance.runner.report import (
    JsonLinesReport,
    Progress,
    junit_xml,
    summary_text,
)
from gaple.conformance.runner.run import (
    CaseOutcome,
    EngineInfo,
    Measured,
    Summary,
    hello,
    run_suite,
)
from gaple.conformance.runner.selection import (
    SHOWN,
    BadExpression,
    closest,
    parse_keywords,
    quoted,
)
from gaple.conformance.runner.summary import (
    RECORD_LIMITS,
    BadReport,
    Report,
    counted,
    docs_base,
    matrix_html,
    matrix_text,
    merge,
    merge_fuzz,
    read_fuzz_shard,
    read_report,
    write_records,
)
from gaple.conformance.vectors.cases import LEVELS
from gaple.conformance.vectors.packaged import cases_sha256, vector_set_of
from gaple.conformance.vectors.scope import Scope
from gaple.conformance.vectors.tags import TAGS, case_tags
from gaple.conformance.wire.bounded import Refused, parse
from gaple.conformance.wire.escape import printable
from gaple.conformance.wire.files import open_replacing, write_atomically
from gaple.conformance.wire.options import BadOption, check_command, check_timeout
from gaple.io import rules_to_json
from gaple.presets import PRESETS, UnknownPreset, find_preset

if TYPE_CHECKING:  # the fuzzer imports Hypothesis, an optional dependency
    from gaple.conformance.fuzzer.fuzz import FuzzReport

__all__ = ["register"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``conformance`` subcommand and its own subcommands."""
    parser = subparsers.add_parser(
        "conformance", help="check an implementation against the spec over protocol v1"
    )
    inner = parser.add_subparsers(dest="action", required=True, parser_class=type(parser))
    run = inner.add_parser("run", help="run the conformance suite against an engine")
    _engine_arguments(run)
    add_scope(run, what="run and judge")
    run.add_argument(
        "--based-on",
        action="append",
        default=[],
        metavar="PRESET",
        help="only cases whose rules start from this preset, whatever options they change "
        "(repeatable; not a scope: the verdict counts no cells)",
    )
    run.add_argument(
        "--level",
        action="append",
        choices=LEVELS,
        default=[],
        help="only check these levels (repeatable; default: all the engine declares)",
    )
    run.add_argument(
        "--cases",
        type=Path,
        metavar="PATH",
        help="read cases from this folder, or the one case of this file (default: those "
        "gaple ships)",
    )
    run.add_argument(
        "--case",
        dest="case_ids",
        action="append",
        default=[],
        metavar="ID",
        help="only the case with this ID (repeatable)",
    )
    run.add_argument(
        "-k",
        dest="keywords",
        metavar="EXPRESSION",
        help="only cases whose ID or a feature tag holds these words, combined with and, or, "
        "not and parentheses (as pytest -k)",
    )
    run.add_argument(
        "--skip-feature",
        action="append",
        default=[],
        metavar="TAG",
        help="skip the cases with this feature tag, unsent (repeatable; the verdict is then "
        "at best PARTIAL)",
    )
    run.add_argument("--report", type=Path, help="write a JSON-lines report here")
    run.add_argument("--junit", type=Path, help="write JUnit XML here")
    run.add_argument("--max-fail", type=int, help="stop after N failed or errored cases")
    run.add_argument(
        "--trace",
        action="store_true",
        help="keep every request and reply of each failed or errored case: shown under it "
        "and in its report record",
    )
    run.add_argument(
        "--expectations",
        type=Path,
        metavar="FILE",
        help="the known divergences (an expectations file): only new failures and "
        "unexpected passes fail the run",
    )
    run.add_argument(
        "--write-expectations",
        type=Path,
        metavar="FILE",
        help="write the cases of this run that did not pass as an expectations file",
    )
    _docs_argument(run)
    add_jobs_and_shard(
        run,
        "cases",
        rule="case number k (from 0, in the order of their IDs) belongs to shard k %% N + 1",
    )
    run.set_defaults(run=_run, owns_signals=True)

    summary = inner.add_parser(
        "summary", help="several saved reports side by side, by rule ID; --html writes a page"
    )
    summary.add_argument("reports", nargs="+", type=Path, metavar="REPORT")
    summary.add_argument("--html", type=Path, help="write one self-contained HTML file here")
    _docs_argument(summary)
    summary.set_defaults(run=_summary)

    merge = inner.add_parser(
        "merge",
        help="join the reports of the shards of one run, of one fuzzing run (--report), or of "
        "gaple check --shard --format json",
        description="Join the reports of shards 1/N to N/N, given in any order, into the report "
        "of the whole run. The kind is told by content: JSON lines (conformance run), a JSON "
        "array (gaple check --format json) or one JSON object (conformance fuzz --report); "
        "the kinds do not mix. A fuzz merge adds up the hands, situations and seconds and "
        "keeps the finding of the lowest-numbered shard that found a disagreement (its case "
        "file is the one that shard wrote to its --out).",
    )
    merge.add_argument("reports", nargs="+", type=Path, metavar="REPORT")
    merge.add_argument("--out", type=Path, required=True, help="write the merged report here")
    merge.set_defaults(run=_merge)

    fuzz = inner.add_parser(
        "fuzz",
        help="differential fuzzing with Hypothesis",
        description="Play drawn hands on the engine and on the spec side by side, and shrink "
        "the first disagreement to a minimal case written to --out. The verdict is printed "
        "first: the disagreement, the case file, and the seconds and hands to it (of the job "
        "that found it soonest); or the hands played without one. Then the hands reaching each "
        "situation, those at zero left out and counted on the last line (--report has them "
        "all).",
    )
    _engine_arguments(fuzz)
    fuzz.add_argument(
        "--variant",
        default="any",
        help="preset the drawn rules start from (default: any, every preset)",
    )
    fuzz.add_argument(
        "--set",
        dest="overrides",
        action="append",
        default=[],
        metavar="OPTION=VALUE",
        help="fix one option in every hand (the others are drawn); VALUE as for gaple play",
    )
    scoped = fuzz.add_mutually_exclusive_group()
    scoped.add_argument(
        "--exact",
        action="store_true",
        help="search exactly the rules of --variant NAME with the --set options, no option "
        "drawn (default: the scope the engine's hello declares, if it declares one)",
    )
    scoped.add_argument(
        "--plays",
        type=Path,
        metavar="FILE",
        help="search the scope this JSON file describes, in the form of a hello's 'plays' "
        "(preset, options, situation, features)",
    )
    # The defaults live in gaple.conformance.fuzzer.fuzz, which needs Hypothesis: imported
    # only to run.
    fuzz.add_argument(
        "--examples", type=int, help="most hands to try (default: more than fit in the time)"
    )
    fuzz.add_argument(
        "--max-seconds",
        type=float,
        help="stop searching after this many seconds (default 60); shrinking a found case "
        "takes up to 15 s more",
    )
    fuzz.add_argument("--seed", type=int, default=0, help="Hypothesis seed (default 0)")
    fuzz.add_argument(
        "--out", type=Path, default=Path("fuzz-cases"), help="folder for a found case"
    )
    fuzz.add_argument(
        "--report",
        type=Path,
        help="write the run's counts as JSON here (a shard's merge with gaple conformance merge)",
    )
    add_jobs_and_shard(
        fuzz,
        "hands drawn",
        rule="a hash of each hand's number picks its shard",
    )
    fuzz.set_defaults(run=_fuzz, owns_signals=True)

    adapter = inner.add_parser(
        "adapter", help="serve gaple itself as a protocol v1 adapter on stdin/stdout"
    )
    adapter.set_defaults(run=lambda _args: serve(sys.stdin, sys.stdout))

    example = inner.add_parser(
        "example-engine",
        help="serve the bundled example engine (examples/engine/, independent of gaple) as a "
        "protocol v1 adapter on stdin/stdout",
    )
    example.set_defaults(run=_example_engine)


def _example_engine(_args: argparse.Namespace) -> int:
    folder = example_engine_folder()
    if not (folder / "adapter.py").is_file():
        # An install without the wheel's copy and away from a checkout: say so, not a traceback.
        raise UsageError(f"the example engine is not installed: no adapter.py in {folder}")
    return serve_example_engine(folder)


def _docs_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--docs-url",
        metavar="URL",
        help="root of the rules docs that failures link to (default: this machine's copy, "
        "which gaple docs opens; else the package's Documentation URL; else addresses "
        "relative to the docs root)",
    )


def _docs(args: argparse.Namespace) -> str | None:
    """``--docs-url``, else this machine's copy of the docs or the package's Documentation
    URL (:func:`~gaple.conformance.runner.summary.docs_base`): looked up only when a report
    needs it, since reading the package's metadata takes 30 ms, a fifth of every command's
    start when it was the option's default."""
    url: str | None = args.docs_url
    return docs_base() if url is None else url


def _engine_arguments(parser: argparse.ArgumentParser) -> None:
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--impl", metavar="COMMAND", help="shell command starting the adapter")
    which.add_argument(
        "--reference", action="store_true", help="gaple itself, in process (self-check, timing)"
    )
    parser.add_argument(
        "--timeout", type=float, default=10.0, help="seconds to wait for each reply (default 10)"
    )
    parser.add_argument(
        "--validate", action="store_true", help="check every message against spec/protocol"
    )


def _spread(args: argparse.Namespace) -> tuple[int, tuple[int, int] | None]:
    """The jobs to run (``--jobs``, every core by default) and the ``--shard`` as (I, N), or
    ``None`` for the whole run."""
    shard: Shard = args.shard
    jobs: int = args.jobs or cores()
    return jobs, None if shard == ALL else (shard.index, shard.count)


def _shard_json(shard: tuple[int, int]) -> dict[str, int]:
    return {"index": shard[0], "count": shard[1]}


def _engine_factory(args: argparse.Namespace) -> Callable[[], Engine]:
    # The checks the pytest plugin makes of --gaple-timeout and --gaple-impl, word for word.
    try:
        timeout = check_timeout(args.timeout, "--timeout")
        if args.reference:
            return ReferenceEngine
        command = check_command(args.impl, "--impl")
    except BadOption as error:
        raise UsageError(str(error)) from None
    try:
        validator = Validator() if args.validate else None
    except EngineError as error:
        raise UsageError(str(error)) from None
    return lambda: SubprocessEngine(command, timeout=timeout, validator=validator)


def _preflight(make_engine: Callable[[], Engine]) -> EngineInfo:
    """Greet the engine once, so a command that cannot start is one error, not one per case;
    what it said of itself (its declared scope among it)."""
    try:
        engine = make_engine()
    except EngineError as error:
        raise UsageError(printable(str(error))) from None
    try:
        return hello(engine)
    except EngineError as error:
        msg = f"the engine does not answer hello: {printable(str(error))}"
        raise UsageError(msg) from None
    finally:
        engine.close()


def _cases(args: argparse.Namespace) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Every case read or built, and those selected by ``--based-on``, ``--case`` and ``-k``
    (every one of them that is given); selecting none is a usage error."""
    cases = _every_case(args.cases)
    known = {str(case["id"]) for case in cases}
    for name in args.case_ids:
        if name not in known:
            near = closest(name, known)
            hint = f"; the closest: {', '.join(near)}" if near else ""
            msg = f"--case {printable(name, limit=SHOWN)}: no case has this ID{hint}"
            raise UsageError(msg)
    chosen = _chosen(args, cases)
    if chosen:
        return cases, _sorted(chosen)
    given = [
        *(f"--based-on {name}" for name in args.based_on),
        *(f"--case {printable(name, limit=SHOWN)}" for name in args.case_ids),
        *([] if args.keywords is None else [f"-k {quoted(args.keywords)}"]),
    ]
    msg = f"no case is selected by {' '.join(given) or 'the cases given'}: nothing to run"
    raise UsageError(msg)


def _chosen(args: argparse.Namespace, cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The ``cases`` that ``--based-on``, ``--case`` and ``-k`` select (every one of them
    that is given); a preset that does not exist or a malformed ``-k`` is a usage error."""
    chosen = cases
    if args.based_on:
        try:
            names = {find_preset(name).name for name in args.based_on}
        except UnknownPreset as error:
            raise UsageError(str(error)) from None
        chosen = [case for case in chosen if case["variant"]["preset"] in names]
    if args.case_ids:
        wanted = set(args.case_ids)
        chosen = [case for case in chosen if case["id"] in wanted]
    if args.keywords is not None:
        try:
            matches = parse_keywords(args.keywords)
        except BadExpression as error:
            raise UsageError(str(error)) from None
        chosen = [case for case in chosen if matches(case["id"], case_tags(case))]
    return chosen


def _sorted(cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    # Sorted by ID, so that a shard and the order of the report do not depend on how the
    # cases were found.
    return sorted(cases, key=lambda case: str(case["id"]))


def _measure(
    args: argparse.Namespace,
    scope: Scope | None,
    every: list[dict[str, Any]],
    chosen: list[dict[str, Any]],
    vectors: str,
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], Measured | None]:
    """The cases of the run inside ``scope`` (every case read and those chosen), with the
    cases made to measure for it when the committed ones do not cover its cells and the user
    named no case (kept on disk under the line ``vectors`` of the cases read); and the cells
    of the scope they reach."""
    if scope is None:
        return every, chosen, None
    from gaple.conformance.vectors.coverage import coverage  # noqa: PLC0415  # only a scoped run
    from gaple.conformance.vectors.tailor import cached_cases  # noqa: PLC0415

    inside = [case for case in every if scope.outside(case) is None]
    named = bool(args.case_ids or args.keywords is not None or args.based_on)
    cover = coverage(inside, scope)
    if cover.open and not named and args.cases is None:
        made = cached_cases(scope, inside, vectors)
        every, inside = every + made, inside + made
        cover = coverage(inside, scope)
    chosen = [case for case in (inside if not named else chosen) if scope.outside(case) is None]
    if not chosen:
        msg = f"no case lies within {scope.label()}: nothing to run"
        raise UsageError(msg)
    measured = Measured(scope.label(), cover.reachable, len(cover.covered))
    return every, _sorted(chosen), measured


@frozen
class _Plan:
    """What a run plays: every case read or built, those chosen, this shard's, and the scope
    the run is measured in with its cells."""

    every: list[dict[str, Any]]
    chosen: list[dict[str, Any]]
    cases: list[dict[str, Any]]
    scope: Scope | None
    measured: Measured | None
    vectors: str
    """The line of the vector set of ``every``."""

    def checked(self, summary: Summary) -> Measured | None:
        """The scope's cells with those the cases that passed reached."""
        if self.measured is None or self.scope is None:
            return self.measured
        from gaple.conformance.vectors.coverage import case_cells  # noqa: PLC0415
        from gaple.conformance.vectors.tailor import reachable  # noqa: PLC0415

        passed = {outcome.case for outcome in summary.outcomes if outcome.status == "passed"}
        cells: set[str] = set()
        for case in self.cases:
            if case["id"] in passed:
                cells.update(case_cells(case))
        return attrs.evolve(self.measured, checked=len(cells.intersection(reachable(self.scope))))


def _plan(args: argparse.Namespace, make_engine: Callable[[], Engine]) -> _Plan:
    """The cases of the run, chosen by name, then by its scope: ``--variant``/``--set`` or
    ``--plays`` when given, else what the engine declares it plays (greeted once first)."""
    asked = scope_from_args(args)
    # Greeted before any case is read or made: an adapter that cannot start is named at once.
    greeting = _preflight(make_engine)
    read, chosen = _cases(args)
    vectors = _vector_set(args, read, [])
    scope = asked or greeting.plays
    every, chosen, measured = _measure(args, scope, read, chosen, vectors)
    if len(every) > len(read):  # cases made to measure joined them
        vectors = _vector_set(args, every, every[len(read) :])
    return _Plan(every, chosen, args.shard.take(chosen), scope, measured, vectors)


def _vector_set(
    args: argparse.Namespace, every: list[dict[str, Any]], made: list[dict[str, Any]]
) -> str:
    """The line of the vector set of ``every`` case, the shipped ones and those ``made`` to
    measure: the shipped ones hashed as their files are written (the line recorded beside them
    when they are all), not written out again as the cases of ``--cases`` are (a second)."""
    from gaple.conformance.vectors.packaged import (  # noqa: PLC0415
        NotShipped,
        recorded_set,
        shipped_set_with,
    )

    if args.cases is None:
        try:
            return shipped_set_with(made) if made else recorded_set()
        except (OSError, NotShipped):  # changed since they were read: hashed as they are
            pass
    return vector_set_of(every)


def _every_case(path: Path | None) -> list[dict[str, Any]]:
    """The cases of ``--cases`` (a folder, or one case file), else those gaple ships."""
    if path is None:
        from gaple.conformance.vectors.packaged import NotShipped, shipped_cases  # noqa: PLC0415

        try:
            return shipped_cases()
        except NotShipped as error:
            raise UsageError(str(error)) from None
    from gaple.conformance.vectors.committed import (  # noqa: PLC0415
        BadCases,
        MissingJsonSchema,
        load_cases,
    )

    if not path.exists():
        msg = f"--cases {path}: no such file or folder"
        raise UsageError(msg)
    try:
        return load_cases(path)
    except (OSError, MissingJsonSchema) as error:
        raise UsageError(str(error)) from None
    except BadCases as error:
        # Every bad file on its own line, the last one as the run's error; none is run.
        for problem in error.problems[:-1]:
            print(f"gaple conformance: error: {printable(problem)}", file=sys.stderr)
        raise UsageError(error.problems[-1]) from None


def _requested(args: argparse.Namespace) -> Scope | None:
    """The scope ``--skip-feature`` leaves: every feature tag but those skipped."""
    if not args.skip_feature:
        return None
    known = [tag.name for tag in TAGS]
    for name in args.skip_feature:
        if name not in known:
            msg = (
                f"--skip-feature {printable(name, limit=80)}: not a feature tag; "
                f"the tags are {', '.join(known)}"
            )
            raise UsageError(msg)
    return Scope(options={}, situation={}, features=frozenset(known).difference(args.skip_feature))


def _expected(args: argparse.Namespace) -> dict[str, Expectation] | None:
    """The entries of ``--expectations`` (those the run cannot judge are named after it)."""
    if args.expectations is None:
        return None
    try:
        return read_expectations(args.expectations)
    except BadExpectations as error:
        raise UsageError(str(error)) from None


NOTHING_CHECKED = 3
"""Exit status of a run in which no case was played (every one skipped, or the shard holds
none); selecting no case at all is a usage error."""

PARTIAL = 4
"""Exit status of a run in which nothing failed (or, held against an expectations file,
nothing failed otherwise than listed) but not everything set out was checked: the engine
declined cases without declaring what it plays (``plays`` in its hello), the user skipped
cases by their features, or the scope's cells are not all reached."""

OUTDATED = 5
"""Exit status of a run held against an expectations file in which no case failed otherwise
than listed but a listed case passed: the file is out of date."""

_EXIT = {
    "conforms": 0,
    "as expected": 0,
    "does not conform": 1,
    "new failures": 1,
    "nothing checked": NOTHING_CHECKED,
    "partial": PARTIAL,
    "expectations outdated": OUTDATED,
}


def _run(args: argparse.Namespace) -> int:
    check_files(
        [("--expectations", args.expectations)],
        [
            ("--report", args.report),
            ("--junit", args.junit),
            ("--write-expectations", args.write_expectations),
        ],
        inside=[("--cases", args.cases)],
        updates=[("--expectations", "--write-expectations")],
    )
    make_engine = _engine_factory(args)
    if args.max_fail is not None and args.max_fail < 1:
        msg = f"--max-fail must be at least 1, got {args.max_fail}"
        raise UsageError(msg)
    if args.max_fail is not None and args.write_expectations is not None:
        # A run stopped early would leave out the divergences of the cases it did not play.
        msg = "--write-expectations needs the whole run: not with --max-fail"
        raise UsageError(msg)
    try:
        return _run_reported(args, make_engine, SIGNALS)
    finally:
        kill_all()


def _count_in(progress: Progress, report: JsonLinesReport | None, plan: _Plan) -> None:
    """Tell the progress line and the report what the run holds."""
    progress.total = len(plan.cases)
    if report is not None:
        report.total = len(plan.cases)
        report.vectors = plan.vectors
        # The selection before sharding, which every shard of the run shares.
        report.selection = (len(plan.chosen), cases_sha256(plan.chosen))


def _run_reported(
    args: argparse.Namespace, make_engine: Callable[[], Engine], signals: Signals
) -> int:
    """The run, with a report and JUnit file that are complete however it ends: normally, on
    a usage error or on a signal at any moment."""
    levels = args.level or list(LEVELS)
    impl = "gaple (reference, in process)" if args.reference else args.impl
    jobs, shard = _spread(args)
    stream = _open_report(args.report)
    report = (
        JsonLinesReport(stream, impl=impl, total=0, levels=levels, shard=shard) if stream else None
    )
    progress = Progress(sys.stderr, 0)
    outcomes: list[CaseOutcome] = []
    greeted: list[EngineInfo] = []

    def on_hello(info: EngineInfo) -> None:
        greeted.append(info)
        if report is not None:
            report.header(info)

    def on_case(outcome: CaseOutcome) -> None:
        with signals.deferred():  # in the summary and the report both, or in neither
            outcomes.append(outcome)
            progress.update(outcome)
            if report is not None:
                report.case(outcome)

    began = time.perf_counter()
    refused: UsageError | None = None
    plan: _Plan | None = None
    try:
        # A signal held since gaple started ends the run as the block starts; one after the
        # block (its exit included) only changes the exit status.
        with signals.armed():
            requested = _requested(args)
            plan = _plan(args, make_engine)
            expected = _expected(args)
            _count_in(progress, report, plan)
            summary = run_suite(
                plan.cases,
                make_engine,
                levels=levels,
                max_fail=args.max_fail,
                on_hello=on_hello,
                on_case=on_case,
                jobs=jobs,
                requested=requested,
                trace=args.trace,
            )
    except (KeyboardInterrupt, UsageError) as error:
        refused = error if isinstance(error, UsageError) else None
        engine = greeted[0] if greeted else None
        seconds = time.perf_counter() - began
        summary = Summary(tuple(outcomes), seconds, engine, False, interrupted=refused is None)
        expected = None
    # The cases recorded by on_case, which the report holds: a signal as a case was handed
    # over leaves it in run_suite's outcomes alone.
    summary = attrs.evolve(summary, outcomes=tuple(outcomes))
    if plan is not None:
        summary = attrs.evolve(summary, measured=plan.checked(summary))
    if signals.received is not None:
        summary = attrs.evolve(summary, interrupted=True)
    progress.finish()
    judgement = None if expected is None or plan is None else _judge(args, plan, expected, summary)
    held = None if judgement is None else (args.expectations, judgement)
    unwritten = None if report is None else _end_report(report, summary, args.report, held)
    if args.junit is not None:
        _write_junit(args, summary, impl, held)
    for failure in (refused, unwritten):
        if failure is not None:
            raise failure
    _write_expectations(args, summary, expected, judgement)
    print(summary_text(summary, docs=_docs(args), held=held))
    return signals.status() if summary.interrupted else _EXIT[verdict(summary, judgement)]


def _judge(
    args: argparse.Namespace, plan: _Plan, expected: dict[str, Expectation], summary: Summary
) -> Judgement:
    """The run held against ``--expectations``: an entry for a case chosen by name (or for
    any case, when none is named) that lies outside the run's scope is stale; one for a case
    not chosen, or in another shard, is not run."""
    outside: dict[str, str] = {}
    scope = plan.scope
    if scope is not None:
        listed = [case for case in plan.every if case["id"] in expected]
        for case in _chosen(args, listed) if listed else []:
            why = scope.outside(case)
            if why is not None:
                outside[str(case["id"])] = f"outside {scope.label()}: {why}"
    known = {str(case["id"]) for case in plan.every}
    return judge(expected, summary.outcomes, known=known, outside=outside)


def _write_junit(
    args: argparse.Namespace, summary: Summary, impl: str, held: tuple[Path, Judgement] | None
) -> None:
    """Write ``--junit``, each known divergence of ``--expectations`` as skipped."""
    _write("--junit", args.junit, junit_xml(summary, name=impl, docs=_docs(args), held=held))


def _write_expectations(
    args: argparse.Namespace,
    summary: Summary,
    previous: dict[str, Expectation] | None,
    judgement: Judgement | None,
) -> None:
    """Write ``--write-expectations`` (before anything is printed, so a reader that stops
    early cannot leave it unwritten): the cases that failed or errored, keeping the reason of
    each entry of ``--expectations`` that still holds and the entries of the cases this run
    did not select; not for an interrupted run, which would leave cases out."""
    path: Path | None = args.write_expectations
    if path is None:
        return
    if summary.interrupted:
        shown = printable(str(path))
        print(
            f"gaple conformance: --write-expectations {shown}: not written (interrupted)",
            file=sys.stderr,
        )
        return
    kept = () if judgement is None else judgement.unrun
    document = expectations_document(summary.outcomes, previous, kept)
    _write("--write-expectations", path, expectations_text(document))
    listed = counted(len(document["cases"]) - len(kept), "failure")
    unrun = f", and {len(kept)} kept of cases not run" if kept else ""
    shown = printable(str(path))
    print(f"gaple conformance: wrote {shown} ({listed} listed{unrun})", file=sys.stderr)


def _end_report(
    report: JsonLinesReport,
    summary: Summary,
    path: Path,
    held: tuple[Path, Judgement] | None,
) -> UsageError | None:
    """Write the footer (with the judgement of ``--expectations``) and close the report; the
    error to end the run with if a write of the report failed (after the JUnit file is
    written)."""
    report.footer(summary, held)
    report.close()
    if report.failed is None:
        return None
    msg = f"--report {path}: {report.failed.strerror} (the report is incomplete)"
    return UsageError(msg)


def _open_report(path: Path | None) -> IO[str] | None:
    try:
        return None if path is None else open_replacing(path)
    except OSError as error:
        msg = f"--report {path}: {error.strerror}"
        raise UsageError(msg) from None


def _write(option: str, path: Path, text: str) -> None:
    """Write ``text`` to the file ``option`` names, whole or not at all; failing is a usage
    error naming both."""
    try:
        write_atomically(path, text)
    except OSError as error:
        msg = f"{option} {path}: {error.strerror}"
        raise UsageError(msg) from None


def _read_reports(paths: list[Path]) -> list[Report]:
    try:
        return [read_report(path) for path in paths]
    except BadReport as error:
        raise UsageError(str(error)) from None


def _summary(args: argparse.Namespace) -> int:
    check_files([("REPORT", path) for path in args.reports], [("--html", args.html)])
    reports = _read_reports(args.reports)
    # The page is written before anything is printed, so a reader that stops early
    # (| head -1) cannot leave it unwritten.
    if args.html is not None:
        try:
            page = matrix_html(reports, docs=_docs(args))
        except BadReport as error:
            raise UsageError(str(error)) from None
        _write("--html", args.html, page)
    print(matrix_text(reports))
    if args.html is not None:
        print(f"HTML report written to {printable(str(args.html))}")
    return 0


def _merge(args: argparse.Namespace) -> int:
    check_files([("REPORT", path) for path in args.reports], [("--out", args.out)])
    kinds = [_kind(path) for path in args.reports]
    for path, kind in zip(args.reports, kinds, strict=True):
        if kind != kinds[0]:
            msg = f"{path}: a report of {kind}, but {args.reports[0]} is one of {kinds[0]}"
            raise UsageError(msg)
    if kinds[0] == "gaple check":
        return _merge_checks(args)
    if kinds[0] == "conformance fuzz":
        return _merge_fuzz(args)
    try:
        records = merge(_read_reports(args.reports))
    except BadReport as error:
        raise UsageError(str(error)) from None
    try:
        write_records(args.out, records)
    except OSError as error:
        msg = f"--out {args.out}: {error.strerror}"
        raise UsageError(msg) from None
    footer = records[-1]
    into = printable(str(args.out))
    merged = f"{len(records) - 2} cases of {len(args.reports)} shards merged"
    print(f"{merged} into {into}: {footer['verdict']}")
    return 0


def _kind(path: Path) -> str:
    """Which command wrote a report: a JSON array is gaple check's; an object on the first
    line with a "type" (the header) starts conformance run's JSON lines; any other object is
    conformance fuzz's. Anything else is left to the run's reader, which says what is wrong."""
    try:
        with path.open("rb") as stream:
            first = stream.readline(RECORD_LIMITS.max_bytes + 1)
    except OSError as error:
        msg = f"{path}: cannot read: {error.strerror}"
        raise UsageError(msg) from None
    start = first.removeprefix(b"\xef\xbb\xbf").lstrip()
    if start.startswith(b"["):
        return "gaple check"
    if not start.startswith(b"{"):
        return "conformance run"
    try:
        header = parse(start, RECORD_LIMITS)
    except Refused:
        # An object that goes on past its first line (the fuzz report, indented), or a line
        # that no report's reader takes: the fuzz report's reader says what is wrong.
        return "conformance fuzz"
    return (
        "conformance run" if isinstance(header, dict) and "type" in header else "conformance fuzz"
    )


def _merge_checks(args: argparse.Namespace) -> int:
    """Join the JSON reports of the shards of gaple check into the report of the whole input."""
    try:
        records = merge_shards([(str(path), read_shard(path)) for path in args.reports])
    except BadReport as error:
        raise UsageError(str(error)) from None
    _write("--out", args.out, dump_json(records) + "\n")
    transcripts = sum(record.get("transcripts", 1) for record in records)
    status = overall(record["status"] for record in records)
    print(
        f"{transcripts} transcripts of {len(args.reports)} shards merged into "
        f"{printable(str(args.out))}: {status}"
    )
    return 0


def _merge_fuzz(args: argparse.Namespace) -> int:
    """Join the reports of the shards of one fuzzing run into the report of the whole run."""
    try:
        report = merge_fuzz([(str(path), read_fuzz_shard(path)) for path in args.reports])
    except BadReport as error:
        raise UsageError(str(error)) from None
    _write("--out", args.out, json.dumps(report, indent=2) + "\n")
    found = "no disagreement" if report["finding"] is None else "a disagreement found"
    into = printable(str(args.out))
    print(f"{report['played']} hands of {len(args.reports)} shards merged into {into}: {found}")
    return 0


def _fuzz_variants(args: argparse.Namespace) -> tuple[list[str], dict[str, Any]]:
    """The presets to draw from and the ``--set`` options, fixed, as JSON values."""
    if args.variant == "any":
        names = list(PRESETS)
    else:
        try:
            names = [find_preset(args.variant).name]
        except UnknownPreset as error:
            raise UsageError(str(error)) from None
    if not args.overrides:
        return names, {}
    fixed = [text.partition("=")[0].strip() for text in args.overrides]
    problems: list[UsageError] = []
    for name in names:
        try:
            rules = rules_from_args(argparse.Namespace(variant=name, overrides=args.overrides))
        except UsageError as error:
            problems.append(error)
            continue
        return names, {option: rules_to_json(rules)[option] for option in fixed}
    raise problems[0]


def _fuzz_scope(args: argparse.Namespace, names: list[str], fixed: dict[str, Any]) -> Scope | None:
    """The scope ``--exact`` (the preset's rules with the ``--set`` options) or ``--plays
    FILE`` asks for; ``None`` for neither (the engine's declared scope, if any, is the
    fuzzer's to read)."""
    from gaple.conformance.vectors.scope import (  # noqa: PLC0415
        BadPlays,
        declared_scope,
        preset_scope,
    )

    if args.exact:
        if args.variant == "any":
            msg = "--exact needs --variant NAME: the preset whose rules are searched exactly"
            raise UsageError(msg)
        try:
            return preset_scope(names[0], fixed)
        except BadPlays as error:
            raise UsageError(f"--exact: {printable(str(error), limit=200)}") from None
    if args.plays is None:
        return None
    where = printable(str(args.plays), limit=120)
    try:
        plays = json.loads(args.plays.read_text(encoding="utf-8"))
    except OSError as error:
        msg = f"--plays {where}: cannot read: {error.strerror}"
        raise UsageError(msg) from None
    except ValueError as error:
        msg = f"--plays {where}: not JSON: {printable(str(error), limit=200)}"
        raise UsageError(msg) from None
    try:
        scope = declared_scope(plays)
    except BadPlays as error:
        msg = f"--plays {where}: {printable(str(error), limit=300)}"
        raise UsageError(msg) from None
    return attrs.evolve(scope, origin="requested")


def _fuzz(args: argparse.Namespace) -> int:
    try:
        from gaple.conformance.fuzzer.fuzz import (  # noqa: PLC0415
            EXAMPLES,
            MAX_SECONDS,
            EmptyScope,
            Unsupported,
            fuzz,
        )
    except ImportError:
        msg = "fuzz needs Hypothesis: pip install 'gaple[conformance]'"
        raise UsageError(msg) from None
    check_files(
        [("--plays", args.plays)], [("--report", args.report)], folders=[("--out", args.out)]
    )
    make_engine = _engine_factory(args)
    jobs, shard = _spread(args)
    names, fixed = _fuzz_variants(args)
    scope = _fuzz_scope(args, names, fixed)
    examples = EXAMPLES if args.examples is None else args.examples
    max_seconds = MAX_SECONDS if args.max_seconds is None else args.max_seconds
    if examples < 1:
        msg = f"--examples must be at least 1, got {examples}"
        raise UsageError(msg)
    if not (math.isfinite(max_seconds) and max_seconds > 0):
        msg = f"--max-seconds must be a finite positive number of seconds, got {max_seconds}"
        raise UsageError(msg)
    # What the shards of one run share, so that a merge can refuse shards of two runs.
    run = {
        "gaple": __version__,
        "impl": "gaple (reference, in process)" if args.reference else args.impl,
        "seed": args.seed,
        "variant": "any" if args.variant == "any" else names[0],
        "set": fixed,
        "examples": examples,
        "max_seconds": max_seconds,
    }
    try:
        try:
            with SIGNALS.armed():
                report = fuzz(
                    make_engine,
                    names,
                    examples=examples,
                    seed=args.seed,
                    overrides=fixed,
                    max_seconds=max_seconds,
                    shard=shard,
                    jobs=jobs,
                    scope=scope,
                )
        except KeyboardInterrupt:
            print("interrupted: no report", file=sys.stderr)
            return SIGNALS.status()
        finally:
            kill_all()
    except EngineError as error:
        msg = f"engine error: {error}"
        if args.report is not None:
            # The run's names and the error, so that a merge refuses the shard saying why.
            _write_fuzz_report(args.report, {**run, "error": msg}, shard)
        raise UsageError(msg) from None
    except Unsupported as error:
        msg = f"the engine declined every hand drawn ({error})"
        raise UsageError(msg) from None
    except EmptyScope as error:
        raise UsageError(printable(str(error), limit=300)) from None
    label = args.variant + "".join(f" {k}={json.dumps(v)}" for k, v in fixed.items())
    if report.scope is not None:
        label = report.scope
    # The files first, then the output, so a reader that stops early cannot leave one unwritten.
    if args.report is not None:
        _write_fuzz_report(args.report, {**run, **report.to_json()}, shard)
    return _fuzz_outcome(args, report, label)


def _fuzz_outcome(args: argparse.Namespace, report: FuzzReport, label: str) -> int:
    """The end of a fuzzing run: the case written if there is one, then the verdict printed
    (the first thing a reader looks for), then the counts; the exit status."""
    found = report.finding
    if found is None:
        print(
            f"no disagreement in {report.played} hands of {label} "
            f"(seed {args.seed}, {report.seconds:.1f} s)"
        )
        print(report.table())
        return 0
    from gaple.conformance.vectors.committed import dumps  # noqa: PLC0415

    args.out.mkdir(parents=True, exist_ok=True)
    path = args.out / f"{found.case['id']}.json"
    write_atomically(path, dumps(found.case))
    hands = report.found_after_hands
    print(
        f"first disagreement after {report.found_after:.1f} s and {hands} "
        f"hand{'' if hands == 1 else 's'}; shrunk by {report.seconds:.1f} s"
    )
    print(f"disagreement: {printable(found.outcome.describe(), limit=1000)}")
    print(f"minimal case written to {printable(str(path))}")
    print(report.table())
    return 1


def _write_fuzz_report(path: Path, data: dict[str, Any], shard: tuple[int, int] | None) -> None:
    if shard is not None:
        data["shard"] = _shard_json(shard)
    _write("--report", path, json.dumps(data, indent=2) + "\n")
