# Two commands do all set-up on a fresh machine with Python 3.11 and make:
#   make run    serve (embedded Redis unless REDIS_URL is set)
#   make test   the whole suite, starting the servers it needs
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint openapi bench constraints clean

# constraints.txt pins the versions the suite last passed with, so a new machine and CI
# install exactly those; `make constraints` records the venv's versions anew.
$(STAMP): pyproject.toml constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -c constraints.txt -e '.[test]'
	touch $(STAMP)

# http:// webhooks are allowed under make run, for a receiver on this machine.
run: $(STAMP)
	WEBHOOK_ALLOW_HTTP=$${WEBHOOK_ALLOW_HTTP:-1} $(BIN)/python -m services.run

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

constraints: $(STAMP)
	$(BIN)/python -m pip freeze --exclude-editable | grep -v '^-e' > constraints.txt

clean:
	rm -rf $(VENV) .run
