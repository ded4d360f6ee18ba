"""The adapter templates that ``gaple template LANGUAGE DIR`` writes: package data, so that an
installed gaple has them without the repository.

Each template is a protocol v1 adapter whose protocol part is complete on its own, with one
block marked ``FILL IN HERE`` for the calls into the engine. ``examples/node/adapter.mjs`` is the
Node template with that block filled by the toy engine of ``examples/node/`` (the tests hold the
rest of the two files byte-equal).
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["BLOCK_END", "BLOCK_START", "TEMPLATES", "template_files"]

FOLDER = Path(__file__).resolve().parent

TEMPLATES: dict[str, tuple[str, ...]] = {
    "node": ("adapter.mjs", "protocol.d.ts", "README.md"),
    "python": ("adapter.py", "README.md"),
}
"""The files of each language's template, the adapter first."""

BLOCK_START = "==== FILL IN HERE"
BLOCK_END = "==== END OF FILL IN HERE"
"""The words that open and close the block an author changes, in a comment line of each
adapter."""


def template_files(language: str) -> dict[str, bytes]:
    """The files of ``language``'s template by name, read from the installed package.

    Raises:
        OSError: this installation lacks a file of the template.
    """
    folder = FOLDER / language
    return {name: (folder / name).read_bytes() for name in TEMPLATES[language]}
