# `make test` and `make run` do all set-up on a fresh Debian machine.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
EXPERIMENTS := $(notdir $(patsubst %/experiment.toml,%,$(wildcard experiments/*/experiment.toml)))

.PHONY: setup system-packages subjects test test-harness test-subjects lint run run-full selftest clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	touch $(STAMP)

# Runtimes and tools from Debian: installed when root, else the one line to install them is printed.
system-packages:
	@./scripts/system-packages.sh

# The systems the experiments measure, and the data they read. shortstring's own binary is built by its
# tests (test-subjects): make run's strings experiment builds its program against the library itself,
# and building the binary here cost a fresh clone's make run 6 minutes of its budget.
subjects: system-packages $(STAMP)
	$(MAKE) -C subjects/shortstring data
	./scripts/build-fastcond.sh
	./scripts/serialization-python-deps.sh || echo "versus: note: serialization's Python packages are not all installed; those arms fail until scripts/serialization-python-deps.sh succeeds" >&2

setup: $(STAMP) system-packages subjects

# Tests are type-checked too; pytest's fixtures and parameters may stay unannotated there.
# TOOLS: the Python that runs on the harness's interpreter beside src (scripts, charts, report panels);
# the experiments' programs under */python/ run on the measured runtimes (Jython 2.5, CPython 2.7, PyPy)
# and keep their syntax. Each tool is its own mypy run: two are named report.py.
TOOLS := $(wildcard scripts/*.py experiments/*/*.py) experiments/serialization/python/tables.py experiments/serialization/python/build.py
lint: $(STAMP)
	$(BIN)/ruff check src tests $(TOOLS)
	$(BIN)/mypy
	$(BIN)/mypy --allow-untyped-defs --check-untyped-defs tests
	@for tool in $(TOOLS); do $(BIN)/mypy --disallow-untyped-defs --ignore-missing-imports --no-error-summary $$tool || exit 1; done

test: setup lint test-harness test-subjects

# The slowest tests are listed at the end: make test is kept under 25 minutes on this machine. The tests
# run on TEST_WORKERS pytest-xdist processes (TEST_WORKERS=0: in this one); builds and fetches they share
# are made one at a time under file locks, and each worker has its own PostgreSQL server (tests/pgserver.py).
# Tests marked `alone` time something on a pinned CPU and run after the others in one process: beside
# another worker's load, a handoff's fastest sample differed 0.53× between sample lengths (CI, stop 62).
TEST_WORKERS ?= 2
test-harness: $(STAMP)
	@status=0; \
	$(BIN)/python -m pytest -q --durations=15 -n $(TEST_WORKERS) --dist worksteal -m "not alone" || status=$$?; \
	$(BIN)/python -m pytest -q -m alone || status=$$?; \
	exit $$status

test-subjects:
	$(MAKE) -C subjects/shortstring test
	$(MAKE) -C subjects/fastcond test PYTHON=$(PYTHON)

# The lab: every experiment, on every runtime found or fetchable, in one session, within LAB_MINUTES
# (set-up included) on this 2-core machine. The set-up's own time comes off the budget; a minute is
# kept for the reports. Each experiment's quick method runs first; sequential rounds then go to the
# comparisons and claims still undecided, until all are decided or the budget is spent.
# `run-full` gives every experiment its full method, as `versus run NAME` does for one.
# 40 minutes, not 30: replayed on the stored rounds of make runs #19–#26, 30 minutes decided rpc's
# 2008 claims (each 8–10 rounds of 29 s under the rule's floor) in few replays, and 40 decided every
# claim ≥ 2 per-round SDs from its bound in every replay but for one claim that the replay's pooled world
# makes noisier than any run (docs/method.md, "The budget of make run").
# A second `make run` goes on with the session of the first (the same experiments and options, and
# programs and runtimes unchanged by content hash) instead of starting from zero: `--more`. Give
# LAB_MORE= (empty) for a new session.
LAB_MINUTES ?= 40
LAB_MORE ?= --more
run:
	@start=$$(date +%s); \
	$(MAKE) --no-print-directory setup || exit $$?; \
	left=$$(( $(LAB_MINUTES) * 60 - ($$(date +%s) - start) - 60 )); \
	if [ $$left -lt 300 ]; then left=300; fi; \
	echo "versus: set-up took $$(( $$(date +%s) - start )) s; the lab gets $$left s"; \
	$(BIN)/versus run $(EXPERIMENTS) --quick --budget $${left}s $(LAB_MORE)

run-full: setup
	$(BIN)/versus run $(EXPERIMENTS)

selftest: setup
	$(BIN)/versus selftest --seconds 600

clean:
	rm -rf $(VENV) versus-results
