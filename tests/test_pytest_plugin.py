"""The pytest plugin (gaple.testing.plugin), run as an engine author runs it: pytest in a
separate process on a project, here examples/pytest_project and small projects made on the
spot. The JUnit XML of each run says which items there were and how each ended."""

from __future__ import annotations

import functools
import os
import shlex
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import pytest

from gaple.conformance.runner.engines import SubprocessEngine
from gaple.conformance.runner.run import run_suite
from gaple.conformance.vectors.cases import LEVELS
from gaple.conformance.vectors.scenarios import all_cases
from gaple.registry import RULES, rule_url
from gaple.testing import plugin

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
PROJECT = EXAMPLES / "pytest_project"
BUG_ADAPTER = EXAMPLES / "bugs" / "adapter.py"


def run_pytest(tmp_path: Path, *args: str | Path) -> dict[str, tuple[str, str, dict[str, str]]]:
    """Run pytest from ``tmp_path`` (so Hypothesis writes its database there); every test case
    of the JUnit report by name: (outcome, message, properties)."""
    junit = tmp_path / "junit.xml"
    subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", f"--junitxml={junit}", *args],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    items: dict[str, tuple[str, str, dict[str, str]]] = {}
    for case in ET.parse(junit).iter("testcase"):
        outcome, message = "passed", ""
        for kind in ("failure", "error", "skipped"):
            found = case.find(kind)
            if found is not None:
                outcome, message = kind, found.get("message", "") + (found.text or "")
        properties = {p.get("name", ""): p.get("value", "") for p in case.iter("property")}
        items[case.get("name", "")] = (outcome, message, properties)
    return items


def conformance_items(items: dict[str, tuple[str, str, dict[str, str]]]) -> dict[str, str]:
    """The conformance items (each named by its case ID), with their outcome."""
    ids = {case["id"] for case in all_cases()}
    return {name: ending for name, (ending, _, _) in items.items() if name in ids}


def test_the_plugin_levels_are_the_runner_levels() -> None:
    # The option choices are written out so that --help stays cheap; they must not drift.
    assert plugin._LEVELS == LEVELS


def test_the_example_project_passes_with_one_item_per_case(tmp_path: Path) -> None:
    items = run_pytest(tmp_path, PROJECT)
    cases = all_cases()
    # The example engine plays every preset and declares every level, and make run shows
    # it conforming: every case is an item and passes, and so does the property test.
    assert conformance_items(items) == {c["id"]: "passed" for c in cases}
    assert items["test_the_engine_offers_the_spec_moves_and_takes_each"][0] == "passed"


def test_a_seeded_bug_fails_items_that_carry_the_rule_it_breaks(tmp_path: Path) -> None:
    command = shlex.join([sys.executable, str(BUG_ADAPTER), "--bug", "wrong-end"])
    items = run_pytest(tmp_path, PROJECT, "--gaple-impl", command)
    # The property test drives the engine --gaple-impl names, over the protocol: a tile that
    # fits both ends, placed on the left, goes right (examples/bugs/wrong_end.py), and the
    # ends it leaves offer other moves than the spec's; its 30 hands place many such tiles.
    assert items["test_the_engine_offers_the_spec_moves_and_takes_each"][0] == "failure"
    cases = conformance_items(items)
    failed = {
        name: props
        for name, (ending, _, props) in items.items()
        if ending == "failure" and name in cases
    }
    # wrong-end puts a tile on whichever end fits (examples/bugs/wrong_end.py): the line
    # differs as soon as a tile goes on the left end, which breaks play.match-end. (A case that
    # does not compare the line sees the consequence instead, e.g. a wrong ending.)
    assert "play.match-end" in {props["rule"] for props in failed.values()}
    # Each failure names a rule of the registry; a case that ends otherwise than its own
    # ending because of the bug names that ending's rule, which its own rules need not hold.
    assert all(props["rule"] in RULES for props in failed.values())
    # And ends with where that rule is explained: under this machine's docs when it has them
    # (gaple.localdocs), else relative to the docs root; either way ending in its rule_url.
    for name, (ending, message, props) in items.items():
        if ending == "failure" and name in cases:
            rule_id = props["rule"]
            said = message.rstrip()
            assert f"\ndocs of {rule_id}: " in said, name
            assert said.endswith(rule_url(rule_id)), name
    # A case that never places on the left end still passes (the bug does not show there).
    assert "passed" in conformance_items(items).values()

    # Each item ends as the same case ends under gaple conformance run.
    engine = functools.partial(SubprocessEngine, command, timeout=10.0)
    ran = run_suite(all_cases(), engine).outcomes
    pytest_word = {"passed": "passed", "failed": "failure", "skipped": "skipped"}
    assert {o.case: pytest_word[o.status] for o in ran} == conformance_items(items)


def test_a_level_not_checked_skips_with_the_reason(tmp_path: Path) -> None:
    items = run_pytest(tmp_path, PROJECT, "--gaple-level", "line", "-k", "turns-")
    # The turns topic's cases need level turns to be played at all (they check whose turn it
    # is and which moves are offered); with only line checked, each is skipped, saying why.
    turns = {name: item for name, item in items.items() if name.startswith("turns-")}
    assert turns
    for ending, message, _ in turns.values():
        assert ending == "skipped"
        assert "needs level turns, which is not checked" in message


def test_an_in_process_engine_from_a_conftest_hook(tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (project / "conftest.py").write_text(
        "from gaple.conformance.runner.engines import ReferenceEngine\n\n\n"
        "def pytest_gaple_engine(config):\n    return ReferenceEngine\n"
    )
    items = run_pytest(tmp_path, project, "--gaple-variant", "domino4d")
    # Only the cases of the domino4d preset are items, and gaple itself passes them.
    expected = {c["id"] for c in all_cases() if c["variant"]["preset"] == "domino4d"}
    assert expected
    assert set(items) == expected
    assert set(conformance_items(items).values()) == {"passed"}


@pytest.mark.parametrize("hook", ["", "def pytest_gaple_engine(config):\n    return None\n"])
def test_the_plugin_is_inert_when_no_engine_is_named(tmp_path: Path, hook: str) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (project / "conftest.py").write_text(hook)
    (project / "test_nothing.py").write_text("def test_one():\n    assert True\n")
    items = run_pytest(tmp_path, project)
    # Only the project's own test ran: no conformance item was added.
    assert items == {"test_one": ("passed", "", {})}


def test_a_crashing_engine_errors_each_item_without_stopping_the_run(tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (project / "conftest.py").write_text("")
    crash = shlex.join([sys.executable, "-c", "import sys; sys.exit(1)"])
    items = run_pytest(tmp_path, project, "--gaple-impl", crash, "-k", "turns-")
    turns = {name: item for name, item in items.items() if name.startswith("turns-")}
    # An adapter that exits at once cannot answer hello: every item fails, saying the engine
    # errored, and the run still reaches every item.
    assert turns
    assert all(ending == "failure" for ending, _, _ in turns.values())
    assert all("the engine errored" in message for _, message, _ in turns.values())


def pytest_lines(cwd: Path, cache: Path, *args: str | Path) -> tuple[int, list[str]]:
    """Run pytest from ``cwd`` as a user at an 80-column terminal does, outside CI (where
    pytest never trims the short summary), its cache in ``cache``: exit status and lines."""
    env = {key: value for key, value in os.environ.items() if key not in ("CI", "BUILD_NUMBER")}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-o", f"cache_dir={cache}", *map(str, args)],
        cwd=cwd,
        env={**env, "COLUMNS": "80"},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    return done.returncode, done.stdout.splitlines()


PROPERTY_TEST = "test_engine.py::test_the_engine_offers_the_spec_moves_and_takes_each"


def ids_of(rule_id: str) -> set[str]:
    """The node IDs of the cases of a rule."""
    return {f"conftest.py::{c['id']}" for c in all_cases() if rule_id in c["rule_ids"]}


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        # Every case is an item of the conftest.py that names the engine, by its case ID, and
        # test_engine.py holds the one property test.
        ([PROJECT], lambda: {f"conftest.py::{c['id']}" for c in all_cases()} | {PROPERTY_TEST}),
        # -k with a case ID selects that case alone (no other ID contains play-domino4d-e002).
        ([PROJECT, "-k", "play-domino4d-e002"], lambda: {"conftest.py::play-domino4d-e002"}),
        # A rule ID is a marker (registered: --strict-markers accepts it) and a -k keyword.
        (
            [PROJECT, "-m", "open_double_blank", "--strict-markers"],
            lambda: ids_of("open.double-blank"),
        ),
        ([PROJECT, "-k", "open.double-blank"], lambda: ids_of("open.double-blank")),
        # A file other than the conftest.py holds no case.
        ([PROJECT / "test_engine.py"], lambda: {PROPERTY_TEST}),
        # Without the plugin the conftest's hook is optional: the other tests still run.
        ([PROJECT, "-p", "no:gaple"], lambda: {PROPERTY_TEST}),
    ],
)
def test_collect_only_lists_each_case_by_its_node_id(
    tmp_path: Path, args: list[str | Path], expected: Callable[[], set[str]]
) -> None:
    status, lines = pytest_lines(tmp_path, tmp_path, "--co", "-q", *args)
    assert status == 0
    listed = {line for line in lines if "::" in line}
    assert listed == expected()
    # The count says the same (not "1 test collected" for all of them).
    selected = f"{len(listed)}/" if "-k" in args or "-m" in args else f"{len(listed)} "
    assert lines[-1].startswith(selected)


def test_the_daily_loop_against_a_seeded_bug(tmp_path: Path) -> None:
    # From the project, as its author works: the cases of conftest.py against the wrong-end
    # engine, then --lf, then a node ID copied from a FAILED line.
    command = shlex.join([sys.executable, str(BUG_ADAPTER), "--bug", "wrong-end"])
    junit = tmp_path / "junit.xml"
    status, lines = pytest_lines(
        PROJECT, tmp_path, "conftest.py", "--gaple-impl", command, f"--junitxml={junit}"
    )
    assert status == 1
    rules = {
        case.get("name"): {p.get("name"): p.get("value", "") for p in case.iter("property")}["rule"]
        for case in ET.parse(junit).iter("testcase")
        if case.find("failure") is not None
    }
    failed = [line.removeprefix("FAILED ") for line in lines if line.startswith("FAILED ")]
    assert {line.split(" ", 1)[0] for line in failed} == {f"conftest.py::{n}" for n in rules}
    for line in failed:
        node, message = line.split(" - ", 1)
        name = node.removeprefix("conftest.py::")
        assert message
        # At 80 columns "FAILED conftest.py::" (20) and the case ID leave 60 - len(ID)
        # columns for " - " (3), the message and "..." (3): for an ID of at most 40
        # characters that is 14 or more, enough for the rule broken (play.match-end is 14).
        if len(name) <= 40:
            assert message.startswith(rules[name][:14])

    # --lf runs the failures again, and nothing else.
    status, _ = pytest_lines(
        PROJECT, tmp_path, "conftest.py", "--gaple-impl", command, "--lf", f"--junitxml={junit}"
    )
    assert status == 1
    rerun = {case.get("name") for case in ET.parse(junit).iter("testcase")}
    assert rerun == set(rules)

    # The node ID of a FAILED line, pasted back, runs that case alone.
    pasted = failed[0].split(" ", 1)[0]
    status, _ = pytest_lines(
        PROJECT, tmp_path, pasted, "--gaple-impl", command, f"--junitxml={junit}"
    )
    assert status == 1
    assert [case.get("name") for case in ET.parse(junit).iter("testcase")] == [
        pasted.removeprefix("conftest.py::")
    ]
