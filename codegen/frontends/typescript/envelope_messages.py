"""Methods a TypeScript spec of an event envelope writes as message interfaces (the Debug
Adapter Protocol's ``LaunchRequest extends Request { command: 'launch'; arguments:
LaunchRequestArguments }``, ``LaunchResponse extends Response { body: {...} }``,
``StoppedEvent extends Event { event: 'stopped'; body: {...} }``).

Phase: frontend helper (after the declarations are converted, before ``methods.merge``),
only for a spec whose ``[transport] kind`` is ``"event-envelope"``.
Inputs: the converted declarations, the spec's roles, the envelope's keys (part → key,
spec.toml's ``[transport.fields]``).
Outputs: ``Found`` facts:
- **requests**: an interface whose command key (own or inherited) is a string literal and
  whose ``type`` is not ``"response"`` (nor its name ``...Response``): params are the type
  of its arguments key (optional when the key is, none without it); the result is the
  body of its response: the interface whose ``type`` is ``"response"`` (or whose name is
  ``...Response``) with the same literal command, else ``<Stem>Response``; a response
  without a body answers nothing.  Sent by the first role to the second (DAP's reverse
  requests say otherwise in ``[methods]``), a guess other evidence overrides.
- **events**: an interface whose event key is a string literal: a notification from the
  second role (the server) to the first, its params the type of its body key.
Guarantees: pure; interfaces whose command or event key is not a literal (the bases
``Request``, ``Response``, ``Event``) are no methods.
"""

from __future__ import annotations

from collections.abc import Mapping

from codegen import ir
from codegen.frontends.typescript.method_sources import _literal_string, _protocol
from codegen.ir.index import Index
from codegen.methods.evidence import Evidence as Found


def from_envelopes(
    decls: list[ir.Decl], roles: tuple[str, str], keys: Mapping[str, str]
) -> list[Found]:
    index = Index(_protocol(decls))
    structs = [
        d for d in decls if isinstance(d, ir.StructDecl) and d.derived_from is None
    ]
    fields = {d.name: {f.wire_name: f for f in index.wire_fields(d)} for d in structs}

    def literal(decl: ir.StructDecl, part: str) -> str | None:
        return _literal_string(fields[decl.name].get(keys.get(part, part)), index)

    def is_response(decl: ir.StructDecl) -> bool:
        kind = literal(decl, "type")
        return kind == "response" or (kind is None and decl.name.endswith("Response"))

    responses: dict[str, ir.StructDecl] = {}
    for decl in structs:
        command = literal(decl, "command")
        if command is not None and is_response(decl):
            responses.setdefault(command, decl)
    by_name = {d.name: d for d in structs}
    out: list[Found] = []
    for decl in structs:
        own = fields[decl.name]
        event = literal(decl, "event")
        command = literal(decl, "command")
        if event is not None and literal(decl, "type") in (None, "event"):
            found = Found(event, f"interface {decl.name}", decl.span)
            found.kind = ir.MethodKind.NOTIFICATION
            found.direction = ir.Direction(roles[1], roles[0])
            found.how["direction"] = "an event: sent by the server role"
            _params(found, own.get(keys.get("body", "body")))
            out.append(found)
        elif command is not None and not is_response(decl):
            found = Found(command, f"interface {decl.name}", decl.span)
            found.kind = ir.MethodKind.REQUEST
            found.direction = ir.Direction(roles[0], roles[1])
            found.direction_guessed = True
            _params(found, own.get(keys.get("arguments", "arguments")))
            stem = decl.name.removesuffix("Request")
            response = responses.get(command) or by_name.get(stem + "Response")
            if response is not None:
                body = fields[response.name].get(keys.get("body", "body"))
                found.result = None if body is None else body.type
                found.answers_nothing = body is None
                found.how["result"] = f"the body of its response {response.name}"
            out.append(found)
    return out


def _params(found: Found, field: ir.Field | None) -> None:
    if field is None:
        found.params = None
        return
    found.params = field.type
    found.params_optional = field.presence is not ir.Presence.REQUIRED


__all__ = ["from_envelopes"]
