"""Make the API reference resolve every reference without fetching anything.

Three small fixes, each for a reason the nitpicky build would otherwise report:

* The build has no network, so intersphinx cannot fetch Python's inventory. :data:`STDLIB`
  maps the few standard-library names the API signatures mention to docs.python.org; any
  other unresolved name still warns.
* A docstring may name a class the module imported, such as ``Ruleset`` in :mod:`gaple.io`;
  Sphinx looks for it in the wrong module. A short name that ends exactly one documented
  ``gaple`` object's full name resolves to that object.
* Napoleon reads an attribute's or property's first line ``Something: more`` as
  ``type: description``. The package's attribute docstrings are sentences, so they are kept
  as written.
"""

from __future__ import annotations

from typing import Any, cast

from docutils import nodes
from sphinx.addnodes import pending_xref
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util.nodes import make_refnode

_PYTHON = "https://docs.python.org/3/library/"

STDLIB: dict[str, str] = {
    "Ellipsis": "constants.html#Ellipsis",
    "typing.Any": "typing.html#typing.Any",
    "enum.Enum": "enum.html#enum.Enum",
    "collections.abc.Mapping": "collections.abc.html#collections.abc.Mapping",
    "collections.abc.Sequence": "collections.abc.html#collections.abc.Sequence",
    "collections.abc.Iterable": "collections.abc.html#collections.abc.Iterable",
    "collections.abc.Iterator": "collections.abc.html#collections.abc.Iterator",
    "collections.abc.Callable": "collections.abc.html#collections.abc.Callable",
    "collections.Counter": "collections.html#collections.Counter",
}
"""Standard-library target -> page and anchor under the Python library reference."""


def _resolve(
    app: Sphinx, env: BuildEnvironment, node: pending_xref, contnode: nodes.TextElement
) -> nodes.Element | None:
    if node.get("refdomain") != "py":
        return None
    target = node.get("reftarget", "")
    page = STDLIB.get(target)
    if page is not None:
        reference = nodes.reference("", "", internal=False, refuri=_PYTHON + page)
        reference += contnode
        return reference
    objects = env.domains.python_domain.objects
    matches = [
        name for name in objects if name.startswith("gaple.") and name.endswith("." + target)
    ]
    if len(matches) != 1:
        return None
    entry = objects[matches[0]]
    builder = app.builder
    return make_refnode(builder, node["refdoc"], entry.docname, entry.node_id, contnode, target)


_ORIGINALS = "api_links_originals"


def _originals(app: Sphinx) -> dict[str, list[str]]:
    """The docstrings kept before napoleon, by object name, for the document being read."""
    return cast("dict[str, list[str]]", app.env.temp_data.setdefault(_ORIGINALS, {}))


def _keep(app: Sphinx, what: str, name: str, _obj: Any, _options: Any, lines: list[str]) -> None:
    if what in {"attribute", "property", "data"}:
        _originals(app)[name] = list(lines)


def _restore(
    app: Sphinx, _what: str, name: str, _obj: Any, _options: Any, lines: list[str]
) -> None:
    original = _originals(app).pop(name, None)
    if original is not None:
        lines[:] = original


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("missing-reference", _resolve)
    # Napoleon listens at the default priority 500: keep the text before it, restore it after.
    app.connect("autodoc-process-docstring", _keep, priority=100)
    app.connect("autodoc-process-docstring", _restore, priority=900)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
