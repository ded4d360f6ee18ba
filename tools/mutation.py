"""Mutation testing of the rule-deciding modules: how many small defects do the vectors catch?

Each *mutant* is gaple with one small change in one module (a comparison, a boolean operator,
an arithmetic operator, a constant, a rule ID, a branch condition forced or negated). The tool
runs every mutant as the engine under test: gaple's own protocol adapter, with the mutated
module loaded in place of the real one, driven by the conformance runner through the committed
vectors (``spec/vectors/v1``) over the adapter protocol, exactly as an engine author's engine
is. A mutant is *killed* when some case fails or errors, and *survives* when every case passes.

``tools/mutation-survivors.toml`` says, with a reason for each, which functions lie *outside*
the protocol's reach (the seeded shuffle, matches, positions typed in as data, text for people:
their mutants are not run, and the unit tests cover them) and which surviving mutants are
*equivalent* (they behave exactly like the spec on every hand the protocol can play). The
report gives the score (killed / run) per module and lists every survivor, equivalent or not;
a survivor that is not equivalent is a gap in the vectors.

    python tools/mutation.py                      # state, result, deal, match, rules
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
import shlex
import sys
import time
import tomllib
from collections import Counter
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from types import ModuleType

from attrs import frozen

from gaple.conformance.engines import SubprocessEngine
from gaple.conformance.engines import serve as serve_protocol
from gaple.conformance.runner import run_suite
from gaple.conformance.vectors import load_cases
from gaple.registry import RULES

ROOT = Path(__file__).resolve().parent.parent
MODULES = ("state", "result", "deal", "match", "rules")
"""The modules that decide what is legal and what a hand scores, and the rule tables they read."""
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
    return ROOT / "src" / "gaple" / f"{module}.py"


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


def serve(module: str, key: str) -> int:
    """Run gaple's protocol adapter with ``key``'s mutant of ``module`` loaded (``-``: none)."""
    if key != "-":
        mutant = next(m for m in mutants(module) if m.key == key)
        loader = _MutantLoader(f"gaple.{module}", mutated_source(mutant), str(module_path(module)))
        sys.meta_path.insert(0, loader)
        # Every gaple module imported so far (to find the mutant) holds the real one: drop
        # them all, so the adapter's imports go through the loader.
        for name in [n for n in sys.modules if n == "gaple" or n.startswith("gaple.")]:
            del sys.modules[name]
        adapter = importlib.import_module("gaple.conformance.engines")
        return int(adapter.serve(sys.stdin, sys.stdout))
    return serve_protocol(sys.stdin, sys.stdout)


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


@frozen
class Explanation:
    """A reason, in ``tools/mutation-survivors.toml``, why mutants are not killed: one mutant
    (``key``) or every mutant of a function or table (``function``, ``result:_chain_problem``)."""

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


def read_scope(path: Path = SURVIVORS_FILE) -> Scope:
    """The ``[[outside]]`` and ``[[equivalent]]`` entries of ``path``.

    Raises:
        ValueError: an entry lacks its ``function`` (outside) or ``key`` (equivalent), or its
            ``reason``.
    """
    data = tomllib.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    lists: dict[str, list[Explanation]] = {"outside": [], "equivalent": []}
    for table, field in (("outside", "function"), ("equivalent", "key")):
        for number, entry in enumerate(data.get(table, []), start=1):
            if not entry.get(field) or not entry.get("reason"):
                msg = f"{path.name}: {table} entry {number} needs a {field} and a reason"
                raise ValueError(msg)
            lists[table].append(Explanation(entry[field], table == "outside", entry["reason"]))
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
        "module   mutants  outside     run  killed  equivalent  unexplained   score  mutation score"
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
            f"{module:<8} {len(own) + away:>7} {away:>8} {len(own):>7} {killed:>7} "
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


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
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
    scope = read_scope()
    selected = _select(modules, args.sample, args.seed)
    outside = [m for m in selected if scope.why_outside(m)]
    chosen = [m for m in selected if not scope.why_outside(m)]
    if args.list:
        for mutant in selected:
            print(("outside " if scope.why_outside(mutant) else "") + mutant.describe())
        return 0
    began = time.perf_counter()
    baseline = _first_failure(modules[0], "-", timeout=10.0)
    if baseline is not None:
        print(f"the unmutated spec fails its own vectors ({baseline}): nothing to measure")
        return 2
    print(
        f"{len(chosen)} mutants of {', '.join(modules)} to run ({len(outside)} outside the "
        f"protocol's reach); {len(_cases())} vectors",
        flush=True,
    )
    verdicts: list[Verdict] = []
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for number, verdict in enumerate(pool.map(run_mutant, chosen), start=1):
            verdicts.append(verdict)
            if number % 25 == 0 or number == len(chosen):
                print(
                    f"  {number}/{len(chosen)} run, {time.perf_counter() - began:.0f} s",
                    file=sys.stderr,
                    flush=True,
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
    for line in _report(verdicts, outside, scope, complete=args.sample is None):
        print(line)
    print(f"\n{time.perf_counter() - began:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
