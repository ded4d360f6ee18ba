"""Sphinx configuration of the gaple rules reference.

Built by ``make docs`` with warnings as errors and nitpicky references, so a rule, option or
page that goes missing fails the build. No inventory is fetched: the build needs no network.
"""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent / "_ext"))
# The reference documents the package of this tree, whatever gaple is installed. Not left to
# PYTHONPATH: pip's build environment (the wheel's build hook, hatch_build.py) takes out of the
# import path each folder that the interpreter's site-packages add, PYTHONPATH or not, and from
# a virtualenv with this checkout installed editable, src/ is one.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

import gaple

project = "gaple"
author = "The gaple authors"
copyright = "the gaple authors, MIT licence"
release = version = gaple.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.doctest",
    "sphinx.ext.viewcode",  # each rule links to the highlighted code that decides it
    "sphinx_autodoc_typehints",
    "myst_parser",  # the conformance findings are written in Markdown beside the runner's output
    "gaple_docs",
    "api_links",
]

exclude_patterns = ["_build"]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
html_theme = "furo"
html_title = f"gaple {release}: the rules of Gaple"
html_static_path = ["_static"]
html_css_files = ["gaple.css"]

# Docstrings are Google style; attribute docstrings document the attrs fields.
napoleon_google_docstring = True
napoleon_numpy_docstring = False
autodoc_member_order = "bysource"
autodoc_default_options = {"members": True, "show-inheritance": True}
typehints_fully_qualified = False
always_document_param_types = False
typehints_defaults = "comma"

nitpicky = True

# sphinx-autodoc-typehints 3.6 calls a docutils API that Sphinx 9 deprecates; the notice is
# about the plugin, not these docs, and would bury real messages.
warnings.filterwarnings("ignore", message=".*set_application.*")

# A docstring may point a maintainer at a private helper (``_deal``); the API reference documents
# public names only, so such references have no target by design.
nitpick_ignore_regex = [("py:func", r"_[a-z]\w*")]

# gaple.testing builds on Hypothesis and pytest, whose docs are not linked (no network at build).
nitpick_ignore_regex += [("py:class", r"(hypothesis|_pytest|pytest)\..*")]
nitpick_ignore_regex += [("py:exc", r"pytest\..*")]  # the plugin raises pytest.UsageError

# Nor is the standard library's: a function returning a folder returns a pathlib.Path, the
# command line's parser an argparse.ArgumentParser.
nitpick_ignore_regex += [("py:class", r"(pathlib|argparse)\.\w+")]
