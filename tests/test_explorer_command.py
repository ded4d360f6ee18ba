"""``gaple docs explorer``: the built docs served from 127.0.0.1 (gaple.cli.serving), since
browsers do not run the explorer's modules and WebAssembly from file:// addresses."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

import gaple.cli.docs
from gaple.cli import main
from gaple.cli.serving import served
from test_explorer_node import built_explorer


def test_the_server_gives_modules_and_webassembly_the_types_browsers_require(
    tmp_path: Path,
) -> None:
    # A browser runs a module only of a JavaScript type, and compiles WebAssembly as it streams
    # only of type application/wasm.
    (tmp_path / "page.mjs").write_text("export {};\n", encoding="utf-8")
    (tmp_path / "runtime.wasm").write_bytes(b"\0asm")
    with served(tmp_path) as root:
        assert root.startswith("http://127.0.0.1:")
        with urllib.request.urlopen(f"{root}page.mjs") as answer:
            assert answer.headers["Content-Type"] == "text/javascript"
        with urllib.request.urlopen(f"{root}runtime.wasm") as answer:
            assert answer.headers["Content-Type"] == "application/wasm"
            assert answer.read() == b"\0asm"


def test_docs_without_an_explorer_say_how_to_get_one_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "index.html").write_text("<html></html>", encoding="utf-8")
    monkeypatch.setattr(gaple.cli.docs, "local_docs", lambda: tmp_path)
    assert main(["docs", "explorer", "--print-url"]) == 2
    err = capsys.readouterr().err
    assert err == (
        f"gaple docs: error: no rules explorer in {tmp_path}: run make docs in a source "
        "checkout of gaple (it needs npm); the wheel does not carry it (14 MB of Pyodide)\n"
    )


def test_the_command_serves_the_built_explorer_until_interrupted() -> None:
    built_explorer()
    process = subprocess.Popen(
        [sys.executable, "-m", "gaple", "docs", "explorer", "--print-url"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        url = line.split(" at ", 1)[1].split(" ", 1)[0]
        assert url.startswith("http://127.0.0.1:")
        assert url.endswith("/explorer/index.html")
        with urllib.request.urlopen(url) as answer:
            assert b"Gaple rules explorer" in answer.read()
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=20)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 0
    assert err == "gaple docs: stopped serving the explorer\n"


def test_a_taken_port_gives_way_to_a_free_one(tmp_path: Path) -> None:
    with served(tmp_path) as first:
        port = int(first.rstrip("/").rsplit(":", 1)[1])
        with served(tmp_path, port) as second:
            assert second != first
            assert second.startswith("http://127.0.0.1:")
