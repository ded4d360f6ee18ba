"""A broken adapter is named at once: ``gaple conformance run`` greets the engine before it
reads or makes a case, and a failure shows the head and the tail of the engine's stderr, where
a Python traceback names the adapter's file and line (its top) and Node names the location of
a syntax error (its first line)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from gaple.cli import main
from gaple.conformance.runner.engines import (
    STDERR_LINES,
    EngineError,
    StderrLines,
    SubprocessEngine,
)

HELLO = {"type": "hello", "protocol": 1}


def _adapter(folder: Path, source: str, name: str = "adapter.py") -> str:
    path = folder / name
    path.write_text(source, encoding="utf-8")
    return f"{sys.executable} {path}"


def _refusal(engine: SubprocessEngine) -> str:
    with pytest.raises(EngineError) as raised:
        engine.request(HELLO)
    engine.close()
    return str(raised.value)


def test_a_python_adapter_with_a_syntax_error_is_named_with_its_file_and_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The adapter imports its engine, whose second line does not parse. Python prints seven
    # lines: "Traceback ...", the adapter's File line, "import engine", the engine's File
    # line, the bad line, the caret, "SyntaxError: ...". The last five alone (all the runner
    # kept before) lost the adapter's own file and line.
    (tmp_path / "engine.py").write_text("x = 1\ndef broken(:\n    pass\n", encoding="utf-8")
    command = _adapter(tmp_path, "import json\nimport engine\n")
    assert main(["conformance", "run", "--impl", command]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert "does not answer hello: the engine exited with status 1" in err[0]
    assert f'File "{tmp_path / "adapter.py"}", line 2' in err[0]
    assert f'File "{tmp_path / "engine.py"}", line 2' in err[0]
    assert err[0].endswith("SyntaxError: invalid syntax")


NODE_LIKE = """\
import sys
sys.stderr.write("/home/me/engine/rules.js:12\\n    if (left == ) {\\n                ^\\n\\n")
sys.stderr.write("SyntaxError: Unexpected token ')'\\n")
for n in range(40):
    sys.stderr.write(f"    at loader.js:{n}:10\\n")
sys.stderr.write("Node.js v20.11.0\\n")
sys.exit(1)
"""
"""An adapter dying as Node does on a syntax error: the location first, then the code, a
caret, a blank line, the message, a long stack, the version last."""


def test_a_long_stderr_shows_its_first_and_last_lines_and_counts_those_between(
    tmp_path: Path,
) -> None:
    message = _refusal(SubprocessEngine(_adapter(tmp_path, NODE_LIKE)))
    said = message.split("; its stderr: ", 1)[1].split(" | ")
    # 45 lines that are not blank: 4 before the stack, 40 of it, the version. The first 10
    # (the location, the code, the caret, the message and 6 of the stack) and the last 10
    # (9 of the stack and the version) are shown; 25 are not.
    assert said[:4] == [
        "/home/me/engine/rules.js:12",
        "    if (left == ) {",
        "                ^",
        "SyntaxError: Unexpected token ')'",
    ]
    assert said[4:10] == [f"    at loader.js:{n}:10" for n in range(6)]
    assert said[10] == "... 25 lines not shown ..."
    assert said[11:] == [*(f"    at loader.js:{n}:10" for n in range(31, 40)), "Node.js v20.11.0"]


def test_garbage_on_stdout_comes_with_what_the_engine_said_on_stderr(tmp_path: Path) -> None:
    # The engine explains itself on stderr, then answers hello with a line that is not JSON.
    source = (
        "import sys\n"
        "sys.stdin.readline()\n"
        "sys.stderr.write('warning: rules file missing, using defaults\\n')\n"
        "sys.stderr.flush()\n"
        "print('hello?', flush=True)\n"
        "sys.stdin.readline()\n"
    )
    message = _refusal(SubprocessEngine(_adapter(tmp_path, source)))
    assert message == (
        "unreadable reply to 'hello' (not JSON): 'hello?'; its stderr: "
        "warning: rules file missing, using defaults"
    )


def test_a_quiet_engine_adds_nothing(tmp_path: Path) -> None:
    message = _refusal(SubprocessEngine(_adapter(tmp_path, "import sys\nsys.exit(4)\n")))
    assert message == "the engine exited with status 4 instead of answering 'hello'"


def _said(*chunks: bytes) -> str:
    lines = StderrLines()
    for chunk in chunks:
        lines.keep(chunk)
    return lines.said()


def test_stderr_lines_are_whole_lines_across_reads_and_blank_ones_are_left_out() -> None:
    # "first" arrives in two reads; the blank line and the spaces-only one are not lines
    # worth showing; "last" has no newline yet and is shown all the same.
    assert _said(b"fir", b"st\n\n   \nsecond\nla", b"st") == "; its stderr: first | second | last"
    assert _said() == ""
    assert _said(b"\n \n") == ""


@pytest.mark.parametrize(("count", "hidden"), [(20, None), (21, "1 line"), (23, "3 lines")])
def test_stderr_lines_hide_only_what_lies_between_the_first_and_last_ten(
    count: int, hidden: str | None
) -> None:
    # 20 lines fit in the first ten and the last ten: every one is shown.
    assert STDERR_LINES == 10
    text = "".join(f"line {n}\n" for n in range(count)).encode()
    said = _said(text).removeprefix("; its stderr: ").split(" | ")
    middle = [] if hidden is None else [f"... {hidden} not shown ..."]
    first = [f"line {n}" for n in range(10)]
    assert said == [*first, *middle, *(f"line {n}" for n in range(count - 10, count))]


def test_a_line_without_end_is_kept_to_its_last_characters() -> None:
    # A million bytes and no newline: the shown line is the end of what was written, 200
    # characters at most (the last "x" of the run and the "END" after it).
    said = _said(b"x" * 1_000_000, b"END")
    assert said.endswith("xxEND")
    assert len(said.removeprefix("; its stderr: ")) == 200


def test_the_engine_is_greeted_before_any_case_is_made(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # A scope no committed case covers (pagat-4x7 with a blocked hand passing) makes cases to
    # measure before the run and keeps them in the cache folder. The engine cannot start: the
    # run ends at its hello, one line and status 2, with no case made. Before, a scope given
    # on the command line was run without a greeting: the cases were made first (seconds),
    # then every case errored.
    monkeypatch.setenv("GAPLE_CACHE_DIR", str(tmp_path / "cache"))
    command = _adapter(tmp_path, "raise SystemExit('no engine here')\n")
    argv = ["conformance", "run", "--impl", command, "--variant", "pagat-4x7"]
    assert main([*argv, "--set", "blocked_action=pass"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [
        "gaple conformance: error: the engine does not answer hello: the engine exited with "
        "status 1 instead of answering 'hello'; its stderr: no engine here"
    ]
    assert not (tmp_path / "cache").exists()
