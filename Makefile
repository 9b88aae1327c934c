# pbem: `make run` to play locally, `make test` to run every test, `make bench` for figures.
PYTHON ?= python3
VENV   ?= .venv
PY      = $(VENV)/bin/python
STAMP   = $(VENV)/.installed-$(shell cat pyproject.toml | cksum | cut -d' ' -f1)

# Development settings for `make run`: the embedded SQLite database and a local mail catcher.
DEV_ENV = PBEM_ENV=development PBEM_DATABASE_URL=sqlite:///instance/pbem.db \
          PBEM_BASE_URL=http://localhost:5000 PBEM_MAIL_SERVER=127.0.0.1 PBEM_MAIL_PORT=1025 \
          PBEM_MAIL_CATCHER_DIR=instance/mail

.PHONY: setup run test bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	rm -f $(VENV)/.installed-*
	touch $(STAMP)

setup: $(STAMP)

run: setup
	$(DEV_ENV) $(VENV)/bin/pbem dev

test: setup
	$(PY) -m pytest -n 2 --dist loadfile -q

bench: setup
	$(PY) -m tests.bench

clean:
	rm -rf $(VENV) instance .pytest_cache test-results
