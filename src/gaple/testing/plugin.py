"""The pytest plugin: every conformance vector as a test item against your engine.

Name the engine on the command line::

    pytest --gaple-impl 'python my_adapter.py'

or in ``conftest.py``, with an adapter command or a function that makes an in-process engine
(an object with ``request(message) -> reply`` and ``close()``, as
:class:`gaple.conformance.runner.engines.Engine` describes)::

    @pytest.hookimpl(optionalhook=True)  # so that -p no:gaple still runs the other tests
    def pytest_gaple_engine(config):
        return "python my_adapter.py"

The cases are the items of that ``conftest.py`` (under ``--gaple-impl`` without such a hook,
of the first ``conftest.py`` collected), collected whenever pytest collects that file, each
named by its case ID, ``conftest.py::play-domino4d-e002``: ``--lf``, ``--sw``, ``--co`` and a
node ID pasted back work as for any test, and ``pytest test_props.py`` runs no case. Each item
carries its rule IDs as markers (``play.match-end`` as ``play_match_end``, so ``-m
play_match_end``), as ``-k`` keywords (``-k play.match-end``) and as the JUnit property
``rules``. A case is checked at the levels the engine declares in its hello (narrowed with
``--gaple-level``), exactly as ``gaple conformance run`` does: a case the engine does not
support, or that needs a level not checked, is a pytest skip with the reason; a difference
fails with the rule ID, the step and the expected and actual answers; an engine that crashes,
hangs or leaves the protocol fails the item and is restarted. Without an engine named, the
plugin adds no items and loads nothing.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias

import pytest
from attrs import frozen

if TYPE_CHECKING:
    from gaple.conformance.runner.engines import Engine
    from gaple.conformance.runner.run import CaseOutcome, EngineInfo

__all__ = [
    "CaseFailed",
    "ConformanceCase",
    "ConformanceFile",
    "EngineSource",
    "ListedCase",
    "check_options",
    "marker",
]

EngineSource: TypeAlias = str | Callable[[], "Engine"]
"""What ``pytest_gaple_engine`` returns: an adapter command, or a function making an engine."""

_LEVELS = ("line", "turns", "count", "points", "rules")
# gaple.conformance.vectors.cases.LEVELS, repeated so that --help does not import the
# conformance kit; tests/test_pytest_plugin.py checks the two agree.


class _Hooks:
    @pytest.hookspec(firstresult=True)
    def pytest_gaple_engine(self, config: pytest.Config) -> EngineSource | None:
        """The engine the conformance items run against: an adapter command (a shell
        command line) or a function returning a new in-process engine; None for no items."""
        raise NotImplementedError


def pytest_addhooks(pluginmanager: pytest.PytestPluginManager) -> None:
    """Declare the ``pytest_gaple_engine`` hook a ``conftest.py`` may implement."""
    pluginmanager.add_hookspecs(_Hooks)


def pytest_addoption(parser: pytest.Parser) -> None:
    """The ``--gaple-*`` options."""
    group = parser.getgroup("gaple", "gaple conformance vectors")
    group.addoption(
        "--gaple-impl",
        metavar="COMMAND",
        help="run every conformance vector against this adapter command (protocol v1)",
    )
    group.addoption(
        "--gaple-level",
        action="append",
        choices=_LEVELS,
        default=[],
        help="only check these levels (repeatable; default: all the engine declares)",
    )
    group.addoption(
        "--gaple-variant",
        action="append",
        default=[],
        metavar="NAME",
        help="only the cases of this preset (repeatable; default: all)",
    )
    group.addoption(
        "--gaple-timeout",
        type=float,
        default=10.0,
        metavar="SECONDS",
        help="seconds to wait for each reply of an adapter command (default 10)",
    )


class CaseFailed(Exception):
    """The engine's answer differs from the spec's in a case."""

    def __init__(self, outcome: CaseOutcome) -> None:
        super().__init__(outcome.describe())
        self.outcome = outcome


class ConformanceFile(pytest.File):
    """The conformance cases as the items of the ``conftest.py`` that names the engine, and
    the one engine they share (restarted after an error, stopped when its items are done)."""

    def __init__(self, *, make_engine: Callable[[], Engine], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.make_engine = make_engine
        self._engine: Engine | None = None
        self._info: EngineInfo | None = None

    def collect(self) -> Iterator[ConformanceCase]:
        """One item per case, named by its case ID."""
        cases = _cases(self.config)
        for rule_id in sorted({rule_id for case in cases for rule_id in case.rule_ids}):
            # Registered, so that --strict-markers accepts them and --markers lists them.
            self.config.addinivalue_line("markers", f"{marker(rule_id)}: cases of rule {rule_id}")
        for case in cases:
            yield ConformanceCase.from_parent(self, name=case.case_id, listed=case)

    def run(self, case: dict[str, Any]) -> CaseOutcome:
        """Play ``case`` on the engine, starting it (and greeting it) when needed."""
        from gaple.conformance.runner.engines import EngineError  # noqa: PLC0415
        from gaple.conformance.runner.run import hello, run_case  # noqa: PLC0415

        try:
            if self._engine is None or self._info is None:
                self._engine = self.make_engine()
                self._info = hello(self._engine)
            wanted = self.config.getoption("gaple_level") or self._info.levels
            checked = [level for level in self._info.levels if level in wanted]
            return run_case(self._engine, self._info, case, checked)
        except EngineError:
            self.teardown()
            raise

    def teardown(self) -> None:
        """Stop the engine, if one is running."""
        if self._engine is not None:
            self._engine.close()
        self._engine = None
        self._info = None


def marker(rule_id: str) -> str:
    """The marker of the cases of a rule: its ID with ``_`` for ``.`` and ``-``, as a marker
    name is a Python name (``play.match-end`` is ``play_match_end``)."""
    return rule_id.replace(".", "_").replace("-", "_")


@frozen
class ListedCase:
    """A shipped case as its item holds it: what names and marks the item, and the text of
    its file, read into the case only when the item needs it. Some 600 cases read whole and
    kept through the session would cost more than the collection itself: each of Python's
    full garbage collections (pytest runs two at its end) walks every part of every case."""

    case_id: str
    path: str
    """The case file's path under the spec folder (``vectors/v1/<topic>/<id>.json``)."""
    rule_ids: tuple[str, ...]
    text: str

    @classmethod
    def of(cls, path: str, text: str) -> tuple[ListedCase, str]:
        """The case file's listing, and the preset its rules start from."""
        case = json.loads(text)
        return cls(case["id"], path, tuple(case["rule_ids"]), text), case["variant"]["preset"]


class ConformanceCase(pytest.Item):
    """One conformance case, marked with its rule IDs."""

    def __init__(self, *, listed: ListedCase, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.listed = listed
        rule_ids = listed.rule_ids
        for rule_id in rule_ids:
            self.add_marker(marker(rule_id))
        # -k matches the rule IDs as written too, not only their marker names.
        self.extra_keyword_matches.update(rule_ids)
        self.user_properties.append(("rules", " ".join(rule_ids)))

    @property
    def case(self) -> dict[str, Any]:
        """The case, read from the text of its file (:class:`ListedCase` says why it is not
        kept)."""
        case: dict[str, Any] = json.loads(self.listed.text)
        return case

    def runtest(self) -> None:
        """Run the case; a skip of the runner is a pytest skip, a failure raises."""
        assert isinstance(self.parent, ConformanceFile)
        outcome = self.parent.run(self.case)
        if outcome.status == "skipped":
            pytest.skip(outcome.message)
        if outcome.status == "failed":
            self.user_properties.append(("rule", outcome.rule))
            raise CaseFailed(outcome)

    def repr_failure(
        self,
        excinfo: pytest.ExceptionInfo[BaseException],
        style: Any = None,
    ) -> str:
        """The rule broken and what differed (the first line, which the short summary shows
        after the node ID), then what the case is about."""
        if isinstance(excinfo.value, CaseFailed):
            outcome = excinfo.value.outcome
            broken = "" if outcome.rule is None else f"{outcome.rule}: "
            said = f"{broken}{outcome.detail()}\ncase: {self.case['description']}"
            # Imported on a failure only: every pytest session of the user loads the plugin.
            from gaple.conformance.runner.summary import docs_base, docs_link  # noqa: PLC0415

            link = None if outcome.rule is None else docs_link(outcome.rule, docs_base())
            return said if link is None else f"{said}\ndocs of {outcome.rule}: {link}"
        from gaple.conformance.runner.engines import EngineError  # noqa: PLC0415

        if isinstance(excinfo.value, EngineError):
            return f"the engine errored: {excinfo.value}"
        return str(super().repr_failure(excinfo, style=style))

    def reportinfo(self) -> tuple[str, int | None, str]:
        """Where the case comes from, for the report header of a failure."""
        return (f"spec/{self.listed.path}", None, self.name)


def _engine_factory(config: pytest.Config) -> Callable[[], Engine] | None:
    command: str | None = config.getoption("gaple_impl")
    source: EngineSource | None = (
        command if command is not None else config.hook.pytest_gaple_engine(config=config)
    )
    if source is None:
        return None
    if callable(source):
        return source
    from gaple.conformance.runner.engines import SubprocessEngine  # noqa: PLC0415

    timeout: float = config.getoption("gaple_timeout")
    return lambda: SubprocessEngine(source, timeout=timeout)


def _hook_home(config: pytest.Config) -> Path | None:
    """The ``conftest.py`` that implements ``pytest_gaple_engine`` (the first pytest calls)."""
    for impl in reversed(config.pluginmanager.hook.pytest_gaple_engine.get_hookimpls()):
        name = getattr(impl.plugin, "__file__", None)
        if name is not None and Path(name).name == "conftest.py":
            return Path(name)
    return None


_FIRST = pytest.StashKey[Path]()


def pytest_configure(config: pytest.Config) -> None:
    """Check every ``--gaple-*`` option before collecting: a bad value is one usage error
    (``ERROR: ...``, exit status 4), not an error in each item."""
    presets = check_options(
        impl=config.getoption("gaple_impl"),
        levels=config.getoption("gaple_level"),
        variants=config.getoption("gaple_variant"),
        timeout=config.getoption("gaple_timeout"),
    )
    if presets is not None:
        config.stash[_PRESETS] = presets


def check_options(
    *, impl: str | None, levels: Sequence[str], variants: Sequence[str], timeout: float
) -> set[str] | None:
    """The presets that ``--gaple-variant`` names (None: no such option, every case), once
    every ``--gaple-*`` option is checked, with the rule and the words of the matching option
    of ``gaple conformance run``: ``--impl``, ``--level``, ``--based-on`` and ``--timeout``.

    Raises:
        pytest.UsageError: a value is refused; the message is one line naming the option.
    """
    # A module importing nothing more of gaple: a session that names no engine stays light.
    from gaple.conformance.wire.options import (  # noqa: PLC0415
        BadOption,
        check_command,
        check_timeout,
    )

    try:
        if impl is not None:
            check_command(impl, "--gaple-impl")
        check_timeout(timeout, "--gaple-timeout")
    except BadOption as error:
        raise pytest.UsageError(str(error)) from None
    for level in levels:  # the parser's choices already, unless set in some other way
        if level not in _LEVELS:
            choices = ", ".join(map(repr, _LEVELS))
            msg = f"--gaple-level: invalid choice: {level!r} (choose from {choices})"
            raise pytest.UsageError(msg)
    if not variants:
        return None
    from gaple.presets import UnknownPreset, find_preset  # noqa: PLC0415

    try:
        return {find_preset(name).name for name in variants}
    except UnknownPreset as error:
        raise pytest.UsageError(f"--gaple-variant: {error}") from None


_PRESETS = pytest.StashKey[set[str]]()


def _cases(config: pytest.Config) -> list[ListedCase]:
    """The cases gaple ships, of the presets of ``--gaple-variant`` when given.

    Raises:
        ConformanceFile.CollectError: the shipped cases cannot be read or are not the set
            recorded beside them (one line, shown as the collection error).
    """
    from gaple.conformance.vectors.packaged import NotShipped, shipped_texts  # noqa: PLC0415

    presets = config.stash.get(_PRESETS, None)
    try:
        texts = shipped_texts()
    except NotShipped as error:
        raise ConformanceFile.CollectError(str(error)) from None
    listed = [ListedCase.of(path, text) for path, text in texts.items()]
    return [case for case, preset in listed if presets is None or preset in presets]


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> ConformanceFile | None:
    """The conformance cases, collected from the ``conftest.py`` that names the engine with
    ``pytest_gaple_engine``, else (``--gaple-impl``) from the first ``conftest.py`` collected."""
    if file_path.name != "conftest.py":
        return None
    make_engine = _engine_factory(parent.config)
    if make_engine is None:
        return None
    home = _hook_home(parent.config) or parent.config.stash.setdefault(_FIRST, file_path)
    if file_path != home:
        return None
    return ConformanceFile.from_parent(parent, path=file_path, make_engine=make_engine)
