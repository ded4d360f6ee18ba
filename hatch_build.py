"""The wheel's build hook: Sphinx builds the rules reference (``docs/``) into the wheel as
``gaple/docs/``, so that ``gaple docs`` and the links of the reports open it from the installed
package alone, offline (:mod:`gaple.localdocs`).

An editable install skips it: its checkout has the docs source, which ``make docs`` builds into
``docs/_build/html``, where :mod:`gaple.localdocs` looks in a checkout.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class DocsHook(BuildHookInterface):
    """Build the HTML reference into a temporary folder and put it in the wheel."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if version == "editable":
            return
        root = Path(self.root)
        self._work = Path(tempfile.mkdtemp(prefix="gaple-docs-"))
        html = self._work / "html"
        command = [
            *(sys.executable, "-m", "sphinx", "-b", "html", "-q", "-n"),
            # The doctrees (several megabytes of pickles) stay out of the wheel, and so do the
            # reST sources of the pages, which the docs/ of the source distribution holds.
            *("-d", str(self._work / "doctrees"), "-D", "html_copy_source=0"),
            *(str(root / "docs"), str(html)),
        ]
        # Not -W, unlike make docs: a warning from a newer Sphinx must not stop an install
        # from the source distribution; make docs keeps the docs free of warnings.
        # docs/conf.py puts this tree's src/ first on the import path, so the reference is built
        # from this tree, not from a gaple installed in the build environment.
        self.app.display_info("building the rules reference into gaple/docs/ (Sphinx)")
        done = subprocess.run(command, cwd=root, check=False)
        if done.returncode != 0:
            msg = f"the Sphinx build of docs/ failed (status {done.returncode}); see above"
            raise RuntimeError(msg)
        # Sphinx's record for rebuilding the folder, of no use in a wheel.
        (html / ".buildinfo").unlink(missing_ok=True)
        build_data["force_include"][str(html)] = "gaple/docs"

    def finalize(  # hatchling's signature
        self,
        version: str,  # noqa: ARG002
        build_data: dict[str, Any],  # noqa: ARG002
        artifact_path: str,  # noqa: ARG002
    ) -> None:
        work: Path | None = getattr(self, "_work", None)
        if work is not None:
            shutil.rmtree(work, ignore_errors=True)
