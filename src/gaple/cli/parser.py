"""The parser of the ``gaple`` command line and the running of a parsed command, imported by
:func:`gaple.cli.main` once it holds the signals."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from typing import NoReturn, cast

from gaple.cli import SUBCOMMANDS
from gaple.cli.common import UsageError
from gaple.cli.pipe import OutputFailed, reader_may_leave
from gaple.cli.signals import SIGNALS
from gaple.conformance.wire.escape import printable

__all__ = ["build_parser", "run"]


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line, not a usage block."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\n")


class _Version(argparse.Action):
    """``--version``: gaple's version and the vector set it checks against, as ``gaple vectors
    build`` recorded it beside the cases (``gaple vectors check`` proves the record equal to a
    fresh build): read, so that the version costs no build of the cases."""

    def __call__(self, parser: argparse.ArgumentParser, *_args: object, **_kwargs: object) -> None:
        from gaple import __version__  # noqa: PLC0415
        from gaple.conformance.vectors.packaged import RECORD, recorded_set  # noqa: PLC0415

        try:
            vectors = recorded_set()
        except OSError as error:
            vectors = f"{RECORD} cannot be read: {error.strerror}"
        print(f"gaple {__version__} (vectors: {vectors})")
        parser.exit(0)


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser with every subcommand registered, or only the subcommand ``only`` (none when
    ``only`` names none): a command then imports its own module alone, not every other
    command's (a fifth of the start of ``gaple check``)."""
    parser = _Parser(prog="gaple", description="The executable rules specification of Gaple.")
    parser.add_argument(
        "--version",
        action=_Version,
        nargs=0,
        help="show gaple's version and its vector set (case format, count, hash), then exit",
    )
    subparsers = cast(
        "argparse._SubParsersAction[argparse.ArgumentParser]",
        parser.add_subparsers(dest="command", required=True, parser_class=_Parser),
    )
    for name in SUBCOMMANDS:
        if only in (None, name):
            importlib.import_module(f"gaple.cli.{name}").register(subparsers)
    return parser


def run(argv: Sequence[str] | None) -> int:
    """Parse and run one command line (``sys.argv[1:]`` if ``argv`` is ``None``); the exit
    status, also when the reader of standard output has left early (``gaple check log.jsonl |
    head -1`` fails for a failing log)."""
    with reader_may_leave():
        return _parsed(argv)


def _parsed(argv: Sequence[str] | None) -> int:
    words = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(_command_of(words))
    args = parser.parse_args(words)
    if not getattr(args, "owns_signals", False):
        # Only conformance run and fuzz end cleanly on a signal; the others get Python's
        # handlers back once parsed, or end here on a signal held while gaple started.
        SIGNALS.restore()
        if SIGNALS.received is not None:
            print(f"gaple {args.command}: interrupted before it started", file=sys.stderr)
            return SIGNALS.status()
    return _run(args, program=argv is None)


def _command_of(words: Sequence[str]) -> str | None:
    """The one subcommand the parser needs for ``words``: theirs, none for ``--version``
    (answered before any subcommand is parsed; registering them all would import every
    command's module), every one (``None``) otherwise, for the usage and ``--help``."""
    if words and words[0] in SUBCOMMANDS:
        return words[0]
    return "--version" if words[:1] == ["--version"] else None


def _run(args: argparse.Namespace, *, program: bool) -> int:
    try:
        status: int = args.run(args)
        sys.stdout.flush()  # so that a full disk fails here, not in Python's flush at exit
    except KeyboardInterrupt:
        if not program:
            raise  # a caller in its own process decides what its Ctrl-C does
        # Ctrl-C in a command that keeps no report (check, play...): one line, no traceback.
        print(f"gaple {args.command}: interrupted", file=sys.stderr)
        return 130
    except UsageError as error:
        # Escaped, so a name or key read from a document cannot break the line or the encoder.
        print(f"gaple {args.command}: error: {printable(str(error))}", file=sys.stderr)
        return 2
    except OutputFailed as error:
        # Standard output on a full disk: status 2, as for a --report or --out file that
        # cannot be written (1 would read as a verdict). A reader that left is no error:
        # reader_may_leave drops the output instead.
        print(f"gaple {args.command}: error: cannot write: {error}", file=sys.stderr)
        return 2
    return status
