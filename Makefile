# `make test` and `make run` do all set-up on a fresh Debian machine.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup system-packages test lint run quick selftest clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP) system-packages

# Runtimes and tools from Debian: installed when root, else the one line to install them is printed.
system-packages:
	@./scripts/system-packages.sh

lint: $(STAMP)
	$(BIN)/ruff check src tests
	$(BIN)/mypy

test: setup lint
	$(BIN)/python -m pytest -q

run: setup
	$(BIN)/versus run synchronization

quick: setup
	$(BIN)/versus run synchronization --quick

selftest: setup
	$(BIN)/versus selftest --seconds 300

clean:
	rm -rf $(VENV) versus-results
