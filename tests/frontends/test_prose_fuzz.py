"""Fuzz the prose frontend: mutated OpenCtx documents (Markdown and the raw seed) must give
diagnostics, never exceptions.

The number of cases is bounded for ``make test``; ``make fuzz`` raises it through
``CODEGEN_FUZZ_EXAMPLES``.
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from codegen import ir
from codegen.diagnostics import Diagnostics
from codegen.frontends.prose.reader import read_prose
from codegen.passes import run_passes
from codegen.spec.source import SourceText
from tests.frontends.fuzz_support import EXAMPLES, mutations

REPO = Path(__file__).resolve().parent.parent.parent
BASES = [
    (REPO / "specs/openctx/protocol.md").read_text(encoding="utf-8"),
    (REPO.parent / "shared/seeds/openctx-protocol-spec.txt").read_text(
        encoding="utf-8"
    ),
]
TOKENS = [
    "{",
    "}",
    "```ts\n",
    "```\n",
    "\n# ",
    "### X\n",
    'Request: { method: "',
    "Request: {",
    "Response: { result: ",
    "params: ",
    "//",
    "/**",
    "*/",
    " * ",
    "interface ",
    "type X = ",
    "|",
    "?:",
    ",",
    "\n",
    "- ",
    "`",
    "é→",
]


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.one_of([mutations(base, TOKENS) for base in BASES]))
def test_mutated_prose_never_crashes(text: str) -> None:
    source = SourceText("specs/openctx/protocol.md", text)
    diags = Diagnostics()
    result = read_prose([source], ("client", "provider"), {}, diags)
    protocol = ir.Protocol(
        "fuzz",
        "fuzz",
        "0",
        ir.Transport("http-post-envelope", ("http-post",)),
        ("client", "provider"),
        result.decls,
        result.methods,
    )
    run_passes(protocol, diags)
    lines = text.split("\n")
    for diagnostic in diags.items:
        span = diagnostic.span
        assert span.file == "specs/openctx/protocol.md", diagnostic
        assert 1 <= span.line <= len(lines), diagnostic
        assert 1 <= span.col <= len(lines[span.line - 1]) + 1, diagnostic
