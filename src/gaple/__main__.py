"""``python -m gaple ARGS`` is ``gaple ARGS``."""

import sys

from gaple.cli import main

sys.exit(main())
