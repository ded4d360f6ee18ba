"""The HTML report in a real headless browser (Playwright, Chromium).

The page is opened with every request but the file itself aborted and recorded, and with the
page's Content-Security-Policy bypassed, so that a script smuggled in by an engine would
really run: the checks then rest on the escaping, not on the policy. The same checks are run
on a page from a writer that does not escape, to show they catch it.

Chromium comes from ``playwright install chromium``, or from the executable named by the
environment variable ``GAPLE_BROWSER``; without either the tests skip, saying so.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import gaple.conformance.summary as summary_module
from gaple.cli import main
from gaple.conformance.summary import matrix_html, read_report
from test_reports import FOUR, INJECTED, _footer, _header, _write

sync_api = pytest.importorskip(
    "playwright.sync_api", reason="playwright is not installed (pip install 'gaple[test]')"
)

DOCS = "https://docs.example/gaple/"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as playwright:
        executable = os.environ.get("GAPLE_BROWSER") or None
        try:
            launched = playwright.chromium.launch(executable_path=executable)
        except sync_api.Error as error:
            first = str(error).strip().splitlines()[0]
            pytest.skip(
                "no headless Chromium: run `playwright install chromium` or set GAPLE_BROWSER "
                f"to a Chromium executable ({first})"
            )
        yield launched
        launched.close()


class Opened:
    """A page opened from a file, and every request it made beyond the file."""

    def __init__(self, browser: Any, path: Path) -> None:
        self.context = browser.new_context(bypass_csp=True, java_script_enabled=True)
        self.left: list[str] = []
        url = path.resolve().as_uri()

        def route(request: Any) -> None:
            if request.request.url == url:
                request.continue_()
            else:
                self.left.append(request.request.url)
                request.abort()

        self.context.route("**/*", route)
        self.page = self.context.new_page()
        self.page.goto(url)

    def cell(self, rule_id: str, engine: int, status: str) -> str:
        selector = f'tr[data-rule="{rule_id}"] td[data-engine="{engine}"][data-status="{status}"]'
        return str(self.page.locator(selector).inner_text())

    def check_inert(self) -> None:
        """No script element, nothing run, no request out, the injected text shown as text."""
        assert self.page.evaluate("document.querySelectorAll('script').length") == 0
        assert self.page.evaluate("window.pwned === undefined")
        assert self.left == []
        assert INJECTED in self.page.locator("pre.actual").first.inner_text()


@pytest.fixture
def page_file(tmp_path: Path) -> Path:
    report = _write(tmp_path / "toy.jsonl", [_header(), *FOUR, _footer(FOUR)])
    clean = [FOUR[0]]
    other = _write(tmp_path / "other.jsonl", [_header(), *clean, _footer(clean)])
    page = tmp_path / "report.html"
    argv = ["conformance", "summary", str(report), str(other), "--html", str(page)]
    assert main([*argv, "--docs-url", DOCS]) == 0
    return page


def test_the_page_shows_the_matrix_and_the_failure_and_runs_nothing(
    browser: Any, page_file: Path
) -> None:
    opened = Opened(browser, page_file)
    try:
        # From FOUR (see test_reports): tiles.set has c1 passed and c4 errored; c2 failed on
        # play.match-end; c3 skipped under end.out. The second report holds only c1.
        assert opened.cell("tiles.set", 1, "passed") == "1"
        assert opened.cell("tiles.set", 1, "errored") == "1"
        assert opened.cell("play.match-end", 1, "failed") == "1"
        assert opened.cell("end.out", 1, "skipped") == "1"
        assert opened.cell("tiles.set", 2, "passed") == "1"
        assert opened.cell("all cases", 2, "failed") == "0"
        failure = opened.page.locator('section.failure[data-case="c2"]')
        assert failure.locator("pre.expected").inner_text() == "[[0, 0]]"
        assert failure.locator("pre.actual").inner_text() == INJECTED
        link = failure.locator("a").first.get_attribute("href")
        assert link == f"{DOCS}rules/turn.html#rule-play-match-end"
        assert "A placed tile joins one named end" in failure.inner_text()
        assert failure.locator("svg title").count() == 1
        opened.check_inert()
    finally:
        opened.context.close()


def test_the_browser_checks_catch_a_writer_that_does_not_escape(
    browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    report = _write(tmp_path / "toy.jsonl", [_header(), *FOUR, _footer(FOUR)])
    monkeypatch.setattr(summary_module, "_e", str)
    broken = tmp_path / "broken.html"
    broken.write_text(matrix_html([read_report(report)], docs=DOCS), encoding="utf-8")
    opened = Opened(browser, broken)
    try:
        with pytest.raises(AssertionError):
            opened.check_inert()
        # The smuggled script really ran: the policy was bypassed, as in the test above.
        assert opened.page.evaluate("window.pwned") == 1
    finally:
        opened.context.close()
