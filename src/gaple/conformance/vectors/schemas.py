"""JSON Schemas (draft 2020-12) of cases, transcripts and protocol messages.

They are written here as data and emitted to ``spec/schema/`` and ``spec/protocol/`` by
``gaple vectors build``, so the committed files and the schemas the runner validates against
are the same by construction (``gaple vectors check`` compares them).
"""

from __future__ import annotations

import enum
from typing import Any

import attrs

from gaple.conformance.vectors.cases import (
    EXPECTATIONS_FORMAT,
    EXPECTATIONS_VERSION,
    EXPECTED,
    LEVELS,
)
from gaple.conformance.vectors.tags import TAGS
from gaple.registry import RULES
from gaple.rules import Ruleset
from gaple.state import ERROR_CODES, MOVE_TEXT
from gaple.tiles import TILE_TEXT

__all__ = [
    "BATCHED",
    "PROTOCOL_SCHEMAS",
    "REPLY_TO",
    "SCHEMAS",
    "case_schema",
    "expectations_schema",
    "transcript_schema",
]

DRAFT = "https://json-schema.org/draft/2020-12/schema"
BASE = "urn:gaple:spec:v1:"

JSON = dict[str, Any]

_NAT: JSON = {"type": "integer", "minimum": 0}
# The patterns are the readers' grammar itself: a form the schemas refuse, no reader takes.
_TILE: JSON = {"type": "string", "pattern": f"^{TILE_TEXT}$"}
_MOVE: JSON = {"type": "string", "pattern": f"^(?:{MOVE_TEXT})$"}
_SEAT: JSON = _NAT
_LEVEL: JSON = {"enum": list(LEVELS)}
_CODE: JSON = {"enum": sorted(ERROR_CODES)}
_RULE_ID: JSON = {"enum": sorted(RULES)}
"""A rule ID of :mod:`gaple.registry`: an enum, so ``--validate`` catches a misspelt one."""


def _option_schema(default: object) -> JSON:
    if isinstance(default, enum.Enum):
        return {"enum": [member.value for member in type(default)]}
    if isinstance(default, frozenset):
        return {"type": "array", "items": _TILE, "uniqueItems": True}
    if isinstance(default, bool):
        return {"type": "boolean"}
    if default is None:
        return {"type": ["integer", "null"], "minimum": 1}
    return {"type": "integer"}


def _rules() -> JSON:
    fields = attrs.fields(Ruleset)
    return {
        "type": "object",
        "description": "Every option of gaple.rules.Ruleset (gaple.io.rules_to_json).",
        "properties": {f.name: _option_schema(f.default) for f in fields},
        "required": [f.name for f in fields],
        "additionalProperties": False,
    }


def _deal() -> JSON:
    return {
        "type": "object",
        "properties": {
            "hands": {"type": "array", "minItems": 2, "items": {"type": "array", "items": _TILE}},
            "starter": {"oneOf": [_TILE, {"type": "null"}]},
            "set_aside": {"type": "array", "items": _TILE},
            "first_seat": _SEAT,
        },
        "required": ["hands", "starter", "set_aside", "first_seat"],
        "additionalProperties": False,
    }


def _observation() -> JSON:
    pair = {"type": "array", "items": _NAT, "minItems": 2, "maxItems": 2}
    return {
        "type": "object",
        "properties": {
            "to_act": {"oneOf": [_SEAT, {"type": "null"}]},
            "line": {"type": "array", "items": pair},
            "ends": {"oneOf": [pair, {"type": "null"}]},
            "legal": {"type": "array", "items": _MOVE},
            "hand_sizes": {"type": "array", "items": _NAT},
            "discard_counts": {"type": "array", "items": _NAT},
            "ending": {"enum": [None, "out", "blocked"]},
        },
        "required": ["to_act", "line", "ends", "legal", "hand_sizes", "discard_counts", "ending"],
        "additionalProperties": False,
    }


def _result() -> JSON:
    return {
        "type": "object",
        "properties": {
            "counts": {"type": "array", "items": _NAT},
            "winner": {"oneOf": [_SEAT, {"type": "null"}]},
            "winning_team": {"oneOf": [_NAT, {"type": "null"}]},
            "points": {"type": "array", "items": {"type": "integer"}},
            "replay": {"type": "boolean"},
            "rules": {"type": "array", "items": _RULE_ID, "uniqueItems": True},
        },
        "required": ["counts", "winner", "winning_team", "points", "replay", "rules"],
        "additionalProperties": False,
    }


def _action() -> JSON:
    return {
        "type": "object",
        "properties": {"seat": _SEAT, "move": _MOVE},
        "required": ["seat", "move"],
        "additionalProperties": False,
    }


def case_schema() -> JSON:
    """The schema of one conformance case (``spec/vectors/v1/<topic>/<id>.json``)."""
    step = {
        "type": "object",
        "properties": {
            "action": {"$ref": "#/$defs/action"},
            "expect": {"$ref": "#/$defs/observation"},
            "error": {
                "type": "object",
                "properties": {"code": _CODE, "rule": _RULE_ID},
                "required": ["code", "rule"],
                "additionalProperties": False,
            },
        },
        "required": ["action"],
        "oneOf": [{"required": ["expect"]}, {"required": ["error"]}],
        "additionalProperties": False,
    }
    return {
        "$schema": DRAFT,
        "$id": BASE + "case",
        "title": "gaple conformance case",
        "type": "object",
        "properties": {
            "format": {"const": 1},
            "id": {"type": "string", "pattern": r"^[a-z0-9][a-z0-9-]*$"},
            "topic": {"type": "string", "pattern": r"^[a-z0-9][a-z0-9/-]*$"},
            "description": {"type": "string", "minLength": 1},
            "rule_ids": {"type": "array", "items": _RULE_ID, "minItems": 1, "uniqueItems": True},
            "levels": {"type": "array", "items": _LEVEL, "minItems": 1, "uniqueItems": True},
            "variant": {
                "type": "object",
                "properties": {"preset": {"type": "string"}, "overrides": {"type": "object"}},
                "required": ["preset", "overrides"],
                "additionalProperties": False,
            },
            "rules": {"$ref": "#/$defs/rules"},
            "deal": {"$ref": "#/$defs/deal"},
            "first_hand": {"type": "boolean"},
            "initial": {"$ref": "#/$defs/observation"},
            "steps": {"type": "array", "items": step},
            "result": {"oneOf": [{"$ref": "#/$defs/result"}, {"type": "null"}]},
            "situation": {
                "description": "The value of each situation feature the hand reached "
                "(gaple.conformance.vectors.situations); informative, never sent to an engine.",
                "type": "object",
                "additionalProperties": {"type": "string"},
            },
            "features": {
                "description": "The case's feature tags (gaple.conformance.vectors.tags), "
                "derived from "
                "its rules and situation; informative, never sent to an engine.",
                "type": "array",
                "items": {"enum": [tag.name for tag in TAGS]},
                "uniqueItems": True,
            },
            "pins": {
                "description": "The coverage cells this case was chosen to reach.",
                "type": "array",
                "items": {"type": "string"},
                "uniqueItems": True,
            },
        },
        "required": [
            "format",
            "id",
            "topic",
            "description",
            "rule_ids",
            "levels",
            "variant",
            "rules",
            "deal",
            "first_hand",
            "initial",
            "steps",
            "result",
        ],
        "additionalProperties": False,
        "$defs": {
            "rules": _rules(),
            "deal": _deal(),
            "action": _action(),
            "observation": _observation(),
            "result": _result(),
        },
    }


def transcript_schema() -> JSON:
    """The schema of a transcript for ``gaple check`` (the form of gaple.io.state_to_json,
    with optional ``offered`` moves per action and at the end, and a claimed ``result``)."""
    pair = {"type": "array", "items": _NAT, "minItems": 2, "maxItems": 2}
    tiles = {"type": "array", "items": {"type": "array", "items": _TILE}}
    action = _action()
    return {
        "$schema": DRAFT,
        "$id": BASE + "transcript",
        "title": "gaple hand transcript",
        "type": "object",
        "properties": {
            "format": {"const": 1},
            "rules": {"type": "object"},
            "deal": {"$ref": "#/$defs/deal"},
            "first_hand": {"type": "boolean"},
            "actions": {"type": "array", "items": {"$ref": "#/$defs/action"}},
            "offered": {
                "description": "The moves the engine offered after the last action (none once "
                "the hand has ended).",
                "$ref": "#/$defs/offered",
            },
            "to_act": {"oneOf": [_SEAT, {"type": "null"}]},
            "line": {"type": "array", "items": pair},
            "ends": {"oneOf": [pair, {"type": "null"}]},
            "hands": tiles,
            "discards": tiles,
            "ending": {"enum": [None, "out", "blocked"]},
            "result": {"$ref": "#/$defs/result"},
        },
        "required": ["rules", "deal", "actions"],
        "$defs": {
            "deal": {**_deal(), "required": ["hands"]},
            "action": {
                **action,
                "properties": {
                    **action["properties"],
                    "offered": {
                        "description": "The moves the engine offered (its legal moves) before "
                        "this action; compared with the spec's as a set.",
                        "$ref": "#/$defs/offered",
                    },
                },
            },
            "offered": {"type": "array", "items": _MOVE},
            "result": {**_result(), "required": []},
        },
    }


BATCHED = ("start", "state", "act", "result")
"""The requests a ``batch`` may carry (never ``hello``, ``bye`` or another batch)."""


def _message(name: str, properties: JSON, required: list[str], *, extra: bool = False) -> JSON:
    return {
        "$schema": DRAFT,
        "$id": BASE + "protocol:" + name,
        "title": f"protocol v1 message: {name}",
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": extra,
        "$defs": {"rules": _rules(), "deal": _deal()},
    }


def expectations_schema() -> JSON:
    """The schema of an expectations file (``gaple conformance run --expectations``)."""
    return {
        "$schema": DRAFT,
        "$id": BASE + "expectations",
        "title": "gaple conformance expectations",
        "description": "The known divergences of an engine: per case ID, how the case is "
        "expected to end when it does not pass, and why (gaple.conformance.runner.expectations).",
        "type": "object",
        "properties": {
            "format": {"const": EXPECTATIONS_FORMAT},
            "version": {"const": EXPECTATIONS_VERSION},
            "cases": {
                "type": "object",
                "propertyNames": {"pattern": r"^[a-z0-9][a-z0-9-]*$"},
                "additionalProperties": {
                    "type": "object",
                    "properties": {
                        "status": {"enum": list(EXPECTED)},
                        "reason": {"type": "string"},
                    },
                    "required": ["status", "reason"],
                    "additionalProperties": False,
                },
            },
        },
        "required": ["format", "version", "cases"],
        "additionalProperties": False,
    }


def _protocol() -> dict[str, JSON]:
    rules = {"$ref": "#/$defs/rules"}
    observation = _observation()["properties"]
    result = _result()["properties"]
    return {
        "hello": _message(
            "hello", {"type": {"const": "hello"}, "protocol": {"const": 1}}, ["type", "protocol"]
        ),
        "hello-reply": _message(
            "hello-reply",
            {
                "type": {"const": "hello"},
                "protocol": {"const": 1},
                "name": {"type": "string"},
                "version": {"type": "string"},
                "levels": {"type": "array", "items": _LEVEL, "uniqueItems": True},
                "error_codes": {"type": "boolean"},
                "batch": {"type": "boolean"},
                "plays": {
                    "type": "object",
                    "properties": {
                        "preset": {"type": "string"},
                        "options": {"type": "object", "additionalProperties": {"type": "array"}},
                        "situation": {
                            "type": "object",
                            "additionalProperties": {
                                "type": "array",
                                "items": {"type": "string"},
                            },
                        },
                        "features": {"type": "array", "items": {"type": "string"}},
                    },
                    "additionalProperties": False,
                },
            },
            ["type", "protocol", "name", "levels", "error_codes"],
            extra=True,
        ),
        "start": _message(
            "start",
            {
                "type": {"const": "start"},
                "case": {"type": "string"},
                "rules": rules,
                "deal": {"$ref": "#/$defs/deal"},
                "first_hand": {"type": "boolean"},
            },
            ["type", "case", "rules", "deal", "first_hand"],
        ),
        "started": _message("started", {"type": {"const": "started"}}, ["type"]),
        "unsupported": _message(
            "unsupported",
            {"type": {"const": "unsupported"}, "reason": {"type": "string"}},
            ["type", "reason"],
        ),
        "state": _message("state", {"type": {"const": "state"}}, ["type"]),
        "state-reply": _message(
            "state-reply",
            {"type": {"const": "state"}, **observation},
            ["type", *observation],
        ),
        "act": _message(
            "act",
            {"type": {"const": "act"}, "seat": _SEAT, "move": _MOVE},
            ["type", "seat", "move"],
        ),
        "ok": _message("ok", {"type": {"const": "ok"}}, ["type"]),
        "rejected": _message(
            "rejected",
            {
                "type": {"const": "rejected"},
                "code": {"oneOf": [_CODE, {"type": "null"}]},
                "rule": _RULE_ID,
                "message": {"type": "string"},
            },
            ["type", "code"],
        ),
        "result": _message("result", {"type": {"const": "result"}}, ["type"]),
        "result-reply": _message(
            "result-reply",
            {"type": {"const": "result"}, **result},
            ["type", *(name for name in result if name != "rules")],
        ),
        # The envelope only: each request and reply inside is checked against its own schema.
        "batch": _message(
            "batch",
            {
                "type": {"const": "batch"},
                "requests": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {"type": {"enum": list(BATCHED)}},
                        "required": ["type"],
                    },
                },
            },
            ["type", "requests"],
        ),
        "batch-reply": _message(
            "batch-reply",
            {
                "type": {"const": "batch"},
                "replies": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {"type": {"type": "string"}},
                        "required": ["type"],
                    },
                },
            },
            ["type", "replies"],
        ),
        "bye": _message("bye", {"type": {"const": "bye"}}, ["type"]),
        "error": _message(
            "error",
            {"type": {"const": "error"}, "message": {"type": "string"}},
            ["type", "message"],
        ),
    }


PROTOCOL_SCHEMAS: dict[str, JSON] = _protocol()
"""Every protocol message by name: requests under their type, replies as ``<type>-reply`` or
under their own type (``started``, ``ok``...)."""

REPLY_TO: dict[str, tuple[str, ...]] = {
    "hello": ("hello-reply", "error"),
    "start": ("started", "unsupported", "error"),
    "state": ("state-reply", "error"),
    "act": ("ok", "rejected", "error"),
    "result": ("result-reply", "error"),
    "batch": ("batch-reply", "error"),
}
"""For each request type, the messages that may answer it."""

SCHEMAS: dict[str, JSON] = {
    "schema/case.schema.json": case_schema(),
    "schema/transcript.schema.json": transcript_schema(),
    "schema/expectations.schema.json": expectations_schema(),
    **{f"protocol/{name}.schema.json": schema for name, schema in PROTOCOL_SCHEMAS.items()},
}
"""Every schema by its path under ``spec/``."""
