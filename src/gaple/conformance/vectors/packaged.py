"""The vectors as gaple ships them: the case files of ``spec/vectors/v1`` and the line that
records their set, read without building a case.

``gaple vectors build`` writes both (:func:`gaple.conformance.vectors.committed.build`), and
``gaple vectors check`` proves them equal to a fresh build. A run, the pytest plugin and
``gaple --version`` read them here, in a fraction of the seconds a build takes: from the
checkout's ``spec/`` in an editable install, from ``gaple/spec/`` in a wheel
(:func:`~gaple.conformance.wire.shipped.shipped_folder`). This module imports nothing of the
vector builder, so that reading stays cheap.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import json
import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from gaple.conformance.wire import bounded
from gaple.conformance.wire.escape import json_escaped
from gaple.conformance.wire.shipped import shipped_folder

__all__ = [
    "CASE_FORMAT",
    "RECORD",
    "VECTORS_DIR",
    "NotShipped",
    "cases_sha256",
    "dumps",
    "recorded_set",
    "set_line",
    "shipped_cases",
    "shipped_set_with",
    "shipped_texts",
    "spec_folder",
    "vector_set_of",
]

CASE_FORMAT = 1
"""Version of the case format (``spec/vectors/v1``); bumped on any incompatible change."""

VECTORS_DIR = "vectors/v1"
"""Where the cases live under the spec directory."""

RECORD = "vectors/vector-set.txt"
"""The file under the spec directory that records the line of the vector set
(:func:`set_line`) of the cases beside it."""

_WIDTH = 100


def dumps(value: Any) -> str:
    """JSON with two-space indentation, short arrays and objects kept on one line, every
    hidden character escaped (:func:`~gaple.conformance.wire.escape.json_escaped`), so that a
    case read from a file (a lone surrogate is valid JSON) can always be written and hashed
    as UTF-8."""
    return json_escaped(_format(value, 0)) + "\n"


def _format(value: Any, depth: int) -> str:
    flat = json.dumps(value, ensure_ascii=False)
    if len(flat) + 2 * depth <= _WIDTH or not isinstance(value, dict | list) or not value:
        return flat
    pad = "  " * (depth + 1)
    if isinstance(value, list):
        items = [pad + _format(item, depth + 1) for item in value]
        return "[\n" + ",\n".join(items) + "\n" + "  " * depth + "]"
    entries = [f"{pad}{json.dumps(key)}: {_format(item, depth + 1)}" for key, item in value.items()]
    return "{\n" + ",\n".join(entries) + "\n" + "  " * depth + "}"


def case_path(case: dict[str, Any]) -> str:
    """Where a case's file lies under the spec directory."""
    return f"{VECTORS_DIR}/{case['topic']}/{case['id']}.json"


def _digest(files: Iterable[tuple[str, str]]) -> str:
    digest = hashlib.sha256()
    for path, text in sorted(files):
        digest.update(f"{path}\n{text}\n".encode())
    return digest.hexdigest()


def set_line(files: Iterable[tuple[str, str]]) -> str:
    """The line of a vector set, from its case files as (path under the spec directory, text):
    the case format, the folder, the number of cases and the first 16 digits of their SHA-256
    (over each path and text, in path order), e.g. ``case format 1, vectors/v1, 188 cases,
    sha256 0123456789abcdef``. Two gaples that print the same line check engines against the
    same cases."""
    cases = list(files)
    return (
        f"case format {CASE_FORMAT}, {VECTORS_DIR}, {len(cases)} cases, "
        f"sha256 {_digest(cases)[:16]}"
    )


def cases_sha256(cases: Iterable[dict[str, Any]]) -> str:
    """The hash of a selection of cases, as a report's header records it: SHA-256 (hex) over
    each case's path (``vectors/v1/<topic>/<id>.json``), a newline, its file as ``gaple
    vectors build`` writes it, and a newline, in path order. Every case of the vector set gives
    the hash that :func:`set_line` shortens to 16 digits."""
    return _digest((case_path(case), dumps(case)) for case in cases)


def vector_set_of(cases: list[dict[str, Any]]) -> str:
    """:func:`set_line` of the given cases (the same line for the same cases, built or read
    from files)."""
    return set_line((case_path(case), dumps(case)) for case in cases)


def shipped_set_with(made: list[dict[str, Any]]) -> str:
    """:func:`set_line` of the shipped cases and ``made`` together, the shipped ones hashed
    as their files are written (:func:`shipped_texts`), not written again (a second).

    Raises:
        NotShipped: as :func:`shipped_texts`.
    """
    made_files = [(case_path(case), dumps(case)) for case in made]
    return set_line([*shipped_texts().items(), *made_files])


def spec_folder() -> Path:
    """The spec folder gaple ships: ``gaple/spec/`` in a wheel, the checkout's ``spec/`` in an
    editable install."""
    return shipped_folder("spec", "spec")


def recorded_set() -> str:
    """The line of the shipped vector set, as ``gaple vectors build`` recorded it.

    Raises:
        OSError: the record cannot be read.
    """
    return (spec_folder() / RECORD).read_text(encoding="utf-8").strip()


class NotShipped(Exception):
    """The shipped cases cannot be read, or are not the set their record names (a partial or
    edited copy): the message is one line that names the folder."""


def shipped_cases() -> list[dict[str, Any]]:
    """Every shipped case, in path order (:func:`shipped_texts`, parsed).

    Raises:
        NotShipped: as :func:`shipped_texts`.
    """
    texts = shipped_texts()
    with _collector_paused():
        return [bounded.loads(text.encode("utf-8")) for text in texts.values()]


def shipped_texts() -> dict[str, str]:
    """The text of every shipped case file by its path under the spec folder, in path order,
    checked against the record.

    The files are proven to be the set :data:`RECORD` names by hashing their texts, which
    ``gaple vectors check`` proves equal to a fresh build; so they are trusted as built cases
    are, without the schema check and the replay that
    :func:`~gaple.conformance.vectors.committed.load_cases` gives files of unknown origin.

    Raises:
        NotShipped: the record or a case file cannot be read, or the files' line differs from
            the record's.
    """
    spec = spec_folder()
    folder = spec / VECTORS_DIR
    try:
        recorded = recorded_set()
        texts = _texts(spec, folder)
    except OSError as error:
        where = error.filename or folder
        msg = f"{where}: cannot read the shipped cases: {error.strerror}; reinstall gaple"
        raise NotShipped(msg) from None
    found = set_line(texts.items())
    if found != recorded:
        # Refused, not built instead: a damaged install would cost every run the seconds of
        # a build without saying why, and an edited case would be dropped unbeknown to whoever
        # edited it; --cases runs cases of one's own.
        msg = (
            f"{folder}: the case files are not the recorded vector set ({found}; "
            f"{spec / RECORD} records {recorded}): a partial or edited copy; reinstall gaple, "
            "run 'gaple vectors build' in a checkout, or give other cases with --cases"
        )
        raise NotShipped(msg)
    return texts


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cycle collector held off: the cases hold no cycles, and each of its passes
    while they are read would walk every case read so far again (four times the reading)."""
    paused = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if paused:
            gc.enable()


def _texts(spec: Path, folder: Path) -> dict[str, str]:
    """The text of every case file under ``folder`` by its path under ``spec``, in path order.

    Raises:
        OSError: a file cannot be read, or ``folder`` is missing.
    """
    if not folder.is_dir():
        raise FileNotFoundError(2, os.strerror(2), str(folder))
    paths = sorted((path.relative_to(spec).as_posix(), path) for path in folder.rglob("*.json"))
    # Bytes that are not UTF-8 read as U+FFFD: a damaged file then differs from the record.
    return {name: path.read_bytes().decode("utf-8", errors="replace") for name, path in paths}
