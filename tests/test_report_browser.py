"""The HTML report in a real headless browser (Playwright, Chromium).

The page is opened with every request but the file itself aborted and recorded, and with the
page's Content-Security-Policy bypassed, so that a script smuggled in by an engine would
really run: the checks then rest on the escaping, not on the policy. The same checks are run
on a page from a writer that does not escape, to show they catch it.

Chromium is the executable named by the environment variable ``GAPLE_BROWSER``, else
``chromium`` on the PATH (``.ci/browser`` installs it in CI), else Playwright's own (``playwright
install chromium``); without any the tests skip, saying so. Run as root, Chromium needs
``--no-sandbox``.

The page is also photographed at 1,400 and 600 pixels wide, into ``tests/artefacts/`` (kept by
nobody but the reader: the folder is ignored by git), and the test prints where.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import gaple.conformance.runner.summary as summary_module
from gaple.cli import main
from gaple.conformance.runner.summary import matrix_html, read_report
from test_reports import FOUR, INJECTED, _case, _failed, _footer, _header, _write

sync_api = pytest.importorskip(
    "playwright.sync_api", reason="playwright is not installed (pip install 'gaple[test]')"
)

DOCS = "https://docs.example/gaple/"
ARTEFACTS = Path(__file__).resolve().parent / "artefacts"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as playwright:
        executable = os.environ.get("GAPLE_BROWSER") or shutil.which("chromium")
        # Chromium's sandbox refuses to start as root (as in CI and containers).
        args = ["--no-sandbox"] if os.geteuid() == 0 else []
        try:
            launched = playwright.chromium.launch(executable_path=executable, args=args)
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

    def __init__(self, browser: Any, path: Path, width: int = 1400) -> None:
        self.context = browser.new_context(
            bypass_csp=True, java_script_enabled=True, viewport={"width": width, "height": 900}
        )
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
        assert failure.locator("svg > title").count() == 1
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


@pytest.fixture
def wide_page(tmp_path: Path) -> Path:
    """Three engines side by side (a matrix of 13 columns), the first failing three cases
    alike and one otherwise, the second erroring twice alike."""
    failing = [_failed(case, ["play.match-end"]) for case in ("c2", "c5", "c6")]
    failing.append({**_failed("c7", ["play.match-end"]), "field": "ends"})
    erring = [_case(c, "errored", ["tiles.set"], message="crashed") for c in ("c1", "c3")]
    reports = [
        _write(tmp_path / f"{name}.jsonl", [_header(), *cases, _footer(cases)])
        for name, cases in (("one", failing), ("two", erring), ("three", [FOUR[0]]))
    ]
    page = tmp_path / "wide.html"
    assert main(["conformance", "summary", *map(str, reports), "--html", str(page)]) == 0
    return page


def _width(opened: Opened) -> tuple[int, int]:
    """How wide the page is laid out, and how wide the window is (CSS pixels)."""
    scroll, inner = opened.page.evaluate(
        "[document.documentElement.scrollWidth, window.innerWidth]"
    )
    return int(scroll), int(inner)


@pytest.mark.parametrize("width", [1400, 600])
def test_the_page_fits_its_width_and_is_photographed(
    browser: Any, wide_page: Path, width: int, capsys: pytest.CaptureFixture[str]
) -> None:
    opened = Opened(browser, wide_page, width)
    try:
        # Nothing wider than the window: the matrix scrolls in its own box, pictures shrink.
        scroll, inner = _width(opened)
        assert (scroll, inner) == (width, width)
        box = opened.page.locator("div.scroll")
        assert box.count() == 1
        assert box.evaluate("b => b.scrollWidth > b.clientWidth") == (width == 600)
        ARTEFACTS.mkdir(exist_ok=True)
        shot = ARTEFACTS / f"report-{width}.png"
        opened.page.screenshot(path=str(shot), full_page=True)
        with capsys.disabled():
            print(f"\nscreenshot of the report at {width} px: {shot}")
    finally:
        opened.context.close()


def test_a_count_in_the_matrix_opens_its_group(browser: Any, wide_page: Path) -> None:
    opened = Opened(browser, wide_page, 600)
    try:
        # Engine 1's four failures of play.match-end: the group of three (c2 shown, c5 and c6
        # listed) comes first, then c7's.
        opened.page.click('tr[data-rule="play.match-end"] td[data-engine="1"] a')
        assert opened.page.evaluate("location.hash") == "#e1-f1"
        group = opened.page.locator("section#e1-f1")
        assert group.get_attribute("data-case") == "c2"
        assert group.get_attribute("data-count") == "3"
        assert "The same in 2 more: c5, c6" in group.inner_text()
        # Scrolled to the top of the window (to within the subpixel rounding of layout).
        assert abs(group.evaluate("g => g.getBoundingClientRect().top")) < 1
        # Engine 2's errors of tiles.set: one group of two.
        opened.page.click('tr[data-rule="tiles.set"] td[data-engine="2"][data-status="errored"] a')
        assert opened.page.evaluate("location.hash") == "#e2-e1"
        assert opened.page.locator("section#e2-e1").get_attribute("data-count") == "2"
    finally:
        opened.context.close()
