"""The rules reference cannot drift from the code: every rule, preset, option, source and
worked example of the specification has its anchor in the built docs, exactly once.

The docs are built once per session into a temporary folder (about ten seconds); ``make docs``
builds them again with warnings as errors, which also catches broken cross-references.
"""

from __future__ import annotations

import importlib
import itertools
import pkgutil
import posixpath
import subprocess
import sys
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import pytest
from sphinx.cmd.build import build_main

import gaple
from gaple.localdocs import page_url
from gaple.presets import PRESETS
from gaple.reference.deciding import DECIDERS
from gaple.registry import RULES
from gaple.rules import option_info
from gaple.sources import SOURCES

DOCS = Path(__file__).resolve().parent.parent / "docs"
sys.path.insert(0, str(DOCS / "_ext"))
# The docs' extension and the conformance reports take each rule's address from the registry;
# the test checks the built pages have it.
rule_url = importlib.import_module("gaple_docs").rule_url

# Sphinx 9 flags APIs its own napoleon and sphinx-autodoc-typehints still use; not ours to fix.
pytestmark = pytest.mark.filterwarnings(
    "ignore::DeprecationWarning", "ignore::PendingDeprecationWarning"
)

# The worked examples of the sources, from the research notes (section 6): the domino4d
# legal-move examples, counting, the double blank, pagat's three tie-break examples, the
# 11 vs 14 comparison, the chips settlement, the difference points derived from it, and the
# constructed Sundanese partnership cases.
WORKED_EXAMPLES = (
    "E002-1",
    "E002-2",
    "E002-3",
    "E002-4",
    "E-count",
    "E-00",
    "E001-1",
    "E001-2",
    "E001-3",
    "E004-chips",
    "E003-diff",
    *(f"SU-X{i}" for i in range(1, 11)),
)


class _Ids(HTMLParser):
    """Collect every ``id`` attribute and link of a page, and count the inline SVG pictures."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: list[str] = []
        self.links: list[str] = []
        self.svgs = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.ids.extend(value for name, value in attrs if name == "id" and value)
        if tag == "a":
            self.links.extend(value for name, value in attrs if name == "href" and value)
        self.svgs += tag == "svg"


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> dict[str, _Ids]:
    """The built HTML pages, by path relative to the output folder (``rules/turn.html``)."""
    out = tmp_path_factory.mktemp("html")
    status = build_main(["-q", "-b", "html", "-d", str(out / ".doctrees"), str(DOCS), str(out)])
    assert status == 0
    pages: dict[str, _Ids] = {}
    for page in out.rglob("*.html"):
        parser = _Ids()
        parser.feed(page.read_text(encoding="utf-8"))
        pages[page.relative_to(out).as_posix()] = parser
    return pages


def _anchors(site: dict[str, _Ids]) -> Counter[str]:
    return Counter(anchor for page in site.values() for anchor in page.ids)


def test_every_rule_has_exactly_one_anchor_on_its_sections_page(site: dict[str, _Ids]) -> None:
    anchors = _anchors(site)
    for rule_id in RULES:
        page, anchor = rule_url(rule_id).split("#")
        assert anchors[anchor] == 1, f"{rule_id}: anchor {anchor} appears {anchors[anchor]} times"
        assert anchor in site[page].ids, f"{rule_id} is not on {page}"


def test_gaple_docs_opens_every_rule_at_an_anchor_of_its_page(site: dict[str, _Ids]) -> None:
    # The addresses gaple docs opens, under any folder holding the built site.
    folder = Path("/somewhere/gaple/docs")
    for rule_id in RULES:
        page, _, anchor = (
            page_url(folder, rule_id).removeprefix(f"{folder.as_uri()}/").partition("#")
        )
        assert anchor in site[page].ids, f"gaple docs {rule_id}: no #{anchor} on {page}"
    assert page_url(folder) == f"{folder.as_uri()}/index.html"
    assert "index.html" in site


def test_rule_anchors_follow_the_documented_pattern() -> None:
    # The pattern stated in the docs: the ID with dots as hyphens, on the section's page.
    assert rule_url("play.match-end") == "rules/turn.html#rule-play-match-end"
    assert (
        rule_url("score.double-blank-25")
        == "rules/counting-and-winner.html#rule-score-double-blank-25"
    )


def test_every_preset_has_a_catalogue_page(site: dict[str, _Ids]) -> None:
    for name in PRESETS:
        page = site.get(f"variants/{name}.html")
        assert page is not None, f"no page for preset {name}"
        assert f"preset-{name}" in page.ids


def test_every_option_and_source_has_one_anchor(site: dict[str, _Ids]) -> None:
    anchors = _anchors(site)
    for info in option_info():
        assert anchors["option-" + info.name.replace("_", "-")] == 1, info.name
    for key in SOURCES:
        assert anchors["source-" + key.lower()] == 1, key


def test_every_worked_example_has_a_page_and_a_picture(site: dict[str, _Ids]) -> None:
    anchors = _anchors(site)
    for example in WORKED_EXAMPLES:
        assert anchors["example-" + example.lower()] == 1, f"worked example {example} missing"
    for name, page in site.items():
        if name.startswith("examples/") and name != "examples/index.html":
            boxes = [i for i in page.ids if i.startswith("example-")]
            assert page.svgs >= len(boxes), f"{name}: {len(boxes)} examples, {page.svgs} pictures"


def test_every_public_module_has_an_api_page(site: dict[str, _Ids]) -> None:
    # A module added to the package without a page in docs/api/ would be missing from the
    # reference; ``__main__`` modules are entry points, not API.
    modules = [
        info.name
        for info in pkgutil.walk_packages(gaple.__path__, "gaple.")
        if not any(part.startswith("_") for part in info.name.split("."))
    ]
    documented = {i for name, page in site.items() if name.startswith("api/") for i in page.ids}
    missing = [name for name in ["gaple", *modules] if f"module-{name}" not in documented]
    assert not missing, f"modules without an API page: {missing}"


def _decider_links(site: dict[str, _Ids]) -> list[tuple[str, str]]:
    """Each link of a rules page into the highlighted code, with the page it is on."""
    return [
        (name, link)
        for name, page in site.items()
        if name.startswith("rules/")
        for link in page.links
        if "_modules/" in link
    ]


def test_every_rule_box_links_to_the_code_of_its_decider(site: dict[str, _Ids]) -> None:
    # One link per rule decided by exactly one function (the build warns for the others) and
    # one per public helper it calls (viewcode has no anchor for a private one, which is named
    # only), each landing on the function in its module's highlighted source.
    links = _decider_links(site)
    helpers_of = importlib.import_module("gaple_docs").helpers_of
    assert len(links) == sum(
        1 + sum(not f.__name__.startswith("_") for f in helpers_of(DECIDERS[rule_id][0]))
        for rule_id in RULES
        if len(DECIDERS.get(rule_id, [])) == 1
    )
    for name, link in links:
        target, anchor = posixpath.normpath(posixpath.join(posixpath.dirname(name), link)).split(
            "#"
        )
        assert target in site, f"{name}: {link} leads to no page"
        assert anchor in site[target].ids, f"{name}: {link} leads to no function"


def _mini_project(tmp_path: Path, page: str) -> tuple[int, str]:
    """Build a one-page project with the docs' extension; return the status and warnings."""
    (tmp_path / "conf.py").write_text(
        f"import sys\nsys.path.insert(0, {str(DOCS / '_ext')!r})\nextensions = ['gaple_docs']\n",
        encoding="utf-8",
    )
    (tmp_path / "rules").mkdir()
    (tmp_path / "index.rst").write_text(
        "Index\n=====\n\n.. toctree::\n\n   rules/turn\n", encoding="utf-8"
    )
    (tmp_path / "rules" / "turn.rst").write_text(page, encoding="utf-8")
    warnings = tmp_path / "warnings.txt"
    status = build_main(
        ["-q", "-b", "html", "-w", str(warnings), str(tmp_path), str(tmp_path / "_build")]
    )
    return status, warnings.read_text(encoding="utf-8")


def test_a_rule_without_a_page_is_reported(tmp_path: Path) -> None:
    status, warnings = _mini_project(tmp_path, "Turn\n====\n\n.. rule:: turn.order\n")
    assert status == 0
    assert "rule(s) not documented on any page" in warnings
    assert "play.match-end" in warnings
    assert "turn.order," not in warnings


def test_an_unknown_rule_id_is_an_error(tmp_path: Path) -> None:
    _, warnings = _mini_project(tmp_path, "Turn\n====\n\n.. rule:: turn.no-such-rule\n")
    assert "unknown rule ID 'turn.no-such-rule'" in warnings


def test_a_rule_on_the_wrong_page_is_an_error(tmp_path: Path) -> None:
    _, warnings = _mini_project(tmp_path, "Turn\n====\n\n.. rule:: score.count\n")
    assert "belongs to section 'Counting and winner'" in warnings


def open_with_the_double(lead: int) -> bool:
    """Whether the lead is the double: a stand-in reference function for the test below."""
    return lead == 0


def open_with_any_tile(lead: int) -> bool:
    """Whether any lead opens: a second stand-in, for a rule decided twice."""
    return lead >= 0


def test_a_rule_box_shows_its_decider_and_a_rule_without_one_is_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # turn.order has one decider, play.match-end none, play.in-hand two: the box of the first
    # names it, links to its line in the highlighted source and folds its code; the build
    # warns for the others, naming each.
    monkeypatch.setitem(DECIDERS, "turn.order", [open_with_the_double])
    monkeypatch.setitem(DECIDERS, "play.match-end", [])
    monkeypatch.setitem(DECIDERS, "play.in-hand", [open_with_the_double, open_with_any_tile])
    rules = ("turn.order", "play.match-end", "play.in-hand")
    status, warnings = _mini_project(
        tmp_path, "Turn\n====\n\n" + "".join(f".. rule:: {rule}\n\n" for rule in rules)
    )
    assert status == 0
    assert "play.match-end is decided by 0 reference functions" in warnings
    assert "play.in-hand is decided by 2 reference functions" in warnings
    assert "turn.order is decided" not in warnings
    page = (tmp_path / "_build" / "rules" / "turn.html").read_text(encoding="utf-8")
    # The page is rules/turn.html; viewcode writes the module's source at
    # _modules/<module as a path>.html, the function at the anchor of its name.
    source = f"../_modules/{__name__.replace('.', '/')}.html#open_with_the_double"
    assert page.count('href="../_modules/') == 1
    assert f'href="{source}"' in page
    assert f"{__name__}.open_with_the_double" in page
    assert "<details" in page
    assert "Whether the lead is the double" in page


def _front_matter(index: str) -> tuple[str, str]:
    """What comes before the first toctree of a page, and that toctree's first entry."""
    before, _, toctree = index.partition(".. toctree::")
    entries = [line.strip() for line in toctree.splitlines()[1:] if line.strip()]
    return before, next(entry for entry in entries if not entry.startswith(":"))


def test_the_front_page_opens_with_words_and_gaple_in_five_minutes() -> None:
    before, first = _front_matter((DOCS / "index.rst").read_text(encoding="utf-8"))
    assert first == "five-minutes"
    assert ">>>" not in before
    assert ".. doctest::" not in before
    assert ".. code-block::" not in before
    # The check can fail: the front page as it was, code before any table of contents.
    old = "Gaple is...\n\n.. doctest::\n\n   >>> 1\n   1\n\n.. toctree::\n\n   rules/index\n"
    before, first = _front_matter(old)
    assert ">>>" in before
    assert first == "rules/index"


def _headings(page: str) -> list[str]:
    """The section titles of an reST page, in order: each line underlined with = or -."""
    lines = page.splitlines()
    return [
        title
        for title, under in itertools.pairwise(lines)
        if title.strip() and len(under) >= len(title) and set(under) in ({"="}, {"-"})
    ]


def test_the_implementers_guide_starts_with_writing_an_adapter() -> None:
    # The guide's first page is "Checking an engine", listed before any of the Python API, and
    # its steps are sections (which the sidebar lists), not rubrics (which it does not), the
    # adapter first.
    index = (DOCS / "guide" / "index.rst").read_text(encoding="utf-8")
    before, first = _front_matter(index)
    assert first == "conformance"
    assert _headings(before) == ["Implementer's guide"]
    page = (DOCS / "guide" / "conformance.rst").read_text(encoding="utf-8")
    assert ".. rubric::" not in page
    assert _headings(page)[:4] == [
        "Checking an engine",
        "Write an adapter",
        "Run the suite",
        "Read a failure",
    ]


def _shown_code(page: str) -> list[str]:
    """The lines of Python a reader of ``page`` sees: examples not in a hidden doctest."""
    shown, hidden = [], False
    for line in page.splitlines():
        if line.startswith(".. "):
            hidden = False
        if line.strip() == ":hide:":
            hidden = True
        if line.lstrip().startswith((">>>", "...")) and not hidden:
            shown.append(line)
    return shown


def test_gaple_in_five_minutes_shows_players_no_python() -> None:
    # The page is for players: its examples are doctests with :hide:, run by `make docs` and
    # feeding the pictures (the diagrams draw the states they build) but not shown.
    page = (DOCS / "five-minutes.rst").read_text(encoding="utf-8")
    assert page.count(".. doctest::") == page.count(".. doctest::\n   :hide:") > 0
    assert _shown_code(page) == []
    # The check can fail: a shown doctest, as the page had them.
    assert _shown_code(".. doctest::\n\n   >>> dealt.opener\n   2\n") == ["   >>> dealt.opener"]


def test_gaple_in_five_minutes_draws_the_hand_and_links_every_rules_page() -> None:
    page = (DOCS / "five-minutes.rst").read_text(encoding="utf-8")
    # The equipment, the deal, after three turns, after ten, the end of the hand, a blocked hand.
    assert page.count(".. diagram::") == 6
    rule_pages = {path.stem for path in (DOCS / "rules").glob("*.rst")} - {"index"}
    assert {name for name in rule_pages if f":doc:`rules/{name}`" not in page} == set()


# Run in a fresh interpreter: conf.py's import path, as pip's build environment leaves it.
_CONF_WITHOUT_SRC = """
import os, runpy, sys
src = os.path.realpath(sys.argv[1])
sys.path[:] = [p for p in sys.path if os.path.realpath(p or ".") != src]
runpy.run_path(sys.argv[2])
import gaple
print(gaple.__file__)
"""


def test_the_docs_configuration_imports_gaple_from_its_own_tree(tmp_path: Path) -> None:
    # The wheel's build hook runs Sphinx in pip's build environment, which takes out of the
    # import path every folder that the interpreter's site-packages add, even one that
    # PYTHONPATH names too: from a virtualenv with this checkout installed editable (as make
    # sets it up), src/ is one of them, and the build stopped at conf.py's "import gaple".
    src = DOCS.parent / "src"
    done = subprocess.run(
        [sys.executable, "-c", _CONF_WITHOUT_SRC, str(src), str(DOCS / "conf.py")],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    # The package of this tree, whatever else is installed.
    assert Path(done.stdout.strip()) == src / "gaple" / "__init__.py"


def test_a_rule_box_shows_the_helpers_its_deciding_function_calls(site: dict[str, _Ids]) -> None:
    # play.match-end is decided by line.joined, which reads the number of the end named
    # (end_number of line_ends) and asks whether the tile shows it (fits), in that order; the
    # box links each after the decider. turn.forced-play's must_place then calls playable.
    source = "../_modules/gaple/reference/line.html#"
    links = [link for link in site["rules/turn.html"].links if link.startswith(source)]
    assert links == [source + name for name in ("joined", "end_number", "line_ends", "fits")] + [
        source + "playable"
    ]
