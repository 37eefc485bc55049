# Two commands a game master needs: `make demo` and `make test`.
# Both create .venv on first use with everything the project needs.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint typecheck bench clean system-deps

$(STAMP): pyproject.toml
	test -d $(VENV) || $(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/companion demo

# Debian packages some tests need (headless Chromium, poppler, zbar); installed only when missing.
system-deps:
	@bash scripts/system-deps.sh

test: $(STAMP) system-deps
	$(BIN)/ruff check companion tests benchmarks
	$(BIN)/mypy
	$(BIN)/lint-imports
	$(BIN)/pytest -q

lint: $(STAMP)
	$(BIN)/ruff check companion tests benchmarks

typecheck: $(STAMP)
	$(BIN)/mypy

bench: $(STAMP)
	for f in benchmarks/*.py; do $(BIN)/python $$f; done

clean:
	rm -rf $(VENV)
