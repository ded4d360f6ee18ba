"""Protocol v1 adapter for the example engine: ``python examples/engine/adapter.py``.

Reads one JSON request per line on stdin and writes one JSON reply per line on stdout (see
``docs`` for the protocol). Every request gets exactly one reply; a request it cannot read gets
``{"type": "error", ...}``, and the adapter never stops on bad input, only on ``bye`` or the
end of stdin.
"""

from __future__ import annotations

import dataclasses
import json
import sys
from collections.abc import Callable
from typing import Any, TextIO

try:
    from orjson import dumps as fast_dumps
except ImportError:  # json alone will do: orjson only writes replies faster
    fast_dumps = None  # type: ignore[assignment]

from gaple_engine import (
    BLOCKED_ACTIONS,
    CHALLENGE_TIES,
    LEAD_RULES,
    LEFT,
    PASS,
    RIGHT,
    SETTLEMENTS,
    STAKE_BASES,
    Game,
    Move,
    RuleError,
    Rules,
    Tile,
    tile,
)

NAME = "example-engine"
VERSION = "1.0"
LEVELS = ["line", "turns", "count", "points"]
BATCHED = ("start", "state", "act", "result")
"""The requests a batch may carry."""

Reply = dict[str, Any]

CHOICES = {
    "first_lead": LEAD_RULES,
    "later_lead": LEAD_RULES,
    "blocked_action": BLOCKED_ACTIONS,
    "settlement": SETTLEMENTS,
    "challenge_tie": CHALLENGE_TIES,
    "challenge_win_base": STAKE_BASES,
    "challenge_loss_base": STAKE_BASES,
}


class BadRequest(Exception):
    """A request that cannot be read; the message says where."""


class Unsupported(Exception):
    """A case this engine cannot play; the message says why."""


def read_tile(value: Any, where: str) -> Tile:
    """``"0-3"`` -> ``(0, 3)``; either order of the halves is accepted."""
    parts = value.split("-") if isinstance(value, str) else []
    if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
        raise BadRequest(f"{where}: expected a tile such as '0-3', got {value!r}")
    return tile(int(parts[0]), int(parts[1]))


def read_tiles(value: Any, where: str) -> list[Tile]:
    """A list of tile strings."""
    if not isinstance(value, list):
        raise BadRequest(f"{where}: expected a list of tiles, got {value!r}")
    return [read_tile(item, f"{where}[{i}]") for i, item in enumerate(value)]


def read_move(text: Any) -> Move:
    """``lead T`` | ``place T left|right`` | ``pass`` | ``discard T``."""
    words = text.split() if isinstance(text, str) else []
    if words == ["pass"]:
        return PASS
    if len(words) == 2 and words[0] in ("lead", "discard"):
        return Move(words[0], read_tile(words[1], "move"))
    if len(words) == 3 and words[0] == "place" and words[2] in (LEFT, RIGHT):
        return Move("place", read_tile(words[1], "move"), words[2])
    raise BadRequest(
        f"move: expected 'lead T', 'place T left|right', 'pass' or 'discard T', got {text!r}"
    )


def read_rules(data: Any) -> Rules:
    """The ruleset; a missing option keeps its default, an unknown one is unsupported."""
    if not isinstance(data, dict):
        raise BadRequest(f"rules: expected an object, got {data!r}")
    known = {f.name: f for f in dataclasses.fields(Rules)}
    unknown = sorted(set(data) - set(known))
    if unknown:
        raise Unsupported(f"unknown rule option(s): {', '.join(unknown)}")
    values: dict[str, Any] = {}
    for name, value in data.items():
        default = known[name].default
        where = f"rules.{name}"
        if name == "forbidden_leads":
            values[name] = frozenset(read_tiles(value, where))
        elif name in CHOICES:
            if value not in CHOICES[name]:
                raise BadRequest(f"{where}: expected one of {', '.join(CHOICES[name])}")
            values[name] = value
        elif isinstance(default, bool):
            if not isinstance(value, bool):
                raise BadRequest(f"{where}: expected true or false, got {value!r}")
            values[name] = value
        elif (value is None and default is None) or (
            isinstance(value, int) and not isinstance(value, bool)
        ):
            values[name] = value
        else:
            raise BadRequest(f"{where}: expected an integer, got {value!r}")
    rules = Rules(**values)
    if rules.max_pip < 1 or rules.players < 2 or rules.hand_size < 1:
        raise BadRequest("rules: need max_pip >= 1, players >= 2 and hand_size >= 1")
    if rules.players * rules.hand_size > len(rules.all_tiles()):
        raise BadRequest("rules: more tiles dealt than the set holds")
    if rules.partnership and rules.players != 4:
        raise BadRequest("rules: partnership play needs 4 players")
    if rules.settlement == "partnership" and not rules.partnership:
        raise BadRequest("rules: partnership settlement needs partnership = true")
    return rules


def new_game(rules: Rules, deal: Any, first_hand: Any, game_class: type[Game] = Game) -> Game:
    """Check the deal against the rules and start the hand."""
    if not isinstance(deal, dict) or not isinstance(deal.get("hands"), list):
        raise BadRequest("deal: expected an object with 'hands'")
    if not isinstance(first_hand, bool):
        raise BadRequest(f"first_hand: expected true or false, got {first_hand!r}")
    hands = [read_tiles(hand, f"deal.hands[{i}]") for i, hand in enumerate(deal["hands"])]
    raw_starter = deal.get("starter")
    starter = None if raw_starter is None else read_tile(raw_starter, "deal.starter")
    set_aside = read_tiles(deal.get("set_aside", []), "deal.set_aside")
    first_seat = deal.get("first_seat", 0)
    if len(hands) != rules.players:
        raise BadRequest(f"deal.hands: {len(hands)} hands for {rules.players} players")
    if any(len(hand) != rules.hand_size for hand in hands):
        raise BadRequest(f"deal.hands: every hand must hold {rules.hand_size} tiles")
    everything = [t for hand in hands for t in hand] + set_aside
    everything += [] if starter is None else [starter]
    if sorted(everything) != rules.all_tiles():
        raise BadRequest("deal: the tiles dealt are not the set, each tile exactly once")
    undealt = len(everything) - rules.players * rules.hand_size
    if (starter is None) != (undealt == 0):
        raise BadRequest("deal.starter: a starter is turned up exactly when tiles are undealt")
    if not isinstance(first_seat, int) or not 0 <= first_seat < rules.players:
        raise BadRequest(f"deal.first_seat: not a seat: {first_seat!r}")
    try:
        return game_class(rules, hands, starter, first_seat, first_hand)
    except ValueError as error:
        raise BadRequest(f"deal: {error}") from None


class Session:
    """The adapter's state between requests: at most one hand in play."""

    def __init__(self, game_class: type[Game] = Game, name: str = NAME) -> None:
        self.game_class = game_class
        self.name = name
        self.game: Game | None = None

    def handle(self, request: Any) -> Reply:
        """The reply to one request."""
        if not isinstance(request, dict):
            raise BadRequest("a request must be a JSON object")
        handlers: dict[Any, Callable[[dict[str, Any]], Reply]] = {
            "hello": self.hello,
            "start": self.start,
            "state": self.state,
            "act": self.act,
            "result": self.result,
            "batch": self.batch,
            "bye": lambda _: {"type": "bye"},
        }
        kind = request.get("type")
        if kind not in handlers:
            raise BadRequest(f"unknown request type {kind!r}")
        return handlers[kind](request)

    def hello(self, request: dict[str, Any]) -> Reply:
        if request.get("protocol") != 1:
            raise BadRequest(f"only protocol 1 is spoken, got {request.get('protocol')!r}")
        return {
            "type": "hello",
            "protocol": 1,
            "name": self.name,
            "version": VERSION,
            "levels": LEVELS,
            "error_codes": True,
            "batch": True,
        }

    def batch(self, request: dict[str, Any]) -> Reply:
        """The replies to several requests at once, in order; a request that fails gets its
        own error reply and the others are still answered."""
        requests = request.get("requests")
        if not isinstance(requests, list):
            raise BadRequest("requests: expected a list of requests")
        return {"type": "batch", "replies": [self.answer(r) for r in requests]}

    def answer(self, request: Any) -> Reply:
        """The reply to one request of a batch, an error reply instead of an exception."""
        kind = request.get("type") if isinstance(request, dict) else None
        if kind not in BATCHED:
            return {"type": "error", "message": f"{kind!r} cannot be batched"}
        try:
            return self.handle(request)
        except BadRequest as error:
            return {"type": "error", "message": str(error)}
        except Exception as error:  # the protocol wants a reply, never a crash
            return {"type": "error", "message": f"internal error: {error!r}"}

    def start(self, request: dict[str, Any]) -> Reply:
        self.game = None
        try:
            rules = read_rules(request.get("rules"))
        except Unsupported as error:
            return {"type": "unsupported", "reason": str(error)}
        if rules.partnership and rules.settlement not in ("per-hand", "partnership"):
            reason = f"{rules.settlement} settlement between teams is not defined"
            return {"type": "unsupported", "reason": reason}
        deal, first_hand = request.get("deal"), request.get("first_hand", True)
        self.game = new_game(rules, deal, first_hand, self.game_class)
        return {"type": "started"}

    def current(self) -> Game:
        if self.game is None:
            raise BadRequest("no hand has been started")
        return self.game

    def state(self, _: dict[str, Any]) -> Reply:
        game = self.current()
        ends = game.ends()
        return {
            "type": "state",
            "to_act": game.to_act(),
            "line": [list(piece) for piece in game.line],
            "ends": None if ends is None else list(ends),
            "hand_sizes": [len(hand) for hand in game.hands],
            "discard_counts": [len(pile) for pile in game.discards],
            "legal": [str(move) for move in game.legal_moves()],
            "ending": game.ending,
        }

    def act(self, request: dict[str, Any]) -> Reply:
        game = self.current()
        seat = request.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise BadRequest(f"seat: expected an integer, got {seat!r}")
        move = read_move(request.get("move"))
        try:
            game.play(seat, move)
        except RuleError as error:
            return {"type": "rejected", "code": error.code, "message": error.message}
        return {"type": "ok"}

    def result(self, _: dict[str, Any]) -> Reply:
        game = self.current()
        if not game.ending:
            raise BadRequest("the hand has not ended")
        result = game.result()
        return {
            "type": "result",
            "counts": result.counts,
            "winner": result.winner,
            "winning_team": result.winning_team,
            "points": result.points,
            "replay": result.replay,
        }


def reply_line(reply: Reply) -> str:
    """The reply as one line of ASCII JSON: orjson's where it is installed and writes it (a
    quarter of this adapter's time goes on writing replies, and orjson is several times
    faster than json), else json's."""
    if fast_dumps is not None:
        try:
            text = fast_dumps(reply)
        except TypeError:  # an integer past 64 bits, or a lone surrogate: json writes those
            pass
        else:
            if text.isascii():
                return text.decode() + "\n"
    return json.dumps(reply) + "\n"


def serve(session: Session, stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout) -> None:
    """Answer requests until ``bye`` or the end of input; never stop on a bad request."""
    for number, line in enumerate(stdin, start=1):
        if not line.strip():
            continue
        try:
            request = json.loads(line)
            reply = session.handle(request)
        except json.JSONDecodeError as error:
            reply = {"type": "error", "message": f"request {number}: not JSON: {error}"}
        except BadRequest as error:
            reply = {"type": "error", "message": f"request {number}: {error}"}
        except Exception as error:  # the protocol wants a reply, never a crash
            reply = {"type": "error", "message": f"request {number}: internal error: {error!r}"}
        stdout.write(reply_line(reply))
        stdout.flush()
        if reply["type"] == "bye":
            return


if __name__ == "__main__":
    serve(Session())
