# One command to install, one to test. PYTHON may point at any Python >= 3.11.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: install test check checks format capabilities catalogs crossings hot bench clean docs-index pages

install:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'

# The suite spreads over the machine's cores: most of its time is spent in `bunzai` subprocesses,
# so one worker per core keeps both busy; more workers than cores only adds start-up cost.
# `auto` counts the cores this process may use (xdist reads the CPU affinity), so a shared
# or pinned box is not oversubscribed. Tests that must not overlap share an xdist_group.
# WORKERS=0 runs everything in this process (for pdb).
WORKERS ?= auto

test:
	$(BIN)/python -m pytest -n $(WORKERS) --dist loadgroup

# What CI runs: the checks that keep the code and the generated files honest (seconds, so a
# stale generated file fails at once), then the tests.
check: checks test

checks:
	$(BIN)/ruff check bunzai tests bench
	$(BIN)/ruff format --check bunzai tests bench
	$(BIN)/lint-imports
	$(BIN)/bunzai cap check
	$(BIN)/bunzai docs index --check
	$(BIN)/bunzai docs summaries check
	$(BIN)/python -m bunzai.docs.limits_page --check
	$(BIN)/python -m bunzai.mcp.docs_page --check
	$(BIN)/python -m bunzai.cli.hot_tables --check
	$(BIN)/python -m bunzai.query.not_text --check
	$(BIN)/python -m bunzai.docs.errors_page --check

# Format the code and apply ruff's safe fixes; `make check` fails until this has run.
format:
	$(BIN)/ruff format bunzai tests bench
	$(BIN)/ruff check --fix bunzai tests bench

# Regenerate docs/limits.md (from bunzai/limits.py), docs/mcp-tools.md (from bunzai/tools/) and
# the error table in docs/cli.md (from bunzai/errors.py).
pages:
	$(BIN)/python -m bunzai.docs.limits_page --write
	$(BIN)/python -m bunzai.mcp.docs_page --write
	$(BIN)/python -m bunzai.docs.errors_page --write

# Regenerate the capability catalog and docs/capabilities.md from the capability folders.
capabilities:
	$(BIN)/bunzai cap check --write

# Regenerate the JSON copy of the macro catalogs after editing bunzai/catalogs/*.yaml.
catalogs:
	$(BIN)/python -m bunzai.macros.catalog_cache

# Regenerate bunzai/generated/hot.json (the kept answers of `bunzai formats` and `bunzai --help`)
# after changing an adapter or a command; until then those two take the slow path. And
# bunzai/generated/not_text.json (the fields search leaves out) after changing the model.
hot:
	$(BIN)/python -m bunzai.cli.hot_tables
	$(BIN)/python -m bunzai.query.not_text

# Regenerate docs/crossings.md (the crossing matrix) after changing a card format.
crossings:
	$(BIN)/python -m bunzai.crossings > docs/crossings.md

bench:
	$(BIN)/python bench/cold_start.py
	$(BIN)/python bench/parse_cards.py
	$(BIN)/python bench/translate.py
	$(BIN)/python bench/library.py
	$(BIN)/python bench/fuzz.py
	$(BIN)/python bench/regexlab.py
	$(BIN)/python bench/docs_search.py
	$(BIN)/python bench/studio_index.py
	$(BIN)/python bench/mcp_start.py
	$(BIN)/python bench/risu_preset.py
	$(BIN)/python bench/compare.py
	$(BIN)/python bench/levels.py
	$(BIN)/python bench/instructions.py
	$(BIN)/python bench/lorebooks.py
	$(BIN)/python bench/big_book_draft.py
	$(BIN)/python bench/doctor.py

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .hypothesis

# Regenerate the docs catalog (bunzai/generated/docs.json) after adding or editing a page or a summary.
docs-index:
	$(BIN)/bunzai docs index
