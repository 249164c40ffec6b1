"""The method table of a Rust spec: the ``acp_peer!`` invocations.

Phase: frontend helper (used by ``rust.reader``).
Inputs: a ``macro_invocation`` node whose body tree-sitter leaves as a token tree, in either
of the macro's historical forms::

    acp_peer!(Handler, RequestTrait, AnyRequest, AnyResult, METHOD_MAP,
              (method_fn, "wireName", ParamsType, ResponseType), ...);       // v0.0.1-4
    acp_peer!(Handler, RequestTrait, AnyRequest, AnyResult, METHOD_MAP,
              (method_fn, "wireName", ParamsType, <params payload>, ResponseType,
               <response payload>), ...);                                    // v0.0.5+

Outputs: ``ir.Method``s.  ``Handler`` names the role that handles (receives) the methods; the
other role of the spec sends them.  Every entry is a JSON-RPC request; the four-field form
always carries params and a result.  A ``false`` params
payload means the request carries no ``params``; a ``false`` response payload means it answers
``null`` (the macro never reads the unit response struct off the wire).  Method docs are the
docs of the params type.
Guarantees: a malformed invocation or entry is MTH001 with the span of the offending token;
a wire name used twice is MTH002; nothing raises.
"""

from __future__ import annotations

from dataclasses import dataclass

from tree_sitter import Node

from codegen import ir
from codegen.diagnostics import Diagnostics
from codegen.frontends.common.syntax import node_text, span_of
from codegen.frontends.rust.cfg import split_groups
from codegen.frontends.rust.literals import string_literal_value
from codegen.spec.source import SourceText

PEER_MACRO = "acp_peer"
_HEADER = 5  # handler trait, request trait, request enum, response enum, method map


@dataclass(frozen=True, slots=True)
class MethodEntry:
    handler: str
    wire_name: str
    params: str
    params_payload: bool
    response: str
    response_payload: bool
    span: ir.Span


def read_peer_macro(
    node: Node, source: SourceText, diags: Diagnostics
) -> list[MethodEntry]:
    tree = next((c for c in node.named_children if c.type == "token_tree"), None)
    span = span_of(source, node)
    if tree is None:
        diags.report("MTH001", f"{PEER_MACRO}! has no argument list", span)
        return []
    groups = split_groups(tree)
    header = groups[:_HEADER]
    if len(header) < _HEADER or any(
        len(g) != 1 or g[0].type != "identifier" for g in header
    ):
        diags.report(
            "MTH001",
            f"{PEER_MACRO}! must start with five names (handler trait, request trait, "
            "request enum, response enum, method map)",
            span,
        )
        return []
    handler = node_text(header[0][0])
    entries: list[MethodEntry] = []
    for group in groups[_HEADER:]:
        entry = _entry(handler, group, source, diags)
        if entry is not None:
            entries.append(entry)
    return entries


def _entry(
    handler: str, group: list[Node], source: SourceText, diags: Diagnostics
) -> MethodEntry | None:
    span = span_of(source, group[0])
    if len(group) != 1 or group[0].type != "token_tree":
        diags.report(
            "MTH001",
            f"a {PEER_MACRO}! method entry must be a parenthesized tuple",
            span,
        )
        return None
    items = split_groups(group[0])
    kinds = [item[0].type if len(item) == 1 else "?" for item in items]
    # (method_fn, "wireName", Params, Response) — the early releases, payloads always
    # present — or (method_fn, "wireName", Params, true|false, Response, true|false).
    if kinds == ["identifier", "string_literal", "identifier", "identifier"]:
        params, params_payload, response, response_payload = (
            items[2],
            True,
            items[3],
            True,
        )
    elif kinds == [
        "identifier",
        "string_literal",
        "identifier",
        "boolean_literal",
        "identifier",
        "boolean_literal",
    ]:
        params, response = items[2], items[4]
        params_payload = node_text(items[3][0]) == "true"
        response_payload = node_text(items[5][0]) == "true"
    else:
        diags.report(
            "MTH001",
            f'a {PEER_MACRO}! method entry must be (method_fn, "wireName", ParamsType, '
            'ResponseType) or (method_fn, "wireName", ParamsType, true|false, '
            "ResponseType, true|false)",
            span,
        )
        return None
    wire = string_literal_value(items[1][0]) or ""
    return MethodEntry(
        handler=handler,
        wire_name=wire,
        params=node_text(params[0]),
        params_payload=params_payload,
        response=node_text(response[0]),
        response_payload=response_payload,
        span=span_of(source, items[1][0]),
    )


def build_methods(
    entries: list[MethodEntry],
    decls: dict[str, ir.Decl],
    roles: tuple[str, str],
    diags: Diagnostics,
) -> list[ir.Method]:
    methods: list[ir.Method] = []
    seen: dict[str, ir.Span] = {}
    for entry in entries:
        receiver = entry.handler.lower()
        if receiver not in roles:
            diags.report(
                "MTH001",
                f"handler trait {entry.handler} names no role of this spec "
                f"(roles: {', '.join(roles)})",
                entry.span,
            )
            continue
        if entry.wire_name in seen:
            diags.report(
                "MTH002",
                f"method {entry.wire_name!r} is declared twice (first at "
                f"{seen[entry.wire_name]})",
                entry.span,
            )
            continue
        seen[entry.wire_name] = entry.span
        for name, payload in (
            (entry.params, entry.params_payload),
            (entry.response, entry.response_payload),
        ):
            if not payload and name not in decls:
                # With a payload the reference pass reports it; without, only we see it.
                diags.report("REF001", f"{name} is not defined", entry.span)
        sender = roles[1] if receiver == roles[0] else roles[0]
        params_decl = decls.get(entry.params)
        docs = params_decl.lifecycle if params_decl is not None else ir.NO_LIFECYCLE
        methods.append(
            ir.Method(
                wire_name=entry.wire_name,
                kind=ir.MethodKind.REQUEST,
                direction=ir.Direction(sender, receiver),
                params=(
                    ir.Ref(entry.params, entry.span) if entry.params_payload else None
                ),
                result=(
                    ir.Ref(entry.response, entry.span)
                    if entry.response_payload
                    else None
                ),
                lifecycle=docs,
                span=entry.span,
            )
        )
    return methods
