# Two commands on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test check lint typecheck pytest browser-test bench screenshots clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/rummy app

browser-test: $(STAMP)
	$(BIN)/pytest -q -m browser

test: check pytest

check: lint typecheck

lint: $(STAMP)
	$(BIN)/ruff check scorer tests bench
	$(BIN)/ruff format --check scorer tests bench

typecheck: $(STAMP)
	$(BIN)/mypy scorer

pytest: $(STAMP)
	$(BIN)/pytest -q

bench: $(STAMP)
	$(BIN)/pip install --quiet -e '.[bench]' || echo "bench peers not installable here; running without them"
	$(BIN)/python bench/solver.py

screenshots: $(STAMP)
	$(BIN)/python tests/screenshots.py
	$(BIN)/python tests/screenshots_club.py

clean:
	rm -rf $(VENV) build dist .pytest_cache .mypy_cache .ruff_cache
