"""The old path of :mod:`gaple.conformance.vectors.situations`, kept because the protocol and
the examples named it to engine authors as the list of situation features before the kit was
split into parts."""

from gaple.conformance.vectors.situations import *  # noqa: F403
