#!/usr/bin/env python3
"""A gaple protocol v1 adapter for an engine written in Python, with no dependencies (Python
3.11 or later), written by ``gaple template python DIR``. Run the suite with ``gaple
conformance run --impl 'python DIR/adapter.py'``.

It reads one JSON request per line on stdin and writes exactly one JSON reply per line on
stdout (``PROTOCOL.md``, which ``gaple spec --out DIR`` writes); stderr is free for logs. It
never stops on a bad request: that request gets ``{"type": "error", ...}``; it ends on ``bye``
or at the end of stdin.

Change only the block marked "FILL IN HERE": the calls into your engine. Everything else is
the protocol, complete on its own; its types (``Rules``, ``Deal``, ``Move``, ``Observed``...)
are those the calls get and return. The adapter's folder is first on the import path, so an
engine module beside it imports by its name.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from typing import IO, Any, ClassVar, NamedTuple, NotRequired, TypedDict, TypeGuard

# ==== FILL IN HERE: the calls into your engine ==============================================
# Import your engine here and make these calls into it. The protocol part below hands them
# values already read and checked: rules with every option (tiles as (low, high)), the deal as
# {hands, starter, first_seat}, moves as Move(kind, tile, end); it writes what they return as
# the protocol's replies. As written, no engine is called: every hand is declined with the
# reason below, so `gaple conformance run` ends NOTHING CHECKED and says what is missing.

MISSING = "adapter.py calls no engine yet: fill in its block marked FILL IN HERE"


class Engine:
    """The calls into the engine; a hand in play is whatever ``start`` returns."""

    # What the hello reply says: the levels to check (add "rules" if the engine's rejections
    # and results name the rule IDs); "plays" may declare what it plays (PROTOCOL.md).
    hello: ClassVar[EngineHello] = {
        "name": "my-engine",
        "version": "0.1",
        "levels": ["line", "turns", "count", "points"],
    }

    def start(self, rules: Rules, deal: Deal, first_hand: bool) -> Any:  # noqa: ARG002
        """A new hand, or a string: the reason the engine does not play these rules."""
        return MISSING

    def observe(self, hand: Any) -> Observed:
        """What the engine shows: to_act, line, ends, hand_sizes, discard_counts, legal
        (moves), ending."""
        raise NotImplementedError(MISSING)

    def act(self, hand: Any, seat: int, move: Move) -> Refusal | None:
        """Make the move: None when accepted, else {code, rule, message}; a refused move must
        leave the hand unchanged."""
        raise NotImplementedError(MISSING)

    def over(self, hand: Any) -> bool:
        """Whether the hand has ended (a result is only asked for then)."""
        raise NotImplementedError(MISSING)

    def result(self, hand: Any) -> HandResult:
        """The finished hand's result: counts, winner, winning_team, points, replay, rules."""
        raise NotImplementedError(MISSING)


def engine_for(args: list[str]) -> Engine:  # noqa: ARG001
    """The engine's calls; ``args`` are the adapter's command-line arguments (none as the kit
    starts it, unless the ``--impl`` command gives some)."""
    return Engine()


# ==== END OF FILL IN HERE: the protocol below needs no change ==============================

Tile = tuple[int, int]
"""A tile as the adapter hands it to the engine: (low, high)."""
Rules = dict[str, Any]
"""Every option of a hand by its protocol name (``DEFAULT_RULES`` fills in the missing ones);
``forbidden_leads`` as a list of tiles."""
Reply = dict[str, Any]

LEFT = "left"
RIGHT = "right"

DEFAULT_RULES: Rules = {
    "max_pip": 6,
    "players": 4,
    "hand_size": 7,
    "partnership": False,
    "first_lead": "double-blank",
    "later_lead": "double",
    "forbidden_leads": [],
    "blocked_action": "discard",
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
"""Every option of a hand with its default (pagat's 4 x 7), as the protocol names them."""

CHOICES = {
    "first_lead": ("double-blank", "double", "any-tile"),
    "later_lead": ("double-blank", "double", "any-tile"),
    "blocked_action": ("pass", "discard"),
    "settlement": ("per-hand", "chips", "difference", "cumulative", "partnership"),
    "challenge_tie": ("replay", "blocker-loses"),
    "challenge_win_base": ("all", "blocker-pair", "other-pair"),
    "challenge_loss_base": ("all", "blocker-pair", "other-pair"),
}
"""The values an option of a fixed list may take."""

BATCHED = ("start", "state", "act", "result")
"""The requests a batch may carry."""


class Move(NamedTuple):
    """``lead T``, ``place T left|right``, ``pass`` or ``discard T``."""

    kind: str
    tile: Tile | None = None
    end: str | None = None


class Deal(TypedDict):
    """The deal as ``start`` gets it (the tiles set aside are checked, not passed on)."""

    hands: list[list[Tile]]
    starter: Tile | None
    first_seat: int


class EngineHello(TypedDict):
    """The hello reply's fields that the engine gives (``error_codes`` defaults to true)."""

    name: str
    version: NotRequired[str]
    levels: list[str]
    error_codes: NotRequired[bool]
    plays: NotRequired[dict[str, Any]]


class Observed(TypedDict):
    """What ``observe`` returns: the state reply's fields, the legal moves as moves."""

    to_act: int | None
    line: list[Tile] | list[list[int]]
    ends: Tile | list[int] | None
    hand_sizes: list[int]
    discard_counts: list[int]
    legal: list[Move]
    ending: str | None


class Refusal(TypedDict):
    """Why ``act`` refused a move: the rejected reply's fields."""

    code: str | None
    rule: NotRequired[str]
    message: NotRequired[str]


class HandResult(TypedDict):
    """The finished hand's result: the result reply's fields."""

    counts: list[int]
    winner: int | None
    winning_team: int | None
    points: list[int]
    replay: bool
    rules: NotRequired[list[str]]


class BadRequest(Exception):
    """A request that cannot be read; the message says where."""


def tile(a: int, b: int) -> Tile:
    """The tile with halves ``a`` and ``b``, low half first."""
    return (a, b) if a <= b else (b, a)


def tile_text(t: Tile) -> str:
    """``(0, 3)`` -> ``"0-3"``."""
    return f"{t[0]}-{t[1]}"


def move_text(move: Move) -> str:
    """``Move("place", (0, 3), "left")`` -> ``"place 0-3 left"``."""
    if move.tile is None:
        return move.kind
    text = f"{move.kind} {tile_text(move.tile)}"
    return f"{text} {move.end}" if move.kind == "place" else text


TILE = re.compile(r"([0-9]{1,2})-([0-9]{1,2})")


def read_tile(value: Any, where: str) -> Tile:
    match = TILE.fullmatch(value) if isinstance(value, str) else None
    if match is None:
        raise BadRequest(f"{where}: expected a tile such as '0-3', got {json.dumps(value)}")
    return tile(int(match[1]), int(match[2]))


def read_tiles(value: Any, where: str) -> list[Tile]:
    if not isinstance(value, list):
        raise BadRequest(f"{where}: expected a list of tiles")
    return [read_tile(item, f"{where}[{i}]") for i, item in enumerate(value)]


def read_move(text: Any) -> Move:
    """``lead T`` | ``place T left|right`` | ``pass`` | ``discard T``."""
    words = text.split(" ") if isinstance(text, str) else []
    if words == ["pass"]:
        return Move("pass")
    if len(words) == 2 and words[0] in ("lead", "discard"):
        return Move(words[0], read_tile(words[1], "move"))
    if len(words) == 3 and words[0] == "place" and words[2] in (LEFT, RIGHT):
        return Move("place", read_tile(words[1], "move"), words[2])
    raise BadRequest(
        "move: expected 'lead T', 'place T left|right', 'pass' or 'discard T', "
        f"got {json.dumps(text)}"
    )


def is_integer(value: Any) -> TypeGuard[int]:
    """An integer of JSON (``true`` is not one)."""
    return isinstance(value, int) and not isinstance(value, bool)


def read_rules(data: Any) -> Rules | str:
    """The ruleset: a missing option keeps its default; an unknown one is unsupported (a
    string, the reason), a value of the wrong type a BadRequest."""
    if not isinstance(data, dict):
        raise BadRequest("rules: expected an object")
    unknown = sorted(set(data).difference(DEFAULT_RULES))
    if unknown:
        return f"unknown rule option(s): {', '.join(unknown)}"
    rules = {**DEFAULT_RULES, **data}
    for name, value in rules.items():
        fallback = DEFAULT_RULES[name]
        where = f"rules.{name}"
        if name == "forbidden_leads":
            rules[name] = read_tiles(value, where)
        elif name in CHOICES and value not in CHOICES[name]:
            raise BadRequest(f"{where}: expected one of {', '.join(CHOICES[name])}")
        elif isinstance(fallback, bool) and not isinstance(value, bool):
            raise BadRequest(f"{where}: expected true or false")
        elif (is_integer(fallback) or fallback is None) and not (
            is_integer(value) or (fallback is None and value is None)
        ):
            raise BadRequest(f"{where}: expected an integer")
    return rules


def read_deal(data: Any, rules: Rules) -> Deal:
    """The deal, checked against the rules: one hand per seat, each tile of the set once."""
    if not isinstance(data, dict) or not isinstance(data.get("hands"), list):
        raise BadRequest("deal: expected an object with 'hands'")
    hands = [read_tiles(hand, f"deal.hands[{i}]") for i, hand in enumerate(data["hands"])]
    raw_starter = data.get("starter")
    starter = None if raw_starter is None else read_tile(raw_starter, "deal.starter")
    set_aside = read_tiles(data.get("set_aside", []), "deal.set_aside")
    first_seat = data.get("first_seat", 0)
    if len(hands) != rules["players"]:
        raise BadRequest(f"deal.hands: {len(hands)} hands for {rules['players']} seats")
    if not is_integer(first_seat) or not 0 <= first_seat < rules["players"]:
        raise BadRequest(f"deal.first_seat: not a seat: {json.dumps(first_seat)}")
    dealt = [t for hand in hands for t in hand] + set_aside
    dealt += [] if starter is None else [starter]
    top = rules["max_pip"]
    the_set = [(a, b) for a in range(top + 1) for b in range(a, top + 1)]
    if sorted(dealt) != the_set:
        raise BadRequest("deal: the tiles dealt are not the set, each tile exactly once")
    return {"hands": hands, "starter": starter, "first_seat": first_seat}


class Session:
    """The adapter's state between requests: at most one hand in play."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.hand: Any = None

    def handle(self, request: Any) -> Reply:
        """The reply to one request; a BadRequest for a request it cannot answer."""
        if not isinstance(request, dict):
            raise BadRequest("a request must be a JSON object")
        kind = request.get("type")
        if kind == "hello":
            return self.hello(request)
        if kind == "start":
            return self.start(request)
        if kind == "state":
            return self.state()
        if kind == "act":
            return self.act(request)
        if kind == "result":
            return self.result()
        if kind == "batch":
            return self.batch(request)
        if kind == "bye":
            return {"type": "bye"}
        raise BadRequest(f"unknown request type {json.dumps(kind)}")

    def hello(self, request: dict[str, Any]) -> Reply:
        protocol = request.get("protocol")
        if not is_integer(protocol) or protocol != 1:
            raise BadRequest(f"only protocol 1 is spoken, got {json.dumps(protocol)}")
        hello = {"type": "hello", "protocol": 1, "error_codes": True, **self.engine.hello}
        return {**hello, "batch": True}

    def start(self, request: dict[str, Any]) -> Reply:
        self.hand = None
        rules = read_rules(request.get("rules"))
        if isinstance(rules, str):
            return {"type": "unsupported", "reason": rules}
        first_hand = request.get("first_hand", True)
        if not isinstance(first_hand, bool):
            raise BadRequest("first_hand: expected true or false")
        hand = self.engine.start(rules, read_deal(request.get("deal"), rules), first_hand)
        if isinstance(hand, str):
            return {"type": "unsupported", "reason": hand}
        self.hand = hand
        return {"type": "started"}

    def current(self) -> Any:
        if self.hand is None:
            raise BadRequest("no hand has been started")
        return self.hand

    def state(self) -> Reply:
        """The state reply: the fields the protocol names, the legal moves as text."""
        shown = self.engine.observe(self.current())
        ends = shown["ends"]
        return {
            "type": "state",
            "to_act": shown["to_act"],
            "line": [list(piece) for piece in shown["line"]],
            "ends": None if ends is None else list(ends),
            "hand_sizes": shown["hand_sizes"],
            "discard_counts": shown["discard_counts"],
            "legal": [move_text(move) for move in shown["legal"]],
            "ending": shown["ending"],
        }

    def act(self, request: dict[str, Any]) -> Reply:
        hand = self.current()
        seat = request.get("seat")
        if not is_integer(seat):
            raise BadRequest("seat: expected an integer")
        refusal = self.engine.act(hand, seat, read_move(request.get("move")))
        return {"type": "ok"} if refusal is None else {"type": "rejected", **refusal}

    def result(self) -> Reply:
        hand = self.current()
        if not self.engine.over(hand):
            raise BadRequest("the hand has not ended")
        return {"type": "result", **self.engine.result(hand)}

    def batch(self, request: dict[str, Any]) -> Reply:
        """Several requests answered in order, each failure its own error reply."""
        requests = request.get("requests")
        if not isinstance(requests, list):
            raise BadRequest("requests: expected a list")
        return {"type": "batch", "replies": [self.answer(r) for r in requests]}

    def answer(self, request: Any) -> Reply:
        kind = request.get("type") if isinstance(request, dict) else None
        if kind not in BATCHED:
            return {"type": "error", "message": f"{json.dumps(kind)} cannot be batched"}
        try:
            return self.handle(request)
        except Exception as error:  # the protocol wants a reply, whatever went wrong
            return {"type": "error", "message": describe(error)}


def describe(error: Exception) -> str:
    if isinstance(error, BadRequest):
        return str(error)
    return f"internal error: {type(error).__name__}: {error}"


def request_lines(stdin: IO[bytes]) -> Iterator[bytes]:
    """The lines of ``stdin``, without their line breaks."""
    for line in stdin:
        yield line.rstrip(b"\r\n")


def reply_to(session: Session, number: int, line: bytes) -> Reply:
    """The reply to one line, an error reply (naming the line) for one it cannot take."""
    try:
        request = json.loads(line)
    except ValueError as error:  # not UTF-8 or not JSON
        return {"type": "error", "message": f"request {number}: not JSON: {error}"}
    try:
        return session.handle(request)
    except Exception as error:  # the protocol wants a reply, whatever went wrong
        return {"type": "error", "message": f"request {number}: {describe(error)}"}


def serve(engine: Engine, stdin: IO[bytes] | None = None, stdout: IO[str] | None = None) -> None:
    """Answer requests from ``stdin`` until ``bye`` or the end of input."""
    stdin = sys.stdin.buffer if stdin is None else stdin
    stdout = sys.stdout if stdout is None else stdout
    session = Session(engine)
    for number, line in enumerate(request_lines(stdin), start=1):
        if not line.strip():
            continue
        reply = reply_to(session, number, line)
        stdout.write(json.dumps(reply) + "\n")
        stdout.flush()
        if reply["type"] == "bye":
            return


def main() -> int:
    """Serve the engine; a standard output that cannot be written ends the adapter in one
    line, quietly (status 0) when its reader has gone, else with status 2."""
    try:
        serve(engine_for(sys.argv[1:]))
    except BrokenPipeError:
        sys.stdout = None  # nothing more to flush to a reader gone
        return 0
    except OSError as error:
        print(f"adapter.py: error: standard output: {error.strerror}", file=sys.stderr)
        sys.stdout = None
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
