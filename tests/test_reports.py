"""Reports people read: the header's provenance, docs links on failures, the side-by-side
summary, merging shards, and the HTML page (checked as text here, in a browser in
test_report_browser.py). Expected values are reasoned by hand from small reports written here.
"""

from __future__ import annotations

import hashlib
import html
import json
import re
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest

import gaple.conformance.runner.summary as summary_module
from gaple import __version__
from gaple.cli import main
from gaple.cli.parser import build_parser
from gaple.conformance.checker.compare import Difference
from gaple.conformance.runner.report import summary_text
from gaple.conformance.runner.run import CaseOutcome, Summary
from gaple.conformance.runner.summary import matrix_html, read_report
from gaple.conformance.vectors.scenarios import all_cases
from gaple.deal import Deal
from gaple.io import rules_to_json, state_to_json
from gaple.presets import find_preset, ruleset
from gaple.state import apply, new_hand, parse_move
from gaple.tiles import Tile
from test_render import _stuck

JSON = Any
ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "spec"
ENGINE = {"name": "toy", "version": "1", "levels": ["line"], "error_codes": False}
INJECTED = "<script>window.pwned = 1</script>"


def _position() -> dict[str, JSON]:
    # domino4d: four seats of seven; seat 0 holds 0-0 and leads it (the double-blank opener).
    tiles = [Tile(a, b) for a in range(7) for b in range(a, 7)]
    hands = tuple(tuple(tiles[7 * seat : 7 * seat + 7]) for seat in range(4))
    state = new_hand(ruleset("domino4d"), Deal(hands))
    return state_to_json(apply(state, parse_move("lead 0-0")))


def _header(**extra: JSON) -> dict[str, JSON]:
    return {
        "type": "header",
        "protocol": 1,
        "gaple": "0.1.0",
        "vectors": "case format 1, vectors/v1, 4 cases, sha256 0000",
        "impl": "python toy.py",
        "engine": ENGINE,
        "cases": 4,
        "selection": {"cases": 4, "sha256": "ab" * 32},
        "levels": ["line"],
        "started": "2026-01-01T00:00:00+00:00",
        **extra,
    }


def _case(case: str, status: str, rule_ids: list[str], **extra: JSON) -> dict[str, JSON]:
    record = {"type": "case", "case": case, "topic": "play", "status": status}
    return {**record, "seconds": 0.1, "levels": ["line"], "rule_ids": rule_ids, **extra}


def _failed(case: str, rule_ids: list[str], actual: JSON = "[[0, 0]]") -> dict[str, JSON]:
    return _case(
        case,
        "failed",
        rule_ids,
        rule="play.match-end",
        step=1,
        seat=0,
        action="lead 0-0",
        field="line",
        expected=[[0, 0]],
        actual=actual,
        position=_position(),
    )


def _footer(cases: list[dict[str, JSON]]) -> dict[str, JSON]:
    counts = {s: sum(c["status"] == s for c in cases) for s in ("passed", "failed", "skipped")}
    counts["errored"] = sum(c["status"] == "errored" for c in cases)
    return {"type": "footer", "counts": counts, "seconds": 1.0, "verdict": "does not conform"}


def _write(path: Path, records: list[dict[str, JSON]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


FOUR = [
    _case("c1", "passed", ["tiles.set", "play.match-end"]),
    _failed("c2", ["tiles.set", "play.match-end", "end.out"], actual=INJECTED),
    _case("c3", "skipped", ["end.out"], message="unsupported by the engine: no"),
    _case("c4", "errored", ["tiles.set"], message="crashed: <b>boom</b>"),
]


@pytest.fixture
def toy(tmp_path: Path) -> Path:
    return _write(tmp_path / "toy.jsonl", [_header(), *FOUR, _footer(FOUR)])


def test_run_header_names_gaple_the_vector_set_and_a_hash_of_the_cases(tmp_path: Path) -> None:
    report = tmp_path / "r.jsonl"
    argv = ["conformance", "run", "--reference", "--variant", "domino4d", "--level", "line"]
    assert main([*argv, "--report", str(report)]) == 0
    header = json.loads(report.read_text().splitlines()[0])
    assert header["gaple"] == __version__
    # The documented hash, computed here from the committed files: path, newline, text,
    # newline, in path order; over every case it gives the 16 digits `gaple --version` shows.
    every = sorted((SPEC / "vectors/v1").rglob("*.json"), key=lambda p: p.as_posix())

    def digest(paths: list[Path]) -> str:
        sha = hashlib.sha256()
        for path in paths:
            name = path.relative_to(SPEC).as_posix()
            sha.update(f"{name}\n{path.read_text(encoding='utf-8')}\n".encode())
        return sha.hexdigest()

    # --variant domino4d: the cases of domino4d's rules exactly.
    domino4d = rules_to_json(find_preset("domino4d").rules)
    ours = [p for p in every if json.loads(p.read_text())["rules"] == domino4d]
    assert header["selection"] == {"cases": len(ours), "sha256": digest(ours)}
    assert header["vectors"] == (
        f"case format 1, vectors/v1, {len(every)} cases, sha256 {digest(every)[:16]}"
    )
    assert "shard" not in header


def _failure_summary() -> Summary:
    outcome = CaseOutcome(
        case="c2",
        topic="play",
        status="failed",
        seconds=0.1,
        rule="play.match-end",
        step=1,
        action="lead 0-0",
        difference=Difference("line", "play.match-end", [[0, 0]], []),
    )
    return Summary((outcome,), 0.1, None, False)


def test_a_printed_failure_carries_the_docs_address_of_its_rule() -> None:
    # play.match-end is in the section Turn, so on rules/turn, anchored rule-play-match-end.
    text = summary_text(_failure_summary())
    assert "  docs of play.match-end: rules/turn.html#rule-play-match-end" in text
    linked = summary_text(_failure_summary(), docs="https://docs.example/gaple/")
    assert "https://docs.example/gaple/rules/turn.html#rule-play-match-end" in linked


def _line_failure(case: str, rule: str = "play.match-end", field: str = "line") -> CaseOutcome:
    return CaseOutcome(
        case=case,
        topic="play",
        status="failed",
        seconds=0.0,
        rule=rule,
        step=1,
        action="lead 0-0",
        difference=Difference(field, rule, [[0, 0]], []),
    )


def test_failures_alike_are_shown_once_with_the_other_case_ids() -> None:
    # Cases a, c, d break play.match-end in the line; b breaks it in the ends (another field);
    # e breaks turn.order in to_act. Three kinds, in the order each first occurs: a (with c
    # and d named under it), b, e.
    outcomes = (
        _line_failure("a"),
        _line_failure("b", field="ends"),
        _line_failure("c"),
        _line_failure("d"),
        _line_failure("e", rule="turn.order", field="to_act"),
    )
    lines = summary_text(Summary(outcomes, 0.1, None, False)).splitlines()
    shown = [line.split(":")[0] for line in lines if line.startswith("FAILED ")]
    assert shown == ["FAILED a", "FAILED b", "FAILED e"]
    assert "  failed alike in 2 more cases: c, d" in lines
    # Shown one kind only, the other two are counted with their cases (b; e).
    first = summary_text(Summary(outcomes, 0.1, None, False), shown=1).splitlines()
    assert [line.split(":")[0] for line in first if line.startswith("FAILED ")] == ["FAILED a"]
    assert "... and 2 more kinds of failure (2 cases; see --report)" in first


def test_the_other_case_ids_of_a_kind_are_named_up_to_ten() -> None:
    # One example and 12 alike: ten IDs are named (o0..o9), the last two counted.
    outcomes = (_line_failure("first"), *(_line_failure(f"o{k}") for k in range(12)))
    text = summary_text(Summary(outcomes, 0.1, None, False))
    named = ", ".join(f"o{k}" for k in range(10))
    assert f"  failed alike in 12 more cases: {named} and 2 more (see --report)" in text


def test_the_text_counts_the_skip_reasons_it_does_not_name() -> None:
    # Seven reasons: reason k skips k + 1 cases (reason 6 skips 7, reason 0 skips 1). The five
    # most frequent are named (7 down to 3 cases); reasons 1 and 0 remain, 2 + 1 = 3 cases.
    outcomes = tuple(
        CaseOutcome(
            case=f"c{k}-{i}", topic="play", status="skipped", seconds=0.0, message=f"reason {k}"
        )
        for k in range(7)
        for i in range(k + 1)
    )
    lines = summary_text(Summary(outcomes, 0.1, None, False)).splitlines()
    named = [line for line in lines if line.startswith("skipped ")]
    assert named == [f"skipped {k + 1}: reason {k}" for k in (6, 5, 4, 3, 2)]
    assert "... and 2 more skip reasons (3 cases; see --report)" in lines
    # Five reasons or fewer: every one named, nothing said of more.
    fewer = summary_text(Summary(outcomes[:1], 0.1, None, False))
    assert "skipped 1: reason 0" in fewer
    assert "more skip reason" not in fewer


def test_a_run_links_its_failures_and_records_where_the_spec_stood(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = tmp_path / "r.jsonl"
    # The seeded bug lays a tile on the other end than the one named: it breaks play.match-end.
    engine = f"{sys.executable} {ROOT / 'examples/bugs/adapter.py'} --bug wrong-end"
    argv = ["conformance", "run", "--impl", engine, "--variant", "domino4d", "--max-fail", "1"]
    argv += ["--report", str(report), "--docs-url", "https://docs.example/gaple"]
    assert main(argv) == 1
    out = capsys.readouterr().out
    assert (
        "docs of play.match-end: https://docs.example/gaple/rules/turn.html#rule-play-match-end"
        in out
    )
    failed = [case for case in read_report(report).cases if case["status"] == "failed"]
    assert [case["rule"] for case in failed] == ["play.match-end"]
    # A failure seen in the state after step k: the spec had played the actions it accepted
    # among the first k steps by then (a refused step plays nothing); a verdict (accepting or
    # refusing step k) is judged before the spec plays it.
    first = failed[0]
    (case,) = [c for c in all_cases() if c["id"] == first["case"]]
    seen = case["steps"][: first["step"] - (first["field"] == "verdict")]
    assert len(first["position"]["actions"]) == sum("error" not in step for step in seen)
    assert "play.match-end" in failed[0]["rule_ids"]


def test_summary_counts_cases_by_rule_for_each_engine(
    toy: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    clean = [_case("c1", "passed", ["tiles.set"]), _case("c2", "passed", ["tiles.set"])]
    other = _write(tmp_path / "other.jsonl", [_header(), *clean, _footer(clean)])
    assert main(["conformance", "summary", str(toy), str(other)]) == 0
    rows = {line.split()[0]: line.split() for line in capsys.readouterr().out.splitlines()}
    # toy: tiles.set has c1 passed and c4 errored; c2 failed on play.match-end, so it counts
    # only there; c3 is skipped under end.out. other: both cases passed under tiles.set.
    # Columns: rule, then | passed failed skipped errored for each engine.
    assert rows["tiles.set"] == ["tiles.set", "|", "1", "0", "0", "1", "|", "2", "0", "0", "0"]
    assert rows["play.match-end"][1:6] == ["|", "1", "1", "0", "0"]
    assert rows["end.out"][1:6] == ["|", "0", "0", "1", "0"]
    assert rows["all"] == ["all", "cases", "|", "1", "1", "1", "1", "|", "2", "0", "0", "0"]


def _shards(tmp_path: Path, selection: str = "ab" * 32) -> list[Path]:
    # Five cases c0..c4 in two shards: case k is in shard (k % 2) + 1.
    cases = [_case(f"c{k}", "passed", ["tiles.set"]) for k in range(5)]
    paths = []
    for index in (1, 2):
        mine = cases[index - 1 :: 2]
        header = _header(shard={"index": index, "count": 2}, cases=len(mine))
        header["selection"] = {"cases": 5, "sha256": selection}
        paths.append(_write(tmp_path / f"s{index}.jsonl", [header, *mine, _footer(mine)]))
    return paths


def test_merge_joins_the_shards_of_one_run_in_the_runs_order(tmp_path: Path) -> None:
    out = tmp_path / "all.jsonl"
    one, two = _shards(tmp_path)
    assert main(["conformance", "merge", str(two), str(one), "--out", str(out)]) == 0
    merged = read_report(out)
    assert [c["case"] for c in merged.cases] == ["c0", "c1", "c2", "c3", "c4"]
    assert "shard" not in merged.header
    assert merged.header["cases"] == 5
    assert merged.footer["counts"] == {"passed": 5, "failed": 0, "skipped": 0, "errored": 0}
    assert merged.footer["verdict"] == "conforms"


def test_merge_refuses_shards_missing_twice_or_of_another_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    one, two = _shards(tmp_path)
    out = str(tmp_path / "all.jsonl")
    assert main(["conformance", "merge", str(one), "--out", out]) == 2
    assert "shard 2 of 2 missing" in capsys.readouterr().err
    assert main(["conformance", "merge", str(one), str(two), str(one), "--out", out]) == 2
    assert "shard 1/2 given twice" in capsys.readouterr().err
    (tmp_path / "b").mkdir()
    _, stranger = _shards(tmp_path / "b", selection="cd" * 32)
    assert main(["conformance", "merge", str(one), str(stranger), "--out", out]) == 2
    assert "not from the same run" in capsys.readouterr().err
    plain = _write(tmp_path / "plain.jsonl", [_header(), *FOUR, _footer(FOUR)])
    assert main(["conformance", "merge", str(plain), "--out", out]) == 2
    assert "not a shard" in capsys.readouterr().err


def _traced(trace: list[dict[str, JSON]]) -> list[str]:
    """A report whose one case, failed, carries ``trace``."""
    records = [_header(), {**_failed("c2", ["play.match-end"]), "trace": trace}]
    return [json.dumps(r) for r in [*records, _footer(records[1:])]]


def _judged(expectations: JSON) -> list[str]:
    """A report of no case whose footer carries ``expectations``."""
    return [json.dumps(_header()), json.dumps({**_footer([]), "expectations": expectations})]


def test_a_trace_with_replies_never_compared_is_read_back(tmp_path: Path) -> None:
    trace: list[dict[str, JSON]] = [
        {"sent": '{"type": "state"}'},
        {"received": "{}", "compared": False},
    ]
    path = tmp_path / "r.jsonl"
    path.write_text("".join(line + "\n" for line in _traced(trace)))
    assert main(["conformance", "summary", str(path)]) == 0  # the summary reads it
    assert read_report(path).cases[0]["trace"] == trace


@pytest.mark.parametrize(
    ("lines", "words"),
    [
        ([], "empty, not a conformance report"),
        (['{"type": "case"}'], ":1: not a conformance report"),
        ([json.dumps(_header()), "{not json"], ":2: not JSON"),
        ([json.dumps(_header()), json.dumps(_case("c1", "passed", []))], "truncated: no footer"),
        ([json.dumps(_header()), json.dumps(_footer(FOUR))], ":2: the footer's counts"),
        ([json.dumps(_header()), json.dumps(_case("c", "won", []))], ":2: unknown status"),
        ([json.dumps(_header()), json.dumps(_footer([])), "{}"], ":3: a record after the foot"),
        ([json.dumps({**_header(), "gaple": 1})], ":1: 'gaple' has the wrong type"),
        (["[1, 2]"], ":1: a record is a JSON object"),
        ([json.dumps(_header(shard=[1, 2]))], ":1: 'shard' has the wrong type"),
        ([json.dumps(_header(shard={"index": 3, "count": 2}))], ":1: shard 3 of 2 does not"),
        ([json.dumps(_header()), json.dumps({**_footer([]), "verdict": 1})], ":2: 'verdict'"),
        # Only a reply can be marked as never compared, and only with false.
        (_traced([{"sent": "{}", "compared": False}]), "messages sent and received"),
        (_traced([{"received": "{}", "compared": True}]), "messages sent and received"),
        (_traced([{"received": "{}", "sent": "{}"}]), "messages sent and received"),
        # A footer's judgement against an expectations file: the file, its digest and three
        # lists of IDs.
        (_judged(1), ":2: expectations is not an object"),
        (_judged({"file": "e.json", "held": [], "new": [], "unexpected": []}), "no 'sha256'"),
        (_judged({"file": "e.json", "sha256": "0" * 64, "held": [], "new": []}), "no 'unexpected'"),
        (
            _judged(
                {"file": "e.json", "sha256": "0" * 64, "held": [3], "new": [], "unexpected": []}
            ),
            "case IDs",
        ),
    ],
)
def test_a_bad_report_is_one_located_line_and_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], lines: list[str], words: str
) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text("".join(line + "\n" for line in lines))
    assert main(["conformance", "summary", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith(f"gaple conformance: error: {bad}")
    assert words in err


def test_the_summary_escapes_what_the_engine_wrote(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    header = _header(engine={**ENGINE, "name": "bad\x1b[2Jname"})
    path = _write(tmp_path / "r.jsonl", [header, _footer([])])
    assert main(["conformance", "summary", str(path)]) == 0
    out = capsys.readouterr().out
    assert "[1] bad\\x1b[2Jname 1: does not conform" in out
    assert "\x1b" not in out


def test_a_missing_report_file_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["conformance", "summary", str(tmp_path / "none.jsonl")]) == 2
    assert "No such file" in capsys.readouterr().err


def inert(page: str, docs: str) -> None:
    """What a safe page is, as text: no element an engine could have smuggled in, no address
    but the docs'. Used on the real writer and on a broken one."""
    assert "<script" not in page.lower()
    assert "<img" not in page.lower()
    assert not re.search(r"\son\w+\s*=", page), "an event handler attribute"
    for address in re.findall(r'(?:href|src)="([^"]*)"', page):
        # The docs, or a group of failures on the page itself (an anchor the writer numbers).
        assert address.startswith(docs) or re.fullmatch(r"#e\d+-[fe]\d+", address), address
    assert "url(" not in page


def test_html_escapes_what_the_engine_wrote_and_links_only_the_docs(
    toy: Path, tmp_path: Path
) -> None:
    page_path = tmp_path / "r.html"
    docs = "https://docs.example/gaple/"
    argv = ["conformance", "summary", str(toy), "--html", str(page_path), "--docs-url", docs]
    assert main(argv) == 0
    page = page_path.read_text(encoding="utf-8")
    inert(page, docs)
    assert "&lt;script&gt;window.pwned = 1&lt;/script&gt;" in page
    assert "crashed: &lt;b&gt;boom&lt;/b&gt;" in page
    assert "[1] 1 skipped: unsupported by the engine: no" in page
    assert f'href="{docs}rules/turn.html#rule-play-match-end"' in page
    assert "<svg" in page  # the position, drawn


def test_the_inertness_check_catches_a_writer_that_does_not_escape(
    toy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(summary_module, "_e", str)
    broken = matrix_html([read_report(toy)], docs="https://docs.example/")
    with pytest.raises(AssertionError):
        inert(broken, "https://docs.example/")


def test_html_refuses_a_failure_whose_position_does_not_replay(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = _failed("c2", ["play.match-end"])
    bad["position"]["actions"] = [{"seat": 1, "move": "lead 0-0"}]  # seat 0 holds 0-0
    path = _write(tmp_path / "r.jsonl", [_header(), bad, _footer([bad])])
    argv = ["conformance", "summary", str(path), "--html", str(tmp_path / "r.html")]
    assert main(argv) == 2
    assert "case c2: $.position.actions[0]" in capsys.readouterr().err


def test_the_ci_workflow_runs_commands_that_parse_and_keeps_what_they_write() -> None:
    yaml = pytest.importorskip("yaml", reason="no YAML parser (PyYAML comes with the docs tools)")
    workflow = yaml.safe_load((ROOT / "examples/ci/github-actions.yml").read_text())
    steps = workflow["jobs"]["conformance"]["steps"]
    adapter = workflow["jobs"]["conformance"]["env"]["ADAPTER"]
    commands = [
        shlex.split(step["run"].replace("$ADAPTER", adapter)) for step in steps if "run" in step
    ]
    assert ["python", "-m", "pip", "install", "gaple[conformance]"] in commands
    # Each gaple command line is one gaple's own parser accepts (a misspelt option exits).
    run, summary = (build_parser().parse_args(c[1:]) for c in commands if c[0] == "gaple")
    assert (run.action, run.impl, summary.action) == ("run", adapter, "summary")
    # The daily loop's CI: known divergences from a committed file, failures with their trace.
    assert (run.expectations, run.trace) == (Path("gaple-expectations.json"), True)
    assert summary.reports == [run.report]
    upload = next(s for s in steps if s.get("uses", "").startswith("actions/upload-artifact"))
    kept = upload["with"]["path"].split()
    assert sorted(kept) == sorted(str(path) for path in (run.report, run.junit, summary.html))
    guide = (ROOT / "docs/guide/reports.rst").read_text()
    assert ".. literalinclude:: ../../examples/ci/github-actions.yml" in guide


def _sections(page: str) -> list[str]:
    """The opening tags of the sections of failures and errors, in page order."""
    return re.findall(r'<section class="failure[^>]*>', page)


def test_identical_failures_form_one_group_that_the_matrix_links_to(tmp_path: Path) -> None:
    # c2, c5 and c6 break play.match-end in the field line: one group of 3, shown by c2 and
    # listing c5 and c6. c7 breaks the same rule in the field ends: a group of its own. So
    # the matrix counts 4 failures under play.match-end, linked to the first of its groups.
    same = [_failed(case, ["play.match-end"]) for case in ("c2", "c5", "c6")]
    other = {**_failed("c7", ["play.match-end"]), "field": "ends"}
    cases = [*same, other]
    report = _write(tmp_path / "r.jsonl", [_header(), *cases, _footer(cases)])
    page = matrix_html([read_report(report)])
    sections = _sections(page)
    assert len(sections) == 2
    assert 'id="e1-f1"' in sections[0]
    assert 'data-case="c2"' in sections[0]
    assert 'data-count="3"' in sections[0]
    assert 'data-case="c7"' in sections[1]
    assert 'data-count="1"' in sections[1]
    assert "The same in 2 more: <code>c5</code>, <code>c6</code>" in page
    assert "(4 cases in 2 groups)" in page
    cell = '<td class="failed n" data-engine="1" data-status="failed"><a href="#e1-f1">4</a></td>'
    assert cell in page
    assert page.count(cell) == 2  # the rule's row and the row of all cases


def test_a_group_of_many_names_ten_others_and_folds_the_rest(tmp_path: Path) -> None:
    # c00 to c14 fail alike: one group, c00 in full; of the 14 others, c01 to c10 are named
    # and c11 to c14 are folded in a closed block that says how many it holds.
    cases = [_failed(f"c{number:02}", ["play.match-end"]) for number in range(15)]
    report = _write(tmp_path / "r.jsonl", [_header(), *cases, _footer(cases)])
    page = matrix_html([read_report(report)])
    named = ", ".join(f"<code>c{number:02}</code>" for number in range(1, 11))
    folded = ", ".join(f"<code>c{number:02}</code>" for number in range(11, 15))
    assert f'<p class="also">The same in 14 more: {named}</p>' in page
    assert f'<details class="also-rest"><summary>and 4 more</summary>{folded}</details>' in page


def test_errors_with_one_message_form_one_group(tmp_path: Path) -> None:
    # c1 and c3 crashed alike, c2 timed out: two groups; tiles.set's errored cell (all three
    # exercise it) links to the first.
    cases = [
        _case("c1", "errored", ["tiles.set"], message="crashed"),
        _case("c2", "errored", ["tiles.set"], message="timed out"),
        _case("c3", "errored", ["tiles.set"], message="crashed"),
    ]
    report = _write(tmp_path / "r.jsonl", [_header(), *cases, _footer(cases)])
    page = matrix_html([read_report(report)])
    sections = _sections(page)
    assert len(sections) == 2
    assert 'data-case="c1"' in sections[0]
    assert 'data-count="2"' in sections[0]
    assert "The same in 1 more: <code>c3</code>" in page
    assert '<a href="#e1-e1">3</a>' in page


def _record(case: str, **fields: JSON) -> dict[str, JSON]:
    return {**_failed(case, ["play.match-end"]), **fields}


NAMED = [
    # A count compared in the result after a 30-step hand: no action was being judged.
    (
        _record("r", rule="score.count", step=30, seat=None, action=None, field="counts"),
        "r: in the result: counts [score.count]",
    ),
    # The legal moves of the position step 3 left, not a fault of step 3's move.
    (
        _record("l", step=3, seat=1, action="place 3-5 left", field="legal"),
        "l: in the position after step 3 (seat 1: place 3-5 left): legal [play.match-end]",
    ),
    # Step 3's move itself, accepted where the spec refuses it.
    (
        _record("v", step=3, seat=1, action="place 3-5 left", field="verdict"),
        "v: at step 3 (seat 1: place 3-5 left): verdict [play.match-end]",
    ),
    # The position dealt, before any step.
    (
        _record("d", rule="turn.order", step=0, seat=None, action=None, field="to_act"),
        "d: in the position dealt: to_act [turn.order]",
    ),
]


@pytest.mark.parametrize(("record", "name"), NAMED, ids=[r["case"] for r, _ in NAMED])
def test_the_terminal_and_the_page_name_a_failure_alike(
    tmp_path: Path, record: dict[str, JSON], name: str
) -> None:
    outcome = CaseOutcome(
        case=record["case"],
        topic="play",
        status="failed",
        seconds=0.1,
        rule=record["rule"],
        step=record["step"],
        seat=record["seat"],
        action=record["action"],
        difference=Difference(record["field"], record["rule"], [1], [2]),
    )
    # The values follow the name (in words for a list field: test_words.py).
    assert outcome.describe().startswith(f"{name}: ")
    report = _write(tmp_path / "r.jsonl", [_header(), record, _footer([record])])
    page = matrix_html([read_report(report)])
    assert f'<p class="example">First: {html.escape(name)}</p>' in page


def test_the_picture_shows_discards_face_up_and_outlines_the_tiles_at_issue(
    tmp_path: Path,
) -> None:
    # Seat 1's discard 1-1 lies face up among the tiles, marked as discarded. The failure is
    # of step 2's verdict on "discard 1-1", so 1-1 is the tile at issue; a count failure of
    # the double-blank rule also turns on 0-0, wherever it lies (here in the line).
    step = _record("s", step=2, seat=1, action="discard 1-1", field="verdict")
    count = _record("c", rule="score.double-blank-25", step=2, seat=None, action=None)
    count["field"] = "counts"
    # The position of test_render's _stuck: after lead 0-0, seat 1 (no blank) discarded 1-1.
    cases = [{**case, "position": state_to_json(_stuck())} for case in (step, count)]
    report = _write(tmp_path / "r.jsonl", [_header(), *cases, _footer(cases)])
    page = matrix_html([read_report(report)])
    assert "data-face-down" not in page
    assert page.count('<g class="domino discard at-issue" data-tile="1-1">') == 1
    assert page.count('<g class="domino discard" data-tile="1-1">') == 1
    assert page.count("<title>1-1, discarded, at issue</title>") == 1
    assert page.count('<g class="domino at-issue" data-tile="0-0">') == 1
    assert '<p class="at-issue">At issue (outlined): 1-1</p>' in page
    assert '<p class="at-issue">At issue (outlined): 0-0</p>' in page


def _round_of_discards(steps: int) -> dict[str, JSON]:
    # pagat-4x7 dealt in order (as test_render's _stuck): seat 0 holds the seven blanks and
    # leads 0-0; seats 1, 2 and 3 hold no blank, so each is stuck and discards (1-1, 2-3,
    # 3-6); then seat 0 places 0-1 on the right. The position after the first ``steps``.
    tiles = [Tile(a, b) for a in range(7) for b in range(a, 7)]
    hands = tuple(tuple(tiles[7 * seat : 7 * seat + 7]) for seat in range(4))
    state = new_hand(ruleset("pagat-4x7"), Deal(hands))
    moves = ["lead 0-0", "discard 1-1", "discard 2-3", "discard 3-6", "place 0-1 right"]
    for move in moves[:steps]:
        state = apply(state, parse_move(move))
    return state_to_json(state)


SEAT_3_STUCK = [f"discard {tile}" for tile in ("3-6", "4-4", "4-5", "4-6", "5-5", "5-6", "6-6")]
"""The legal moves after the third step: seat 3 holds 3-6 4-4 4-5 4-6 5-5 5-6 6-6, no tile with
a blank for the line 0-0, so it must discard one of them, any one."""

OFFERED_AFTER_DISCARDS = _case(
    "d1",
    "failed",
    ["block.discard"],
    rule="block.discard",
    step=3,
    seat=2,
    action="discard 2-3",
    field="legal",
    expected=SEAT_3_STUCK,
    actual=SEAT_3_STUCK[1:],
    position=_round_of_discards(3),
)
"""A failure on the moves offered after two discards (1-1 by seat 1, then 2-3 by seat 2, the
step's own move): the engine did not offer seat 3 its discard of 3-6."""


def _outlined(page: str) -> list[str]:
    """The tiles drawn outlined as at issue, in page order."""
    return re.findall(r'<g class="domino[^"]* at-issue" data-tile="([^"]+)"', page)


def _drawn_discards(page: str) -> list[str]:
    return re.findall(r'<g class="domino discard[^"]*" data-tile="([^"]+)"', page)


def test_only_the_tiles_at_issue_are_outlined_never_an_earlier_discard(tmp_path: Path) -> None:
    # The moves offered after step 3 differ by "discard 3-6" alone: 3-6, in seat 3's hand, is
    # the one tile at issue. 1-1 and 2-3 lie among the discards, the latter being step 3's
    # own move, which led to the position but is not what the engine got wrong.
    offered = OFFERED_AFTER_DISCARDS
    # After step 3 the engine named the wrong seat to act: no tile is named by to_act.
    turn = {**offered, "case": "d2", "rule": "turn.order", "field": "to_act"}
    turn |= {"expected": 3, "actual": 0}
    # After step 5 (seat 0: place 0-1 right) the engine laid 0-1 on the left: the lines
    # [0-0 0-1] and [1-0 0-0] share 0-0 and disagree on 0-1 only.
    line = {**offered, "case": "d3", "rule": "play.match-end", "field": "line", "step": 5}
    line |= {"seat": 0, "action": "place 0-1 right", "position": _round_of_discards(5)}
    line |= {"expected": [[0, 0], [0, 1]], "actual": [[1, 0], [0, 0]]}
    pages = {}
    for record in (offered, turn, line):
        report = _write(
            tmp_path / f"{record['case']}.jsonl", [_header(), record, _footer([record])]
        )
        pages[record["case"]] = matrix_html([read_report(report)])
    assert _outlined(pages["d1"]) == ["3-6"]
    assert _drawn_discards(pages["d1"]) == ["1-1", "2-3"]
    assert '<p class="at-issue">At issue (outlined): 3-6</p>' in pages["d1"]
    assert _outlined(pages["d2"]) == []
    assert 'class="at-issue"' not in pages["d2"]
    assert _outlined(pages["d3"]) == ["0-1"]
    # The spec laid 0-1 on the right of 0-0; the engine turned it 1-0 and laid it on the left.
    assert '<p class="in-words">laid 0-1 at the left end, not the right</p>' in pages["d3"]
    assert _drawn_discards(pages["d3"]) == ["1-1", "2-3", "3-6"]


def test_a_difference_in_the_moves_offered_is_said_in_words(tmp_path: Path) -> None:
    # d1 left out "discard 3-6"; another engine offered a pass on top of the seven discards,
    # which pagat-4x7 (the discard option) never allows.
    passing = {**OFFERED_AFTER_DISCARDS, "case": "d4", "actual": ["pass", *SEAT_3_STUCK]}
    reports = [
        read_report(_write(tmp_path / f"{case['case']}.jsonl", [_header(), case, _footer([case])]))
        for case in (OFFERED_AFTER_DISCARDS, passing)
    ]
    page = matrix_html(reports)
    assert '<p class="in-words">did not offer discard 3-6</p>' in page
    assert '<p class="in-words">offered pass, which is not legal</p>' in page


def test_the_digests_are_kept_in_one_collapsed_block_at_the_end(tmp_path: Path) -> None:
    # The header's selection hash is "ab" * 32; the footer's expectations file hashes "cd" * 32.
    footer = _footer(FOUR)
    footer["expectations"] = {
        "file": "e.json",
        "sha256": "cd" * 32,
        "held": ["c2"],
        "new": [],
        "unexpected": [],
    }
    page = matrix_html([read_report(_write(tmp_path / "r.jsonl", [_header(), *FOUR, footer]))])
    block = page.index('<details class="digests">')
    assert page.count("<details") == 1
    assert "</details>\n</body>" in page
    for digest in ("ab" * 32, "cd" * 32, "sha256 0000"):
        assert page.index(digest) > block
        assert page.count(digest) == 1
