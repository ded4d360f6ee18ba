"""``gaple template LANGUAGE DIR``: write an adapter template for an engine in JavaScript or
TypeScript (``node``) or in Python (``python``) into a folder, from the installed package.

The adapter answers the protocol as written; its one block marked ``FILL IN HERE`` holds the
calls into the engine, which a user fills in. Files already in the folder are never written
over, unless ``--force``: the command checks every file before it writes any.
"""

from __future__ import annotations

import argparse
import os
import shlex
from pathlib import Path

from gaple.cli.common import UsageError
from gaple.conformance.wire.escape import printable
from gaple.templates import TEMPLATES, template_files

__all__ = ["register"]

RUNNER = {"node": "node", "python": "python"}
"""The program that runs each language's adapter in the ``--impl`` command."""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``template`` subcommand."""
    parser = subparsers.add_parser(
        "template",
        help="write a protocol adapter to fill in with the calls into your engine",
        description="Write a protocol v1 adapter, its README and (node) its TypeScript types "
        "into DIR. Change only the adapter's block marked FILL IN HERE.",
    )
    parser.add_argument("language", choices=sorted(TEMPLATES), help="the engine's language")
    parser.add_argument("dir", type=Path, metavar="DIR", help="the folder to write (made if new)")
    parser.add_argument(
        "--force", action="store_true", help="write over files of the same names in DIR"
    )
    parser.set_defaults(run=_template)


def _template(args: argparse.Namespace) -> int:
    language: str = args.language
    folder: Path = args.dir
    try:
        files = template_files(language)
    except OSError as error:
        msg = f"this installation of gaple lacks its {language} template: {error}"
        raise UsageError(msg) from None
    _make_folder(folder)
    if not args.force:
        _refuse_existing(folder, files)
    _write(folder, files, force=args.force)
    adapter = folder / TEMPLATES[language][0]
    command = shlex.join([RUNNER[language], str(adapter)])
    print(f"wrote {', '.join(printable(str(folder / name)) for name in files)}")
    print(f"next: fill in the block marked FILL IN HERE in {printable(str(adapter))}, then run")
    print(f"  gaple conformance run --impl {printable(shlex.quote(command))}")
    return 0


def _make_folder(folder: Path) -> None:
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        msg = f"cannot make the folder {folder}: {error.strerror or error}"
        raise UsageError(msg) from None


def _refuse_existing(folder: Path, files: dict[str, bytes]) -> None:
    """Stop at the first file that is there already (a dangling link counts: writing would
    follow it)."""
    for name in files:
        path = folder / name
        if os.path.lexists(path):
            msg = f"{path} exists; --force writes over it"
            raise UsageError(msg)


def _write(folder: Path, files: dict[str, bytes], *, force: bool) -> None:
    # Without --force, "x" refuses a file made since the check rather than write over it.
    mode = "wb" if force else "xb"
    for name, content in files.items():
        path = folder / name
        try:
            with open(path, mode) as stream:
                stream.write(content)
        except OSError as error:
            msg = f"cannot write {path}: {error.strerror or error}"
            raise UsageError(msg) from None
