"""``gaple template LANGUAGE DIR``: the adapter templates written from the installed package.

Each writes files equal to the package's, never over a user's file unless ``--force``; as
written it runs and says what is missing; filled with the calls into an engine it conforms,
and a defect planted in the filled block is caught by its rule. The Node template is
``examples/node/adapter.mjs`` but for the block, and its ``protocol.d.ts`` holds every message
of ``spec/protocol/`` with the schema's fields. The Node runs are skipped without ``node``.
"""

from __future__ import annotations

import json
import re
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from gaple.cli import main
from gaple.conformance.vectors.schemas import PROTOCOL_SCHEMAS
from gaple.templates import BLOCK_END, BLOCK_START, TEMPLATES, template_files

ROOT = Path(__file__).resolve().parent.parent
NODE_EXAMPLE = ROOT / "examples" / "node"
PYTHON_EXAMPLE = ROOT / "examples" / "engine"
TEMPLATES_FOLDER = ROOT / "src" / "gaple" / "templates"

_NODE = pytest.mark.skipif(
    shutil.which("node") is None, reason="node is not on PATH: the Node template cannot run"
)

PYTHON_BLOCK = """\
# ==== FILL IN HERE: the calls into the example engine (examples/engine/gaple_engine.py) =====
import gaple_engine


class Engine:
    hello: ClassVar[EngineHello] = {
        "name": "example-engine",
        "version": "1.0",
        "levels": ["line", "turns", "count", "points"],
    }

    def start(self, rules: Rules, deal: Deal, first_hand: bool) -> Any:
        if rules["partnership"] and rules["settlement"] not in ("per-hand", "partnership"):
            return f"{rules['settlement']} settlement between teams is not defined"
        options = {**rules, "forbidden_leads": frozenset(rules["forbidden_leads"])}
        return gaple_engine.Game(
            gaple_engine.Rules(**options),
            deal["hands"],
            deal["starter"],
            deal["first_seat"],
            first_hand,
        )

    def observe(self, game: Any) -> Observed:
        return {
            "to_act": game.to_act(),
            "line": list(game.line),
            "ends": game.ends(),
            "hand_sizes": [len(hand) for hand in game.hands],
            "discard_counts": [len(pile) for pile in game.discards],
            "legal": [Move(m.kind, m.tile, m.end or None) for m in game.legal_moves()],
            "ending": game.ending,
        }

    def act(self, game: Any, seat: int, move: Move) -> Refusal | None:
        try:
            game.play(seat, gaple_engine.Move(move.kind, move.tile, move.end or ""))
        except gaple_engine.RuleError as error:
            return {"code": error.code, "message": error.message}
        return None

    def over(self, game: Any) -> bool:
        return bool(game.ending)

    def result(self, game: Any) -> HandResult:
        result = game.result()
        return {
            "counts": result.counts,
            "winner": result.winner,
            "winning_team": result.winning_team,
            "points": result.points,
            "replay": result.replay,
        }


def engine_for(args: list[str]) -> Engine:
    return Engine()


# ==== END OF FILL IN HERE ==================================================================
"""
"""The Python template's block filled with the calls into the example engine."""


def block(text: str) -> tuple[int, int]:
    """Where the block marked FILL IN HERE lies in ``text``: from the start of its opening
    line to past the end of its closing line."""
    start = text.rindex("\n", 0, text.index(BLOCK_START)) + 1
    end = text.index("\n", text.index(BLOCK_END)) + 1
    return start, end


def filled(template: str, calls: str) -> str:
    """``template`` with its block replaced by ``calls``."""
    start, end = block(template)
    return template[:start] + calls + template[end:]


def node_calls() -> str:
    """The block of ``examples/node/adapter.mjs``: the calls into its toy engine."""
    text = (NODE_EXAMPLE / "adapter.mjs").read_text()
    start, end = block(text)
    return text[start:end]


def fill_node(folder: Path, calls: str | None = None) -> None:
    """Fill the Node template in ``folder`` with the calls into the toy engine (copied beside
    it, with its seeded defects), or with ``calls``."""
    for name in ("engine.mjs", "defects.mjs"):
        shutil.copy(NODE_EXAMPLE / name, folder / name)
    adapter = folder / "adapter.mjs"
    adapter.write_text(filled(adapter.read_text(), node_calls() if calls is None else calls))


def fill_python(folder: Path) -> None:
    """Fill the Python template in ``folder`` with the calls into the example engine (copied
    beside it)."""
    shutil.copy(PYTHON_EXAMPLE / "gaple_engine.py", folder / "gaple_engine.py")
    adapter = folder / "adapter.py"
    adapter.write_text(filled(adapter.read_text(), PYTHON_BLOCK))


def impl(language: str, folder: Path) -> str:
    """The ``--impl`` command of the adapter in ``folder``."""
    if language == "node":
        return f"node {folder / 'adapter.mjs'}"
    return f"{sys.executable} {folder / 'adapter.py'}"


def run_report(tmp_path: Path, command: str, *options: str) -> tuple[int, list[dict[str, Any]]]:
    """``gaple conformance run --impl COMMAND``: its exit status and the case records."""
    report = tmp_path / "report.jsonl"
    status = main(["conformance", "run", "--impl", command, "--report", str(report), *options])
    records = [json.loads(line) for line in report.read_text().splitlines()]
    return status, [r for r in records if r["type"] == "case"]


# -- the command -----------------------------------------------------------------------------


@pytest.mark.parametrize("language", ["node", "python"])
def test_the_template_is_written_from_the_package(
    tmp_path: Path, language: str, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "new" / "adapter"
    assert main(["template", language, str(folder)]) == 0
    written = {p.name: p.read_bytes() for p in folder.iterdir()}
    assert written == template_files(language)
    assert set(written) == set(TEMPLATES[language])
    # The last line is the command to run the suite with, the adapter's path in it.
    last = capsys.readouterr().out.splitlines()[-1]
    assert last.strip().startswith("gaple conformance run --impl '")
    assert f"{folder / TEMPLATES[language][0]}'" in last


def test_a_file_of_the_folder_is_never_written_over_without_force(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The user's own README.md: the command stops before writing anything, in one line.
    (tmp_path / "README.md").write_text("mine")
    assert main(["template", "node", str(tmp_path)]) == 2
    error = capsys.readouterr().err
    readme = tmp_path / "README.md"
    assert error == f"gaple template: error: {readme} exists; --force writes over it\n"
    assert [p.name for p in tmp_path.iterdir()] == ["README.md"]
    assert (tmp_path / "README.md").read_text() == "mine"
    assert main(["template", "node", str(tmp_path), "--force"]) == 0
    assert (tmp_path / "README.md").read_bytes() == template_files("node")["README.md"]


def test_a_folder_that_cannot_be_made_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "file").write_text("")
    assert main(["template", "python", str(tmp_path / "file" / "adapter")]) == 2
    error = capsys.readouterr().err
    assert error.startswith(f"gaple template: error: cannot make the folder {tmp_path}/file/")
    assert error.count("\n") == 1


# -- the templates as written and filled -----------------------------------------------------


@pytest.mark.parametrize("language", [pytest.param("node", marks=_NODE), "python"])
def test_the_template_as_written_runs_and_says_what_is_missing(
    tmp_path: Path, language: str, capsys: pytest.CaptureFixture[str]
) -> None:
    main(["template", language, str(tmp_path)])
    status, cases = run_report(tmp_path, impl(language, tmp_path), "--variant", "pagat-4x7")
    # It answers every request, but declines every hand: nothing is checked (status 3), and
    # the reason is the missing block.
    assert status == 3
    assert cases
    assert {c["status"] for c in cases} == {"skipped"}
    assert "calls no engine yet: fill in its block marked FILL IN HERE" in capsys.readouterr().out


@pytest.mark.parametrize("language", [pytest.param("node", marks=_NODE), "python"])
def test_the_template_filled_with_an_engine_conforms(tmp_path: Path, language: str) -> None:
    main(["template", language, str(tmp_path)])
    (fill_node if language == "node" else fill_python)(tmp_path)
    status, cases = run_report(tmp_path, impl(language, tmp_path), "--variant", "pagat-4x7")
    assert status == 0  # CONFORMS
    assert {c["status"] for c in cases} == {"passed"}


@_NODE
def test_a_defect_planted_in_the_filled_block_is_caught_by_its_rule(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    main(["template", "node", str(tmp_path)])
    # The block makes every placement on the right end, whichever end the move names.
    calls = node_calls().replace(
        "game.play(seat, move);",
        'game.play(seat, move.kind === "place" ? { ...move, end: "right" } : move);',
    )
    assert calls != node_calls()
    fill_node(tmp_path, calls)
    status, cases = run_report(tmp_path, impl("node", tmp_path), "--variant", "domino4d")
    assert status == 1  # DOES NOT CONFORM
    (e002,) = (c for c in cases if c["case"] == "play-domino4d-e002")
    # After the lead 0-0 both ends show 0: "place 0-2 left" joins 0-2's 0 to the left 0, so
    # the line reads 2-0, 0-0; laid on the right it reads 0-0, 0-2.
    assert (e002["status"], e002["step"], e002["field"]) == ("failed", 2, "line")
    assert e002["rule"] == "play.match-end"
    assert (e002["expected"], e002["actual"]) == ([[2, 0], [0, 0]], [[0, 0], [0, 2]])
    assert "DOES NOT CONFORM" in capsys.readouterr().out


def test_the_node_example_is_the_template_with_its_block_filled() -> None:
    template = template_files("node")["adapter.mjs"].decode()
    example = (NODE_EXAMPLE / "adapter.mjs").read_text()
    start, end = block(template)
    example_start, example_end = block(example)
    assert example[:example_start] == template[:start]
    assert example[example_end:] == template[end:]
    # The protocol part takes nothing from the engine: only the block imports engine.mjs.
    assert "engine.mjs" not in template[:start] + template[end:]


# -- the TypeScript shapes -------------------------------------------------------------------

Fields = dict[str, tuple[frozenset[str], frozenset[str]]]
"""Per message schema (``hello``) or shared definition (``$defs/rules``): its fields and the
optional ones among them."""

TYPEDEF = re.compile(
    r"/\*\* spec/protocol(?:/(?P<message>[\w-]+)\.schema\.json| (?P<defs>\$defs/\w+))"
    r".*?\*/\nexport interface \w+ \{\n(?P<body>.*?)\n\}",
    re.DOTALL,
)


def typedefs(text: str) -> Fields:
    """The interfaces of ``protocol.d.ts`` tagged with a schema, by the schema's name."""
    found: Fields = {}
    for match in TYPEDEF.finditer(text):
        fields = re.findall(r"^  (\w+)(\??):", match["body"], re.MULTILINE)
        found[match["message"] or match["defs"]] = (
            frozenset(name for name, _ in fields),
            frozenset(name for name, optional in fields if optional),
        )
    return found


def schema_fields() -> Fields:
    """Every protocol message's properties and those it does not require, and the same for
    the rules and the deal the messages share."""

    def of(schema: dict[str, Any]) -> tuple[frozenset[str], frozenset[str]]:
        names = frozenset(schema["properties"])
        return names, names - frozenset(schema["required"])

    shared = PROTOCOL_SCHEMAS["start"]["$defs"]
    return {
        **{name: of(schema) for name, schema in PROTOCOL_SCHEMAS.items()},
        **{f"$defs/{name}": of(shared[name]) for name in ("rules", "deal")},
    }


D_TS = (TEMPLATES_FOLDER / "node" / "protocol.d.ts").read_text()


def test_the_typescript_shapes_are_the_schemas() -> None:
    assert typedefs(D_TS) == schema_fields()


def test_a_field_dropped_from_the_typescript_shapes_is_caught() -> None:
    # The check itself: a result reply without its winner, or with an optional counts,
    # differs from the schema, which requires both.
    dropped = D_TS.replace("  winner: number | null;\n", "", 1)
    loosened = D_TS.replace("  counts: number[];\n", "  counts?: number[];\n", 1)
    assert dropped != D_TS
    assert loosened != D_TS
    assert typedefs(dropped) != schema_fields()
    assert typedefs(loosened) != schema_fields()
