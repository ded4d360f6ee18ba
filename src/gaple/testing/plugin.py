"""The pytest plugin: every conformance vector as a test item against your engine.

Name the engine on the command line::

    pytest --gaple-impl 'python my_adapter.py'

or in ``conftest.py``, with an adapter command or a function that makes an in-process engine
(an object with ``request(message) -> reply`` and ``close()``, as
:class:`gaple.conformance.engines.Engine` describes)::

    def pytest_gaple_engine(config):
        return "python my_adapter.py"

Each case becomes one item named ``gaple::<topic>/<case id>[<rule IDs>]``, so ``-k
block.pass`` selects the cases of a rule. A case is checked at the levels the engine declares
in its hello (narrowed with ``--gaple-level``), exactly as ``gaple conformance run`` does: a
case the engine does not support, or that needs a level not checked, is a pytest skip with the
reason; a difference fails with the step, the rule ID and the expected and actual answers; an
engine that crashes, hangs or leaves the protocol fails the item and is restarted. Without an
engine named, the plugin adds no items and loads nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from gaple.conformance.engines import Engine
    from gaple.conformance.runner import CaseOutcome, EngineInfo

__all__ = ["CaseFailed", "ConformanceCase", "ConformanceSuite", "EngineSource"]

EngineSource = str | Callable[[], "Engine"]
"""What ``pytest_gaple_engine`` returns: an adapter command, or a function making an engine."""

_LEVELS = ("line", "turns", "count", "points", "rules")
# gaple.conformance.cases.LEVELS, repeated so that --help does not import the conformance kit;
# tests/test_pytest_plugin.py checks the two agree.


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


class ConformanceSuite(pytest.Collector):
    """The conformance cases, and the one engine they share (restarted after an error)."""

    def __init__(
        self,
        *,
        make_engine: Callable[[], Engine],
        cases: Sequence[dict[str, Any]],
        levels: Sequence[str],
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.make_engine = make_engine
        self.cases = cases
        self.levels = levels
        self._engine: Engine | None = None
        self._info: EngineInfo | None = None

    def collect(self) -> Iterator[ConformanceCase]:
        """One item per case."""
        for case in self.cases:
            name = f"{case['topic']}/{case['id']}[{','.join(case['rule_ids'])}]"
            yield ConformanceCase.from_parent(self, name=name, case=case)

    def run(self, case: dict[str, Any]) -> CaseOutcome:
        """Play ``case`` on the engine, starting it (and greeting it) when needed."""
        from gaple.conformance.engines import EngineError  # noqa: PLC0415
        from gaple.conformance.runner import hello, run_case  # noqa: PLC0415

        try:
            if self._engine is None or self._info is None:
                self._engine = self.make_engine()
                self._info = hello(self._engine)
            wanted = self.levels or self._info.levels
            checked = [level for level in self._info.levels if level in wanted]
            return run_case(self._engine, self._info, case, checked)
        except EngineError:
            self.close()
            raise

    def close(self) -> None:
        """Stop the engine, if one is running."""
        if self._engine is not None:
            self._engine.close()
        self._engine = None
        self._info = None


class ConformanceCase(pytest.Item):
    """One conformance case."""

    def __init__(self, *, case: dict[str, Any], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.case = case

    def runtest(self) -> None:
        """Run the case; a skip of the runner is a pytest skip, a failure raises."""
        assert isinstance(self.parent, ConformanceSuite)
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
        """The runner's one-line description, the rule broken and what the case is about."""
        if isinstance(excinfo.value, CaseFailed):
            outcome = excinfo.value.outcome
            about = self.case["description"]
            return f"{outcome.describe()}\nrule broken: {outcome.rule}\ncase: {about}"
        from gaple.conformance.engines import EngineError  # noqa: PLC0415

        if isinstance(excinfo.value, EngineError):
            return f"{self.case['id']}: the engine errored: {excinfo.value}"
        return str(super().repr_failure(excinfo, style=style))

    def reportinfo(self) -> tuple[str, int | None, str]:
        """Where the case comes from, for the report header of a failure."""
        return (f"spec/vectors/v1/{self.case['topic']}/{self.case['id']}.json", None, self.name)


def _engine_factory(config: pytest.Config) -> Callable[[], Engine] | None:
    command: str | None = config.getoption("gaple_impl")
    source: EngineSource | None = (
        command if command is not None else config.hook.pytest_gaple_engine(config=config)
    )
    if source is None:
        return None
    if callable(source):
        return source
    from gaple.conformance.engines import SubprocessEngine  # noqa: PLC0415

    timeout: float = config.getoption("gaple_timeout")
    return lambda: SubprocessEngine(source, timeout=timeout)


def _cases(config: pytest.Config) -> list[dict[str, Any]]:
    from gaple.conformance.scenarios import all_cases  # noqa: PLC0415
    from gaple.presets import UnknownPreset, find_preset  # noqa: PLC0415

    cases = all_cases()
    variants: list[str] = config.getoption("gaple_variant")
    if variants:
        try:
            names = {find_preset(name).name for name in variants}
        except UnknownPreset as error:
            raise pytest.UsageError(f"--gaple-variant: {error}") from None
        cases = [case for case in cases if case["variant"]["preset"] in names]
    return cases


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(
    session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
) -> None:
    """Add the conformance items, before ``-k`` and ``-m`` select among all items."""
    make_engine = _engine_factory(config)
    if make_engine is None:
        return
    suite = ConformanceSuite.from_parent(
        session,
        name="gaple",
        make_engine=make_engine,
        cases=_cases(config),
        levels=config.getoption("gaple_level"),
    )
    config.stash[_SUITE] = suite
    items.extend(suite.collect())


_SUITE = pytest.StashKey[ConformanceSuite]()


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Stop the engine."""
    suite = session.config.stash.get(_SUITE, None)
    if suite is not None:
        suite.close()
