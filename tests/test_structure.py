"""The house rules of the code, each checked on the source and each shown able to fail.

* One rule, one place: every rule of the registry is decided by exactly one function of
  :mod:`gaple.reference`, marked ``@decides``.
* No module imports another module's private (underscore) names, nor reaches them as
  ``module._name``: what one module needs of another is public there, documented and typed.
  Tests may reach into the module they test.
* A rule ID named in a text of the package (a docstring, a message, a description) is one
  of the registry's, so that a reader who follows it finds the rule.
* Bitset primitives (the masks of a state, ``iter_bits``, a tile set's ``mask``, ``suit``
  and ``unpack``) and bit operators (``& | ^ ~ << >>``) live in the engine and in the few files
  listed below with their reason; the reference and everything that classifies read tiles.
  Elsewhere sets are combined by their methods (``a.union(b)``), dicts merged as
  ``{**a, **b}``, and ``|`` is only the union of types (annotations, ``TypeAlias`` values,
  the classes ``isinstance`` takes).
* Every function and method of the engine says in a paragraph of its docstring which reference
  functions it mirrors ("Mirrors :func:`gaple.reference.turn.apply`."), each one that exists,
  or that it mirrors none and why ("Mirrors no rule: a lookup table."), so that a reader of
  the fast code finds the rule it plays.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import inspect
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
    "src/gaple/engine": "the fast engine: what it is for",
    "src/gaple/tiles.py": "defines the bitsets: a tile set's bit order, masks, suits and iter_bits",
    "src/gaple/hand.py": "a State holds its groups of tiles as bitsets and unpacks them as "
    "tiles; a Position keeps each seat's scoring set as a bitset for the engine's scoring",
    "src/gaple/deal.py": "the seeded shuffle (splitmix64) and the hands it gives the engine as "
    "bitsets (deal_indices)",
    "src/gaple/conformance/checker/transcript.py": "gaple check's fast path replays canonical "
    "logs on the engine",
    "src/gaple/conformance/vectors/drawing.py": "the fuzzer cuts one seeded random number into "
    "each tile's sort key and each action's choice",
    "src/gaple/conformance/wire/bounded.py": "reads a file opened with os flags (not blocking)",
    "src/gaple/conformance/wire/files.py": "file permission bits and the umask",
    "src/gaple/conformance/vectors/committed.py": "writes the spec through folders opened with "
    "os flags (no link followed)",
    "benchmarks/reference_engine.py": "the plain engine's hands are bitsets, the ceiling the "
    "benchmark compares with",
    "benchmarks/signal_window.py": "reads a process's signal mask from /proc",
}
"""The files (relative to the project; a folder counts for all its files) that may use bitset
primitives and bit operators, and why."""

BIT_OPERATORS = {
    ast.BitAnd: "&",
    ast.BitOr: "|",
    ast.BitXor: "^",
    ast.LShift: "<<",
    ast.RShift: ">>",
    ast.Invert: "~",
}


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
    """Each use of a bitset primitive or a bit operator in ``path`` (a ``|`` between types is
    no bit operator)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    types = _type_unions(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id in BITSET_NAMES:
            found.append(f"{node.id} (line {node.lineno})")
        elif isinstance(node, ast.Attribute) and node.attr in BITSET_ATTRIBUTES:
            found.append(f".{node.attr} (line {node.lineno})")
        elif isinstance(node, ast.alias) and node.name in BITSET_NAMES:
            found.append(f"import {node.name}")
        elif isinstance(node, ast.BinOp | ast.UnaryOp) and type(node.op) in BIT_OPERATORS:
            if node not in types:
                found.append(f"{BIT_OPERATORS[type(node.op)]} (line {node.lineno})")
        elif isinstance(node, ast.AugAssign) and type(node.op) in BIT_OPERATORS:
            found.append(f"{BIT_OPERATORS[type(node.op)]}= (line {node.lineno})")
    return found


def _type_unions(tree: ast.AST) -> set[ast.AST]:
    """The ``|`` nodes that join types: in annotations, in the value of an assignment annotated
    ``TypeAlias``, and in the classes ``isinstance`` and ``issubclass`` take. Each is a type
    to mypy, which refuses ints there, so no bit operation hides in one."""
    types: list[ast.expr] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.arg | ast.AnnAssign) and node.annotation is not None:
            types.append(node.annotation)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.returns is not None:
            types.append(node.returns)
        if (
            isinstance(node, ast.AnnAssign)
            and node.value is not None
            and _dotted(node.annotation) in {"TypeAlias", "typing.TypeAlias"}
        ):
            types.append(node.value)
        if (
            isinstance(node, ast.Call)
            and _dotted(node.func) in {"isinstance", "issubclass"}
            and len(node.args) == 2
        ):
            types.append(node.args[1])
    return {
        inner
        for expression in types
        for inner in ast.walk(expression)
        if isinstance(inner, ast.BinOp) and isinstance(inner.op, ast.BitOr)
    }


def _may_use_bitsets(path: Path) -> bool:
    relative = path.relative_to(ROOT).as_posix()
    return any(
        relative == allowed or relative.startswith(f"{allowed}/") for allowed in BITSET_MODULES
    )


CHECKED_FOR_BITSETS = [
    p for folder in NON_TEST_CODE for p in _python_files(folder) if not _may_use_bitsets(p)
]


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


_REFERENCE_NAME = r":func:`(gaple\.reference\.[\w.]+)`"
_MIRRORS = re.compile(rf"Mirrors {_REFERENCE_NAME}(?:(?:, | and |, and ){_REFERENCE_NAME})*\.")
_MIRRORS_NO_RULE = re.compile(r"Mirrors no rule: \S.*\.")


def mirror_problems(path: Path) -> list[str]:
    """Each function or method of ``path`` (nested ones too) whose docstring has no paragraph
    naming the reference functions it mirrors or saying it mirrors none, and each name such a
    paragraph gives that is not a function of :mod:`gaple.reference` at its home module."""
    problems = []
    tree = ast.parse(path.read_text(encoding="utf-8"))
    functions = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
    for node in sorted(functions, key=lambda n: n.lineno):
        where = f"{node.name} (line {node.lineno})"
        paragraphs = [" ".join(p.split()) for p in (ast.get_docstring(node) or "").split("\n\n")]
        said = [p for p in paragraphs if _MIRRORS.fullmatch(p) or _MIRRORS_NO_RULE.fullmatch(p)]
        if not said:
            problems.append(f"{where}: no paragraph says what it mirrors")
        problems += [
            f"{where}: {name} is no reference function"
            for paragraph in said
            for name in re.findall(_REFERENCE_NAME, paragraph)
            if not _is_reference_function(name)
        ]
    return problems


def _is_reference_function(name: str) -> bool:
    """Whether ``name`` is a function of the reference, named at the module that defines it
    (the documentation's target), found by importing the module and getting the rest."""
    parts = name.split(".")
    cut = next((k for k in range(len(parts), 0, -1) if _is_module(".".join(parts[:k]))), 0)
    home = ".".join(parts[:cut])
    found: object = importlib.import_module(home) if cut else None
    for part in parts[cut:]:
        found = getattr(found, part, None)
    return inspect.isfunction(found) and found.__module__ == home


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


@pytest.mark.parametrize("path", CHECKED_FOR_BITSETS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_bitsets_live_only_in_the_engine_and_the_listed_files(path: Path) -> None:
    assert bitset_uses(path) == []


def test_the_reference_is_checked_for_bitsets() -> None:
    # The parametrisation above must include every reference module.
    reference = [p for p in _python_files(PACKAGE / "reference") if p.name != "__init__.py"]
    assert reference
    assert not any(_may_use_bitsets(p) for p in reference)


def test_every_folder_of_code_is_checked_for_bit_operators() -> None:
    # One file each, not allowed: the command line, the kit, the tools, the examples, the
    # benchmarks' driver, the docs' extension; and the engine is not checked.
    checked = {p.relative_to(ROOT).as_posix() for p in CHECKED_FOR_BITSETS}
    for name in (
        "src/gaple/cli/common.py",
        "src/gaple/conformance/vectors/tailor.py",
        "tools/cover.py",
        "examples/engine/gaple_engine.py",
        "benchmarks/kit.py",
        "docs/_ext/gaple_docs.py",
    ):
        assert name in checked
    assert "src/gaple/engine/play.py" not in checked


def stale_allowances(allowed: dict[str, str]) -> list[str]:
    """Each entry of ``allowed`` naming no file or folder of the project (a file moved or
    renamed leaves its old entry behind, allowing nothing), or giving no reason."""
    return [
        f"{path}: no such file" if not (ROOT / path).exists() else f"{path}: no reason"
        for path, why in allowed.items()
        if not (ROOT / path).exists() or not why.strip()
    ]


def test_every_file_allowed_bitsets_exists_and_says_why() -> None:
    assert stale_allowances(BITSET_MODULES) == []


def test_the_allowance_check_sees_a_moved_file_and_a_missing_reason() -> None:
    planted = {
        "src/gaple/engine": "the fast engine",
        "src/gaple/conformance/shuffle.py": "moved away",
        "src/gaple/tiles.py": " ",
    }
    assert stale_allowances(planted) == [
        "src/gaple/conformance/shuffle.py: no such file",
        "src/gaple/tiles.py: no reason",
    ]


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


def test_the_bitset_check_sees_bit_operators_and_not_set_methods_or_types(
    tmp_path: Path,
) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        "def f(a: int | None, b: set[int]) -> int | str:\n"
        "    x = a | b\n"
        "    x &= 1 << 3\n"
        "    y = ~x ^ (x >> 1)\n"
        "    z = b.union({1}), b.intersection(b), b <= b, isinstance(a, int | str)\n"
        "    return {**z, **y}\n"
        "Alias: TypeAlias = int | None\n"
        "Plain = int | None\n"
    )
    # Line 1: annotations, types. Line 2: the planted union. Line 3: an in-place and and a
    # shift. Line 4: invert, xor, shift. Lines 5 and 6: set methods, a comparison, the classes
    # of isinstance, a dict merge: none. Line 7: a declared alias, types; line 8 an alias that
    # does not say it is one, read as a bit operation.
    assert sorted(bitset_uses(sample)) == [
        "&= (line 3)",
        "<< (line 3)",
        ">> (line 4)",
        "^ (line 4)",
        "| (line 2)",
        "| (line 8)",
        "~ (line 4)",
    ]


@pytest.mark.parametrize(
    "path", _python_files(PACKAGE / "engine"), ids=lambda p: p.relative_to(PACKAGE).as_posix()
)
def test_every_engine_function_names_the_reference_function_it_mirrors(path: Path) -> None:
    assert mirror_problems(path) == []


def test_the_mirror_check_sees_a_function_that_names_none_or_a_wrong_one(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        "def good():\n"
        '    """Two names.\n\n'
        "    Mirrors :func:`gaple.reference.turn.apply` and\n"
        '    :func:`gaple.reference.line.joined`.\n    """\n'
        "def plumbing():\n"
        '    """Mirrors no rule: a lookup table."""\n'
        "def silent():\n"
        '    """Plays a move: mirrors :func:`gaple.reference.turn.apply` (not a paragraph)."""\n'
        "class Engine:\n"
        "    def method(self):\n"
        "        def inner(): ...\n"
        "def missing():\n"
        '    """Mirrors :func:`gaple.reference.turn.no_such_rule`."""\n'
        "def no_module():\n"
        '    """Mirrors :func:`gaple.reference.nowhere.apply`."""\n'
        "def a_class():\n"
        '    """Mirrors :func:`gaple.reference.equipment.Table`."""\n'
        "def not_at_home():\n"
        '    """Mirrors :func:`gaple.reference.turn.playable`."""\n'
    )
    # good (lines 1-6: two names, on two lines) and plumbing (7-8) pass. silent (9) names
    # apply inside a sentence; method (12) and inner (13) have no docstring. turn has no
    # no_such_rule (14), there is no module nowhere (16), Table is a class (18), and
    # turn.playable (20) is line.playable imported, not at its home.
    assert mirror_problems(sample) == [
        "silent (line 9): no paragraph says what it mirrors",
        "method (line 12): no paragraph says what it mirrors",
        "inner (line 13): no paragraph says what it mirrors",
        "missing (line 14): gaple.reference.turn.no_such_rule is no reference function",
        "no_module (line 16): gaple.reference.nowhere.apply is no reference function",
        "a_class (line 18): gaple.reference.equipment.Table is no reference function",
        "not_at_home (line 20): gaple.reference.turn.playable is no reference function",
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
