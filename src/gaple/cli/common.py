"""Helpers shared by the subcommands: variant and option arguments, output formats."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from gaple.io import FormatError, rules_from_json, rules_to_json
from gaple.presets import UnknownPreset, find_preset
from gaple.rules import Ruleset

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
    """The decoded JSON of a file, or of standard input when ``name`` is ``-``.

    Raises:
        UnreadableJson: the file cannot be read, is not UTF-8, or is not JSON (with the line
            and column of the first problem).
    """
    try:
        if name == "-":
            text = sys.stdin.read()
        else:
            with open(name, encoding="utf-8") as stream:
                text = stream.read()
        return json.loads(text)
    except OSError as error:
        msg = f"cannot read: {error.strerror}"
        raise UnreadableJson(msg) from None
    except UnicodeDecodeError:
        msg = "not UTF-8 text"
        raise UnreadableJson(msg) from None
    except json.JSONDecodeError as error:
        msg = f"not JSON (line {error.lineno} column {error.colno}): {error.msg}"
        raise UnreadableJson(msg) from None


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
    options = rules_to_json(preset.rules)
    for text in args.overrides:
        name, sep, raw = text.partition("=")
        if not sep:
            msg = f"--set {text!r}: write OPTION=VALUE, for example blocked_action=pass"
            raise UsageError(msg)
        options[name.strip()] = _value(raw.strip())
    try:
        return rules_from_json(options, path="options")
    except FormatError as error:
        raise UsageError(str(error)) from None


def _value(raw: str) -> Any:
    try:
        return json.loads(raw)
    except json.JSONDecodeError:
        if "," in raw:
            return [part.strip() for part in raw.split(",") if part.strip()]
        return raw


def dump_json(data: Any) -> str:
    """Pretty JSON with a stable key order."""
    return json.dumps(data, indent=2, ensure_ascii=False)
