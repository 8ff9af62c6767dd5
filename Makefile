# The two commands a newcomer needs: `make run` and `make test` (see README.md).
VENV ?= .venv
PYTHON ?= python3
CHROMIUM ?= /usr/bin/chromium
ARGS ?=
# Test workers (pytest-xdist): the two cores of the machine CI runs on; JOBS=0 runs in one process.
JOBS ?= 2

.PHONY: run test bench screenshots chromium postgresql

# A checkout keeps its tables in ./data beside it ($COMPANION_DATA_DIR or ARGS="--data-dir D" win).
run: $(VENV)/.app
	$(VENV)/bin/companion serve --data-dir "$${COMPANION_DATA_DIR:-data}" $(ARGS)

test: $(VENV)/.test chromium postgresql
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/djlint templates --check --lint
	CHROMIUM=$(CHROMIUM) $(VENV)/bin/python -m pytest -n $(JOBS) --dist loadgroup $(ARGS)

$(VENV)/.app: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install -q --upgrade pip
	$(VENV)/bin/pip install -q -e .
	touch $@

$(VENV)/.test: $(VENV)/.app
	$(VENV)/bin/pip install -q -e '.[test]'
	touch $@

# The README's pictures: a phone and the table screen per game, from the real server.
screenshots: $(VENV)/.test chromium
	CHROMIUM=$(CHROMIUM) $(VENV)/bin/python tools/screenshots.py $(ARGS)

# Browser tests drive Debian's Chromium; `playwright install` cannot download here.
chromium:
	@test -x "$(CHROMIUM)" || { echo "Installing Chromium with apt-get..."; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }

# The PostgreSQL tests start a throwaway cluster in a temp dir (tests/conftest.py) with
# Debian's server programs; with COMPANION_TEST_DATABASE_URL set they use that database.
postgresql:
	@test -n "$$COMPANION_TEST_DATABASE_URL" || command -v initdb >/dev/null || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || { \
	  echo "Installing PostgreSQL with apt-get..."; apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null; }
