"""gaple: the executable rules specification of Gaple, the Indonesian block dominoes game.

The core reads like the game: :mod:`gaple.tiles` (tiles and sets), :mod:`gaple.rules` (options),
:mod:`gaple.presets` (named variants), :mod:`gaple.registry` (rule IDs), :mod:`gaple.deal`
(deals), :mod:`gaple.state` (the hand as a state machine).
"""

from gaple.deal import Deal, InvalidDeal, shuffle_deal
from gaple.presets import PRESETS, find_preset, ruleset
from gaple.registry import RULES
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
    "IllegalMove",
    "InvalidDeal",
    "InvalidRuleset",
    "Lead",
    "LeadRule",
    "Move",
    "Pass",
    "Place",
    "Ruleset",
    "Settlement",
    "State",
    "Tile",
    "apply",
    "find_preset",
    "is_legal",
    "legal_moves",
    "new_hand",
    "parse_tiles",
    "replay",
    "ruleset",
    "shuffle_deal",
    "tile_set",
    "to_act",
    "verify",
]

__version__ = "0.1.0"
