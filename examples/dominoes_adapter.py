"""Protocol v1 adapter for the third-party ``dominoes`` package (PyPI, studied at 6.1.0).

Run it with ``python examples/dominoes_adapter.py`` (``pip install 'dominoes>=6'`` first). It lets
the conformance runner check a real, independently written dominoes library against the Gaple
specification. It translates requests into that library's own API and reports what the library
does; it never corrects the library's rules, so every difference the runner finds is real.

What ``dominoes`` 6.1.0 implements (read from its source; file names are inside the package):

* Table: exactly four players, 0 to 3, playing in that order; players 0 and 2 are partners
  against 1 and 3 (``game.py``: ``_validate_player``, ``next_player``, the ``Game`` docstring).
  Only the double-six set; all 28 tiles are dealt, 7 each, from ``random.shuffle``
  (``game.py``: ``_randomized_hands``). There are no undealt tiles and no turned-up starter.
* Deals as data: ``Game.new`` only deals at random, but the ``Game`` constructor takes the board,
  hands, moves, turn, valid moves, starting player and result directly (``game.py``:
  ``Game.__init__``); this adapter builds games that way from the protocol's explicit deal.
* Opening (``game.py``: ``Game.new``): either a named ``starting_domino`` whose holder must play
  it (``new`` plays it at once; ``valid_moves`` is that one move), or a ``starting_player`` who may
  lead any tile. A ``Series`` (``series.py``) opens its first game with 6-6 by default and later
  games from a starting player, with any tile: the player who went out, or who blocked and won;
  the next player if the blocker's team lost; the same starter on a tie. There is no rule
  that a later lead must be a double, and no lead ban.
* The line (``board.py``: ``Board``): a deque of tiles, played on the left (``True``) or right
  (``False``); ``add`` checks that the touching halves match and turns the tile round. The first
  tile goes down as given, so the adapter passes tiles low half first. Doubles sit in line.
* Legal moves (``game.py``: ``Game._update_valid_moves``): every tile matching the left end on
  the left, and the right end on the right, *except* that when both ends show the same number a
  tile is listed on the left only. ``Game.make_move`` does not consult ``valid_moves``: it only
  checks that the game is not over, that the tile is in the hand of the player to move
  (``hand.py``: ``Hand.play``) and that it matches the named end (``Board.add``). So a
  placement on the right end is accepted when both ends are equal although it is not listed.
* Forced play and passing: after a move the turn goes to the next player who has a valid move;
  a player without one is skipped and a ``None`` pass is recorded in ``moves`` (``make_move``).
  There is no discard and no voluntary pass.
* End (``make_move``): at once when the mover's hand is empty (``Result.won`` true), or when no
  player can move after a placement (stuck, ``won`` false; ``Result.player`` is the last player
  to place).
* Score (``game.py``: ``_remaining_points``, ``make_move``; ``result.py``): a player's count is
  the pips of the tiles in hand (0-0 counts 0). Out: the team of the player who went out scores
  the pips left in the other *three* hands, the partner's included. Stuck: the two team totals
  are compared; the lower team scores both totals added together; equal totals score nothing
  (no replay: a ``Series`` simply goes on). ``Result.points`` is that score, positive for team
  0+2 and negative for 1+3. There is no individual winner of a stuck game, no blocker
  challenge, no dead or closing doubles, no 0-0 = 25 option.

How the protocol maps onto it:

* ``start`` is ``unsupported`` (with the reason) for what the library cannot express: another
  set size, other than four seats, hands other than 7 (undealt tiles, a starter), the discard
  option, individual play, lead bans. Every other option is accepted and the library plays by
  its own rules, so scoring options it lacks show up as differences rather than refusals.
* Leads: the 0-0 lead rule becomes ``starting_domino`` 0-0; the any-tile rule becomes
  ``starting_player``; the double rule also becomes ``starting_player`` with any tile, which is
  what the library does for a later game (it has no "lead a double" rule).
* Passes: the library skips a stuck seat itself and records the pass; the adapter replays each
  recorded pass as that seat's turn, whose only legal move is ``pass``, so the turn order can be
  compared. A ``pass`` from a seat the library would not skip is rejected with ``must-place``.
* Result: ``counts`` from ``_remaining_points``; ``winner`` is the seat that went out, or null
  after a stuck game; ``winning_team`` from the sign of ``Result.points`` (null on a tie);
  ``points`` per team; ``replay`` always false.
* Rejections: ``GameOverException`` is ``hand-over``, ``NoSuchDominoException`` is
  ``not-in-hand``, ``EndsMismatchException`` is ``no-match``. ``make_move`` takes no seat, so
  the adapter rejects a seat other than the one to act with ``wrong-seat``; the protocol's
  lead/place grammar gives ``line-started`` and ``lead-required``; a lead the library's
  ``valid_moves`` does not offer (another tile than the starting domino) is ``illegal-lead``.
"""

from __future__ import annotations

import copy
import json
import sys
from importlib.metadata import version
from typing import Any

try:
    import dominoes
except ImportError:
    sys.exit("dominoes_adapter: the 'dominoes' package is missing; pip install 'dominoes>=6'")

Reply = dict[str, Any]
Tile = tuple[int, int]
END = {True: "left", False: "right"}
"""The library's ``left`` flag as the protocol's end name."""


class BadRequest(Exception):
    """A request that cannot be read."""


def read_tile(value: Any, where: str) -> Tile:
    """``"0-3"`` -> ``(0, 3)``."""
    parts = value.split("-") if isinstance(value, str) else []
    if len(parts) != 2 or not all(p.isdigit() for p in parts):
        raise BadRequest(f"{where}: expected a tile such as '0-3', got {value!r}")
    a, b = int(parts[0]), int(parts[1])
    return (min(a, b), max(a, b))


def text(domino: Any) -> str:
    """A library domino as the protocol's canonical tile text."""
    low, high = sorted((int(domino.first), int(domino.second)))
    return f"{low}-{high}"


def unsupported_reason(rules: dict[str, Any]) -> str | None:
    """Why the library cannot play these rules, or ``None`` when it can."""
    if rules.get("max_pip", 6) != 6:
        return "dominoes plays only the double-six set (game.py: _randomized_hands)"
    if rules.get("players", 4) != 4:
        return "dominoes seats exactly four players (game.py: _validate_player, next_player)"
    if rules.get("hand_size", 7) != 7:
        return "dominoes deals all 28 tiles, 7 each: no undealt tiles, no turned-up starter"
    if rules.get("blocked_action", "discard") != "pass":
        return "dominoes has no discard: a seat that cannot play is skipped (Game.make_move)"
    if not rules.get("partnership", False):
        return "dominoes plays only partnerships 0+2 vs 1+3; its Result is a team result"
    if rules.get("forbidden_leads"):
        return "dominoes has no lead bans (Game.new: a starting domino or any tile)"
    return None


class Session:
    """One hand of the library at a time, plus the passes it recorded but not yet replayed."""

    def __init__(self) -> None:
        self.game: Any = None
        self.pending: list[int] = []  # seats whose recorded pass the runner has not sent yet

    def handle(self, request: Any) -> Reply:
        if not isinstance(request, dict):
            raise BadRequest("a request must be a JSON object")
        kind = request.get("type")
        if kind == "hello":
            if request.get("protocol") != 1:
                raise BadRequest("only protocol 1 is spoken")
            return {
                "type": "hello",
                "protocol": 1,
                "name": "dominoes (PyPI)",
                "version": version("dominoes"),
                "levels": ["line", "turns", "count", "points"],
                "error_codes": True,
            }
        if kind == "start":
            return self.start(request)
        if kind == "bye":
            return {"type": "bye"}
        if self.game is None:
            raise BadRequest("no hand has been started")
        if kind == "state":
            return self.state()
        if kind == "act":
            return self.act(request)
        if kind == "result":
            return self.result()
        raise BadRequest(f"unknown request type {kind!r}")

    def start(self, request: dict[str, Any]) -> Reply:
        self.game, self.pending = None, []
        rules, deal = request.get("rules"), request.get("deal")
        if not isinstance(rules, dict) or not isinstance(deal, dict):
            raise BadRequest("start needs 'rules' and 'deal' objects")
        reason = unsupported_reason(rules)
        if reason:
            return {"type": "unsupported", "reason": reason}
        hands = deal.get("hands")
        if not isinstance(hands, list) or len(hands) != 4:
            raise BadRequest("deal.hands: expected four hands")
        tiles = [
            [read_tile(t, f"deal.hands[{s}]") for t in (h if isinstance(h, list) else [h])]
            for s, h in enumerate(hands)
        ]
        every = sorted(t for hand in tiles for t in hand)
        if every != [(a, b) for a in range(7) for b in range(a, 7)]:
            raise BadRequest("deal.hands: the 28 tiles must be dealt, each exactly once")
        first_seat = deal.get("first_seat", 0)
        if first_seat not in range(4):
            raise BadRequest(f"deal.first_seat: not a seat: {first_seat!r}")
        first_hand = request.get("first_hand", True)
        lead = rules.get("first_lead" if first_hand else "later_lead", "double-blank")
        library_hands = [dominoes.Hand([dominoes.Domino(a, b) for a, b in hand]) for hand in tiles]
        if lead == "double-blank":
            # Game.new(starting_domino=0-0): the holder must play it.
            start = dominoes.Domino(0, 0)
            opener = next(s for s, hand in enumerate(tiles) if (0, 0) in hand)
            valid: tuple[tuple[Any, bool], ...] = ((start, True),)
        else:
            # Game.new(starting_player=...): any tile; the library has no "lead a double".
            opener = first_seat
            valid = tuple((d, True) for d in library_hands[opener])
        self.game = dominoes.Game(dominoes.Board(), library_hands, [], opener, valid, opener, None)
        return {"type": "started"}

    def to_act(self) -> int | None:
        if self.game.result is not None:
            return None
        return self.pending[0] if self.pending else int(self.game.turn)

    def state(self) -> Reply:
        game = self.game
        board = list(game.board.board)
        if game.result is not None:
            legal: list[str] = []
        elif self.pending:
            legal = ["pass"]
        elif not board:
            legal = [f"lead {text(d)}" for d, _ in game.valid_moves]
        else:
            legal = [
                f"place {text(d)} {'left' if left else 'right'}" for d, left in game.valid_moves
            ]
        ending = None
        if game.result is not None:
            ending = "out" if game.result.won else "blocked"
        return {
            "type": "state",
            "to_act": self.to_act(),
            "line": [[int(d.first), int(d.second)] for d in board],
            "ends": [int(board[0].first), int(board[-1].second)] if board else None,
            "hand_sizes": [len(hand) for hand in game.hands],
            "discard_counts": [0, 0, 0, 0],
            "legal": legal,
            "ending": ending,
        }

    def act(self, request: dict[str, Any]) -> Reply:
        seat, move = request.get("seat"), request.get("move")
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise BadRequest(f"seat: expected an integer, got {seat!r}")
        words = move.split() if isinstance(move, str) else []
        if not (
            words == ["pass"]
            or (len(words) == 2 and words[0] in ("lead", "discard"))
            or (len(words) == 3 and words[0] == "place" and words[2] in ("left", "right"))
        ):
            raise BadRequest(f"move: cannot read {move!r}")
        tile = read_tile(words[1], "move") if len(words) > 1 else None
        game = self.game
        if game.result is not None:
            return rejected("hand-over", "GameOverException: the game is over")
        if seat != self.to_act():
            return rejected("wrong-seat", f"seat {self.to_act()} is to act")
        empty = not game.board
        if words[0] == "lead":
            if not empty:
                return rejected("line-started", "the board is not empty")
            assert tile is not None
            return self.lead(dominoes.Domino(*tile))
        if empty:
            return rejected("lead-required", "the board is empty: lead a tile")
        if words[0] == "discard":
            return rejected("discard-not-allowed", "dominoes has no discard")
        if words[0] == "pass":
            if self.pending:
                self.pending.pop(0)
                return {"type": "ok"}
            return rejected("must-place", "dominoes skips only a player without a valid move")
        assert tile is not None
        return self.place(seat, dominoes.Domino(*tile), words[2] == "left")

    def lead(self, domino: Any) -> Reply:
        if domino not in self.game.hands[self.game.turn]:
            return rejected("not-in-hand", f"{domino} is not in hand")
        if (domino, True) not in self.game.valid_moves:
            return rejected("illegal-lead", f"the game must start with {self.game.valid_moves}")
        return self.make_move(self.game, domino, True)

    def place(self, seat: int, domino: Any, left: bool) -> Reply:
        if self.pending:
            # The library already skipped this seat; ask a copy why it could not play.
            trial = copy.deepcopy(self.game)
            trial.turn = seat
            reply = self.make_move(trial, domino, left, record=False)
            if reply["type"] == "ok":
                return rejected(None, "dominoes already skipped this seat")
            return reply
        return self.make_move(self.game, domino, left)

    def make_move(self, game: Any, domino: Any, left: bool, *, record: bool = True) -> Reply:
        before = len(game.moves)
        mover = int(game.turn)
        try:
            game.make_move(domino, left)
        except dominoes.GameOverException as error:
            return rejected("hand-over", f"GameOverException: {error}")
        except dominoes.NoSuchDominoException as error:
            return rejected("not-in-hand", f"NoSuchDominoException: {error}")
        except dominoes.EndsMismatchException as error:
            return rejected("no-match", f"EndsMismatchException: {error}")
        if record:
            passes = sum(1 for m in game.moves[before:] if m is None)
            self.pending = [(mover + 1 + k) % 4 for k in range(passes)]
        return {"type": "ok"}

    def result(self) -> Reply:
        outcome = self.game.result
        if outcome is None:
            raise BadRequest("the hand has not ended")
        counts = [int(c) for c in dominoes.game._remaining_points(self.game.hands)]
        points = int(outcome.points)
        team = None if points == 0 else (0 if points > 0 else 1)
        return {
            "type": "result",
            "counts": counts,
            "winner": int(outcome.player) if outcome.won else None,
            "winning_team": team,
            "points": [max(points, 0), max(-points, 0)],
            "replay": False,
        }


def rejected(code: str | None, message: str) -> Reply:
    return {"type": "rejected", "code": code, "message": message}


def main() -> None:
    session = Session()
    for number, line in enumerate(sys.stdin, start=1):
        if not line.strip():
            continue
        try:
            reply = session.handle(json.loads(line))
        except json.JSONDecodeError as error:
            reply = {"type": "error", "message": f"request {number}: not JSON: {error}"}
        except BadRequest as error:
            reply = {"type": "error", "message": f"request {number}: {error}"}
        except Exception as error:  # the protocol wants a reply, never a crash
            reply = {"type": "error", "message": f"request {number}: internal error: {error!r}"}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()
        if reply["type"] == "bye":
            return


if __name__ == "__main__":
    main()
