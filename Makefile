# pbem: `make run` to play locally, `make test` to run every test, `make quick` for the fast
# subset, `make bench` for figures, `make fuzz` (N=10000 hostile requests at a real gunicorn,
# then MAILS=300 hostile mails through `pbem mail receive`; PBEM_FUZZ_DATABASE_URL for
# PostgreSQL). scripts/setup installs what each needs, Debian packages included, and does
# nothing when it is all there.
# PYTHON: the Python .venv is made with; empty, scripts/setup chooses (the system's own Python
# 3.11+, else python3)
PYTHON ?=
VENV   ?= .venv
PY      = $(VENV)/bin/python
export PYTHON VENV

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

.PHONY: setup run test quick bench fuzz clean

setup:
	scripts/setup test

run:
	scripts/setup run
	$(DEV_ENV) $(VENV)/bin/pbem dev --host $(HOST) --port $(PORT)

# Every test, on as many workers as there are cores; the wall time at the end.
# PYTEST_ARGS adds pytest options (say PYTEST_ARGS="-k replies -x").
PYTEST_ARGS ?=
test:
	@start=$$(date +%s); scripts/setup test && \
	$(PY) -m pytest -n auto --dist worksteal -q --durations=10 $(PYTEST_ARGS); status=$$?; \
	echo "make test: $$(( $$(date +%s) - start )) s of wall time"; exit $$status

# The fast subset while working: no browser, no test over 10 s, no outside services, no install.
quick:
	@start=$$(date +%s); scripts/setup test && \
	$(PY) -m pytest -n auto --dist worksteal -q -m "not e2e and not slow and not services and not install" \
	  --durations=5 $(PYTEST_ARGS); status=$$?; \
	echo "make quick: $$(( $$(date +%s) - start )) s of wall time"; exit $$status

bench: setup
	$(PY) -m tests.bench

N ?= 10000
MAILS ?= 300
fuzz: setup
	$(PY) -m tests.fuzz --requests $(N)
	$(PY) -m tests.fuzz --mail $(MAILS)

clean:
	rm -rf $(VENV) instance .pytest_cache test-results
