"""The rules reference on this machine, and the address of each rule in it.

A wheel carries the built reference as ``gaple/docs/`` (its build hook, ``hatch_build.py``, runs
Sphinx over ``docs/``). gaple running from a source checkout (an editable install, or the
``src`` folder on the path) has no such copy; it reads the build of ``make docs``,
``docs/_build/html``, and can make that build itself when Sphinx is installed. ``gaple docs``
opens a page of it, and reports link their rules into it (:func:`local_docs_url`), so every
link works offline.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from attrs import frozen

from gaple.registry import rule_url

__all__ = [
    "SHIPPED",
    "Checkout",
    "NoDocs",
    "checkout",
    "local_docs",
    "local_docs_url",
    "page_url",
]

SHIPPED = Path(__file__).resolve().parent / "docs"
"""Where a wheel carries the built reference."""

_ROOT = Path(__file__).resolve().parents[2]
"""The repository root, when this file is ``src/gaple/localdocs.py`` of a source checkout."""


class NoDocs(Exception):
    """No built reference here and none can be built; the message says what to do."""


@frozen
class Checkout:
    """The Sphinx project of a source checkout and the folder ``make docs`` builds it into."""

    source: Path
    """The Sphinx project, ``docs/``."""
    html: Path
    """Its HTML build, ``docs/_build/html``."""

    def build(self) -> Path:
        """Build the HTML reference into :attr:`Checkout.html` (about a minute), as ``make
        docs`` does but without failing on warnings; the folder built.

        Raises:
            NoDocs: Sphinx is not installed, or the build fails.
        """
        # Sphinx runs in a child: importing it here would cost every other command its start;
        # subprocess is imported here for the same reason.
        import subprocess  # noqa: PLC0415

        command = [sys.executable, "-m", "sphinx", "-q", "-b", "html", str(self.source)]
        src = str(self.source.parent / "src")
        path = os.pathsep.join(p for p in (src, os.environ.get("PYTHONPATH", "")) if p)
        try:
            done = subprocess.run(
                [*command, str(self.html)], env={**os.environ, "PYTHONPATH": path}, check=False
            )
        except OSError as error:
            msg = f"cannot start Sphinx: {error.strerror}"
            raise NoDocs(msg) from None
        if done.returncode != 0:
            msg = f"the Sphinx build of {self.source} failed (status {done.returncode})"
            raise NoDocs(msg)
        return self.html


def checkout() -> Checkout | None:
    """The docs of the source checkout gaple runs from, or None for an installed gaple."""
    source = _ROOT / "docs"
    if not (source / "conf.py").is_file() or not (_ROOT / "src" / "gaple").is_dir():
        return None
    return Checkout(source, source / "_build" / "html")


def local_docs() -> Path | None:
    """The folder of the built reference on this machine: the wheel's copy, else the build of
    the checkout gaple runs from; None when there is neither."""
    found = checkout()
    for folder in (SHIPPED, None if found is None else found.html):
        if folder is not None and (folder / "index.html").is_file():
            return folder
    return None


def local_docs_url() -> str | None:
    """The ``file://`` address of :func:`local_docs`, the root reports link rules under."""
    folder = local_docs()
    return None if folder is None else folder.as_uri()


def page_url(folder: Path, rule_id: str | None = None) -> str:
    """The ``file://`` address of a rule's page in the reference built in ``folder``, at the
    rule's anchor; of the front page without a rule.

    >>> page_url(Path("/opt/gaple/docs"), "play.match-end")
    'file:///opt/gaple/docs/rules/turn.html#rule-play-match-end'

    Raises:
        KeyError: no rule has this ID.
    """
    return f"{folder.as_uri()}/{'index.html' if rule_id is None else rule_url(rule_id)}"
