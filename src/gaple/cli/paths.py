"""The files a command reads and writes, checked before anything runs.

An output that names an input would destroy it: an expectations file truncated before it is
read, a report replaced by JUnit XML. An output that names another output would keep only one
of them, and an output in a missing folder would fail only after the whole run. Each is refused
before the first case, in one line naming both options. Two paths name the same file when they
lead to it through links, hard or symbolic, as well as when they are spelt alike.

One pair may name one file: an input that the command updates (``--expectations F
--write-expectations F``), since the output is written whole after the input was read.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TypeAlias

from gaple.cli.common import UsageError
from gaple.conformance.wire.escape import printable

__all__ = ["Named", "check_files"]

Named: TypeAlias = tuple[str, Path | None]
"""A file given on the command line and the option that gave it (``None`` when not given)."""


def check_files(
    reads: Iterable[Named],
    writes: Iterable[Named],
    *,
    folders: Iterable[Named] = (),
    inside: Iterable[Named] = (),
    updates: Iterable[tuple[str, str]] = (),
) -> None:
    """Refuse an output file that names an input, another output or a file under a folder of
    ``inside`` (a folder of cases, whose every file is read), and an output file whose folder
    is missing; an output folder (``folders``, made when missing) that is a file or cannot be
    made; all before anything is read or written. ``updates`` lists the (input, output)
    options that may name one file.

    Raises:
        UsageError: naming the options and the path.
    """
    given_reads, given_writes, folders_read = _given(reads), _given(writes), _given(inside)
    allowed = set(updates)
    for place, (option, path) in enumerate(given_writes):
        _writable(option, path)
        others = [
            (other, other_path, f"writing {option} would destroy what the command reads")
            for other, other_path in given_reads
            if (other, option) not in allowed
        ]
        others += [
            (other, other_path, "one output would replace the other")
            for other, other_path in given_writes[:place]
        ]
        for other, other_path, why in others:
            if _same(path, other_path):
                msg = (
                    f"{option} {_shown(path)} and {other} {_shown(other_path)} name one file: {why}"
                )
                raise UsageError(msg)
        for other, folder in folders_read:
            if _under(path, folder):
                where = f"{option} {_shown(path)} is under {other} {_shown(folder)}"
                raise UsageError(f"{where}: it would be read as a case")
    for option, folder in _given(folders):
        _creatable(option, folder)


def _given(named: Iterable[Named]) -> Sequence[tuple[str, Path]]:
    # "-" is standard input or output, never a file of the command line.
    return [(option, path) for option, path in named if path is not None and str(path) != "-"]


def _same(one: Path, other: Path) -> bool:
    try:
        return os.path.samefile(one, other)
    except OSError:  # one of them is not there yet: the same file only if spelt the same
        return os.path.realpath(one) == os.path.realpath(other)


def _under(path: Path, folder: Path) -> bool:
    return Path(os.path.realpath(path)).is_relative_to(os.path.realpath(folder))


def _writable(option: str, path: Path) -> None:
    if path.is_dir():
        raise UsageError(f"{option} {_shown(path)}: is a folder; give a file's path")
    folder = Path(os.path.realpath(path)).parent
    if not folder.is_dir():
        raise UsageError(f"{option} {_shown(path)}: no such folder {_shown(folder)}")
    _can_write_in(option, path, folder)


def _creatable(option: str, folder: Path) -> None:
    nearest = Path(os.path.realpath(folder))
    while not nearest.exists():
        nearest = nearest.parent
    if not nearest.is_dir():
        raise UsageError(f"{option} {_shown(folder)}: {_shown(nearest)} is not a folder")
    _can_write_in(option, folder, nearest)


def _can_write_in(option: str, path: Path, folder: Path) -> None:
    if not (os.access(folder, os.W_OK) and os.access(folder, os.X_OK)):
        msg = f"{option} {_shown(path)}: cannot write in the folder {_shown(folder)}"
        raise UsageError(msg)


def _shown(path: Path) -> str:
    return printable(str(path), limit=200)
