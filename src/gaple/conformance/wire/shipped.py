"""Files written outside the package that a wheel carries inside it.

The protocol texts (``spec/``) and the example engine (``examples/engine/``) are written once, in
the repository; ``pyproject.toml`` force-includes them into the wheel under ``gaple/``. A wheel
reads them there, an editable install or a checkout with ``src`` on the path from the checkout.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["shipped_folder"]

PACKAGE = Path(__file__).resolve().parents[2]
"""The installed ``gaple`` package folder."""


def shipped_folder(inside: str, checkout: str) -> Path:
    """The folder ``inside`` the package when a wheel put it there, else the folder
    ``checkout`` of the source checkout the package is imported from (``src/gaple`` lies two
    levels below its root)."""
    packaged = PACKAGE / inside
    return packaged if packaged.is_dir() else PACKAGE.parent.parent / checkout
