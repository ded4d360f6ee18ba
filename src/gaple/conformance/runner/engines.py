"""Talking to an implementation: over protocol v1 as a subprocess, or to gaple in process.

An :class:`Engine` takes one request (a JSON object) and returns the one reply. The
:class:`SubprocessEngine` runs an adapter command and exchanges newline-delimited JSON with it,
with a timeout per reply; a crash, a hang or an unreadable reply raises :class:`EngineError`
(the runner then restarts the engine). The :class:`ReferenceEngine` answers from the spec
itself, in process, for self-checks and timing, played by either of gaple's implementations
of the rules (:class:`Implementation`): the fast engine or the reference written for reading.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import select
import selectors
import signal
import subprocess
import time
from collections import deque
from collections.abc import Sequence
from typing import IO, Any, Protocol

from gaple.conformance.vectors.cases import ENGINE, LEVELS, REFERENCE, Implementation, observe
from gaple.conformance.vectors.schemas import BATCHED, PROTOCOL_SCHEMAS, REPLY_TO
from gaple.conformance.wire import bounded
from gaple.conformance.wire.escape import printable
from gaple.deal import InvalidDeal
from gaple.io import FormatError, deal_from_json, rules_from_json
from gaple.state import (
    IllegalMove,
    MoveSyntaxError,
    State,
    parse_move,
)

__all__ = [
    "ENGINE",
    "MAX_REPLY",
    "REFERENCE",
    "SHOWN",
    "STDERR_KEPT",
    "STDERR_LINES",
    "Engine",
    "EngineError",
    "Implementation",
    "ReferenceEngine",
    "StderrLines",
    "SubprocessEngine",
    "Validator",
    "kill_all",
    "serve",
]

JSON = Any


class EngineError(Exception):
    """The engine crashed, hung, or answered something that is not a valid reply."""


class Engine(Protocol):
    """Anything that answers protocol v1 requests."""

    def request(self, message: dict[str, JSON]) -> dict[str, JSON]:
        """Send one request and return the reply."""
        ...

    def close(self) -> None:
        """Stop the engine (politely if possible)."""
        ...


class Validator:
    """Checks messages against the protocol schemas (needs the ``jsonschema`` package)."""

    def __init__(self) -> None:
        try:
            jsonschema = importlib.import_module("jsonschema")
        except ImportError:
            msg = "--validate needs jsonschema: pip install 'gaple[conformance]'"
            raise EngineError(msg) from None
        self._validators = {
            name: jsonschema.Draft202012Validator(schema)
            for name, schema in PROTOCOL_SCHEMAS.items()
        }

    def check(self, name: str, message: JSON) -> None:
        """Raise :class:`EngineError` naming the JSON path of the first problem; each request
        of a batch is checked against its own schema. A message nested deeper than the bounded
        reader allows (no protocol message comes near) is refused unchecked: jsonschema
        recurses once per level, in its checks and in the text of its errors."""
        if _deeper(message, bounded.LIMITS.max_depth):
            msg = (
                f"{name} message does not match protocol/{name}.schema.json: more than "
                f"{bounded.LIMITS.max_depth} arrays or objects nested"
            )
            raise EngineError(msg)
        errors = sorted(self._validators[name].iter_errors(message), key=lambda e: list(e.path))
        if errors:
            error = errors[0]
            path = "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.path)
            msg = f"{name} message does not match protocol/{name}.schema.json at {path}: "
            raise EngineError(msg + printable(error.message, limit=SHOWN))
        if name == "batch":
            for inner in message["requests"]:
                self.check(inner["type"], inner)

    def check_reply(self, request: str, reply: JSON, *, batched: Sequence[JSON] = ()) -> None:
        """Check a reply against the schemas of the replies allowed for ``request``; the
        replies of a batch each against those of its request in ``batched``."""
        kind = reply.get("type") if isinstance(reply, dict) else None
        names = REPLY_TO[request]
        name = next((n for n in names if n in (kind, f"{kind}-reply")), None)
        if name is None:
            shown = printable(repr(kind), limit=SHOWN)
            msg = f"reply of type {shown} to {request!r}; expected one of {', '.join(names)}"
            raise EngineError(msg)
        self.check(name, reply)
        if name == "batch-reply":
            for inner, answer in zip(batched, reply["replies"], strict=False):
                self.check_reply(inner["type"], answer)


def _deeper(value: JSON, depth: int) -> bool:
    """Whether more than ``depth`` arrays or objects are open at once somewhere in ``value``
    (followed without recursing)."""
    pending = [(value, 0)]
    while pending:
        item, level = pending.pop()
        if isinstance(item, dict | list):
            if level == depth:
                return True
            inner = item.values() if isinstance(item, dict) else item
            pending.extend((child, level + 1) for child in inner)
    return False


MAX_REPLY = 2**20
"""The longest reply line the runner reads, in bytes (1 MiB); a longer one errors the case."""

SHOWN = 200
"""How many characters of a bad reply an error message keeps."""


def refuse_error(kind: str, reply: dict[str, Any], *, where: str = "") -> None:
    """Raise :class:`EngineError` when ``reply`` is an ``error`` reply to a ``kind`` request
    (``where`` says more, e.g. " in a batch"), quoting at most :data:`SHOWN` characters."""
    if reply.get("type") == "error":
        said = reply.get("message")
        text = said if isinstance(said, str) else json.dumps(said)
        msg = f"the engine answered {kind!r}{where} with an error: {printable(text, limit=SHOWN)}"
        raise EngineError(msg)


STDERR_KEPT = 4096
"""How many bytes of the end of each line of the engine's stderr are kept to show."""

STDERR_LINES = 10
"""How many of the first and of the last lines of the engine's stderr a failure shows."""

_DRAINED = 64
"""How many more reads of stderr a failure makes, at most, for what the engine wrote last."""


class StderrLines:
    """The first and the last :data:`STDERR_LINES` lines an engine wrote to stderr (blank ones
    left out), and how many lie between, in bounded memory whatever it writes.

    Both ends, because each holds what explains a failure: a Python traceback names the
    adapter's file and line at its top and the error at its bottom; Node prints the location of
    a syntax error (``file.js:12``) first, then the code, then the message.
    """

    def __init__(self) -> None:
        self.head: list[bytes] = []
        self.tail: deque[bytes] = deque()
        self.between = 0
        self._open_line = bytearray()

    def keep(self, data: bytes) -> None:
        """Take the next bytes the engine wrote."""
        first, *rest = data.split(b"\n")
        self._open_line += first
        for line in rest:
            self.between += _place(bytes(self._open_line), self.head, self.tail)
            self._open_line = bytearray(line)
        del self._open_line[:-STDERR_KEPT]

    def said(self) -> str:
        """``; its stderr: `` and the lines kept, joined by `` | `` (each its last
        :data:`SHOWN` characters, escaped), with ``... N lines not shown ...`` between the
        first and the last; empty when it wrote nothing but blanks."""
        head, tail = list(self.head), deque(self.tail)
        between = self.between + _place(bytes(self._open_line), head, tail)
        shown = [_stderr_line(line) for line in head]
        if between:
            shown.append(f"... {between} line{'s' if between > 1 else ''} not shown ...")
        shown += [_stderr_line(line) for line in tail]
        return f"; its stderr: {' | '.join(shown)}" if shown else ""


def _place(line: bytes, head: list[bytes], tail: deque[bytes]) -> int:
    """Put a complete line among the first or the last lines kept; how many lines it pushed
    out of the last (0 or 1)."""
    if not line.strip():
        return 0
    if len(head) < STDERR_LINES:
        head.append(line[-STDERR_KEPT:])
        return 0
    tail.append(line[-STDERR_KEPT:])
    if len(tail) > STDERR_LINES:
        tail.popleft()
        return 1
    return 0


def _stderr_line(line: bytes) -> str:
    # The end of a long line: what a line says last (the error after its path) explains most.
    return printable(line.decode("utf-8", errors="replace")[-SHOWN:])


_CHUNK = 2**16

_LIVE: set[SubprocessEngine] = set()
"""Engines started and not yet killed, so that :func:`kill_all` can end them on any path."""


class SubprocessEngine:
    """An adapter command driven over stdin/stdout, one JSON object per line.

    The adapter runs in its own session, so its whole process group (children included) is
    killed when it fails and when it is closed. Reads are bounded: a reply line longer than
    :data:`MAX_REPLY` is an error, and only the first and last lines of stderr are kept
    (:class:`StderrLines`), whatever the engine writes.
    """

    def __init__(
        self, command: str, *, timeout: float = 10.0, validator: Validator | None = None
    ) -> None:
        self.command = command
        self.timeout = timeout
        self.validator = validator
        # Everything kill() uses exists before the process does, so that kill_all() can end
        # it however early an interruption comes.
        self._group_killed = False
        self._selector = selectors.DefaultSelector()
        try:
            self._process = subprocess.Popen(
                command,
                shell=True,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,
            )
        except OSError as error:
            self._selector.close()
            msg = f"cannot start {printable(command)!r}: {error}"
            raise EngineError(msg) from None
        _LIVE.add(self)
        streams = (self._process.stdin, self._process.stdout, self._process.stderr)
        self._stdin, self._stdout, self._stderr = (s.fileno() for s in streams if s is not None)
        for descriptor in (self._stdin, self._stdout, self._stderr):
            # Never block on the engine: every wait goes through the selector, with a deadline.
            os.set_blocking(descriptor, False)
        self._selector.register(self._stdout, selectors.EVENT_READ)
        self._selector.register(self._stderr, selectors.EVENT_READ)
        self._pending = bytearray()
        self._stdout_open = True
        self._stderr_open = True
        self.stderr = StderrLines()

    def _stderr_said(self) -> str:
        """What the engine wrote to stderr, for a message about its failure: first what is
        still in the pipe (a traceback written as it exited), while it is open."""
        for _ in range(_DRAINED):
            if self._group_killed or not self._stderr_open:
                break
            try:
                data = os.read(self._stderr, _CHUNK)
            except BlockingIOError:
                break
            self._keep_stderr(data)
        return self.stderr.said()

    def _keep_stderr(self, data: bytes) -> None:
        if data:
            self.stderr.keep(data)
        elif self._stderr_open:
            self._stderr_open = False
            self._selector.unregister(self._stderr)

    def _pump(self, deadline: float) -> bool:
        """Read what the engine writes until a reply line is complete (or too long) or
        ``deadline`` passes; returns whether stdout is still open. Nothing more is read from
        stdout once a line is complete, so memory stays bounded whatever the engine writes."""
        while b"\n" not in self._pending and len(self._pending) <= MAX_REPLY:
            if not self._stdout_open:
                return False
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                break
            # Waits of at most a second: a huge --timeout cannot overflow the selector.
            for key, _events in self._selector.select(min(remaining, 1.0)):
                try:
                    data = os.read(key.fd, _CHUNK)
                except BlockingIOError:
                    continue
                if key.fd == self._stderr:
                    self._keep_stderr(data)
                elif data:
                    self._pending += data
                else:
                    self._selector.unregister(key.fd)
                    self._stdout_open = False
        return self._stdout_open

    def _send(self, data: bytes, deadline: float) -> None:
        view = memoryview(data)
        while view:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError
            try:
                view = view[os.write(self._stdin, view) :]
            except BlockingIOError:  # the engine is not reading: wait for room in the pipe
                select.select([], [self._stdin], [], min(remaining, 1.0))

    def request(self, message: dict[str, JSON]) -> dict[str, JSON]:
        """Send one request and wait up to ``timeout`` seconds for the reply line."""
        kind = message["type"]
        if self.validator is not None:
            self.validator.check(str(kind), message)
        deadline = time.monotonic() + self.timeout
        try:
            self._send(bounded.json_line(message), deadline)
        except TimeoutError:
            self.kill()
            msg = f"the engine did not read {kind!r} within {self.timeout:g} s (killed)"
            raise EngineError(msg) from None
        except OSError:
            status = self._wait_briefly()
            msg = f"the engine stopped reading (exit status {status}){self._stderr_said()}"
            raise EngineError(msg) from None
        line = self._reply_line(kind, deadline)
        try:
            reply = bounded.loads(line)
        except (ValueError, RecursionError):  # not JSON, an integer too long, nested too deep
            msg = f"unreadable reply to {kind!r} (not JSON): {_shown(line)}{self._stderr_said()}"
            self.kill()
            raise EngineError(msg) from None
        if not isinstance(reply, dict):
            msg = f"reply to {kind!r} is not a JSON object: {_shown(line)}{self._stderr_said()}"
            raise EngineError(msg)
        if self.validator is not None:
            self.validator.check_reply(str(kind), reply, batched=message.get("requests", ()))
        refuse_error(str(kind), reply)
        return reply

    def _reply_line(self, kind: object, deadline: float) -> bytes:
        open_ = self._pump(deadline)
        line, newline, rest = bytes(self._pending).partition(b"\n")
        if len(line) > MAX_REPLY:
            said = self._stderr_said()
            self.kill()
            msg = f"reply to {kind!r} is longer than {MAX_REPLY} bytes; it begins {_shown(line)}"
            raise EngineError(msg + said)
        if not newline and open_:
            said = self._stderr_said()
            self.kill()
            raise EngineError(f"no reply to {kind!r} within {self.timeout:g} s (killed){said}")
        if not newline:
            status = self._wait_briefly()
            msg = f"the engine exited with status {status} instead of answering {kind!r}"
            raise EngineError(msg + self._stderr_said())
        self._pending = bytearray(rest)
        return line

    def _wait_briefly(self) -> int | None:
        """The exit status of an engine that has usually exited already, or of the killed one."""
        try:
            return self._process.wait(timeout=1)
        except subprocess.TimeoutExpired:
            self.kill()
            return self._process.returncode

    def kill(self) -> None:
        """Kill the engine's whole process group, even when the adapter itself has exited:
        its children may still be running."""
        if not self._group_killed:
            self._group_killed = True
            with contextlib.suppress(ProcessLookupError):  # the group is already empty
                os.killpg(self._process.pid, signal.SIGKILL)
        self._process.wait()
        _LIVE.discard(self)
        for stream in (self._process.stdin, self._process.stdout, self._process.stderr):
            if stream is not None:
                stream.close()
        self._selector.close()

    def close(self) -> None:
        """Say bye, give the engine a moment to exit, then kill what is left of its group."""
        if not self._group_killed and self._process.poll() is None:
            try:
                grace = time.monotonic() + min(self.timeout, 2.0)
                self._send(b'{"type": "bye"}\n', grace)
                assert self._process.stdin is not None
                self._process.stdin.close()
                self._process.wait(timeout=max(grace - time.monotonic(), 0.0))
            except (OSError, TimeoutError, subprocess.TimeoutExpired):
                pass
        self.kill()


def kill_all() -> None:
    """Kill every engine still running, with its process group (the last step of any exit)."""
    for engine in list(_LIVE):
        engine.kill()


def _shown(line: bytes) -> str:
    return repr(printable(line[: SHOWN * 4].decode("utf-8", errors="replace"), limit=SHOWN))


class ReferenceEngine:
    """gaple itself behind the protocol, in process: the suite's self-check.

    It answers ``batch`` requests, but offers them in its hello only when ``batch`` is set
    (as gaple's own adapter does): in process, one request at a time costs nothing more.
    """

    def __init__(self, *, batch: bool = False, rules: Implementation = ENGINE) -> None:
        self._state: State | None = None
        self._batch = batch
        self._rules = rules

    def request(self, message: dict[str, JSON]) -> dict[str, JSON]:
        """Answer as a conforming adapter would."""
        if message.get("type") != "batch":
            return self._answer(message)
        replies = [
            self._answer(r)
            if r.get("type") in BATCHED
            else {"type": "error", "message": f"{r.get('type')!r} cannot be batched"}
            for r in message["requests"]
        ]
        return {"type": "batch", "replies": replies}

    def _answer(self, message: dict[str, JSON]) -> dict[str, JSON]:
        kind = message.get("type")
        if kind == "hello":
            return {
                "type": "hello",
                "protocol": 1,
                "name": "gaple-reference",
                "version": _version(),
                "levels": list(LEVELS),
                "error_codes": True,
                "batch": self._batch,
            }
        if kind == "start":
            try:
                rules = rules_from_json(message["rules"], "$.rules")
                deal = deal_from_json(message["deal"], "$.deal")
                self._state = self._rules.new_hand(rules, deal, message["first_hand"])
            except (FormatError, InvalidDeal) as error:
                return {"type": "unsupported", "reason": str(error)}
            return {"type": "started"}
        state = self._state
        if state is None:
            return {"type": "error", "message": "no hand started"}
        if kind == "state":
            return {"type": "state", **observe(state, self._rules.legal_moves)}
        if kind == "act":
            try:
                move = parse_move(message["move"])
                self._state = self._rules.apply(state, move, message["seat"])
            except IllegalMove as error:
                return {
                    "type": "rejected",
                    "code": error.code,
                    "rule": error.rule_id,
                    "message": error.message,
                }
            except MoveSyntaxError as error:
                return {"type": "rejected", "code": None, "message": str(error)}
            return {"type": "ok"}
        if kind == "result":
            result = self._rules.result(state)
            if result is None:
                return {"type": "error", "message": "the hand has not ended or cannot be scored"}
            return {"type": "result", **result}
        return {"type": "error", "message": f"unknown request type {kind!r}"}

    def close(self) -> None:
        """Nothing to stop."""
        self._state = None


def _version() -> str:
    import importlib.metadata  # noqa: PLC0415 (10 ms to import: only an engine asked needs it)

    return importlib.metadata.version("gaple")


def serve(stdin: IO[str], stdout: IO[str], rules: Implementation = ENGINE) -> int:
    """Run gaple, played by ``rules``, as a protocol v1 adapter on the given streams."""
    engine = ReferenceEngine(batch=True, rules=rules)
    for line in stdin:
        if not line.strip():
            continue
        try:
            message = json.loads(line)
        except json.JSONDecodeError as error:
            reply: dict[str, JSON] = {"type": "error", "message": f"not JSON: {error}"}
        else:
            if isinstance(message, dict) and message.get("type") == "bye":
                return 0
            if isinstance(message, dict):
                reply = engine.request(message)
            else:
                reply = {"type": "error", "message": "a request is a JSON object"}
        stdout.write(json.dumps(reply) + "\n")
        stdout.flush()
    return 0
