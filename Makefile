# Two commands do all set-up on a fresh machine with Python 3.11 and make:
#   make run    serve (embedded Redis unless REDIS_URL is set)
#   make test   the whole suite, starting the servers it needs
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test test-slow lint openapi bench constraints clean

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

# Slow proofs, apart from `make test`: /play driven in headless Chromium (Debian's
# chromium and chromium-driver, installed here when missing; no browser download).
# Screenshots land in .artifacts/screenshots/.
test-slow: $(STAMP)
	@command -v chromium >/dev/null && command -v chromedriver >/dev/null || \
	  apt-get install -y chromium chromium-driver || \
	  { echo "make test-slow needs Debian's chromium and chromium-driver:" \
	    "apt-get install -y chromium chromium-driver"; exit 1; }
	$(BIN)/python -m pytest -m slow

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
