# Two commands do all set-up on a fresh machine with Python 3.11 and make:
#   make run    serve (embedded Redis unless REDIS_URL is set)
#   make test   the whole suite, starting the servers it needs
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint openapi bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
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

clean:
	rm -rf $(VENV) .run
