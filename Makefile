# `make demo`, `make test` and `make check` each create or refresh .venv first (README).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

# the test workers (pytest-xdist): `make test WORKERS=auto` for one per core
WORKERS ?= 2
# what `make check` leaves out (the markers in pyproject.toml)
QUICK := not slow and not browser and not broker and not video

.PHONY: demo test check lint bench clean system

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
	$(BIN)/mypy
	$(BIN)/python -m pytest -n $(WORKERS) --dist loadgroup

# the quick subset for the edit-test loop, <= 3 min on 2 cores: no browser, broker, video or slow tests
check: $(STAMP) system
	$(BIN)/ruff check .
	$(BIN)/lint-imports
	$(BIN)/mypy
	$(BIN)/python -m pytest -n $(WORKERS) --dist loadgroup -m "$(QUICK)"

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
	rm -rf $(VENV) .pytest_cache .ruff_cache .mypy_cache .hypothesis
