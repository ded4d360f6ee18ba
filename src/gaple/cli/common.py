"""Helpers shared by the subcommands: variant and option arguments, output formats."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gaple.conformance.wire import bounded
from gaple.conformance.wire.escape import json_escaped, printable
from gaple.io import FormatError, rules_from_json, rules_to_json
from gaple.presets import UnknownPreset, find_preset
from gaple.rules import Ruleset

if TYPE_CHECKING:
    from gaple.conformance.vectors.scope import Scope

__all__ = [
    "UnreadableJson",
    "UsageError",
    "add_format",
    "add_variant",
    "dump_json",
    "read_json",
    "rules_from_args",
]


class UsageError(Exception):
    """A user mistake: reported as one line and exit status 2."""


class UnreadableJson(Exception):
    """A file that cannot be read as JSON; the message says why and where."""


def read_json(name: str) -> Any:
    """The decoded JSON of a file, or of standard input when ``name`` is ``-``, read by the
    bounded reader (:mod:`gaple.conformance.wire.bounded`).

    Raises:
        UnreadableJson: the file cannot be read, is not UTF-8, is not JSON or passes a limit
            (with the line of the first problem).
    """
    try:
        if name == "-":
            return bounded.read(sys.stdin.buffer)
        with open(name, "rb") as stream:
            return bounded.read(stream)
    except OSError as error:
        msg = f"cannot read: {error.strerror}"
        raise UnreadableJson(msg) from None
    except bounded.Refused as error:
        raise UnreadableJson(str(error)) from None


DEFAULT_VARIANT = "pagat-4x7"
"""The preset used when ``--variant`` is not given."""


def add_variant(parser: argparse.ArgumentParser) -> None:
    """``--variant NAME`` and repeatable ``--set OPTION=VALUE`` overrides."""
    parser.add_argument(
        "--variant",
        default=DEFAULT_VARIANT,
        help=f"preset name or alias (default: {DEFAULT_VARIANT})",
    )
    parser.add_argument(
        "--set",
        dest="overrides",
        action="append",
        default=[],
        metavar="OPTION=VALUE",
        help="override one option; VALUE is JSON (true, 3, null) or a bare word (pass)",
    )


def add_format(parser: argparse.ArgumentParser) -> None:
    """``--format text|json``."""
    parser.add_argument("--format", choices=("text", "json"), default="text")


def rules_from_args(args: argparse.Namespace) -> Ruleset:
    """The preset named by ``--variant`` (the default one if ``None``) with the ``--set``
    overrides applied.

    Raises:
        UsageError: an unknown preset, a malformed override or unplayable options.
    """
    try:
        preset = find_preset(args.variant or DEFAULT_VARIANT)
    except UnknownPreset as error:
        raise UsageError(str(error)) from None
    options = {**rules_to_json(preset.rules), **overrides_from_args(args)}
    try:
        return rules_from_json(options, path="options")
    except FormatError as error:
        raise UsageError(str(error)) from None


def overrides_from_args(args: argparse.Namespace) -> dict[str, Any]:
    """The ``--set OPTION=VALUE`` overrides, each value in JSON form.

    Raises:
        UsageError: a malformed override.
    """
    options: dict[str, Any] = {}
    for text in args.overrides:
        name, sep, raw = text.partition("=")
        if not sep:
            msg = f"--set {text!r}: write OPTION=VALUE, for example blocked_action=pass"
            raise UsageError(msg)
        options[name.strip()] = _value(text, raw.strip())
    return options


def add_scope(parser: argparse.ArgumentParser, *, what: str) -> None:
    """``--variant NAME``, repeatable ``--set OPTION=VALUE`` and ``--plays FILE``: the scope
    ``what`` is measured in."""
    parser.add_argument(
        "--variant", help=f"{what} within this preset's rules exactly (its defaults)"
    )
    parser.add_argument(
        "--set",
        dest="overrides",
        action="append",
        default=[],
        metavar="OPTION=VALUE",
        help="with --variant: change one option of the preset (VALUE as for gaple play)",
    )
    parser.add_argument(
        "--plays",
        type=Path,
        metavar="FILE",
        help=f"{what} within what an engine declares: FILE holds the JSON of its hello's plays",
    )


def scope_from_args(args: argparse.Namespace, origin: str = "requested") -> Scope | None:
    """The scope of ``--variant``/``--set`` or ``--plays`` (``None`` when neither is given).

    Raises:
        UsageError: both given, an unknown preset, a bad override, or a ``plays`` file that
            cannot be read or is not a ``plays`` (one line naming the file).
    """
    # Only the commands measuring one scope read it.
    from gaple.conformance.vectors.scope import (  # noqa: PLC0415
        BadPlays,
        declared_scope,
        preset_scope,
    )

    if args.plays is not None and (args.variant or args.overrides):
        msg = "--plays names the whole scope: not with --variant or --set"
        raise UsageError(msg)
    if args.overrides and not args.variant:
        msg = "--set changes a preset's option: give the preset with --variant"
        raise UsageError(msg)
    try:
        if args.variant:
            return preset_scope(args.variant, overrides_from_args(args), origin=origin)
        if args.plays is None:
            return None
        return declared_scope(_plays(args.plays))
    except UnknownPreset as error:
        raise UsageError(str(error)) from None
    except BadPlays as error:
        where = f"--plays {args.plays}: " if args.plays is not None else "--set: "
        raise UsageError(where + printable(str(error), limit=300)) from None


def _plays(path: Path) -> Any:
    """The JSON of a ``plays`` file, read within the bounded reader's limits."""
    try:
        data = path.read_bytes()
    except OSError as error:
        msg = f"--plays {path}: cannot read it ({error.strerror or error})"
        raise UsageError(msg) from None
    try:
        return bounded.parse(data)
    except bounded.Refused as error:
        msg = f"--plays {path}: not a JSON document: {printable(error.message, limit=200)}"
        raise UsageError(msg) from None


def _value(text: str, raw: str) -> Any:
    """``raw`` as JSON, else as a bare word or a comma-separated list of words; a value that
    passes a limit of the bounded reader is refused, not read as a word."""
    try:
        return bounded.parse(raw)
    except bounded.Refused as error:
        if error.limit:
            msg = f"--set {printable(text, limit=60)}: {error.message}"
            raise UsageError(msg) from None
        if "," in raw:
            return [part.strip() for part in raw.split(",") if part.strip()]
        return raw


def dump_json(data: Any) -> str:
    r"""Pretty JSON with a stable key order, encodable as UTF-8 whatever it holds.

    A lone UTF-16 surrogate read from a document (``"\ud800"`` is valid JSON) and every other
    hidden character (a C1 control, a bidirectional override, DEL, a line separator) is
    written as its JSON escape (:func:`~gaple.conformance.wire.escape.json_escaped`): no encoder
    accepts the first raw, a terminal acts on the others, and the escape reads back as the
    same string.

    >>> import json
    >>> from gaple.cli.common import dump_json
    >>> text = dump_json({"key\ud800": "é\u202e"})
    >>> "\\ud800" in text, "\\u202e" in text, json.loads(text) == {"key\ud800": "é\u202e"}
    (True, True, True)
    """
    return json_escaped(json.dumps(data, indent=2, ensure_ascii=False))
