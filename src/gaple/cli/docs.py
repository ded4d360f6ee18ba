"""``gaple docs [RULE-ID] [--print-url]``: open the rules reference, or one rule's page at its
anchor, from this machine's copy (:mod:`gaple.localdocs`): the wheel's, or in a source checkout
``docs/_build/html``, built first if missing and Sphinx is installed.

``gaple docs explorer`` serves the built docs from ``127.0.0.1`` and opens the rules explorer
(:mod:`gaple.explorer`), which browsers do not run from ``file://``; it serves until Ctrl-C.
``make docs`` builds the explorer in a checkout; the wheel does not carry it (14 MB of
Pyodide), which the command says in one line.

An unknown rule ID is an error naming the closest IDs. ``--print-url`` prints the ``file://``
address instead of opening a browser; so does a machine without a browser to open.

The command holds SIGINT and SIGTERM (:mod:`gaple.cli.signals`) until it has the docs: a signal
during the build stops Sphinx with every process it started and keeps nothing of the build
(:meth:`gaple.localdocs.Build.stop`), and one before or after it ends the command as it could;
either way ``gaple docs: interrupted`` and status 130 (SIGINT) or 143 (SIGTERM).
"""

from __future__ import annotations

import argparse
import sys
import threading
from pathlib import Path

from gaple.cli.common import UsageError
from gaple.cli.signals import SIGNALS
from gaple.localdocs import EXPLORER_PORT, Build, NoDocs, checkout, local_docs, page_url
from gaple.registry import RULES

__all__ = ["EXPLORER", "register"]

EXPLORER = "explorer"
"""The name that opens the rules explorer in place of a rule ID, and its folder in the docs."""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``docs`` subcommand."""
    parser = subparsers.add_parser(
        "docs", help="open the rules reference (offline), or one rule's page at its anchor"
    )
    parser.add_argument(
        "rule_id",
        nargs="?",
        metavar="RULE-ID",
        help="a rule ID such as play.match-end (default: the front page), or 'explorer' for "
        "the rules explorer, served from this machine until Ctrl-C",
    )
    parser.add_argument(
        "--print-url",
        action="store_true",
        help="print the page's file:// address instead of opening a browser",
    )
    parser.set_defaults(run=_docs, owns_signals=True)


def _docs(args: argparse.Namespace) -> int:
    rule_id: str | None = args.rule_id
    if rule_id == EXPLORER:
        SIGNALS.restore()  # Ctrl-C ends the serving (KeyboardInterrupt)
        return _explorer(print_only=args.print_url)
    if rule_id is not None and rule_id not in RULES:
        raise UsageError(_unknown(rule_id))
    try:
        folder = _folder()
    except KeyboardInterrupt:
        return _interrupted()
    finally:
        # Python's handlers back once the docs are there, as for the other commands.
        SIGNALS.restore()
    if SIGNALS.received is not None:  # held while gaple started or after the build
        return _interrupted()
    url = page_url(folder, rule_id)
    if args.print_url:
        print(url)
        return 0
    # Imported here: webbrowser takes a few milliseconds that no other command needs.
    import webbrowser  # noqa: PLC0415

    if webbrowser.open(url):
        print(f"opened {url}")
    else:
        print(url)
        print("gaple docs: no browser to open it with; the address is above", file=sys.stderr)
    return 0


def _explorer(*, print_only: bool) -> int:
    """Serve the built docs and open the explorer in them, until Ctrl-C."""
    folder = local_docs()
    if folder is None or not (folder / EXPLORER / "bundle.json").is_file():
        where = "this installation" if folder is None else str(folder)
        msg = (
            f"no rules explorer in {where}: run make docs in a source checkout of gaple "
            "(it needs npm); the wheel does not carry it (14 MB of Pyodide)"
        )
        raise UsageError(msg)
    from gaple.cli.serving import served  # noqa: PLC0415  # only this subcommand serves

    try:
        with served(folder, EXPLORER_PORT) as root:
            url = f"{root}{EXPLORER}/index.html"
            print(f"serving the rules explorer at {url} (Ctrl-C to stop)", flush=True)
            if not print_only:
                import webbrowser  # noqa: PLC0415

                webbrowser.open(url)
            threading.Event().wait()  # until Ctrl-C
    except KeyboardInterrupt:
        print("gaple docs: stopped serving the explorer", file=sys.stderr)
    return 0


def _unknown(rule_id: str) -> str:
    # Only for a misspelt ID.
    from gaple.conformance.runner.selection import closest  # noqa: PLC0415

    near = closest(rule_id, RULES)
    if near:
        return f"unknown rule ID {rule_id!r}; the closest: {', '.join(near)}"
    return (
        f"unknown rule ID {rule_id!r}, and none is close: the page 'How the rules are "
        "organised' of the reference (gaple docs) lists every ID"
    )


def _folder() -> Path:
    """The built reference; in a checkout without a build, built now."""
    folder = local_docs()
    if folder is not None:
        return folder
    found = checkout()
    if found is None:
        msg = "this installation of gaple has no docs (a wheel built without its docs hook?)"
        raise UsageError(msg)
    # Looked for without importing it (half a second).
    import importlib.util  # noqa: PLC0415

    if importlib.util.find_spec("sphinx") is None:
        msg = (
            f"no built docs in {found.html} and no Sphinx to build them: run make docs, "
            "or pip install -e '.[docs]' and run gaple docs again"
        )
        raise UsageError(msg)
    print(f"building the docs into {found.html} (about a minute) ...", file=sys.stderr)
    build: Build | None = None
    try:
        # A signal held since gaple started ends the command as the block starts; one during
        # the build is raised as it comes, stopping the build (finally).
        with SIGNALS.armed():
            with SIGNALS.deferred():  # Sphinx started and its build known here, or not started
                build = found.start()
            build.wait()
        return build.finish()
    except NoDocs as error:
        raise UsageError(str(error)) from None
    finally:
        if build is not None:
            build.stop()


def _interrupted() -> int:
    print("gaple docs: interrupted", file=sys.stderr)
    return SIGNALS.status()
