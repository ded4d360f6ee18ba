"""Hypothesis strategies for code built on gaple, and a pytest plugin for engine authors.

:mod:`gaple.testing.strategies` needs Hypothesis, as the fuzzer does (``pip install
'gaple[conformance]'``). Its strategies:

* ``preset_rulesets``, ``random_rulesets``, ``rulesets``: rule options, either a named preset
  or a random valid combination over small sets and the double-six set;
* ``deals``: a deal for given rules, from :func:`gaple.deal.shuffle_deal` or a permutation;
* ``playouts``: a hand played to its end by drawing an index into ``legal_moves`` at each
  step, so that Hypothesis can shrink a failing hand to a short one;
* ``games``: rules, deal and playout together (a ``Playout``);
* ``states``: one state anywhere in a hand, from the deal to the end;
* ``positions``: the finished position of a hand, as :func:`gaple.result.score_position` takes;
* ``transcripts``: a finished hand as a JSON transcript (the form ``gaple check`` reads).

:mod:`gaple.testing.plugin`, the pytest plugin (entry point ``gaple``), turns every conformance
vector into a pytest item once ``--gaple-impl`` or a ``pytest_gaple_engine`` hook in
``conftest.py`` names the engine. It is inert otherwise, and imports neither Hypothesis nor the
vectors until then. This package imports nothing itself, so loading the plugin stays cheap.
"""
