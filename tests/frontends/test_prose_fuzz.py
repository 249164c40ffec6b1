"""Fuzz the prose frontend: mutated OpenCtx documents (Markdown and the raw seed) must give
diagnostics, never exceptions.

The number of cases is bounded for ``make test``; ``make fuzz`` raises it through
``CODEGEN_FUZZ_EXAMPLES``.
"""

from __future__ import annotations

import os
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from codegen import ir
from codegen.diagnostics import Diagnostics
from codegen.frontends.prose import read_prose
from codegen.passes import run_passes
from codegen.source import SourceText

REPO = Path(__file__).resolve().parent.parent.parent
BASES = [
    (REPO / "specs/openctx/protocol.md").read_text(encoding="utf-8"),
    (REPO.parent / "shared/seeds/openctx-protocol-spec.txt").read_text(
        encoding="utf-8"
    ),
]
EXAMPLES = int(os.environ.get("CODEGEN_FUZZ_EXAMPLES", "60"))
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


@st.composite
def mutated(draw: st.DrawFn) -> str:
    text = draw(st.sampled_from(BASES))
    for _ in range(draw(st.integers(1, 6))):
        position = draw(st.integers(0, len(text)))
        action = draw(st.sampled_from(["delete", "insert", "duplicate", "token"]))
        if action == "delete":
            text = text[:position] + text[position + draw(st.integers(1, 200)) :]
        elif action == "insert":
            text = text[:position] + draw(st.text(max_size=20)) + text[position:]
        elif action == "duplicate":
            size = draw(st.integers(1, 300))
            text = text[:position] + text[position : position + size] + text[position:]
        else:
            text = text[:position] + draw(st.sampled_from(TOKENS)) + text[position:]
    return text


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(mutated())
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
