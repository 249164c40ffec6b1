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
    _read_and_render(SourceText("specs/ahp/commands.ts", text), {"ActionEnvelope": ""})


def _read_and_render(source: SourceText, external: dict[str, str]) -> None:
    """The frontend and the passes on one file; every diagnostic points into the file
    and renders with its caret."""
    diags = Diagnostics()
    result = read_typescript([source], ("client", "server"), external, diags)
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
        assert diagnostic.span.line >= 1 and diagnostic.span.col >= 1
        render(diagnostic, REPO)


# TypeScript as it is written in the wild: MCP's schema (message interfaces, role unions,
# intersections, typeof) and every construct the evaluator computes (the goldens' inputs).
WILD_BASE = (REPO / "specs/mcp/schema.ts").read_text(encoding="utf-8") + "\n".join(
    (REPO / "tests/golden/typescript" / case / "input.ts").read_text(encoding="utf-8")
    for case in (
        "conditional_types",
        "mapped_types",
        "user_generics",
        "typeof_as_const",
        "utility_types",
        "recursive_alias",
        "method_registry",
    )
)
WILD_TOKENS = [
    *TOKENS,
    "&",
    "keyof ",
    "typeof ",
    " extends string ? ",
    "infer U",
    " as const",
    "<T>",
    "<T extends keyof X = keyof X>",
    "[K in keyof T]",
    "-?",
    "Partial<",
    "Omit<",
    "never",
    "[number]",
    '["method"]',
    "\\u{",
    "Grow<[T]>",
]


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(mutations(WILD_BASE, WILD_TOKENS))
def test_mutated_wild_typescript_never_crashes(text: str) -> None:
    _read_and_render(SourceText("specs/mcp/schema.ts", text), {})


def test_endless_instantiation_is_a_diagnostic() -> None:
    text = (
        "export type Grow<T> = { next: Grow<[T]> };\n"
        "export interface Box<T> { inner: Box<Box<T>> }\n"
        "export interface Use { g: Grow<string>; b: Box<number> }\n"
        "export type Deep = " + "(" * 3000 + "string" + ")" * 3000 + ";\n"
    )
    diags = Diagnostics()
    read_typescript([SourceText("a.ts", text)], ("client", "server"), {}, diags)
    messages = " ".join(d.message for d in diags.items)
    assert "without end" in messages
