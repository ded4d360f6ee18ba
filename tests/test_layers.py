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
    *("tiles", "sources", "registry", "rules", "presets", "hand"),
    *("deal", "state", "position", "result", "match", "simulate"),
    *(
        f"reference/{p.stem}"
        for p in sorted((Path(gaple.__file__).parent / "reference").glob("*.py"))
    ),
    *(f"engine/{p.stem}" for p in sorted((Path(gaple.__file__).parent / "engine").glob("*.py"))),
)
UPPER = (
    "gaple.io",
    "gaple.render",
    "gaple.explorer",
    "gaple.conformance",
    "gaple.cli",
    "gaple.testing",
)
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


# The house, bottom up. A module imports only from its own layer or the layers below it: the
# reference reads the tiles, the ruleset's data and the hand's plain types, nothing above.
LAYERS = (
    ("tiles",),
    ("sources", "registry", "rules", "presets"),
    ("hand",),
    ("reference",),
    ("engine",),
    ("state", "deal"),
    ("position", "result", "match", "simulate"),
    ("io", "render", "localdocs", "explorer"),
    ("conformance", "testing", "templates"),
    ("cli", "_start", "__main__"),
)


def module_name(path: Path) -> str:
    """The dotted name of a module file of the package (``gaple.reference.turn``)."""
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_names(module: str, path: Path) -> set[str]:
    """Every name ``path`` (the text of the module ``module``) imports, relative imports
    resolved: each module, and each name a ``from`` statement imports as ``module.name``
    (it may be a module itself: ``from gaple.conformance.wire import bounded``)."""
    package = module.split(".")
    if path.stem != "__init__":
        package = package[:-1]
    named: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            named.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join([*package[: len(package) - node.level + 1], *filter(None, [base])])
            named.add(base)
            named.update(f"{base}.{alias.name}" for alias in node.names if alias.name != "*")
    return named


def gaple_imports(module: str, path: Path) -> set[str]:
    """The modules of gaple that ``path`` (the text of ``module``) imports."""
    return {name for name in imported_names(module, path) if name in MODULES}


def layer_of(module: str) -> int:
    """The index in LAYERS of a module; a ``__main__`` is always at the top (it is a command)."""
    parts = module.split(".")
    if parts[-1] == "__main__":
        return len(LAYERS) - 1
    (index,) = [i for i, layer in enumerate(LAYERS) if parts[1] in layer]
    return index


MODULES = {module_name(path): path for path in PACKAGE.rglob("*.py")}


def upward_imports(modules: dict[str, Path]) -> list[str]:
    """Every import of a module from a layer above its own, as ``importer -> imported``.
    The package itself (``gaple``) is below everything: importing any module imports it."""
    return sorted(
        f"{module} -> {imported}"
        for module, path in modules.items()
        if module != "gaple"
        for imported in gaple_imports(module, path)
        if imported != "gaple" and layer_of(imported) > layer_of(module)
    )


def test_every_module_of_the_package_has_a_layer() -> None:
    for module in MODULES:
        if module != "gaple":
            layer_of(module)


def test_no_module_imports_from_a_layer_above_its_own() -> None:
    assert upward_imports(MODULES) == []


def test_the_layer_order_catches_the_reference_importing_the_state_api(tmp_path: Path) -> None:
    # A planted break: a copy of the reference that imports gaple.state (the import circle
    # this order replaced) is named.
    turn = PACKAGE / "reference" / "turn.py"
    broken = tmp_path / "turn.py"
    broken.write_text("from gaple.state import legal_moves\n" + turn.read_text(encoding="utf-8"))
    assert upward_imports({"gaple.reference.turn": broken}) == [
        "gaple.reference.turn -> gaple.state"
    ]


def import_cycles(modules: dict[str, Path]) -> list[list[str]]:
    """The import circles among ``modules`` (Tarjan's strongly connected components)."""
    edges = {
        m: sorted(gaple_imports(m, p) & modules.keys() - {m, "gaple"}) for m, p in modules.items()
    }
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for other in edges[module]:
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            circle = stack[stack.index(module) :]
            del stack[stack.index(module) :]
            if len(circle) > 1:
                cycles.append(sorted(circle))

    for module in sorted(edges):
        if module not in index:
            visit(module)
    return cycles


def test_no_import_circle_below_the_command_line() -> None:
    # The command line's first modules import each other on purpose (the signal window of
    # gaple.cli.signals); everything below it is a straight order.
    below = {m: p for m, p in MODULES.items() if m == "gaple" or layer_of(m) < len(LAYERS) - 1}
    assert import_cycles(below) == []


def test_the_circle_check_sees_a_circle(tmp_path: Path) -> None:
    # A planted break: the reference's turn module and the state API importing each other.
    turn = tmp_path / "turn.py"
    turn.write_text("import gaple.state\n")
    state = tmp_path / "state.py"
    state.write_text("import gaple.reference.turn\n")
    assert import_cycles({"gaple.reference.turn": turn, "gaple.state": state}) == [
        ["gaple.reference.turn", "gaple.state"]
    ]


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
