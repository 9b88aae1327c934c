# pbem: `make run` to play locally, `make test` to run every test, `make bench` for figures,
# `make fuzz` (N=10000 hostile requests at a real gunicorn, then MAILS=300 hostile mails through
# `pbem mail receive`; PBEM_FUZZ_DATABASE_URL for PostgreSQL).
PYTHON ?= python3
VENV   ?= .venv
PY      = $(VENV)/bin/python
# the version (pbem/__init__.py) too: the installed package's metadata must say the new one
CKSUM   = $(shell cat pyproject.toml pbem/__init__.py | cksum | cut -d' ' -f1)
STAMP   = $(VENV)/.installed-$(CKSUM)
RUN_STAMP = $(VENV)/.run-$(CKSUM)

# Where `make run` listens: `make run HOST=0.0.0.0 PORT=8000` lets a phone on the same network
# play. The links in the mail must reach it too: for 0.0.0.0 they use this machine's first
# network address (`hostname -I`, else its name); say BASE_URL=http://name:8000 to choose.
HOST ?= 127.0.0.1
PORT ?= 5000
ifeq ($(HOST),0.0.0.0)
PUBLIC_HOST ?= $(or $(firstword $(shell hostname -I 2>/dev/null)),$(shell hostname))
else ifeq ($(HOST),127.0.0.1)
PUBLIC_HOST ?= localhost
else
PUBLIC_HOST ?= $(HOST)
endif
BASE_URL ?= http://$(PUBLIC_HOST):$(PORT)

# Development settings for `make run`: the embedded SQLite database and a local mail catcher.
DEV_ENV = PBEM_ENV=development PBEM_DATABASE_URL=sqlite:///instance/pbem.db \
          PBEM_BASE_URL=$(BASE_URL) PBEM_MAIL_SERVER=127.0.0.1 PBEM_MAIL_PORT=1025 \
          PBEM_MAIL_CATCHER_DIR=instance/mail

.PHONY: setup run test bench fuzz clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

# `make run` installs what running needs; `make setup`, `make test` and `make bench` add [dev].
$(RUN_STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e .
	rm -f $(VENV)/.run-*
	touch $(RUN_STAMP)

$(STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e '.[dev]'
	rm -f $(VENV)/.installed-* $(VENV)/.run-*
	touch $(STAMP) $(RUN_STAMP)

setup: $(STAMP)

run: $(RUN_STAMP)
	$(DEV_ENV) $(VENV)/bin/pbem dev --host $(HOST) --port $(PORT)

test: setup
	$(PY) -m pytest -n 2 --dist loadfile -q

bench: setup
	$(PY) -m tests.bench

N ?= 10000
MAILS ?= 300
fuzz: setup
	$(PY) -m tests.fuzz --requests $(N)
	$(PY) -m tests.fuzz --mail $(MAILS)

clean:
	rm -rf $(VENV) instance .pytest_cache test-results
