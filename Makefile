# Two commands a fresh machine needs: `make run` (the main job) and `make test` (every test).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# axe-core for the browser tests' accessibility checks, from the npm registry (pinned in
# tests/browser/package-lock.json)
AXE := tests/browser/node_modules/axe-core/axe.min.js

.PHONY: run test fuzz lint typecheck bench clean axe

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev,postgres]'
	touch $(STAMP)

$(AXE): tests/browser/package.json tests/browser/package-lock.json
	npm ci --prefix tests/browser --no-audit --no-fund --loglevel=error
	touch $(AXE)

axe: $(AXE)

run: $(STAMP)
	$(BIN)/bunco serve --host $${BUNCO_HOST:-0.0.0.0} --port $${BUNCO_PORT:-8000}

test: $(STAMP) $(AXE)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/mypy
	$(BIN)/lint-imports  # the layers point one way, no import cycles (pyproject: tool.importlinter)
	$(BIN)/pytest -n 2 -m "not browser"
	# Playwright's sync API keeps an event loop running in its worker: the browser tests run apart.
	$(BIN)/pytest -n 2 -m browser

# The long schemathesis run: 25,000 cases per database and mode, 100,000 in all, no 5xx.
# PostgreSQL runs when BUNCO_TEST_PG_URL names a database the tests may wipe.
fuzz: $(STAMP)
	rm -f .fuzz-report.txt
	BUNCO_FUZZ_EXAMPLES=$${BUNCO_FUZZ_EXAMPLES:-25000} BUNCO_FUZZ_REPORT=.fuzz-report.txt \
		$(BIN)/pytest -n 2 tests/web/test_schema_fuzz.py
	cat .fuzz-report.txt

bench: $(STAMP)
	$(BIN)/python benchmarks/simulate.py
	$(BIN)/python benchmarks/replay.py
	$(BIN)/python benchmarks/server.py
	$(BIN)/python benchmarks/pages.py

clean:
	rm -rf $(VENV) tests/browser/node_modules
