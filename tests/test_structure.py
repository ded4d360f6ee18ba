"""The house rules of the code, each checked on the source and each shown able to fail.

* One rule, one place: every rule of the registry is decided by exactly one function of
  :mod:`gaple.reference`, marked ``@decides``.
* No module imports another module's private (underscore) names, nor reaches them as
  ``module._name``: what one module needs of another is public there, documented and typed.
  Tests may reach into the module they test.
* A rule ID named in a text of the package (a docstring, a message, a description) is one
  of the registry's, so that a reader who follows it finds the rule.
* Bitset primitives (the masks of a state, ``iter_bits``, a tile set's ``mask``, ``suit``
  and ``unpack``) live in the engine and in the few modules listed below with their reason;
  the reference and everything that classifies read tiles.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import pkgutil
import re
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

import gaple
import gaple.reference
from gaple.reference import deciding
from gaple.registry import RULES

PACKAGE = Path(gaple.__file__).parent
ROOT = PACKAGE.parent.parent
NON_TEST_CODE = (PACKAGE, ROOT / "tools", ROOT / "examples", ROOT / "benchmarks", ROOT / "docs")

BITSET_NAMES = frozenset({"iter_bits"})
BITSET_ATTRIBUTES = frozenset(
    {"hand_masks", "discard_masks", "line_mask", "scoring_masks", "mask", "suit", "unpack"}
)
BITSET_MODULES = {
    "engine": "the fast engine: what it is for",
    "tiles.py": "defines the bitsets: a tile set's bit order, masks, suits and iter_bits",
    "hand.py": "a State holds its groups of tiles as bitsets and unpacks them as tiles; a "
    "Position keeps each seat's scoring set as a bitset for the engine's scoring",
    "deal.py": "a seeded or given order gives the engine its hands as bitsets (deal_indices)",
    "conformance/checker/transcript.py": "gaple check's fast path replays canonical logs on the "
    "engine",
}
"""The modules (relative to the package; a folder counts for all its files) that may use bitset
primitives, and why."""


def _python_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*.py") if "_build" not in p.parts)


def private_imports(path: Path) -> list[str]:
    """Each ``from gaple... import _name`` in ``path`` (dunder names such as ``__version__``
    are public by convention)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("gaple"):
            found += [
                f"{node.module}.{alias.name} (line {node.lineno})"
                for alias in node.names
                if alias.name.startswith("_") and not alias.name.startswith("__")
            ]
    return found


def private_attribute_uses(path: Path) -> list[str]:
    """Each ``module._name`` in ``path`` where ``module`` is one of gaple's, however imported
    (``import gaple.x as m``, ``from gaple import x``, ``gaple.x`` through ``import gaple``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    bound: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "gaple":
                    bound[alias.asname or "gaple"] = alias.name if alias.asname else "gaple"
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "gaple":
            for alias in node.names:
                bound[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    found = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Attribute) and _private(node.attr)):
            continue
        head, _, rest = (_dotted(node.value) or "").partition(".")
        full = bound.get(head, "") + (f".{rest}" if rest else "")
        if head in bound and _is_module(full):
            found.append(f"{full}.{node.attr} (line {node.lineno})")
    return found


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _dotted(node: ast.expr) -> str | None:
    """``a.b.c`` for a chain of names and attributes, else ``None``."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        inner = _dotted(node.value)
        return None if inner is None else f"{inner}.{node.attr}"
    return None


def _is_module(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):  # a name inside a module, not a module
        return False


def bitset_uses(path: Path) -> list[str]:
    """Each use of a bitset primitive in ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id in BITSET_NAMES:
            found.append(f"{node.id} (line {node.lineno})")
        elif isinstance(node, ast.Attribute) and node.attr in BITSET_ATTRIBUTES:
            found.append(f".{node.attr} (line {node.lineno})")
        elif isinstance(node, ast.alias) and node.name in BITSET_NAMES:
            found.append(f"import {node.name}")
    return found


def _may_use_bitsets(path: Path) -> bool:
    relative = path.relative_to(PACKAGE).as_posix()
    return any(
        relative == allowed or relative.startswith(f"{allowed}/") for allowed in BITSET_MODULES
    )


_PREFIX = "(?:" + "|".join(sorted({rule_id.split(".")[0] for rule_id in RULES})) + ")"
_RULE_LIKE = re.compile(
    rf"(?<![\w.])({_PREFIX}\.[a-z][a-z0-9]*(?:-[a-z0-9]+)+|{_PREFIX}\.[a-z]+(?=[),;`]))"
)
"""A rule ID as texts write it: a prefix of the registry's, a dot and hyphenated words (or one
word, just before a closing parenthesis, a comma, a semicolon or a backquote)."""


def unknown_rule_ids(path: Path) -> list[str]:
    """Each rule-like name in a string of ``path`` (a docstring, a message: any string with a
    space) that the registry does not have; doctest lines (code) are left out."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and " " in node.value:
            prose = (
                line
                for line in node.value.splitlines()
                if not line.lstrip().startswith((">>>", "..."))
            )
            found += [
                f"{match.group(1)} (line {node.lineno})"
                for line in prose
                for match in _RULE_LIKE.finditer(line)
                if match.group(1) not in RULES
            ]
    return found


def deciders_problems(table: dict[str, list[Callable[..., object]]]) -> list[str]:
    """Each registry rule that is not decided by exactly one reference function, and each
    decider that lives outside :mod:`gaple.reference`."""
    problems = []
    for rule_id in RULES:
        functions = table.get(rule_id, [])
        if len(functions) != 1:
            names = ", ".join(f"{f.__module__}.{f.__qualname__}" for f in functions) or "none"
            problems.append(f"{rule_id}: decided by {len(functions)} functions ({names})")
    for rule_id, functions in table.items():
        problems += [
            f"{rule_id}: {f.__module__}.{f.__qualname__} is outside gaple.reference"
            for f in functions
            if not f.__module__.startswith("gaple.reference.")
        ]
    return problems


def import_every_module() -> list[str]:
    """Import every module of the package (but the ``__main__`` entries, which run a command),
    so that every ``@decides`` has run, wherever it is: the table holds only what is imported."""
    names = [
        info.name
        for info in pkgutil.walk_packages(gaple.__path__, "gaple.")
        if not info.name.endswith(".__main__")
    ]
    for name in names:
        importlib.import_module(name)
    return names


def test_every_rule_is_decided_by_exactly_one_reference_function() -> None:
    # Before (issue 35): only the modules the test session had imported were counted, so a
    # @decides in gaple.match passed when this test ran alone.
    import_every_module()
    assert deciders_problems(deciding.DECIDERS) == []


def test_a_decider_in_a_module_nothing_imports_is_found(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Planted: a module of the package that no other imports, deciding turn.order again.
    (tmp_path / "planted_decider.py").write_text(
        "from gaple.reference.deciding import decides\n\n"
        "@decides('turn.order')\n"
        "def next_seat_again() -> None: ...\n"
    )
    table = {rule_id: list(functions) for rule_id, functions in deciding.DECIDERS.items()}
    monkeypatch.setattr(deciding, "DECIDERS", table)
    monkeypatch.setattr(gaple, "__path__", [*gaple.__path__, str(tmp_path)])
    monkeypatch.delitem(sys.modules, "gaple.planted_decider", raising=False)
    assert "gaple.planted_decider" in import_every_module()
    problems = deciders_problems(table)
    assert any(p.startswith("turn.order: decided by 2") for p in problems), problems
    assert any("gaple.planted_decider.next_seat_again is outside" in p for p in problems)


def test_the_decider_check_sees_a_rule_decided_twice_and_one_not_decided() -> None:
    table = {rule_id: list(functions) for rule_id, functions in deciding.DECIDERS.items()}
    table["turn.forced-play"] = [*table.get("turn.forced-play", []), _outsider]
    table.pop("block.pass", None)
    problems = deciders_problems(table)
    assert any(p.startswith("turn.forced-play: decided by 2") for p in problems), problems
    assert any(p.startswith("block.pass: decided by 0") for p in problems), problems
    assert any("outside gaple.reference" in p for p in problems), problems


def _outsider() -> None:
    """A function outside the reference, for the check above to find."""


def test_decides_refuses_a_rule_id_the_registry_does_not_have() -> None:
    with pytest.raises(ValueError, match=r"not in the registry: turn\.nonsense"):
        deciding.decides("turn.nonsense")
    with pytest.raises(ValueError, match="at least one rule ID"):
        deciding.decides()


@pytest.mark.parametrize(
    "path",
    [p for folder in NON_TEST_CODE for p in _python_files(folder)],
    ids=lambda p: p.relative_to(ROOT).as_posix(),
)
def test_no_module_imports_another_modules_private_names(path: Path) -> None:
    assert private_imports(path) == []
    # Before (issue 35): reaching in as module._name passed.
    assert private_attribute_uses(path) == []


def test_the_private_attribute_check_sees_a_module_reached_into(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        "import gaple.conformance.fuzzer.fuzz as fuzz\n"
        "import gaple\n"
        "from gaple.conformance.runner import selection\n"
        "from gaple.state import State\n"
        "import argparse\n"
        "fuzz._Run, gaple.conformance.runner.run._same, selection._Parser, State._x\n"
        "argparse._SubParsersAction, fuzz.__doc__\n"
    )
    assert private_attribute_uses(sample) == [
        "gaple.conformance.fuzzer.fuzz._Run (line 6)",
        "gaple.conformance.runner.run._same (line 6)",
        "gaple.conformance.runner.selection._Parser (line 6)",
    ]


def test_the_private_import_check_sees_one(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("from gaple import __version__\nfrom gaple.state import State, _hidden\n")
    assert private_imports(sample) == ["gaple.state._hidden (line 2)"]


@pytest.mark.parametrize(
    "path",
    [p for p in _python_files(PACKAGE) if not _may_use_bitsets(p)],
    ids=lambda p: p.relative_to(PACKAGE).as_posix(),
)
def test_bitset_primitives_live_only_in_the_engine_and_the_listed_modules(path: Path) -> None:
    assert bitset_uses(path) == []


def test_the_reference_is_checked_for_bitsets() -> None:
    # The parametrisation above must include every reference module.
    reference = [p for p in _python_files(PACKAGE / "reference") if p.name != "__init__.py"]
    assert reference
    assert not any(_may_use_bitsets(p) for p in reference)


def test_the_bitset_check_sees_masks(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        "from gaple.tiles import iter_bits\n"
        "def f(state, full):\n"
        "    return list(iter_bits(state.hand_masks[0])), full.suit[3]\n"
    )
    assert sorted(bitset_uses(sample)) == [
        ".hand_masks (line 3)",
        ".suit (line 3)",
        "import iter_bits",
        "iter_bits (line 3)",
    ]


@pytest.mark.parametrize(
    "path", _python_files(PACKAGE), ids=lambda p: p.relative_to(PACKAGE).as_posix()
)
def test_every_rule_id_a_text_names_is_in_the_registry(path: Path) -> None:
    # Before (issue 35): three descriptions named partner.closing-bonus, which is no rule; the
    # closing bonus is partner.closing-double.
    assert unknown_rule_ids(path) == []


def test_the_rule_id_check_sees_one_the_registry_lacks(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        '"""A bonus for the closing tile (partner.closing-bonus); see turn.order, then\n'
        ">>> f(match.totals)\n"
        'the rule score.nonsense-here."""\n'
    )
    assert unknown_rule_ids(sample) == [
        "partner.closing-bonus (line 1)",
        "score.nonsense-here (line 1)",
    ]
