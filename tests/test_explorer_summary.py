"""The HTML summary of a conformance run links each failing case to the rules explorer at its
failing step, the engine's answer beside the spec's (gaple.conformance.runner.summary)."""

from __future__ import annotations

import json
import re
import urllib.parse
from pathlib import Path
from typing import Any

from gaple import explorer
from gaple.conformance.runner.summary import matrix_html, read_report
from test_reports import FOUR, INJECTED, _footer, _header, _write

DOCS = "https://docs.example/gaple/"


def _page(tmp_path: Path, docs: str | None) -> str:
    report = _write(tmp_path / "toy.jsonl", [_header(), *FOUR, _footer(FOUR)])
    return matrix_html([read_report(report)], docs=docs)


def _explorer_links(page: str) -> list[str]:
    return [
        link.replace("&amp;", "&")
        for link in re.findall(r'<p class="explorer"><a href="([^"]+)"', page)
    ]


def test_a_failing_case_opens_in_the_explorer_at_its_failing_step(tmp_path: Path) -> None:
    # test_reports.FOUR: one failure, c2, at step 1 (seat 0's lead of 0-0) on field line, the
    # spec expecting [[0, 0]] and the engine answering a script (shown as text).
    (link,) = _explorer_links(_page(tmp_path, DOCS))
    address, fragment = link.split("#", 1)
    assert address == f"{DOCS}explorer/index.html"
    document: dict[str, Any] = json.loads(urllib.parse.unquote(fragment))
    assert document["compare"] == {
        "case": "c2",
        "step": 1,
        "rule": "play.match-end",
        "field": "line",
        "engine": INJECTED,
        "spec": "[[0, 0]]",
    }
    answer = json.loads(explorer.show(json.dumps(document)))
    assert answer["ok"], answer
    assert answer["view"]["state"]["actions"] == [{"seat": 0, "move": "lead 0-0"}]


def test_under_local_docs_the_link_names_the_explorer_served_on_this_machine(
    tmp_path: Path,
) -> None:
    (link,) = _explorer_links(_page(tmp_path, "file:///opt/gaple/docs"))
    assert link.startswith("http://127.0.0.1:8737/explorer/index.html#")


def test_without_docs_there_is_no_explorer_link(tmp_path: Path) -> None:
    assert _explorer_links(_page(tmp_path, None)) == []
