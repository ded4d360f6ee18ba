"""Talking to an implementation: over protocol v1 as a subprocess, or to gaple in process.

An :class:`Engine` takes one request (a JSON object) and returns the one reply. The
:class:`SubprocessEngine` runs an adapter command and exchanges newline-delimited JSON with it,
with a timeout per reply; a crash, a hang or an unreadable reply raises :class:`EngineError`
(the runner then restarts the engine). The :class:`ReferenceEngine` answers from the spec
itself, in process, for self-checks and timing.
"""

from __future__ import annotations

import collections
import importlib
import importlib.metadata
import json
import os
import queue
import signal
import subprocess
import threading
from typing import IO, Any, Protocol

from gaple.conformance.cases import LEVELS, observe, result_json
from gaple.conformance.schemas import PROTOCOL_SCHEMAS, REPLY_TO
from gaple.deal import InvalidDeal
from gaple.io import FormatError, deal_from_json, rules_from_json
from gaple.state import IllegalMove, MoveSyntaxError, State, apply, new_hand, parse_move

__all__ = [
    "Engine",
    "EngineError",
    "ReferenceEngine",
    "SubprocessEngine",
    "Validator",
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
            msg = "--validate needs the jsonschema package (pip install jsonschema)"
            raise EngineError(msg) from None
        self._validators = {
            name: jsonschema.Draft202012Validator(schema)
            for name, schema in PROTOCOL_SCHEMAS.items()
        }

    def check(self, name: str, message: JSON) -> None:
        """Raise :class:`EngineError` naming the JSON path of the first problem."""
        errors = sorted(self._validators[name].iter_errors(message), key=lambda e: list(e.path))
        if errors:
            error = errors[0]
            path = "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.path)
            msg = f"{name} message does not match protocol/{name}.schema.json at {path}: "
            raise EngineError(msg + error.message)

    def check_reply(self, request: str, reply: JSON) -> None:
        """Check a reply against the schemas of the replies allowed for ``request``."""
        kind = reply.get("type") if isinstance(reply, dict) else None
        names = REPLY_TO[request]
        name = next((n for n in names if n in (kind, f"{kind}-reply")), None)
        if name is None:
            msg = f"reply of type {kind!r} to {request!r}; expected one of {', '.join(names)}"
            raise EngineError(msg)
        self.check(name, reply)


class SubprocessEngine:
    """An adapter command driven over stdin/stdout, one JSON object per line."""

    def __init__(
        self, command: str, *, timeout: float = 10.0, validator: Validator | None = None
    ) -> None:
        self.command = command
        self.timeout = timeout
        self.validator = validator
        try:
            self._process = subprocess.Popen(
                command,
                shell=True,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                encoding="utf-8",
                errors="replace",
                bufsize=1,
                start_new_session=True,
            )
        except OSError as error:
            msg = f"cannot start {command!r}: {error}"
            raise EngineError(msg) from None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._stderr: collections.deque[str] = collections.deque(maxlen=5)
        assert self._process.stdout is not None
        assert self._process.stderr is not None
        self._reader(self._process.stdout, self._lines.put)
        self._reader(self._process.stderr, self._stderr.append)

    @staticmethod
    def _reader(stream: IO[str], sink: Any) -> None:
        def pump() -> None:
            for line in stream:
                sink(line.rstrip("\n"))
            sink(None)

        threading.Thread(target=pump, daemon=True).start()

    def _stderr_tail(self) -> str:
        lines = [line for line in self._stderr if line]
        return f"; its stderr ends: {' | '.join(lines)}" if lines else ""

    def request(self, message: dict[str, JSON]) -> dict[str, JSON]:
        """Send one request and wait up to ``timeout`` seconds for the reply line."""
        if self.validator is not None:
            self.validator.check(str(message["type"]), message)
        stdin = self._process.stdin
        assert stdin is not None
        try:
            stdin.write(json.dumps(message) + "\n")
            stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            try:  # it has usually exited already: give it a moment to report its status
                status = self._process.wait(timeout=1)
            except subprocess.TimeoutExpired:
                self.kill()
                status = self._process.returncode
            msg = f"the engine stopped reading (exit status {status}){self._stderr_tail()}"
            raise EngineError(msg) from None
        try:
            line = self._lines.get(timeout=self.timeout)
        except queue.Empty:
            self.kill()
            msg = f"no reply to {message['type']!r} within {self.timeout:g} s (killed)"
            raise EngineError(msg) from None
        if line is None:
            status = self._process.wait()
            msg = f"the engine exited with status {status} instead of answering {message['type']!r}"
            raise EngineError(msg + self._stderr_tail())
        try:
            reply = json.loads(line)
        except json.JSONDecodeError:
            self.kill()
            msg = f"unreadable reply to {message['type']!r} (not JSON): {line[:120]!r}"
            raise EngineError(msg) from None
        if not isinstance(reply, dict):
            msg = f"reply to {message['type']!r} is not a JSON object: {line[:120]!r}"
            raise EngineError(msg)
        if self.validator is not None:
            self.validator.check_reply(str(message["type"]), reply)
        if reply.get("type") == "error":
            msg = f"the engine answered {message['type']!r} with an error: {reply.get('message')}"
            raise EngineError(msg)
        return reply

    def kill(self) -> None:
        """Kill the engine's whole process group."""
        if self._process.poll() is None:
            try:
                os.killpg(self._process.pid, signal.SIGKILL)
            except OSError:
                self._process.kill()
            self._process.wait()

    def close(self) -> None:
        """Say bye, give the engine a moment to exit, then kill it."""
        if self._process.poll() is None:
            try:
                assert self._process.stdin is not None
                self._process.stdin.write(json.dumps({"type": "bye"}) + "\n")
                self._process.stdin.close()
                self._process.wait(timeout=min(self.timeout, 2.0))
            except (OSError, ValueError, subprocess.TimeoutExpired):
                pass
        self.kill()


class ReferenceEngine:
    """gaple itself behind the protocol, in process: the suite's self-check."""

    def __init__(self) -> None:
        self._state: State | None = None

    def request(self, message: dict[str, JSON]) -> dict[str, JSON]:
        """Answer as a conforming adapter would."""
        kind = message.get("type")
        if kind == "hello":
            return {
                "type": "hello",
                "protocol": 1,
                "name": "gaple-reference",
                "version": _version(),
                "levels": list(LEVELS),
                "error_codes": True,
            }
        if kind == "start":
            try:
                rules = rules_from_json(message["rules"], "$.rules")
                deal = deal_from_json(message["deal"], "$.deal")
                self._state = new_hand(rules, deal, first_hand=message["first_hand"])
            except (FormatError, InvalidDeal) as error:
                return {"type": "unsupported", "reason": str(error)}
            return {"type": "started"}
        state = self._state
        if state is None:
            return {"type": "error", "message": "no hand started"}
        if kind == "state":
            return {"type": "state", **observe(state)}
        if kind == "act":
            try:
                self._state = apply(state, parse_move(message["move"]), message["seat"])
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
            result = result_json(state)
            if result is None:
                return {"type": "error", "message": "the hand has not ended or cannot be scored"}
            return {"type": "result", **result}
        return {"type": "error", "message": f"unknown request type {kind!r}"}

    def close(self) -> None:
        """Nothing to stop."""
        self._state = None


def _version() -> str:
    return importlib.metadata.version("gaple")


def serve(stdin: IO[str], stdout: IO[str]) -> int:
    """Run the reference engine as a protocol v1 adapter on the given streams."""
    engine = ReferenceEngine()
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
