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

# The systems the experiments measure, and the data they read.
subjects: system-packages $(STAMP)
	$(MAKE) -C subjects/shortstring build data
	./scripts/build-fastcond.sh
	./scripts/serialization-python-deps.sh || echo "versus: note: serialization's Python packages are not all installed; those arms fail until scripts/serialization-python-deps.sh succeeds" >&2

setup: $(STAMP) system-packages subjects

# Tests are type-checked too; pytest's fixtures and parameters may stay unannotated there.
lint: $(STAMP)
	$(BIN)/ruff check src tests
	$(BIN)/mypy
	$(BIN)/mypy --allow-untyped-defs --check-untyped-defs tests

test: setup lint test-harness test-subjects

test-harness: $(STAMP)
	$(BIN)/python -m pytest -q

test-subjects:
	$(MAKE) -C subjects/shortstring test
	$(MAKE) -C subjects/fastcond test PYTHON=$(PYTHON)

# The lab: every experiment, on every runtime found or fetchable, in one session. Each experiment's
# quick method keeps it within 30 minutes here; `run-full` gives every experiment its full method
# (its experiments' full runs, measured one by one, add up to about 47 minutes here), as
# `versus run NAME` does for one.
run: setup
	$(BIN)/versus run $(EXPERIMENTS) --quick

run-full: setup
	$(BIN)/versus run $(EXPERIMENTS)

selftest: setup
	$(BIN)/versus selftest --seconds 600

clean:
	rm -rf $(VENV) versus-results
