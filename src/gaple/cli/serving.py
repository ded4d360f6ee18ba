"""The built docs served from this machine, for the rules explorer (``gaple docs explorer``).

Browsers refuse to run a page's modules and WebAssembly from ``file://`` addresses, so the
explorer, which runs the reference through Pyodide, is served over HTTP from ``127.0.0.1``
only: nothing leaves the machine and nothing is fetched from elsewhere.
"""

from __future__ import annotations

import contextlib
import functools
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

__all__ = ["served"]


class _Quiet(SimpleHTTPRequestHandler):
    """Files of one folder with the types modules and WebAssembly need, and no request log
    (a line per file would bury the command's own output)."""

    extensions_map = {  # noqa: RUF012  # the base class's own form
        **SimpleHTTPRequestHandler.extensions_map,
        ".mjs": "text/javascript",
        ".js": "text/javascript",
        ".wasm": "application/wasm",
        ".json": "application/json",
        ".whl": "application/zip",
    }

    def log_message(self, format: str, *args: Any) -> None:  # the base's names
        """Keep the request log off the terminal."""


@contextlib.contextmanager
def served(folder: Path, port: int = 0) -> Iterator[str]:
    """Serve ``folder`` on ``127.0.0.1`` while the block runs, on ``port`` or, when that is
    taken (or 0), on any free one; the address of its root, ending in ``/``."""
    handler = functools.partial(_Quiet, directory=str(folder))
    try:
        server = ThreadingHTTPServer(("127.0.0.1", port), handler)
    except OSError:
        server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
