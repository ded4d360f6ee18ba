"""``gaple variants``: the presets with every option, its value and its source."""

from __future__ import annotations

import argparse
from typing import Any

from gaple.cli.common import add_format, dump_json
from gaple.io import rules_to_json
from gaple.presets import PRESETS, Preset
from gaple.reference.deal import sourced
from gaple.rules import SOURCED_DEALS, option_info

__all__ = ["register"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``variants`` subcommand."""
    parser = subparsers.add_parser("variants", help="list the presets, their options and sources")
    add_format(parser)
    parser.set_defaults(run=run)


def describe(preset: Preset) -> dict[str, Any]:
    """A preset as JSON: its options, each with value, meaning and sources."""
    values = rules_to_json(preset.rules)
    options = []
    for info in option_info():
        citation = preset.citation(info.name)
        options.append(
            {
                "name": info.name,
                "value": values[info.name],
                "set_by_preset": citation is not None,
                "sources": list(citation.sources if citation else info.sources),
                "note": citation.note if citation else "",
                "doc": info.doc,
                "rules": list(info.rule_ids),
            }
        )
    return {
        "name": preset.name,
        "aliases": list(preset.aliases),
        "title": preset.title,
        "sourced_deal": sourced(preset.rules),
        "options": options,
    }


def run(args: argparse.Namespace) -> int:
    """Print the presets."""
    described = [describe(preset) for preset in PRESETS.values()]
    if args.format == "json":
        print(dump_json(described))
        return 0
    for preset in described:
        aliases = f" (also: {', '.join(preset['aliases'])})" if preset["aliases"] else ""
        print(f"{preset['name']}{aliases}\n  {preset['title']}")
        for option in preset["options"]:
            if not option["set_by_preset"]:
                continue
            note = f"; {option['note']}" if option["note"] else ""
            sources = ", ".join(option["sources"])
            print(f"    {option['name']:<26} {_text(option['value']):<14} [{sources}{note}]")
        print("    (other options at their defaults: see --format json)\n")
    deals = ", ".join(f"{players} x {tiles}" for players, tiles in SOURCED_DEALS)
    print(f"Sourced deals: {deals}, with the double-six set.")
    print("Any other deal (--set max_pip, players or hand_size) is unsourced: played by the same")
    print("rules for study, and marked in its header and results [deal.unsourced] (C27).")
    return 0


def _text(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return " ".join(value) or "none"
    return str(value)
