"""The explorer's Python side (gaple.explorer), in CPython: what the page is told.

The expected values are read off the deals and positions written here, by the rules; the page
itself is tested in Node (test_explorer_node) and in Chromium (test_explorer_browser).
"""

from __future__ import annotations

import json
import re
import urllib.parse
from pathlib import Path
from typing import Any

import pytest

from gaple import explorer
from gaple.tiles import Tile

# Seat 0 holds every blank, seat 1 the ones and 2-2, seat 2 the twos and threes up to 3-5, seat
# 3 the rest: under pagat-4x7 seat 0 leads 0-0 (open.double-blank), then seat 1, holding no
# blank, is stuck on ends 0 and 0 and must discard (block.discard).
TYPED = "\n".join(
    [
        "0-0 0-1 0-2 0-3 0-4 0-5 0-6",
        "1-1 1-2 1-3 1-4 1-5 1-6 2-2",
        "2-3 2-4 2-5 2-6 3-3 3-4 3-5",
        "3-6 4-4 4-5 4-6 5-5 5-6 6-6",
    ]
)


def _call(answer: str) -> dict[str, Any]:
    decoded: dict[str, Any] = json.loads(answer)
    return decoded


def _typed(**more: Any) -> dict[str, Any]:
    answer = _call(explorer.deal(json.dumps({"preset": "pagat-4x7", "typed": TYPED, **more})))
    assert answer["ok"], answer
    view: dict[str, Any] = answer["view"]
    return view


def _after_lead() -> dict[str, Any]:
    view = _typed()
    answer = _call(explorer.attempt(json.dumps(view["state"]), "lead 0-0"))
    assert answer["refusal"] is None
    after: dict[str, Any] = answer["view"]
    return after


def test_tiles_are_named_as_players_say_them_high_half_first() -> None:
    assert explorer.tile_name(Tile(4, 6)) == "six-four"
    assert explorer.tile_name(Tile(0, 3)) == "three-blank"


def test_a_typed_deal_opens_with_the_double_blank_lead_only() -> None:
    view = _typed()
    assert view["state"]["to_act"] == 0
    assert view["moves"] == [{"text": "lead 0-0", "kind": "lead", "tile": "0-0", "end": None}]
    assert view["names"]["4-6"] == "six-four"
    assert view["result"] is None


def test_a_stuck_seat_is_offered_a_discard_of_each_tile() -> None:
    after = _after_lead()
    assert after["state"]["to_act"] == 1
    assert after["state"]["ends"] == [0, 0]
    held = ["1-1", "1-2", "1-3", "1-4", "1-5", "1-6", "2-2"]
    assert [m["text"] for m in after["moves"]] == [f"discard {t}" for t in held]


@pytest.mark.parametrize(
    ("move", "code", "rule", "page"),
    [
        # Seat 1 holds no blank: 1-2 matches neither 0 end.
        ("place 1-2 left", "no-match", "play.match-end", "rules/turn.html#rule-play-match-end"),
        # 0-1 is seat 0's.
        ("place 0-1 left", "not-in-hand", "play.in-hand", "rules/turn.html#rule-play-in-hand"),
        # Under pagat-4x7 a stuck seat discards; it may not pass.
        ("pass", "pass-not-allowed", "block.discard", "rules/turn.html#rule-block-discard"),
        # Seat 1 is to act, not seat 2.
        ("seat 2: place 2-3 left", "wrong-seat", "turn.order", "rules/turn.html#rule-turn-order"),
    ],
)
def test_a_refused_move_names_its_code_its_rule_and_the_rules_page(
    move: str, code: str, rule: str, page: str
) -> None:
    after = _after_lead()
    answer = _call(explorer.attempt(json.dumps(after["state"]), move))
    assert answer["ok"]
    refusal = answer["refusal"]
    assert (refusal["code"], refusal["rule"], refusal["url"]) == (code, rule, page)
    assert refusal["statement"]
    assert answer["view"]["state"] == after["state"]  # nothing played


def test_a_seed_deals_the_same_hand_every_time_and_another_seed_another() -> None:
    first = _call(explorer.deal('{"preset": "domino4d", "seed": 5}'))["view"]["state"]["deal"]
    again = _call(explorer.deal('{"preset": "domino4d", "seed": 5}'))["view"]["state"]["deal"]
    other = _call(explorer.deal('{"preset": "domino4d", "seed": 6}'))["view"]["state"]["deal"]
    assert first == again
    assert first != other


def test_options_change_the_preset_and_impossible_ones_are_refused_with_the_reason() -> None:
    passing = _typed(options={"blocked_action": "pass"})
    after = _call(explorer.attempt(json.dumps(passing["state"]), "lead 0-0"))["view"]
    assert [m["text"] for m in after["moves"]] == ["pass"]  # stuck under the pass option
    refused = _call(explorer.deal('{"preset": "pagat-4x7", "options": {"players": 9}}'))
    # 9 seats x 7 tiles = 63, more than the 28 tiles of the set.
    assert refused == {"ok": False, "error": refused["error"]}
    assert refused["error"].startswith("$.options: 9 seats x 7 tiles = 63 tiles")


@pytest.mark.parametrize(
    ("request_text", "start"),
    [
        ("{", "the request is not JSON"),
        ('{"preset": "nine-by-nine"}', "$.preset: unknown variant 'nine-by-nine'"),
        ('{"seed": -1}', "$.seed: expected a whole number from 0"),
        ('{"typed": "0-0 1-x"}', "$.typed line 1: cannot read '1-x' as a tile"),
        ('{"typed": "0-0\\nfirst seat: two"}', "$.typed line 2: expected a seat number"),
        ('{"typed": "0-0 0-1"}', "$.typed: "),
    ],
)
def test_a_request_that_cannot_be_read_gets_a_located_one_line_error(
    request_text: str, start: str
) -> None:
    answer = _call(explorer.deal(request_text))
    assert answer["ok"] is False
    assert answer["error"].startswith(start)
    assert "\n" not in answer["error"]


def test_a_transcript_with_an_illegal_action_is_refused_at_that_action() -> None:
    state = _after_lead()["state"]
    state["actions"].append({"seat": 1, "move": "place 1-2 left"})
    del state["to_act"]
    answer = _call(explorer.show(json.dumps(state)))
    assert answer["ok"] is False
    assert answer["error"].startswith("$.actions[1]: no-match")


def test_a_finished_position_is_reckoned_fact_by_fact_with_each_rules_address() -> None:
    # The docs' second tie-break example (docs/examples/counting.rst): four seats count 6
    # each; seat 0's lowest tile, 1-1, has 2 pips against 6 for the others' lowest, so it ranks
    # first on the lowest tile's pips.
    document = {
        "rules": {"players": 4, "hand_size": 6},
        "position": {
            "hands": [["1-1", "1-3"], ["0-6"], ["2-4"], ["3-3"]],
            "set_aside": ["0-1", "2-3", "4-6"],
            "ends": [5, 5],
            "ending": "blocked",
        },
    }
    answer = _call(explorer.show(json.dumps(document)))
    assert answer["ok"], answer
    result = answer["view"]["result"]
    assert result["counts"] == [6, 6, 6, 6]
    assert result["winner"] == 0
    assert result["decided_by"] == "the lowest tile's pips"
    # 0-6 has 6 pips and low half 0, 2-4 low half 2, 3-3 low half 3.
    assert [k["key"] for k in result["keys"]] == [
        [6, 1, 2, 1],
        [6, 1, 6, 0],
        [6, 1, 6, 2],
        [6, 1, 6, 3],
    ]
    rank_note = next(n for n in result["notes"] if n["rule"] == "score.rank")
    assert rank_note["url"] == "rules/counting-and-winner.html#rule-score-rank"


def test_the_catalogue_gives_each_presets_values_with_their_sources() -> None:
    catalogue = _call(explorer.catalogue())
    pagat = next(p for p in catalogue["presets"] if p["name"] == "pagat-4x7")
    # presets.py: pagat-4x7's stuck seat discards, after PAGAT and PAGAT-ID, pass being PAGAT's
    # variation; max_pip is not set by the preset, so it cites nothing.
    assert pagat["options"]["blocked_action"] == {
        "value": "discard",
        "sources": ["PAGAT", "PAGAT-ID"],
        "note": "pass is PAGAT's variation",
    }
    assert pagat["options"]["max_pip"]["sources"] == []
    blocked = next(o for o in catalogue["options"] if o["name"] == "blocked_action")
    assert blocked["kind"] == "choice"
    assert sorted(blocked["choices"]) == ["discard", "pass"]
    assert catalogue["rules"]["play.match-end"]["url"] == "rules/turn.html#rule-play-match-end"


def test_every_try_it_link_of_the_docs_opens_in_the_explorer() -> None:
    # docs/_ext/gaple_docs.py puts one link in the box of every worked example.
    site = Path(__file__).resolve().parents[1] / "docs" / "_build" / "html"
    if not (site / "examples" / "index.html").is_file():
        pytest.skip(f"no built docs in {site}: run make docs")
    examples = "\n".join(
        path.read_text(encoding="utf-8") for path in sorted(site.rglob("*.html"))
    ).count('class="gaple-example docutils container"')
    links = [
        (path, href)
        for path in sorted(site.rglob("*.html"))
        for href in re.findall(r'class="gaple-try"><a href="([^"]+)"', path.read_text("utf-8"))
    ]
    assert len(links) == examples > 0
    for path, href in links:
        page, fragment = href.split("#", 1)
        assert (path.parent / page).resolve() == site / "explorer" / "index.html"
        answer = _call(explorer.show(urllib.parse.unquote(fragment)))
        assert answer["ok"], (path.name, answer)
