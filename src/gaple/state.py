"""The hand's API: a hand as an immutable state machine, from the deal to its end.

A :class:`State` is a frozen value. :func:`apply` takes a state and a move and returns the next
state, or raises :class:`IllegalMove` naming the error code and the rule broken; nothing is ever
modified in place, so every earlier state stays valid. The types are the hand's plain data
(:mod:`gaple.hand`); the functions are the fast engine's (:mod:`gaple.engine.play`), proven
equal to the rules as written for reading (:mod:`gaple.reference`).

>>> from gaple.presets import ruleset
>>> from gaple.deal import shuffle_deal
>>> from gaple.tiles import Tile
>>> rules = ruleset("pagat-4x7")
>>> state = new_hand(rules, shuffle_deal(rules, seed=7))
>>> legal_moves(state)      # the holder of 0-0 must lead it (open.double-blank)
(Lead(Tile(0, 0)),)
>>> opener = state.to_act
>>> state = apply(state, Lead(Tile(0, 0)))
>>> state.ends, state.to_act == (opener + 1) % 4   # the line is 0-0; the next seat acts
((0, 0), True)
"""

from __future__ import annotations

from gaple.engine.memo import check_rules
from gaple.engine.play import (
    apply,
    is_legal,
    legal_moves,
    new_hand,
    replay,
    to_act,
    verify,
)
from gaple.hand import ERROR_CODES as ERROR_CODES
from gaple.hand import MOVE_TEXT as MOVE_TEXT
from gaple.hand import Action as Action
from gaple.hand import Discard as Discard
from gaple.hand import End as End
from gaple.hand import Ending as Ending
from gaple.hand import IllegalMove as IllegalMove
from gaple.hand import Lead as Lead
from gaple.hand import Move as Move
from gaple.hand import MoveSyntaxError as MoveSyntaxError
from gaple.hand import Pass as Pass
from gaple.hand import Place as Place
from gaple.hand import State as State
from gaple.hand import is_move_text as is_move_text
from gaple.hand import parse_move as parse_move
from gaple.hand import state_from_tiles as state_from_tiles

__all__ = [
    "apply",
    "check_rules",
    "is_legal",
    "legal_moves",
    "new_hand",
    "replay",
    "to_act",
    "verify",
]
