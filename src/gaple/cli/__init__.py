"""The ``gaple`` command line: one module per subcommand, each with a ``register`` function.

Every failure a user can cause (an unknown variant, a bad option, an unreadable file) and an
output that cannot be written (standard output on a full disk) ends with one line on standard
error and exit status 2; a command's own verdict (for example "does not
conform") uses status 1. No traceback reaches the user.

The ``gaple`` command and ``python -m gaple`` enter by ``gaple._start``, which holds SIGINT
and SIGTERM before it imports this package; :func:`main` takes them over. This module imports
nothing but :mod:`gaple.cli.signals` before :func:`main` holds the signals (for a caller that
runs it directly), and the parser and the subcommands (:mod:`gaple.cli.parser`) only after, so
that a signal in the first milliseconds of gaple is held too, not a traceback.
"""

from __future__ import annotations

from gaple.cli.signals import SIGNALS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from gaple._start import Hold

__all__ = ["main"]

SUBCOMMANDS = (
    "variants",
    "play",
    "match",
    "score",
    "vectors",
    "spec",
    "check",
    "conformance",
    "template",
    "docs",
)
"""The subcommands in the order of the help, each registered by the ``register`` function of
its module, ``gaple.cli.<name>``; a new subcommand adds its name here."""


def main(argv: Sequence[str] | None = None, *, held: Hold | None = None) -> int:
    """Run the command line; returns the exit status.

    Without ``argv`` main runs the process's own command line (the ``gaple`` command,
    ``python -m gaple``) and the signals are never handed back to Python: one that comes once
    the work is done changes nothing, not even the status, up to the process's exit. With
    ``argv`` (a caller in its own process) the caller's handlers are put back on return.
    ``held`` is the hold of the command's entry (``gaple._start``), taken over here.
    """
    # First: a signal while gaple starts is held for the command that ends cleanly on it
    # (conformance run and fuzz); the others get Python's handlers back once parsed.
    SIGNALS.install()
    if held is not None:
        SIGNALS.adopt(held)
    try:
        from gaple.cli.parser import run  # noqa: PLC0415  # only now: see the module's text

        return run(argv)
    finally:
        if argv is None:
            SIGNALS.ignore()
        else:
            SIGNALS.restore()
