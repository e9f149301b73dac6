# One command to install, one to test. PYTHON may point at any Python >= 3.11.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: install test check capabilities catalogs crossings bench clean docs-index pages

install:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'

test:
	$(BIN)/python -m pytest

# What CI runs: the tests plus the checks that keep generated files honest.
check: test
	$(BIN)/python -m pyflakes bunzai tests bench
	$(BIN)/bunzai cap check
	$(BIN)/bunzai docs index --check
	$(BIN)/bunzai docs summaries check
	$(BIN)/python -m bunzai.docs.limits_page --check
	$(BIN)/python -m bunzai.mcp.docs_page --check
	$(BIN)/python -m bunzai.docs.errors_page --check

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
	$(BIN)/python bench/compare.py

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .hypothesis

# Regenerate the docs catalog (bunzai/generated/docs.json) after adding or editing a page or a summary.
docs-index:
	$(BIN)/bunzai docs index
