"""The rules reference on this machine, and the address of each rule in it.

A wheel carries the built reference as ``gaple/docs/`` (its build hook, ``hatch_build.py``, runs
Sphinx over ``docs/``). gaple running from a source checkout (an editable install, or the
``src`` folder on the path) has no such copy; it reads the build of ``make docs``,
``docs/_build/html``, and can make that build itself when Sphinx is installed. ``gaple docs``
opens a page of it, and reports link their rules into it (:func:`local_docs_url`), so every
link works offline.

A build made here (:meth:`Checkout.start`) is written to a folder of its own beside
``docs/_build/html`` and moved there only once Sphinx has succeeded, so a build cut short or
failed is never taken for a complete one; Sphinx runs in a process group of its own, so that
:meth:`Build.stop` ends it with every process it started.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import IO, TYPE_CHECKING

from attrs import frozen

from gaple.registry import rule_url

if TYPE_CHECKING:
    import subprocess

__all__ = [
    "EXPLORER_PORT",
    "SHIPPED",
    "Build",
    "Checkout",
    "NoDocs",
    "checkout",
    "explorer_url",
    "local_docs",
    "local_docs_url",
    "page_url",
]

SHIPPED = Path(__file__).resolve().parent / "docs"
"""Where a wheel carries the built reference."""

EXPLORER_PORT = 8737
"""Where ``gaple docs explorer`` serves the docs when the port is free: links to the rules
explorer of this machine's docs name it, since browsers do not run the explorer from
``file://``."""

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
        docs`` does but without failing on warnings; the folder built. Whatever ends it early
        (an exception, ``KeyboardInterrupt`` included) stops Sphinx and keeps nothing of it.

        Raises:
            NoDocs: Sphinx is not installed, or the build fails.
        """
        build = self.start()
        try:
            build.wait()
            return build.finish()
        finally:
            build.stop()

    def start(self) -> Build:
        """Start Sphinx on :attr:`Checkout.source`, in a process group of its own, into a new
        folder beside :attr:`Checkout.html`; the build under way. Its caller owes it a
        :meth:`Build.stop`, whatever happens.

        Raises:
            NoDocs: the folder cannot be made or Sphinx cannot be started.
        """
        # Sphinx runs in a child: importing it here would cost every other command its start;
        # subprocess and tempfile are imported here for the same reason.
        import subprocess  # noqa: PLC0415
        import tempfile  # noqa: PLC0415

        try:
            self.html.parent.mkdir(parents=True, exist_ok=True)
            folder = Path(tempfile.mkdtemp(prefix=f".{self.html.name}-", dir=self.html.parent))
        except OSError as error:
            msg = f"cannot make a folder in {self.html.parent}: {error.strerror}"
            raise NoDocs(msg) from None
        command = [sys.executable, "-m", "sphinx", "-q", "-b", "html", str(self.source)]
        src = str(self.source.parent / "src")
        path = os.pathsep.join(p for p in (src, os.environ.get("PYTHONPATH", "")) if p)
        # Its messages go to a file, shown once it has ended: in a group of its own it would be
        # a background job of the terminal, stopped by its first warning under stty tostop.
        log = tempfile.TemporaryFile()  # noqa: SIM115  # the build's to close (Build.stop)
        try:
            process = subprocess.Popen(
                [*command, str(folder)],
                env={**os.environ, "PYTHONPATH": path},
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=log,
                process_group=0,
            )
        except OSError as error:
            log.close()
            _remove(folder)
            msg = f"cannot start Sphinx: {error.strerror}"
            raise NoDocs(msg) from None
        return Build(self, process, folder, log)


class Build:
    """A Sphinx build of a checkout's reference under way (:meth:`Checkout.start`): :meth:`wait`
    for it, :meth:`finish` it (moved into place), and :meth:`stop` it in any case."""

    def __init__(
        self,
        checkout: Checkout,
        process: subprocess.Popen[bytes],
        folder: Path,
        log: IO[bytes],
    ) -> None:
        self.checkout = checkout
        """What is built, and where it goes once complete."""
        self.folder = folder
        """Where Sphinx writes it meanwhile, beside :attr:`Checkout.html`."""
        self._process = process
        self._log = log

    def wait(self) -> None:
        """Wait for Sphinx to end."""
        self._process.wait()

    def finish(self) -> Path:
        """Once Sphinx has ended (:meth:`wait`): its messages (warnings) shown on standard
        error, and the build moved to :attr:`Checkout.html`, in place of what was there (a
        build without its front page, or none); the folder.

        Raises:
            NoDocs: the build failed, or cannot be moved into place.
        """
        self._log.seek(0)
        messages = self._log.read().decode(errors="replace")
        if messages:
            sys.stderr.write(messages if messages.endswith("\n") else f"{messages}\n")
            sys.stderr.flush()
        status = self._process.returncode
        if status != 0:
            msg = f"the Sphinx build of {self.checkout.source} failed (status {status})"
            raise NoDocs(msg)
        html = self.checkout.html
        old = self.folder.with_name(f"{self.folder.name}-old")
        try:
            if html.exists():
                html.rename(old)
            self.folder.rename(html)
        except OSError as error:
            if old.exists() and not html.exists():
                old.rename(html)  # what was there, back
            msg = f"cannot move the build to {html}: {error.strerror}"
            raise NoDocs(msg) from None
        _remove(old)
        return html

    def stop(self) -> None:
        """End the build: Sphinx and every process of its group killed if it still runs, and
        its folder removed unless :meth:`finish` moved it into place. Safe to call again."""
        if self._process.returncode is None:
            if sys.platform == "win32":
                self._process.kill()
            else:
                import contextlib  # noqa: PLC0415  # both only to stop a build
                import signal  # noqa: PLC0415

                with contextlib.suppress(ProcessLookupError):  # the whole group has ended
                    os.killpg(self._process.pid, signal.SIGKILL)
            self._process.wait()
        self._log.close()
        _remove(self.folder)


def _remove(folder: Path) -> None:
    import shutil  # noqa: PLC0415

    shutil.rmtree(folder, ignore_errors=True)


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


def explorer_url(base: str, document: object) -> str:
    """The rules explorer of the docs at ``base`` opening ``document`` (a hand or a position
    as JSON data, carried in the fragment); under a ``file://`` base, the explorer
    ``gaple docs explorer`` serves from this machine.

    >>> explorer_url("https://docs.example/gaple", {"step": 1})
    'https://docs.example/gaple/explorer/index.html#%7B%22step%22%3A1%7D'
    """
    import json  # noqa: PLC0415  # only for a link to the explorer
    import urllib.parse  # noqa: PLC0415

    root = f"http://127.0.0.1:{EXPLORER_PORT}" if base.startswith("file:") else base.rstrip("/")
    fragment = urllib.parse.quote(json.dumps(document, separators=(",", ":")), safe="")
    return f"{root}/explorer/index.html#{fragment}"
