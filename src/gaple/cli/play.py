"""``gaple play``: deal from a seed, play one hand with random legal moves, narrate it.

The narration is written for someone who has never played: it says what Gaple is, explains each
word of the game the first time it comes up (with the ``gaple docs`` command that opens its
rule's page), and ends with how the hand was scored and why. Every line fits the width:
``COLUMNS`` when it is set (it wins over the terminal, and over the default of 80 columns when
the output is piped), down to :data:`MIN_WIDTH`; below that the narration is written
:data:`MIN_WIDTH` wide. A line of tiles too long for the width keeps its two ends and says how
many tiles it hides; when the move table's columns leave too little room for it, each move takes
two lines instead. ``--terse`` leaves out the explanations.
"""

from __future__ import annotations

import argparse
import shutil
import textwrap
from collections.abc import Sequence

from gaple.cli.common import add_format, add_variant, dump_json, rules_from_args
from gaple.conformance.wire.escape import printable
from gaple.deal import SplitMix64, shuffle_deal
from gaple.io import result_to_json, state_to_json
from gaple.presets import find_preset
from gaple.reference.deal import sourced
from gaple.reference.equipment import table
from gaple.result import HandResult, ending_text, hand_result
from gaple.rules import LeadRule, Settlement
from gaple.state import Discard, Ending, Pass, State, apply, legal_moves, new_hand

__all__ = [
    "MIN_WIDTH",
    "TERMS",
    "header",
    "line_text",
    "narrate",
    "register",
    "terminal_width",
]

_SHORTEST_LINE = 21
"""The most an elided line can shrink to: its two end tiles of 5 characters around a count of
the hidden ones, ``..53 more..`` at most (a double-nine set has 55 tiles)."""

_LINE_INDENT = "    "
"""Where the line starts under its move when the move table is too wide to share a row."""

MIN_WIDTH = len(_LINE_INDENT) + _SHORTEST_LINE
"""The narrowest narration: an elided line under its move. ``COLUMNS`` below it is read as
this width, so the narration is still readable, at the cost of lines wider than asked."""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``play`` subcommand."""
    parser = subparsers.add_parser(
        "play",
        help="play one hand with seeded random legal moves and narrate it for a newcomer",
        description=(
            "Play one hand with seeded random legal moves and narrate it for a newcomer. The "
            "narration fits COLUMNS when it is set, else the terminal (80 columns when piped); "
            f"below {MIN_WIDTH} columns it is written {MIN_WIDTH} wide."
        ),
    )
    add_variant(parser)
    parser.add_argument("--seed", type=int, default=1, help="seed of the deal and the moves")
    parser.add_argument(
        "--terse",
        action="store_true",
        help="leave out the introduction and the explanations of the game's words",
    )
    add_format(parser)
    parser.set_defaults(run=run)


def terminal_width() -> int:
    """The width to narrate in: ``COLUMNS`` if set, else the terminal's, else 80 (piped), and
    never less than :data:`MIN_WIDTH`."""
    return max(shutil.get_terminal_size().columns, MIN_WIDTH)


TERMS: dict[str, tuple[str, str]] = {
    "starter": (
        "in the deals that leave tiles over, one undealt tile turned face up to begin the line; "
        "it belongs to no seat",
        "deal.starter",
    ),
    "set aside": (
        "the other undealt tiles: they stay face down, out of play, and count against nobody",
        "deal.starter",
    ),
    "opener": (
        "the seat that acts first in the hand: it leads the first tile on an empty table, or "
        "plays first onto the starter when one was turned up",
        "open.lead",
    ),
    "line": (
        "the single row of tiles on the table, laid end to end so that touching halves show "
        "the same number",
        "play.match-end",
    ),
    "end": (
        "one of the two open halves at either end of the line (the ends column shows both, left "
        "and right); a tile can only be placed on an end that shows one of its numbers, and its "
        "other half becomes the new end",
        "play.match-end",
    ),
    "pass": (
        "what a seat does when no tile of its hand fits either end: nothing, and the turn goes on",
        "block.pass",
    ),
    "discard": (
        "what a seat does when no tile of its hand fits either end: it lays one tile face down, "
        "out of play, and that tile still counts against it",
        "block.discard",
    ),
    "out": ("a seat goes out when it has no tiles left; the hand ends at once", "end.out"),
    "blocked": (
        "the hand is blocked when no seat can place a tile on either end; it ends at once",
        "end.blocked",
    ),
    "elided": (
        "the middle of a line too long for the screen is left out; its two ends stay in view",
        "play.match-end",
    ),
    "count": (
        "a seat's count is the total of the pips (spots) on the tiles it still holds and on the "
        "tiles it discarded",
        "score.count",
    ),
}
"""Each word of the game the narration explains, with its meaning in one plain sentence and
the rule whose docs page says more (``gaple docs RULE-ID`` opens it)."""


class _Narration:
    """The lines of the narration, each wrapped to the width, and the words already explained."""

    def __init__(self, width: int, *, explain: bool) -> None:
        self.width = width
        self.explain = explain
        self.lines: list[str] = []
        self.explained: set[str] = set()

    def say(self, text: str, indent: str = "", hang: str = "  ") -> None:
        """Add ``text``, wrapped; tiles like ``1-6`` never split at their hyphen."""
        self.lines.extend(
            textwrap.wrap(
                text,
                self.width,
                initial_indent=indent,
                subsequent_indent=indent + hang,
                break_on_hyphens=False,
            )
        )

    def term(self, *words: str) -> None:
        """Explain each of ``words`` not explained before."""
        for word in words:
            if not self.explain or word in self.explained:
                continue
            self.explained.add(word)
            meaning, rule_id = TERMS[word]
            self.say(f"* {word}: {meaning} (more: gaple docs {rule_id}).", "  ")


def line_text(line: Sequence[tuple[int, int]], width: int | None = None) -> str:
    """The line (as :attr:`State.line <gaple.hand.State.line>`) as tiles laid end to end,
    e.g. ``[0|0][0|3][3|5]``.

    Longer than ``width``, it keeps as many tiles at each end as fit around a count of the
    hidden ones: ``[3|0][0|4]..19 more..[6|6][6|5]``.
    """
    tiles = [f"[{left}|{right}]" for left, right in line]
    full = "".join(tiles)
    if not tiles:
        return "(empty)"
    if width is None or len(full) <= width:
        return full
    for shown in range(len(tiles) - 1, 1, -1):
        head, tail = (shown + 1) // 2, shown // 2
        text = (
            "".join(tiles[:head])
            + f"..{len(tiles) - shown} more.."
            + "".join(tiles[len(tiles) - tail :])
        )
        if len(text) <= width:
            return text
    return tiles[0] + f"..{len(tiles) - 2} more.." + tiles[-1]


def header(args: argparse.Namespace, *, explain: bool, width: int) -> list[str]:
    """What Gaple is (unless terse), the variant played and the seed."""
    preset = find_preset(args.variant)
    lines: list[str] = []
    paragraphs = []
    if explain:
        paragraphs.append(
            "Gaple is the Indonesian block game played with a double-six set of dominoes. Each "
            "seat in turn adds a tile to a single line on the table; the hand ends when a seat "
            "runs out of tiles or nobody can play, and then the tiles left decide the winner. "
            "To learn it, read the docs page 'Gaple in five minutes' (five-minutes). A name in "
            "brackets, like [end.out], is the rule that applies; gaple docs end.out opens its "
            "page in the docs."
        )
    paragraphs.append(f"Variant {preset.name}: {preset.title}")
    if args.overrides:
        changes = ", ".join(printable(text, limit=60) for text in args.overrides)
        paragraphs.append(f"Changed from the variant: {changes}.")
    if not sourced(rules_from_args(args)):
        paragraphs.append("Unsourced deal: no source describes it [deal.unsourced] (C27).")
    paragraphs.append(f"Seed {args.seed}: the deal and every move below come from it.")
    for text in paragraphs:
        lines.extend(textwrap.wrap(text, width, break_on_hyphens=False))
    return lines


def _opening(first: State) -> str:
    """Who opens and why, from the opening rule in force."""
    seat = first.opener
    if first.deal.starter is not None:
        return (
            f"The starter {first.deal.starter} begins the line; seat {seat} opens, playing first."
        )
    rules = first.rules
    lead = rules.first_lead if first.first_hand else rules.later_lead
    if lead is LeadRule.DOUBLE_BLANK:
        return f"Seat {seat} opens: it holds 0-0, which must start the line."
    if lead is LeadRule.DOUBLE:
        return f"Seat {seat} opens: it must lead a double."
    return f"Seat {seat} opens: it may lead any tile."


_MOVE_TERMS = {Pass: ("pass",), Discard: ("discard",)}

_COLUMNS = f"{'#':>3}  {'seat':<4} {'move':<15} {'ends':<7} "
"""The move table's columns before the line: the longest move, ``place 9-9 right``, fills its
15 characters, and the two open ends, ``6 and 1``, their 7."""


def _ends_text(state: State) -> str:
    """The two open ends, left and right, in words that cannot be read as a tile."""
    return "{} and {}".format(*state.ends) if state.ends else "none"


def _move_rows(number: int, after: State, width: int) -> list[str]:
    """The move that led to ``after``, the ends and the line after it: one row of the move
    table, or, when the table's columns leave the line too little room, two lines."""
    action = after.history[-1]
    room = width - len(_COLUMNS)
    if room >= _SHORTEST_LINE:
        cells = f"{number:>3}  {action.seat:<4} {action.move!s:<15} {_ends_text(after):<7} "
        return [cells + line_text(after.line, room)]
    move = f"{number:>3} seat {action.seat}: {action.move}, ends {_ends_text(after)}"
    line = _LINE_INDENT + line_text(after.line, width - len(_LINE_INDENT))
    wrapped = textwrap.wrap(move, width, subsequent_indent=_LINE_INDENT, break_on_hyphens=False)
    return [*wrapped, line]


def narrate(states: list[State], *, width: int = 80, explain: bool = True) -> str:
    """A readable account of a hand: the deal, one row per action with the line after it, how
    the hand ended and how it was scored. No line is longer than ``width``."""
    first, last = states[0], states[-1]
    rules = first.rules
    out = _Narration(width, explain=explain)
    out.lines.append("")
    out.say(f"The deal ({rules.players} seats x {rules.hand_size} tiles):")
    for seat in range(rules.players):
        out.say(f"seat {seat}: {' '.join(map(str, first.hand(seat)))}", "  ", "    ")
    if first.deal.starter is not None:
        aside = " ".join(map(str, first.deal.set_aside)) or "none"
        out.say(f"starter turned up: {first.deal.starter}; set aside: {aside}", "  ", "    ")
        out.term("starter", "set aside")
    if rules.partnership:
        pairs = " against ".join(
            f"seats {' and '.join(map(str, team))} (pair {i})"
            for i, team in enumerate(table(rules).teams)
        )
        out.say(f"Partners sit opposite: {pairs} [table.seats].", "  ", "    ")
    out.lines.append("")
    out.say(_opening(first))
    out.term("opener", "line")
    if width - len(_COLUMNS) >= _SHORTEST_LINE:
        out.lines.append(_COLUMNS + "line after the move")
    for number, after in enumerate(states[1:], start=1):
        rows = _move_rows(number, after, width)
        out.lines.extend(rows)
        out.term("end")
        if line_text(after.line) not in rows[-1]:
            out.term("elided")
        out.term(*_MOVE_TERMS.get(type(after.history[-1].move), ()))
    _explain_result(last, out)
    return "\n".join(out.lines)


_SETTLEMENT_WHY = {
    Settlement.PER_HAND: (
        "this variant settles per hand: a hand only names its winner",
        "settle.per-hand",
    ),
    Settlement.CHIPS: (
        "under chips settlement every other seat pays the winner the difference between its "
        "count and the winner's",
        "settle.chips",
    ),
    Settlement.DIFFERENCE: (
        "under difference scoring the winner scores the differences between each other seat's "
        "count and its own, and nobody else scores",
        "settle.difference",
    ),
    Settlement.CUMULATIVE: (
        "under cumulative scoring every seat adds its own count to its total, and the lowest "
        "total after the agreed number of hands wins",
        "settle.cumulative",
    ),
}
"""Why the points of an individual settlement are what they are, and the rule that says so."""


def _ending(last: State, result: HandResult) -> str:
    """How the hand ended, from the result's first note; going out by a discard is said with
    the tile discarded, which only the hand's history records."""
    ending = result.notes[0]
    if result.ending is not Ending.OUT:
        return f"{ending.text} [{ending.rule_id}]"
    move = last.history[-1].move
    discarded = move.tile if isinstance(move, Discard) else None
    return f"{ending_text(result.position, discarded)} [{ending.rule_id}]"


def _explain_result(last: State, out: _Narration) -> None:
    """How the hand ended and how it was scored, in plain words, from the result's notes."""
    result = hand_result(last)
    _ending_note, *notes = result.notes
    out.lines.append("")
    out.say(f"The hand is over: {_ending(last, result)}.")
    out.term("out" if result.ending is Ending.OUT else "blocked")
    out.lines.append("")
    out.say("How the hand is scored:")
    out.term("count")
    partnership = result.rules.settlement is Settlement.PARTNERSHIP
    for note in notes:
        if note.rule_id == "score.rank" and partnership:
            continue  # the pairs' scoring, not the ranking, decides this hand
        if note.rule_id == "score.rank":
            out.say(
                "The lowest count ranks first; between equal counts, the seat whose lowest tile "
                "has fewer pips, then the one whose lowest tile has the smaller low half (the "
                f"lower of its two numbers) [score.rank]. {_capital(note.text)}.",
                "  ",
            )
        elif note.rule_id != "settle.per-hand":
            out.say(f"{_capital(note.text)} [{note.rule_id}].", "  ")
    out.say(_winner(result), "  ")
    out.say(_points(result), "  ")


def _winner(result: HandResult) -> str:
    if result.replay:
        return "Nobody wins: the challenge is tied, so the hand is dealt again."
    if result.winning_team is not None:
        return f"Winner: seat {result.winner}, so pair {result.winning_team}."
    return f"Winner: seat {result.winner}, first in the ranking."


def _points(result: HandResult) -> str:
    """The points, and why they are what they are."""
    rules = result.rules
    side = "pair" if rules.partnership else "seat"
    if any(result.points):
        verdict = ", ".join(f"{side} {i} {p:+d}" for i, p in enumerate(result.points))
    else:
        verdict = "everyone scores +0"
    if rules.settlement is not Settlement.PARTNERSHIP:
        why, rule_id = _SETTLEMENT_WHY[rules.settlement]
        return f"Points: {verdict}, because {why} [{rule_id}]."
    if result.ending is Ending.OUT:
        why = "the pair of the seat that went out scores, as counted above [partner.out]"
    else:
        why = (
            "a blocked hand goes to the pair that wins the challenge, as above [partner.challenge]"
        )
    return f"Points: {verdict}, because in partnership play {why}."


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _states(dealt: State, seed: int) -> list[State]:
    """Every state of the hand, from the deal to the end, with the seeded random moves."""
    rng = SplitMix64(seed + 1)
    states = [dealt]
    while moves := legal_moves(states[-1]):
        states.append(apply(states[-1], moves[rng.below(len(moves))]))
    return states


_RESULT_KEYS = ("counts", "winner", "winning_team", "points", "replay")
"""What a transcript records of the result (the transcript schema's ``result``), so that
``gaple check`` accepts the output; ``gaple score`` gives the ranking and the reasons."""


def run(args: argparse.Namespace) -> int:
    """Play and print one hand."""
    rules = rules_from_args(args)
    states = _states(new_hand(rules, shuffle_deal(rules, args.seed)), args.seed)
    if args.format == "json":
        state = states[-1]
        transcript = state_to_json(state)
        summary = result_to_json(hand_result(state))
        transcript["result"] = {key: summary[key] for key in _RESULT_KEYS}
        print(dump_json(transcript))
        return 0
    width = terminal_width()
    explain = not args.terse
    print("\n".join(header(args, explain=explain, width=width)))
    print(narrate(states, width=width, explain=explain))
    return 0
