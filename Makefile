# Two commands a game master needs: `make demo` and `make test`; `make check` is the fast tier.
# Both create .venv on first use with everything the project needs.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test check smoke lint typecheck bench clean system-deps catalogs docs pins

# Installed at the versions CI passed with (.ci/constraints.txt; `make pins` refreshes them).
$(STAMP): pyproject.toml .ci/constraints.txt
	test -d $(VENV) || $(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -c .ci/constraints.txt -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/companion demo

# Debian packages some tests need (headless Chromium, poppler, zbar); installed only when missing.
system-deps:
	@bash scripts/system-deps.sh

# The whole suite, every test with every example, one process per core (pytest-xdist; each file
# kept in one process, in its order: the browser engines and the real terminals share the
# machine as the rest does).
test: $(STAMP) system-deps
	$(BIN)/ruff check companion tests benchmarks
	$(BIN)/mypy
	$(BIN)/lint-imports
	$(BIN)/pytest -q -n auto --dist loadfile

# The fast tier, for between commits (under 2 minutes on two cores): the same linters (mypy from
# its cache), then every test but those in Chromium, in Textual's pilot (tests/tui), in a real
# terminal, or marked slow, one process per core (pytest-xdist; each file kept in one, in its
# order), each property with a fifth of its examples (tests/conftest.py's "fast" profile).
# `make test` runs them all, with every example.
check: $(STAMP)
	$(BIN)/ruff check companion tests benchmarks
	$(BIN)/mypy
	$(BIN)/lint-imports
	HYPOTHESIS_PROFILE=fast $(BIN)/pytest -q -n auto --dist loadfile \
		-m "not browser and not slow and not console and not terminal"

# The app as a game master installs it: the wheel in a fresh venv outside the checkout, tried from
# an empty folder (scripts/installed-smoke.sh says what it runs). CI runs it before `make test`.
smoke: $(STAMP)
	bash scripts/installed-smoke.sh

# The message catalogs: extract the messages, update every language's .po (scripts/catalogs.sh
# says more; `scripts/catalogs.sh init LANG` starts a new language).
catalogs: $(STAMP)
	bash scripts/catalogs.sh update
	bash scripts/catalogs.sh compile

# The generated references: docs/reference/cli.md from the parser, docs/reference/keys.md from
# the consoles' bindings (tests/test_reference.py fails when they are stale).
docs: $(STAMP)
	$(BIN)/python scripts/reference.py

lint: $(STAMP)
	$(BIN)/ruff check companion tests benchmarks

typecheck: $(STAMP)
	$(BIN)/mypy

bench: $(STAMP)
	for f in benchmarks/*.py; do $(BIN)/python $$f; done

# The newest versions within pyproject.toml's ranges, installed into a fresh environment and
# written to .ci/constraints.txt; run `make test` after (it installs them into .venv).
pins:
	rm -rf .pins-venv
	$(PY) -m venv .pins-venv
	.pins-venv/bin/pip install --quiet --upgrade pip
	.pins-venv/bin/pip install --quiet -e '.[dev]'
	{ sed -n '/^#/p' .ci/constraints.txt; .pins-venv/bin/pip freeze --exclude-editable \
		| grep -v '^#\|^-e\|^companion'; } > .ci/constraints.new
	mv .ci/constraints.new .ci/constraints.txt
	rm -rf .pins-venv

clean:
	rm -rf $(VENV)
