# `make demo` and `make test` each create or refresh .venv first (README).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint bench clean system

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	./scripts/system-packages.sh demo
	$(BIN)/guandan demo

system:
	./scripts/system-packages.sh

test: $(STAMP) system
	$(BIN)/ruff check .
	$(BIN)/lint-imports
	$(BIN)/python -m pytest

bench: $(STAMP) system
	$(BIN)/python benchmarks/engine.py
	$(BIN)/python benchmarks/clock.py
	$(BIN)/python benchmarks/tournament.py
	$(BIN)/python benchmarks/web.py
	$(BIN)/python benchmarks/hall.py
	$(BIN)/python benchmarks/detector.py
	$(BIN)/python benchmarks/zones.py
	$(BIN)/python benchmarks/table.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
