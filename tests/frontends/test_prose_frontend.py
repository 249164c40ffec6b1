"""The prose frontend on small documents: method lines, fences, prose-only types, and
diagnostics (never exceptions) for everything malformed."""

from __future__ import annotations

from pathlib import Path

from codegen import ir
from codegen.diagnostics import Diagnostics
from codegen.frontends.common.result import FrontendResult
from codegen.frontends.prose.markdown_blocks import (
    CODE,
    OTHER_CODE,
    is_markdown,
    read_blocks,
)
from codegen.frontends.prose.reader import read_prose
from codegen.pipeline import SpecOutcome, load_protocol
from codegen.spec.source import SourceText

ROLES = ("client", "provider")


def read(text: str) -> tuple[FrontendResult, list[str]]:
    diags = Diagnostics()
    result = read_prose([SourceText("doc.md", text)], ROLES, {}, diags)
    return result, [d.headline() for d in diags.sorted()]


def load_md(tmp_path: Path, text: str) -> SpecOutcome:
    (tmp_path / "spec.toml").write_text(
        '[spec]\nid = "p"\nlanguage = "prose"\nsources = ["doc.md"]\n'
        'roles = ["client", "provider"]\n',
        encoding="utf-8",
    )
    (tmp_path / "doc.md").write_text(text, encoding="utf-8")
    return load_protocol(tmp_path, repo_root=tmp_path)


GOOD = """# Spec

## Ping

The ping request is sent by the provider to the client.

Request: { method: "ping", params: PingParams, settings?: object }

```typescript
interface PingParams { code: integer }
```

Response: { result: Pong[] }

```ts
type Pong = { at: number }
```
"""


def test_a_method_section() -> None:
    result, diags = read(GOOD)
    assert diags == []
    (method,) = result.methods
    assert method.wire_name == "ping"
    assert method.direction == ir.Direction("provider", "client")
    assert method.params == ir.Ref("PingParams", ir.Span("doc.md", 7, 36))
    assert method.result == ir.ArrayOf(ir.Ref("Pong", ir.Span("doc.md", 13, 21)))
    assert method.lifecycle.docs == (
        "The ping request is sent by the provider to the client."
    )
    ping = result.decls[0]
    assert isinstance(ping, ir.StructDecl)
    assert ping.span == ir.Span("doc.md", 10, 1)
    assert ping.fields[0].type == ir.Primitive(ir.PrimitiveKind.INTEGER)
    assert ping.fields[0].span == ir.Span("doc.md", 10, 24)


def test_direction_defaults_to_first_role_to_second() -> None:
    result, _ = read(
        'Request: { method: "x", params: object }\nResponse: { result: string }\n'
    )
    assert result.methods[0].direction == ir.Direction("client", "provider")
    assert result.methods[0].params == ir.AnyJson(structured=True)


def test_a_declared_integer_type_wins() -> None:
    result, diags = read(
        "```ts\ntype integer = string\ninterface A { n: integer }\n```\n"
    )
    assert diags == []
    a = result.decls[1]
    assert isinstance(a, ir.StructDecl)
    assert a.fields[0].type == ir.Ref("integer", ir.Span("doc.md", 3, 18))


def test_unknown_types_are_reference_errors(tmp_path: Path) -> None:
    outcome = load_md(tmp_path, "```ts\ninterface A { n: int64 }\n```\n")
    assert [d.headline() for d in outcome.diags.items if d.code != "MTH008"] == [
        "doc.md:2:18: error[REF001]: int64 is not defined"
    ]


def test_fences_in_other_languages_are_not_typescript() -> None:
    text = '```json\n{"a": 1}\n```\n\n~~~ts\ninterface A { a: string }\n~~~\n'
    assert is_markdown(text)
    assert [b.kind for b in read_blocks(text)] == [OTHER_CODE, CODE]
    result, diags = read(text)
    assert diags == [] and [d.name for d in result.decls] == ["A"]


def test_malformed_method_lines_are_diagnostics() -> None:
    text = """### A

Request: { method: a, params: A }

Request: { method: "b", params: A | B, extra: 1 }

Response: { result: B }

Response: { result: B }

Request: method c

Request: { method: "", params: X }

Request: { method: "d", params: D }

Response: { error: E }

### E

Response: { result: E }

Request: { method: "b", params: B }
Response: { result: B }
"""
    result, diags = read(text)
    assert [m.wire_name for m in result.methods] == ["b", "d"]
    assert diags == [
        (
            'doc.md:3:20: error[MTH001]: a Request: line needs method: "<wire name>" '
            "(a quoted string)"
        ),
        (
            "doc.md:5:33: error[SYN003]: params: 'A | B' is not a type name (or a name "
            "with []); name a declared type instead"
        ),
        "doc.md:5:40: warning[SYN002]: unknown key 'extra' in a Request: line; ignored",
        "doc.md:9:1: error[MTH001]: method b has a second Response: line",
        "doc.md:11:10: error[MTH001]: expected { ... } after Request:",
        "doc.md:13:21: error[MTH001]: a method's wire name is empty",
        (
            "doc.md:15:21: warning[MTH003]: method d has no Response: { result: ... } "
            "line; its result is read as null"
        ),
        "doc.md:17:1: error[MTH001]: a Response: line needs result: <type>",
        "doc.md:17:13: warning[SYN002]: unknown key 'error' in a Response: line; ignored",
        "doc.md:21:1: error[MTH001]: a Response: line without a Request: line before it",
        "doc.md:23:21: error[MTH002]: method b is declared twice (first at doc.md:5:21)",
        # the duplicate is dropped, so its Response: line answers nothing
        "doc.md:24:1: error[MTH001]: a Response: line without a Request: line before it",
    ]


def test_broken_typescript_is_reported_in_the_markdown() -> None:
    result, diags = read(
        "text\n\n```ts\ninterface A { a: string\n```\n\n```ts\ninterface B {}\n```\n"
    )
    assert any(d.startswith("doc.md:4:") and "SYN001" in d for d in diags), diags
    # one broken block does not swallow the next
    assert "B" in [d.name for d in result.decls]


def test_raw_text_reads_flattened_interfaces_with_a_line_comment() -> None:
    text = 'Meta\nRequest: { method: "meta", params: P }\ninterface P { // empty}\nResponse: { result: R }\ntype R = P[]/** * Doc. */interface Q { a: string }\n'
    assert not is_markdown(text)
    result, diags = read(text)
    assert diags == []
    assert [d.name for d in result.decls] == ["P", "R", "Q"]
    q = result.decls[2]
    assert q.lifecycle.docs == "Doc." and q.span == ir.Span("doc.md", 5, 26)


def test_empty_and_prose_only_documents() -> None:
    assert read("") == (FrontendResult((), ()), [])
    assert read("Just words.\n\nMore words.\n")[0].methods == ()


def test_typescript_type_names_in_method_lines() -> None:
    result, diags = read(
        'Request: { method: "x", params: bigint }\nResponse: { result: null }\n'
    )
    assert diags == []
    (method,) = result.methods
    assert method.params == ir.Primitive(ir.PrimitiveKind.INTEGER)
    assert method.result == ir.Primitive(ir.PrimitiveKind.NULL)


def test_an_external_never_imported_is_reported_unused(tmp_path: Path) -> None:
    (tmp_path / "spec.toml").write_text(
        '[spec]\nid = "p"\nlanguage = "prose"\nsources = ["doc.md"]\n'
        'roles = ["client", "provider"]\n'
        '[external.Ext]\nmodule = "./x.js"\nreason = "elsewhere"\n',
        encoding="utf-8",
    )
    (tmp_path / "doc.md").write_text("```ts\ninterface A { a: string }\n```\n")
    outcome = load_protocol(tmp_path, repo_root=tmp_path)
    assert [d.code for d in outcome.diags.items] == ["CFG004", "MTH008"]
