"""Running a suite against an engine: the engine protocol (a subprocess adapter or gaple in
process), the run itself, the selection of cases, the expected divergences, the reports, their
summaries and the merging of shards, and the example engine."""
