"""The independent example engine of ``examples/engine/``, served as a protocol v1 adapter on
stdin/stdout by ``gaple conformance example-engine``, so that an installed gaple can run its kit
against an engine other than itself: ``gaple conformance run --impl 'gaple conformance
example-engine'``.

The engine and its adapter are written once, in ``examples/engine/``, and import nothing of
gaple (they are checked against it); a wheel carries the two files in ``gaple/example_engine/``.
"""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

from gaple.conformance.wire.shipped import shipped_folder

__all__ = ["example_engine_folder", "serve_example_engine"]


def example_engine_folder() -> Path:
    """The folder holding ``adapter.py`` and ``gaple_engine.py``: the wheel's copy, else the
    checkout's ``examples/engine/``."""
    return shipped_folder("example_engine", "examples/engine")


def serve_example_engine(folder: Path) -> int:
    """Run the example adapter in ``folder`` as ``python examples/engine/adapter.py`` would:
    its folder first on the import path (it imports ``gaple_engine`` beside it), answering
    until ``bye`` or the end of stdin."""
    sys.path.insert(0, str(folder))
    runpy.run_path(str(folder / "adapter.py"), run_name="__main__")
    return 0
