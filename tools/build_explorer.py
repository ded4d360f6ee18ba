"""Build the rules explorer beside the built docs: ``make docs`` runs it after Sphinx.

The explorer (``docs/_build/html/explorer/``) is the page of ``explorer/page/`` with what it
runs the reference in, all from its own folder so that nothing is fetched from elsewhere:

- ``pyodide/``: the Pyodide runtime pinned in ``explorer/package.json`` (``npm ci`` into
  ``explorer/node_modules``), only the files that start it;
- ``pyodide/snapshot.bin.gz``: the interpreter's memory once started, gzipped
  (``tools/explorer_snapshot.mjs``), which the page starts from in a tenth of the time;
- ``wheels/``: this checkout's gaple, built without the docs hook and without the conformance
  cases (:func:`without_cases`), and attrs at the version installed here; ``bytecode.zip``,
  their modules compiled by Pyodide itself (``tools/explorer_bytecode.mjs``), which spares the
  page compiling them as it starts;
- ``bundle.json``: the wheels' names, the Pyodide version and the bundle's size.

It is built into a folder of its own and moved into place once complete, so a build cut short
is never taken for one. Without npm, it says so in one line and builds nothing (status 0: the
docs stand without it; the explorer's tests skip, saying why).

Usage: ``python tools/build_explorer.py [FOLDER]`` (default ``docs/_build/html/explorer``).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from importlib.metadata import version
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "explorer"
PYODIDE = SOURCE / "node_modules" / "pyodide"
BYTECODE = ROOT / "tools" / "explorer_bytecode.mjs"
"""Compiles the wheels' modules in Pyodide into ``wheels/bytecode.zip``."""
SNAPSHOT = ROOT / "tools" / "explorer_snapshot.mjs"
"""Writes ``pyodide/snapshot.bin.gz``, the started interpreter's memory, which the page starts
from."""
RUNTIME = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")
"""The Pyodide files that start it: its loader, the interpreter and the standard library. Its
``pyodide-lock.json`` is copied too (Pyodide reads it at start), though no package of it is
loaded."""


class BuildFailed(Exception):
    """A step of the build failed; the message says which and why."""


def pinned() -> str:
    """The Pyodide version ``explorer/package.json`` pins."""
    package = json.loads((SOURCE / "package.json").read_text(encoding="utf-8"))
    return str(package["dependencies"]["pyodide"])


def installed() -> str | None:
    """The Pyodide version in ``explorer/node_modules``, if any."""
    manifest = PYODIDE / "package.json"
    if not manifest.is_file():
        return None
    return str(json.loads(manifest.read_text(encoding="utf-8"))["version"])


def run(command: list[str], what: str, env: dict[str, str] | None = None) -> None:
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        last = (done.stderr.strip() or done.stdout.strip() or "no message").splitlines()[-1]
        msg = f"{what} failed (status {done.returncode}): {last}"
        raise BuildFailed(msg)


def wheels(into: Path) -> list[str]:
    """gaple's wheel without the docs hook (the explorer needs the package, not its docs) and
    attrs' at the version installed here; their file names."""
    into.mkdir()
    pip = [sys.executable, "-m", "pip"]
    env = {**os.environ, "HATCH_BUILD_NO_HOOKS": "true"}
    run(
        [*pip, "wheel", "--no-deps", "-q", "-w", str(into), str(ROOT)],
        "building gaple's wheel",
        env,
    )
    (built,) = into.glob("gaple-*.whl")
    without_cases(built)
    attrs = f"attrs=={version('attrs')}"
    download = ["download", "--no-deps", "--only-binary=:all:", "-q", "-d", str(into), attrs]
    run([*pip, *download], f"fetching the wheel of {attrs}")
    return sorted(path.name for path in into.glob("*.whl"))


CASES = "gaple/spec/vectors/"
"""The conformance cases the wheel carries for ``gaple conformance run`` (a megabyte, 561
files), which the page never reads: unpacking them took a fifth of a second of its start."""


def without_cases(wheel: Path) -> None:
    """Rewrite ``wheel`` without :data:`CASES`, and without their lines in its ``RECORD``, so
    that it stays a consistent wheel."""
    trimmed = wheel.with_suffix(".trimmed")
    with (
        zipfile.ZipFile(wheel) as source,
        zipfile.ZipFile(trimmed, "w", zipfile.ZIP_DEFLATED) as out,
    ):
        for item in source.infolist():
            if item.filename.startswith(CASES):
                continue
            data = source.read(item)
            if item.filename.endswith(".dist-info/RECORD"):
                kept = [
                    r for r in data.decode().splitlines(keepends=True) if not r.startswith(CASES)
                ]
                data = "".join(kept).encode()
            out.writestr(item, data)
    trimmed.replace(wheel)


def size(folder: Path) -> int:
    """The bytes of every file under ``folder``."""
    return sum(path.stat().st_size for path in folder.rglob("*") if path.is_file())


def assemble(folder: Path) -> int:
    """Write the explorer into the empty ``folder``; its size in bytes."""
    for page_file in sorted((SOURCE / "page").iterdir()):
        shutil.copy2(page_file, folder / page_file.name)
    (folder / "pyodide").mkdir()
    for name in (*RUNTIME, "pyodide-lock.json"):
        shutil.copy2(PYODIDE / name, folder / "pyodide" / name)
    names = wheels(folder / "wheels")
    run(
        [
            "node",
            str(BYTECODE),
            str(folder / "pyodide"),
            str(folder / "wheels"),
            str(folder / "wheels" / "bytecode.zip"),
        ],
        "compiling the wheels' modules in Pyodide",
    )
    snapshot = folder / "pyodide" / "snapshot.bin.gz"
    run(
        ["node", str(SNAPSHOT), str(folder / "pyodide"), str(snapshot)],
        "making the interpreter's snapshot in Pyodide",
    )
    bundle = {
        "pyodide": pinned(),
        "snapshot": snapshot.name,
        "wheels": names,
        "bytecode": "bytecode.zip",
        "bytes": size(folder),
    }
    (folder / "bundle.json").write_text(json.dumps(bundle, indent=1) + "\n", encoding="utf-8")
    return size(folder)


def build(destination: Path) -> int:
    """Build the explorer into ``destination`` (replacing a previous build); its size."""
    if installed() != pinned():
        run(["npm", "ci", "--prefix", str(SOURCE), "--no-audit", "--no-fund"], "npm ci")
    destination.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{destination.name}-", dir=destination.parent))
    work.chmod(0o755)  # served as the docs are, not private as mkdtemp makes it
    try:
        total = assemble(work)
        shutil.rmtree(destination, ignore_errors=True)
        work.rename(destination)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return total


def main(argv: list[str]) -> int:
    destination = Path(argv[0]) if argv else ROOT / "docs" / "_build" / "html" / "explorer"
    if shutil.which("npm") is None:
        print("explorer: not built, npm is not installed (Node.js 18 or later)", file=sys.stderr)
        return 0
    try:
        total = build(destination)
    except (BuildFailed, OSError) as error:
        print(f"explorer: {error}", file=sys.stderr)
        return 1
    print(f"explorer: built {destination} ({total / 1e6:.1f} MB, Pyodide {pinned()})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
