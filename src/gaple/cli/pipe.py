"""Standard output whose reader may leave early (``gaple check log.jsonl | head -1``) or whose
disk may fill up (``gaple play >/dev/full``).

A reader that closes the pipe changes nothing but where the output goes: the command runs to
its verdict, writes every file it was asked for and exits with the verdict's status. A write
that fails otherwise raises :class:`OutputFailed`, which the command line words in one line.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TextIO, cast

__all__ = ["OutputFailed", "reader_may_leave"]


class OutputFailed(Exception):
    """Standard output could not be written (a full disk, an I/O error); not an
    :class:`OSError`, so that no handler of a command's own files takes it for one of them."""


class _Dropping:
    """A text stream that drops what is written once its reader has closed the pipe."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        """Write ``text``, or drop it if the reader has gone.

        Raises:
            OutputFailed: the write failed otherwise.
        """
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            self._to_devnull()
            return len(text)
        except OSError as error:
            self._to_devnull()
            raise OutputFailed(error.strerror or str(error)) from None

    def flush(self) -> None:
        """Flush, or drop what is buffered if the reader has gone.

        Raises:
            OutputFailed: the flush failed otherwise.
        """
        try:
            self._stream.flush()
        except BrokenPipeError:
            self._to_devnull()
            self._stream.flush()
        except OSError as error:
            self._to_devnull()
            raise OutputFailed(error.strerror or str(error)) from None

    def _to_devnull(self) -> None:
        # The descriptor, not only this object, now leads to /dev/null: what is still
        # buffered and the interpreter's own flush at exit then succeed instead of printing
        # "Exception ignored ... BrokenPipeError" and exiting with 120.
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
            with contextlib.suppress(OSError, ValueError):  # a test's stream has no descriptor
                os.dup2(devnull, self._stream.fileno())
        finally:
            os.close(devnull)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


@contextmanager
def reader_may_leave() -> Iterator[None]:
    """Within the block, a closed standard output drops what is printed instead of raising
    :class:`BrokenPipeError`; everything printed is flushed before the block ends."""
    saved = sys.stdout
    # Only write and flush are changed; every other attribute is the stream's own.
    guarded = cast("TextIO", _Dropping(saved))
    sys.stdout = guarded
    try:
        yield
    finally:
        with contextlib.suppress(OutputFailed):  # already worded by the command line
            guarded.flush()
        sys.stdout = saved
