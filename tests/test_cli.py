"""The command line: output of variants and play, and one-line errors with exit status 2."""

from __future__ import annotations

import argparse
import ast
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from gaple import cli
from gaple.cli import main
from gaple.cli.parser import build_parser
from gaple.io import rules_to_json, state_from_json
from gaple.presets import PRESETS, ruleset
from gaple.rules import option_info


def test_variants_json_lists_every_preset_with_every_option_and_a_source(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["variants", "--format", "json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [entry["name"] for entry in listed] == list(PRESETS)
    names = [info.name for info in option_info()]
    for entry in listed:
        assert [option["name"] for option in entry["options"]] == names
        assert all(option["sources"] for option in entry["options"])


def test_variants_text_names_each_preset(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["variants"]) == 0
    out = capsys.readouterr().out
    for name in PRESETS:
        assert name in out


@pytest.mark.parametrize("variant", sorted(PRESETS))
def test_play_json_is_a_transcript_the_spec_accepts(
    variant: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["play", "--variant", variant, "--seed", "4", "--format", "json"]) == 0
    transcript = json.loads(capsys.readouterr().out)
    state = state_from_json(transcript)
    assert state.is_over
    assert transcript["ending"] in ("out", "blocked")


def test_play_text_narrates_to_the_end(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--variant", "domino4d", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    # domino4d opens with the holder of 0-0 leading it (open.double-blank).
    assert "lead 0-0" in out
    assert "[end.out]" in out or "[end.blocked]" in out


def test_variants_name_the_sourced_deals(capsys: pytest.CaptureFixture[str]) -> None:
    # Every preset deals 4 x 7, 4 x 6 or 5 x 5 of the double-six set, all sourced.
    assert main(["variants", "--format", "json"]) == 0
    assert all(entry["sourced_deal"] for entry in json.loads(capsys.readouterr().out))
    assert main(["variants"]) == 0
    out = capsys.readouterr().out
    assert "Sourced deals: 4 x 7, 4 x 6, 5 x 5, with the double-six set." in out
    assert "[deal.unsourced] (C27)" in out


def test_play_header_marks_an_unsourced_deal_only(capsys: pytest.CaptureFixture[str]) -> None:
    # 3 x 7 is no deal of the sources; pagat-4x7's 4 x 7 is.
    assert main(["play", "--variant", "pagat-4x7", "--set", "players=3"]) == 0
    out = capsys.readouterr().out
    assert "Unsourced deal: no source describes it [deal.unsourced] (C27)." in out.splitlines()
    assert main(["play", "--variant", "pagat-4x7"]) == 0
    assert "nsourced" not in capsys.readouterr().out


def test_set_overrides_an_option(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["play", "--variant", "pagat-4x7", "--set", "blocked_action=pass", "--format", "json"]
    assert main(args) == 0
    assert json.loads(capsys.readouterr().out)["rules"]["blocked_action"] == "pass"


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["play", "--variant", "nope"], "unknown variant 'nope'"),
        (["play", "--set", "players=5"], "35 tiles"),
        (["play", "--set", "players"], "write OPTION=VALUE"),
        (["play", "--seed", "x"], "invalid int value"),
        (["frobnicate"], "invalid choice"),
    ],
)
def test_bad_arguments_give_one_line_and_status_2(
    argv: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as caught:
        raise SystemExit(main(argv))
    assert caught.value.code == 2
    err = capsys.readouterr().err
    assert words in err
    assert len(err.strip().splitlines()) == 1


# PAGAT-ID tie-break example 1 as a finished pagat 4 x 6 position: A [1-1][1-3] = 6,
# B [1-5] = 6, C [2-4] = 6, D [2-3] = 5, so D (seat 3) wins outright. The line holds every
# other tile and shows 0 on both ends, so nobody can place: the hand is blocked.
E001_1_POSITION = {
    "hands": [["1-1", "1-3"], ["1-5"], ["2-4"], ["2-3"]],
    "set_aside": ["0-4", "0-5", "6-6"],
    "ends": [0, 0],
    "ending": "blocked",
    "blocker": 0,
}


def test_score_reads_a_position_and_names_the_pagat_id_winner(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "e001-1.json"
    path.write_text(json.dumps(E001_1_POSITION))
    assert main(["score", str(path), "--variant", "pagat-4x6", "--format", "json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["counts"] == [6, 6, 6, 5]
    assert result["winner"] == 3


def test_score_replays_a_transcript(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--variant", "domino4d", "--seed", "3", "--format", "json"]) == 0
    transcript = json.loads(capsys.readouterr().out)
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(transcript))
    assert main(["score", str(path), "--format", "json"]) == 0
    scored = json.loads(capsys.readouterr().out)
    # Scoring the transcript again must agree with the result play recorded in it.
    for key in ("counts", "winner", "points"):
        assert scored[key] == transcript["result"][key]
    # A transcript carries its rules, so another variant on the command line is refused.
    assert main(["score", str(path), "--variant", "pagat-4x7"]) == 2
    assert "the transcript carries its own rules" in capsys.readouterr().err


def _score(tmp_path: Path, document: dict[str, Any], *options: str) -> int:
    path = tmp_path / "position.json"
    path.write_text(json.dumps(document))
    return main(["score", str(path), "--format", "json", *options])


def test_score_reads_the_rules_a_position_carries(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # E001-1 with the pagat-4x6 rules inside the document and no --variant: the same counts
    # and winner as the source (D = seat 3 with 5). The default variant, pagat-4x7, sets no
    # tile aside, so the document's rules must be the ones used.
    document = {**E001_1_POSITION, "rules": rules_to_json(ruleset("pagat-4x6"))}
    assert _score(tmp_path, document) == 0
    result = json.loads(capsys.readouterr().out)
    assert (result["counts"], result["winner"]) == ([6, 6, 6, 5], 3)
    # A partial rules object: the options left out take the Ruleset defaults, and six tiles
    # a seat is all this position needs to be counted the same way.
    assert _score(tmp_path, {**E001_1_POSITION, "rules": {"hand_size": 6}}) == 0
    result = json.loads(capsys.readouterr().out)
    assert (result["counts"], result["winner"]) == ([6, 6, 6, 5], 3)


@pytest.mark.parametrize("option", [["--variant", "pagat-4x6"], ["--set", "hand_size=6"]])
def test_score_refuses_variant_or_set_with_a_document_that_has_rules(
    tmp_path: Path, option: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    # Two rulesets for one document: refused rather than one silently winning.
    document = {**E001_1_POSITION, "rules": rules_to_json(ruleset("pagat-4x6"))}
    assert _score(tmp_path, document, *option) == 2
    err = capsys.readouterr().err
    assert "the position carries its own rules; drop --variant and --set" in err
    assert len(err.strip().splitlines()) == 1


# E001-1 with seat 1 having discarded 3-3 (taken from the line: a double leaves every number
# shown an even number of times, so the line still runs from 0 to 0). Seat 1 counts
# 1-5 + 3-3 = 6 + 6 = 12.
E001_1_DISCARD = {**E001_1_POSITION, "discards": [[], ["3-3"], [], []]}


def test_score_refuses_discards_under_the_pass_option_naming_block_pass(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Under the discard option (pagat-4x6) the position is reachable and seat 3 still wins.
    assert _score(tmp_path, E001_1_DISCARD, "--variant", "pagat-4x6") == 0
    assert json.loads(capsys.readouterr().out)["counts"] == [6, 12, 6, 5]
    # Under the pass option a stuck seat passes, so no seat can have discarded anything.
    assert (
        _score(tmp_path, E001_1_DISCARD, "--variant", "pagat-4x6", "--set", "blocked_action=pass")
        == 2
    )
    err = capsys.readouterr().err
    assert "[block.pass] seat 1 discarded 3-3, but under the pass option nobody discards" in err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("changes", "rule"),
    [
        ({"ends": [1, 1]}, "end.blocked"),  # seat 0 could still place 1-1: not blocked
        ({"ends": [0, 6]}, "play.match-end"),  # the line cannot run from 0 to 6
        ({"hands": [["1-1", "1-1"], ["1-5"], ["2-4"], ["2-3"]]}, "tiles.set"),  # 1-1 twice
        ({"set_aside": ["0-4", "0-5"]}, "deal.starter"),  # 4 undealt: 1 starter, 3 aside
    ],
)
def test_score_names_the_rule_that_makes_a_position_unreachable(
    tmp_path: Path, changes: dict[str, Any], rule: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _score(tmp_path, {**E001_1_POSITION, **changes}, "--variant", "pagat-4x6") == 2
    assert f"[{rule}]" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("content", "words"),
    [
        ("{bad", "not JSON"),
        ('{"hands": [["4-4"]]}', "missing key"),
        ('{"hands": [["9-9"], [], [], []], "ends": [0, 0], "ending": "out"}', "9-9"),
    ],
)
def test_score_rejects_bad_documents_in_one_line(
    content: str,
    words: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    assert main(["score", str(path)]) == 2
    err = capsys.readouterr().err
    assert words in err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(("variant", "target"), [("suwiki-partnership", 500), ("block100", 100)])
def test_match_plays_until_a_side_reaches_the_target(
    variant: str, target: int, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["match", "--variant", variant, "--seed", "1", "--format", "json"]) == 0
    match = json.loads(capsys.readouterr().out)
    assert match["finished"]
    # match.target: the winner is the side whose total reached the target, and only the last
    # hand can have taken it there.
    assert match["totals"][match["winner"]] >= target
    before = [t - p for t, p in zip(match["totals"], match["hands"][-1]["points"], strict=True)]
    assert max(before) < target


def test_match_text_names_the_winner(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["match", "--variant", "block100", "--seed", "1"]) == 0
    assert "winner: seat" in capsys.readouterr().out


@pytest.mark.parametrize("variant", sorted(PRESETS))
def test_play_json_passes_gaple_check(
    variant: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The transcript gaple play writes is the form gaple check reads: the spec must accept its
    # own output, result included (exit 0 means every step and the claimed result conform).
    assert main(["play", "--variant", variant, "--seed", "6", "--format", "json"]) == 0
    path = tmp_path / "hand.json"
    path.write_text(capsys.readouterr().out)
    assert main(["check", str(path)]) == 0


# Words of the project's private notes, which users cannot look up: output cites public doc
# pages and the C-numbers of "Where the sources disagree" only.
INTERNAL = re.compile(r"research|decisions|product ruling|seed\d{3}", re.IGNORECASE)


def test_variants_cite_only_public_pages(capsys: pytest.CaptureFixture[str]) -> None:
    for args in (["variants"], ["variants", "--format", "json"]):
        assert main(args) == 0
        out = capsys.readouterr().out
        assert INTERNAL.findall(out) == []
    # The check can fail: the text the variants showed before this rule is caught.
    assert INTERNAL.findall("block100 (also: seed003) ... (research D2); decisions point 9")


def test_a_rules_error_cites_a_public_c_number(capsys: pytest.CaptureFixture[str]) -> None:
    # Chips are settled per seat; with teams no source says how (C23 of the disagreements page).
    assert main(["play", "--variant", "chips", "--set", "partnership=true"]) == 2
    error = capsys.readouterr().err
    assert "C23" in error
    assert INTERNAL.findall(error) == []


def _parsers(parser: argparse.ArgumentParser) -> list[argparse.ArgumentParser]:
    """The parser and every subcommand's parser, nested ones included."""
    found = [parser]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                found.extend(_parsers(sub))
    return found


def test_no_help_text_uses_internal_words() -> None:
    helps = [parser.format_help() for parser in _parsers(build_parser())]
    # Every subcommand is reached, the nested ones of `gaple conformance` too.
    assert len(helps) > len(cli.SUBCOMMANDS) + 1
    assert [INTERNAL.findall(text) for text in helps if INTERNAL.search(text)] == []
    # The walk and the check can fail: a nested subcommand citing the notes is caught.
    broken = argparse.ArgumentParser(prog="gaple")
    nested = broken.add_subparsers().add_parser("conformance").add_subparsers()
    nested.add_parser("run", help="levels as in research C23")
    assert any(INTERNAL.search(parser.format_help()) for parser in _parsers(broken))


@pytest.mark.parametrize("variant", sorted(PRESETS))
def test_play_cites_only_public_pages(variant: str, capsys: pytest.CaptureFixture[str]) -> None:
    for extra in ([], ["--terse"], ["--format", "json"]):
        assert main(["play", "--variant", variant, "--seed", "3", *extra]) == 0
        assert INTERNAL.findall(capsys.readouterr().out) == []


def test_docs_readmes_and_vectors_cite_only_public_pages() -> None:
    root = Path(__file__).resolve().parent.parent
    texts = [*root.glob("docs/**/*.rst"), *root.glob("docs/**/*.md"), *root.glob("spec/**/*.*")]
    texts += [*root.glob("README*.md"), *root.glob("examples/**/README.md")]
    files = [path for path in texts if path.is_file() and "_build" not in path.parts]
    assert len(files) > 100  # the docs pages, the two spec texts and the vectors at least
    hits = {
        path.relative_to(root).as_posix(): INTERNAL.findall(path.read_text(encoding="utf-8"))
        for path in files
    }
    assert {name: found for name, found in hits.items() if found} == {}


def test_preset_citations_cite_only_public_pages() -> None:
    notes = [c.note for preset in PRESETS.values() for c in preset.citations.values()]
    assert [note for note in notes if INTERNAL.search(note)] == []


def test_the_top_level_help_names_every_subcommand(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    assert all(name in out for name in cli.SUBCOMMANDS)


@pytest.mark.parametrize("name", ["check", "play"])
def test_a_subcommand_imports_no_other_subcommand(name: str) -> None:
    # The start of a command: `gaple check` on a log of 20,000 hands used to spend a fifth of
    # its start importing the others (the runner, the renderer, the vectors).
    probe = (
        "import sys\n"
        "from gaple.cli import main\n"
        "try:\n"
        f"    main([{name!r}, '--help'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(sorted(m for m in sys.modules if m.startswith('gaple.cli.')))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout
    loaded = ast.literal_eval(out.splitlines()[-1])
    assert f"gaple.cli.{name}" in loaded
    assert not {f"gaple.cli.{other}" for other in cli.SUBCOMMANDS if other != name} & set(loaded)
