"""The ``gaple`` command's entry: its console script (``gaple._start:main``) and ``python -m
gaple`` come here, and the first statement holds SIGINT and SIGTERM, before the command line
(:mod:`gaple.cli`) or anything else of gaple is imported.

A signal is **held** (noted only) by :class:`Hold`; :func:`gaple.cli.main` takes it over with the
handlers it replaced (:meth:`gaple.cli.signals.Signals.adopt`), so that a signal in gaple's
first millisecond is the command's to end on cleanly, as one while it parses its command line.
This module imports the interpreter's C module ``_signal`` alone (see :mod:`gaple.cli.signals`).

Before this, nothing can hold a signal: the interpreter's start (``site`` and the ``.pth`` files
of the environment), the console script's ``import sys``, and the package's own ``__init__``,
which Python runs before any module of the package (it imports nothing: its names are lazy),
with this module's first lines. A signal then ends the process as it ends any Python program:
SIGTERM kills it silently, SIGINT is a ``KeyboardInterrupt`` traceback. Measured on a busy
2-core machine (medians of 50 starts, the method of ``benchmarks/signal_window.py``): an
interpreter whose first statement catches a signal does so 13.5 to 15 ms after the process's
start, the ``gaple`` command 16 to 17 ms after it; gaple's own share is 0.35 ms, 0.2 ms of it
the package's ``__init__`` (2.2 ms without bytecode, ``PYTHONDONTWRITEBYTECODE``), against 0.7
ms (3 to 7 ms) when ``gaple.cli:main`` was the entry and imported :mod:`gaple.cli` and
:mod:`gaple.cli.signals` first. The guide's "Stopping a run" has the details.
"""

TYPE_CHECKING = False
if TYPE_CHECKING:
    import signal as _signal  # the typed face of the same functions
    from collections.abc import Callable
    from types import FrameType
    from typing import Any, TypeAlias

    Handler: TypeAlias = Callable[[int, FrameType | None], Any] | int | None
else:
    import _signal

__all__ = ["Hold", "main"]


def main() -> int:
    """Run the ``gaple`` command on the process's command line; the exit status."""
    held = Hold()
    from gaple.cli import main as command  # noqa: PLC0415  # only now: see the module's text

    return command(held=held)


class Hold:
    """SIGINT and SIGTERM noted, from its creation until :func:`gaple.cli.main` takes them over
    (:meth:`gaple.cli.signals.Signals.adopt`): :attr:`received`, the first signal noted if any,
    and :attr:`saved`, the handlers it replaced (Python's, or those of a caller's own)."""

    def __init__(self) -> None:
        self.received: int | None = None
        self.saved: dict[int, Handler] = {
            _signal.SIGINT: _signal.signal(_signal.SIGINT, self._note),
            _signal.SIGTERM: _signal.signal(_signal.SIGTERM, self._note),
        }

    def _note(self, number: int, _frame: object) -> None:
        self.received = self.received or number
