"""``gaple conformance merge`` over the reports of ``gaple conformance fuzz --shard I/N
--report``: the counts and seconds of the shards add up, the lowest-numbered shard's finding is
kept, and a merge that cannot be right is refused with one located line and exit status 2."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from gaple.cli import main
from gaple.conformance.runner.summary import FUZZ_RUN
from merging import merge, refused

JSON = Any

RUN = {
    "gaple": "0.1.0",
    "impl": "python adapter.py",
    "seed": 7,
    "variant": "any",
    "set": {"pass_option": True},
    "examples": 300,
    "max_seconds": 40.0,
}
"""What every shard of the hand-written run shares."""

SHAPE = [
    *RUN,
    *("played", "skipped", "skip_reason", "seconds", "found_after", "finding", "situations"),
]
"""The keys of an unsharded report, in the order ``--report`` writes them (no "shard")."""


def _shard(
    path: Path, index: int, count: int, *, drop: tuple[str, ...] = (), **fields: JSON
) -> str:
    """A shard's report as ``--report`` writes it: a run with no disagreement and nothing
    skipped unless ``fields`` say otherwise, without the fields named in ``drop``."""
    report = {
        **RUN,
        "played": 0,
        "skipped": 0,
        "skip_reason": None,
        "seconds": 0.0,
        "found_after": None,
        "finding": None,
        "situations": {"blocked": 0, "challenge tied": 0},
        "shard": {"index": index, "count": count},
        **fields,
    }
    for key in drop:
        del report[key]
    path.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return str(path)


def _three(tmp_path: Path) -> list[str]:
    """Three shards, written last shard first: shards 2 and 3 both found a disagreement and
    skipped hands, for different reasons; shard 3 found its disagreement sooner."""
    return [
        _shard(
            tmp_path / "s3.json",
            3,
            3,
            played=5,
            skip_reason="no house rule here",
            seconds=0.125,
            found_after=0.1,
            finding={"case": "fuzz-3", "rule": "score.count"},
            situations={"blocked": 0, "challenge tied": 3},
        ),
        _shard(
            tmp_path / "s1.json",
            1,
            3,
            played=4,
            skipped=1,
            seconds=1.25,
            situations={"blocked": 2, "challenge tied": 0},
        ),
        _shard(
            tmp_path / "s2.json",
            2,
            3,
            played=3,
            skipped=2,
            skip_reason="no pass option here",
            seconds=2.5,
            found_after=0.75,
            finding={"case": "fuzz-2", "rule": "end.out"},
            situations={"blocked": 1, "challenge tied": 1},
        ),
    ]


def test_the_shards_counts_and_seconds_add_up_and_the_lowest_shards_finding_is_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "all.json"
    status, said, err = merge(capsys, *_three(tmp_path), out=out)
    assert (status, err) == (0, "")
    # Hands played 4 + 3 + 5 = 12, of 3 shards, and shards 2 and 3 found a disagreement.
    assert said == f"12 hands of 3 shards merged into {out}: a disagreement found\n"
    merged = json.loads(out.read_text())
    # The shape of an unsharded report: a merge that kept "shard" would pass off the whole run
    # as one shard of it, and merge again with the others.
    assert list(merged) == SHAPE
    # The run's fields as every shard has them.
    assert {key: merged[key] for key in RUN} == RUN
    # Skipped 1 + 2 + 0 = 3; seconds 1.25 + 2.5 + 0.125 = 3.875 (exact in binary): a merge
    # that took the first file's counts (shard 3's) or the longest shard's seconds (2.5, as
    # the jobs of one run do) would differ.
    assert (merged["played"], merged["skipped"], merged["seconds"]) == (12, 3, 3.875)
    # Each situation added up: blocked 2 + 1 + 0, challenge tied 0 + 1 + 3.
    assert merged["situations"] == {"blocked": 3, "challenge tied": 4}
    # Shard 2 is the lowest-numbered shard with a finding: a merge that kept the first file
    # given (shard 3), or the soonest found (shard 3's 0.1 s), would name score.count.
    assert merged["finding"] == {"case": "fuzz-2", "rule": "end.out"}
    assert merged["found_after"] == 0.75
    # Shard 1 skipped a hand but (as a hand-written report may) gives no reason; shard 2 is
    # the lowest-numbered with one, so its reason, not shard 3's.
    assert merged["skip_reason"] == "no pass option here"


def test_shards_without_a_disagreement_merge_into_a_report_without_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    two = _shard(tmp_path / "s2.json", 2, 2, played=6, seconds=0.5)
    one = _shard(tmp_path / "s1.json", 1, 2, played=7, seconds=0.25)
    out = tmp_path / "all.json"
    status, said, _ = merge(capsys, two, one, out=out)
    # 6 + 7 = 13 hands, no finding in either: a merge that said "found" whenever a shard's
    # finding field exists (null included) would fail here.
    assert (status, said) == (0, f"13 hands of 2 shards merged into {out}: no disagreement\n")
    merged = json.loads(out.read_text())
    assert (merged["finding"], merged["found_after"], merged["skip_reason"]) == (None, None, None)
    assert merged["seconds"] == 0.75  # 0.5 + 0.25


def test_a_report_on_one_line_is_told_apart_by_content_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # One JSON object on one line, as another tool may write it: a merge that called every
    # report whose first line is an object a run's JSON lines would refuse it as no header.
    one = tmp_path / "s1.json"
    one.write_text(json.dumps(json.loads(Path(_shard(one, 1, 1, played=2)).read_text())))
    assert len(one.read_text().splitlines()) == 1
    status, said, _ = merge(capsys, str(one), out=tmp_path / "all.json")
    assert (status, said.split(" merged")[0]) == (0, "2 hands of 1 shards")


def _fuzz(tmp_path: Path, name: str, *shard: str) -> dict[str, JSON]:
    """The report of a real fuzzing run: 10 draws of pagat-5x5 on gaple itself, one job."""
    report = tmp_path / name
    argv = ["conformance", "fuzz", "--reference", "--variant", "pagat-5x5", "--examples", "10"]
    argv += ["--jobs", "1", "--out", str(tmp_path / "cases"), "--report", str(report), *shard]
    assert main(argv) == 0
    data: dict[str, JSON] = json.loads(report.read_text())
    return data


def test_the_reports_of_two_real_shards_merge_into_one_of_the_whole_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    whole = _fuzz(tmp_path, "whole.json")
    one = _fuzz(tmp_path, "s1.json", "--shard", "1/2")
    two = _fuzz(tmp_path, "s2.json", "--shard", "2/2")
    capsys.readouterr()
    # Each shard names its run and which shard it is; the unsharded report has no "shard".
    assert list(one)[: len(FUZZ_RUN)] == list(FUZZ_RUN)
    assert (one["shard"], two["shard"]) == ({"index": 1, "count": 2}, {"index": 2, "count": 2})
    assert "shard" not in whole
    out = tmp_path / "all.json"
    status, said, _ = merge(capsys, str(tmp_path / "s2.json"), str(tmp_path / "s1.json"), out=out)
    assert status == 0
    merged = json.loads(out.read_text())
    # The hands of the run are those the two shards played, each counted once.
    played = one["played"] + two["played"]
    assert merged["played"] == played
    assert said == f"{played} hands of 2 shards merged into {out}: no disagreement\n"
    for name, count in merged["situations"].items():
        assert count == one["situations"][name] + two["situations"][name]
    # The same shape and run as the unsharded report: the shards drew with its seed and budget.
    assert list(merged) == list(whole)
    assert {key: merged[key] for key in FUZZ_RUN} == {key: whole[key] for key in FUZZ_RUN}
    assert merged["impl"] == "gaple (reference, in process)"
    assert (merged["variant"], merged["seed"], merged["examples"]) == ("pagat-5x5", 0, 10)


def test_a_file_that_cannot_be_read_or_is_not_json_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    one = _shard(tmp_path / "s1.json", 1, 2)
    # A merge that skipped unreadable files would report one shard as the whole run.
    refused(capsys, tmp_path, [one, str(tmp_path / "gone.json")], "gone.json: cannot read")
    cut = tmp_path / "cut.json"
    # A report cut short after its first member: a name is expected at column 14.
    cut.write_text('{"played": 1,')
    refused(capsys, tmp_path, [one, str(cut)], "cut.json: line 1: not JSON (column 14)")


def test_a_report_that_is_not_a_fuzz_shard_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The report of an unsharded run has no "shard": merging it would count a whole run as a
    # shard of another (its hands played twice over).
    whole = _shard(tmp_path / "whole.json", 1, 1, drop=("shard",))
    refused(capsys, tmp_path, [whole], "whole.json: not a shard (no 'shard'")


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        # Each would be added into the merged counts as if it were a count of hands.
        ({"played": True}, "'played' has the wrong type (bool)"),
        ({"skipped": -1}, "'skipped' is below 0"),
        ({"situations": {"blocked": 1.5}}, "situations: 'blocked' has the wrong type (float)"),
        # Shard 2 of 1 does not exist: a merge would wait for it, or count it as shard 1.
        ({"shard": {"index": 2, "count": 1}}, "shard 2 of 1 does not exist"),
        # A finding without the time it was found (a hand edit): the merged report could not
        # say when its disagreement was found.
        ({"finding": {"rule": "end.out"}}, "'finding' and 'found_after' are not both null"),
    ],
)
def test_a_report_of_the_wrong_shape_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], fields: dict[str, JSON], words: str
) -> None:
    bad = _shard(tmp_path / "bad.json", 1, 1, **fields)
    refused(capsys, tmp_path, [bad], f"bad.json: {words}")


def test_a_report_that_does_not_name_its_run_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Without the seed the merge could not tell whether the shards drew the same hands.
    bad = _shard(tmp_path / "bad.json", 1, 1, drop=("seed",))
    refused(capsys, tmp_path, [bad], "bad.json: no 'seed' field")


def test_shards_of_different_counts_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # 1/2 with 2/3 and 3/3: as many reports as a run of 3, but not one run; a merge that only
    # counted the reports would add up hands that overlap (shard 1/2 holds some of 1/3's).
    half = _shard(tmp_path / "a.json", 1, 2)
    second = _shard(tmp_path / "b.json", 2, 3)
    third = _shard(tmp_path / "c.json", 3, 3)
    refused(capsys, tmp_path, [half, second, third], "b.json: shard of 3, but")


def test_a_shard_given_twice_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    one = _shard(tmp_path / "s1.json", 1, 2)
    two = _shard(tmp_path / "s2.json", 2, 2)
    # Without this check the merge would count shard 2's hands twice.
    refused(capsys, tmp_path, [one, two, two], "shard 2/2 given twice (also")


def test_a_missing_shard_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    one = _shard(tmp_path / "s1.json", 1, 3)
    three = _shard(tmp_path / "s3.json", 3, 3)
    # Without this check the merge of 1/3 and 3/3 would report a run a third short.
    refused(capsys, tmp_path, [one, three], "shard 2 of 3 missing")


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("gaple", "0.2.0"),  # another gaple may draw other hands from the same seed
        ("impl", "python other.py"),  # another engine
        ("seed", 8),  # other hands: shards of two seeds may play the same hand twice
        ("variant", "domino4d"),  # other rules drawn
        ("set", {}),  # the option not fixed
        ("examples", 301),  # another budget
        ("max_seconds", 60.0),
    ],
)
def test_shards_of_different_runs_are_refused_naming_the_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], key: str, value: JSON
) -> None:
    one = _shard(tmp_path / "s1.json", 1, 2)
    other = _shard(tmp_path / "s2.json", 2, 2, **{key: value})
    # Shards 1/2 and 2/2, so a merge that looked only at the shards would accept them.
    refused(capsys, tmp_path, [one, other], f"s2.json: not from the same run as {one} (its")
    refused(capsys, tmp_path, [one, other], f"(its {key!r} differs)")


def test_shards_that_counted_other_situations_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    one = _shard(tmp_path / "s1.json", 1, 2)
    other = _shard(tmp_path / "s2.json", 2, 2, situations={"blocked": 1, "closing 0-0": 1})
    # A merge over the first shard's names would drop "closing 0-0" without a word.
    refused(capsys, tmp_path, [one, other], "s2.json: not from the same run as")


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        # A run's report starts with its header line (a "type"); gaple check's is an array.
        ('{"type": "header", "protocol": 1}\n', "conformance run"),
        ("[]\n", "gaple check"),
    ],
)
def test_a_fuzz_report_mixed_with_another_kind_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, kind: str
) -> None:
    one = _shard(tmp_path / "s1.json", 1, 2)
    other = tmp_path / "other"
    other.write_text(text)
    # The kinds hold different counts: a merge of one kind's reader over the other's file
    # would misread it, or refuse it as a broken report of the first kind.
    refused(
        capsys,
        tmp_path,
        [one, str(other)],
        f"other: a report of {kind}, but {one} is one of conformance fuzz",
    )
    refused(capsys, tmp_path, [str(other), one], "s1.json: a report of conformance fuzz, but")
