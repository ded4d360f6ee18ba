"""The checks of the options that name and drive an engine, shared by ``gaple conformance run``
and ``fuzz`` (``--impl``, ``--timeout``) and the pytest plugin (``--gaple-impl``,
``--gaple-timeout``): one rule and one wording for each option, whichever way it is given.

It imports nothing of gaple, so that the plugin checks its options at the start of every
pytest session without loading the conformance kit.
"""

from __future__ import annotations

import math
import os

__all__ = ["SHORTEST_TIMEOUT", "BadOption", "check_command", "check_timeout"]


class BadOption(ValueError):
    """An option's value refused: the message, one line, names the option and says why."""


SHORTEST_TIMEOUT = 0.001
"""The shortest wait for a reply, in seconds: no engine in another process answers sooner."""


def check_timeout(seconds: float, option: str) -> float:
    """``seconds``, the wait for each reply given as ``option``, when it is finite and at least
    :data:`SHORTEST_TIMEOUT`.

    ``nan`` compares false with everything (it once switched the timeout off), an infinite
    wait overflows a deadline, and a shorter wait (``0``, ``-1``, ``1e-300``) ends every case
    before an engine could answer it, as errored.

    Raises:
        BadOption: ``seconds`` is not a finite number of at least that.
    """
    if not math.isfinite(seconds) or seconds < SHORTEST_TIMEOUT:
        msg = f"{option} must be finite and at least {SHORTEST_TIMEOUT} (seconds), got {seconds}"
        raise BadOption(msg)
    return seconds


def check_command(command: str, option: str) -> str:
    """``command``, the shell command given as ``option`` that starts an adapter, when a shell
    can be given it: not blank, without a NUL character, and encodable as the file system
    encodes a command line (a lone surrogate is not).

    Raises:
        BadOption: no shell can run ``command``.
    """
    if not command.strip():
        msg = f"{option}: the adapter command is empty"
        raise BadOption(msg)
    if "\0" in command:
        msg = f"{option}: the adapter command holds a NUL character, which no shell reads"
        raise BadOption(msg)
    try:
        os.fsencode(command)
    except UnicodeError:
        msg = f"{option}: the adapter command holds a character the file system cannot encode"
        raise BadOption(msg) from None
    return command
