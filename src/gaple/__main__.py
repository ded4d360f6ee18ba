"""``python -m gaple ARGS`` is ``gaple ARGS``: the same entry, :mod:`gaple._start`."""

import sys

from gaple._start import main

sys.exit(main())
