"""The rules explorer in a real headless browser (Playwright, Chromium), as a person uses it.

The built docs are served from 127.0.0.1 (:mod:`gaple.cli.serving`, as ``gaple docs explorer``
serves them) and every request for another address is aborted and recorded: the page must run
from its own folder. One page is opened for the module (starting Pyodide takes seconds) and each
test deals afresh on it.

It needs the built explorer (``make docs``) and a Chromium (``GAPLE_BROWSER``, else
``chromium`` on the PATH, else Playwright's own); without either the tests skip, saying why.
The page is photographed at 1,400 and 400 pixels wide into ``tests/artefacts/`` (ignored by
git).
"""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gaple.cli.serving import served
from gaple.conformance.runner.summary import matrix_html, read_report
from gaple.deal import shuffle_deal
from gaple.presets import PRESETS, ruleset
from gaple.result import hand_result
from gaple.state import apply, new_hand, parse_move
from test_explorer import TYPED
from test_explorer_node import built_explorer, played_in_cpython, same_result
from test_reports import FOUR, INJECTED, _footer, _header, _write

sync_api = pytest.importorskip(
    "playwright.sync_api", reason="playwright is not installed (pip install 'gaple[test]')"
)

ARTEFACTS = Path(__file__).resolve().parent / "artefacts"
SEEDS = 2
"""Seeds per preset played in the page: 2 x 8 presets = 16 hands."""


class Explorer:
    """The explorer page, opened once, and every request it made elsewhere than its server."""

    def __init__(self, browser: Any, root: str, url: str | None = None) -> None:
        self.root = root
        self.context = browser.new_context(viewport={"width": 1400, "height": 1000})
        self.elsewhere: list[str] = []

        def route(request: Any) -> None:
            if request.request.url.startswith(root):
                request.continue_()
            else:
                self.elsewhere.append(request.request.url)
                request.abort()

        self.context.route("**/*", route)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.open(url or f"{root}explorer/index.html")

    def open(self, url: str) -> None:
        self.page.goto(url)
        self.page.wait_for_selector("body[data-ready]", timeout=60_000)
        assert self.page.get_attribute("body", "data-ready") == "true", self.status()

    def status(self) -> str:
        return str(self.page.inner_text("#status"))

    def deal(self, preset: str, *, seed: int | None = None, typed: str | None = None) -> None:
        self.page.select_option("#preset", preset)
        if typed is None:
            self.page.check('input[name="by"][value="seed"]')
            self.page.fill("#seed", str(seed))
        else:
            self.page.check('input[name="by"][value="typed"]')
            self.page.fill("#typed", typed)
        self.page.click("#deal")

    def history(self) -> list[str]:
        texts = self.page.locator("#history li button").all_inner_texts()
        return [str(text) for text in texts[1:]]  # the first is the deal

    def shoot(self, name: str, width: int) -> Path:
        ARTEFACTS.mkdir(exist_ok=True)
        self.page.set_viewport_size({"width": width, "height": 1000})
        path = ARTEFACTS / f"explorer-{name}-{width}.png"
        self.page.screenshot(path=str(path), full_page=True)
        self.page.set_viewport_size({"width": 1400, "height": 1000})
        return path


@pytest.fixture(scope="module")
def explorer() -> Iterator[Explorer]:
    built = built_explorer()
    with sync_api.sync_playwright() as playwright:
        executable = os.environ.get("GAPLE_BROWSER") or shutil.which("chromium")
        # Chromium's sandbox refuses to start as root (as in CI and containers).
        args = ["--no-sandbox"] if os.geteuid() == 0 else []
        try:
            browser = playwright.chromium.launch(executable_path=executable, args=args)
        except sync_api.Error as error:
            first = str(error).strip().splitlines()[0]
            pytest.skip(f"no headless Chromium: set GAPLE_BROWSER or install one ({first})")
        with served(built.parent) as root:
            opened = Explorer(browser, root)
            yield opened
            assert opened.elsewhere == []
            assert opened.errors == []
        browser.close()


def replayed(preset: str, seed: int, history: list[str]) -> Any:
    """The hand the page shows, played again in CPython from its history."""
    rules = ruleset(preset)
    state = new_hand(rules, shuffle_deal(rules, seed))
    for entry in history:
        seat, move = entry.split(": ", 1)
        state = apply(state, parse_move(move), int(seat.removeprefix("seat ")))
    return state


def test_the_page_plays_every_preset_as_cpython_does(explorer: Explorer) -> None:
    script = """([presets, seeds]) => presets.flatMap((preset) => Array.from({length: seeds},
        (_, seed) => window.explorer.playSeeded(window.explorer.reference, preset, seed)))"""
    hands = explorer.page.evaluate(script, [list(PRESETS), SEEDS])
    assert len(hands) == len(PRESETS) * SEEDS
    for hand in hands:
        cpython = played_in_cpython(hand["preset"], hand["seed"])
        assert hand["state"] == cpython["state"]
        same_result(hand["result"], cpython["result"])


def test_a_whole_hand_played_by_clicks_ends_in_the_reckoning(explorer: Explorer) -> None:
    page = explorer.page
    explorer.deal("chips", seed=11)
    for _ in range(60):
        if page.is_visible("#reckoning"):
            break
        if page.locator("#pass.lit").count():
            page.click("#pass")
            continue
        page.locator("#hands .seat.acting button.tile.playable").first.click()
        if page.locator("#discard.lit").count():
            page.click("#discard")
        else:
            page.locator("button.end.lit").first.click()
    assert page.is_visible("#reckoning")
    state = replayed("chips", 11, explorer.history())
    assert state.is_over
    result = hand_result(state)
    # The table lists the seats best first, each with its count, as CPython ranks them.
    rows = page.locator("#counts tbody tr").all_inner_texts()
    shown = [(int(cells.split("\t")[1]), int(cells.split("\t")[2])) for cells in rows]
    assert shown == [(seat, result.counts[seat]) for seat in result.ranking]
    notes = page.locator("#notes li")
    assert notes.count() == len(result.notes)
    first_rule = notes.first.locator("a.rule")
    assert first_rule.inner_text() == result.notes[0].rule_id
    assert first_rule.get_attribute("href", timeout=1000).startswith("../rules/")
    assert f"Seat {result.winner} wins" in page.inner_text("#verdict")
    for width in (1400, 400):
        print(explorer.shoot("reckoning", width))


def test_a_whole_hand_played_by_keyboard_alone(explorer: Explorer) -> None:
    page = explorer.page
    explorer.deal("domino4d", seed=4)
    focused = "document.activeElement"
    for _ in range(120):
        if page.is_visible("#reckoning"):
            break
        if page.locator("#pass.lit").count():
            page.keyboard.press("p")
            continue
        for _tab in range(12):  # to a tile that can be played, as the focus ring shows
            if page.evaluate(f"{focused}.matches('.seat.acting .tile.playable')"):
                break
            page.keyboard.press("Tab")
        page.keyboard.press("Enter")
        if page.locator("#discard.lit").count():
            page.keyboard.press("d")
        else:
            page.keyboard.press("l" if page.locator("#end-left.lit").count() else "r")
    assert page.is_visible("#reckoning")
    state = replayed("domino4d", 4, explorer.history())
    assert state.is_over
    assert page.inner_text("#notes li >> nth=0").startswith(hand_result(state).notes[0].rule_id)
    # A step back shows the hand before its last move, and a step forward its end again.
    page.keyboard.press("[")
    assert not page.is_visible("#reckoning")
    page.keyboard.press("]")
    assert page.is_visible("#reckoning")


def test_an_illegal_try_is_refused_with_its_rule_linked_to_the_rules_box(
    explorer: Explorer,
) -> None:
    page = explorer.page
    # test_explorer.TYPED: seat 0 leads 0-0; seat 1, holding no blank, cannot place 1-2.
    explorer.deal("pagat-4x7", typed=TYPED)
    page.click('#hands button[aria-label="blank-blank"]')
    page.click("#end-left")
    page.click('#hands button[aria-label="two-one"]')
    assert page.locator("#end-left.lit").count() == 0  # it fits no end
    page.click("#end-left")
    refusal = page.locator("#refusal .refused")
    assert refusal.locator(".code").inner_text() == "no-match"
    assert "1-2 has no half showing 0" in refusal.inner_text()
    link = refusal.locator("a.rule")
    assert link.inner_text() == "play.match-end"
    assert link.get_attribute("href") == "../rules/turn.html#rule-play-match-end"
    assert explorer.history() == ["seat 0: lead 0-0"]  # nothing played
    for width in (1400, 400):
        print(explorer.shoot("refusal", width))
    # The rule's box is where the link points, on the docs page beside the explorer.
    rules = explorer.context.new_page()
    rules.goto(f"{explorer.root}explorer/{link.get_attribute('href')}")
    assert "A placed tile joins one named end" in rules.locator("#rule-play-match-end").inner_text()
    rules.close()


def test_a_link_to_a_step_opens_the_hand_at_that_step(explorer: Explorer) -> None:
    page = explorer.page
    explorer.deal("pagat-4x7", typed=TYPED)
    page.click('#hands button[aria-label="blank-blank"]')
    page.click("#end-left")
    page.click('#hands button[aria-label="one-one"]')
    page.click("#discard")
    page.click("#back")  # at step 1 of 2
    page.click("#link")
    url = page.url
    shared = json.loads(urllib.parse.unquote(url.split("#", 1)[1]))
    assert shared["step"] == 1
    assert [a["move"] for a in shared["actions"]] == ["lead 0-0", "discard 1-1"]
    # Opened afresh, as by whoever the link was sent to.
    other = Explorer(explorer.context.browser, explorer.root, url)
    try:
        assert other.history() == ["seat 0: lead 0-0", "seat 1: discard 1-1"]
        assert other.page.locator("#history li.current").inner_text() == "seat 0: lead 0-0"
        assert other.elsewhere == []
    finally:
        other.context.close()


def test_a_worked_examples_try_it_link_opens_its_hand(explorer: Explorer) -> None:
    page = explorer.page
    docs = explorer.context.new_page()
    docs.goto(f"{explorer.root}examples/legal-moves.html")
    href = docs.locator("#example-e002-1 .gaple-try a").get_attribute("href")
    docs.close()
    page.goto(urllib.parse.urljoin(f"{explorer.root}examples/", href))
    # Example E002-1 (docs/examples/legal-moves.rst): seat 3 to act on ends 6 and 5, with seven
    # legal placements.
    assert "seat 3 to act; 7 legal moves" in page.inner_text("#turn")
    assert page.inner_text("#end-left") == "left end: 6"
    assert page.inner_text("#end-right") == "right end: 5"


def test_a_failing_conformance_case_opens_with_the_engines_answer_beside_the_spec(
    explorer: Explorer, tmp_path: Path
) -> None:
    # test_reports.FOUR's failure c2: at step 1 the engine answered a script for the line.
    report = _write(tmp_path / "toy.jsonl", [_header(), *FOUR, _footer(FOUR)])
    page_html = matrix_html([read_report(report)], docs=explorer.root)
    link = re.search(r'<p class="explorer"><a href="([^"]+)"', page_html)
    assert link is not None
    explorer.page.goto(html.unescape(link[1]))
    compare = explorer.page.locator("#compare")
    assert compare.is_visible()
    assert "Conformance case c2 failed at step 1" in compare.inner_text()
    assert compare.locator("code.engine").inner_text() == INJECTED  # shown, never run
    assert compare.locator("code.spec").inner_text() == "[[0, 0]]"
    assert explorer.page.evaluate("window.pwned === undefined")
    assert explorer.history() == ["seat 0: lead 0-0"]
