# Two commands on a fresh machine: `make run` and `make test`; `make web` for whoever hosts the
# app as a static web build (dist/web, see README).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test check lint typecheck pytest browser-test browser postgres bench screenshots clean web mutation refusals

# The static web build: made again only when the app's files or the installed packages changed.
WEB_DIST := dist/web
WEB_STAMP := build/web.stamp
WEB_SOURCES := pyproject.toml $(shell find scorer rulesets vendor -type f -not -path '*/__pycache__/*' 2>/dev/null)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test,web,server]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/rummy app

# The browser tests drive Debian's Chromium through Playwright (never a downloaded browser).
# Installed here when missing and this user can (root, or sudo without a password).
browser:
	@command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ] || [ -n "$$RUMMY_CHROMIUM" ] || { \
	    if [ "$$(id -u)" = 0 ]; then SUDO=; \
	    elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then SUDO="sudo -n"; \
	    else echo "Chromium is missing for the browser tests: run 'sudo apt-get install -y chromium' (or set RUMMY_CHROMIUM to a Chromium binary), then 'make test' again." >&2; exit 1; fi; \
	    echo "Installing Debian's chromium for the browser tests (apt-get)"; \
	    $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends chromium; \
	}

# The store's tests run against a real PostgreSQL (Debian's, started by the tests in a temporary
# cluster as an unprivileged user). Installed here when missing and this user can.
postgres:
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || [ -n "$$RUMMY_PG_BIN" ] || { \
	    if [ "$$(id -u)" = 0 ]; then SUDO=; \
	    elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then SUDO="sudo -n"; \
	    else echo "PostgreSQL is missing for the store's tests: run 'sudo apt-get install -y postgresql' (or set RUMMY_PG_BIN to its bin folder), then 'make test' again." >&2; \
	        if [ -n "$$CI" ]; then exit 1; else echo "(outside CI its tests are skipped, with this reason)" >&2; exit 0; fi; fi; \
	    echo "Installing Debian's postgresql for the store's tests (apt-get)"; \
	    $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends postgresql; \
	}

web: $(WEB_STAMP)

$(WEB_STAMP): $(STAMP) $(WEB_SOURCES)
	$(BIN)/python -m scorer.web.build $(WEB_DIST)
	@mkdir -p $(dir $(WEB_STAMP)) && touch $(WEB_STAMP)

browser-test: $(STAMP) browser web
	RUMMY_WEB_DIST=$(WEB_DIST) $(BIN)/pytest -q -m browser

test: check browser postgres web pytest

check: lint typecheck

lint: $(STAMP)
	$(BIN)/ruff check scorer tests bench
	$(BIN)/ruff format --check scorer tests bench

typecheck: $(STAMP)
	$(BIN)/mypy scorer

# Two workers (pytest-xdist): the browser tests one after another on one of them (their group,
# tests/conftest.py), every other test beside them; about 18 minutes instead of 28 on 2 cores.
pytest: $(STAMP) web
	RUMMY_WEB_DIST=$(WEB_DIST) $(BIN)/pytest -q -n 2 --dist loadgroup --durations=25

bench: $(STAMP)
	$(BIN)/pip install --quiet -e '.[bench]' || echo "bench peers not installable here; running without them"
	$(BIN)/python bench/solver.py

# The scoring core's mutation score (bench/mutation.py), niced: it keeps a core busy for a while.
mutation: $(STAMP)
	nice -n 10 $(BIN)/python bench/mutation.py

# Every raise of the engine that no test enters (bench/refusals.py, under coverage), niced.
refusals: $(STAMP)
	nice -n 10 $(BIN)/python bench/refusals.py

screenshots: $(STAMP)
	$(BIN)/python tests/screenshots.py
	$(BIN)/python tests/screenshots_club.py

clean:
	rm -rf $(VENV) build dist .pytest_cache .mypy_cache .ruff_cache
