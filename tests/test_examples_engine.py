"""The example engines under ``examples/``: the independent engine, its seeded bugs, and the
adapter for the third-party ``dominoes`` package.

Expected values come from the sources' worked examples (PAGAT-ID tie-breaks, the CHIPS
settlement, research 6.4 for SUWIKI partnership scoring) or from hand reasoning written next
to them. The engine is imported directly only for its scoring; everything else goes through
the adapters as subprocesses speaking protocol v1, as the conformance runner does.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

# gaple is used only to compare the engine with the specification (the last test).
from gaple.deal import shuffle_deal
from gaple.io import rules_to_json
from gaple.presets import ruleset
from gaple.state import apply as apply_move
from gaple.state import legal_moves, new_hand

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ROOT / "examples" / "engine"
sys.path.insert(0, str(ENGINE))

import adapter  # noqa: E402
from adapter import read_move, reply_line  # noqa: E402
from gaple_engine import BLOCKED, OUT, Game, Move, Rules, Tile  # noqa: E402

# -- helpers ---------------------------------------------------------------------------------


class Adapter:
    """An adapter subprocess: one JSON request in, one JSON reply out."""

    def __init__(self, *command: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, *command],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )

    def ask(self, request: dict[str, Any] | str) -> dict[str, Any]:
        assert self.process.stdin is not None
        assert self.process.stdout is not None
        line = request if isinstance(request, str) else json.dumps(request)
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
        reply: dict[str, Any] = json.loads(self.process.stdout.readline())
        return reply

    def act(self, seat: int, move: str) -> dict[str, Any]:
        return self.ask({"type": "act", "seat": seat, "move": move})

    def code(self, seat: int, move: str) -> str | None:
        reply = self.act(seat, move)
        assert reply["type"] == "rejected", reply
        code: str | None = reply["code"]
        return code

    def state(self) -> dict[str, Any]:
        return self.ask({"type": "state"})

    def close(self) -> int:
        assert self.ask({"type": "bye"}) == {"type": "bye"}
        return self.process.wait(timeout=10)


@pytest.fixture
def engine() -> Iterator[Adapter]:
    adapter = Adapter("examples/engine/adapter.py")
    yield adapter
    adapter.process.kill()
    adapter.process.wait()


RULES: dict[str, Any] = {
    "max_pip": 6,
    "players": 4,
    "hand_size": 7,
    "partnership": False,
    "first_lead": "double-blank",
    "later_lead": "double",
    "forbidden_leads": [],
    "blocked_action": "pass",
    "double_blank_25": False,
    "settlement": "per-hand",
    "target": None,
    "match_hands": None,
    "challenge_tie": "replay",
    "challenge_win_base": "all",
    "challenge_win_multiplier": 1,
    "challenge_loss_base": "all",
    "challenge_loss_multiplier": 2,
    "top_double_bonus": 0,
    "blank_double_bonus": 0,
    "dead_double_debit": False,
    "closing_any_double": False,
}

# Four seats, each holding one "suit": seat 0 every blank, seat 1 the ones (and 2-2), ...
SUITS_DEAL: dict[str, Any] = {
    "hands": [
        ["0-0", "0-1", "0-2", "0-3", "0-4", "0-5", "0-6"],
        ["1-1", "1-2", "1-3", "1-4", "1-5", "1-6", "2-2"],
        ["2-3", "2-4", "2-5", "2-6", "3-3", "3-4", "3-5"],
        ["3-6", "4-4", "4-5", "4-6", "5-5", "5-6", "6-6"],
    ],
    "starter": None,
    "set_aside": [],
    "first_seat": 2,
}

# Double-two set, two seats: seat 0 holds the three blanks, seat 1 the rest.
SMALL = {**RULES, "max_pip": 2, "players": 2, "hand_size": 3, "settlement": "chips"}
BLANKS_DEAL: dict[str, Any] = {
    "hands": [["0-0", "0-1", "0-2"], ["1-1", "1-2", "2-2"]],
    "starter": None,
    "set_aside": [],
    "first_seat": 1,
}


def start(adapter: Adapter, rules: dict[str, Any], deal: dict[str, Any]) -> dict[str, Any]:
    return adapter.ask(
        {"type": "start", "case": "t", "rules": rules, "deal": deal, "first_hand": True}
    )


# -- the engine's adapter --------------------------------------------------------------------


def test_engine_adapter_hello_and_malformed_requests(engine: Adapter) -> None:
    hello = engine.ask({"type": "hello", "protocol": 1})
    assert hello["levels"] == ["line", "turns", "count", "points"]
    assert hello["error_codes"] is True
    for bad in ("not json", '{"type": "state"}', '{"type": "warp"}', "[1, 2]"):
        assert engine.ask(bad)["type"] == "error"
    bad_deal = {**SUITS_DEAL, "hands": SUITS_DEAL["hands"][:3]}
    assert start(engine, RULES, bad_deal)["type"] == "error"
    assert start(engine, {**RULES, "spinner": True}, SUITS_DEAL)["type"] == "unsupported"
    assert engine.close() == 0


def test_engine_adapter_opening_and_forced_play(engine: Adapter) -> None:
    assert start(engine, RULES, SUITS_DEAL) == {"type": "started"}
    state = engine.state()
    # open.double-blank: seat 0 holds 0-0, so it opens with it whatever first_seat says.
    assert state["to_act"] == 0
    assert state["legal"] == ["lead 0-0"]
    assert state["hand_sizes"] == [7, 7, 7, 7]
    assert engine.code(1, "lead 1-1") == "wrong-seat"
    assert engine.code(0, "lead 0-1") == "illegal-lead"
    assert engine.code(0, "place 0-0 left") == "lead-required"
    assert engine.code(0, "lead 2-2") == "not-in-hand"
    assert engine.act(0, "lead 0-0") == {"type": "ok"}
    state = engine.state()
    assert (state["line"], state["ends"], state["to_act"]) == ([[0, 0]], [0, 0], 1)
    # Seats 1, 2 and 3 hold no blank: each can only pass (block.pass).
    assert state["legal"] == ["pass"]
    assert engine.code(1, "place 1-1 left") == "no-match"
    assert engine.code(1, "discard 1-1") == "discard-not-allowed"
    assert engine.code(0, "lead 0-1") == "wrong-seat"
    for seat in (1, 2, 3):
        assert engine.act(seat, "pass") == {"type": "ok"}
    state = engine.state()
    # Both ends show 0, so each blank may go on either end: two moves per tile.
    assert sorted(state["legal"]) == sorted(
        f"place 0-{k} {end}" for k in range(1, 7) for end in ("left", "right")
    )
    assert engine.code(0, "pass") == "must-place"
    assert engine.code(0, "lead 0-1") == "line-started"
    assert engine.act(0, "place 0-3 right") == {"type": "ok"}
    assert engine.state()["line"] == [[0, 0], [0, 3]]
    assert engine.close() == 0


def test_engine_adapter_discard_option(engine: Adapter) -> None:
    assert start(engine, {**RULES, "blocked_action": "discard"}, SUITS_DEAL)["type"] == "started"
    engine.act(0, "lead 0-0")
    assert sorted(engine.state()["legal"]) == sorted(f"discard {t}" for t in SUITS_DEAL["hands"][1])
    assert engine.code(1, "pass") == "pass-not-allowed"
    assert engine.code(1, "discard 0-1") == "not-in-hand"
    assert engine.act(1, "discard 6-1") == {"type": "ok"}
    assert engine.state()["discard_counts"] == [0, 1, 0, 0]


BLANKS_HAND = [
    (0, "lead 0-0"),
    (1, "pass"),  # seat 1 holds no blank
    (0, "place 0-1 right"),
    (1, "place 1-1 right"),
    (0, "place 0-2 left"),  # seat 0 goes out; seat 1 keeps 1-2 and 2-2
]


def test_engine_adapter_plays_a_hand_to_its_result(engine: Adapter) -> None:
    assert start(engine, SMALL, BLANKS_DEAL)["type"] == "started"
    for seat, move in BLANKS_HAND:
        assert engine.act(seat, move) == {"type": "ok"}, (seat, move)
    state = engine.state()
    assert state["ending"] == "out"
    assert state["to_act"] is None
    assert state["legal"] == []
    assert state["line"] == [[2, 0], [0, 0], [0, 1], [1, 1]]
    assert engine.code(1, "pass") == "hand-over"
    # Seat 1 counts 1-2 + 2-2 = 7, seat 0 nothing; chips: seat 0 collects 7 from seat 1.
    assert engine.ask({"type": "result"}) == {
        "type": "result",
        "counts": [0, 7],
        "winner": 0,
        "winning_team": None,
        "points": [7, -7],
        "replay": False,
    }
    assert engine.close() == 0


# -- the seeded bugs -------------------------------------------------------------------------


def bug(name: str) -> Adapter:
    adapter = Adapter("examples/bugs/adapter.py", "--bug", name)
    assert adapter.ask({"type": "hello", "protocol": 1})["name"].endswith(name)
    return adapter


# Double-three set, two seats, a starter: 0-0 is turned up and the other blanks set aside, so
# nobody can place and the hand is blocked at once. Both seats count 12; seat 1's lowest tile
# 1-1 (2 pips) beats seat 0's 1-2 (3 pips), so seat 1 wins (score.rank).
TIE_RULES = {**RULES, "max_pip": 3, "players": 2, "hand_size": 3}
TIE_DEAL: dict[str, Any] = {
    "hands": [["1-2", "2-3", "2-2"], ["1-1", "1-3", "3-3"]],
    "starter": "0-0",
    "set_aside": ["0-1", "0-2", "0-3"],
    "first_seat": 0,
}


def test_tie_deal_is_blocked_at_once_and_won_on_the_lowest_tile(engine: Adapter) -> None:
    assert start(engine, TIE_RULES, TIE_DEAL)["type"] == "started"
    state = engine.state()
    assert (state["ending"], state["to_act"], state["line"]) == ("blocked", None, [[0, 0]])
    result = engine.ask({"type": "result"})
    assert (result["counts"], result["winner"]) == ([12, 12], 1)


def test_bug_ties_by_seat() -> None:
    adapter = bug("ties-by-seat")
    start(adapter, TIE_RULES, TIE_DEAL)
    assert adapter.ask({"type": "result"})["winner"] == 0  # the correct winner is seat 1
    adapter.close()


def test_bug_opener_ignored() -> None:
    adapter = bug("opener-ignored")
    start(adapter, SMALL, BLANKS_DEAL)
    state = adapter.state()
    # Correct: seat 0 (holder of 0-0) with ["lead 0-0"]; the bug lets first_seat 1 lead anything.
    assert state["to_act"] == 1
    assert sorted(state["legal"]) == ["lead 1-1", "lead 1-2", "lead 2-2"]
    adapter.close()


def test_bug_pass_while_placement_exists() -> None:
    adapter = bug("pass-while-placement-exists")
    start(adapter, SMALL, BLANKS_DEAL)
    adapter.act(0, "lead 0-0")
    adapter.act(1, "pass")
    assert "pass" in adapter.state()["legal"]  # seat 0 holds 0-1 and 0-2, which fit
    assert adapter.act(0, "pass") == {"type": "ok"}  # correct: rejected, must-place
    adapter.close()


def test_bug_blocked_on_first_pass() -> None:
    adapter = bug("blocked-on-first-pass")
    start(adapter, SMALL, BLANKS_DEAL)
    adapter.act(0, "lead 0-0")
    adapter.act(1, "pass")
    assert adapter.state()["ending"] == "blocked"  # correct: null, seat 0 can still place
    adapter.close()


def test_bug_wrong_end() -> None:
    adapter = bug("wrong-end")
    start(adapter, SMALL, BLANKS_DEAL)
    adapter.act(0, "lead 0-0")
    adapter.act(1, "pass")
    assert adapter.act(0, "place 0-1 left") == {"type": "ok"}
    assert adapter.state()["line"] == [[0, 0], [0, 1]]  # correct: [[1, 0], [0, 0]]
    adapter.close()


def test_bug_discards_not_counted() -> None:
    adapter = bug("discards-not-counted")
    start(adapter, {**SMALL, "blocked_action": "discard"}, BLANKS_DEAL)
    for seat, move in [(0, "lead 0-0"), (1, "discard 2-2"), *BLANKS_HAND[2:]]:
        assert adapter.act(seat, move) == {"type": "ok"}, (seat, move)
    # Seat 1 keeps 1-2 (3) and discarded 2-2 (4): the correct count is 7.
    assert adapter.ask({"type": "result"})["counts"] == [0, 3]
    adapter.close()


def test_bug_play_after_end() -> None:
    adapter = bug("play-after-end")
    start(adapter, SMALL, BLANKS_DEAL)
    for seat, move in BLANKS_HAND:
        adapter.act(seat, move)
    assert adapter.state()["ending"] == "out"
    # Seat 1's 1-2 fits the left end (2): the bug accepts it; correct: rejected, hand-over.
    assert adapter.act(1, "place 1-2 left") == {"type": "ok"}
    adapter.close()


# -- the dominoes package --------------------------------------------------------------------

PARTNERSHIP = {
    **RULES,
    "partnership": True,
    "later_lead": "any-tile",
    "settlement": "partnership",
    "target": 500,
    "top_double_bonus": 100,
    "blank_double_bonus": 50,
}


def test_dominoes_adapter_on_a_scripted_hand() -> None:
    pytest.importorskip("dominoes")
    adapter = Adapter("examples/dominoes_adapter.py")
    assert adapter.ask({"type": "hello", "protocol": 1})["version"].startswith("6.")
    # It cannot express individual play, undealt tiles or discards.
    for rules in (
        RULES,
        {**PARTNERSHIP, "hand_size": 6},
        {**PARTNERSHIP, "blocked_action": "discard"},
    ):
        assert start(adapter, rules, SUITS_DEAL)["type"] == "unsupported"
    assert start(adapter, PARTNERSHIP, SUITS_DEAL) == {"type": "started"}
    state = adapter.state()
    # Game.new(starting_domino=0-0): its holder, seat 0, must play it.
    assert (state["to_act"], state["legal"]) == (0, ["lead 0-0"])
    assert adapter.code(1, "lead 1-1") == "wrong-seat"
    assert adapter.code(0, "lead 0-1") == "illegal-lead"
    assert adapter.act(0, "lead 0-0") == {"type": "ok"}
    # The library skips seats 1-3 (no blank) and records their passes; the adapter replays them.
    assert adapter.state()["legal"] == ["pass"]
    assert adapter.code(1, "place 1-1 left") == "no-match"  # EndsMismatchException
    assert adapter.code(1, "discard 1-1") == "discard-not-allowed"
    for seat in (1, 2, 3):
        assert adapter.act(seat, "pass") == {"type": "ok"}
    # Both ends show 0: Game._update_valid_moves lists each blank on the left only ...
    state = adapter.state()
    assert sorted(state["legal"]) == [f"place 0-{k} left" for k in range(1, 7)]
    assert adapter.code(0, "pass") == "must-place"
    # ... yet Game.make_move accepts the right end, since it never consults valid_moves.
    assert adapter.act(0, "place 0-3 right") == {"type": "ok"}
    assert adapter.state()["line"] == [[0, 0], [0, 3]]
    # Play on with the first listed move to the end.
    while (state := adapter.state())["to_act"] is not None:
        assert adapter.act(state["to_act"], state["legal"][0]) == {"type": "ok"}
    result = adapter.ask({"type": "result"})
    counts, points = result["counts"], result["points"]
    if state["ending"] == "out":
        # Its rule: the team going out scores the pips of the other three hands, partner too.
        team = result["winner"] % 2
        assert result["winning_team"] == team
        assert points[team] == sum(counts)
        assert points[1 - team] == 0
    else:
        # Its rule: the lower team total wins both totals; there is no individual winner.
        totals = [counts[0] + counts[2], counts[1] + counts[3]]
        assert result["winner"] is None
        if totals[0] == totals[1]:
            assert (result["winning_team"], points) == (None, [0, 0])
        else:
            lower = 0 if totals[0] < totals[1] else 1
            assert result["winning_team"] == lower
            assert (points[lower], points[1 - lower]) == (sum(totals), 0)
    assert result["replay"] is False
    assert adapter.close() == 0


# -- the engine's scoring, on the sources' worked examples -----------------------------------


def finished(
    rules: Rules,
    hands: list[list[Tile]],
    *,
    line: list[tuple[int, int]] | None = None,
    ending: str = BLOCKED,
    last: tuple[int, Tile] | None = None,
) -> Game:
    """A hand at its end: ``hands`` are what each seat still holds, ``last`` the seat that
    put down the last tile and that tile (it went out when ``ending`` is ``out``)."""
    game = Game(Rules(**{**vars(rules), "first_lead": "any-tile"}), hands)
    game.rules = rules
    game.line = line or [(0, 0)]
    game.ending = ending
    if last is not None:
        seat, t = last
        game.last_placer = seat
        game.last_move = Move("place", t, "right")
        if ending == OUT:
            game.out_seat = seat
    return game


# PAGAT-ID's three tie-break examples, players A B C D as seats 0 1 2 3.
@pytest.mark.parametrize(
    ("hands", "winner"),
    [
        # 1: A 2+4, B 6, C 6, D 5: D has the lowest count.
        ([[(1, 1), (1, 3)], [(1, 5)], [(2, 4)], [(2, 3)]], 3),
        # 2: all count 6; A's lowest tile 1-1 has the fewest pips.
        ([[(1, 1), (1, 3)], [(0, 6)], [(2, 4)], [(3, 3)]], 0),
        # 3: all count 10; A's 2-2 and B's 1-3 both have 4 pips; 1-3 has the lower end.
        ([[(2, 2), (1, 5)], [(1, 3), (3, 3)], [(4, 6)], [(0, 5), (2, 3)]], 1),
    ],
)
def test_pagat_id_tie_breaks(hands: list[list[Tile]], winner: int) -> None:
    assert finished(Rules(), hands).winner() == winner


# CHIPS: A 12, B 5, C 11, D 7 (as 6-6, 2-3, 5-6, 3-4). B collects 7 + 6 + 2 = 15.
CHIPS_HANDS: list[list[Tile]] = [[(6, 6)], [(2, 3)], [(5, 6)], [(3, 4)]]


@pytest.mark.parametrize(
    ("settlement", "points"),
    [
        ("chips", [-7, 15, -6, -2]),
        ("difference", [0, 15, 0, 0]),
        ("cumulative", [12, 5, 11, 7]),
        ("per-hand", [0, 0, 0, 0]),
    ],
)
def test_chips_example_settlements(settlement: str, points: list[int]) -> None:
    result = finished(Rules(settlement=settlement), CHIPS_HANDS).result()
    assert (result.counts, result.winner, result.points) == ([12, 5, 11, 7], 1, points)


@pytest.mark.parametrize(
    ("hand", "discards", "count"),
    [
        ([(0, 0), (0, 5)], [], 5),  # PAGAT-ID: another blank held, so 0-0 counts 0
        ([(0, 0)], [], 25),  # constructed: no other blank
        ([(0, 0), (1, 2)], [], 28),
        ([(0, 0)], [(0, 5)], 5),  # reading: a discarded blank counts as held
    ],
)
def test_double_blank_25(hand: list[Tile], discards: list[Tile], count: int) -> None:
    game = finished(Rules(double_blank_25=True), [hand, [(6, 6)], [(5, 5)], [(4, 4)]])
    game.discards[0] = discards
    assert game.count(0) == count


def test_discards_count_and_an_empty_hand_ranks_first() -> None:
    # Seat 0 went out; seat 1 holds 0-0 (0 pips) but discarded 4-4, 0-3: 11 (PAGAT-ID 4-4 = 8).
    game = finished(Rules(), [[], [(0, 0)], [(1, 1)], [(2, 2)]], ending=OUT, last=(0, (1, 2)))
    game.discards[1] = [(4, 4), (0, 3)]
    assert game.count(1) == 11
    game.discards[1] = []
    assert game.count(1) == 0
    assert game.winner() == 0  # equal counts of 0: the seat with no tiles ranks first


# Research 6.4 (constructed SUWIKI examples), seats N E S W = 0 1 2 3, teams NS = 0, EW = 1.
SUWIKI = Rules(
    partnership=True,
    settlement="partnership",
    blocked_action="pass",
    top_double_bonus=100,
    blank_double_bonus=50,
)
# Every non-double six in the line, ends 3 and 1; 1-2 went down last, on the right.
ALL_SIXES = [(3, 6), (6, 0), (0, 4), (4, 6), (6, 5), (5, 1), (1, 6), (6, 2), (2, 1)]
# As ALL_SIXES but 5-6 and 2-6 not placed.
SOME_SIXES = [(3, 6), (6, 0), (0, 4), (4, 6), (6, 1), (1, 5), (5, 2), (2, 1)]
# Every non-double blank in the line, ends 2 and 5.
ALL_BLANKS = [(2, 0), (0, 1), (1, 6), (6, 0), (0, 3), (3, 6), (6, 4), (4, 0), (0, 5)]


def out(hands: list[list[Tile]], line: list[tuple[int, int]], last: Tile) -> Game:
    return finished(SUWIKI, hands, line=line, ending=OUT, last=(0, last))


def test_su_x1_out_scores_the_opponents_pips() -> None:
    game = out([[], [(4, 5), (2, 2)], [(3, 3)], [(1, 6)]], [(0, 2), (2, 3)], (2, 3))
    assert game.result().points == [20, 0]  # E 13 + W 7; partner S not counted


def test_su_x2_dead_double_six() -> None:
    hands = [[], [(6, 6), (0, 3)], [(2, 2)], [(4, 4)]]
    assert out(hands, ALL_SIXES, (1, 2)).result().points == [111, 0]  # E 100 + 3, W 8
    game = out(hands, ALL_SIXES, (1, 2))
    game.rules = Rules(**{**vars(SUWIKI), "dead_double_debit": True})
    assert game.result().points == [111, -100]


def test_su_x3_double_six_not_dead_while_a_six_is_held() -> None:
    hands = [[], [(6, 6), (0, 3)], [(2, 2), (2, 6)], [(4, 4), (5, 6)]]
    assert out(hands, SOME_SIXES, (1, 2)).result().points == [34, 0]  # 12 + 3 + 8 + 11


def test_su_x4_closing_with_double_six() -> None:
    hands = [[], [(1, 4)], [(3, 3)], [(2, 5), (0, 3)]]
    assert out(hands, [(0, 6), (6, 6)], (6, 6)).result().points == [115, 0]  # 5 + 10 + 100


def test_su_x5_closing_with_double_blank() -> None:
    hands = [[], [(1, 4)], [(3, 3)], [(2, 5), (0, 3)]]
    assert out(hands, [(0, 0), (0, 1)], (0, 0)).result().points == [65, 0]  # 5 + 10 + 50


def test_su_x6_dead_double_blank() -> None:
    hands = [[], [(5, 5)], [(1, 1)], [(0, 0), (3, 4)]]
    assert out(hands, ALL_BLANKS, (0, 5)).result().points == [67, 0]  # E 10, W 50 + 7


def blocked(hands: list[list[Tile]], rules: Rules = SUWIKI) -> Game:
    # E (seat 1) put down the last tile.
    return finished(rules, hands, line=ALL_SIXES, ending=BLOCKED, last=(1, (1, 2)))


# Remaining: S 14 (6-6, 0-2), W 6 (2-4), N 20 (5-5, 4-4, 1-1).
S, W, N = [(6, 6), (0, 2)], [(2, 4)], [(5, 5), (4, 4), (1, 1)]


def test_su_x7_blocker_wins_the_challenge() -> None:
    game = blocked([N, [(4, 5)], S, W])  # E 9 < S 14
    assert game.result().points == [0, 49]  # all four: 9 + 14 + 6 + 20


def test_su_x8_blocker_loses_the_challenge() -> None:
    game = blocked([N, [(4, 5), (3, 3)], S, W])  # E 15 > S 14
    assert game.result().points == [110, 0]  # twice 15 + 14 + 6 + 20


def test_su_x9_tied_challenge() -> None:
    hands = [N, [(4, 5), (2, 3)], S, W]  # E 14 = S 14
    result = blocked(hands).result()
    assert (result.replay, result.points) == (True, [0, 0])
    loses = Rules(**{**vars(SUWIKI), "challenge_tie": "blocker-loses"})
    result = blocked(hands, loses).result()
    assert (result.replay, result.points) == (False, [108, 0])  # twice 54


def test_su_x10_double_six_never_dead_in_a_blocked_hand() -> None:
    # Every other six is in the line and no end shows 6, but the hand is blocked.
    game = blocked([[(3, 3)], [(0, 1)], [(2, 2)], [(6, 6), (1, 1)]])
    result = game.result()
    assert result.counts[3] == 14
    assert result.points == [0, 25]  # E 1 < S 4: EW score 6 + 1 + 4 + 14


# -- the engine against the specification's state machine -----------------------------------


@pytest.mark.parametrize("preset", ["pagat-4x7", "pagat-4x6", "pagat-5x5", "suwiki-partnership"])
def test_engine_agrees_with_the_specification_on_random_hands(preset: str) -> None:
    """Line and turn rules only: the same deal and the same random legal moves give the same
    legal moves, line, turn and ending in the engine as in :mod:`gaple.state` (the oracle)."""
    for seed in range(15):
        for blocked_action in ("pass", "discard"):
            rules = ruleset(preset, blocked_action=blocked_action)
            deal = shuffle_deal(rules, seed)
            first_hand = seed % 2 == 0
            options = {**rules_to_json(rules), "forbidden_leads": frozenset()}
            game = Game(
                Rules(**options),
                [[(t.low, t.high) for t in hand] for hand in deal.hands],
                None if deal.starter is None else (deal.starter.low, deal.starter.high),
                deal.first_seat,
                first_hand,
            )
            state = new_hand(rules, deal, first_hand=first_hand)
            choice = random.Random(seed)
            while True:
                expected = sorted(str(move) for move in legal_moves(state))
                assert sorted(str(move) for move in game.legal_moves()) == expected
                assert (game.to_act(), game.line) == (state.to_act, list(state.line))
                assert game.ending == (None if state.ending is None else state.ending.value)
                if state.ending is not None:
                    break
                move = choice.choice(legal_moves(state))
                seat = state.to_act
                assert seat is not None
                game.play(seat, read_move(str(move)))
                state = apply_move(state, move)


# -- the seeded bugs on rare paths -------------------------------------------------------------

# Double-three set, four seats of two tiles in pairs; 1-3 is turned up and 2-3 set aside.
PAIRS_RULES = {
    **RULES,
    "max_pip": 3,
    "hand_size": 2,
    "partnership": True,
    "settlement": "partnership",
}
TIED_DEAL: dict[str, Any] = {
    "hands": [["0-1", "0-2"], ["0-0", "2-2"], ["0-3", "1-2"], ["1-1", "3-3"]],
    "starter": "1-3",
    "set_aside": ["2-3"],
    "first_seat": 0,
}
# Ends after each move: (0, 3), (0, 3), (3, 3), (3, 3). Every 3 is then in the line or set
# aside and no 0 is left in hand, so the hand is blocked by seat 3, challenged by seat 0.
TIED_HAND = [
    (0, "place 0-1 left"),
    (1, "place 0-0 left"),
    (2, "place 0-3 left"),
    (3, "place 3-3 right"),
]


def test_bug_tie_not_replayed() -> None:
    adapter = bug("tie-not-replayed")
    start(adapter, PAIRS_RULES, TIED_DEAL)
    for seat, move in TIED_HAND:
        assert adapter.act(seat, move) == {"type": "ok"}
    result = adapter.ask({"type": "result"})
    # Blocker seat 3 keeps 1-1 (2), seat 0 keeps 0-2 (2): a tie, so under replay nobody wins
    # and nobody scores. The bug hands it to seat 0's pair: all counts 2 + 4 + 3 + 2 = 11,
    # times the loss multiplier 2 = 22.
    assert result["counts"] == [2, 4, 3, 2]
    assert (result["winner"], result["points"], result["replay"]) == (0, [22, 0], False)
    adapter.close()


# Double-four set, four seats of three tiles in pairs, 6-6's role played by 4-4 (100) and 0-0
# worth 50; 3-4 is turned up, 1-1 and 1-3 set aside. Seat 1 holds 0-0 and 4-4.
DEAD_RULES = {
    **PAIRS_RULES,
    "max_pip": 4,
    "hand_size": 3,
    "top_double_bonus": 100,
    "blank_double_bonus": 50,
}
DEAD_DEAL: dict[str, Any] = {
    "hands": [
        ["1-4", "2-3", "2-4"],
        ["0-0", "0-1", "4-4"],
        ["0-2", "2-2", "3-3"],
        ["0-3", "0-4", "1-2"],
    ],
    "starter": "3-4",
    "set_aside": ["1-1", "1-3"],
    "first_seat": 0,
}
# Ends: (3, 1), (3, 0), (3, 0), (3, 3), (2, 3), seat 1 passes, (0, 3), (4, 3), (2, 3) and seat 0
# is out. 0-1, 0-2, 0-3, 0-4 and 1-4, 2-4, 3-4 are all in the line and no end shows 0 or 4.
DEAD_HAND = [
    (0, "place 1-4 right"),
    (1, "place 0-1 right"),
    (2, "place 3-3 left"),
    (3, "place 0-3 right"),
    (0, "place 2-3 left"),
    (1, "pass"),
    (2, "place 0-2 left"),
    (3, "place 0-4 left"),
    (0, "place 2-4 left"),
]


def test_bug_first_dead_double_only() -> None:
    adapter = bug("first-dead-double-only")
    start(adapter, DEAD_RULES, DEAD_DEAL)
    for seat, move in DEAD_HAND:
        assert adapter.act(seat, move) == {"type": "ok"}
    result = adapter.ask({"type": "result"})
    # Pair 0 scores seat 1's 8 and seat 3's 1-2 (3) = 11, with dead 4-4 at 100 instead of 8
    # (+92) and dead 0-0 at 50 instead of 0 (+50): 153. The bug values the 4-4 only: 103.
    assert result["counts"] == [0, 8, 4, 3]
    assert (result["winner"], result["points"]) == (0, [103, 0])
    adapter.close()


# Double-three set, two seats of one tile: 0-0 is turned up and every other blank set aside,
# so the hand is blocked at once with 2-2 against 1-3.
LOW_END_RULES = {**RULES, "max_pip": 3, "players": 2, "hand_size": 1}
LOW_END_DEAL: dict[str, Any] = {
    "hands": [["2-2"], ["1-3"]],
    "starter": "0-0",
    "set_aside": ["0-1", "0-2", "0-3", "1-1", "1-2", "2-3", "3-3"],
    "first_seat": 0,
}


def test_bug_rank_ignores_low_end() -> None:
    adapter = bug("rank-ignores-low-end")
    start(adapter, LOW_END_RULES, LOW_END_DEAL)
    result = adapter.ask({"type": "result"})
    # Both count 4 and both lowest tiles have 4 pips; 1-3's low half 1 beats 2-2's 2, so the
    # winner is seat 1. The bug stops at the pips and the lower seat, 0, wins.
    assert (result["counts"], result["winner"]) == ([4, 4], 0)
    adapter.close()


# -- the seeded bugs on rare combinations of two situations ------------------------------------

# DEAD_RULES again: seat 1 keeps 0-0 to the end and seat 0 goes out by laying 4-4 (the top
# double). Ends: (2, 3) from the starter, (1, 3), (1, 0), (1, 0) after seat 2's pass, (1, 2),
# (0, 2), (4, 2), (4, 4), seat 3 passes, and 4-4 goes out on the left. 0-0 could have been laid
# on seat 1's turns but seat 1 chose other tiles; at the end 0-1, 0-2, 0-3 and 0-4 are all in
# the line and no end shows 0, so seat 1's 0-0 is dead.
CLOSING_DEAL: dict[str, Any] = {
    "hands": [
        ["0-1", "1-2", "4-4"],
        ["0-0", "0-3", "0-4"],
        ["2-2", "2-4", "3-4"],
        ["0-2", "1-3", "3-3"],
    ],
    "starter": "2-3",
    "set_aside": ["1-1", "1-4"],
    "first_seat": 0,
}
CLOSING_HAND = [
    (0, "place 1-2 left"),
    (1, "place 0-3 right"),
    (2, "pass"),
    (3, "place 0-2 right"),
    (0, "place 0-1 left"),
    (1, "place 0-4 left"),
    (2, "place 2-4 right"),
    (3, "pass"),
    (0, "place 4-4 left"),
]


def test_bug_top_closing_skips_dead() -> None:
    adapter = bug("top-closing-skips-dead")
    start(adapter, DEAD_RULES, CLOSING_DEAL)
    for seat, move in CLOSING_HAND:
        assert adapter.act(seat, move) == {"type": "ok"}, (seat, move)
    result = adapter.ask({"type": "result"})
    # Pair 0 scores seat 1's 0-0 (0) and seat 3's 1-3 and 3-3 (10), plus 100 for closing with
    # 4-4: 110. The correct 160 also values the dead 0-0 at 50, which the bug never looks for.
    assert result["counts"] == [0, 0, 11, 10]
    assert (result["winner"], result["points"]) == (0, [110, 0])
    adapter.close()


# DEAD_RULES under the discard house rule: seat 3 discards 0-1 and 0-3, keeps 0-0, and seat 0
# goes out by discarding its last tile 3-3. Ends: (2, 2) from the starter, (0, 2), (4, 2),
# (2, 2), seat 3 discards, seat 0 discards 3-4, (3, 2), (1, 2), seat 3 discards, seat 0 is out.
DISCARDS_RULES = {**DEAD_RULES, "blocked_action": "discard"}
DISCARDS_DEAL: dict[str, Any] = {
    "hands": [
        ["0-2", "3-3", "3-4"],
        ["0-4", "1-2", "2-3"],
        ["1-3", "2-4", "4-4"],
        ["0-0", "0-1", "0-3"],
    ],
    "starter": "2-2",
    "set_aside": ["1-1", "1-4"],
    "first_seat": 0,
}
DISCARDS_HAND = [
    (0, "place 0-2 left"),
    (1, "place 0-4 left"),
    (2, "place 2-4 left"),
    (3, "discard 0-1"),
    (0, "discard 3-4"),
    (1, "place 2-3 left"),
    (2, "place 1-3 left"),
    (3, "discard 0-3"),
    (0, "discard 3-3"),
]


def test_bug_discards_kill_doubles() -> None:
    adapter = bug("discards-kill-doubles")
    start(adapter, DISCARDS_RULES, DISCARDS_DEAL)
    for seat, move in DISCARDS_HAND:
        assert adapter.act(seat, move) == {"type": "ok"}, (seat, move)
    result = adapter.ask({"type": "result"})
    # Pair 0 scores seat 1's 1-2 (3) and seat 3's 0-0 with its discards 0-1 and 0-3 (4): 7.
    # 0-1 and 0-3 are face down, not in the line, so seat 3's 0-0 stays alive (no bonus for
    # going out by a discard either). The bug takes them as played: 0-0 dies at 50, 57.
    assert result["counts"] == [13, 3, 8, 4]
    assert (result["winner"], result["points"]) == (0, [57, 0])
    adapter.close()


# PAIRS_RULES with 0-0 worth 25 alone: seat 2 blocks the hand by laying 1-3, since every 3 is
# then in the line or set aside. Ends: (2, 3), (1, 3), (1, 3), (3, 3).
LONE_BLANK_RULES = {**PAIRS_RULES, "double_blank_25": True}
LONE_BLANK_DEAL: dict[str, Any] = {
    "hands": [["0-1", "1-2"], ["2-2", "3-3"], ["0-2", "1-3"], ["0-0", "1-1"]],
    "starter": "2-3",
    "set_aside": ["0-3"],
    "first_seat": 0,
}
LONE_BLANK_HAND = [(0, "place 1-2 left"), (1, "place 3-3 right"), (2, "place 1-3 left")]


def test_bug_tie_on_pips() -> None:
    adapter = bug("tie-on-pips")
    start(adapter, LONE_BLANK_RULES, LONE_BLANK_DEAL)
    for seat, move in LONE_BLANK_HAND:
        assert adapter.act(seat, move) == {"type": "ok"}, (seat, move)
    result = adapter.ask({"type": "result"})
    # Blocker seat 2 keeps 0-2 (2); seat 3 keeps 0-0, its only blank, at 25, and 1-1: 27. The
    # blocker is strictly lower and its pair wins all counts 1 + 4 + 2 + 27 = 34. The bug sees
    # 2 pips against 2 and replays the hand.
    assert result["counts"] == [1, 4, 2, 27]
    assert (result["winner"], result["points"], result["replay"]) == (None, [0, 0], True)
    adapter.close()


@pytest.mark.parametrize(
    ("rules", "deal", "hand", "expected"),
    [
        (PAIRS_RULES, TIED_DEAL, TIED_HAND, (None, [0, 0])),  # the tie is replayed
        (DEAD_RULES, DEAD_DEAL, DEAD_HAND, (0, [153, 0])),  # both dead doubles valued
        (LOW_END_RULES, LOW_END_DEAL, [], (1, [0, 0])),  # per hand: nobody scores
        (DEAD_RULES, CLOSING_DEAL, CLOSING_HAND, (0, [160, 0])),  # 10 + dead 0-0 50 + 4-4 100
        (DISCARDS_RULES, DISCARDS_DEAL, DISCARDS_HAND, (0, [7, 0])),  # 0-0 kept alive
        (LONE_BLANK_RULES, LONE_BLANK_DEAL, LONE_BLANK_HAND, (2, [34, 0])),  # 2 < 27
    ],
)
def test_the_correct_engine_scores_the_rare_bug_hands(
    engine: Adapter,
    rules: dict[str, Any],
    deal: dict[str, Any],
    hand: list[tuple[int, str]],
    expected: tuple[int | None, list[int]],
) -> None:
    start(engine, rules, deal)
    for seat, move in hand:
        assert engine.act(seat, move) == {"type": "ok"}
    result = engine.ask({"type": "result"})
    assert (result["winner"], result["points"]) == expected


@pytest.mark.parametrize(
    "reply",
    [
        {"type": "state", "to_act": 1, "line": [[0, 3], [3, 5]], "ending": None},
        {"type": "error", "message": "request 2: expected a tile such as '0-3', got 'é'"},
        # orjson refuses these two; json writes them (the surrogate as \\ud800):
        {"type": "error", "message": "got '\ud800'"},
        {"type": "result", "points": [2**70, -(2**70)]},
    ],
)
@pytest.mark.parametrize("orjson", [True, False])
def test_a_reply_line_is_one_line_of_ascii_json_holding_the_reply(
    reply: dict[str, Any], orjson: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # With orjson or json alike: ASCII, so any stdout encoding writes it; one line; the reply.
    if not orjson:
        monkeypatch.setattr(adapter, "fast_dumps", None)
    line = reply_line(reply)
    assert line.isascii()
    assert line.endswith("\n")
    assert "\n" not in line[:-1]
    assert json.loads(line) == reply
