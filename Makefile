# Two commands a fresh machine needs: `make run` (the main job) and `make test` (every test).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
RUN_STAMP := $(VENV)/.installed-run
DEV_STAMP := $(VENV)/.installed-dev
# axe-core for the browser tests' accessibility checks, from the npm registry (pinned in
# tests/browser/package-lock.json)
AXE := tests/browser/node_modules/axe-core/axe.min.js

.PHONY: run test fuzz lint typecheck bench clean kernel axe lint-pages

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

# `make run` installs the package and what it needs to run (the server, sheets, odds, PostgreSQL's
# driver) and compiles the simulator's kernel; `make test` adds the developer tools (pytest, ruff,
# mypy, Playwright, schemathesis...).
$(RUN_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[postgres]'
	$(MAKE) --no-print-directory kernel
	touch $@

$(DEV_STAMP): pyproject.toml $(RUN_STAMP)
	$(BIN)/pip install --quiet -e '.[dev,postgres]'
	touch $@

# The simulator's compiled night kernel, into Numba's cache beside its sources: about a minute
# on two cores, done once by the install above so that the first `bunco simulate` or
# `bunco odds --set` starts at once (run it again after changing src/bunco/analysis/kernel).
kernel:
	$(BIN)/python -m bunco.analysis.kernel.compile

run: $(RUN_STAMP)
	$(BIN)/bunco serve --host $${BUNCO_HOST:-0.0.0.0} --port $${BUNCO_PORT:-8000}

$(AXE): tests/browser/package.json tests/browser/package-lock.json
	npm ci --prefix tests/browser --no-audit --no-fund --loglevel=error
	touch $(AXE)

axe: $(AXE)

# The lint of the page scripts (ESLint's recommended rules, tests/browser/eslint.config.mjs),
# installed beside axe-core by the same npm ci.
lint-pages: $(AXE)
	tests/browser/node_modules/.bin/eslint --config tests/browser/eslint.config.mjs --max-warnings 0 src/bunco/web/static

test: $(DEV_STAMP) $(AXE) lint-pages
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks  # the formatter sets the style (pyproject)
	$(BIN)/mypy
	$(BIN)/lint-imports  # the layers point one way, no import cycles (pyproject: tool.importlinter)
	# worksteal: a worker that runs out of tests takes some of the other's, so one long test
	# near the end does not leave a core idle; a third worker keeps both cores busy while
	# one waits its turn for the shared PostgreSQL test database
	$(BIN)/pytest -n 3 --dist worksteal -m "not browser"
	# Playwright's sync API keeps an event loop running in its worker: the browser tests run apart.
	$(BIN)/pytest -n 2 --dist worksteal -m browser

# The long schemathesis run: 25,000 cases per database and mode, 100,000 in all, no 5xx.
# PostgreSQL runs when BUNCO_TEST_PG_URL names a database the tests may wipe.
fuzz: $(DEV_STAMP)
	rm -f .fuzz-report.txt
	BUNCO_FUZZ_EXAMPLES=$${BUNCO_FUZZ_EXAMPLES:-25000} BUNCO_FUZZ_REPORT=.fuzz-report.txt \
		$(BIN)/pytest -n 2 tests/web/test_schema_fuzz.py
	cat .fuzz-report.txt

bench: $(DEV_STAMP)
	$(BIN)/python benchmarks/simulate.py
	$(BIN)/python benchmarks/replay.py
	$(BIN)/python benchmarks/server.py
	$(BIN)/python benchmarks/pages.py

clean:
	rm -rf $(VENV) tests/browser/node_modules
