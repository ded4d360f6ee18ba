"""The fuzzer (``gaple conformance fuzz``): random hands aimed at the situation cells a run has
not reached, each run as a case against the engine. The top part of the kit."""
