"""The core never imports the layers built on top of it (JSON forms, pictures, the
conformance kit, the command line), so the rules can be read and reused without them."""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

import gaple

CORE = (
    *("tiles", "sources", "registry", "rules", "presets"),
    *("deal", "state", "position", "result", "match", "simulate"),
    *(
        f"reference/{p.stem}"
        for p in sorted((Path(gaple.__file__).parent / "reference").glob("*.py"))
    ),
    *(f"engine/{p.stem}" for p in sorted((Path(gaple.__file__).parent / "engine").glob("*.py"))),
)
UPPER = ("gaple.io", "gaple.render", "gaple.conformance", "gaple.cli", "gaple.testing")
# Test tools are only for those who install the conformance extra, never for the core.
TEST_TOOLS = ("hypothesis", "pytest")
PACKAGE = Path(gaple.__file__).parent


def imported_modules(path: Path) -> set[str]:
    """Every module an ``import`` or ``from ... import`` statement in ``path`` names."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


@pytest.mark.parametrize("module", CORE)
def test_the_core_never_imports_an_upper_layer(module: str) -> None:
    # The reference is the rules themselves and the engine their fast twin: both core.
    imported = imported_modules(PACKAGE / f"{module}.py")
    upward = sorted(name for name in imported if name.startswith(UPPER + TEST_TOOLS))
    assert upward == [], f"gaple.{module} imports {upward}"


def test_the_check_sees_an_upward_import(tmp_path: Path) -> None:
    # The check itself must be able to fail: a file importing gaple.io is caught.
    sample = tmp_path / "sample.py"
    sample.write_text("from gaple.io import state_to_json\nimport gaple.cli\n")
    assert imported_modules(sample) >= {"gaple.io", "gaple.cli"}


def test_the_pytest_plugin_loads_nothing_heavy_until_an_engine_is_named() -> None:
    # pytest loads the plugin (entry point pytest11) in every project of an environment that
    # has gaple; importing it must not pull in Hypothesis or the conformance vectors.
    code = (
        "import sys, gaple, gaple.testing.plugin\n"
        "print(sorted(m for m in sys.modules if m.startswith(('hypothesis', 'gaple.conformance'))))"
    )
    shown = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert shown.strip() == "[]"


def test_the_import_check_sees_hypothesis() -> None:
    # The subprocess check above can fail: a module importing Hypothesis does list it.
    code = "import sys, hypothesis; print(sorted(m for m in sys.modules if m == 'hypothesis'))"
    shown = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert shown.strip() == "['hypothesis']"


def test_the_command_imports_only_its_signal_catcher_before_main() -> None:
    # What runs before gaple.cli.main holds SIGINT and SIGTERM is the window in which a signal
    # ends gaple with a traceback (docs/guide/conformance.rst, "Stopping a run"). Before: the
    # whole core and the conformance kit's escaping, about 0.25 s, 40 more modules of gaple.
    code = (
        "import sys\n"
        "before = set(sys.modules)\n"
        "import gaple.cli\n"
        "print(sorted(set(sys.modules) - before))"
    )
    shown = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    # The package and the command line's first lines, the module of the handlers, and the
    # compiler's __future__ (their annotations): no enum, no argparse, none of the rules.
    assert shown.strip() == "['__future__', 'gaple', 'gaple.cli', 'gaple.cli.signals']"


def test_the_package_names_each_public_name_once_with_its_module() -> None:
    # gaple imports its names on first use: what type checkers read (the imports under
    # TYPE_CHECKING), what is exported (__all__) and where each is found (_HOMES) must agree.
    tree = ast.parse((PACKAGE / "__init__.py").read_text(encoding="utf-8"))
    (guarded,) = [
        node
        for node in tree.body
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name)
        if node.test.id == "TYPE_CHECKING"
    ]
    read = {
        alias.name: f"{node.module}"
        for node in guarded.body
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }
    homes = gaple._HOMES
    assert read == homes
    assert sorted(gaple.__all__) == sorted(homes)
    for name, module in homes.items():
        assert getattr(gaple, name) is getattr(importlib.import_module(module), name), name
    assert set(gaple.__all__) <= set(dir(gaple))
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        gaple.nope  # noqa: B018
