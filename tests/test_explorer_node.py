"""The explorer's bundle in Node, without a browser: seeded hands of every preset played
through Pyodide as the page plays them (explorer/page/runtime.mjs), compared exactly with the
same hands played by the reference in CPython.

It needs ``node`` and the built explorer (``make docs``, which ``make test`` runs first);
without either it skips, saying why.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import zipfile
from pathlib import Path
from typing import Any

import pytest

from gaple.deal import shuffle_deal
from gaple.io import result_to_json, state_to_json
from gaple.presets import PRESETS, ruleset
from gaple.result import hand_result
from gaple.state import apply, legal_moves, new_hand

ROOT = Path(__file__).resolve().parents[1]
BUILT = ROOT / "docs" / "_build" / "html" / "explorer"
SEEDS = 4
"""Seeds per preset: 4 x 8 presets = 32 hands."""


def built_explorer() -> Path:
    """The built explorer, or the test skipped saying what is missing."""
    if not (BUILT / "bundle.json").is_file():
        pytest.skip(f"no built explorer in {BUILT}: run make docs")
    return BUILT


def played_in_cpython(preset: str, seed: int) -> dict[str, Any]:
    """The hand runtime.mjs's playSeeded plays: dealt from ``seed``, and at each step the legal
    move at (step mod the number of legal moves)."""
    rules = ruleset(preset)
    state = new_hand(rules, shuffle_deal(rules, seed))
    step = 0
    while not state.is_over:
        moves = legal_moves(state)
        state = apply(state, moves[step % len(moves)])
        step += 1
    return {"state": state_to_json(state), "result": result_to_json(hand_result(state))}


def same_result(page: dict[str, Any], cpython: dict[str, Any]) -> None:
    """The page's reckoning holds CPython's, every note with the same rule and words."""
    notes = [{"rule": n["rule"], "text": n["text"]} for n in page["notes"]]
    assert notes == cpython["notes"]
    assert {key: page[key] for key in cpython if key != "notes"} == {
        key: value for key, value in cpython.items() if key != "notes"
    }


def test_node_plays_every_preset_as_cpython_does() -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: the explorer's Node test needs Node.js 18 or later")
    folder = built_explorer()
    script = Path(__file__).with_name("explorer_node.mjs")
    done = subprocess.run(
        [node, str(script), str(folder), str(SEEDS)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    hands = [json.loads(line) for line in done.stdout.splitlines()]
    assert [(h["preset"], h["seed"]) for h in hands] == [
        (preset, seed) for preset in PRESETS for seed in range(SEEDS)
    ]
    for hand in hands:
        cpython = played_in_cpython(hand["preset"], hand["seed"])
        assert hand["state"] == cpython["state"], (hand["preset"], hand["seed"])
        same_result(hand["result"], cpython["result"])


def test_the_pages_gaple_wheel_leaves_out_the_cases_and_lists_what_it_holds() -> None:
    # The page never reads the conformance cases, so the bundle's wheel leaves them out; a
    # wheel is only whole if its RECORD names exactly its files (RECORD names itself too).
    (wheel,) = (built_explorer() / "wheels").glob("gaple-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        (record,) = [name for name in names if name.endswith(".dist-info/RECORD")]
        recorded = {row.split(",")[0] for row in archive.read(record).decode().splitlines()}
    assert not any(name.startswith("gaple/spec/vectors/") for name in names)
    assert "gaple/explorer.py" in names
    assert recorded == names


def test_every_module_of_the_pages_gaple_comes_compiled_for_any_date_of_its_source() -> None:
    # bytecode.zip holds, for each gaple/**/x.py of the wheel, its __pycache__/x.cpython-3NN.pyc;
    # each an "unchecked hash" .pyc (flags word 1 = hash-based, bit 1 clear = source not
    # checked), since the unpacked sources do not keep their dates.
    folder = built_explorer() / "wheels"
    (wheel,) = folder.glob("gaple-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        sources = [name for name in archive.namelist() if name.endswith(".py")]
    with zipfile.ZipFile(folder / "bytecode.zip") as archive:
        compiled = {name: archive.read(name) for name in archive.namelist()}
    tag = {name.rsplit(".", 2)[-2] for name in compiled}
    assert len(tag) == 1, f"modules compiled by more than one Python: {tag}"
    (python,) = tag
    for source in sources:
        folder_name, _, stem = source[: -len(".py")].rpartition("/")
        pyc = f"{folder_name}/__pycache__/{stem}.{python}.pyc"
        assert pyc in compiled, f"{source} has no {pyc}"
        assert int.from_bytes(compiled[pyc][4:8], "little") == 1, f"{pyc} is not unchecked-hash"


def test_the_page_starts_from_a_gzipped_snapshot_of_the_interpreter() -> None:
    # runtime.mjs hands bundle.json's snapshot to loadPyodide (_loadSnapshot); the hands the
    # other tests play through the bundle start from it. It is gzip (magic 1f 8b).
    folder = built_explorer()
    bundle = json.loads((folder / "bundle.json").read_text(encoding="utf-8"))
    snapshot = folder / "pyodide" / bundle["snapshot"]
    assert snapshot.read_bytes()[:2] == b"\x1f\x8b"
