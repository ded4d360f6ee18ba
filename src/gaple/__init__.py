"""gaple: the executable rules specification of Gaple, the Indonesian block dominoes game.

The core reads like the game: :mod:`gaple.tiles` (tiles and sets), :mod:`gaple.rules` (options),
:mod:`gaple.presets` (named variants), :mod:`gaple.registry` (rule IDs), :mod:`gaple.deal`
(deals), :mod:`gaple.state` (the hand as a state machine), :mod:`gaple.result` (counting,
the winner and points) and :mod:`gaple.match` (series of hands). Above the core sit
:mod:`gaple.io` (JSON forms), :mod:`gaple.render` (pictures), :mod:`gaple.conformance` (vectors,
checker, runner, fuzzer) and :mod:`gaple.cli`; the core never imports them.

The names below are imported from their modules when first used (``__getattr__``, PEP 562), so that
``import gaple`` costs nothing until then: the command line holds SIGINT and SIGTERM from its
first millisecond (:mod:`gaple.cli.signals`), not after the whole core is imported.
"""

TYPE_CHECKING = False
if TYPE_CHECKING:  # what type checkers and readers see: every name and its module
    from gaple.deal import Deal, InvalidDeal, shuffle_deal
    from gaple.match import MatchState, play_match, record_hand, start_match, start_next_hand
    from gaple.presets import PRESETS, find_preset, ruleset
    from gaple.registry import RULES
    from gaple.result import HandResult, hand_result, score_position
    from gaple.rules import BlockedAction, InvalidRuleset, LeadRule, Ruleset, Settlement
    from gaple.state import (
        Action,
        Discard,
        End,
        Ending,
        IllegalMove,
        Lead,
        Move,
        Pass,
        Place,
        State,
        apply,
        is_legal,
        legal_moves,
        new_hand,
        replay,
        to_act,
        verify,
    )
    from gaple.tiles import Tile, parse_tiles, tile_set

__all__ = [
    "PRESETS",
    "RULES",
    "Action",
    "BlockedAction",
    "Deal",
    "Discard",
    "End",
    "Ending",
    "HandResult",
    "IllegalMove",
    "InvalidDeal",
    "InvalidRuleset",
    "Lead",
    "LeadRule",
    "MatchState",
    "Move",
    "Pass",
    "Place",
    "Ruleset",
    "Settlement",
    "State",
    "Tile",
    "apply",
    "find_preset",
    "hand_result",
    "is_legal",
    "legal_moves",
    "new_hand",
    "parse_tiles",
    "play_match",
    "record_hand",
    "replay",
    "ruleset",
    "score_position",
    "shuffle_deal",
    "start_match",
    "start_next_hand",
    "tile_set",
    "to_act",
    "verify",
]

__version__ = "0.1.0"

_HOMES = {
    "PRESETS": "gaple.presets",
    "RULES": "gaple.registry",
    "Action": "gaple.state",
    "BlockedAction": "gaple.rules",
    "Deal": "gaple.deal",
    "Discard": "gaple.state",
    "End": "gaple.state",
    "Ending": "gaple.state",
    "HandResult": "gaple.result",
    "IllegalMove": "gaple.state",
    "InvalidDeal": "gaple.deal",
    "InvalidRuleset": "gaple.rules",
    "Lead": "gaple.state",
    "LeadRule": "gaple.rules",
    "MatchState": "gaple.match",
    "Move": "gaple.state",
    "Pass": "gaple.state",
    "Place": "gaple.state",
    "Ruleset": "gaple.rules",
    "Settlement": "gaple.rules",
    "State": "gaple.state",
    "Tile": "gaple.tiles",
    "apply": "gaple.state",
    "find_preset": "gaple.presets",
    "hand_result": "gaple.result",
    "is_legal": "gaple.state",
    "legal_moves": "gaple.state",
    "new_hand": "gaple.state",
    "parse_tiles": "gaple.tiles",
    "play_match": "gaple.match",
    "record_hand": "gaple.match",
    "replay": "gaple.state",
    "ruleset": "gaple.presets",
    "score_position": "gaple.result",
    "shuffle_deal": "gaple.deal",
    "start_match": "gaple.match",
    "start_next_hand": "gaple.match",
    "tile_set": "gaple.tiles",
    "to_act": "gaple.state",
    "verify": "gaple.state",
}
"""The module of each name of :data:`__all__`."""


def __getattr__(name: str) -> object:
    """A name of :data:`__all__`, imported from its module on first use (PEP 562).

    Raises:
        AttributeError: ``gaple`` has no such name.
    """
    if name not in _HOMES:
        msg = f"module 'gaple' has no attribute {name!r}"
        raise AttributeError(msg)
    import importlib  # noqa: PLC0415  # only when a name is first used

    value: object = getattr(importlib.import_module(_HOMES[name]), name)
    globals()[name] = value  # found directly from now on
    return value


def __dir__() -> list[str]:
    """The module's names with those of :data:`__all__` not yet imported."""
    return sorted({*globals(), *__all__})
