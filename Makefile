# Two commands for a fresh machine: `make lab` and `make test`. Both build .venv from pyproject.toml on first use
# and again whenever pyproject.toml changes; nothing needs to be installed by hand.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: lab test lint types unit sandbox-check docs screenshots notebooks bench dist clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev,lab,docs]'
	touch $@

# JupyterLab refuses to run as root unless told; containers and CI machines often are root.
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root)

# Both run with the venv's bin first on PATH, so a command the agent runs (the tutorials'
# `pytest`) finds the venv's tools on any machine, not whatever else is on PATH (or nothing).
ACTIVATED := PATH="$(CURDIR)/$(BIN):$$PATH"

# The tutorials get a zeph home of their own (their audit rows and grants stay out of the person's ~/.zeph). The
# server's root is the checkout, opened on notebooks/, so a tutorial's link to a docs page (../docs/…) opens.
LAB_HOME := $(CURDIR)/$(VENV)/zeph-home
lab: $(STAMP)
	ZEPH_HOME=$${ZEPH_HOME:-$(LAB_HOME)} $(ACTIVATED) $(BIN)/jupyter lab --notebook-dir=. \
	  --LabApp.default_url=/lab/tree/notebooks $(ROOT_FLAG) $(LAB_ARGS)

test: lint types unit

lint: $(STAMP)
	$(BIN)/ruff check zeph_nb extension tests bench deploy docs/conf.py docs/_ext notebooks/*.py
	$(BIN)/ruff format --check zeph_nb extension tests bench deploy docs/conf.py docs/_ext notebooks/*.py

types: $(STAMP)
	$(BIN)/mypy

# Unit tests and the tutorials (nbval) in one pytest run, so one summary line reports every test.
# --nbval-current-env: run notebooks in this venv's kernel, not whichever "python3" kernelspec the user has.
# The tutorials' kernels get a throwaway zeph home, so a test run never writes into the person's ~/.zeph.
# The tutorials and tests/security run commands in the OS sandbox, which comes from the OS, not from PyPI.
sandbox-check:
	@if [ "$$(uname -s)" = Linux ] && ! command -v bwrap >/dev/null 2>&1; then \
	  echo "bubblewrap (bwrap) is missing, so shell commands cannot be sandboxed here and the tutorials' outputs"; \
	  echo "would differ. Install it (Debian/Ubuntu: sudo apt-get install bubblewrap; .ci/run does) and run again."; \
	  exit 1; fi

# configurable-http-proxy, the proxy a real JupyterHub runs in front of itself (tests/hub), comes from npm: installed
# once into the venv, pinned to a major version.
PROXY := $(VENV)/node/node_modules/.bin/configurable-http-proxy
$(PROXY): | $(BIN)/python
	@command -v npm >/dev/null 2>&1 || { echo "npm is missing, so JupyterHub's proxy cannot be installed for the hub tests."; \
	  echo "Install Node.js (Debian/Ubuntu: sudo apt-get install nodejs npm; .ci/run does) and run again."; exit 1; }
	npm install --prefix $(VENV)/node --no-audit --no-fund --loglevel=error configurable-http-proxy@5

# Two workers (pytest-xdist): much of the suite waits on subprocesses, servers and a browser, so two keep two cores
# busy; --dist loadfile keeps a file's tests together (module fixtures, a tutorial's cells in one kernel). -n 2, not
# auto: auto counts physical cores, one on many 2-vCPU machines. Each worker gets its own ZEPH_HOME inside this one
# (tests/conftest.py). PYTEST_WORKERS=0 runs it in one process.
PYTEST_WORKERS ?= 2
unit: $(STAMP) sandbox-check $(PROXY)
	ZEPH_HOME=$$(mktemp -d) $(ACTIVATED) $(BIN)/pytest -n $(PYTEST_WORKERS) --dist loadfile --nbval --nbval-current-env --nbval-sanitize-with notebooks/sanitize.cfg tests notebooks

# The documentation site (docs/: Sphinx with MyST-NB) into docs/_build/html. -W: a warning fails the build — a broken
# link or anchor, a page in no table of contents, a notebook that fails to render. The tutorials are rendered from
# their stored outputs, never executed. tests/test_docs.py builds it the same way in `make test` and follows every
# link. The settings, defaults and error tables and the API page are made from the code by docs/_ext/zeph_docs.py.
docs: $(STAMP)
	ZEPH_HOME=$$(mktemp -d) $(ACTIVATED) $(BIN)/sphinx-build -W --keep-going -q -b html docs docs/_build/html
	@echo "open docs/_build/html/index.html (search shows excerpts when served: python3 -m http.server -d docs/_build/html)"

# The pictures the README and the docs show are taken by the browser tests (Chromium): run those tests, then copy
# the named pictures into docs/images/. Look at them before committing. (The hub's second test reads the request the
# first one made, so both run.)
DOC_SCREENSHOTS := zeph-cell-approval approval-card run-python-approval zeph-audit dashboard-pending hub-team-calls
SCREENSHOT_TESTS := -k "approve_runs_the_command or run_python_asks or zeph_audit_fits or approving_in_the_dashboard or reviewer_approves_a_users_request or cannot_open_anothers_request"
screenshots: $(STAMP) sandbox-check $(PROXY)
	ZEPH_HOME=$$(mktemp -d) $(ACTIVATED) $(BIN)/pytest -q -p no:cacheprovider $(SCREENSHOT_TESTS) \
	  tests/e2e/test_lab.py tests/e2e/test_dashboard.py tests/hub/test_hub_e2e.py
	mkdir -p docs/images
	for name in $(DOC_SCREENSHOTS); do cp tests/e2e/artifacts/$$name.png docs/images/; done

# Re-execute the tutorials and store their outputs (what nbval then holds them to).
notebooks: $(STAMP)
	$(ACTIVATED) $(BIN)/python notebooks/refresh.py

bench: $(STAMP)
	$(BIN)/python -m bench

# The wheel (and sdist) a person installs into their own environment: pip install dist/zeph_nb-*.whl. Built the
# way `python -m build` does it, the wheel from the sdist, so a file the sdist leaves out is missed here too.
dist: $(STAMP)
	rm -rf dist
	$(BIN)/python -m build --outdir dist .

clean:
	rm -rf $(VENV) dist docs/_build .pytest_cache .mypy_cache .ruff_cache
