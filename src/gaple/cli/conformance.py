"""``gaple conformance``: run the suite against an engine, fuzz it, or serve gaple as one.

``run`` drives an adapter over protocol v1 (``spec/PROTOCOL.md``) through every case and exits
0 when everything checked passed, 1 when a case failed or errored; ``fuzz`` searches for a
disagreement with Hypothesis and writes the shrunk case; ``adapter`` is gaple's own adapter.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gaple.cli.common import UsageError, rules_from_args
from gaple.conformance.cases import LEVELS
from gaple.conformance.engines import (
    Engine,
    EngineError,
    ReferenceEngine,
    SubprocessEngine,
    Validator,
    serve,
)
from gaple.conformance.report import JsonLinesReport, Progress, junit_xml, summary_text
from gaple.conformance.runner import hello, run_suite
from gaple.io import rules_to_json
from gaple.presets import PRESETS, UnknownPreset, find_preset

__all__ = ["register"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``conformance`` subcommand and its own subcommands."""
    parser = subparsers.add_parser(
        "conformance", help="check an implementation against the spec over protocol v1"
    )
    inner = parser.add_subparsers(dest="action", required=True, parser_class=type(parser))
    run = inner.add_parser("run", help="run the conformance suite against an engine")
    _engine_arguments(run)
    run.add_argument(
        "--variant",
        action="append",
        default=[],
        help="only cases of this preset (repeatable; default: all)",
    )
    run.add_argument(
        "--level",
        action="append",
        choices=LEVELS,
        default=[],
        help="only check these levels (repeatable; default: all the engine declares)",
    )
    run.add_argument("--cases", type=Path, help="read cases from this folder (default: built)")
    run.add_argument("--report", type=Path, help="write a JSON-lines report here")
    run.add_argument("--junit", type=Path, help="write JUnit XML here")
    run.add_argument("--max-fail", type=int, help="stop after N failed or errored cases")
    run.set_defaults(run=_run)

    fuzz = inner.add_parser("fuzz", help="differential fuzzing with Hypothesis")
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
    # The defaults live in gaple.conformance.fuzz, which needs Hypothesis: imported only to run.
    fuzz.add_argument(
        "--examples", type=int, help="most hands to try (default: more than fit in the time)"
    )
    fuzz.add_argument(
        "--max-seconds",
        type=float,
        help="stop searching after this many seconds (default 40); shrinking a found case "
        "takes up to 15 s more",
    )
    fuzz.add_argument("--seed", type=int, default=0, help="Hypothesis seed (default 0)")
    fuzz.add_argument(
        "--out", type=Path, default=Path("fuzz-cases"), help="folder for a found case"
    )
    fuzz.add_argument("--report", type=Path, help="write the run's counts as JSON here")
    fuzz.set_defaults(run=_fuzz)

    adapter = inner.add_parser(
        "adapter", help="serve gaple itself as a protocol v1 adapter on stdin/stdout"
    )
    adapter.set_defaults(run=lambda _args: serve(sys.stdin, sys.stdout))


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


def _engine_factory(args: argparse.Namespace) -> Callable[[], Engine]:
    if args.timeout <= 0:
        msg = f"--timeout must be positive, got {args.timeout}"
        raise UsageError(msg)
    if args.reference:
        return ReferenceEngine
    try:
        validator = Validator() if args.validate else None
    except EngineError as error:
        raise UsageError(str(error)) from None
    command: str = args.impl
    timeout: float = args.timeout
    return lambda: SubprocessEngine(command, timeout=timeout, validator=validator)


def _preflight(make_engine: Callable[[], Engine]) -> None:
    """Greet the engine once, so a command that cannot start is one error, not one per case."""
    try:
        engine = make_engine()
    except EngineError as error:
        raise UsageError(str(error)) from None
    try:
        hello(engine)
    except EngineError as error:
        msg = f"the engine does not answer hello: {error}"
        raise UsageError(msg) from None
    finally:
        engine.close()


def _cases(args: argparse.Namespace) -> list[dict[str, Any]]:
    if args.cases is not None:
        from gaple.conformance.vectors import load_cases  # noqa: PLC0415

        if not args.cases.is_dir():
            msg = f"--cases {args.cases}: not a folder"
            raise UsageError(msg)
        try:
            cases = load_cases(args.cases)
        except (OSError, ValueError) as error:
            raise UsageError(str(error)) from None
    else:
        from gaple.conformance.scenarios import all_cases  # noqa: PLC0415

        cases = all_cases()
    if args.variant:
        try:
            names = {find_preset(name).name for name in args.variant}
        except UnknownPreset as error:
            raise UsageError(str(error)) from None
        cases = [case for case in cases if case["variant"]["preset"] in names]
    return cases


def _run(args: argparse.Namespace) -> int:
    make_engine = _engine_factory(args)
    if args.max_fail is not None and args.max_fail < 1:
        msg = f"--max-fail must be at least 1, got {args.max_fail}"
        raise UsageError(msg)
    cases = _cases(args)
    _preflight(make_engine)
    levels = args.level or list(LEVELS)
    impl = "gaple (reference, in process)" if args.reference else args.impl
    report_stream = None
    try:
        if args.report is not None:
            report_stream = args.report.open("w", encoding="utf-8")
    except OSError as error:
        msg = f"--report {args.report}: {error.strerror}"
        raise UsageError(msg) from None
    report = (
        JsonLinesReport(report_stream, impl=impl, total=len(cases), levels=levels)
        if report_stream
        else None
    )
    progress = Progress(sys.stderr, len(cases))

    def on_case(outcome: Any) -> None:
        progress.update(outcome)
        if report is not None:
            report.case(outcome)

    try:
        summary = run_suite(
            cases,
            make_engine,
            levels=levels,
            max_fail=args.max_fail,
            on_hello=None if report is None else report.header,
            on_case=on_case,
        )
        progress.finish()
        if report is not None:
            report.footer(summary)
    finally:
        if report_stream is not None:
            report_stream.close()
    print(summary_text(summary))
    if args.junit is not None:
        try:
            args.junit.write_text(junit_xml(summary, name=impl), encoding="utf-8")
        except OSError as error:
            msg = f"--junit {args.junit}: {error.strerror}"
            raise UsageError(msg) from None
    if summary.interrupted:
        return 130
    return 0 if summary.ok else 1


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


def _fuzz(args: argparse.Namespace) -> int:
    try:
        from gaple.conformance.fuzz import (  # noqa: PLC0415
            EXAMPLES,
            MAX_SECONDS,
            Unsupported,
            fuzz,
        )
    except ImportError:
        msg = "fuzz needs the hypothesis package (pip install hypothesis)"
        raise UsageError(msg) from None
    make_engine = _engine_factory(args)
    names, fixed = _fuzz_variants(args)
    examples = EXAMPLES if args.examples is None else args.examples
    max_seconds = MAX_SECONDS if args.max_seconds is None else args.max_seconds
    if examples < 1:
        msg = f"--examples must be at least 1, got {examples}"
        raise UsageError(msg)
    if max_seconds <= 0:
        msg = f"--max-seconds must be positive, got {max_seconds}"
        raise UsageError(msg)
    try:
        report = fuzz(
            make_engine,
            names,
            examples=examples,
            seed=args.seed,
            overrides=fixed,
            max_seconds=max_seconds,
        )
    except EngineError as error:
        msg = f"the engine cannot be started: {error}"
        raise UsageError(msg) from None
    except Unsupported as error:
        msg = f"the engine declined every hand drawn ({error})"
        raise UsageError(msg) from None
    label = args.variant + "".join(f" {k}={json.dumps(v)}" for k, v in fixed.items())
    print(report.table())
    if args.report is not None:
        try:
            args.report.write_text(json.dumps(report.to_json(), indent=2) + "\n", "utf-8")
        except OSError as error:
            msg = f"--report {args.report}: {error.strerror}"
            raise UsageError(msg) from None
    found = report.finding
    if found is None:
        print(
            f"no disagreement in {report.played} hands of {label} "
            f"(seed {args.seed}, {report.seconds:.1f} s)"
        )
        return 0
    from gaple.conformance.vectors import dumps  # noqa: PLC0415

    args.out.mkdir(parents=True, exist_ok=True)
    path = args.out / f"{found.case['id']}.json"
    path.write_text(dumps(found.case), encoding="utf-8")
    print(
        f"first disagreement after {report.found_after:.1f} s and {report.played + 1} hands; "
        f"shrunk by {report.seconds:.1f} s"
    )
    print(f"disagreement: {found.outcome.describe()}")
    print(f"minimal case written to {path}")
    return 1
