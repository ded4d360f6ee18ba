"""Find drawn hands that reach the coverage cells no vector reaches, and write them as the
``combination`` scenario group (``src/gaple/conformance/vectors/scenario_data/combination.toml``).

    python tools/cover.py [--seed S] [--draws N] [--append] [--variant P] [--set K=JSON]

The cells (:mod:`gaple.conformance.vectors.situations`) the other vectors reach are taken from a
build; the rest, less those proven unreachable, are the targets. Hands are drawn as the fuzzer
draws them (:mod:`gaple.conformance.vectors.drawing`), each played under every play policy; then the
fewest hands covering the most targets are chosen greedily (set cover). Each hand is written
with its whole deal and moves, and pins the targets it was chosen for: ``gaple vectors build``
replays it on the reference and refuses it when it no longer reaches them. Run it again after a
change that moves cells (it keeps the hands it did not draw, found by fuzz runs); a target no
draw reaches is printed, to be covered by hand, by a search aimed at it (``--append`` with
``--variant`` and ``--set``), or proven unreachable.
When a new vector of another group reaches cells a hand pins, ``--prune`` takes them off its
pins, and drops a hand left with none.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tomllib
from pathlib import Path
from typing import Any

import attrs

from gaple.conformance.vectors.coverage import case_cells, reason
from gaple.conformance.vectors.drawing import POLICIES, Hand, draw_hand, play_draw
from gaple.conformance.vectors.scenarios import all_cases
from gaple.conformance.vectors.scope import preset_scope
from gaple.conformance.vectors.situations import all_cells
from gaple.conformance.vectors.tailor import SEED, tailor
from gaple.presets import PRESETS

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "src" / "gaple" / "conformance" / "scenario_data" / "combination.toml"
GROUP = "combination"
DRAWN = "Drawn by tools/cover.py"
"""How the why of a hand this tool drew begins; the others were found by fuzz runs or by
searches of their own."""
HEADER = """# Drawn hands reaching the coverage cells no other vector reaches (topic combination).
#
# Written by tools/cover.py, except the hands a fuzz run or a search of its own found, whose
# why says so; read by gaple.conformance.vectors.builder. Do not edit the drawn hands by hand: run
# tools/cover.py again.
"""


def covered(keep: bool) -> set[str]:
    """The cells the vectors outside the combination group reach (with ``keep``, the group's
    too)."""
    cells: set[str] = set()
    for case in all_cases():
        if case["topic"] != GROUP or keep:
            cells.update(case_cells(case))
    return cells


def candidates(
    seed: int, draws: int, targets: set[str], presets: list[str], fixed: dict[str, Any]
) -> list[tuple[Hand, set[str]]]:
    """Each drawn hand (under each policy) that reaches a target, with the targets it
    reaches."""
    found = []
    for number in range(draws):
        draw = draw_hand(seed, number, presets, fixed)
        if draw is None:
            continue
        for policy in POLICIES:
            hand = play_draw(attrs.evolve(draw, policy=policy))
            reached = set(hand.cells).intersection(targets)
            if reached:
                found.append((hand, reached))
    return found


def choose(found: list[tuple[Hand, set[str]]], targets: set[str]) -> list[tuple[Hand, set[str]]]:
    """The greedy set cover: the hand reaching the most targets not yet pinned, until none
    adds any (ties: the earliest drawn)."""
    chosen: list[tuple[Hand, set[str]]] = []
    left = set(targets)
    while True:
        best = max(found, key=lambda item: len(item[1].intersection(left)), default=None)
        if best is None or best[1].isdisjoint(left):
            return chosen
        chosen.append((best[0], best[1].intersection(left)))
        left.difference_update(best[1])


def _toml(value: Any) -> str:
    """A TOML value of JSON ``value`` (not null: the options set to none are ``unset``)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(_toml(item) for item in value) + "]"
    return json.dumps(value)


def entry(
    number: int, hand: Hand, pins: set[str] | frozenset[str], seed: int, group: str = GROUP
) -> str:
    """The scenario of ``hand``, pinning ``pins``, numbered ``number`` in ``group``."""
    draw = hand.draw
    deal = hand.start.deal
    moves = []
    for played in hand.played:
        line = f"{played.action.seat} {played.action.move}"
        moves.append(line if played.error is None else f"{line} -> {played.error.code}")
    lines = [
        "[[scenario]]",
        f'id = "{group}-{number:03d}"',
        f'description = "A drawn {draw.preset} hand reaching {len(pins)} cell(s) no other vector '
        'reaches."',
        "why = '''",
        f"{DRAWN} (seed {seed}, policy {draw.policy}) for the cells it pins; every",
        "expected value is the reference's, and the build checks it still reaches them.",
        "'''",
        f'preset = "{draw.preset}"',
        f"first_hand = {_toml(draw.first)}",
        f"first_seat = {deal.first_seat}",
    ]
    options = {k: v for k, v in sorted(draw.changed.items()) if v is not None}
    if options:
        written = ", ".join(f"{k} = {_toml(v)}" for k, v in options.items())
        lines.append(f"options = {{ {written} }}")
    unset = sorted(k for k, v in draw.changed.items() if v is None)
    if unset:
        lines.append("unset = [" + ", ".join(f'"{k}"' for k in unset) + "]")
    lines.append("hands = [" + ", ".join(f'"{" ".join(map(str, h))}"' for h in deal.hands) + "]")
    if deal.set_aside:
        lines.append(f'aside = "{" ".join(map(str, deal.set_aside))}"')
    if deal.starter is not None:
        lines.append(f'starter = "{deal.starter}"')
    lines.append("moves = [")
    lines += [f'  "{move}",' for move in moves]
    lines.append("]")
    lines.append("pins = [")
    lines += [f'  "{pin}",' for pin in sorted(pins)]
    lines.append("]")
    return "\n".join(lines)


def prune() -> None:
    """Take off each hand's pins the cells another group's vectors now reach; drop the hands
    left with none (their numbers stay free: the next hand appended takes a new one)."""
    others = covered(keep=False)
    kept = []
    for block in _blocks():
        scenario = tomllib.loads(block)["scenario"][0]
        pins = sorted(set(scenario["pins"]).difference(others))
        if not pins:
            print(f"dropped {scenario['id']}: another group reaches all its cells")
            continue
        counted = re.sub(r"reaching \d+ cell\(s\)", f"reaching {len(pins)} cell(s)", block)
        # The pins, on one line or on several, taken out and written again last.
        unpinned = re.sub(r"(?ms)^pins = \[.*?\]$\n?", "", counted).rstrip("\n")
        kept.append(unpinned + "\npins = [\n" + "".join(f'  "{pin}",\n' for pin in pins) + "]")
    _write(kept)


def _blocks() -> list[str]:
    """Each scenario written, as text."""
    _, *blocks = OUT.read_text(encoding="utf-8").split("[[scenario]]\n")
    return ["[[scenario]]\n" + block.rstrip("\n") for block in blocks]


def _write(blocks: list[str]) -> None:
    OUT.write_text(HEADER + "\n\n".join(blocks) + "\n", encoding="utf-8")


def _fuzzed(blocks: list[str]) -> list[str]:
    """The hands a fuzz run or a search of its own found, which a new drawing keeps."""
    return [block for block in blocks if f"\n{DRAWN}" not in block]


def _next_number(blocks: list[str]) -> int:
    """The number after the highest of the hands in ``blocks``."""
    numbers = [int(n) for b in blocks for n in re.findall(rf'^id = "{GROUP}-(\d+)"$', b, re.M)]
    return max(numbers, default=0) + 1


MEASURE = "measure"
"""The groups of the presets' covering sets: ``measure-<preset>``, one file each."""
MEASURE_DRAWS = 20_000


def measure(preset: str, draws: int) -> int:
    """Write the covering set of ``preset`` with its defaults (``scenario_data/measure-<preset>
    .toml``): the hands reaching every cell of its scope that its other cases do not
    (:func:`gaple.conformance.vectors.tailor.tailor`); returns how many cells no draw reached."""
    scope = preset_scope(preset)
    group = f"{MEASURE}-{preset}"
    # Two presets with the same rules share one set: the second finds nothing left to reach.
    others = [case for case in all_cases() if not case["id"].startswith(f"{group}-")]
    made = tailor(scope, others, draws=draws)
    path = OUT.parent / f"{group}.toml"
    header = (
        f"# The covering set of {preset} with its defaults (topic {MEASURE}): hands drawn inside\n"
        f"# its rules reaching every cell of its scope no other vector inside it reaches.\n"
        f"# Written by tools/cover.py --preset {preset}; do not edit by hand.\n"
    )
    if not made.hands:
        header += "# None: the other vectors inside these rules already reach every cell.\n"
    blocks = [
        entry(n, hand, pins, SEED, group) for n, (hand, pins) in enumerate(made.hands, start=1)
    ]
    path.write_text(header + "\n\n".join(blocks) + "\n", encoding="utf-8")
    print(
        f"{preset}: {len(made.targets)} targets, {len(made.hands)} hands, {made.draws} draws, "
        f"{len(made.still_open)} not reached"
    )
    for cell in made.still_open:
        print(f"  not reached: {cell}")
    return len(made.still_open)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--draws", type=int, help="hands drawn (default 4,000; 20,000 with --preset)"
    )
    parser.add_argument(
        "--append", action="store_true", help="keep the hands written and add to them"
    )
    parser.add_argument("--variant", action="append", help="draw from these presets only")
    parser.add_argument("--set", action="append", default=[], metavar="OPTION=JSON")
    parser.add_argument(
        "--prune", action="store_true", help="only drop the pins other groups now reach"
    )
    parser.add_argument(
        "--preset",
        action="append",
        help="write the covering set of this preset with its defaults (repeatable)",
    )
    args = parser.parse_args(argv)
    if args.preset:
        open_cells = sum(measure(name, args.draws or MEASURE_DRAWS) for name in args.preset)
        return int(open_cells > 0)
    if args.prune:
        prune()
        return 0
    fixed = {k: json.loads(v) for k, v in (item.split("=", 1) for item in args.set)}
    reached = covered(args.append)
    targets = {c for c in all_cells() if c not in reached and reason(c) is None}
    print(f"{len(reached)} cells covered by the other vectors, {len(targets)} targets")
    found = candidates(args.seed, args.draws or 4000, targets, args.variant or list(PRESETS), fixed)
    chosen = choose(found, targets)
    pinned = set().union(*(pins for _, pins in chosen)) if chosen else set()
    blocks = _blocks()
    kept = blocks if args.append else _fuzzed(blocks)
    start = _next_number(kept)
    body = [entry(n, hand, pins, args.seed) for n, (hand, pins) in enumerate(chosen, start)]
    _write(blocks + body if args.append else body + kept)
    print(f"wrote {len(chosen)} hands pinning {len(pinned)} cells to {OUT.relative_to(ROOT)}")
    for cell in sorted(targets.difference(pinned)):
        print(f"not reached: {cell}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
