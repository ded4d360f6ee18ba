"""The package as a new user gets it: the wheel, built from this tree and installed with the
``conformance`` extra into a fresh virtual environment (no access to the source tree), runs
the commands of the package-index README, the bundled example engine and the example pytest
project."""

from __future__ import annotations

import os
import shlex
import shutil
import socket
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from test_template import fill_node, fill_python

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"

pytestmark = pytest.mark.slow


def _reachable(host: str) -> bool:
    try:
        socket.create_connection((host, 443), timeout=5).close()
    except OSError:
        return False
    return True


def _pip_cache() -> bool:
    found = subprocess.run(
        [sys.executable, "-m", "pip", "cache", "dir"], capture_output=True, text=True, check=False
    )
    folder = Path(found.stdout.strip())
    return found.returncode == 0 and folder.is_dir() and any(folder.iterdir())


ALONE = {name: value for name, value in os.environ.items() if name != "PYTHONPATH"}
"""The environment of the commands: without a PYTHONPATH that would put this tree's src/ before
the installed wheel (the suite may run with PYTHONPATH=src)."""


def run(*args: str | Path, cwd: Path) -> str:
    """Run a command, failing the test with its output if it fails; its standard output."""
    done = subprocess.run(
        [str(a) for a in args],
        cwd=cwd,
        env=ALONE,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, f"{args}: status {done.returncode}\n{done.stdout}{done.stderr}"
    return done.stdout


def _filled_templates_conform(gaple: Path, python: Path, tmp_path: Path) -> None:
    """``gaple template`` from the wheel alone: each adapter, its block filled with the calls
    into an example engine (copied beside it), conforms on pagat-4x7 (``run`` asserts status
    0); the Node one where ``node`` is installed (tests/test_template.py says so as a skip)."""
    for language, fill in (("node", fill_node), ("python", fill_python)):
        if language == "node" and shutil.which("node") is None:
            continue
        folder = tmp_path / f"{language}-adapter"
        run(gaple, "template", language, folder, cwd=tmp_path)
        fill(folder)
        runner = "node" if language == "node" else str(python)
        adapter = folder / ("adapter.mjs" if language == "node" else "adapter.py")
        command = shlex.join([runner, str(adapter)])
        out = run(
            *(gaple, "conformance", "run", "--impl", command, "--variant", "pagat-4x7"),
            cwd=tmp_path,
        )
        assert "CONFORMS" in out


def _assert_carries_the_vectors(names: set[str]) -> None:
    """The wheel carries the cases and the record of their set, which runs and --version read:
    every file of spec/vectors/, and no other under gaple/spec/vectors/."""
    committed = {
        f"gaple/{p.relative_to(ROOT).as_posix()}"
        for p in (ROOT / "spec" / "vectors").rglob("*")
        if p.is_file()
    }
    assert {n for n in names if n.startswith("gaple/spec/vectors/")} == committed
    assert "gaple/spec/vectors/vector-set.txt" in committed


def _assert_wheel_contents(wheel: Path) -> None:
    """What the wheel carries beside the code: the spec's texts and cases, the scenarios, the
    rules reference, the templates and the example engine."""
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    # The texts of spec/ ship inside the package, and the plugin is registered for pytest.
    assert {"gaple/spec/PROTOCOL.md", "gaple/spec/INTERPRETING.md"} <= names
    _assert_carries_the_vectors(names)
    assert "gaple/testing/plugin.py" in names
    # The hand-written scenarios are package data, read by gaple.conformance.vectors.builder.
    groups = ("open", "play", "turns", "score", "suwiki")
    assert {f"gaple/conformance/vectors/scenario_data/{group}.toml" for group in groups} <= names
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    # The build hook (hatch_build.py) put the rules reference in, without Sphinx's doctrees,
    # its record for rebuilding and the pages' reST sources.
    assert {"gaple/docs/index.html", "gaple/docs/rules/turn.html"} <= names
    assert not any(n.startswith(("gaple/docs/.", "gaple/docs/_sources/")) for n in names)
    # The templates of gaple template are package data.
    templates = ("node/adapter.mjs", "node/protocol.d.ts", "python/adapter.py")
    assert {f"gaple/templates/{name}" for name in templates} <= names
    # The example engine is the very files of examples/engine/, not a second copy.
    with zipfile.ZipFile(wheel) as archive:
        for name in ("adapter.py", "gaple_engine.py"):
            shipped = archive.read(f"gaple/example_engine/{name}")
            assert shipped == (EXAMPLES / "engine" / name).read_bytes()


def test_the_wheel_installs_and_works_in_a_fresh_environment(tmp_path: Path) -> None:
    if not _reachable("pypi.org") and not _pip_cache():
        pytest.skip("no network and no pip cache: cannot install the wheel's dependencies")
    wheels = tmp_path / "wheels"
    run(sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", wheels, ROOT, cwd=tmp_path)
    (wheel,) = wheels.glob("gaple-*.whl")
    _assert_wheel_contents(wheel)

    env_dir = tmp_path / "venv"
    run(sys.executable, "-m", "venv", env_dir, cwd=tmp_path)
    python = env_dir / "bin" / "python"
    gaple = env_dir / "bin" / "gaple"
    run(python, "-m", "pip", "install", "-q", f"{wheel}[conformance]", "pytest", cwd=tmp_path)
    where = run(python, "-c", "import gaple; print(gaple.__file__)", cwd=tmp_path)
    assert where.startswith(str(env_dir)), f"gaple imported from {where}, not the wheel"

    # The vector set as recorded beside the committed cases.
    recorded = (ROOT / "spec" / "vectors" / "vector-set.txt").read_text(encoding="utf-8")
    assert run(gaple, "--version", cwd=tmp_path) == f"gaple 0.1.0 (vectors: {recorded.strip()})\n"
    # The example engine from the wheel alone (run from tmp_path: the source tree is not read).
    engine = shlex.join([str(gaple), "conformance", "example-engine"])
    # One case, read from the wheel's copy of the cases.
    one = run(
        gaple, "conformance", "run", "--impl", engine, "--case", "combination-216", cwd=tmp_path
    )
    assert "CONFORMS: 1 case" in one
    report = run(gaple, "conformance", "run", "--validate", "--impl", engine, cwd=tmp_path)
    # The example engine conforms (make run shows it); --validate needs jsonschema, which the
    # extra brings.
    assert "engine example-engine 1.0" in report
    assert "CONFORMS" in report
    # The fuzzer needs Hypothesis, also from the extra; status 0: 20 hands, no disagreement.
    run(
        *(gaple, "conformance", "fuzz", "--impl", engine, "--variant", "domino4d"),
        *("--examples", "20", "--seed", "0"),
        cwd=tmp_path,
    )

    # gaple docs opens the wheel's copy: play.match-end is in the section Turn, on
    # rules/turn.html, anchored rule-play-match-end.
    url = run(gaple, "docs", "play.match-end", "--print-url", cwd=tmp_path).strip()
    page, _, anchor = url.partition("#")
    assert page.startswith(f"file://{env_dir}/")
    assert page.endswith("/gaple/docs/rules/turn.html")
    assert anchor == "rule-play-match-end"
    assert f'id="{anchor}"' in Path(page.removeprefix("file://")).read_text(encoding="utf-8")

    _filled_templates_conform(gaple, python, tmp_path)

    run(gaple, "spec", "--out", tmp_path / "spec", cwd=tmp_path)
    written = (tmp_path / "spec" / "PROTOCOL.md").read_bytes()
    assert written == (ROOT / "spec" / "PROTOCOL.md").read_bytes()
    # The installed package builds the committed cases byte for byte (from its scenario data).
    cases = {
        folder: {
            p.relative_to(folder): p.read_bytes() for p in (folder / "vectors").rglob("*.json")
        }
        for folder in (tmp_path / "spec", ROOT / "spec")
    }
    assert cases[tmp_path / "spec"] == cases[ROOT / "spec"]

    env = {**ALONE, "PYTHONDONTWRITEBYTECODE": "1"}
    project = subprocess.run(
        [python, "-m", "pytest", "-q", "-p", "no:cacheprovider", EXAMPLES / "pytest_project"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    # The example project: every case an item through the plugin, plus its property test.
    assert project.returncode == 0, project.stdout + project.stderr
    assert " passed" in project.stdout
    assert "failed" not in project.stdout
