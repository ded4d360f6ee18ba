"""``gaple conformance merge`` over the JSON reports of ``gaple check --shard I/N``: the merge
of shards 1/N..N/N is exactly the unsharded report, and a merge that cannot be right is refused
with one located line and exit status 2."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from gaple.cli import main
from merging import merge, refused

JSON = Any


def _play(capsys: pytest.CaptureFixture[str], seed: int) -> dict[str, JSON]:
    """A transcript as ``gaple play --format json`` writes it (domino4d: 0-0 opens)."""
    assert main(["play", "--variant", "domino4d", "--seed", str(seed), "--format", "json"]) == 0
    data: dict[str, JSON] = json.loads(capsys.readouterr().out)
    return data


def _wrong_seat(data: dict[str, JSON]) -> dict[str, JSON]:
    # The holder of 0-0 is to act first; the next seat acting instead breaks turn.order.
    first = data["actions"][0]
    first["seat"] = (first["seat"] + 1) % 4
    return data


def _bad_ends(data: dict[str, JSON]) -> dict[str, JSON]:
    # No line of a double-six set ends 9 and 9: the final ends diverge (play.match-end).
    data["ends"] = [9, 9]
    return data


@pytest.fixture
def files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> list[str]:
    """Single-transcript files and logs, mixed, with conforming, diverging and invalid
    transcripts, and a log that cannot be read. Items (transcripts numbered in input order):
    a.json 0, b.json 1, log.jsonl lines 2..10 (9 non-blank lines), c.json 11, absent.jsonl
    none (it has no line), d.json 12, small.jsonl 13..14: 15 items."""
    good = [_play(capsys, seed) for seed in range(1, 6)]
    write = {
        "a.json": json.dumps(good[0]),
        "b.json": json.dumps(_wrong_seat(_play(capsys, 7))),
        "c.json": "{not json",
        "d.json": json.dumps(_bad_ends(_play(capsys, 8))),
    }
    # Ties in the counts (two of each kind of problem), each shard seeing other first lines:
    # the merge must order by_rule as the unsharded check does and keep the earliest example.
    lines: list[JSON] = [
        good[1],
        _bad_ends(_play(capsys, 9)),
        "{broken",
        _wrong_seat(_play(capsys, 10)),
        None,  # a blank line: no transcript, no item
        good[2],
        _wrong_seat(_play(capsys, 11)),
        {"rules": {}},
        _bad_ends(_play(capsys, 12)),
        good[3],
    ]
    write["log.jsonl"] = "\n".join(
        "" if line is None else line if isinstance(line, str) else json.dumps(line)
        for line in lines
    )
    write["small.jsonl"] = json.dumps(good[4]) + "\n" + json.dumps(good[0]) + "\n"
    for name, text in write.items():
        (tmp_path / name).write_text(text)
    names = ["a.json", "b.json", "log.jsonl", "c.json", "absent.jsonl", "d.json", "small.jsonl"]
    return [str(tmp_path / name) for name in names]


def _check(capsys: pytest.CaptureFixture[str], files: list[str], *options: str) -> str:
    main(["check", "--jobs", "1", "--format", "json", *options, *files])
    return capsys.readouterr().out


def _shards(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], files: list[str], count: int
) -> list[str]:
    """The JSON report of each shard of ``count``, written to a file, last shard first."""
    paths = []
    for index in range(count, 0, -1):
        path = tmp_path / f"shard-{index}-of-{count}.json"
        path.write_text(_check(capsys, files, "--shard", f"{index}/{count}"))
        paths.append(str(path))
    return paths


@pytest.mark.parametrize("count", [2, 3, 20])
def test_merging_every_shard_gives_exactly_the_unsharded_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], files: list[str], count: int
) -> None:
    # 20 shards: more than the 15 items, so some shards own no transcript at all (they still
    # write every log's summary, with 0 transcripts). A merge that concatenated the shards,
    # kept the shard fields, summed absent.jsonl once per shard, took any shard's first example
    # or sorted by_rule ties another way would differ from the unsharded bytes.
    whole = _check(capsys, files)
    out = tmp_path / "merged.json"
    status, said, err = merge(capsys, *_shards(tmp_path, capsys, files, count), out=out)
    assert (status, err) == (0, "")
    assert out.read_text() == whole
    # 4 single files + 9 log lines + absent.jsonl (1 invalid transcript) + 2 lines = 16, and
    # invalid ones make the whole invalid.
    assert said == f"16 transcripts of {count} shards merged into {out}: invalid\n"


def test_the_fixture_has_ties_and_every_kind_of_verdict(
    capsys: pytest.CaptureFixture[str], files: list[str]
) -> None:
    # What the property above relies on, by hand: log.jsonl has 3 conforming lines (1, 6,
    # 10), 2 of turn.order (lines 4 and 7), 2 of play.match-end (lines 2 and 9) and 2 invalid
    # (lines 3 and 8; line 5 is blank): 9 transcripts, three rules tied at 2, which check lists
    # in the order of their first lines.
    log = json.loads(_check(capsys, files))[2]
    assert [log[key] for key in ("transcripts", "conforming", "diverging", "invalid")] == [
        9,
        3,
        4,
        2,
    ]
    groups = [(group["rule"], group["count"], group["first_line"]) for group in log["by_rule"]]
    assert groups == [("play.match-end", 2, 2), ("invalid", 2, 3), ("turn.order", 2, 4)]


def test_shards_of_single_files_only_that_own_nothing_merge_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], files: list[str]
) -> None:
    # Two files in three shards: shard 3 owns no item and prints [], which cannot say which
    # shard it is; it stands for the one shard no other report names. A merge that refused
    # every empty report could not join this run.
    two = [files[0], files[1]]
    reports = _shards(tmp_path, capsys, two, 3)
    assert json.loads(Path(reports[0]).read_text()) == []
    out = tmp_path / "merged.json"
    status, said, _ = merge(capsys, *reports, out=out)
    assert status == 0
    assert out.read_text() == _check(capsys, two)
    # a.json conforms, b.json diverges.
    assert said.endswith(": diverges\n")
    # Without the empty one, shard 3 is missing.
    status, _, err = merge(capsys, reports[1], reports[2], out=out)
    assert status == 2
    assert "shard 3 of 3 missing" in err


def test_a_run_without_shard_prints_no_shard_fields(
    capsys: pytest.CaptureFixture[str], files: list[str]
) -> None:
    records = json.loads(_check(capsys, files))
    assert not any("shard" in record or "item" in record for record in records)


def test_a_file_that_cannot_be_read_or_is_not_json_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], files: list[str]
) -> None:
    one = _shards(tmp_path, capsys, files, 2)[1]
    refused(capsys, tmp_path, [one, str(tmp_path / "gone.json")], "gone.json: cannot read")
    broken = tmp_path / "broken.json"
    # "[" then "not": a value is expected at column 2.
    broken.write_text("[not json")
    refused(capsys, tmp_path, [one, str(broken)], "broken.json: line 1: not JSON (column 2)")


def test_a_report_that_is_not_a_check_shard_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], files: list[str]
) -> None:
    # The unsharded report has no shard: merging it would pass off a whole run as a shard.
    whole = tmp_path / "whole.json"
    whole.write_text(_check(capsys, files))
    refused(capsys, tmp_path, [str(whole)], "whole.json: $[0]: not a shard")
    # A shard whose item is not its own (item 1 belongs to shard 2 of 2), as a hand edit
    # would leave it: a merge that trusted it would place the file wrongly.
    one, _ = sorted(_shards(tmp_path, capsys, files, 2))
    records = json.loads(Path(one).read_text())
    records[0]["item"] = 1
    Path(one).write_text(json.dumps(records))
    refused(capsys, tmp_path, [one], "$[0]: 'item' is not the number of a transcript of shard 1")
    # A log's counts that do not add up (3 transcripts are not 1 + 0 + 0).
    records[0]["item"] = 0
    records[1]["transcripts"] = 3
    Path(one).write_text(json.dumps(records))
    refused(capsys, tmp_path, [one], "$[1]: a log's counts that do not add up")


def test_shards_of_different_counts_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], files: list[str]
) -> None:
    halves = sorted(_shards(tmp_path, capsys, files, 2))
    thirds = sorted(_shards(tmp_path, capsys, files, 3))
    # 1/2 with 2/3 and 3/3: as many reports as a run of 3, but not one run.
    refused(capsys, tmp_path, [halves[0], *thirds[1:]], "shard of 3, but")


def test_a_shard_given_twice_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], files: list[str]
) -> None:
    two, one = _shards(tmp_path, capsys, files, 2)
    # Without this check the merge would count shard 2's transcripts twice.
    refused(capsys, tmp_path, [one, two, two], "shard 2/2 given twice")


def test_a_missing_shard_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], files: list[str]
) -> None:
    three, _, one = _shards(tmp_path, capsys, files, 3)
    # Without this check the merge of 1/3 and 3/3 would be a report short of a third.
    refused(capsys, tmp_path, [one, three], "shard 2 of 3 missing")


def test_shards_of_different_inputs_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], files: list[str]
) -> None:
    one = sorted(_shards(tmp_path, capsys, files, 2))[0]
    # Another log in place of small.jsonl: each shard names its logs, and they differ.
    other = tmp_path / "other.jsonl"
    other.write_text((tmp_path / "small.jsonl").read_text())
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    second = _shards(elsewhere, capsys, [*files[:-1], str(other)], 2)[0]
    refused(capsys, tmp_path, [one, second], "(its logs differ)")
    # One more single file at the end (item 15, shard 2's): the logs are the same, but the
    # input holds 16 items, not 15; a merge that only compared the logs would drop nothing
    # here yet silently accept shards of two different inputs.
    extra = _shards(elsewhere, capsys, [*files, files[0]], 2)[0]
    refused(capsys, tmp_path, [one, extra], "(16 transcripts, not 15)")
    # The same logs and count, but the single files moved after the first log: the log's
    # first line is another item, so the two shards numbered different transcripts.
    moved = [files[2], files[0], files[1], *files[3:]]
    shifted = _shards(elsewhere, capsys, moved, 2)[0]
    refused(capsys, tmp_path, [one, shifted], "(its logs differ)")


def test_an_item_out_of_place_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], files: list[str]
) -> None:
    # Shard 1/2 owns the even items, d.json (12) among them. Renumbered 14 (even, so still
    # shard 1's, and no other file's), d.json leaves item 12 to no shard: a merge that only
    # sorted the files by item would write the report of another input without a word.
    two, one = _shards(tmp_path, capsys, files, 2)
    records = json.loads(Path(one).read_text())
    moved = next(r for r in records if r.get("item") == 12 and "by_rule" not in r)
    assert moved["file"].endswith("d.json")
    moved["item"] = 14
    Path(one).write_text(json.dumps(records))
    refused(capsys, tmp_path, [one, two], "transcript 14 where 12 was expected")


def test_a_run_report_mixed_with_check_reports_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], files: list[str]
) -> None:
    one = sorted(_shards(tmp_path, capsys, files, 2))[0]
    # A run report is JSON lines, a header object first (its content is not read: the kind
    # is refused first).
    run = tmp_path / "run.jsonl"
    run.write_text(json.dumps({"type": "header", "shard": {"index": 2, "count": 2}}) + "\n")
    refused(capsys, tmp_path, [one, str(run)], "run.jsonl: a report of conformance run, but")
    refused(capsys, tmp_path, [str(run), one], ": a report of gaple check, but")
