"""Name the engine the gaple plugin runs every conformance vector against, and give the
property tests the same engine over the same protocol, whatever language it is written in.

The plugin (installed with gaple, entry point ``pytest11``) calls ``pytest_gaple_engine`` once;
returning an adapter command runs every case over protocol v1, as ``gaple conformance run
--impl`` does. ``pytest --gaple-impl 'COMMAND'`` overrides it, for the property tests too. The
cases are the items of this file: ``conftest.py::play-domino4d-e002`` is one, and ``pytest
conftest.py`` runs them alone.
"""

from __future__ import annotations

import shlex
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from gaple.conformance.runner.engines import SubprocessEngine

ENGINE = Path(__file__).resolve().parent.parent / "engine"
COMMAND = shlex.join([sys.executable, str(ENGINE / "adapter.py")])
"""The adapter command of the example engine, run with this Python: yours goes here."""


# Optional, so that pytest -p no:gaple (the plugin disabled) still runs the other tests.
@pytest.hookimpl(optionalhook=True)
def pytest_gaple_engine() -> str:
    """The engine whose conformance the plugin checks."""
    return COMMAND


@pytest.fixture(scope="module")
def engine(request: pytest.FixtureRequest) -> Iterator[SubprocessEngine]:
    """The engine over protocol v1 (``--gaple-impl``'s command when given), started once
    for a module's tests: each hand begins with its own ``start``."""
    command = request.config.getoption("--gaple-impl", default=None) or COMMAND
    started = SubprocessEngine(command, timeout=10.0)
    yield started
    started.close()
