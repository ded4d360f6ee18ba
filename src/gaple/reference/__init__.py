"""The rules of Gaple as code written for reading: one module per page of the rules.

Each function here decides one rule (or a few that belong together), marked with its rule ID
by :func:`~gaple.reference.deciding.decides`; it works on tiles, not bitsets, and is pure. The
fast engine (:mod:`gaple.engine`) plays the same rules on bitsets and is proven equal to these
functions by the tests; vectors, labels and coverage criteria ask these functions, never a
copy of a rule.
"""

# isort: off
# In the order of the rule pages, one module a line.
from gaple.reference import equipment
from gaple.reference import deal
from gaple.reference import opening
from gaple.reference import line
from gaple.reference import turn
from gaple.reference import ending
from gaple.reference import counting
from gaple.reference import settlement
from gaple.reference import partnership
from gaple.reference import scoring
from gaple.reference import match

# isort: on
from gaple.reference.deciding import DECIDERS, decided_by, decides

__all__ = [
    "DECIDERS",
    "counting",
    "deal",
    "decided_by",
    "decides",
    "ending",
    "equipment",
    "line",
    "match",
    "opening",
    "partnership",
    "scoring",
    "settlement",
    "turn",
]
