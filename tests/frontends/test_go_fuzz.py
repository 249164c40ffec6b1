"""Fuzz the Go frontend: mutated piglet pages and .go files give diagnostics, never exceptions.

The number of cases is bounded for ``make test``; ``make fuzz`` raises it through
``CODEGEN_FUZZ_EXAMPLES``.
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings

from codegen import ir
from codegen.diagnostics import Diagnostics, render
from codegen.frontends.go.methods import build_methods
from codegen.frontends.go.reader import read_go
from codegen.passes import run_passes
from codegen.spec.config import load_config
from codegen.spec.source import SourceText
from tests.frontends.fuzz_support import EXAMPLES, mutations

REPO = Path(__file__).resolve().parent.parent.parent
SPEC = REPO / "specs/piglet"
BASE = (SPEC / "external.godoc.txt").read_text(encoding="utf-8")
TOKENS = [
    "{",
    "}",
    "(",
    ")",
    "`",
    '"',
    "//",
    "/*",
    "*/",
    "\n",
    "\t",
    "*",
    "[]",
    "map[",
    "type X struct {\n",
    "const (\n",
    ")\n",
    "}\n",
    'json:"',
    ",omitempty",
    "yaml:",
    "added in v",
    "type ",
    "func ",
    "→",
    "chan ",
    "interface{",
    "Method",
    "type Color string\n",
    " Color = ",
    "iota",
    " << ",
]


def _check(source: SourceText) -> None:
    diags = Diagnostics()
    config = load_config(SPEC, diags, REPO)
    assert config is not None
    read = read_go([source], diags)
    methods, constants = build_methods(
        read.consts, read.decls, read.pages, config, diags
    )
    protocol = ir.Protocol(
        "fuzz",
        "fuzz",
        "0",
        ir.Transport("jsonrpc-2.0", ()),
        config.roles,
        tuple(read.decls),
        tuple(methods),
        constants=tuple(constants),
    )
    run_passes(protocol, diags)
    for diagnostic in diags.items:
        assert diagnostic.span.line >= 1 and diagnostic.span.col >= 1
        render(diagnostic, REPO)


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(mutations(BASE, TOKENS))
def test_mutated_page_never_crashes(text: str) -> None:
    _check(SourceText("specs/piglet/external.godoc.txt", text))


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(mutations(BASE, TOKENS))
def test_mutated_go_file_never_crashes(text: str) -> None:
    # The page's own lines, read as one .go file: most of it is not Go at all.
    _check(SourceText("specs/piglet/external.go", text))
