"""Sphinx extension that renders the rules reference from the package itself.

Nothing the package already states is retyped in the docs: rules come from
:data:`gaple.registry.RULES`, sources from :data:`gaple.sources.SOURCES`, options from
:func:`gaple.rules.option_info` and variants from :data:`gaple.presets.PRESETS`. Hand-written
pages place and explain them; if the code changes, the pages change with it, and if a rule,
source, option or preset is left undocumented the build warns (and ``-W`` fails it).

Each rule's box also names the reference function that decides it
(:func:`gaple.reference.deciding.decided_by`), linked to its highlighted source on the page
``sphinx.ext.viewcode`` writes, and shows its code folded; a rule that no function decides, or
that more than one does, is a warning.

Directives
    ``.. rule:: ID``             one rule, anchored at ``#rule-<id with dots as hyphens>``, on
                                 the page named after its section (``rules/turn``)
    ``.. rule-index::``          every rule ID with its address
    ``.. all-sources::``         every source, anchored at ``#source-<key>``
    ``.. all-options::``         every option, anchored at ``#option-<name>``
    ``.. preset:: NAME``         one variant, anchored at ``#preset-<name>``
    ``.. preset-matrix::``       the variants side by side, one column per preset
    ``.. worked-example:: ID``   a picture and a doctest, run against the package
    ``.. diagram::``             a picture from Python code using :mod:`gaple.render`
    ``.. error-codes::``         the table of :data:`gaple.hand.ERROR_CODES`
    ``.. conformance-vectors::`` the committed vectors by topic and by rule (``spec/vectors``)
    ``.. protocol-messages::``   the adapter protocol's messages (``spec/protocol``)
    ``.. package-modules:: PKG`` the API reference of every public module of a package

Roles: ``:rule:``, ``:source:``, ``:opt:``, ``:preset:``, ``:example:``.
"""

from __future__ import annotations

import ast
import contextlib
import doctest
import enum
import functools
import html
import importlib
import inspect
import io
import json
import pkgutil
import posixpath
import textwrap
import urllib.parse
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, ClassVar, cast

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

import gaple
import gaple.reference  # imports every reference module, so each decider is in the table
from gaple.io import position_to_json, rules_to_json, state_to_json
from gaple.presets import PRESETS, Preset
from gaple.reference.deciding import DECIDERS, decided_by
from gaple.registry import RULES, Rule, rule_anchor, rule_page, rule_url
from gaple.result import HandResult, Position
from gaple.rules import Ruleset, option_info
from gaple.sources import SOURCES
from gaple.state import ERROR_CODES, State

logger = logging.getLogger(__name__)

_OPTIONS = {info.name: info for info in option_info()}
_DEFAULTS = Ruleset()
_SPEC = Path(__file__).resolve().parents[2] / "spec"
"""The conformance kit's committed schemas and vectors, beside the docs in the repository."""


@functools.cache
def _vectors() -> dict[str, dict[str, Any]]:
    """Every committed conformance case, by ID (empty when the repository has none)."""
    cases: dict[str, dict[str, Any]] = {}
    for path in sorted((_SPEC / "vectors").glob("v*/**/*.json")):
        case = json.loads(path.read_text(encoding="utf-8"))
        case["path"] = path.relative_to(_SPEC.parent).as_posix()
        cases[case["id"]] = case
    return cases


def _anchor(kind: str, name: str) -> str:
    return f"{kind}-" + name.replace("_", "-").replace(".", "-").lower()


def _value(value: Any) -> str:
    """An option value as it is written in JSON and in ``--set`` overrides."""
    if isinstance(value, enum.Enum):
        return str(value.value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    if isinstance(value, frozenset):
        return " ".join(str(t) for t in sorted(value)) or "none"
    return str(value)


def _sources(keys: tuple[str, ...]) -> str:
    return ", ".join(f":source:`{key}`" for key in keys)


def _indent(text: str, by: str = "   ") -> str:
    return "\n".join(by + line if line else "" for line in text.splitlines())


_PACKAGE_FILES = sorted(
    [str(path) for path in Path(gaple.__file__).parent.rglob("*.py")]
    + [str(path) for path in _SPEC.glob("**/*.json")]
    + [__file__]
)


def _depends_on_the_code(directive: SphinxDirective) -> None:
    """Rebuild the page whenever a module, a committed vector or this extension changes."""
    for path in _PACKAGE_FILES:
        directive.env.note_dependency(path)


class _RenderDirective(SphinxDirective):
    """A directive that renders generated reStructuredText and registers anchors."""

    def _register(self, kind: str, name: str, anchor: str) -> None:
        _depends_on_the_code(self)
        std = self.env.domains.standard_domain
        std.note_object(kind, name, anchor, location=self.get_location())

    def _box(self, anchor: str, heading: list[nodes.Node], body: str, css: str) -> nodes.Element:
        box = nodes.container(classes=[css], ids=[anchor])
        title = nodes.paragraph(classes=[f"{css}-title"])
        title.extend(heading)
        title += nodes.reference("", "¶", refid=anchor, classes=["headerlink"])
        box += title
        box.extend(self.parse_text_to_nodes(body))
        return box


def _rule_body(rule: Rule) -> str:
    changed_by = [info.name for info in option_info() if rule.id in info.rule_ids]
    codes = [code for code, (ids, _) in ERROR_CODES.items() if rule.id in ids]
    facts = [f"*Sources:* {_sources(rule.sources)}."]
    if changed_by:
        facts.append("*Options:* " + ", ".join(f":opt:`{name}`" for name in changed_by) + ".")
    if codes:
        facts.append("*Error codes:* " + ", ".join(f"``{code}``" for code in codes) + ".")
    vectors = [case for case in _vectors().values() if rule.id in case["rule_ids"]]
    if vectors:
        facts.append(f"*Conformance vectors:* {len(vectors)} (:ref:`by rule <vector-coverage>`).")
    return f"{rule.statement}\n\n" + " ".join(facts) + "\n"


def helpers_of(function: Callable[..., object]) -> list[Callable[..., object]]:
    """The reference functions ``function`` calls by name, in the order of their first call:
    what a reader of the rule's code reads next. A function deciding a rule of its own is
    left out: its rule has its own box."""
    deciders = {decider for marked in DECIDERS.values() for decider in marked}
    (definition,) = ast.parse(textwrap.dedent(inspect.getsource(function))).body
    assert isinstance(definition, ast.FunctionDef)
    calls = sorted(
        (node.lineno, node.col_offset, node.func.id)
        for statement in definition.body  # not the decorators: @decides is no helper
        for node in ast.walk(statement)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
    )
    helpers: list[Callable[..., object]] = []
    for _, _, name in calls:
        called = getattr(function, "__globals__", {}).get(name)
        if (
            inspect.isfunction(called)
            and called.__module__.startswith("gaple.reference.")
            and called not in deciders
            and called not in helpers
        ):
            helpers.append(called)
    return helpers


def _code_nodes(function: Callable[..., object], docname: str, label: str) -> list[nodes.Node]:
    """``label`` and the full name of ``function``, linked to its highlighted source (the page
    of its module that ``sphinx.ext.viewcode`` writes, at the function; a private function has
    no anchor there and is named only), then its code, folded in the HTML."""
    module, qualname = function.__module__, function.__qualname__
    name = f"{module}.{qualname}"
    source = posixpath.relpath(
        posixpath.join("_modules", *module.split(".")), posixpath.dirname(docname) or "."
    )
    link: nodes.Node = nodes.literal(name, name)
    if not qualname.startswith("_"):  # viewcode keeps an anchor for documented names only
        link = nodes.reference("", "", link, internal=True, refuri=f"{source}.html#{qualname}")
    said = nodes.paragraph("", "", nodes.emphasis("", label), nodes.Text(" "), link)
    code = textwrap.dedent(inspect.getsource(function)).rstrip("\n")
    block = nodes.literal_block(code, code, language="python")
    summary = html.escape(f"The code of {qualname}")
    return [
        said,
        nodes.raw(
            "", f'<details class="gaple-decider"><summary>{summary}</summary>', format="html"
        ),
        block,
        nodes.raw("", "</details>", format="html"),
    ]


def decider_nodes(rule_id: str, docname: str) -> list[nodes.Node]:
    """The end of a rule's box on page ``docname``: the reference function that decides the
    rule and its code, then each reference function it calls (:func:`helpers_of`) and theirs.

    Raises:
        KeyError: no reference function, or more than one, decides the rule.
    """
    function = decided_by(rule_id)
    shown = _code_nodes(function, docname, "Decided by:")
    for helper in helpers_of(function):
        shown.extend(_code_nodes(helper, docname, "It calls:"))
    return shown


class RuleDirective(_RenderDirective):
    """``.. rule:: play.match-end``: the rule's statement, sources, options and error codes,
    and the reference function that decides it."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        rule_id = self.arguments[0]
        if rule_id not in RULES:
            raise self.error(f"unknown rule ID {rule_id!r}; see gaple.registry.RULES")
        rule = RULES[rule_id]
        if self.env.docname != rule_page(rule_id):
            raise self.error(
                f"rule {rule_id} belongs to section {rule.section!r}, so on page "
                f"{rule_page(rule_id)}, not {self.env.docname}"
            )
        anchor = rule_anchor(rule_id)
        self._register("rule", rule_id, anchor)
        heading: list[nodes.Node] = [
            nodes.strong("", "Rule "),
            nodes.literal(rule_id, rule_id),
            nodes.Text(f" ({rule.section})"),
        ]
        box = self._box(anchor, heading, _rule_body(rule), "gaple-rule")
        try:
            box.extend(decider_nodes(rule_id, self.env.docname))
        except KeyError as error:
            logger.warning(error.args[0], location=self.get_location(), type="gaple")
        return [box]


class PackageModulesDirective(SphinxDirective):
    """``.. package-modules:: gaple.reference``: the API reference of every public module of
    the package, in name order, each docstring's examples run in its module's namespace; so a
    module added to the package is documented, and its code highlighted, without an edit here."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        _depends_on_the_code(self)
        package = importlib.import_module(self.arguments[0])
        lines: list[str] = []
        found = pkgutil.iter_modules(package.__path__, package.__name__ + ".")
        for name in sorted(module.name for module in found):
            if name.rpartition(".")[2].startswith("_"):
                continue
            lines += [".. testsetup:: *", "", f"   import {name}"]
            lines += [f"   globals().update(vars({name}))", "", f".. automodule:: {name}", ""]
        return self.parse_text_to_nodes("\n".join(lines))


class RuleIndexDirective(SphinxDirective):
    """``.. rule-index::``: every rule ID with its section and address, in registry order."""

    def run(self) -> list[nodes.Node]:
        _depends_on_the_code(self)
        lines = [".. list-table::", "   :header-rows: 1", "   :widths: 25 20 55", ""]
        lines += ["   * - Rule ID", "     - Section", "     - Address in these docs"]
        for rule in RULES.values():
            lines.append(f"   * - :rule:`{rule.id}`")
            lines.append(f"     - {rule.section}")
            lines.append(f"     - ``{rule_url(rule.id)}``")
        return self.parse_text_to_nodes("\n".join(lines))


class AllSourcesDirective(_RenderDirective):
    """``.. all-sources::``: every source with what it is and which rules cite it."""

    def run(self) -> list[nodes.Node]:
        result: list[nodes.Node] = []
        for source in SOURCES.values():
            anchor = _anchor("source", source.key)
            self._register("source", source.key, anchor)
            citing = [rule.id for rule in RULES.values() if source.key in rule.sources]
            facts = [f"*Language:* {source.language}."]
            facts.append(
                f"*Stored copy:* ``seeds/{source.seed}``."
                if source.seed
                else "*Stored copy:* none."
            )
            if source.url:
                facts.append(f"*Original:* {source.url}")
            body = f"{source.title}.\n\n{source.note}\n\n" + " ".join(facts) + "\n\n"
            if citing:
                body += "*Cited by the rules:* " + ", ".join(f":rule:`{r}`" for r in citing) + "."
            else:
                body += "*Cited by no rule* (only by options and presets)."
            heading: list[nodes.Node] = [nodes.literal(source.key, source.key)]
            result.append(self._box(anchor, heading, body, "gaple-source"))
        return result


def _presets_with(name: str) -> dict[str, list[str]]:
    """Each value of option ``name`` across the presets, with the presets that use it."""
    values: dict[str, list[str]] = {}
    for preset in PRESETS.values():
        values.setdefault(_value(getattr(preset.rules, name)), []).append(preset.name)
    return values


class AllOptionsDirective(_RenderDirective):
    """``.. all-options::``: every option, its default, rules, sources and preset values."""

    def run(self) -> list[nodes.Node]:
        result: list[nodes.Node] = []
        fields = {a.name: a for a in Ruleset.__attrs_attrs__}
        for info in option_info():
            anchor = _anchor("option", info.name)
            self._register("gaple-option", info.name, anchor)
            kind = fields[info.name].type
            choices = ""
            default = getattr(_DEFAULTS, info.name)
            if isinstance(default, enum.Enum):
                choices = " *Choices:* " + ", ".join(
                    f"``{member.value}``" for member in type(default)
                )
                choices += "."
            uses = "; ".join(
                f"``{value}`` in " + ", ".join(f":preset:`{p}`" for p in presets)
                for value, presets in _presets_with(info.name).items()
            )
            body = (
                f"{info.doc}\n\n*Type:* ``{kind}``. *Default:* ``{_value(default)}``.{choices} "
                f"*Rules:* {', '.join(f':rule:`{r}`' for r in info.rule_ids)}. "
                f"*Sources:* {_sources(info.sources)}.\n\n*Presets:* {uses}.\n"
            )
            heading: list[nodes.Node] = [nodes.literal(info.name, info.name)]
            result.append(self._box(anchor, heading, body, "gaple-option"))
        return result


def _preset_rst(preset: Preset) -> str:
    others = [p for p in PRESETS.values() if p.name != preset.name]
    rows = []
    for name, info in _OPTIONS.items():
        value = _value(getattr(preset.rules, name))
        citation = preset.citation(name)
        if citation is None:
            where = f"default; option's sources {_sources(info.sources)}"
        else:
            note = f" ({citation.note})" if citation.note else ""
            where = _sources(citation.sources) + note
        differ: dict[str, list[str]] = {}
        for other in others:
            theirs = _value(getattr(other.rules, name))
            if theirs != value:
                differ.setdefault(theirs, []).append(f":preset:`{other.name}`")
        cell = "; ".join(f"``{v}`` in {', '.join(names)}" for v, names in differ.items())
        rows.append((f":opt:`{name}`", f"``{value}``", where, cell or "same in all"))
    table = [
        ".. list-table::",
        "   :header-rows: 1",
        "   :widths: 20 12 40 28",
        "   :class: gaple-preset-table",
        "",
        "   * - Option",
        "     - Value",
        "     - Source of the value",
        "     - Other presets, where they differ",
    ]
    for row in rows:
        table.append(f"   * - {row[0]}")
        table.extend(f"     - {cell}" for cell in row[1:])
    diffs = []
    for other in others:
        changed = [
            f":opt:`{name}` ``{_value(getattr(other.rules, name))}``"
            for name in _OPTIONS
            if getattr(other.rules, name) != getattr(preset.rules, name)
        ]
        diffs.append(f"* :preset:`{other.name}` sets " + ", ".join(changed) + ".")
    aliases = ", ".join(f"``{a}``" for a in preset.aliases) or "none"
    cases = [c for c in _vectors().values() if c["variant"]["preset"] == preset.name]
    with_overrides = sum(bool(c["variant"]["overrides"]) for c in cases)
    vectors = (
        f"*Conformance vectors:* {len(cases)} cases play this variant ({with_overrides} of "
        "them with options changed on top of it)."
        if cases
        else ""
    )
    return "\n".join(
        [
            f"{preset.title}",
            "",
            f"*Name:* ``{preset.name}``. *Aliases:* {aliases}. Build it with "
            f'``gaple.ruleset("{preset.name}")`` or play it with ``gaple play --variant '
            f"{preset.name}``. Values are written as in JSON and in overrides.",
            "",
            vectors,
            "",
            *table,
            "",
            f"**Against the other presets.** Starting from ``{preset.name}``, each other preset "
            "changes these options:",
            "",
            *diffs,
            "",
        ]
    )


class PresetDirective(_RenderDirective):
    """``.. preset:: pagat-4x7``: one variant's options, their sources and the differences."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        name = self.arguments[0]
        if name not in PRESETS:
            raise self.error(f"unknown preset {name!r}; see gaple.presets.PRESETS")
        anchor = _anchor("preset", name)
        self._register("preset", name, anchor)
        box = nodes.container(classes=["gaple-preset"], ids=[anchor])
        box.extend(self.parse_text_to_nodes(_preset_rst(PRESETS[name])))
        return [box]


class PresetMatrixDirective(SphinxDirective):
    """``.. preset-matrix::``: every option (rows) in every preset (columns)."""

    def run(self) -> list[nodes.Node]:
        _depends_on_the_code(self)
        lines = [".. list-table::", "   :header-rows: 1", "   :class: gaple-matrix", ""]
        lines.append("   * - Option")
        lines.extend(f"     - :preset:`{name}`" for name in PRESETS)
        for name in _OPTIONS:
            lines.append(f"   * - :opt:`{name}`")
            lines.extend(f"     - ``{_value(getattr(p.rules, name))}``" for p in PRESETS.values())
        return self.parse_text_to_nodes("\n".join(lines))


class ErrorCodesDirective(SphinxDirective):
    """``.. error-codes::``: each error code, the rules it names and its meaning."""

    def run(self) -> list[nodes.Node]:
        _depends_on_the_code(self)
        lines = [".. list-table::", "   :header-rows: 1", ""]
        lines += ["   * - Code", "     - Rules", "     - Meaning"]
        for code, (ids, meaning) in ERROR_CODES.items():
            lines.append(f"   * - ``{code}``")
            lines.append("     - " + ", ".join(f":rule:`{r}`" for r in ids))
            lines.append(f"     - {meaning}")
        return self.parse_text_to_nodes("\n".join(lines))


class VectorsDirective(SphinxDirective):
    """``.. conformance-vectors::``: the committed cases by topic, and by rule ID exercised."""

    def run(self) -> list[nodes.Node]:
        _depends_on_the_code(self)
        cases = _vectors()
        if not cases:
            raise self.error(f"no conformance vectors under {_SPEC / 'vectors'}")
        topics: dict[str, list[dict[str, Any]]] = {}
        for case in cases.values():
            topics.setdefault(case["topic"].split("/")[0], []).append(case)
        lines = [".. list-table::", "   :header-rows: 1", ""]
        lines += ["   * - Topic", "     - Cases", "     - For example"]
        for topic, group in topics.items():
            lines += [f"   * - ``{topic}``", f"     - {len(group)}", f"     - ``{group[0]['id']}``"]
        lines += ["", ".. _vector-coverage:", "", ".. list-table::", "   :header-rows: 1", ""]
        lines += ["   * - Rule", "     - Cases exercising it"]
        for rule_id in RULES:
            count = sum(rule_id in case["rule_ids"] for case in cases.values())
            lines += [f"   * - :rule:`{rule_id}`", f"     - {count or 'none (see below)'}"]
        return self.parse_text_to_nodes("\n".join(lines))


_REPLIES = {
    "hello": ("hello-reply",),
    "start": ("started", "unsupported"),
    "state": ("state-reply",),
    "act": ("ok", "rejected"),
    "result": ("result-reply",),
    "bye": ("bye",),
    "batch": ("batch-reply",),
}
"""Which replies answer which request (any request may also get ``error``)."""


class ProtocolDirective(SphinxDirective):
    """``.. protocol-messages::``: each request, its replies and their fields, from the schemas."""

    def run(self) -> list[nodes.Node]:
        _depends_on_the_code(self)
        folder = _SPEC / "protocol"
        schemas = {p.name.removesuffix(".schema.json"): p for p in folder.glob("*.schema.json")}
        known = set(_REPLIES).union(
            (r for replies in _REPLIES.values() for r in replies), {"error"}
        )
        unknown = sorted(set(schemas).difference(known))
        if unknown or not schemas:
            msg = f"protocol messages without a place on the page: {', '.join(unknown)}"
            raise self.error(msg if unknown else f"no protocol schemas under {folder}")

        def fields(name: str) -> str:
            schema = json.loads(schemas[name].read_text(encoding="utf-8"))
            required = set(schema.get("required", ()))
            names = [
                f"``{key}``" if key in required else f"``{key}`` (optional)"
                for key in schema.get("properties", {})
                if key != "type"
            ]
            return ", ".join(names) or "none"

        lines = [".. list-table::", "   :header-rows: 1", "   :widths: 14 30 14 42", ""]
        lines += ["   * - Request", "     - Fields", "     - Reply", "     - Fields"]
        for request, replies in _REPLIES.items():
            for i, reply in enumerate(replies or ("",)):
                head = (f"``{request}``", fields(request)) if i == 0 else ("", "")
                tail = (f"``{reply.removesuffix('-reply')}``", fields(reply)) if reply else ("", "")
                lines += [f"   * - {head[0]}", f"     - {head[1]}"]
                lines += [f"     - {tail[0]}", f"     - {tail[1]}"]
        return self.parse_text_to_nodes("\n".join(lines))


_NAMESPACE_KEY = "gaple_docs_namespace"


def _namespace(directive: SphinxDirective) -> dict[str, Any]:
    """The page's Python namespace, after running every doctest above ``directive``.

    The doctests, worked examples and diagrams of a page share it, in page order, so a
    picture can show the state that the doctest above it built. A doctest with ``:hide:`` (a
    comment node, kept out of the page) counts too: a page for players draws from it.
    """
    namespace = cast("dict[str, Any]", directive.env.temp_data.setdefault(_NAMESPACE_KEY, {}))
    for node in _doctest_blocks(directive.state.document):
        if not node.get("gaple_ran"):
            _run_doctest(node.astext(), namespace)
            node["gaple_ran"] = True
    return namespace


def _doctest_blocks(document: nodes.document) -> Iterator[nodes.Element]:
    """The doctests of a page in page order, shown (literal blocks) or hidden (comments)."""
    for node in document.findall(nodes.Element):
        shown_or_hidden = isinstance(node, nodes.literal_block | nodes.comment)
        if shown_or_hidden and node.get("testnodetype") == "doctest":
            yield node


def _evaluate(code: str, namespace: dict[str, Any]) -> Any:
    """Run ``code`` and return the value of its last line when that is an expression."""
    tree = ast.parse(code)
    last = tree.body[-1] if tree.body else None
    if isinstance(last, ast.Expr):
        tree.body.pop()
    exec(compile(tree, "<diagram>", "exec"), namespace)
    if not isinstance(last, ast.Expr):
        return None
    return eval(compile(ast.Expression(last.value), "<diagram>", "eval"), namespace)


def _svg_node(svg: Any, caption: str | None) -> nodes.Node:
    if not isinstance(svg, str) or not svg.startswith("<svg"):
        msg = f"a diagram must evaluate to SVG text from gaple.render, got {type(svg).__name__}"
        raise ValueError(msg)
    figure = nodes.container(classes=["gaple-diagram"])
    figure += nodes.raw("", svg, format="html")
    if caption:
        figure += nodes.paragraph(caption, caption, classes=["gaple-caption"])
    return figure


class DiagramDirective(SphinxDirective):
    """``.. diagram::`` with Python code whose last line is SVG text from :mod:`gaple.render`.

    The code runs in the page's namespace, after the worked examples above it, so a picture
    can show a state an example built.
    """

    has_content = True
    option_spec: ClassVar[dict[str, Callable[[str], Any]]] = {
        "caption": directives.unchanged,
    }

    def run(self) -> list[nodes.Node]:
        _depends_on_the_code(self)
        try:
            svg = _evaluate("\n".join(self.content), _namespace(self))
            return [_svg_node(svg, self.options.get("caption"))]
        except Exception as error:
            raise self.error(f"diagram failed: {type(error).__name__}: {error}") from None


def _run_doctest(text: str, namespace: dict[str, Any]) -> None:
    """Run the examples of a doctest, for the picture; the doctest builder checks the output."""
    for example in doctest.DocTestParser().get_examples(text):
        try:
            # "single" mode echoes values, as the doctest would; keep them off the console.
            with contextlib.redirect_stdout(io.StringIO()):
                exec(compile(example.source, "<example>", "single"), namespace)
        except Exception:
            if example.exc_msg is None:
                raise


class WorkedExampleDirective(_RenderDirective):
    """``.. worked-example:: E002-1``: a sourced example, its picture and its doctest.

    The content is a doctest. It is shown as written and run by ``sphinx-build -b doctest``
    (against the installed package); the HTML build also runs it, silently, so that the
    ``:picture:`` expression can draw the state it built.
    """

    required_arguments = 1
    has_content = True
    option_spec: ClassVar[dict[str, Callable[[str], Any]]] = {
        "source": directives.unchanged_required,
        "rules": directives.unchanged,
        "picture": directives.unchanged,
        "caption": directives.unchanged,
        "title": directives.unchanged,
        "vectors": directives.unchanged,
    }

    def run(self) -> list[nodes.Node]:
        example_id = self.arguments[0]
        keys = tuple(self.options["source"].replace(",", " ").split())
        unknown = [key for key in keys if key not in SOURCES]
        if unknown:
            raise self.error(f"unknown source key(s) {', '.join(unknown)}")
        rule_ids = self.options.get("rules", "").replace(",", " ").split()
        text = "\n".join(self.content)
        try:
            namespace = _namespace(self)
            before = dict(namespace)
            _run_doctest(text, namespace)
            picture = self.options.get("picture")
            svg = _evaluate(picture, namespace) if picture else None
        except Exception as error:
            msg = f"example {example_id} failed: {type(error).__name__}: {error}"
            raise self.error(msg) from None
        anchor = _anchor("example", example_id)
        self._register("example", example_id, anchor)
        facts = f"*Source:* {_sources(keys)}."
        if rule_ids:
            facts += " *Rules:* " + ", ".join(f":rule:`{r}`" for r in rule_ids) + "."
        vector_ids = self.options.get("vectors", "").replace(",", " ").split()
        missing = [v for v in vector_ids if v not in _vectors()]
        if missing:
            raise self.error(f"no conformance vector {', '.join(missing)} under spec/vectors")
        if vector_ids:
            paths = ", ".join(f"``{_vectors()[v]['path']}``" for v in vector_ids)
            facts += f" *Conformance vector:* {paths}."
        title = self.options.get("title", "")
        heading: list[nodes.Node] = [
            nodes.strong("", "Example "),
            nodes.literal(example_id, example_id),
        ]
        if title:
            heading.append(nodes.Text(f": {title}"))
        box = self._box(anchor, heading, facts + "\n", "gaple-example")
        if svg is not None:
            box += _svg_node(svg, self.options.get("caption"))
        document = explorer_document(before, namespace) or _vector_document(vector_ids)
        box += self._try_it(example_id, document)
        # The node the doctest extension's own directive makes, so the doctest builder runs it.
        block = nodes.literal_block(text, text, testnodetype="doctest", groups=["default"])
        block["language"] = "pycon"
        block["options"] = {}
        block["gaple_ran"] = True
        block.source, block.line = self.get_source_info()
        box += block
        return [box]

    def _try_it(self, example_id: str, document: dict[str, Any] | None) -> list[nodes.Node]:
        """The link that opens the example in the rules explorer (``explorer/`` beside the
        docs), its hand or position in the address's fragment."""
        if document is None:
            logger.warning(
                "example %s builds no hand or position for the explorer to open",
                example_id,
                location=self.get_source_info(),
                type="gaple",
            )
            return []
        up = "../" * self.env.docname.count("/")
        fragment = urllib.parse.quote(json.dumps(document, separators=(",", ":")), safe="")
        link = (
            f'<p class="gaple-try"><a href="{up}explorer/index.html#{fragment}">'
            f"Try it in the explorer</a> (example {html.escape(example_id)})</p>"
        )
        return [nodes.raw("", link, format="html")]


def explorer_document(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any] | None:
    """What the explorer opens for a worked example: the hand the page's ``state`` held when
    the example began (the position it discusses), else the first hand or finished position
    the example builds; ``None`` when it builds neither."""
    start = before.get("state")
    if isinstance(start, State):
        return _hand_document(start)
    for name, value in after.items():
        if before.get(name) is value:
            continue
        if isinstance(value, State):
            return _hand_document(value)
        position = value.position if isinstance(value, HandResult) else value
        if isinstance(position, Position):
            return {"rules": rules_to_json(position.rules), "position": position_to_json(position)}
    return None


def _vector_document(vector_ids: list[str]) -> dict[str, Any] | None:
    """The hand of an example's first conformance vector, for an example that builds no hand
    of its own (loose tiles counted): its moves, without the illegal tries the vector probes."""
    if not vector_ids:
        return None
    case = _vectors()[vector_ids[0]]
    actions = [step["action"] for step in case["steps"] if "error" not in step]
    keys = ("format", "rules", "deal", "first_hand")
    return {**{key: case[key] for key in keys}, "actions": actions}


def _hand_document(state: State) -> dict[str, Any]:
    """A hand as its transcript: rules, deal and actions (the explorer replays them)."""
    whole = state_to_json(state)
    return {key: whole[key] for key in ("format", "rules", "deal", "first_hand", "actions")}


def _check_complete(_app: Sphinx, env: BuildEnvironment) -> None:
    """Warn about any rule, source, option or preset that no page documents."""
    objects = env.domains.standard_domain.objects
    expected: dict[str, Iterable[str]] = {
        "rule": RULES,
        "source": SOURCES,
        "gaple-option": _OPTIONS,
        "preset": PRESETS,
    }
    for kind, names in expected.items():
        missing = [name for name in names if (kind, name) not in objects]
        if missing:
            logger.warning(
                "%s(s) not documented on any page: %s", kind, ", ".join(missing), type="gaple"
            )


def _write_preset_pages(app: Sphinx) -> None:
    """One stub page per preset in ``variants/``, rewritten only when its text changes."""
    folder = Path(app.srcdir) / "variants"
    folder.mkdir(exist_ok=True)
    wanted = set()
    for preset in PRESETS.values():
        page = folder / f"{preset.name}.rst"
        wanted.add(page.name)
        title = f"``{preset.name}``"
        text = (
            f".. This page is generated from gaple.presets.PRESETS by docs/_ext/gaple_docs.py.\n\n"
            f"{title}\n{'=' * len(title)}\n\n.. preset:: {preset.name}\n"
        )
        if not page.exists() or page.read_text(encoding="utf-8") != text:
            page.write_text(text, encoding="utf-8")
    for stale in folder.glob("*.rst"):
        if stale.name != "index.rst" and stale.name not in wanted:
            stale.unlink()


def setup(app: Sphinx) -> dict[str, Any]:
    for kind, role in (
        ("rule", "rule"),
        ("source", "source"),
        ("gaple-option", "opt"),
        ("preset", "preset"),
        ("example", "example"),
    ):
        app.add_object_type(kind, role, indextemplate=f"pair: %s; {kind.removeprefix('gaple-')}")
    app.add_directive_to_domain("std", "rule", RuleDirective, override=True)
    app.add_directive_to_domain("std", "preset", PresetDirective, override=True)
    app.add_directive("rule-index", RuleIndexDirective)
    app.add_directive("package-modules", PackageModulesDirective)
    app.add_directive("all-sources", AllSourcesDirective)
    app.add_directive("all-options", AllOptionsDirective)
    app.add_directive("preset-matrix", PresetMatrixDirective)
    app.add_directive("error-codes", ErrorCodesDirective)
    app.add_directive("conformance-vectors", VectorsDirective)
    app.add_directive("protocol-messages", ProtocolDirective)
    app.add_directive("diagram", DiagramDirective)
    app.add_directive("worked-example", WorkedExampleDirective)
    app.connect("builder-inited", _write_preset_pages)
    app.connect("env-check-consistency", _check_complete)
    return {"version": "1", "parallel_read_safe": False, "parallel_write_safe": True}
