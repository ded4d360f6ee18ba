"""Standard output whose reader may leave early (``gaple check log.jsonl | head -1``).

A reader that closes the pipe changes nothing but where the output goes: the command runs to
its verdict, writes every file it was asked for and exits with the verdict's status.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TextIO, cast

__all__ = ["reader_may_leave"]


class _Dropping:
    """A text stream that drops what is written once its reader has closed the pipe."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        """Write ``text``, or drop it if the reader has gone."""
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            self._to_devnull()
            return len(text)

    def flush(self) -> None:
        """Flush, or drop what is buffered if the reader has gone."""
        try:
            self._stream.flush()
        except BrokenPipeError:
            self._to_devnull()
            self._stream.flush()

    def _to_devnull(self) -> None:
        # The descriptor, not only this object, now leads to /dev/null: what is still
        # buffered and the interpreter's own flush at exit then succeed instead of printing
        # "Exception ignored ... BrokenPipeError" and exiting with 120.
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
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
        guarded.flush()
        sys.stdout = saved
