"""Fuzz the Rust serde frontend: mutated real specs must give diagnostics, never exceptions.

The number of cases is bounded for ``make test``; ``make fuzz`` raises it through
``CODEGEN_FUZZ_EXAMPLES``.
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings

from codegen import ir
from codegen.diagnostics import Diagnostics, render
from codegen.frontends.rust.reader import read_rust
from codegen.passes import run_passes
from codegen.spec.source import SourceText
from tests.frontends.fuzz_support import EXAMPLES, mutations

REPO = Path(__file__).resolve().parent.parent.parent
BASE = (REPO / "specs/acp/schema.rs").read_text(encoding="utf-8")
TOKENS = [
    "{",
    "}",
    "(",
    ")",
    "<",
    ">",
    ",",
    ";",
    "#[serde(",
    "#[serde(flatten)]",
    '#[serde(tag = "type")]',
    "#[serde(untagged)]",
    "#[serde(transparent)]",
    "#[serde(default)]",
    '#[serde(rename_all = "bogus")]',
    "#[derive(Serialize)]",
    "///",
    '"',
    "acp_peer!(",
    "Option<",
    "Vec<",
    "true",
    "pub struct X;",
    "\n",
    "→",
]


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(mutations(BASE, TOKENS))
def test_mutated_rust_never_crashes(text: str) -> None:
    source = SourceText("specs/acp/schema.rs", text)
    diags = Diagnostics()
    result = read_rust([source], ("client", "agent"), diags)
    protocol = ir.Protocol(
        "fuzz",
        "fuzz",
        "0",
        ir.Transport("jsonrpc-2.0", ()),
        ("client", "agent"),
        result.decls,
        result.methods,
    )
    run_passes(protocol, diags)
    for diagnostic in diags.items:
        # Every diagnostic points into the file and renders with its caret.
        assert diagnostic.span.line >= 1 and diagnostic.span.col >= 1
        render(diagnostic, REPO)
