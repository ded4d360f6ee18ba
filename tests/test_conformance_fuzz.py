"""Differential fuzzing: silent on the spec itself, and a shrunk, committable case for a
broken engine, naming the rule it breaks."""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from gaple.cli import main
from gaple.conformance.engines import ReferenceEngine
from gaple.conformance.fuzz import fuzz
from gaple.conformance.runner import run_suite
from gaple.conformance.schemas import case_schema
from mutants import write_mutant_adapter

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_conformance import _LateBlock, _NoHandOver, _PassAnyTime

jsonschema: Any = importlib.import_module("jsonschema")


@pytest.mark.parametrize("preset", ["pagat-4x7", "domino4d", "pagat-4x6"])
def test_the_spec_never_disagrees_with_itself(preset: str) -> None:
    assert fuzz(ReferenceEngine, preset, examples=25, seed=3) is None


@pytest.mark.parametrize(
    ("engine", "preset", "rule"),
    [
        (_PassAnyTime, "domino4d", "turn.forced-play"),
        (_NoHandOver, "pagat-4x7", "end.final"),
        (_LateBlock, "domino4d", "end.blocked"),
    ],
)
def test_a_broken_engine_yields_a_minimal_case_naming_its_rule(
    engine: type[ReferenceEngine], preset: str, rule: str
) -> None:
    found = fuzz(engine, preset, examples=60, seed=1)
    assert found is not None
    assert found.outcome.rule == rule
    jsonschema.validate(found.case, case_schema())
    # The case stops at the divergence, and it is a real regression test: the spec passes it,
    # the broken engine fails it the same way.
    assert len(found.case["steps"]) == found.outcome.step
    assert run_suite([found.case], ReferenceEngine).ok
    again = run_suite([found.case], engine).outcomes[0]
    assert (again.status, again.rule) == ("failed", rule)


def test_cli_fuzz_writes_the_case_and_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = tmp_path / "broken.py"
    write_mutant_adapter(
        broken,
        "    if r['type'] == 'state' and r['ending'] == 'out':\n        r['ending'] = None",
    )
    impl = f"{sys.executable} {broken}"
    argv = ["conformance", "fuzz", "--impl", impl, "--variant", "domino4d", "--examples", "20"]
    assert main([*argv, "--out", str(tmp_path / "found")]) == 1
    out = capsys.readouterr().out
    assert "[end.out]" in out
    (path,) = (tmp_path / "found").glob("*.json")
    jsonschema.validate(json.loads(path.read_text()), case_schema())


def test_cli_fuzz_on_the_reference_finds_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["conformance", "fuzz", "--reference", "--variant", "pagat-5x5", "--examples", "10"]
    assert main(argv) == 0
    assert "no disagreement in 10 hands" in capsys.readouterr().out


def test_cli_fuzz_of_a_variant_the_engine_declines_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "declines.py"
    script.write_text(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    m = json.loads(line)\n"
        "    if m['type'] == 'hello':\n"
        "        r = {'type': 'hello', 'protocol': 1, 'name': 'n', 'levels': ['line', 'turns'],"
        " 'error_codes': False}\n"
        "    else:\n"
        "        r = {'type': 'unsupported', 'reason': 'no pass option here'}\n"
        "    print(json.dumps(r), flush=True)\n"
    )
    argv = ["conformance", "fuzz", "--impl", f"{sys.executable} {script}"]
    assert main([*argv, "--set", "blocked_action=pass", "--examples", "3"]) == 2
    err = capsys.readouterr().err
    assert "does not play this variant" in err
    assert "no pass option here" in err
