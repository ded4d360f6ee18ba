"""Name the engine the gaple plugin runs every conformance vector against.

The plugin (installed with gaple, entry point ``pytest11``) calls ``pytest_gaple_engine`` once;
returning an adapter command runs every case over protocol v1, as ``gaple conformance run
--impl`` does. ``pytest --gaple-impl 'COMMAND'`` overrides it. The cases are the items of this
file: ``conftest.py::play-domino4d-e002`` is one, and ``pytest conftest.py`` runs them alone.
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parent.parent / "engine"

# The property tests drive the engine in process through its adapter's Session.
sys.path.insert(0, str(ENGINE))


# Optional, so that pytest -p no:gaple (the plugin disabled) still runs the other tests.
@pytest.hookimpl(optionalhook=True)
def pytest_gaple_engine() -> str:
    """The adapter command of the example engine, run with this Python."""
    return shlex.join([sys.executable, str(ENGINE / "adapter.py")])
