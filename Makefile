# The two commands of the README: `make run` and `make test`. Each creates .venv when missing.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck pytest docs bench mutation-vectors mutation-tests clean

# Editable: without the wheel's build hook (hatch_build.py), which an editable install does not
# run but whose Sphinx and other build requirements pip would install for it (half a minute).
# gaple docs reads this checkout's docs/_build/html (make docs).
$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	HATCH_BUILD_NO_HOOKS=true $(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# Play and narrate one hand, then run the conformance suite against the example engine
# through the adapter protocol and print the report.
run: $(STAMP)
	$(BIN)/gaple play --variant pagat-4x7 --seed 1
	$(BIN)/gaple conformance run --impl '$(BIN)/python examples/engine/adapter.py'

# pytest last, so its summary line closes the output.
test: lint typecheck docs pytest

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy --strict
	$(BIN)/mypy --strict examples/pytest_project/*.py

# One worker per core (CI has two), each taking the next test when it is free: the ci
# profile's long properties would otherwise leave a core idle for most of an hour.
pytest: $(STAMP)
	$(BIN)/pytest -q -n auto --dist worksteal --durations=20

# The rules reference: nitpicky, warnings as errors, then every example in it run as a doctest;
# then the rules explorer beside it, docs/_build/html/explorer (Pyodide from npm ci, 21 MB).
docs: $(STAMP)
	$(BIN)/sphinx-build -W --keep-going -n -q -b html docs docs/_build/html
	$(BIN)/sphinx-build -W --keep-going -n -q -b doctest docs docs/_build/doctest
	$(BIN)/python tools/build_explorer.py

bench: $(STAMP)
	$(BIN)/python benchmarks/hands_per_second.py
	$(BIN)/python benchmarks/kit.py
	$(BIN)/python benchmarks/checker.py
	$(BIN)/python benchmarks/latency.py
	$(BIN)/python benchmarks/explorer.py --opens 5

# How many small defects of the spec the committed vectors catch, run through the adapter
# protocol: kill ratio per module and every survivor (minutes; not part of make test).
mutation-vectors: $(STAMP)
	$(BIN)/python tools/mutation.py

# The same mutants against the fast unit tests of their module (minutes; not part of make test).
mutation-tests: $(STAMP)
	$(BIN)/python tools/mutation.py --against tests

clean:
	rm -rf $(VENV) docs/_build explorer/node_modules .pytest_cache .mypy_cache .ruff_cache .hypothesis
