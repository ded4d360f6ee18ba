"""SIGINT and SIGTERM, held from the first thing the ``gaple`` command does.

The command's entry, ``gaple._start``, holds both before it imports :mod:`gaple.cli`, and
:func:`gaple.cli.main` takes them over (:meth:`Signals.install`, then :meth:`Signals.adopt`).
:mod:`gaple.cli` imports this module and nothing else before :func:`gaple.cli.main` holds the
signals (for a caller that runs main directly), so it uses the interpreter's C module
``_signal`` alone: ``import signal`` brings ``enum``, ``functools`` and ``collections`` with it,
15 to 45 ms on a loaded machine in which a signal would still end gaple with a traceback or
kill it. ``_signal`` is built into the interpreter; the only other import is the compiler's
``__future__``.

A signal is **held** (noted only) until a command that ends cleanly on it arms the catcher
(:meth:`Signals.armed`); within the armed block the first signal is raised as a
:class:`KeyboardInterrupt` and a later one only noted, so the cleanup (bounded in time) always
finishes. Outside it a signal never raises, so it cannot end gaple where nothing catches it;
within it, a :meth:`Signals.deferred` block keeps a step that must not be cut in two whole.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    import signal as _signal  # the typed face of the same functions
    from collections.abc import Callable
    from types import FrameType, TracebackType
    from typing import Any, TypeAlias

    from gaple._start import Hold

    Handler: TypeAlias = Callable[[int, FrameType | None], Any] | int | None
else:
    import _signal

__all__ = ["SIGNALS", "Armed", "Deferred", "Signals"]

_NUMBERS = (_signal.SIGINT, _signal.SIGTERM)


class Signals:
    """The catcher of SIGINT and SIGTERM (one per process: :data:`SIGNALS`)."""

    def __init__(self) -> None:
        self.received: int | None = None
        """The first signal held or raised since :meth:`install`, if any."""
        self.raising = False
        self._saved: dict[int, Handler] = {}

    def install(self) -> None:
        """Hold both signals from now on (what came before is forgotten)."""
        self.received, self.raising = None, False
        self._saved = _swap(dict.fromkeys(_NUMBERS, self._handle))

    def adopt(self, held: Hold) -> None:
        """Take over from the hold of the command's entry (``gaple._start.Hold``), whose
        handlers :meth:`install` has just replaced: its signal, if it noted one, is held here
        (the first, before any noted since), and :meth:`restore` puts back the handlers it had
        replaced. Its signal cannot change once its handlers are gone, so none is lost."""
        if held.received is not None:
            self.received = held.received
        self._saved = held.saved

    def restore(self) -> None:
        """Put back the handlers found by :meth:`install`, both at once: a signal that arrives
        meanwhile goes whole to the handlers put back (to a caller of :func:`gaple.cli.main`
        in its own process), never half to each."""
        self.raising = False
        if self._saved:
            _swap(self._saved)
            self._saved = {}

    def ignore(self) -> None:
        """Ignore both signals from now on: the end of the process's own command line, its
        work done. Held signals would do as well until Python's exit puts back the default
        of every signal it catches, before it tears its modules down (milliseconds in which a
        signal kills the process or raises a traceback); it leaves ignored ones ignored."""
        self.raising = False
        _swap(dict.fromkeys(_NUMBERS, _signal.SIG_IGN))
        self._saved = {}

    def armed(self) -> Armed:
        """A block in which the first signal is raised as :class:`KeyboardInterrupt`, at its
        start if one was held. The raise can come anywhere up to the block's very end, its
        exit included, so a ``try`` around the ``with`` catches every one: a signal after the
        block only changes :attr:`received`."""
        return Armed(self)

    def arm(self) -> None:
        """Raise the first signal from now on, at once if one came before (held): the start
        of :meth:`armed` and the end of :meth:`deferred`.

        Raises:
            KeyboardInterrupt: a signal came before.
        """
        # Raising first, then the test: a signal between the two is raised by the handler,
        # one before them here, and never both.
        self.raising = True
        if self.received is not None and self.raising:
            self.raising = False
            raise KeyboardInterrupt

    def deferred(self) -> Deferred:
        """A block of an armed one that a signal does not cut in two (one case recorded in
        the report and the summary both): the signal is raised as the block ends."""
        return Deferred(self)

    def _handle(self, number: int, _frame: object) -> None:
        self.received = self.received or number
        if self.raising:
            self.raising = False
            raise KeyboardInterrupt

    def status(self) -> int:
        """128 plus the first signal's number (130 for SIGINT, 143 for SIGTERM)."""
        return 128 + (self.received or _signal.SIGINT)


class Armed:
    """The block of :meth:`Signals.armed`."""

    def __init__(self, signals: Signals) -> None:
        self._signals = signals

    def __enter__(self) -> None:
        """Raise the first signal from now on, at once if one was held.

        Raises:
            KeyboardInterrupt: a signal was held.
        """
        self._signals.arm()

    def __exit__(
        self,
        _type: type[BaseException] | None,
        _error: BaseException | None,
        _traceback: TracebackType | None,
    ) -> None:
        self._signals.raising = False


class Deferred:
    """The block of :meth:`Signals.deferred`."""

    def __init__(self, signals: Signals) -> None:
        self._signals = signals
        self._raising = False

    def __enter__(self) -> None:
        self._raising, self._signals.raising = self._signals.raising, False

    def __exit__(
        self,
        _type: type[BaseException] | None,
        _error: BaseException | None,
        _traceback: TracebackType | None,
    ) -> None:
        """Raise the signal that came during the block, if the block was armed.

        Raises:
            KeyboardInterrupt: a signal came during the armed block.
        """
        if self._raising:  # no signal came before the block, or it would have been raised
            self._signals.arm()


def _swap(handlers: dict[int, Handler]) -> dict[int, Handler]:
    """Set the handler of each signal with both blocked, so that one arriving meanwhile waits
    and meets the new handlers; the previous handlers."""
    mask = _signal.pthread_sigmask(_signal.SIG_BLOCK, _NUMBERS)
    try:
        return {number: _signal.signal(number, handler) for number, handler in handlers.items()}
    finally:
        _signal.pthread_sigmask(_signal.SIG_SETMASK, mask)


SIGNALS = Signals()
"""The process's one catcher of SIGINT and SIGTERM, installed by :func:`gaple.cli.main`."""
