"""The rules explorer's speed, from local files: time to interactive and time per move.

* time to interactive: from asking headless Chromium for the page (served from 127.0.0.1, as
  ``gaple docs explorer`` serves it) to the page ready to play (Pyodide started, the wheels
  unpacked, the catalogue read and a hand dealt), over ``--opens`` fresh browser contexts
  (cold: nothing cached) and ``--opens`` reopenings in one context (warm: Chromium keeps the
  compiled WebAssembly of an earlier visit);
* per move: each ``attempt`` the page makes, a legal move of a seeded hand of every preset
  (the reference replays the transcript and answers with the next view), timed in the page;
* the bundle's size, from its ``bundle.json``.

It needs the built explorer (``make docs``) and Chromium. A shared machine's load shows in
these figures (the compile of Pyodide's WebAssembly takes most of the start): the load
average is printed beside them. Measurements, never assertions.

    python benchmarks/explorer.py --opens 3 --seeds 3
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

from gaple.cli.serving import served
from gaple.presets import PRESETS

BUILT = Path(__file__).resolve().parents[1] / "docs" / "_build" / "html"

TIMED_MOVES = """([presets, seeds]) => {
  const reference = window.explorer.reference;
  const times = [];
  for (const preset of presets) {
    for (let seed = 0; seed < seeds; seed += 1) {
      let answer = reference.deal({ preset, seed });
      for (let step = 0; answer.view.result === null; step += 1) {
        const moves = answer.view.moves;
        const start = performance.now();
        answer = reference.attempt(answer.view.state, moves[step % moves.length].text);
        times.push(performance.now() - start);
      }
    }
  }
  return times;
}"""


def opened(context: Any, url: str) -> float:
    """Seconds from asking for the page to its being ready to play, in a new tab of
    ``context``."""
    page = context.new_page()
    start = time.perf_counter()
    page.goto(url)
    page.wait_for_selector("body[data-ready='true']", timeout=120_000)
    seconds = time.perf_counter() - start
    page.close()
    return seconds


def cold(browser: Any, url: str) -> float:
    """:func:`opened` in a fresh context, nothing cached."""
    context = browser.new_context()
    seconds = opened(context, url)
    context.close()
    return seconds


def shown(name: str, opens: list[float]) -> str:
    return (
        f"time to interactive, {name}: median {statistics.median(opens):.2f} s, "
        f"best {min(opens):.2f} s, worst {max(opens):.2f} s ({len(opens)} opens)"
    )


def move_times(browser: Any, url: str, seeds: int) -> list[float]:
    """Milliseconds of each move of ``seeds`` seeded hands of every preset, timed in the page."""
    page = browser.new_page()
    page.goto(url)
    page.wait_for_selector("body[data-ready='true']", timeout=120_000)
    times: list[float] = page.evaluate(TIMED_MOVES, [list(PRESETS), seeds])
    page.close()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--opens", type=int, default=3, help="page opens timed (default 3)")
    parser.add_argument("--seeds", type=int, default=3, help="seeded hands per preset (3)")
    args = parser.parse_args()
    manifest = BUILT / "explorer" / "bundle.json"
    executable = os.environ.get("GAPLE_BROWSER") or shutil.which("chromium")
    # make bench runs this too: without what it needs it says so and measures nothing.
    if not manifest.is_file() or executable is None:
        missing = "no built explorer (make docs)" if executable else "no chromium on PATH"
        print(f"explorer: not measured, {missing}")
        return
    bundle = json.loads(manifest.read_text(encoding="utf-8"))
    print(
        f"bundle: {bundle['bytes'] / 1e6:.1f} MB (Pyodide {bundle['pyodide']}, wheels "
        f"{', '.join(bundle['wheels'])})"
    )
    flags = ["--no-sandbox"] if os.geteuid() == 0 else []
    with served(BUILT) as root, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=flags)
        url = f"{root}explorer/index.html"
        colds = [cold(browser, url) for _ in range(args.opens)]
        context = browser.new_context()
        opened(context, url)  # the visit whose compiled code the next ones reuse
        warms = [opened(context, url) for _ in range(args.opens)]
        context.close()
        moves = move_times(browser, url, args.seeds)
        browser.close()
    print(f"load average: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    print(shown("cold", colds))
    print(shown("warm", warms))
    ordered = sorted(moves)
    print(
        f"per move: median {statistics.median(moves):.1f} ms, 95th percentile "
        f"{ordered[int(0.95 * (len(ordered) - 1))]:.1f} ms, worst {ordered[-1]:.1f} ms "
        f"({len(moves)} moves of {len(PRESETS) * args.seeds} hands)"
    )


if __name__ == "__main__":
    main()
