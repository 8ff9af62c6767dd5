# The two commands a newcomer needs: `make run` and `make test` (see README.md).
VENV ?= .venv
PYTHON ?= python3
CHROMIUM ?= /usr/bin/chromium
ARGS ?=

.PHONY: run test bench

run: $(VENV)/.app
	$(VENV)/bin/companion serve $(ARGS)

test: $(VENV)/.test chromium
	CHROMIUM=$(CHROMIUM) $(VENV)/bin/python -m pytest $(ARGS)

$(VENV)/.app: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install -q --upgrade pip
	$(VENV)/bin/pip install -q -e .
	touch $@

$(VENV)/.test: $(VENV)/.app
	$(VENV)/bin/pip install -q -e '.[test]'
	touch $@

# Browser tests drive Debian's Chromium; `playwright install` cannot download here.
chromium:
	@test -x "$(CHROMIUM)" || { echo "Installing Chromium with apt-get..."; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }
