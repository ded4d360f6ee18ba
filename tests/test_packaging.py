"""What a user of the installed package meets first: ``gaple --version``, ``python -m gaple``
and ``gaple spec``, which writes the language-neutral spec from the package alone."""

from __future__ import annotations

import doctest
import hashlib
import json
import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from gaple.cli import main
from gaple.conformance.vectors.committed import build, vector_set
from gaple.conformance.wire import shipped
from gaple.sources import SOURCES

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "spec"


def committed_vector_line() -> str:
    """The vector-set part of --version, computed from the committed files by the recipe that
    --version documents: SHA-256 over each case's path (under spec/) and text, in path order."""
    cases = sorted(
        path.relative_to(SPEC).as_posix() for path in (SPEC / "vectors" / "v1").rglob("*.json")
    )
    digest = hashlib.sha256()
    for path in cases:
        digest.update(f"{path}\n{(SPEC / path).read_text(encoding='utf-8')}\n".encode())
    return f"case format 1, vectors/v1, {len(cases)} cases, sha256 {digest.hexdigest()[:16]}"


def test_version_names_gaple_and_the_committed_vector_set() -> None:
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    shown = subprocess.run(
        [sys.executable, "-m", "gaple", "--version"], capture_output=True, text=True, check=True
    ).stdout
    # The version is pyproject's; the vectors are those committed (tests/test_vectors.py
    # proves they equal a fresh build), counted and hashed here from the files themselves.
    assert shown == f"gaple {declared} (vectors: {committed_vector_line()})\n"


def test_the_vector_hash_changes_with_any_case() -> None:
    # The hash can fail to match: one character more in one case gives another line.
    files = build()
    path = next(p for p in sorted(files) if p.startswith("vectors/v1/"))
    changed = files | {path: files[path] + " "}
    assert vector_set(changed) != vector_set(files)


def test_python_m_gaple_is_the_command() -> None:
    ran = subprocess.run(
        [sys.executable, "-m", "gaple", "play", "--variant", "nope"],
        capture_output=True,
        text=True,
        check=False,
    )
    # The same one-line usage error and status as the gaple command.
    assert ran.returncode == 2
    assert ran.stderr.startswith("gaple play: error:")
    assert len(ran.stderr.splitlines()) == 1


def test_spec_writes_the_repository_spec_folder_exactly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "spec"
    assert main(["spec", "--out", str(out)]) == 0
    assert "PROTOCOL.md, INTERPRETING.md" in capsys.readouterr().out
    # Every committed file of spec/ (texts, schemas, cases, the marker), byte for byte, and
    # nothing else.
    committed = {p.relative_to(SPEC): p.read_bytes() for p in SPEC.rglob("*") if p.is_file()}
    written = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert set(written) == set(committed)
    assert written == committed


def test_spec_refuses_a_folder_not_its_own(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "notes.txt").write_text("mine")
    assert main(["spec", "--out", str(tmp_path)]) == 2
    error = capsys.readouterr().err
    assert error.startswith(f"gaple spec: error: {tmp_path}: not empty")
    assert (tmp_path / "notes.txt").read_text() == "mine"


def test_the_package_index_readme_starts_with_pip_install_and_its_example_runs() -> None:
    text = (ROOT / "README.pypi.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```(\w+)\n(.*?)```", text, flags=re.DOTALL)
    # The first thing a reader of the package index can type is the install command.
    assert blocks[0][0] == "console"
    assert blocks[0][1].startswith("$ pip install gaple")
    examples = [body for language, body in blocks if language == "python" and ">>>" in body]
    assert examples
    for body in examples:
        test = doctest.DocTestParser().get_doctest(body, {}, "README.pypi.md", None, 0)
        assert doctest.DocTestRunner().run(test).failed == 0


def test_the_package_index_readme_names_every_dependency_of_the_core() -> None:
    # pyproject lists attrs and, on CPython, orjson; a README saying "the only dependency is
    # attrs" would be wrong about the wheel's Requires-Dist.
    text = (ROOT / "README.pypi.md").read_text(encoding="utf-8")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    names = [re.split(r"[<>=!~;\s\[]", spec, maxsplit=1)[0] for spec in project["dependencies"]]
    assert names == ["attrs", "orjson"]
    assert [name for name in names if f"`{name}`" not in text] == []
    assert "only dependency" not in text


def test_the_project_urls_are_addresses_the_repository_itself_names() -> None:
    # No public home of the project is recorded anywhere in the repository, so the metadata
    # names only an address it cites already: the rules source pagat.com (gaple.sources).
    urls = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["urls"]
    cited = {source.url for source in SOURCES.values() if source.url}
    assert urls == {"Rules source (pagat.com)": "http://www.pagat.com/tile/wdom/gaple.html"}
    assert set(urls.values()) <= cited


def test_the_readme_of_the_package_is_the_package_index_one() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["readme"] == "README.pypi.md"
    # The repository README keeps its two commands first.
    first = re.search(r"```console\n(.*?)```", (ROOT / "README.md").read_text(), re.DOTALL)
    assert first is not None
    commands = [line.split()[1:3] for line in first.group(1).splitlines() if line.startswith("$")]
    assert commands == [["make", "run"], ["make", "test"]]


@pytest.mark.parametrize(
    ("missing", "args"),
    [
        ("hypothesis", ["conformance", "fuzz", "--reference", "--examples", "1"]),
        ("jsonschema", ["conformance", "run", "--impl", "true", "--validate"]),
    ],
)
def test_a_missing_extra_is_named_in_one_line(
    missing: str,
    args: list[str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # A None entry in sys.modules makes the import fail as if the package were not installed;
    # the fuzzer module is dropped so that it is imported (and fails) afresh.
    monkeypatch.setitem(sys.modules, missing, None)
    monkeypatch.delitem(sys.modules, "gaple.conformance.fuzzer.fuzz", raising=False)
    assert main(args) == 2
    error = capsys.readouterr().err
    assert error.endswith("pip install 'gaple[conformance]'\n")
    assert len(error.splitlines()) == 1


def test_the_example_engine_command_serves_the_example_adapter() -> None:
    requests = '{"type": "hello", "protocol": 1}\n{"type": "bye"}\n'
    served = subprocess.run(
        [sys.executable, "-m", "gaple", "conformance", "example-engine"],
        input=requests,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    # The example adapter's own hello (examples/engine/adapter.py: NAME, the four levels it
    # declares, batch), then its bye, and it exits 0 after bye.
    hello, bye = (json.loads(line) for line in served.stdout.splitlines())
    assert (hello["name"], hello["levels"]) == (
        "example-engine",
        ["line", "turns", "count", "points"],
    )
    assert bye == {"type": "bye"}
    assert served.returncode == 0, served.stderr


def test_the_example_engine_command_conforms(capsys: pytest.CaptureFixture[str]) -> None:
    impl = shlex.join([sys.executable, "-m", "gaple", "conformance", "example-engine"])
    assert main(["conformance", "run", "--impl", impl, "--variant", "domino4d"]) == 0
    assert "engine example-engine 1.0" in capsys.readouterr().out


def test_a_folder_the_wheel_carries_is_read_from_the_package_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A checkout: <root>/src/gaple is the package, <root>/examples/engine the source.
    package = tmp_path / "src" / "gaple"
    (tmp_path / "examples" / "engine").mkdir(parents=True)
    package.mkdir(parents=True)
    monkeypatch.setattr(shipped, "PACKAGE", package)
    # Without the wheel's copy the checkout's folder is read; with it, the package's.
    assert shipped.shipped_folder("example_engine", "examples/engine") == (
        tmp_path / "examples" / "engine"
    )
    (package / "example_engine").mkdir()
    assert shipped.shipped_folder("example_engine", "examples/engine") == package / "example_engine"


def test_a_missing_example_engine_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # An install that has neither the wheel's copy nor a checkout beside it: the folder found
    # holds no adapter.py.
    monkeypatch.setattr("gaple.cli.conformance.example_engine_folder", lambda: tmp_path)
    assert main(["conformance", "example-engine"]) == 2
    error = capsys.readouterr().err
    assert error == (
        "gaple conformance: error: the example engine is not installed: no adapter.py in "
        f"{tmp_path}\n"
    )
