"""gaple: the executable rules specification of Gaple, the Indonesian block dominoes game.

The core reads like the game: :mod:`gaple.tiles` (tiles and sets), :mod:`gaple.rules` (options),
:mod:`gaple.presets` (named variants), :mod:`gaple.registry` (rule IDs), :mod:`gaple.deal`
(deals), :mod:`gaple.state` (the hand as a state machine), :mod:`gaple.result` (counting,
the winner and points) and :mod:`gaple.match` (series of hands). Above the core sit
:mod:`gaple.io` (JSON forms), :mod:`gaple.render` (pictures), :mod:`gaple.conformance` (vectors,
checker, runner, fuzzer) and :mod:`gaple.cli`; the core never imports them.
"""

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
