"""The fast engine: the rules of :mod:`gaple.reference` played on bitsets and lookup tables.

Nothing here states a rule. Each function names the reference function it mirrors, and the
tests prove the two equal: every state of the double-2 set (double-3 under the ``ci`` profile)
and drawn hands, rulesets and finished positions of the full set. :mod:`gaple.engine.play`
plays a hand; :mod:`gaple.engine.scoring` scores a finished one without explanations.
"""
