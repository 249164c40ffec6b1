"""Fuzz the TypeScript frontend: mutated real specs must give diagnostics, never exceptions.

The number of cases is bounded for ``make test``; ``make fuzz`` raises it through
``CODEGEN_FUZZ_EXAMPLES``.
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings

from codegen import ir
from codegen.diagnostics import Diagnostics, render
from codegen.frontends.typescript.reader import read_typescript
from codegen.passes import run_passes
from codegen.spec.source import SourceText
from tests.frontends.fuzz_support import EXAMPLES, mutations

REPO = Path(__file__).resolve().parent.parent.parent
BASE = (REPO / "specs/ahp/commands.ts").read_text(encoding="utf-8")
TOKENS = [
    "{",
    "}",
    "|",
    "<<",
    "?",
    ":",
    ";",
    "/**",
    "*/",
    "@method x",
    "'",
    "`",
    "extends",
    "export",
    "interface",
    "enum",
    "type",
    "=",
    "(",
    ")",
    "[",
    "]",
    "\n",
    "Record<",
    "→",
]


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(mutations(BASE, TOKENS))
def test_mutated_typescript_never_crashes(text: str) -> None:
    source = SourceText("specs/ahp/commands.ts", text)
    diags = Diagnostics()
    result = read_typescript(
        [source], ("client", "server"), {"ActionEnvelope": ""}, diags
    )
    protocol = ir.Protocol(
        "fuzz",
        "fuzz",
        "0",
        ir.Transport("jsonrpc-2.0", ()),
        ("client", "server"),
        result.decls,
        result.methods,
        examples=result.examples,
    )
    run_passes(protocol, diags)
    for diagnostic in diags.items:
        # Every diagnostic points into the file and renders with its caret.
        assert diagnostic.span.line >= 1 and diagnostic.span.col >= 1
        render(diagnostic, REPO)
