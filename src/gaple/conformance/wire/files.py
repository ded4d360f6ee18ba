"""Writing the kit's files whole or not at all.

Every file the kit writes (a report, a JUnit file, an HTML page, an expectations file, a found
case, a merged report, a cached set of cases) is written to a temporary file beside it and
renamed over it when complete: a reader, or a run beside this one writing the same file, sees
the old file or the new one, never a torn or an empty one. A path that names a device or a
FIFO (``/dev/stdout``, ``/dev/full``) is written in place, as there is no file to replace.
"""

from __future__ import annotations

import io
import os
import tempfile
from pathlib import Path
from typing import IO

__all__ = ["open_replacing", "write_atomically"]


class _Replacing(io.TextIOWrapper):
    """A text stream to a temporary file that is renamed over its target when closed."""

    def __init__(self, temporary: Path, target: Path) -> None:
        super().__init__(temporary.open("wb"), encoding="utf-8")
        self.temporary = temporary
        self.target = target

    def close(self) -> None:
        if self.closed:
            return
        try:
            super().close()
            os.replace(self.temporary, self.target)
        finally:
            self.temporary.unlink(missing_ok=True)

    def abandon(self) -> None:
        """Close without replacing the target, which keeps what it held."""
        try:
            super().close()
        finally:
            self.temporary.unlink(missing_ok=True)


def open_replacing(path: Path) -> IO[str]:
    """A text stream whose contents replace ``path`` when it is closed (a link is followed:
    the file it names is replaced, the link kept).

    Raises:
        OSError: the folder cannot be written in; ``path`` is then left as it was.
    """
    target = Path(os.path.realpath(path))
    if target.exists() and not target.is_file():
        return target.open("w", encoding="utf-8")
    descriptor, name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.")
    try:
        try:
            os.fchmod(descriptor, _mode(target))
        finally:
            os.close(descriptor)
        return _Replacing(Path(name), target)
    except BaseException:
        Path(name).unlink(missing_ok=True)
        raise


def _mode(target: Path) -> int:
    """The replaced file's permissions, else those a new file gets (mkstemp's are 0600)."""
    try:
        return target.stat().st_mode & 0o777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def write_atomically(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole, through :func:`open_replacing`.

    Raises:
        OSError: the folder cannot be written; ``path`` is then left as it was.
    """
    stream = open_replacing(path)
    try:
        stream.write(text)
    except BaseException:
        if isinstance(stream, _Replacing):
            stream.abandon()
        else:
            stream.close()
        raise
    stream.close()
