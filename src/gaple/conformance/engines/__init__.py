"""The old path of :mod:`gaple.conformance.runner.engines`, kept because engine authors' tests
import :class:`~gaple.conformance.runner.engines.SubprocessEngine` from it (the examples and the
protocol printed it before the kit was split into parts)."""

from gaple.conformance.runner.engines import *  # noqa: F403
