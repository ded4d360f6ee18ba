"""The conformance kit is built in parts, bottom up: what crosses the boundary (wire), the
vectors, the transcript checker, the runner, the fuzzer. A module imports only from its own part
or the parts below it, so each part can be read, and reused, without those above it."""

from __future__ import annotations

import importlib
from pathlib import Path

import gaple.conformance
from test_layers import imported_names

KIT = Path(gaple.conformance.__file__).parent

PARTS = ("wire", "vectors", "checker", "runner", "fuzzer")
"""The parts of the kit, bottom up."""

ALIASES = {"engines": "runner.engines", "situations": "vectors.situations"}
"""The old paths engine authors were shown (``examples/``, ``spec/PROTOCOL.md``), each kept as a
package that re-exports the module now in a part."""

OUTSIDE = ("__init__", "__main__")
"""The kit's own package and its command (``python -m gaple.conformance``), above every part."""


def kit_modules() -> dict[str, Path]:
    """Every module file of the kit by its name below ``gaple.conformance`` (``runner.run``)."""
    modules = {}
    for path in sorted(KIT.rglob("*.py")):
        parts = path.relative_to(KIT).with_suffix("").parts
        if parts[-1] == "__init__" and len(parts) > 1:
            parts = parts[:-1]
        modules[".".join(parts)] = path
    return modules


def kit_imports(module: str, path: Path) -> set[str]:
    """The modules of the kit that ``path`` (the text of ``module``) imports, as names below
    ``gaple.conformance``; relative imports resolved, a name a ``from`` statement imports
    counted as a module too (``from gaple.conformance.wire import bounded``)."""
    named = imported_names(f"gaple.conformance.{module}", path)
    prefix = "gaple.conformance."
    return {name.removeprefix(prefix) for name in named if name.startswith(prefix)}


def part_of(module: str) -> str | None:
    """The part a module of the kit belongs to, by its first name; ``None`` for none."""
    first = module.partition(".")[0]
    return first if first in PARTS else None


def upward_imports(modules: dict[str, Path]) -> list[str]:
    """Every import of a module of a part from a part above it (directly or by an old path), as
    ``importer -> imported``."""
    found = []
    for module, path in modules.items():
        part = part_of(module)
        if part is None:
            continue
        for imported in kit_imports(module, path):
            # An old path is the part it re-exports: no way round the order.
            first = imported.partition(".")[0]
            other = part_of(ALIASES.get(first, first))
            if other is not None and PARTS.index(other) > PARTS.index(part):
                found.append(f"{module} -> {imported}")
    return sorted(found)


def homeless(modules: dict[str, Path]) -> list[str]:
    """The modules of the kit in no part, neither an alias nor the package or its command."""
    return sorted(m for m in modules if part_of(m) is None and m not in {*ALIASES, *OUTSIDE})


def test_no_module_of_a_part_imports_a_part_above_it() -> None:
    assert upward_imports(kit_modules()) == []


def test_the_check_catches_the_wire_importing_the_runner(tmp_path: Path) -> None:
    # A planted break: the bounded reader importing the runner, absolutely, relatively and by
    # the old path of the engines.
    bounded = KIT / "wire" / "bounded.py"
    broken = tmp_path / "bounded.py"
    broken.write_text(
        "from gaple.conformance.runner.run import run_suite\n"
        "from ..fuzzer import fuzz\n"
        "import gaple.conformance.engines\n" + bounded.read_text(encoding="utf-8")
    )
    assert upward_imports({"wire.bounded": broken}) == [
        "wire.bounded -> engines",
        "wire.bounded -> fuzzer",
        "wire.bounded -> fuzzer.fuzz",
        "wire.bounded -> runner.run",
        "wire.bounded -> runner.run.run_suite",
    ]


def test_the_check_lets_a_part_import_its_own_part_and_those_below(tmp_path: Path) -> None:
    # The other side of the order: the runner reading the vectors, the wire and itself passes.
    sample = tmp_path / "sample.py"
    sample.write_text(
        "from gaple.conformance.vectors.cases import LEVELS\n"
        "from gaple.conformance.wire import bounded\n"
        "from . import selection\n"
    )
    assert upward_imports({"runner.sample": sample}) == []


def test_every_module_of_the_kit_belongs_to_one_part() -> None:
    modules = kit_modules()
    assert homeless(modules) == []
    # Each part is a folder of the kit, so a module's first name gives its one part.
    assert sorted(p.name for p in KIT.iterdir() if (p / "__init__.py").is_file()) == sorted(
        [*PARTS, *ALIASES]
    )


def test_the_check_catches_a_module_left_outside_the_parts(tmp_path: Path) -> None:
    # A planted break: a module dropped into the kit's folder beside the parts.
    stray = tmp_path / "stray.py"
    stray.write_text("")
    assert homeless({**kit_modules(), "stray": stray}) == ["stray"]


def test_each_old_path_is_the_module_in_its_part() -> None:
    # An engine author's `from gaple.conformance.engines import SubprocessEngine` still works,
    # and gives the very class the runner uses.
    for old, new in ALIASES.items():
        alias = importlib.import_module(f"gaple.conformance.{old}")
        module = importlib.import_module(f"gaple.conformance.{new}")
        assert module.__all__, new
        for name in module.__all__:
            assert getattr(alias, name) is getattr(module, name), f"{old}.{name}"
        assert kit_imports(old, KIT / old / "__init__.py") == {new}
