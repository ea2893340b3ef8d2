# Two commands do all set-up on a fresh machine with Python 3.11 and make:
#   make run    serve (embedded Redis unless REDIS_URL is set)
#   make test   the whole suite, starting the servers it needs
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# -qq: pip's and setuptools' notices (the editable-install box) stay quiet; errors show.
PIP := $(BIN)/python -m pip install -qq -c constraints.txt
SERVICE := $(VENV)/.installed-service
TOOLS := $(VENV)/.installed-test

.PHONY: run test test-slow lint openapi asyncapi bench bench-compare constraints clean

# constraints.txt pins the versions the suite last passed with, so a new machine and CI
# install exactly those; `make constraints` records the venv's versions anew.
$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -qq --upgrade pip

# `make run` needs only the service's dependencies; the tests' tools come with `make test`.
$(SERVICE): pyproject.toml constraints.txt | $(BIN)/python
	$(PIP) -e .
	touch $@

$(TOOLS): $(SERVICE)
	$(PIP) -e '.[test]'
	touch $@

# http:// webhooks are allowed under make run, for a receiver on this machine.
run: $(SERVICE)
	WEBHOOK_ALLOW_HTTP=$${WEBHOOK_ALLOW_HTTP:-1} $(BIN)/python -m services.run

test: $(TOOLS)
	$(BIN)/ruff check .
	$(BIN)/python -m pytest

# Slow proofs, apart from `make test`: the fault suite and the Redis Cluster failover
# (real processes SIGKILLed, minutes long), and /play driven in headless Chromium
# (Debian's chromium and chromium-driver, installed here when missing; no browser
# download; screenshots land in .artifacts/screenshots/).
# The generated Java client's toolchain: a JDK and Debian's Jackson (no Maven needed).
JVM_PACKAGES := openjdk-17-jdk-headless libjackson2-databind-java libjsr305-java \
  libgeronimo-annotation-1.3-spec-java
test-slow: $(TOOLS)
	@command -v chromium >/dev/null && command -v chromedriver >/dev/null || \
	  { apt-get update -qq && apt-get install -y -qq chromium chromium-driver; } || \
	  { echo "make test-slow needs Debian's chromium and chromium-driver:" \
	    "apt-get install -y chromium chromium-driver"; exit 1; }
	@command -v javac >/dev/null && test -f /usr/share/java/jackson-databind.jar && \
	  test -f /usr/share/java/jsr305.jar && \
	  test -f /usr/share/java/geronimo-annotation-1.3-spec.jar || \
	  { apt-get update -qq && apt-get install -y -qq $(JVM_PACKAGES); } || \
	  { echo "make test-slow compiles a Java client: apt-get install -y $(JVM_PACKAGES)"; exit 1; }
	$(BIN)/python -m pytest -m slow

lint: $(TOOLS)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

openapi: $(SERVICE)
	$(BIN)/python -m services.api.openapi --write

asyncapi: $(SERVICE)
	$(BIN)/python -m services.api.asyncapi --write

# bench/README.md says what each benchmark measures; each runs as `python -m bench.NAME`.
bench: $(TOOLS)
	$(BIN)/python -m bench.moves_per_second

# The comparison: tablestream vs boardgame.io (npm ci into bench/peer) and the bare floor,
# interleaved; prints the table and goals, writes plots into bench/results/.
# BENCH_ARGS passes options, e.g. BENCH_ARGS="--seconds 15 --reps 3 --profile".
BENCH_TOOLS := $(VENV)/.installed-bench
$(BENCH_TOOLS): $(TOOLS)
	$(PIP) -e '.[test,bench]'
	touch $@

bench-compare: $(BENCH_TOOLS)
	$(BIN)/python -m bench.compare $(BENCH_ARGS)

constraints: $(TOOLS)
	$(BIN)/python -m pip freeze --exclude-editable | grep -v '^-e' > constraints.txt

clean:
	rm -rf $(VENV) .run
