"""The rules an engine plays: its **scope**, which every part of the kit measures inside.

A real engine plays one ruleset, not all of Gaple. Its scope is read from one of three places,
by :func:`preset_scope`, :func:`declared_scope` and :func:`skip_scope`:

* a preset exactly, with its defaults (``--variant NAME``), or with options changed
  (``--set OPTION=VALUE``);
* the ``plays`` of the engine's hello: a ``preset`` (every option at that preset's value),
  ``options`` (each listed option plays only the values given, and one not listed plays any
  value, unless a preset fixes it), ``situation`` values and feature tags;
* ``--skip-feature``, the user's: every feature tag but those skipped.

The case selection, the coverage count, the cases made to measure, the verdict, the reports and
the fuzzer all read the same :class:`Scope`: a case lies inside it or not
(:meth:`Scope.outside`), a ruleset too (:meth:`Scope.admits`), and the situation cells that
count are those its rules can reach (:meth:`Scope.within`,
:func:`gaple.conformance.vectors.situations.unreachable_reason`).
"""

from __future__ import annotations

import hashlib
import itertools
import json
from collections.abc import Iterable, Mapping
from typing import Any

from attrs import frozen

from gaple.conformance.vectors.situations import (
    ABSENT,
    FEATURES,
    OPTIONS,
    option_label,
    option_values,
)
from gaple.conformance.vectors.tags import TAGS, case_tags
from gaple.conformance.wire.escape import printable
from gaple.io import FormatError, option_from_json, rules_from_json, rules_to_json
from gaple.presets import PRESETS, UnknownPreset, find_preset
from gaple.reference.deal import turns_up_starter
from gaple.rules import OPTION_NAMES, InvalidRuleset, Ruleset
from gaple.state import check_rules

__all__ = [
    "BadPlays",
    "Scope",
    "canonical",
    "declared_scope",
    "preset_scope",
    "skip_scope",
]

JSON = Any


class BadPlays(ValueError):
    """A ``plays`` (or ``--set``) that does not describe a scope: the message names the field."""


def canonical(value: JSON) -> str:
    """An option's value as the scope keeps it: its JSON text, keys sorted."""
    return json.dumps(value, sort_keys=True)


@frozen
class Scope:
    """A set of rulesets, situations and feature tags: what an engine plays, or what a run
    asks for. What it leaves out, it plays whatever the value."""

    options: dict[str, frozenset[str]]
    """Each option named, and its values as canonical JSON text (:func:`canonical`)."""
    situation: dict[str, frozenset[str]]
    """Each situation feature named, and its values."""
    features: frozenset[str] | None = None
    """The feature tags played, ``None`` for every one: a case with another tag is outside."""
    name: str = ""
    """How the verdict names it: ``pagat-4x7``, ``pagat-4x7 with blocked_action="pass"``,
    ``the declared rules``; empty for a scope of feature tags only (``--skip-feature``)."""
    origin: str = ""
    """Who chose it: ``declared`` (the engine's hello), ``requested`` (``--variant``)."""
    base: str | None = None
    """The preset it starts from, if it names one: what its hands are drawn from."""

    def outside(self, case: Mapping[str, JSON]) -> str | None:
        """Why ``case`` lies outside the scope (its first option or feature value not
        played, or its first tag not played), or ``None`` when it lies inside."""
        why = self.rules_outside(case["rules"])
        if why is not None:
            return why
        situation = case.get("situation", {})
        for name, values in self.situation.items():
            if name in situation and situation[name] not in values:
                return f"situation {name} is {situation[name]}"
        if self.features is not None:
            for tag in case_tags(case):
                if tag not in self.features:
                    return f"feature {tag}"
        return None

    def rules_outside(self, rules: Mapping[str, JSON]) -> str | None:
        """Why a ruleset (JSON form) lies outside the scope: its first option whose value is
        not played; ``None`` when every option's is."""
        for name, values in self.options.items():
            value = canonical(rules.get(name))
            if value not in values:
                return f"option {name} is {value}"
        return None

    def admits(self, rules: Ruleset) -> bool:
        """Whether the scope plays ``rules`` (its options; situations are a hand's)."""
        return self.rules_outside(rules_to_json(rules)) is None

    @property
    def exact(self) -> Ruleset | None:
        """The one ruleset of a scope that fixes every option to one value, else ``None``."""
        if set(self.options) != set(OPTION_NAMES):
            return None
        if any(len(values) != 1 for values in self.options.values()):
            return None
        data = {name: json.loads(next(iter(values))) for name, values in self.options.items()}
        return rules_from_json(data)

    @property
    def preset(self) -> str | None:
        """The preset whose defaults the scope is exactly, else ``None``."""
        rules = self.exact
        return next((p.name for p in PRESETS.values() if p.rules == rules), None)

    def within(self) -> dict[str, frozenset[str]]:
        """What the scope allows of each option label and feature value that the cells are
        counted in (:mod:`gaple.conformance.vectors.situations`): the narrowing the coverage, the
        made-to-measure cases and the fuzzer's aim start from."""
        allowed: dict[str, frozenset[str]] = {}
        rules = self.exact
        if rules is not None:
            allowed = {name: frozenset({label}) for name, label in option_values(rules).items()}
        else:
            for name in OPTIONS:
                labels = self._labels(name)
                if labels is not None:
                    allowed[name] = labels
        if "partnership" not in allowed.get("settlement", {"partnership"}):
            # Without pair scoring its options decide nothing: their other values make no
            # other hand, so their cells are counted at the default alone.
            for name in _PAIR_OPTIONS:
                allowed[name] = frozenset({option_label(name, getattr(Ruleset(), name))})
        for name, values in self.situation.items():
            allowed[name] = values.union({ABSENT})
        return allowed

    def _labels(self, name: str) -> frozenset[str] | None:
        """The labels of option ``name`` the scope's values take; ``None`` when it plays any."""
        if name == "has_starter":
            return self._starters()
        if name not in self.options:
            return None
        return frozenset(
            option_label(name, option_from_json(name, json.loads(text)))
            for text in self.options[name]
        )

    def _starters(self) -> frozenset[str] | None:
        """Whether the scope's deal sizes turn up a starter: decided when it lists them."""
        sizes = _SIZES
        if not all(name in self.options for name in sizes):
            return None
        labels = set()
        for values in itertools.product(*(sorted(self.options[name]) for name in sizes)):
            data = {name: json.loads(text) for name, text in zip(sizes, values, strict=True)}
            try:
                rules = Ruleset(**data)
                check_rules(rules)
            except InvalidRuleset:
                continue
            labels.add(option_label("has_starter", turns_up_starter(rules)))
        return frozenset(labels)

    def draws(self) -> tuple[list[str], dict[str, JSON], dict[str, list[Any]]]:
        """What hands inside the scope are drawn from
        (:func:`~gaple.conformance.vectors.drawing.draw_hand`): the presets (its own, else each
        whose deal sizes it plays), the options it fixes (JSON form), and each option it plays
        several values of, with those values.
        """
        fixed = {name: json.loads(next(iter(v))) for name, v in self.options.items() if len(v) == 1}
        allowed = {
            name: [option_from_json(name, json.loads(text)) for text in sorted(values)]
            for name, values in self.options.items()
            if len(values) > 1
        }
        if self.base is not None:
            return [self.base], fixed, allowed
        # Deal sizes are never drawn: a preset whose sizes the scope does not play is left out.
        names = [
            preset.name
            for preset in PRESETS.values()
            if all(getattr(preset.rules, n) in allowed[n] for n in _SIZES if n in allowed)
        ]
        return names, fixed, allowed

    @property
    def key(self) -> str:
        """A digest of what the scope holds (its cases made to measure are cached by it)."""
        data = {
            "options": {name: sorted(values) for name, values in sorted(self.options.items())},
            "situation": {name: sorted(values) for name, values in sorted(self.situation.items())},
            "features": None if self.features is None else sorted(self.features),
        }
        return hashlib.sha256(canonical(data).encode()).hexdigest()[:16]

    def label(self) -> str:
        """``pagat-4x7 (declared)``: the name and who chose it."""
        return f"{self.name} ({self.origin})" if self.origin else self.name


_PAIR_OPTIONS = (
    "closing_any_double",
    "top_double_bonus",
    "blank_double_bonus",
    "dead_double_debit",
    "challenge_tie",
    "challenge_win_base",
    "challenge_loss_base",
)
"""The options of the cells that only the pair scoring (settlement ``partnership``) reads."""

_SIZES = ("max_pip", "players", "hand_size")
"""The options that size the deal: the presets', never drawn."""


def preset_scope(
    name: str, overrides: Mapping[str, JSON] | None = None, *, origin: str = "requested"
) -> Scope:
    """Exactly preset ``name``'s rules, with ``overrides`` (options in JSON form) changed.

    Raises:
        UnknownPreset: no preset has that name.
        BadPlays: the overrides make no valid ruleset.
    """
    preset = find_preset(name)
    changed = dict(overrides or {})
    try:
        rules = rules_from_json({**rules_to_json(preset.rules), **changed})
    except FormatError as error:
        raise BadPlays(str(error)) from None
    return Scope(
        options={key: frozenset({canonical(v)}) for key, v in rules_to_json(rules).items()},
        situation={},
        name=_named(preset.name, {key: {canonical(v)} for key, v in changed.items()}),
        origin=origin,
        base=preset.name,
    )


def _named(preset: str, changed: Mapping[str, Iterable[str]]) -> str:
    """``pagat-4x7 with blocked_action=discard|pass``: a preset and the options changed (a
    name and its values, canonical JSON, a string bare)."""
    shown = [
        f"{key}=" + "|".join(sorted(_bare(value) for value in values))
        for key, values in sorted(changed.items())
    ]
    return preset + (f" with {', '.join(shown)}" if shown else "")


def _bare(value: str) -> str:
    loaded = json.loads(value)
    return loaded if isinstance(loaded, str) else value


def skip_scope(skipped: Iterable[str]) -> Scope:
    """Every feature tag but those ``skipped`` (``--skip-feature``; known tags)."""
    known = frozenset(tag.name for tag in TAGS)
    return Scope(options={}, situation={}, features=known.difference(skipped))


def declared_scope(plays: JSON) -> Scope:
    """The ``plays`` of a hello: optionally a ``preset`` (every option at its value), then
    ``options`` and ``situation``, each mapping a name (an option of the rules, a situation
    feature) to the list of values it plays, and ``features``, the feature tags it plays.

    Raises:
        BadPlays: the field is not of that shape, or names an unknown preset, option, feature,
            feature value or tag.
    """
    parts = {"preset", "options", "situation", "features"}
    if not isinstance(plays, dict) or not parts.issuperset(plays):
        msg = (
            "hello 'plays' must be an object with 'preset', 'options', 'situation' and/or "
            "'features'"
        )
        raise BadPlays(msg)
    options, situation = plays.get("options", {}), plays.get("situation", {})
    # Values kept as tuples: a list or object in a hello is compared, never hashed.
    known = {feature.name: feature.values for feature in FEATURES}
    for field_name, table, names in (
        ("options", options, set(OPTION_NAMES)),
        ("situation", situation, set(known)),
    ):
        if not isinstance(table, dict) or not all(isinstance(v, list) for v in table.values()):
            msg = f"hello 'plays.{field_name}' must map each name to a list of values"
            raise BadPlays(msg)
        unknown = sorted(set(table).difference(names))
        if unknown:
            names_shown = printable(", ".join(map(str, unknown)), limit=80)
            msg = f"hello 'plays.{field_name}' names unknown {names_shown}"
            raise BadPlays(msg)
    for name, values in situation.items():
        strange = [v for v in values if v not in known[name]]
        if strange:
            shown = printable(json.dumps(strange), limit=80)
            msg = f"hello 'plays.situation.{name}' holds unknown values {shown}"
            raise BadPlays(msg)
    for name, values in options.items():
        for number, value in enumerate(values):
            try:
                option_from_json(name, value, f"hello 'plays.options.{name}[{number}]'")
            except FormatError as error:
                raise BadPlays(printable(str(error), limit=200)) from None
    played = {name: frozenset(map(canonical, values)) for name, values in options.items()}
    name, base = "the declared rules", None
    if "preset" in plays:
        base = _preset(plays["preset"])
        fixed = {key: frozenset({canonical(v)}) for key, v in rules_to_json(base.rules).items()}
        played = {**fixed, **played}
        name = _named(base.name, {k: v for k, v in played.items() if v != fixed[k]})
    return Scope(
        options=played,
        situation={name: frozenset(values) for name, values in situation.items()},
        features=_tags(plays["features"]) if "features" in plays else None,
        name=name,
        origin="declared",
        base=None if base is None else base.name,
    )


def _preset(name: JSON) -> Any:
    if not isinstance(name, str):
        msg = "hello 'plays.preset' must be a preset's name"
        raise BadPlays(msg)
    try:
        return find_preset(name)
    except UnknownPreset:
        shown = printable(name, limit=80)
        msg = f"hello 'plays.preset' names unknown {shown}; the presets are {', '.join(PRESETS)}"
        raise BadPlays(msg) from None


def _tags(features: JSON) -> frozenset[str]:
    """The ``plays.features`` of a hello: a list of known tags.

    Raises:
        BadPlays: it is not a list of known tags.
    """
    if not isinstance(features, list):
        msg = "hello 'plays.features' must be a list of feature tags"
        raise BadPlays(msg)
    strange = [tag for tag in features if tag not in [known.name for known in TAGS]]
    if strange:
        shown = printable(json.dumps(strange), limit=80)
        msg = f"hello 'plays.features' holds unknown tags {shown}"
        raise BadPlays(msg)
    return frozenset(features)
