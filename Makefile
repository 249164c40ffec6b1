# codegen: `make generate` regenerates generated/ from specs/; `make test` checks everything.
# The first target run creates .venv from requirements.txt (pinned) and installs codegen into it.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
CODEGEN := $(BIN)/codegen
GENERATED_PKGS = $(wildcard generated/*/python/*/)

INTEROP := .venv-interop
INTEROP_STAMP := $(INTEROP)/.installed

# The TypeScript checker the oracle campaign judges TypeScript specs with (pinned by the
# lockfile in codegen/oracles/npm).
NPM_DIR := build/oracle/npm
TYPESCRIPT := $(NPM_DIR)/node_modules/typescript/package.json
SPECS ?=
# pyright, the second type checker of generated/ and of tests/typing (pinned by the lockfile
# in tests/typing/npm).
PYRIGHT_DIR := build/typing/npm
PYRIGHT := $(PYRIGHT_DIR)/node_modules/.bin/pyright

.PHONY: generate test test-long check lint lint-generated bench bench-instructions fuzz corpus docs docs-check interop clean help oracle oracle-deps

help:
	@echo "make generate        regenerate generated/ from specs/"
	@echo "make test            generate --check, the test suite, and lint of generated code"
	@echo "make test-long       the suites make test leaves out (pressure, oracle slices, draws)"
	@echo "make test-deps       install what make test needs (root with apt), else name the command"
	@echo "make check           mypy --strict / ruff / black on codegen itself and generated/"
	@echo "make docs            build the HTML reference of all protocols into build/docs/site"
	@echo "make docs-check      build the site, serve it on 127.0.0.1 and check it in headless"
	@echo "                     Chromium (Debian chromium); screenshots in build/docs-check"
	@echo "                     then a fresh user project's site (nested output), every link followed"
	@echo "make bench           benchmarks (ratios against named peers) -> build/bench/summary.md"
	@echo "make bench-instructions  the SDK rows of make bench counted in instructions (valgrind)"
	@echo "make fuzz            long fuzz runs: spec bytes, kills of generate, frontends (not in make test)"
	@echo "make interop         real peers (official SDKs, own venv) against generated stubs/clients"
	@echo "make corpus          long campaign: every official-schema definition and schema type"
	@echo "make oracle          bindings and schemas against serde / encoding/json / tsc"
	@echo "                     (SPECS=\"acp piglet\" for some specs, FAILED=1 to re-run failures)"

$(STAMP): requirements.txt pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.txt
	$(BIN)/python -m pip install --quiet --no-deps --no-build-isolation -e .
	touch $(STAMP)

generate: $(STAMP)
	$(CODEGEN) generate

$(TYPESCRIPT): codegen/oracles/npm/package.json codegen/oracles/npm/package-lock.json | test-deps
	mkdir -p $(NPM_DIR)
	cp codegen/oracles/npm/package.json codegen/oracles/npm/package-lock.json $(NPM_DIR)/
	cd $(NPM_DIR) && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
	touch $@

$(PYRIGHT): tests/typing/npm/package.json tests/typing/npm/package-lock.json | test-deps
	mkdir -p $(PYRIGHT_DIR)
	cp tests/typing/npm/package.json tests/typing/npm/package-lock.json $(PYRIGHT_DIR)/
	cd $(PYRIGHT_DIR) && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
	touch $@

oracle-deps: $(STAMP) $(TYPESCRIPT)

test: test-deps $(STAMP) $(TYPESCRIPT) $(PYRIGHT)
	$(CODEGEN) generate --check
	$(BIN)/python -m pytest -q -n 2 -m "not long"
	$(MAKE) --no-print-directory -j2 check

# The suites make test leaves out (tests/conftest.py LONG) that make fuzz does not run: the
# pressure tests (RSS measured), the oracle slices, instances drawn from our schemas; and
# the official MCP schema's 145 definitions and every fast-union object at full width.
test-long: test-deps $(STAMP) $(TYPESCRIPT)
	$(BIN)/python -m pytest -q -n 2 -m long \
		$(foreach f,$(FUZZ_COVERED),--deselect $(f))
	CODEGEN_CORPUS_DEFS=all CODEGEN_UNION_OBJECTS=all $(BIN)/python -m pytest -q -n 2 \
		tests/corpus/test_mcp_official_schema.py tests/unit/test_union_fast_paths.py

check: lint lint-generated

lint: $(STAMP)
	$(BIN)/mypy --strict codegen
	$(BIN)/ruff check codegen tests bench
	$(BIN)/black --check --quiet codegen tests bench

lint-generated: $(STAMP) $(PYRIGHT)
	$(BIN)/mypy --strict $(GENERATED_PKGS)
	$(PYRIGHT) --pythonpath $(BIN)/python $(GENERATED_PKGS)
	$(BIN)/ruff check --isolated generated
	$(BIN)/black --check --quiet generated

oracle: oracle-deps
	$(CODEGEN) generate --check
	$(BIN)/python -m codegen.oracles $(SPECS) $(if $(FAILED),--failed)

docs: $(STAMP)
	$(BIN)/codegen generate
	$(BIN)/codegen docs --site build/docs/site

# The site as a reader meets it: Mermaid rendered, tables within their column at 1280 px
# and on screen at 400 px, search, no request leaving the machine (about 3 minutes).
# Then a user's project (nested output, codegen init/generate/docs) with every link of
# its site followed in Chromium, and a copy with broken links planted (about 2 minutes).
docs-check: $(STAMP)
	@test -x /usr/bin/chromium || { echo "docs-check needs Debian's chromium: apt-get install chromium"; exit 1; }
	$(CODEGEN) generate --check
	$(BIN)/python -m codegen.tools.docs_check
	$(BIN)/python -m codegen.tools.docs_check_project

# All benchmarks in one run; build/bench/summary.md holds the table of ratios (BASELINE=REV
# measures that revision too, for a before/after table; QUICK=1 for shorter runs).
bench: $(STAMP) $(INTEROP_STAMP)
	$(CODEGEN) generate
	$(BIN)/python bench/summary.py $(if $(BASELINE),--baseline $(BASELINE)) $(if $(QUICK),--quick)

# The bindings against the official SDKs' models in instructions (callgrind): the same
# passes as make bench's SDK rows, counted instead of timed, so a change of half a per cent
# shows on a loaded machine.  Needs valgrind: installed here as root with apt (as make
# test-deps installs its toolchains), else the script says it skipped and why.
bench-instructions: $(STAMP) $(INTEROP_STAMP)
	@command -v valgrind >/dev/null || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null \
		&& apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
		--no-install-recommends valgrind; } || true
	$(BIN)/python bench/bench_sdk_instructions.py

# The real peers' SDKs live in their own venv (tests/interop/requirements.txt, pinned): they
# must not decide the toolchain's own dependencies.  Every tests/interop/test_*.py runs there.
$(INTEROP_STAMP): tests/interop/requirements.txt
	test -x $(INTEROP)/bin/python || $(PYTHON) -m venv $(INTEROP)
	$(INTEROP)/bin/python -m pip install --quiet --upgrade pip
	$(INTEROP)/bin/python -m pip install --quiet -r tests/interop/requirements.txt
	touch $(INTEROP_STAMP)

interop: $(STAMP) $(INTEROP_STAMP)
	$(CODEGEN) generate --check
	CODEGEN_INTEROP=1 $(INTEROP)/bin/python -m pytest -q -p no:cacheprovider tests/interop

corpus: $(STAMP)
	CODEGEN_CORPUS_DEFS=all CODEGEN_CORPUS_EXAMPLES=10 CODEGEN_CORPUS_MUTANTS=60 \
	CODEGEN_SCHEMA_TYPES=0 $(BIN)/python -m pytest -q -n 2 tests/corpus \
	tests/roundtrip/test_schema_instances.py

# Byte-level fuzz of spec files (10,000 inputs per spec, report in build/fuzz/), 60 kills of
# `generate` at random points, and the hypothesis fuzz of frontends and servers, longer.
# FUZZ_PER_SPEC: mutated files per spec (10,000 by default, as CI runs it; fewer for a quick look).
FUZZ_PER_SPEC ?= 10000
# The long suites (tests/conftest.py LONG) make fuzz runs, at its own sizes.
FUZZ_COVERED := tests/hostile/test_generate_runs.py tests/frontends/test_typescript_fuzz.py \
	tests/frontends/test_go_fuzz.py tests/frontends/test_rust_fuzz.py \
	tests/frontends/test_prose_fuzz.py tests/server/test_fuzz.py
fuzz: $(STAMP)
	$(BIN)/python -m tests.hostile.spec_fuzz --per-spec $(FUZZ_PER_SPEC)
	CODEGEN_KILL_RUNS=60 CODEGEN_KILL_STEPS=all CODEGEN_CONCURRENT_ROUNDS=5 \
		$(BIN)/python -m pytest -q -s tests/hostile/test_generate_runs.py \
		tests/hostile/test_writer_crashes.py
	CODEGEN_FUZZ_EXAMPLES=300 $(BIN)/python -m pytest -q -n 2 tests/frontends tests/server -k fuzz

clean:
	rm -rf $(VENV) $(INTEROP) build .mypy_cache .ruff_cache .pytest_cache codegen.egg-info

# What make test needs beyond Python and make (Go, cargo and Debian's serde crates, node and
# npm): installed with apt when run as root, else the exact command is printed and make
# stops before any test runs (.ci/test-deps).
.PHONY: test-deps
test-deps:
	@bash .ci/test-deps

# Issue 30: the TypeScript frontend against two peers' suites (../shared/conformance/tjsg,
# tjs), compared by wire meaning both ways; figures in build/conformance-ts.json.
.PHONY: conformance-ts
help: help-conformance-ts
help-conformance-ts:
	@echo "make conformance-ts  the TypeScript frontend on the tjsg and tjs suites (figures in build/)"
conformance-ts: $(STAMP) $(TYPESCRIPT)
	CODEGEN_CONFORMANCE=all $(BIN)/python -m tests.conformance.typescript.report tjsg tjs

# Issue 30: every exported interface/type alias of 43 popular npm packages' .d.ts files
# (tests/wild/npm, lockfile pinned), each package in its own process, then the tsc oracle on
# a seeded sample of the modelled types (tests/wild/npm/sample.py); build/wild-ts.json.
.PHONY: wild-ts
help: help-wild-ts
help-wild-ts:
	@echo "make wild-ts         the TypeScript frontend on popular npm packages' .d.ts files (+ tsc oracle sample)"
wild-ts: $(STAMP) $(TYPESCRIPT)
	cd tests/wild/npm && npm ci --ignore-scripts --no-audit --no-fund
	$(BIN)/python -m tests.wild.npm.run

# The Go frontend on real packages (tests/wild/go): the Debian golang-*-dev packages pinned in
# tests/wild/go/packages.txt (installed here as root with apt, as .ci/run does), every exported
# json-tagged type; figures and the encoding/json oracle's sample in build/wild/go/report.json.
.PHONY: wild wild-go
help: help-wild
.PHONY: help-wild
help-wild:
	@echo "make wild-go         Go frontend on 45 Debian golang-*-dev packages (+ encoding/json oracle sample)"
	@echo "make wild            every wild campaign (wild-ts, wild-go, wild-rust)"

wild: wild-ts wild-go wild-rust

wild-go: $(STAMP)
	@if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
			$$(grep -v '^#' tests/wild/go/packages.txt) >/dev/null; fi
	$(BIN)/python tests/wild/go/campaign.py

# Real crates (tests/wild/rust/crates.txt, Debian's librust-*-dev) read as specs with zero
# edits: crates, types, share modelled, every unmodelled type explained, and serde_json against
# the bindings on a seeded sample of the modelled types (build/wild/rust/).
.PHONY: wild-rust
help: help-wild-rust
help-wild-rust:
	@echo "make wild-rust       read 40+ Debian serde crates as specs (+ serde oracle sample); figures in build/wild/rust"
wild-rust: $(STAMP)
	@if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		apt-get update -qq; \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
			$$(sed -e 's/#.*//' -e '/^ *$$/d' -e 's/^\([^ ]*\) .*/librust-\1-dev/' \
			tests/wild/rust/crates.txt); \
	fi
	$(BIN)/python -m tests.wild.rust.campaign

# Issue 31: the Rust (serde) frontend against two peers' suites (../shared/conformance/schemars,
# typeshare), compared by wire meaning both ways, serde (the Rust oracle) deciding each
# difference; figures in build/conformance-rust.json.
.PHONY: conformance-rust conformance
help: help-conformance-rust
help-conformance-rust:
	@echo "make conformance-rust the Rust frontend on the schemars and typeshare suites (figures in build/)"
	@echo "make conformance     every conformance campaign (conformance-ts, conformance-rust)"
conformance-rust: $(STAMP)
	CODEGEN_CONFORMANCE=all $(BIN)/python -m tests.conformance.rust.report schemars typeshare
conformance: conformance-ts conformance-rust
