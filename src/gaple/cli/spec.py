"""``gaple spec``: write out the language-neutral spec a runner in another language needs.

It writes the protocol (``PROTOCOL.md``), the interpretation notes (``INTERPRETING.md``), the
schemas and every case, as the repository's ``spec/`` folder holds them, from the installed
package alone. The folder rules are those of ``gaple vectors build``: new, empty or written by
gaple before, and never through a symbolic link.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from gaple.cli.common import UsageError
from gaple.cli.vectors import write_spec
from gaple.conformance.vectors.committed import build, texts, vector_set
from gaple.conformance.wire.escape import printable

__all__ = ["register"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``spec`` subcommand."""
    parser = subparsers.add_parser(
        "spec", help="write the protocol, interpretation notes, schemas and cases to a folder"
    )
    parser.add_argument("--out", type=Path, required=True, help="the folder to write")
    parser.set_defaults(run=_spec)


def _spec(args: argparse.Namespace) -> int:
    files = build()
    try:
        written = texts()
    except OSError as error:
        msg = f"this installation of gaple lacks its spec texts: {error}"
        raise UsageError(msg) from None
    write_spec(args.out, {**files, **written})
    under = printable(str(args.out))
    print(f"wrote the spec under {under}: {', '.join(written)}, {vector_set(files)}")
    return 0
