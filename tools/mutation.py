"""Mutation testing of the rule-deciding modules: how many small defects do the vectors, and the
unit tests, catch?

Each *mutant* is gaple with one small change in one module (a comparison, a boolean operator,
an arithmetic operator, a constant, a rule ID, a branch condition forced or negated). It is
never written to disk: an import hook serves the mutated source in place of the module's file.

``--against vectors`` (the default) runs every mutant as the engine under test: gaple's own
protocol adapter, with the mutated module loaded in place of the real one, driven by the
conformance runner through the committed vectors (``spec/vectors/v1``) over the adapter
protocol, exactly as an engine author's engine is. A mutant is *killed* when some case fails
or errors, and *survives* when every case passes.

``tools/mutation-survivors.toml`` says, with a reason for each, which functions lie *outside*
the protocol's reach (the seeded shuffle, matches, positions typed in as data, text for people:
their mutants are not run, and the unit tests cover them) and which surviving mutants are
*equivalent* (they behave exactly like the spec on every hand the protocol can play). The
report gives the score (killed / run) per module and lists every survivor, equivalent or not;
a survivor that is not equivalent is a gap in the vectors.

``--against tests`` runs, for every mutant, the fast unit tests of its module (``TESTS``) in a
forked copy of one pytest process, with the mutant imported in place of the module: a mutant is
killed when a test fails, and every survivor is listed, in ``[tests.equivalent]`` (no input can
tell it from the spec) or ``[tests.outside]`` (code no input reaches) of the same file, or
marked as a gap in the tests. Every mutant is run there; nothing is left out.

    python tools/mutation.py                      # every module of MODULES
    python tools/mutation.py --against tests      # the same mutants, against the unit tests
    python tools/mutation.py --module result --sample 100 --seed 1
    python tools/mutation.py --list --module state   # the mutants, without running them

What is never mutated, and why: docstrings and other string constants except rule IDs (text is
not on the wire; rule IDs are), f-strings (the explanation notes' prose), type annotations,
``assert`` statements (internal checks: a mutated assert only crashes), ``__all__``, and the
``__str__``/``__repr__`` methods.
"""

from __future__ import annotations

import argparse
import ast
import functools
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import random
import re
import select
import shlex
import signal
import sys
import time
import tomllib
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from types import ModuleType

import hypothesis
import pytest
from attrs import frozen

from gaple.conformance.runner.engines import SubprocessEngine
from gaple.conformance.runner.run import run_suite
from gaple.conformance.vectors.committed import load_cases
from gaple.registry import RULES

ROOT = Path(__file__).resolve().parent.parent
MODULES = (
    "reference.equipment",
    "reference.deal",
    "reference.opening",
    "reference.line",
    "reference.laying",
    "reference.turn",
    "reference.ending",
    "reference.match",
    "engine.play",
    "hand",
    "state",
    "position",
    "result",
    "reference.counting",
    "reference.settlement",
    "reference.partnership",
    "reference.scoring",
    "engine.scoring",
    "deal",
    "match",
    "rules",
)
"""The modules that decide what is legal and what a hand scores, and the rule tables they read
(a dotted name is a module of a subpackage: ``engine.scoring`` is ``gaple.engine.scoring``)."""
_WIDTH = max(map(len, MODULES))
"""The width of the module column of the reports."""
SURVIVORS_FILE = ROOT / "tools" / "mutation-survivors.toml"
VECTORS = ROOT / "spec" / "vectors" / "v1"

_SWAP_COMPARE: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
}
_SWAP_ARITHMETIC: dict[type[ast.operator], type[ast.operator]] = {
    ast.Add: ast.Sub,
    ast.Sub: ast.Add,
    ast.Mult: ast.Add,
    ast.FloorDiv: ast.Mult,
    ast.Mod: ast.FloorDiv,
    ast.BitOr: ast.BitAnd,
    ast.BitAnd: ast.BitOr,
    ast.BitXor: ast.BitOr,
    ast.LShift: ast.RShift,
    ast.RShift: ast.LShift,
}
_SWAP_CALL = {"min": "max", "max": "min", "any": "all", "all": "any"}
_RULE_ID = re.compile(r"^[a-z]+\.[a-z0-9-]+$")
_SKIPPED_FUNCTIONS = frozenset({"__str__", "__repr__"})


@frozen
class Mutant:
    """One small change to one module."""

    module: str
    """The module's short name (``state``)."""
    key: str
    """A name that survives unrelated edits: function, operator, before and after."""
    line: int
    operator: str
    before: str
    after: str
    start: tuple[int, int]
    """(line, column) where the replaced source begins."""
    end: tuple[int, int]
    statement: bool
    """Whether the replaced source is a whole statement (else an expression)."""
    replacement: str
    """The source that replaces it."""

    def describe(self) -> str:
        """``result.py:312 compare: a < b -> a <= b``."""
        return f"{self.module}.py:{self.line} {self.operator}: {self.before} -> {self.after}"


def module_path(module: str) -> Path:
    """The source file of ``gaple.<module>``."""
    return ROOT / "src" / "gaple" / f"{module.replace('.', '/')}.py"


def _short(node: ast.AST) -> str:
    text = " ".join(ast.unparse(node).split())
    return text if len(text) <= 70 else text[:67] + "..."


class _Finder(ast.NodeVisitor):
    """Walks a module and lists every mutation point, skipping what is never mutated."""

    def __init__(self, module: str) -> None:
        self.module = module
        self.scope: list[str] = []
        self.found: list[tuple[str, ast.AST, ast.AST, bool]] = []
        self.rule_ids = frozenset(RULES)

    def add(self, operator: str, node: ast.AST, replacement: ast.AST, statement: bool) -> None:
        self.found.append((operator, node, replacement, statement))

    # --- what is skipped ---
    def visit_Module(self, node: ast.Module) -> None:
        self._body(node.body)

    def _body(self, body: Sequence[ast.stmt]) -> None:
        for index, statement in enumerate(body):
            if index == 0 and _is_docstring(statement):
                continue
            self.visit(statement)

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        if node.name in _SKIPPED_FUNCTIONS:
            return
        for default in (*node.args.defaults, *node.args.kw_defaults):
            if default is not None:
                self.visit(default)
        self.scope.append(node.name)
        self._body(node.body)
        self.scope.pop()

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self.scope.append(node.name)
        self._body(node.body)
        self.scope.pop()

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is not None:
            self.visit(node.value)

    def visit_Assign(self, node: ast.Assign) -> None:
        if any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            return
        self.visit(node.value)

    def visit_Assert(self, node: ast.Assert) -> None:  # noqa: ARG002
        return

    def visit_JoinedStr(self, node: ast.JoinedStr) -> None:  # noqa: ARG002
        return

    def visit_Expr(self, node: ast.Expr) -> None:
        if not _is_docstring(node):
            self.visit(node.value)

    def visit_Raise(self, node: ast.Raise) -> None:  # noqa: ARG002
        return  # what is raised is a message; whether it is raised is the condition around it

    def visit_Import(self, node: ast.Import) -> None:  # noqa: ARG002
        return

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:  # noqa: ARG002
        return

    # --- the operators ---
    def visit_Compare(self, node: ast.Compare) -> None:
        for index, op in enumerate(node.ops):
            swapped = _SWAP_COMPARE.get(type(op))
            if swapped is not None:
                ops = list(node.ops)
                ops[index] = swapped()
                self.add("compare", node, ast.Compare(node.left, ops, node.comparators), False)
        self.generic_visit(node)

    def visit_BoolOp(self, node: ast.BoolOp) -> None:
        other = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        self.add("boolean", node, ast.BoolOp(other, node.values), False)
        self.generic_visit(node)

    def visit_UnaryOp(self, node: ast.UnaryOp) -> None:
        if isinstance(node.op, ast.Not | ast.USub):
            self.add("unary", node, node.operand, False)
        self.generic_visit(node)

    def visit_BinOp(self, node: ast.BinOp) -> None:
        swapped = _SWAP_ARITHMETIC.get(type(node.op))
        if swapped is not None:
            self.add("arithmetic", node, ast.BinOp(node.left, swapped(), node.right), False)
        self.generic_visit(node)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        swapped = _SWAP_ARITHMETIC.get(type(node.op))
        if swapped is not None:
            self.add("arithmetic", node, ast.AugAssign(node.target, swapped(), node.value), True)
        self.visit(node.value)

    def visit_Constant(self, node: ast.Constant) -> None:
        value = node.value
        if isinstance(value, bool):
            self.add("constant", node, ast.Constant(not value), False)
        elif isinstance(value, int):
            self.add("constant", node, ast.Constant(value + 1), False)
            if value != 0:
                self.add("constant", node, ast.Constant(0), False)
        elif isinstance(value, str) and value in self.rule_ids:
            self.add("rule-id", node, ast.Constant("mutant.rule"), False)

    def visit_Call(self, node: ast.Call) -> None:
        if isinstance(node.func, ast.Name) and node.func.id in _SWAP_CALL:
            func = ast.Name(_SWAP_CALL[node.func.id], ast.Load())
            self.add("call", node, ast.Call(func, node.args, node.keywords), False)
        self.generic_visit(node)

    def _condition(self, test: ast.expr) -> None:
        if not _negated_elsewhere(test):
            self.add("condition", test, ast.UnaryOp(ast.Not(), test), False)
        self.add("condition", test, ast.Constant(False), False)

    def visit_If(self, node: ast.If) -> None:
        self._condition(node.test)
        self.visit(node.test)
        self._body(node.body)
        self._body(node.orelse)

    def visit_While(self, node: ast.While) -> None:
        self._condition(node.test)
        self.generic_visit(node)

    def visit_IfExp(self, node: ast.IfExp) -> None:
        self._condition(node.test)
        self.generic_visit(node)

    def visit_comprehension(self, node: ast.comprehension) -> None:
        for test in node.ifs:
            self._condition(test)
        self.generic_visit(node)


_NEGATIONS = (ast.Eq, ast.NotEq, ast.In, ast.NotIn, ast.Is, ast.IsNot)


def _negated_elsewhere(test: ast.expr) -> bool:
    """Whether another operator already negates ``test`` (``a == b`` to ``a != b``, dropping
    a ``not``), so ``not (test)`` would be the same mutant twice."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return True
    return (
        isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], _NEGATIONS)
    )


def _is_docstring(statement: ast.stmt) -> bool:
    return (
        isinstance(statement, ast.Expr)
        and isinstance(statement.value, ast.Constant)
        and isinstance(statement.value.value, str)
    )


def mutants(module: str) -> list[Mutant]:
    """Every mutant of ``gaple.<module>``, in source order."""
    return mutants_of_source(module, module_path(module).read_text(encoding="utf-8"))


def mutants_of_source(module: str, source: str) -> list[Mutant]:
    """Every mutant of ``source``, the text of module ``module``, in source order."""
    finder = _Finder(module)
    tree = ast.parse(source)
    _set_scopes(tree)
    finder.visit(tree)
    seen: Counter[str] = Counter()
    found = []
    for operator, node, replacement, statement in finder.found:
        assert isinstance(node, ast.expr | ast.stmt)
        before, after = _short(node), _short(replacement)
        base = f"{module}:{getattr(node, 'scope', '')}:{operator}:{before} -> {after}"
        seen[base] += 1
        found.append(
            Mutant(
                module=module,
                key=f"{base}#{seen[base]}",
                line=node.lineno,
                operator=operator,
                before=before,
                after=after,
                start=(node.lineno, node.col_offset),
                end=(node.end_lineno or node.lineno, node.end_col_offset or 0),
                statement=statement,
                replacement=ast.unparse(replacement),
            )
        )
    return found


def _set_scopes(tree: ast.AST, scope: str = "") -> None:
    """Mark every node with the qualified name of the function or class around it, or of the
    module-level table it builds (``ERROR_CODES``)."""
    for child in ast.iter_child_nodes(tree):
        inner = scope
        if isinstance(child, ast.FunctionDef | ast.ClassDef):
            inner = f"{scope}.{child.name}" if scope else child.name
        elif not scope and isinstance(child, ast.AnnAssign | ast.Assign):
            target = child.target if isinstance(child, ast.AnnAssign) else child.targets[0]
            inner = target.id if isinstance(target, ast.Name) else ""
        child.scope = inner  # type: ignore[attr-defined]
        _set_scopes(child, inner)


def mutated_source(mutant: Mutant, source: str | None = None) -> str:
    """The module's source (or ``source``) with the mutant's change, every other line where it
    was."""
    if source is None:
        source = module_path(mutant.module).read_text(encoding="utf-8")
    lines = source.splitlines(keepends=True)
    (l1, c1), (l2, c2) = mutant.start, mutant.end
    head = "".join(lines[: l1 - 1]) + lines[l1 - 1][:c1]
    tail = lines[l2 - 1][c2:] + "".join(lines[l2:])
    extra = l2 - l1
    if mutant.statement:
        indent = " " * c1
        middle = mutant.replacement + "".join(f"\n{indent}pass" for _ in range(extra))
    else:
        middle = "(" + mutant.replacement + "\n" * extra + ")"
    return head + middle + tail


# --- serving a mutant as the engine under test ---------------------------------------------------


class _MutantLoader(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Serves one module of gaple from the mutated source instead of the file."""

    def __init__(self, name: str, source: str, path: str) -> None:
        self.name, self.source, self.path = name, source, path

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,  # noqa: ARG002
        target: ModuleType | None = None,  # noqa: ARG002
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname != self.name:
            return None
        return importlib.util.spec_from_loader(fullname, self, origin=self.path)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> None:  # noqa: ARG002
        return None

    def exec_module(self, module: ModuleType) -> None:
        module.__file__ = self.path
        exec(compile(self.source, self.path, "exec"), module.__dict__)


def install(module: str, key: str, source: str | None = None) -> None:
    """Serve ``key``'s mutant of ``gaple.<module>`` (or of ``source``, its text) to every later
    import of it, and forget every gaple module imported so far."""
    if source is None:
        mutant = next(m for m in mutants(module) if m.key == key)
        path = str(module_path(module))
    else:
        mutant = next(m for m in mutants_of_source(module, source) if m.key == key)
        path = f"<mutant of {module}>"
    sys.meta_path.insert(0, _MutantLoader(_qualified(module), mutated_source(mutant, source), path))
    # Every gaple module imported so far (to find the mutant) holds the real one: drop them
    # all, so that every later import goes through the loader.
    package = _qualified(module).split(".")[0]
    for name in [n for n in sys.modules if n == package or n.startswith(package + ".")]:
        del sys.modules[name]


def _qualified(module: str) -> str:
    """``gaple.state`` for ``state``; any other name (a test's own module) as it is."""
    return f"gaple.{module}" if module in MODULES else module


def implementation(module: str) -> str:
    """Which implementation gaple's adapter plays a mutant of ``module`` with: the reference's
    modules are run as the reference, every other module as the fast engine (both through the
    same adapter, :func:`gaple.conformance.runner.engines.serve`)."""
    return "REFERENCE" if module.startswith("reference.") else "ENGINE"


def serve(module: str, key: str) -> int:
    """Run gaple's protocol adapter with ``key``'s mutant of ``module`` loaded (``-``: none),
    played by the implementation the module belongs to."""
    if key != "-":
        install(module, key)
    adapter = importlib.import_module("gaple.conformance.runner.engines")
    return int(adapter.serve(sys.stdin, sys.stdout, getattr(adapter, implementation(module))))


# --- running the mutants -------------------------------------------------------------------------


@frozen
class Verdict:
    """What the vectors did with one mutant."""

    mutant: Mutant
    killed: bool
    how: str
    """The first failing case and rule, the error, or ``survived``."""
    seconds: float


@functools.cache
def _cases() -> list[dict[str, object]]:
    # Reading checks every case (schema, replay in the spec): once per worker process, not
    # once per mutant.
    return load_cases(VECTORS)


def _first_failure(module: str, key: str, timeout: float) -> str | None:
    """Run the vectors against the adapter serving ``key`` (``-``: unmutated) through the
    protocol, stopping at the first failed or errored case; the first case that did not pass,
    or ``None``."""
    command = shlex.join([sys.executable, str(Path(__file__).resolve()), "--serve", module, key])
    summary = run_suite(_cases(), lambda: SubprocessEngine(command, timeout=timeout), max_fail=1)
    # The spec plays every vector, so a mutant that declines one (a deal it now finds invalid)
    # behaves differently: a skip kills it as a failure does.
    bad = [o for o in summary.outcomes if o.status != "passed"]
    if not bad:
        return None
    first = bad[0]
    how = f"{first.case}: {first.status}"
    return how + (f" [{first.rule}]" if first.rule else f": {first.message[:100]}")


def run_mutant(mutant: Mutant, timeout: float = 5.0) -> Verdict:
    """What the vectors do with ``mutant``."""
    began = time.perf_counter()
    failure = _first_failure(mutant.module, mutant.key, timeout)
    seconds = time.perf_counter() - began
    return Verdict(mutant, failure is not None, failure or "survived", seconds)


# --- running the mutants against the unit tests --------------------------------------------------

TESTS: dict[str, tuple[str, ...]] = {
    # The fast test files that exercise each module, the quickest killers first: the run stops
    # at the first failing test, so most mutants die within a second and only survivors pay
    # for the whole list.
    "reference.equipment": ("test_reference_play.py", "test_reference_match.py"),
    "reference.deal": ("test_reference_play.py", "test_deal.py"),
    "reference.opening": ("test_reference_play.py", "test_state_errors.py", "test_rules.py"),
    "reference.line": ("test_reference_play.py", "test_state_moves.py"),
    "reference.laying": ("test_laying.py", "test_result.py"),
    "reference.turn": ("test_reference_play.py", "test_state_errors.py", "test_state_moves.py"),
    "reference.ending": ("test_reference_play.py", "test_state_moves.py"),
    "reference.match": ("test_reference_match.py",),
    "engine.play": (
        "test_state_moves.py",
        "test_state_errors.py",
        "test_fast_paths.py",
        "test_worked_examples_play.py",
        "test_reference_play.py",
        "test_state_machine.py",
    ),
    "hand": (
        "test_state_moves.py",
        "test_state_errors.py",
        "test_partnership.py",
        "test_state_structure.py",
        "test_result.py",
    ),
    "state": (
        "test_state_moves.py",
        "test_state_errors.py",
        "test_worked_examples_play.py",
        "test_partnership.py",
        "test_fast_paths.py",
        "test_state_structure.py",
        "test_state_machine.py",
        "test_state_properties.py",
    ),
    "result": (
        "test_result.py",
        "test_result_reasons.py",
        "test_worked_examples_scoring.py",
        "test_partnership.py",
        "test_result_properties.py",
        "test_fast_paths.py",
    ),
    "position": (
        "test_result.py",
        "test_result_reasons.py",
        "test_partnership.py",
        "test_result_properties.py",
        "test_fast_paths.py",
        "test_reference_result.py",
    ),
    "reference.counting": (
        "test_result_reasons.py",
        "test_worked_examples_scoring.py",
        "test_reference_facts.py",
        "test_reference_result.py",
    ),
    "reference.settlement": (
        "test_result_reasons.py",
        "test_worked_examples_scoring.py",
        "test_reference_facts.py",
        "test_reference_result.py",
    ),
    "reference.partnership": (
        "test_reference_facts.py",
        "test_partnership.py",
        "test_reference_result.py",
    ),
    "reference.scoring": ("test_result.py", "test_partnership.py", "test_reference_result.py"),
    "engine.scoring": (
        "test_reference_facts.py",
        "test_fast_paths.py",
        "test_partnership.py",
        "test_reference_result.py",
        "test_result_properties.py",
    ),
    "deal": (
        "test_deal.py",
        "test_state_errors.py",
        "test_worked_examples_play.py",
        "test_fast_paths.py",
    ),
    "match": ("test_match.py",),
    "rules": ("test_rules.py", "test_state_errors.py", "test_deal.py"),
}
"""Module -> its fast unit test files under ``tests/``."""

_PROFILE = "mutation"
_HYPOTHESIS = {
    "max_examples": 50,
    "deadline": None,
    "database": None,
    "derandomize": True,
    "phases": (hypothesis.Phase.explicit, hypothesis.Phase.generate),
}
"""The tests' default profile, made deterministic: the same examples for every mutant and every
run, and no example database (a failure saved under one mutant would be replayed under the
next, and the verdicts would depend on the order). No shrinking: a failure kills the mutant
as it is found, and shrinking it could take minutes."""


class _FirstFailure:
    """A pytest plugin that keeps the first test that failed, or the file that did not load."""

    def __init__(self) -> None:
        self.where: str | None = None

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.failed and self.where is None:
            self.where = report.nodeid

    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        if report.failed and self.where is None:
            self.where = f"{report.nodeid or 'collecting'}: does not load"


def _pytest_here(
    module: str, key: str, paths: Sequence[Path], source: str | None
) -> tuple[int, str | None]:
    """Run ``paths`` in this process with ``key``'s mutant installed (``-``: none): pytest's
    exit status and the first failure."""
    if key != "-":
        install(module, key, source)
    # Test modules imported before the fork (when this runs inside a pytest session) hold the
    # real module: pytest would reuse them, so they are imported again.
    folders = {path.resolve().parent for path in paths}
    for name, imported in list(sys.modules.items()):
        where = getattr(imported, "__file__", None)
        if where and Path(where).resolve().parent in folders:
            del sys.modules[name]
    hypothesis.settings.register_profile(_PROFILE, **_HYPOTHESIS)  # type: ignore[arg-type]
    os.environ["HYPOTHESIS_PROFILE"] = _PROFILE
    sys.dont_write_bytecode = True  # nor pytest's rewritten test modules: nothing on disk changes
    first = _FirstFailure()
    # Plain asserts: pytest's rewriting import hook would otherwise load gaple (its plugin's
    # package) from the file, ahead of the mutant's loader.
    argv = [*map(str, paths), "-x", "-q", "-p", "no:cacheprovider", "--assert=plain"]
    status = pytest.main([*argv, "--rootdir", str(ROOT)], plugins=[first])
    loaded = sys.modules.get(_qualified(module))
    if key != "-" and not (loaded and isinstance(loaded.__loader__, _MutantLoader)):
        raise RuntimeError(f"the tests did not import the mutant of {_qualified(module)}")
    return int(status), first.where


def failure_in_tests(
    module: str, key: str, paths: Sequence[Path], timeout: float, source: str | None = None
) -> str | None:
    """Run ``paths`` with ``key``'s mutant of ``module`` (``-``: unmutated) in a forked child of
    this process, which has pytest and hypothesis imported already (much faster than a fresh
    interpreter per mutant); the first test that did not pass, or ``None``."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns
        os.close(read_end)
        os.setsid()  # its own process group, ended whole on a timeout
        quiet = os.open(os.devnull, os.O_WRONLY)
        os.dup2(quiet, 1)
        os.dup2(quiet, 2)
        try:
            status, where = _pytest_here(module, key, paths, source)
            os.write(write_end, json.dumps([status, where]).encode())
        except BaseException as error:  # whatever the mutant does, the parent hears of it
            os.write(write_end, json.dumps([-1, f"{type(error).__name__}: {error}"]).encode())
        finally:
            os._exit(0)
    os.close(write_end)
    deadline = time.monotonic() + timeout
    received = b""
    while True:
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([read_end], [], [], left)[0]:
            os.killpg(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            os.close(read_end)
            return f"timed out after {timeout:.0f} s"
        chunk = os.read(read_end, 65536)
        if not chunk:
            break
        received += chunk
    os.close(read_end)
    os.waitpid(pid, 0)
    if not received:
        return "the test process died"
    status, where = json.loads(received)
    if status == 0:
        return None
    if status == -1:
        return f"the test run raised {where}"
    return where or f"pytest exit status {status}"


def unit_test_files(module: str) -> list[Path]:
    """The test files of ``module`` (``TESTS``)."""
    return [ROOT / "tests" / name for name in TESTS[module]]


def run_mutant_tests(mutant: Mutant, timeout: float) -> Verdict:
    """What the unit tests of ``mutant``'s module do with it."""
    began = time.perf_counter()
    failure = failure_in_tests(mutant.module, mutant.key, unit_test_files(mutant.module), timeout)
    seconds = time.perf_counter() - began
    return Verdict(mutant, failure is not None, failure or "survived", seconds)


@frozen
class Explanation:
    """A reason, in ``tools/mutation-survivors.toml``, why mutants are not killed: one mutant
    (``key``) or every mutant of a function or table (``function``, ``position:_chain_problem``)."""

    pattern: str
    whole_function: bool
    reason: str

    def covers(self, mutant: Mutant) -> bool:
        """Whether this explanation is about ``mutant``."""
        if self.whole_function:
            return mutant.key.startswith(self.pattern + ":")
        return mutant.key == self.pattern


@frozen
class Scope:
    """What the vectors are measured on: the functions outside the protocol's reach, and the
    mutants that behave exactly like the spec on every hand the protocol can play."""

    outside: tuple[Explanation, ...]
    equivalent: tuple[Explanation, ...]

    def why_outside(self, mutant: Mutant) -> str | None:
        """The reason ``mutant``'s function is outside the protocol's reach, if it is."""
        return next((e.reason for e in self.outside if e.covers(mutant)), None)

    def why_equivalent(self, mutant: Mutant) -> str | None:
        """The reason ``mutant`` is equivalent through the protocol, if it is listed."""
        return next((e.reason for e in self.equivalent if e.covers(mutant)), None)


def read_scope(path: Path = SURVIVORS_FILE, against: str = "vectors") -> Scope:
    """The ``[[outside]]`` and ``[[equivalent]]`` entries of ``path`` (against the vectors), or
    its ``[[tests.outside]]`` and ``[[tests.equivalent]]`` ones (against the unit tests).

    Raises:
        ValueError: an entry lacks its ``function`` (outside of the vectors) or ``key``, or its
            ``reason``.
    """
    data = tomllib.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    lists: dict[str, list[Explanation]] = {"outside": [], "equivalent": []}
    # Against the vectors a whole function is outside the protocol's reach; against the tests
    # each survivor is listed by its key, like an equivalent one.
    fields = (("outside", "function"), ("equivalent", "key"))
    if against == "tests":
        data, fields = data.get("tests", {}), (("outside", "key"), ("equivalent", "key"))
    prefix = "tests." if against == "tests" else ""
    for table, field in fields:
        for number, entry in enumerate(data.get(table, []), start=1):
            if not entry.get(field) or not entry.get("reason"):
                msg = f"{path.name}: {prefix}{table} entry {number} needs a {field} and a reason"
                raise ValueError(msg)
            whole = field == "function"
            lists[table].append(Explanation(entry[field], whole, entry["reason"]))
    return Scope(tuple(lists["outside"]), tuple(lists["equivalent"]))


def _select(modules: Sequence[str], sample: int | None, seed: int) -> list[Mutant]:
    chosen: list[Mutant] = []
    for module in modules:
        every = mutants(module)
        if sample is not None and sample < len(every):
            every = sorted(
                random.Random(f"{seed}:{module}").sample(every, sample), key=lambda m: m.start
            )
        chosen += every
    return chosen


def _report(
    verdicts: Sequence[Verdict], outside: Sequence[Mutant], scope: Scope, *, complete: bool
) -> Iterator[str]:
    modules = sorted(
        {m.module for m in (*outside, *(v.mutant for v in verdicts))}, key=MODULES.index
    )
    why = {v.mutant.key: scope.why_equivalent(v.mutant) for v in verdicts if not v.killed}
    yield ""
    yield (
        f"{'module':<{_WIDTH}} mutants  outside     run  killed  equivalent  unexplained   score"
        "  mutation score"
    )
    for module in modules:
        own = [v for v in verdicts if v.mutant.module == module]
        away = sum(1 for m in outside if m.module == module)
        killed = sum(v.killed for v in own)
        equivalent = sum(1 for v in own if not v.killed and why[v.mutant.key])
        gaps = len(own) - killed - equivalent
        score = f"{killed / len(own):.1%}" if own else "-"
        classical = f"{killed / (len(own) - equivalent):.1%}" if len(own) > equivalent else "-"
        yield (
            f"{module:<{_WIDTH}} {len(own) + away:>7} {away:>8} {len(own):>7} {killed:>7} "
            f"{equivalent:>11} {gaps:>12} {score:>7} {classical:>15}"
        )
    yield "(outside: in functions the protocol cannot reach, not run; score: killed / run;"
    yield " mutation score: killed / (run - equivalent))"
    survivors = [v for v in verdicts if not v.killed]
    if survivors:
        yield ""
        yield f"survivors (E: equivalent, see {SURVIVORS_FILE.name}; ?: a gap in the vectors):"
    for verdict in survivors:
        reason = why[verdict.mutant.key]
        yield f"  {'E' if reason else '?'} {verdict.mutant.describe()}"
        yield f"      key: {verdict.mutant.key}"
        if reason:
            yield f"      why: {reason}"
    every = [*outside, *(v.mutant for v in verdicts)]
    for entry in (*scope.outside, *scope.equivalent) if complete else ():
        # A sample cannot tell a stale entry.
        if entry.pattern.split(":", 1)[0] in modules and not any(entry.covers(m) for m in every):
            yield f"  stale entry in {SURVIVORS_FILE.name} (no such mutant): {entry.pattern}"


def _report_tests(
    verdicts: Sequence[Verdict], seconds: dict[str, float], scope: Scope, *, complete: bool
) -> Iterator[str]:
    modules = [m for m in MODULES if m in seconds]
    why: dict[str, tuple[str, str] | None] = {}
    for v in verdicts:
        if not v.killed:
            equivalent, outside = scope.why_equivalent(v.mutant), scope.why_outside(v.mutant)
            why[v.mutant.key] = (
                ("E", equivalent) if equivalent else ("O", outside) if outside else None
            )
    yield ""
    yield (
        f"{'module':<{_WIDTH}} run  killed  equivalent  outside  unexplained  killed/run"
        "  killed/(run-equivalent)  seconds"
    )
    for module in modules:
        own = [v for v in verdicts if v.mutant.module == module]
        killed = sum(v.killed for v in own)
        kinds = Counter((why[v.mutant.key] or ("?", ""))[0] for v in own if not v.killed)
        raw = f"{killed / len(own):.1%}" if own else "-"
        score = f"{killed / (len(own) - kinds['E']):.1%}" if len(own) > kinds["E"] else "-"
        yield (
            f"{module:<{_WIDTH}} {len(own):>3} {killed:>7} {kinds['E']:>11} {kinds['O']:>8} "
            f"{kinds['?']:>12} {raw:>11} {score:>24} {seconds[module]:>8.0f}"
        )
    survivors = [v for v in verdicts if not v.killed]
    if survivors:
        yield ""
        yield (
            f"survivors (E: equivalent, O: outside, see [tests] in {SURVIVORS_FILE.name}; "
            "?: a gap in the tests):"
        )
    for verdict in survivors:
        kind, reason = why[verdict.mutant.key] or ("?", "")
        yield f"  {kind} {verdict.mutant.describe()}"
        yield f"      key: {verdict.mutant.key}"
        if reason:
            yield f"      why: {reason}"
    killed_keys = {v.mutant.key for v in verdicts if v.killed}
    every = [v.mutant for v in verdicts]
    for entry in (*scope.outside, *scope.equivalent) if complete else ():
        if entry.pattern.split(":", 1)[0] not in modules:
            continue
        if not any(entry.covers(m) for m in every):
            yield f"  stale entry in {SURVIVORS_FILE.name} (no such mutant): {entry.pattern}"
        elif entry.pattern in killed_keys:
            yield f"  stale entry in {SURVIVORS_FILE.name} (the tests kill it): {entry.pattern}"


def _run_all(
    run: Callable[[Mutant], Verdict],
    mutants: Sequence[Mutant],
    jobs: int,
    began: float,
    *,
    every: int,
) -> list[Verdict]:
    """The verdicts of ``mutants`` in order, run on ``jobs`` processes, with a progress line on
    stderr every ``every`` mutants."""
    verdicts: list[Verdict] = []
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for number, verdict in enumerate(pool.map(run, mutants), start=1):
            verdicts.append(verdict)
            if number % every == 0 or number == len(mutants):
                print(
                    f"  {number}/{len(mutants)} run, {time.perf_counter() - began:.0f} s",
                    file=sys.stderr,
                    flush=True,
                )
    return verdicts


def _run_tests(
    modules: Sequence[str], chosen: Sequence[Mutant], jobs: int, scope: Scope, *, complete: bool
) -> tuple[int, list[Verdict]]:
    """The tests mode: each module's unmutated tests must pass, then its mutants run."""
    verdicts: list[Verdict] = []
    seconds: dict[str, float] = {}
    for module in modules:
        began = time.perf_counter()
        baseline = failure_in_tests(module, "-", unit_test_files(module), timeout=600.0)
        if baseline is not None:
            print(f"the unmutated {module} fails its own tests ({baseline}): nothing to measure")
            return 2, verdicts
        # A survivor runs what the baseline ran: four times that leaves room for a loaded
        # machine, and ends a mutant that loops for ever.
        timeout = max(60.0, 4 * (time.perf_counter() - began))
        own = [m for m in chosen if m.module == module]
        print(
            f"{module}: {len(own)} mutants against {', '.join(TESTS[module])}",
            file=sys.stderr,
            flush=True,
        )
        run = functools.partial(run_mutant_tests, timeout=timeout)
        verdicts += _run_all(run, own, jobs, began, every=10)
        seconds[module] = time.perf_counter() - began
    for line in _report_tests(verdicts, seconds, scope, complete=complete):
        print(line)
    return 0, verdicts


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--against",
        choices=("vectors", "tests"),
        default="vectors",
        help="run each mutant through the vectors (default) or the unit tests of its module",
    )
    parser.add_argument("--module", action="append", choices=MODULES, help="repeatable")
    parser.add_argument("--sample", type=int, help="at most this many mutants per module")
    parser.add_argument("--seed", type=int, default=0, help="of the sample")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--list", action="store_true", help="list the mutants, run nothing")
    parser.add_argument("--json", type=Path, help="also write every verdict as JSON lines")
    parser.add_argument("--serve", nargs=2, metavar=("MODULE", "KEY"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve:
        return serve(*args.serve)
    modules = tuple(args.module or MODULES)
    scope = read_scope(against=args.against)
    selected = _select(modules, args.sample, args.seed)
    # Against the tests every mutant runs; [tests.outside] only explains survivors.
    away = scope.why_outside if args.against == "vectors" else lambda _: None
    outside = [m for m in selected if away(m)]
    chosen = [m for m in selected if not away(m)]
    if args.list:
        for mutant in selected:
            print(("outside " if away(mutant) else "") + mutant.describe())
        return 0
    began = time.perf_counter()
    if args.against == "tests":
        status, verdicts = _run_tests(
            modules, chosen, args.jobs, scope, complete=args.sample is None
        )
    else:
        status, verdicts = _run_vectors(
            modules, chosen, outside, args.jobs, scope, complete=args.sample is None
        )
    if args.json:
        with args.json.open("w", encoding="utf-8") as out:
            for v in verdicts:
                record = {
                    "key": v.mutant.key,
                    "where": v.mutant.describe(),
                    "killed": v.killed,
                    "how": v.how,
                    "seconds": round(v.seconds, 3),
                }
                out.write(json.dumps(record) + "\n")
    print(f"\n{time.perf_counter() - began:.0f} s")
    return status


def _run_vectors(
    modules: Sequence[str],
    chosen: Sequence[Mutant],
    outside: Sequence[Mutant],
    jobs: int,
    scope: Scope,
    *,
    complete: bool,
) -> tuple[int, list[Verdict]]:
    """The vectors mode: the unmutated spec must pass its vectors, then every mutant runs."""
    began = time.perf_counter()
    baseline = _first_failure(modules[0], "-", timeout=10.0)
    if baseline is not None:
        print(f"the unmutated spec fails its own vectors ({baseline}): nothing to measure")
        return 2, []
    print(
        f"{len(chosen)} mutants of {', '.join(modules)} to run ({len(outside)} outside the "
        f"protocol's reach); {len(_cases())} vectors",
        flush=True,
    )
    verdicts = _run_all(run_mutant, chosen, jobs, began, every=25)
    for line in _report(verdicts, outside, scope, complete=complete):
        print(line)
    return 0, verdicts


if __name__ == "__main__":
    raise SystemExit(main())
