"""The Node adapter template (``examples/node/``): it conforms on every case it plays, declines
the others with its reason, a seeded defect is caught by its rule, and its transcript logger
writes logs that ``gaple check`` accepts (and refuses when the engine is wrong).

Run with ``node`` from PATH (the machine's v20); skipped, with the reason, without it.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from gaple.cli import main

ROOT = Path(__file__).resolve().parent.parent
NODE = ROOT / "examples" / "node"
VECTORS = ROOT / "spec" / "vectors" / "v1"

pytestmark = pytest.mark.skipif(
    shutil.which("node") is None, reason="node is not on PATH: the Node template cannot run"
)


def adapter(*flags: str) -> str:
    return " ".join(["node", str(NODE / "adapter.mjs"), *flags])


def run_report(tmp_path: Path, impl: str, *options: str) -> tuple[int, list[dict[str, Any]]]:
    """``gaple conformance run --impl IMPL``: its exit status and the case records."""
    report = tmp_path / "report.jsonl"
    status = main(
        ["conformance", "run", "--impl", impl, "--jobs", "2", "--report", str(report), *options]
    )
    records = [json.loads(line) for line in report.read_text().splitlines()]
    return status, [r for r in records if r["type"] == "case"]


def committed_settlements() -> dict[str, str]:
    """Each committed case's settlement, read from its rules."""
    cases = (json.loads(p.read_text()) for p in VECTORS.rglob("*.json"))
    return {case["id"]: case["rules"]["settlement"] for case in cases}


def test_the_template_passes_every_case_it_plays_and_declines_the_rest_with_a_reason(
    tmp_path: Path,
) -> None:
    status, cases = run_report(tmp_path, adapter(), "--validate")
    assert status == 0  # CONFORMS
    # The tiny engine plays every ruleset but the Sundanese pair scoring (settlement
    # "partnership"), and declares so in its hello: the run is measured in that scope. The
    # pair scoring's cases are not part of it (declining them would make the run PARTIAL,
    # status 4, without the declaration); every other committed case is, with the cases made
    # to measure for the cells no committed case of the scope reaches, and all pass at all
    # five levels (--validate: every message well formed).
    pairs = {case for case, how in committed_settlements().items() if how == "partnership"}
    ran = {c["case"] for c in cases}
    assert not ran & pairs
    assert set(committed_settlements()) - pairs <= ran
    assert {c["status"] for c in cases} == {"passed"}
    assert all("rules" in c["levels"] for c in cases)
    assert any(case.startswith("tailored-") for case in ran)


def test_a_tile_laid_on_the_wrong_end_is_caught_as_play_match_end(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, cases = run_report(tmp_path, adapter("--defect", "wrong-end"), "--variant", "domino4d")
    assert status == 1  # DOES NOT CONFORM
    (e002,) = (c for c in cases if c["case"] == "play-domino4d-e002")
    # After the lead 0-0 both ends show 0; "place 0-2 left" joins 0-2's 0 to the left 0, so the
    # line reads 2-0, 0-0. The defect lays every tile fitting the right end on the right:
    # 0-0, 0-2.
    assert (e002["status"], e002["step"], e002["field"]) == ("failed", 2, "line")
    assert e002["rule"] == "play.match-end"
    assert (e002["expected"], e002["actual"]) == ([[2, 0], [0, 0]], [[0, 0], [0, 2]])
    assert "line [play.match-end]" in capsys.readouterr().out


def self_play(tmp_path: Path, *flags: str) -> Path:
    """Forty hands of self-play logged by the transcript logger, as a JSON-lines file."""
    log = tmp_path / "selfplay.jsonl"
    subprocess.run(
        ["node", NODE / "selfplay.mjs", "--hands", "40", "--out", log, *flags],
        check=True,
        timeout=60,
    )
    return log


def test_the_logged_transcripts_conform(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = self_play(tmp_path)
    assert len(log.read_text().splitlines()) == 40
    assert main(["check", str(log)]) == 0
    assert "40 transcripts: 40 conform, 0 diverge, 0 invalid" in capsys.readouterr().out


def test_the_log_of_a_wrong_engine_is_caught(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = self_play(tmp_path, "--defect", "wrong-end")
    assert main(["check", str(log)]) == 1
    # Once the defect lays a tile on the right that the move put on the left, the engine's
    # ends differ from the spec's, and so do the placements it offers next: play.match-end.
    assert "play.match-end:" in capsys.readouterr().out
