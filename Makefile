# Two commands do all set-up on a fresh machine with Python 3.11 and make:
#   make run    serve (embedded Redis unless REDIS_URL is set)
#   make test   the whole suite, starting the servers it needs
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint openapi bench bench-compare constraints clean

# constraints.txt pins the versions the suite last passed with, so a new machine and CI
# install exactly those; `make constraints` records the venv's versions anew.
$(STAMP): pyproject.toml constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -c constraints.txt -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/python -m services.run

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/python -m pytest

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

openapi: $(STAMP)
	$(BIN)/python -m services.api.openapi --write

bench: $(STAMP)
	$(BIN)/python bench/moves_per_second.py

# Issue 12's comparison: tablestream vs boardgame.io (npm ci into bench/peer) and the bare
# floor, interleaved; prints the table and goals, writes plots into bench/results/.
# BENCH_ARGS passes options, e.g. BENCH_ARGS="--seconds 15 --reps 3 --profile".
BENCH_STAMP := $(VENV)/.installed-bench
$(BENCH_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet -c constraints.txt -e '.[test,bench]'
	touch $(BENCH_STAMP)

bench-compare: $(BENCH_STAMP)
	$(BIN)/python bench/compare.py $(BENCH_ARGS)

constraints: $(STAMP)
	$(BIN)/python -m pip freeze --exclude-editable | grep -v '^-e' > constraints.txt

clean:
	rm -rf $(VENV) .run
