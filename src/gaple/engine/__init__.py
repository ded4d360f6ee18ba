"""The fast engine: the rules of :mod:`gaple.reference` played on bitsets."""
