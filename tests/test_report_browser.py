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
from test_reports import (
    FOUR,
    INJECTED,
    OFFERED_AFTER_DISCARDS,
    _case,
    _failed,
    _footer,
    _header,
    _write,
)

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


@pytest.fixture
def crowded_page(tmp_path: Path) -> Path:
    """Six engines side by side (25 columns, wider than 1,400 px), the first failing on the
    moves offered after two discards (test_reports.OFFERED_AFTER_DISCARDS), the others passing
    one case."""
    failing = [OFFERED_AFTER_DISCARDS, FOUR[0]]
    reports = [
        _write(tmp_path / f"e{n}.jsonl", [_header(), *cases, _footer(cases)])
        for n, cases in enumerate([failing, *[[FOUR[0]]] * 5], start=1)
    ]
    page = tmp_path / "crowded.html"
    assert main(["conformance", "summary", *map(str, reports), "--html", str(page)]) == 0
    return page


def _photograph(opened: Opened, name: str, capsys: pytest.CaptureFixture[str]) -> None:
    ARTEFACTS.mkdir(exist_ok=True)
    shot = ARTEFACTS / f"{name}.png"
    opened.page.screenshot(path=str(shot), full_page=True)
    with capsys.disabled():
        print(f"\nscreenshot: {shot}")


_RULE_CELL_SHOWN = """cell => {
    const box = cell.getBoundingClientRect();
    const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return cell.contains(top);
}"""
"""Whether the topmost element at the centre of a cell is the cell (or inside it)."""


@pytest.mark.parametrize("width", [1400, 600])
def test_the_rule_column_stays_put_when_the_matrix_scrolls(
    browser: Any, crowded_page: Path, width: int, capsys: pytest.CaptureFixture[str]
) -> None:
    opened = Opened(browser, crowded_page, width)
    try:
        cells = [
            opened.page.locator("th.rule"),
            opened.page.locator('tr[data-rule="block.discard"] td.rule'),
        ]
        before = [cell.bounding_box()["x"] for cell in cells]
        # As far right as the box scrolls: 25 columns are wider than either window.
        scrolled = opened.page.locator("div.scroll").evaluate(
            "box => { box.scrollLeft = box.scrollWidth; return box.scrollLeft; }"
        )
        assert scrolled > 0
        for cell, x in zip(cells, before, strict=True):
            assert abs(cell.bounding_box()["x"] - x) < 0.5
            assert cell.evaluate(_RULE_CELL_SHOWN)
        _photograph(opened, f"report-scrolled-{width}", capsys)
    finally:
        opened.context.close()


_CAPTIONS_APART = """() => {
    const found = [];
    const meet = (a, b) =>
        a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    for (const svg of document.querySelectorAll(".position svg")) {
        const frame = svg.getBoundingClientRect();
        const texts = [...svg.querySelectorAll("text")].filter(t => t.textContent.trim());
        const boxes = texts.map(t => t.getBoundingClientRect());
        texts.forEach((text, i) => {
            const box = boxes[i];
            // Half a pixel of rounding: the picture is scaled to the window.
            if (box.left < frame.left - 0.5 || box.right > frame.right + 0.5)
                found.push(`${text.textContent} runs out of its picture`);
            for (let j = i + 1; j < texts.length; j++)
                if (meet(box, boxes[j]))
                    found.push(`${text.textContent} overlaps ${texts[j].textContent}`);
        });
    }
    return found;
}"""
"""Every text of every position picture that overlaps another or runs out of its picture."""


@pytest.mark.parametrize("width", [1400, 600])
def test_no_two_captions_of_a_picture_overlap(
    browser: Any, crowded_page: Path, width: int, capsys: pytest.CaptureFixture[str]
) -> None:
    # The position after seat 2 discarded 2-3: seat 2 (left, in the second row) holds six
    # tiles and one discard, which the word "discarded" is wider than; seat 3 beside it is to
    # act ("Seat 3 ◀ to act").
    opened = Opened(browser, crowded_page, width)
    try:
        assert opened.page.locator(".position svg").count() == 1
        assert opened.page.evaluate(_CAPTIONS_APART) == []
        _photograph(opened, f"report-discards-{width}", capsys)
    finally:
        opened.context.close()


def test_only_the_tiles_at_issue_are_outlined(browser: Any, crowded_page: Path) -> None:
    # d1 (test_reports.OFFERED_AFTER_DISCARDS): the moves offered after 1-1 and 2-3 were
    # discarded lack "discard 3-6"; 3-6, in seat 3's hand, is the only tile at issue.
    opened = Opened(browser, crowded_page, 600)
    try:
        picture = opened.page.locator('section.failure[data-case="d1"] .position svg')
        outlined = picture.locator("g.at-issue")
        assert outlined.count() == 1
        assert outlined.get_attribute("data-tile") == "3-6"
        assert outlined.locator("title").text_content() == "3-6, at issue"
        assert picture.locator("rect.issue").count() == 1
        discards = picture.locator("g.discard")
        assert [discards.nth(k).get_attribute("data-tile") for k in range(2)] == ["1-1", "2-3"]
        assert discards.count() == 2
    finally:
        opened.context.close()


_DIGEST_SHOWN = """digest => {
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const shown = [];
    while (walker.nextNode())
        if (walker.currentNode.data.includes(digest))
            shown.push(walker.currentNode.parentElement.checkVisibility());
    return shown;
}"""
"""For each text holding ``digest``: whether it is shown (not inside a closed element)."""


@pytest.mark.parametrize("width", [1400, 600])
def test_the_digests_are_out_of_the_way_until_asked_for(
    browser: Any, crowded_page: Path, width: int
) -> None:
    # The header of every report (test_reports._header) gives its selection the hash "ab" * 32.
    digest = "ab" * 32
    opened = Opened(browser, crowded_page, width)
    try:
        assert opened.page.evaluate(_DIGEST_SHOWN, digest) == [False] * 6
        assert _width(opened) == (width, width)
        opened.page.locator("details.digests > summary").click()
        assert opened.page.evaluate(_DIGEST_SHOWN, digest) == [True] * 6
        # Opened, the 64 digits wrap rather than widen the page.
        assert _width(opened) == (width, width)
    finally:
        opened.context.close()
