"""The OpenCtx spec through the prose frontend: methods and types against the prose, spans
into the Markdown, and the same IR from the raw scraped seed."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from codegen import ir
from codegen.diagnostics import Diagnostics
from codegen.frontends.common.result import FrontendResult
from codegen.frontends.prose.reader import read_prose
from codegen.ir import dump as ir_dump
from codegen.ir.rewrite import rewrite
from codegen.pipeline import load_protocol
from codegen.spec.source import SourceText

REPO = Path(__file__).resolve().parent.parent.parent
MARKDOWN = "specs/openctx/protocol.md"
SEED = REPO.parent / "shared" / "seeds" / "openctx-protocol-spec.txt"
ROLES = ("client", "provider")

# Read off the prose by hand: every `interface X` / `type X =` of the page, and the
# Request:/Response: lines under the four method headings.
PROSE_TYPES = {
    "RequestMessage",
    "ResponseMessage",
    "MetaParams",
    "MetaResult",
    "MessageSelector",
    "AnnotationSelector",
    "MentionsParams",
    "MentionsResult",
    "Mention",
    "ItemsParams",
    "ItemsResult",
    "Item",
    "UserInterface",
    "AssistantInfo",
    "Position",
    "AnnotationsParams",
    "AnnotationsResult",
    "Annotation",
}
PROSE_METHODS = {
    "meta": ("MetaParams", "MetaResult"),
    "mentions": ("MentionsParams", "MentionsResult"),
    "items": ("ItemsParams", "ItemsResult"),
    "annotations": ("AnnotationsParams", "AnnotationsResult"),
}


def read(rel: str, text: str) -> tuple[FrontendResult, Diagnostics]:
    diags = Diagnostics()
    return read_prose([SourceText(rel, text)], ROLES, {}, diags), diags


def without_spans(value: Any) -> Any:
    return rewrite(
        value, lambda node: ir.NO_SPAN if isinstance(node, ir.Span) else node
    )


@pytest.fixture(scope="module")
def protocol() -> ir.Protocol:
    outcome = load_protocol(REPO / "specs" / "openctx", REPO)
    assert outcome.protocol is not None
    assert not outcome.diags.items, [d.headline() for d in outcome.diags.items]
    return outcome.protocol


def test_methods_match_the_prose(protocol: ir.Protocol) -> None:
    found = {
        m.wire_name: (
            m.params.name if isinstance(m.params, ir.Ref) else None,
            m.result.name if isinstance(m.result, ir.Ref) else None,
        )
        for m in protocol.methods
    }
    assert found == PROSE_METHODS
    for method in protocol.methods:
        assert method.kind is ir.MethodKind.REQUEST
        assert method.direction == ir.Direction("client", "provider")
        assert method.lifecycle.docs.startswith(f"The {method.wire_name} request")


def test_types_match_the_prose(protocol: ir.Protocol) -> None:
    named = {d.name for d in protocol.decls if d.derived_from is None}
    assert named == PROSE_TYPES
    lifted = {d.name: d.derived_from for d in protocol.decls if d.derived_from}
    assert lifted == {
        "ResponseMessageError": "ResponseMessage.error",
        "MetaResultItems": "MetaResult.items",
        "MetaResultMentions": "MetaResult.mentions",
        "MetaResultAnnotations": "MetaResult.annotations",
        "UserInterfaceHover": "UserInterface.hover",
        "AnnotationRange": "Annotation.range",
    }
    # ``data?: { [key: string]: unknown }`` is ``Record<string, unknown>``: a map.
    mention = next(d for d in protocol.decls if d.name == "Mention")
    assert isinstance(mention, ir.StructDecl)
    data = next(f for f in mention.fields if f.wire_name == "data")
    assert isinstance(data.type, ir.MapOf)


def test_transport_and_roles(protocol: ir.Protocol) -> None:
    assert protocol.transport == ir.Transport("http-post-envelope", ("http-post",))
    assert protocol.roles == ROLES
    assert protocol.version == "0.1"


def _struct(protocol: ir.Protocol, name: str) -> ir.StructDecl:
    decl = protocol.decl(name)
    assert isinstance(decl, ir.StructDecl)
    return decl


def _field(protocol: ir.Protocol, struct: str, name: str) -> ir.Field:
    return next(f for f in _struct(protocol, struct).fields if f.name == name)


def test_envelope_types(protocol: ir.Protocol) -> None:
    error = _struct(protocol, "ResponseMessageError")
    assert [(f.name, f.type, f.presence) for f in error.fields] == [
        ("code", ir.Primitive(ir.PrimitiveKind.INTEGER), ir.Presence.REQUIRED),
        ("message", ir.Primitive(ir.PrimitiveKind.STRING), ir.Presence.REQUIRED),
        ("data", ir.AnyJson(), ir.Presence.OPTIONAL),
    ]
    request = _struct(protocol, "RequestMessage")
    assert [(f.name, f.presence) for f in request.fields] == [
        ("method", ir.Presence.REQUIRED),
        ("params", ir.Presence.OPTIONAL),
        ("settings", ir.Presence.OPTIONAL),
    ]


def test_index_signature_result_aliases_and_nested_objects(
    protocol: ir.Protocol,
) -> None:
    # An object type of only an index signature is ``Record<string, unknown>``.
    assert protocol.decl("MentionData") is None
    assert _field(protocol, "Mention", "data").type == ir.MapOf(ir.AnyJson())
    for alias, item in (
        ("MentionsResult", "Mention"),
        ("ItemsResult", "Item"),
        ("AnnotationsResult", "Annotation"),
    ):
        decl = protocol.decl(alias)
        assert isinstance(decl, ir.AliasDecl)
        assert isinstance(decl.target, ir.ArrayOf)
        assert isinstance(decl.target.items, ir.Ref)
        assert decl.target.items.name == item
    range_field = _field(protocol, "Annotation", "range")
    assert range_field.presence is ir.Presence.OPTIONAL and not range_field.nullable
    assert [f.name for f in _struct(protocol, "AnnotationRange").fields] == [
        "start",
        "end",
    ]
    assert _struct(protocol, "MetaParams").fields == ()


def test_docs_come_from_the_jsdoc(protocol: ir.Protocol) -> None:
    selector = _struct(protocol, "AnnotationSelector")
    assert selector.lifecycle.docs.startswith(
        "Defines a scope in which a provider is called.\n\nTo satisfy"
    )
    uri = _field(protocol, "AnnotationsParams", "uri")
    assert (
        uri.lifecycle.docs == "The resource's URI (e.g., `file:///home/alice/foo.js`)."
    )


def _text_at(text: str, span: ir.Span) -> str:
    return text.split("\n")[span.line - 1][span.col - 1 :]


def test_spans_point_into_the_markdown(protocol: ir.Protocol) -> None:
    text = (REPO / MARKDOWN).read_text(encoding="utf-8")
    for decl in protocol.decls:
        assert decl.span.file == MARKDOWN
        at = _text_at(text, decl.span)
        if decl.derived_from is None:
            assert re.match(rf"(interface|type) {decl.name}\b", at), (decl.name, at)
        else:
            assert at.startswith("{"), (decl.name, at)
        if isinstance(decl, ir.StructDecl):
            for field in decl.fields:
                assert _text_at(text, field.span).startswith(field.name), field
    for method in protocol.methods:
        assert _text_at(text, method.span).startswith(method.wire_name + '"')
        assert isinstance(method.params, ir.Ref)
        assert _text_at(text, method.params.span).startswith(method.params.name)


def test_raw_seed_gives_the_same_ir_as_the_markdown() -> None:
    markdown, md_diags = read(MARKDOWN, (REPO / MARKDOWN).read_text(encoding="utf-8"))
    raw, raw_diags = read("seed.txt", SEED.read_text(encoding="utf-8"))
    assert not md_diags.items and not raw_diags.items
    assert ir_dump.dump(without_spans(raw)) == ir_dump.dump(without_spans(markdown))
    assert len(raw.decls) == 24 and len(raw.methods) == 4


def test_raw_seed_spans_point_into_the_flattened_lines() -> None:
    text = SEED.read_text(encoding="utf-8")
    raw, _ = read("seed.txt", text)
    for decl in raw.decls:
        at = _text_at(text, decl.span)
        if decl.derived_from is None:
            assert re.match(rf"(interface|type) {decl.name}\b", at), (decl.name, at)
        if isinstance(decl, ir.StructDecl):
            for field in decl.fields:
                assert _text_at(text, field.span).startswith(field.name), field
    meta = raw.methods[0]
    assert (meta.span.line, _text_at(text, meta.span)[:6]) == (23, 'meta",')
