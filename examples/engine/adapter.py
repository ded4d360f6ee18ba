"""Protocol v1 adapter for the example engine: ``python examples/engine/adapter.py``.

Reads one JSON request per line on stdin and writes one JSON reply per line on stdout (see
``spec/PROTOCOL.md``). Every line gets exactly one reply, and the adapter stops only on ``bye``
or at the end of stdin, never on bad input.

Nothing reaches the engine unchecked: every field of a request is checked for its type and its
range first (the protocol's ranges: ``max_pip`` from 1 to 9, tiles of the set, seats of the
table, integers that fit in 64 bits), and a line it cannot take gets one ``{"type": "error",
...}`` reply saying where: a line that is not UTF-8, not JSON or longer than :data:`MAX_LINE`,
a field missing or of the wrong type, a number out of range. So whatever it is sent, the
engine never does more work or holds more memory than a request of the protocol needs. Fields
the adapter does not use (a start's ``case``, anything a later protocol may add) are ignored.
"""

from __future__ import annotations

import dataclasses
import json
import re
import reprlib
import sys
from collections.abc import Callable, Iterator
from typing import IO, Any, NoReturn

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
    tile_text,
)

NAME = "example-engine"
VERSION = "1.0"
LEVELS = ["line", "turns", "count", "points"]
BATCHED = ("start", "state", "act", "result")
"""The requests a batch may carry."""

MAX_LINE = 2**20
"""Bytes in one request line (1 MiB, the protocol's limit for a reply line; a whole case sent
as one batch is a few KiB). A longer line is refused without being read whole."""
MAX_BATCH = 10_000
"""Requests in one batch (a case of a hundred steps sends about two hundred)."""
MAX_PIP = 9
"""The largest set of the protocol, double-nine: ``max_pip`` is from 1 to 9."""
MAX_INT = 2**63 - 1
"""The largest integer an option or a seat may be: what a signed 64-bit integer holds."""

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

INTEGERS = {
    "max_pip": (1, MAX_PIP),
    "players": (2, MAX_INT),
    "hand_size": (1, MAX_INT),
    "target": (1, MAX_INT),
    "match_hands": (1, MAX_INT),
    "challenge_win_multiplier": (1, MAX_INT),
    "challenge_loss_multiplier": (1, MAX_INT),
    "top_double_bonus": (0, MAX_INT),
    "blank_double_bonus": (0, MAX_INT),
}
"""The integer options and their ranges, as the reference takes them (``target`` and
``match_hands`` may also be null)."""


class BadRequest(Exception):
    """A request that cannot be read; the message says where."""


class Unsupported(Exception):
    """A case this engine cannot play; the message says why."""


def shown(value: Any) -> str:
    """``value`` as Python writes it, cut short: a message never repeats a huge or deep
    value whole."""
    return reprlib.repr(value)


def read_int(value: Any, where: str, low: int, high: int = MAX_INT) -> int:
    """An integer from ``low`` to ``high`` (``true`` is not one, nor ``1.0``)."""
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise BadRequest(f"{where}: expected an integer from {low} to {high}, got {shown(value)}")
    return value


TILE = re.compile(r"([0-9]{1,2})-([0-9]{1,2})")
"""A tile as the protocol writes it: ``a-b``, each half one or two ASCII digits."""


def read_tile(value: Any, where: str) -> Tile:
    """``"0-3"`` -> ``(0, 3)``; either order of the halves is accepted."""
    match = TILE.fullmatch(value) if isinstance(value, str) else None
    if match is None:
        raise BadRequest(f"{where}: expected a tile such as '0-3', got {shown(value)}")
    return tile(int(match[1]), int(match[2]))


def read_tiles(value: Any, where: str) -> list[Tile]:
    """A list of tile strings."""
    if not isinstance(value, list):
        raise BadRequest(f"{where}: expected a list of tiles, got {shown(value)}")
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
        f"move: expected 'lead T', 'place T left|right', 'pass' or 'discard T', got {shown(text)}"
    )


def read_rules(data: Any) -> Rules:
    """The ruleset; a missing option keeps its default, an unknown one is unsupported."""
    if not isinstance(data, dict):
        raise BadRequest(f"rules: expected an object, got {shown(data)}")
    known = {f.name: f for f in dataclasses.fields(Rules)}
    unknown = sorted(set(data).difference(known))
    if unknown:
        raise Unsupported(f"unknown rule option(s): {shown(unknown)}")
    values: dict[str, Any] = {}
    for name, value in data.items():
        where = f"rules.{name}"
        if name == "forbidden_leads":
            values[name] = frozenset(read_tiles(value, where))
        elif name in CHOICES:
            if not isinstance(value, str) or value not in CHOICES[name]:
                raise BadRequest(f"{where}: expected one of {', '.join(CHOICES[name])}")
            values[name] = value
        elif name in INTEGERS:
            if value is None and known[name].default is None:  # no target, no hand count
                values[name] = None
            else:
                values[name] = read_int(value, where, *INTEGERS[name])
        elif isinstance(value, bool):  # every other option is a flag
            values[name] = value
        else:
            raise BadRequest(f"{where}: expected true or false, got {shown(value)}")
    rules = Rules(**values)
    # max_pip is at most 9 by now, so the set has at most 55 tiles to list.
    tiles = rules.all_tiles()
    if rules.players * rules.hand_size > len(tiles):
        raise BadRequest("rules: more tiles dealt than the set holds")
    outside = sorted(rules.forbidden_leads.difference(tiles))
    if outside:
        name = tile_text(outside[0])
        raise BadRequest(
            f"rules.forbidden_leads: {name} is not a tile of the double-{rules.max_pip} set"
        )
    if rules.partnership and rules.players != 4:
        raise BadRequest("rules: partnership play needs 4 players")
    if rules.settlement == "partnership" and not rules.partnership:
        raise BadRequest("rules: partnership settlement needs partnership = true")
    return rules


def new_game(rules: Rules, deal: Any, first_hand: Any, game_class: type[Game] = Game) -> Game:
    """Check the deal against the rules and start the hand."""
    if not isinstance(deal, dict) or not isinstance(deal.get("hands"), list):
        raise BadRequest(f"deal: expected an object with 'hands', got {shown(deal)}")
    if not isinstance(first_hand, bool):
        raise BadRequest(f"first_hand: expected true or false, got {shown(first_hand)}")
    if len(deal["hands"]) != rules.players:
        raise BadRequest(f"deal.hands: {len(deal['hands'])} hands for {rules.players} players")
    hands = [read_tiles(hand, f"deal.hands[{i}]") for i, hand in enumerate(deal["hands"])]
    if any(len(hand) != rules.hand_size for hand in hands):
        raise BadRequest(f"deal.hands: every hand must hold {rules.hand_size} tiles")
    raw_starter = deal.get("starter")
    starter = None if raw_starter is None else read_tile(raw_starter, "deal.starter")
    set_aside = read_tiles(deal.get("set_aside", []), "deal.set_aside")
    first_seat = read_int(deal.get("first_seat", 0), "deal.first_seat", 0, rules.players - 1)
    everything = [t for hand in hands for t in hand] + set_aside
    everything += [] if starter is None else [starter]
    if sorted(everything) != rules.all_tiles():
        raise BadRequest("deal: the tiles dealt are not the set, each tile exactly once")
    undealt = len(everything) - rules.players * rules.hand_size
    if (starter is None) != (undealt == 0):
        raise BadRequest("deal.starter: a starter is turned up exactly when tiles are undealt")
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
        if not isinstance(kind, str) or kind not in handlers:
            raise BadRequest(f"unknown request type {shown(kind)}")
        return handlers[kind](request)

    def hello(self, request: dict[str, Any]) -> Reply:
        protocol = request.get("protocol")
        if not isinstance(protocol, int) or isinstance(protocol, bool) or protocol != 1:
            raise BadRequest(f"only protocol 1 is spoken, got {shown(protocol)}")
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
            raise BadRequest(f"requests: expected a list of requests, got {shown(requests)}")
        if len(requests) > MAX_BATCH:
            raise BadRequest(f"requests: {len(requests)} requests, more than {MAX_BATCH}")
        return {"type": "batch", "replies": [self.answer(r) for r in requests]}

    def answer(self, request: Any) -> Reply:
        """The reply to one request of a batch, an error reply instead of an exception."""
        kind = request.get("type") if isinstance(request, dict) else None
        if kind not in BATCHED:
            return error_reply(f"{shown(kind)} cannot be batched")
        return self.reply_to(request)

    def reply_to(self, request: Any) -> Reply:
        """The reply to one request, an error reply for one it cannot take."""
        try:
            return self.handle(request)
        except BadRequest as error:
            return error_reply(str(error))
        except Exception as error:  # a bug of this adapter: the protocol still wants a reply
            return error_reply(f"internal error: {shown(error)}")

    def start(self, request: dict[str, Any]) -> Reply:
        self.game = None
        if not isinstance(request.get("case", ""), str):
            raise BadRequest(f"case: expected a case ID, got {shown(request['case'])}")
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
        # Any seat number is read: one that is not to act is the game's to reject (wrong-seat).
        seat = read_int(request.get("seat"), "seat", 0)
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


def error_reply(message: str) -> Reply:
    """The reply to a request the adapter cannot take."""
    return {"type": "error", "message": message}


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


def not_json(word: str) -> NoReturn:
    """``json.loads`` reads ``NaN`` and ``Infinity``, which JSON does not have: refuse them."""
    raise ValueError(f"{word} is not JSON")


def read_request(line: bytes | str) -> Any:
    """The JSON value on one line (without its line break), or :class:`BadRequest` saying why
    the line holds none."""
    if len(line) > MAX_LINE:
        raise BadRequest(f"a line longer than {MAX_LINE} bytes")
    if isinstance(line, bytes):
        try:
            line = line.decode("utf-8")
        except UnicodeDecodeError as error:
            raise BadRequest(f"not UTF-8: {error}") from None
    if not line.strip():
        raise BadRequest("an empty line, not a request")
    try:
        return json.loads(line, parse_constant=not_json)
    except RecursionError:
        raise BadRequest("not JSON: nested too deeply") from None
    except ValueError as error:  # not JSON, or an integer of more than 4,300 digits
        raise BadRequest(f"not JSON: {error}") from None


def request_lines(stdin: IO[bytes] | IO[str]) -> Iterator[bytes | str]:
    """The lines of ``stdin``, without their line breaks. A line longer than
    :data:`MAX_LINE` is never held whole: it comes cut just past the limit (so that its reply
    says it is too long), and the rest of it is read and dropped piece by piece."""
    while line := stdin.readline(MAX_LINE + 1):
        rest = line
        while len(rest) > MAX_LINE and rest[-1:] not in (b"\n", "\n"):
            rest = stdin.readline(MAX_LINE + 1)
        yield line[:-1] if line[-1:] in (b"\n", "\n") else line


def serve(
    session: Session, stdin: IO[bytes] | IO[str] | None = None, stdout: IO[str] | None = None
) -> None:
    """Answer each line of ``stdin`` (bytes, decoded here as UTF-8 whatever the locale says;
    standard input by default) until ``bye`` or the end of input; never stop on a bad line."""
    stdin = sys.stdin.buffer if stdin is None else stdin
    stdout = sys.stdout if stdout is None else stdout
    for number, line in enumerate(request_lines(stdin), start=1):
        try:
            request = read_request(line)
        except BadRequest as error:
            reply = error_reply(str(error))
        else:
            reply = session.reply_to(request)
        if reply["type"] == "error":
            reply["message"] = f"request {number}: {reply['message']}"
        stdout.write(reply_line(reply))
        stdout.flush()
        if reply["type"] == "bye":
            return


if __name__ == "__main__":
    serve(Session())
