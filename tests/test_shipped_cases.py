"""The cases ship with gaple and are read, not built: ``gaple --version`` reads the line recorded
beside them, a run and the pytest plugin read the case files, and a copy that is not the
recorded set (a file missing or edited) is refused in one line naming its folder."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from gaple.cli import main
from gaple.conformance.vectors import packaged, tailor
from gaple.conformance.vectors.packaged import RECORD, NotShipped, shipped_cases, vector_set_of
from gaple.testing import plugin
from test_packaging import committed_vector_line

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "spec"

BUILDER = (
    "gaple.conformance.vectors.scenarios",
    "gaple.conformance.vectors.builder",
    "gaple.conformance.vectors.committed",
)
"""The modules that build the cases: what reading them must not import."""


def imported(*args: str) -> set[str]:
    """The modules ``python -X importtime -m gaple ARGS`` imports (it reports every one)."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "gaple", *args],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    found = re.findall(r"^import time:\s+\d+ \|\s+\d+ \|\s*(\S+)$", done.stderr, re.MULTILINE)
    assert "gaple.cli" in found  # the pattern reads the report
    return set(found)


def test_the_record_is_the_line_of_the_committed_case_files() -> None:
    # Counted and hashed here from the files by the recipe --version documents; gaple vectors
    # check (tests/test_vectors.py) proves the files and the record equal to a fresh build.
    assert (SPEC / RECORD).read_text(encoding="utf-8") == committed_vector_line() + "\n"


def test_version_imports_nothing_that_builds_cases() -> None:
    # Nor the case assembly and the situation facts beneath the builder.
    heavy = {*BUILDER, "gaple.conformance.vectors.cases", "gaple.conformance.vectors.situations"}
    assert imported("--version").isdisjoint(heavy)


def test_a_run_of_one_case_reads_it_without_building() -> None:
    modules = imported("conformance", "run", "--reference", "--case", "combination-216")
    assert "gaple.conformance.vectors.packaged" in modules
    assert modules.isdisjoint(BUILDER)


def test_the_shipped_cases_are_the_committed_files_in_path_order() -> None:
    files = sorted(SPEC.joinpath("vectors", "v1").rglob("*.json"), key=lambda p: p.as_posix())
    assert [case["id"] for case in shipped_cases()] == [path.stem for path in files]


@pytest.fixture
def copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the shipped vectors and their record, read instead of the checkout's."""
    spec = tmp_path / "spec"
    shutil.copytree(SPEC / "vectors", spec / "vectors")
    monkeypatch.setattr(packaged, "spec_folder", lambda: spec)
    return spec


def _one_error(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    return err[0]


@pytest.mark.usefixtures("copy")
def test_the_copy_itself_runs(capsys: pytest.CaptureFixture[str]) -> None:
    # The fixture is sound: the whole copy is the recorded set, and a run reads it.
    assert main(["conformance", "run", "--reference", "--case", "combination-216"]) == 0
    assert "CONFORMS: 1 case" in capsys.readouterr().out


def _recorded(copy: Path) -> str:
    return (copy / RECORD).read_text(encoding="utf-8").strip()


def test_a_partial_copy_is_refused_in_one_line_naming_its_folder(
    copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (copy / "vectors" / "v1" / "turns" / "turns-pass-option.json").unlink()
    assert main(["conformance", "run", "--reference"]) == 2
    error = _one_error(capsys)
    # 559 files where 560 are recorded.
    assert error.startswith(
        f"gaple conformance: error: {copy / 'vectors' / 'v1'}: the case files are not the "
        "recorded vector set (case format 1, vectors/v1, 559 cases, sha256 "
    )
    assert f"{copy / RECORD} records {_recorded(copy)}): a partial or edited copy" in error


def test_an_edited_case_is_refused(copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    case = copy / "vectors" / "v1" / "open" / "open-starter-begins-line.json"
    case.write_text(case.read_text(encoding="utf-8").replace('"id"', '"id" '), encoding="utf-8")
    assert main(["conformance", "run", "--reference", "--case", "open-starter-begins-line"]) == 2
    # As many files as recorded, one of them other than built: the hash differs.
    assert "(case format 1, vectors/v1, 560 cases, sha256 " in _one_error(capsys)


def test_a_missing_record_is_refused(copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (copy / RECORD).unlink()
    assert main(["conformance", "run", "--reference"]) == 2
    assert _one_error(capsys) == (
        f"gaple conformance: error: {copy / RECORD}: cannot read the shipped cases: "
        "No such file or directory; reinstall gaple"
    )


def test_the_plugin_names_a_partial_copy_as_its_collection_error(copy: Path) -> None:
    shutil.rmtree(copy / "vectors" / "v1" / "score")

    class Config:
        stash = pytest.Stash()

    config: Any = Config()
    with pytest.raises(plugin.ConformanceFile.CollectError, match="a partial or edited copy"):
        plugin._cases(config)


def test_a_missing_folder_is_named(copy: Path) -> None:
    shutil.rmtree(copy / "vectors" / "v1")
    with pytest.raises(NotShipped) as raised:
        shipped_cases()
    assert str(raised.value) == (
        f"{copy / 'vectors' / 'v1'}: cannot read the shipped cases: No such file or directory; "
        "reinstall gaple"
    )


def test_a_scoped_run_names_the_shipped_set_with_the_cases_made_for_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # pagat-4x7 with a blocked hand passing: cells no shipped case reaches, so the run makes
    # cases for them. Made here, not drawn (seconds): one shipped case under another ID.
    made = dict(shipped_cases()[0], id="tailored-test-001", topic="tailored")
    keys: list[str] = []

    def cached_cases(_scope: object, _cases: object, version: str) -> list[dict[str, Any]]:
        keys.append(version)
        return [made]

    monkeypatch.setattr(tailor, "cached_cases", cached_cases)
    report = tmp_path / "run.jsonl"
    argv = ["conformance", "run", "--reference", "--variant", "pagat-4x7"]
    main([*argv, "--set", "blocked_action=pass", "--report", str(report)])
    header = json.loads(report.read_text(encoding="utf-8").splitlines()[0])
    # The cache is keyed by the shipped set's line; the report names the set the run chose
    # from, the shipped cases and the one made, hashed as vector_set_of hashes any cases.
    assert keys == [committed_vector_line()]
    assert header["vectors"] == vector_set_of([*shipped_cases(), made])
    assert header["vectors"].startswith("case format 1, vectors/v1, 561 cases, sha256 ")
