"""The conformance kit: test vectors, the transcript checker, the adapter runner, the fuzzer.

See ``spec/INTERPRETING.md`` for how runner authors read the cases and ``spec/PROTOCOL.md`` for
the adapter protocol.
"""
