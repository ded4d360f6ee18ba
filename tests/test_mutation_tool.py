"""The mutation tool (tools/mutation.py): which mutants it makes, that each one is valid Python
that keeps every line in place, that a mutant the vectors must catch is killed while one the
protocol cannot show survives, and, against the unit tests, that a caught mutant is killed, an
equivalent one survives, a looping one is ended and tests that miss the mutant are an error."""

from __future__ import annotations

import ast
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

_PATH = Path(__file__).resolve().parent.parent / "tools" / "mutation.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gaple_mutation_tool", _PATH)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


mutation = _load()

_SAMPLE = '''\
"""A docstring is never mutated."""


def f(a, b):
    """Nor is a function's."""
    assert a >= 0
    if a < b and b:
        return a + 1
    return "play.match-end"


def g(x):
    return f"{x + 1} text" if not x else min(x, 2)


def __repr__(self):
    return self.a == 1
'''


def test_operators_make_exactly_the_expected_mutants() -> None:
    # Worked out by hand from the operator set in the tool's docstring:
    # line 7, `if a < b and b`: the condition negated and forced false, `and` -> `or`,
    # `<` -> `<=`. Line 8: `+` -> `-`, the constant 1 -> 2 and 1 -> 0. Line 9: the rule ID.
    # Line 13: the test `not x` is forced false (its negation is the same mutant as dropping
    # the `not`, which the unary operator makes), `not x` -> `x`, min -> max, and 2 -> 3, 2 -> 0.
    # Never: docstrings, the assert, the f-string's inside, __repr__.
    found = [
        (m.line, m.operator, m.before, m.after)
        for m in mutation.mutants_of_source("sample", _SAMPLE)
    ]
    assert sorted(found) == sorted(
        [
            (7, "condition", "a < b and b", "not (a < b and b)"),
            (7, "condition", "a < b and b", "False"),
            (7, "boolean", "a < b and b", "a < b or b"),
            (7, "compare", "a < b", "a <= b"),
            (8, "arithmetic", "a + 1", "a - 1"),
            (8, "constant", "1", "2"),
            (8, "constant", "1", "0"),
            (9, "rule-id", "'play.match-end'", "'mutant.rule'"),
            (13, "condition", "not x", "False"),
            (13, "unary", "not x", "x"),
            (13, "call", "min(x, 2)", "max(x, 2)"),
            (13, "constant", "2", "3"),
            (13, "constant", "2", "0"),
        ]
    )


def test_mutant_keys_are_unique_and_name_the_function() -> None:
    found = mutation.mutants_of_source("sample", _SAMPLE)
    keys = [m.key for m in found]
    assert len(set(keys)) == len(keys)
    # The two mutants of the constant 1 on line 8 sit in f; the min/max one in g.
    assert "sample:f:constant:1 -> 2#1" in keys
    assert "sample:g:call:min(x, 2) -> max(x, 2)#1" in keys


def test_a_multi_line_expression_keeps_the_following_lines_in_place() -> None:
    source = "x = (1 +\n     2)\ny = 3\n"
    # The mutants of `1 +\n 2` on lines 1-2: + -> -, and the two constants, each two ways.
    spanning = [m for m in mutation.mutants_of_source("sample", source) if m.line in (1, 2)]
    assert len(spanning) == 5
    for mutant in spanning:
        mutated = mutation.mutated_source(mutant, source)
        ast.parse(mutated)
        assert mutated.splitlines()[2] == "y = 3", mutant.describe()


@pytest.mark.parametrize("module", mutation.MODULES)
def test_every_mutant_of_the_spec_compiles_with_its_lines_in_place(module: str) -> None:
    original = mutation.module_path(module).read_text(encoding="utf-8")
    for mutant in mutation.mutants(module):
        mutated = mutation.mutated_source(mutant)
        ast.parse(mutated)
        assert mutated.count("\n") == original.count("\n"), mutant.describe()
        assert mutated != original


def _mutant(module: str, key: str) -> object:
    return next(m for m in mutation.mutants(module) if m.key == key)


def test_a_mutant_that_breaks_a_rule_is_killed_through_the_protocol() -> None:
    # Counting a 0-0 held with another blank as 25 instead of 0 (`blank_double` gives 25 for
    # both) breaks score.double-blank-25; the double-blank-with-another-blank vector catches it.
    verdict = mutation.run_mutant(
        _mutant("reference.counting", "reference.counting:blank_double:condition:others -> False#1")
    )
    assert verdict.killed, verdict.how


def test_a_mutant_the_protocol_cannot_show_survives() -> None:
    # Never raising for an unreachable position changes nothing a real hand can reach: the
    # protocol only plays hands, so every position it scores is valid.
    verdict = mutation.run_mutant(
        _mutant("position", "position:checked:condition:problem is not None -> False#1")
    )
    assert not verdict.killed, verdict.how


def test_every_entry_of_the_scope_file_names_mutants_that_exist() -> None:
    # A stale entry (the function was renamed, the mutant no longer exists) would silently
    # explain nothing; each entry must cover at least one current mutant.
    every = [m for module in mutation.MODULES for m in mutation.mutants(module)]
    scope = mutation.read_scope()
    assert scope.outside
    assert scope.equivalent
    for entry in (*scope.outside, *scope.equivalent):
        assert any(entry.covers(m) for m in every), entry.pattern


def test_the_scope_file_refuses_an_entry_without_a_reason(tmp_path: Path) -> None:
    broken = tmp_path / "scope.toml"
    broken.write_text('[[equivalent]]\nkey = "result:f:constant:1 -> 2#1"\n')
    with pytest.raises(ValueError, match="equivalent entry 1 needs a key and a reason"):
        mutation.read_scope(broken)


# --- against the unit tests ----------------------------------------------------------------------

_TINY = """\
def total(a, b):
    return a + b


def bigger(a, b):
    return a if a == b else max(a, b)


def countdown(n):
    while n > 0:
        n -= 1
    return n
"""

_TINY_TESTS = """\
import mutation_tiny


def test_total():
    assert mutation_tiny.total(2, 3) == 5  # 2 + 3


def test_bigger():
    assert mutation_tiny.bigger(2, 3) == 3  # the larger of 2 and 3
    assert mutation_tiny.bigger(4, 4) == 4


def test_countdown():
    assert mutation_tiny.countdown(3) == 0  # 3, 2, 1, 0: stops at 0
"""


def _tiny_verdict(tmp_path: Path, key: str, tests: str = _TINY_TESTS, timeout: float = 300) -> str:
    test_file = tmp_path / "test_tiny.py"
    test_file.write_text(tests)
    how = mutation.failure_in_tests("mutation_tiny", key, [test_file], timeout, source=_TINY)
    return "survived" if how is None else str(how)


def test_a_mutant_the_tests_catch_is_killed_and_named_by_its_test(tmp_path: Path) -> None:
    # total(2, 3) becomes 2 - 3 = -1, not 5: test_total fails first.
    how = _tiny_verdict(tmp_path, "mutation_tiny:total:arithmetic:a + b -> a - b#1")
    assert how.endswith("::test_total"), how


def test_an_equivalent_mutant_survives_the_tests(tmp_path: Path) -> None:
    # `a if False else max(a, b)` is max(a, b), and when a == b that is a: no input can tell.
    key = "mutation_tiny:bigger:condition:a == b -> False#1"
    assert _tiny_verdict(tmp_path, key) == "survived"


def test_a_mutant_that_never_ends_is_killed_by_the_timeout(tmp_path: Path) -> None:
    # n -= 1 becomes n += 1: countdown(3) counts up for ever, and only the timeout ends it.
    how = _tiny_verdict(
        tmp_path, "mutation_tiny:countdown:arithmetic:n -= 1 -> n += 1#1", timeout=3
    )
    assert how == "timed out after 3 s"


def test_tests_that_never_import_the_mutant_are_an_error_not_a_survivor(tmp_path: Path) -> None:
    # A test file that does not import the mutated module would let every mutant survive,
    # or (through another import hook) test the real file: the run says so instead.
    tests = "def test_nothing():\n    assert 1 + 1 == 2\n"
    how = _tiny_verdict(tmp_path, "mutation_tiny:total:arithmetic:a + b -> a - b#1", tests)
    assert "did not import the mutant of mutation_tiny" in how


def test_the_unmutated_gaple_match_passes_its_tests_and_a_mutant_does_not() -> None:
    # Unmutated: test_match.py passes. Mutated: record_hand no longer refuses a hand whose
    # first-hand flag is not the match's, which test_match.py records on purpose.
    files = mutation.unit_test_files("match")
    assert mutation.failure_in_tests("match", "-", files, 300) is None
    key = "match:record_hand:condition:state.first_hand != match.first_hand -> False#1"
    assert mutation.failure_in_tests("match", key, files, 300) is not None


def test_the_tests_tables_refuse_an_entry_without_a_reason(tmp_path: Path) -> None:
    broken = tmp_path / "scope.toml"
    broken.write_text('[[tests.outside]]\nkey = "match:f:constant:1 -> 2#1"\n')
    with pytest.raises(ValueError, match=r"tests\.outside entry 1 needs a key and a reason"):
        mutation.read_scope(broken, against="tests")


def test_every_tests_entry_of_the_survivors_file_names_a_mutant_that_exists() -> None:
    every = [m for module in mutation.MODULES for m in mutation.mutants(module)]
    scope = mutation.read_scope(against="tests")
    assert scope.equivalent
    for entry in (*scope.outside, *scope.equivalent):
        assert any(entry.covers(m) for m in every), entry.pattern
