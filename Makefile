# codegen: `make generate` regenerates generated/ from specs/; `make test` checks everything.
# The first target run creates .venv from requirements.txt (pinned) and installs codegen into it.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
CODEGEN := $(BIN)/codegen
GENERATED_PKGS = $(wildcard generated/*/python/*/)

# The TypeScript checker the oracle campaign judges TypeScript specs with (pinned by the
# lockfile in codegen/oracles/npm).
NPM_DIR := build/oracle/npm
TYPESCRIPT := $(NPM_DIR)/node_modules/typescript/package.json
SPECS ?=
INTEROP_VENV := .venv-interop
INTEROP_STAMP := $(INTEROP_VENV)/.installed

.PHONY: generate test check lint lint-generated bench fuzz docs clean help oracle oracle-deps interop

help:
	@echo "make generate        regenerate generated/ from specs/"
	@echo "make test            generate --check, the test suite, and lint of generated code"
	@echo "make check           mypy --strict / ruff / black on codegen itself and generated/"
	@echo "make docs            build the HTML reference of all protocols into build/docs/site"
	@echo "make bench           benchmarks (ratios against named peers)"
	@echo "make fuzz            long frontend fuzz run (not part of make test)"
	@echo "make oracle          bindings and schemas against serde / encoding/json / tsc"
	@echo "                     (SPECS=\"acp piglet\" for some specs, FAILED=1 to re-run failures)"
	@echo "make interop         the generated stubs and clients against the official SDKs"

$(STAMP): requirements.txt pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.txt
	$(BIN)/python -m pip install --quiet --no-deps --no-build-isolation -e .
	touch $(STAMP)

generate: $(STAMP)
	$(CODEGEN) generate

$(TYPESCRIPT): codegen/oracles/npm/package.json codegen/oracles/npm/package-lock.json
	mkdir -p $(NPM_DIR)
	cp codegen/oracles/npm/package.json codegen/oracles/npm/package-lock.json $(NPM_DIR)/
	cd $(NPM_DIR) && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
	touch $@

oracle-deps: $(STAMP) $(TYPESCRIPT)

test: $(STAMP) $(TYPESCRIPT)
	$(CODEGEN) generate --check
	$(BIN)/python -m pytest -q -n 2
	$(MAKE) --no-print-directory check

check: lint lint-generated

lint: $(STAMP)
	$(BIN)/mypy --strict codegen
	$(BIN)/ruff check codegen tests bench
	$(BIN)/black --check --quiet codegen tests bench

lint-generated: $(STAMP)
	$(BIN)/mypy --strict $(GENERATED_PKGS)
	$(BIN)/ruff check --isolated generated
	$(BIN)/black --check --quiet generated

oracle: oracle-deps
	$(CODEGEN) generate --check
	$(BIN)/python -m codegen.oracles $(SPECS) $(if $(FAILED),--failed)

docs: $(STAMP)
	$(BIN)/codegen generate
	$(BIN)/python -m codegen.tools.docs_site

bench: $(STAMP)
	$(BIN)/python bench/bench_generate.py
	$(BIN)/python bench/bench_server.py
	$(BIN)/python bench/bench_bindings.py
	$(BIN)/python bench/bench_scale.py

fuzz: $(STAMP)
	CODEGEN_FUZZ_EXAMPLES=20000 $(BIN)/python -m pytest -q tests/frontends -k fuzz

# Real peers: the official SDKs (tests/interop/requirements.txt) in their own virtualenv,
# so their dependencies never reach the main one; pytest runs tests/interop only there.
$(INTEROP_STAMP): requirements.txt tests/interop/requirements.txt pyproject.toml
	test -x $(INTEROP_VENV)/bin/python || $(PYTHON) -m venv $(INTEROP_VENV)
	$(INTEROP_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(INTEROP_VENV)/bin/python -m pip install --quiet -r requirements.txt -r tests/interop/requirements.txt
	$(INTEROP_VENV)/bin/python -m pip install --quiet --no-deps --no-build-isolation -e .
	touch $(INTEROP_STAMP)

interop: $(INTEROP_STAMP)
	CODEGEN_INTEROP=1 $(INTEROP_VENV)/bin/python -m pytest -q tests/interop

clean:
	rm -rf $(VENV) $(INTEROP_VENV) build .mypy_cache .ruff_cache .pytest_cache codegen.egg-info
