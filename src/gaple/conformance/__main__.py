"""``python -m gaple.conformance ARGS`` is ``gaple conformance ARGS`` (e.g. ``adapter``)."""

import sys

from gaple.cli import main

# The process's own command line, so that main holds the signals to the end (see main).
sys.argv[1:1] = ["conformance"]
sys.exit(main())
