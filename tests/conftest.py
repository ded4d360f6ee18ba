"""Test configuration: Hypothesis profiles and the import path of the shared test helpers.

Select a profile with the ``HYPOTHESIS_PROFILE`` environment variable:

* ``default`` (used when the variable is unset): few examples, for a quick local run;
* ``ci``: many examples, and the large exhaustive enumerations of small sets run too.

The tests directory is put on ``sys.path`` so that test modules can ``import checks``
(the invariant checks shared by every test of the hand).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from hypothesis import settings

# Examples take a few milliseconds each but vary with hand length; a deadline would only
# produce flaky failures on a loaded machine, so none is set.
settings.register_profile("default", max_examples=50, deadline=None)
settings.register_profile("ci", max_examples=500, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

_TESTS = str(Path(__file__).parent)
if _TESTS not in sys.path:
    sys.path.insert(0, _TESTS)
