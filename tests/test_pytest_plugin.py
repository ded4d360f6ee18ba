"""The pytest plugin (gaple.testing.plugin), run as an engine author runs it: pytest in a
separate process on a project, here examples/pytest_project and small projects made on the
spot. The JUnit XML of each run says which items there were and how each ended."""

from __future__ import annotations

import functools
import shlex
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from gaple.conformance.cases import LEVELS
from gaple.conformance.engines import SubprocessEngine
from gaple.conformance.runner import run_suite
from gaple.conformance.scenarios import all_cases
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
    """The conformance items, by name, with their outcome."""
    return {name: ending for name, (ending, _, _) in items.items() if "/" in name}


def case_id(name: str) -> str:
    """The case ID in an item name ``<topic>/<case id>[<rule IDs>]`` (a topic may hold a /)."""
    return name.split("[", maxsplit=1)[0].rsplit("/", 1)[1]


def test_the_plugin_levels_are_the_runner_levels() -> None:
    # The option choices are written out so that --help stays cheap; they must not drift.
    assert plugin._LEVELS == LEVELS


def test_the_example_project_passes_with_one_item_per_case(tmp_path: Path) -> None:
    items = run_pytest(tmp_path, PROJECT)
    cases = all_cases()
    # The example engine plays every preset and declares every level, and make run shows
    # it conforming: every case is an item and passes, and so does the property test.
    assert conformance_items(items) == {
        f"{c['topic']}/{c['id']}[{','.join(c['rule_ids'])}]": "passed" for c in cases
    }
    assert items["test_the_engine_offers_the_spec_moves_and_takes_each"][0] == "passed"


def test_a_seeded_bug_fails_items_named_by_the_rule_it_breaks(tmp_path: Path) -> None:
    command = shlex.join([sys.executable, str(BUG_ADAPTER), "--bug", "wrong-end"])
    items = run_pytest(tmp_path, PROJECT, "--gaple-impl", command)
    failed = {name: props for name, (ending, _, props) in items.items() if ending == "failure"}
    # wrong-end puts a tile on whichever end fits (examples/bugs/wrong_end.py): the line
    # differs as soon as a tile goes on the left end, which breaks play.match-end. (A case that
    # does not compare the line sees the consequence instead, e.g. a wrong ending.)
    assert "play.match-end" in {props["rule"] for props in failed.values()}
    for name, props in failed.items():
        assert props["rule"] in name
    # A case that never places on the left end still passes (the bug does not show there).
    assert "passed" in conformance_items(items).values()

    # Each item ends as the same case ends under gaple conformance run.
    engine = functools.partial(SubprocessEngine, command, timeout=10.0)
    ran = run_suite(all_cases(), engine).outcomes
    pytest_word = {"passed": "passed", "failed": "failure", "skipped": "skipped"}
    assert {o.case: pytest_word[o.status] for o in ran} == {
        case_id(name): ending for name, ending in conformance_items(items).items()
    }


def test_a_level_not_checked_skips_with_the_reason(tmp_path: Path) -> None:
    items = run_pytest(tmp_path, PROJECT, "--gaple-level", "line", "-k", "turns-")
    # The turns topic's cases need level turns to be played at all (they check whose turn it
    # is and which moves are offered); with only line checked, each is skipped, saying why.
    turns = {name: item for name, item in items.items() if name.startswith("turns/")}
    assert turns
    for ending, message, _ in turns.values():
        assert ending == "skipped"
        assert "needs level turns, which is not checked" in message


def test_an_in_process_engine_from_a_conftest_hook(tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (project / "conftest.py").write_text(
        "from gaple.conformance.engines import ReferenceEngine\n\n\n"
        "def pytest_gaple_engine(config):\n    return ReferenceEngine\n"
    )
    items = run_pytest(tmp_path, project, "--gaple-variant", "domino4d")
    # Only the cases of the domino4d preset are items, and gaple itself passes them.
    expected = {c["id"] for c in all_cases() if c["variant"]["preset"] == "domino4d"}
    assert expected
    assert {case_id(name) for name in items} == expected
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
    turns = {name: item for name, item in items.items() if name.startswith("turns/")}
    # An adapter that exits at once cannot answer hello: every item fails, saying the engine
    # errored, and the run still reaches every item.
    assert turns
    assert all(ending == "failure" for ending, _, _ in turns.values())
    assert all("the engine errored" in message for _, message, _ in turns.values())
