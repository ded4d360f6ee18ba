"""Running ``gaple conformance merge`` in process, for the tests of each kind of report."""

from __future__ import annotations

from pathlib import Path

import pytest

from gaple.cli import main


def merge(capsys: pytest.CaptureFixture[str], *reports: str, out: Path) -> tuple[int, str, str]:
    """The exit status, standard output and standard error of one merge."""
    status = main(["conformance", "merge", *reports, "--out", str(out)])
    said = capsys.readouterr()
    return status, said.out, said.err


def refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, reports: list[str], words: str
) -> None:
    """The merge of ``reports`` is refused: status 2, nothing written, and one line on standard
    error that says ``words``."""
    status, said, err = merge(capsys, *reports, out=tmp_path / "merged.json")
    assert (status, said) == (2, "")
    assert err.startswith("gaple conformance: error: ")
    assert words in err
    assert len(err.splitlines()) == 1
    assert not (tmp_path / "merged.json").exists()
