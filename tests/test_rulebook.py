"""The reference reads as the rulebook: each page of the rules (docs/rules) names the modules
of its code, and each of those modules opens with the functions deciding its rules, in the
order the page states them; helpers and fact classes come after."""

from __future__ import annotations

import ast
import importlib
import inspect
import re
from pathlib import Path

import gaple.reference  # noqa: F401  (imports every reference module: each decider is marked)
from gaple.reference.deciding import DECIDERS, decided_by

PAGES = Path(__file__).resolve().parent.parent / "docs" / "rules"
_RULE = re.compile(r"^\.\. rule:: (\S+)$", re.MULTILINE)
_MODULE = re.compile(r":mod:`(gaple\.reference\.\w+)`")


def opening_functions(module: str) -> list[str]:
    """The names of the top-level functions of ``module``, in the order of its text."""
    tree = ast.parse(inspect.getsource(importlib.import_module(module)))
    return [node.name for node in tree.body if isinstance(node, ast.FunctionDef)]


def order_problems(page: str, text: str) -> list[str]:
    """What keeps the page ``text`` and its modules from reading in step: a module of its rules
    that the page does not name, or one that does not open with the page's deciders in order."""
    deciders: dict[str, list[str]] = {}
    for rule_id in _RULE.findall(text):
        function = decided_by(rule_id)
        names = deciders.setdefault(function.__module__, [])
        if function.__name__ not in names:
            names.append(function.__name__)
    named = set(_MODULE.findall(text.split(".. rule::", maxsplit=1)[0]))
    problems = [f"{page} does not name {module}" for module in deciders if module not in named]
    for module, names in deciders.items():
        opening = opening_functions(module)[: len(names)]
        if opening != names:
            problems.append(f"{module} opens with {opening}, {page} states {names}")
    return problems


def test_every_page_of_the_rules_reads_in_step_with_its_modules() -> None:
    problems = [
        problem
        for page in sorted(PAGES.glob("*.rst"))
        for problem in order_problems(page.name, page.read_text(encoding="utf-8"))
    ]
    assert problems == []


def test_each_module_of_rules_belongs_to_one_page() -> None:
    # One to one: a module's rules are all on one page, and every deciding module has a page.
    pages_of: dict[str, set[str]] = {}
    for page in PAGES.glob("*.rst"):
        for rule_id in _RULE.findall(page.read_text(encoding="utf-8")):
            pages_of.setdefault(decided_by(rule_id).__module__, set()).add(page.name)
    deciding = {f.__module__ for marked in DECIDERS.values() for f in marked}
    assert deciding == set(pages_of)
    assert {module: pages for module, pages in pages_of.items() if len(pages) > 1} == {}


def test_the_order_check_catches_two_rules_swapped() -> None:
    # A planted break: the end-of-hand page with its first two rules in the other order.
    page = (PAGES / "end-of-hand.rst").read_text(encoding="utf-8")
    swapped = page.replace(".. rule:: end.out", "@@").replace(
        ".. rule:: end.blocked", ".. rule:: end.out"
    )
    swapped = swapped.replace("@@", ".. rule:: end.blocked")
    assert order_problems("end-of-hand.rst", page) == []
    assert order_problems("end-of-hand.rst", swapped) == [
        "gaple.reference.ending opens with ['gone_out', 'blocks', 'hand_over'], "
        "end-of-hand.rst states ['blocks', 'gone_out', 'hand_over']"
    ]


def test_the_order_check_catches_a_page_that_does_not_name_its_module() -> None:
    page = (PAGES / "end-of-hand.rst").read_text(encoding="utf-8")
    unnamed = page.replace(":mod:`gaple.reference.ending`", "the ending module")
    assert order_problems("end-of-hand.rst", unnamed) == [
        "end-of-hand.rst does not name gaple.reference.ending"
    ]
