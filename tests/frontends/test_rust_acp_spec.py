"""The ACP spec end to end: the method table read from ``acp_peer!``, the declarations read
from ``schema.rs``, and the wire forms the generated bindings write for each serde construct.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from codegen import ir
from codegen.diagnostics import Severity
from codegen.pipeline import load_protocol

REPO = Path(__file__).resolve().parent.parent.parent

# wire name → (handler/receiver, params type or None, result type or None)
METHODS = {
    "streamAssistantMessageChunk": (
        "client",
        "StreamAssistantMessageChunkParams",
        None,
    ),
    "requestToolCallConfirmation": (
        "client",
        "RequestToolCallConfirmationParams",
        "RequestToolCallConfirmationResponse",
    ),
    "pushToolCall": ("client", "PushToolCallParams", "PushToolCallResponse"),
    "updateToolCall": ("client", "UpdateToolCallParams", None),
    "writeTextFile": ("client", "WriteTextFileParams", None),
    "readTextFile": ("client", "ReadTextFileParams", "ReadTextFileResponse"),
    "initialize": ("agent", "InitializeParams", "InitializeResponse"),
    "authenticate": ("agent", None, None),
    "sendUserMessage": ("agent", "SendUserMessageParams", None),
    "cancelSendMessage": ("agent", None, None),
}


@pytest.fixture(scope="module")
def protocol() -> ir.Protocol:
    outcome = load_protocol(REPO / "specs" / "acp", REPO)
    assert outcome.protocol is not None
    assert not outcome.diags.has_errors(), outcome.diags.items
    return outcome.protocol


def test_acp_loads_with_notes_only() -> None:
    outcome = load_protocol(REPO / "specs" / "acp", REPO)
    assert {d.severity for d in outcome.diags.items} <= {Severity.NOTE}


def _name(expr: ir.TypeExpr | None) -> str | None:
    return expr.name if isinstance(expr, ir.Ref) else None


def test_method_table(protocol: ir.Protocol) -> None:
    table = {
        m.wire_name: (m.direction.receiver, _name(m.params), _name(m.result))
        for m in protocol.methods
    }
    assert table == METHODS
    for method in protocol.methods:
        assert method.kind is ir.MethodKind.REQUEST
        other = "agent" if method.direction.receiver == "client" else "client"
        assert method.direction.sender == other
    assert protocol.methods[0].span.line > 1
    init = next(m for m in protocol.methods if m.wire_name == "initialize")
    assert init.lifecycle.docs.startswith("Initialize sets up the agent's state.")


def test_declaration_counts(protocol: ir.Protocol) -> None:
    source = (REPO / "specs/acp/schema.rs").read_text(encoding="utf-8")
    structs = source.count("\npub struct ")
    enums = source.count("\npub enum ")
    lifted = [
        d for d in protocol.decls if isinstance(d, ir.StructDecl) and d.derived_from
    ]
    assert (structs, enums) == (27, 7)
    assert len(protocol.decls) == structs + enums + len(lifted)
    kinds: dict[str, int] = {}
    for decl in protocol.decls:
        key = type(decl).__name__
        if isinstance(decl, ir.AliasDecl):
            key += ":null" if decl.target == ir.Primitive(ir.PrimitiveKind.NULL) else ""
        kinds[key] = kinds.get(key, 0) + 1
    assert kinds == {
        "StructDecl": 17 + len(lifted),
        "AliasDecl": 2,  # ToolCallId(u64), ProtocolVersion(Version)
        "AliasDecl:null": 8,  # unit structs
        "EnumDecl": 3,
        "UnionDecl": 4,
    }
    assert len(lifted) == 11


def _field(protocol: ir.Protocol, struct: str, wire: str) -> ir.Field:
    decl = protocol.decl(struct)
    assert isinstance(decl, ir.StructDecl)
    return next(f for f in decl.fields if f.wire_name == wire)


def test_serde_presence_facts(protocol: ir.Protocol) -> None:
    bare = _field(protocol, "UpdateToolCallParams", "content")
    assert bare.presence is ir.Presence.WRITTEN_ALWAYS_READ_OPTIONAL and bare.nullable
    skipped = _field(protocol, "PushToolCallParams", "content")
    assert skipped.presence is ir.Presence.OPTIONAL and not skipped.nullable
    locations = _field(protocol, "PushToolCallParams", "locations")
    assert locations.presence is ir.Presence.OPTIONAL
    assert locations.default_json == "[]"
    tag = _field(protocol, "PushToolCallResponse", "type")
    assert tag.synthesized and tag.type == ir.Literal("PushToolCallResponse")
    flat = _field(protocol, "RequestToolCallConfirmationParams", "toolCall")
    assert flat.flatten
    diff = _field(protocol, "ToolCallContentDiff", "diff")
    assert diff.flatten


@pytest.fixture(scope="module")
def models() -> Any:
    from tests.roundtrip import harness

    return harness.package("acp").models


def _dump(model: Any) -> str:
    return json.dumps(model.model_dump(mode="json", by_alias=True))


def test_bindings_write_what_serde_writes(models: Any) -> None:
    # tag = "type" on a struct: the struct's name, first, even when not given.
    response = models.PushToolCallResponse(id=3)
    assert _dump(response) == '{"type": "PushToolCallResponse", "id": 3}'
    # A bare Option is always written; absent on read → null on write.
    update = models.UpdateToolCallParams.model_validate(
        {"toolCallId": 1, "status": "running"}
    )
    assert _dump(update) == '{"toolCallId": 1, "status": "running", "content": null}'
    # skip_serializing_if: absent stays absent.
    push = models.PushToolCallParams(label="x", icon="pencil")
    assert _dump(push) == '{"label": "x", "icon": "pencil"}'
    # flatten inside an enum variant, with the tag first and oldText: null kept.
    diff = {"type": "diff", "path": "/a", "oldText": None, "newText": "b"}
    content = models.ToolCallContentDiff.model_validate(diff)
    assert json.loads(_dump(content)) == diff
    assert list(json.loads(_dump(content))) == list(diff)
