"""Adapters that are gaple's own reference adapter with one reply altered: engines whose only
defect is known, so a test can check that the runner or the fuzzer names it."""

from __future__ import annotations

from pathlib import Path

_TEMPLATE = """\
import json, sys
from gaple.conformance.runner.engines import ReferenceEngine
engine = ReferenceEngine()
for line in sys.stdin:
    m = json.loads(line)
    if m['type'] == 'bye':
        break
    r = engine.request(m)
{patch}
    print(json.dumps(r), flush=True)
"""


def write_mutant_adapter(path: Path, patch: str) -> Path:
    """Write an adapter script to ``path`` that applies ``patch`` (statements indented by four
    spaces, acting on the reply ``r`` to the request ``m``) before answering."""
    path.write_text(_TEMPLATE.format(patch=patch))
    return path
