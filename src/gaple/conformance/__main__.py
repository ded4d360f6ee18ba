"""``python -m gaple.conformance ARGS`` is ``gaple conformance ARGS`` (e.g. ``adapter``)."""

import sys

from gaple.cli import main

sys.exit(main(["conformance", *sys.argv[1:]]))
