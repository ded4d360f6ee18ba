"""The command line: output of variants and play, and one-line errors with exit status 2."""

from __future__ import annotations

import json

import pytest

from gaple.cli import main
from gaple.io import state_from_json
from gaple.presets import PRESETS
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
