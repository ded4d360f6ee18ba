"""The core never imports the layers built on top of it (JSON forms, pictures, the
conformance kit, the command line), so the rules can be read and reused without them."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import gaple

CORE = (
    *("tiles", "sources", "registry", "rules", "presets"),
    *("deal", "state", "result", "match", "simulate"),
)
UPPER = ("gaple.io", "gaple.render", "gaple.conformance", "gaple.cli")
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
    imported = imported_modules(PACKAGE / f"{module}.py")
    upward = sorted(name for name in imported if name.startswith(UPPER))
    assert upward == [], f"gaple.{module} imports {upward}"


def test_the_check_sees_an_upward_import(tmp_path: Path) -> None:
    # The check itself must be able to fail: a file importing gaple.io is caught.
    sample = tmp_path / "sample.py"
    sample.write_text("from gaple.io import state_to_json\nimport gaple.cli\n")
    assert imported_modules(sample) >= {"gaple.io", "gaple.cli"}
