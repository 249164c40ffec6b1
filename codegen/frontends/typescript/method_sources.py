"""Method tables a TypeScript spec writes as types: message interfaces and registries.

Phase: frontend helper (after the declarations are converted, before ``methods.merge``).
Inputs: the converted declarations, the evaluator (for the members of registry interfaces),
the spec's roles.
Outputs: ``Found`` facts:
- **message interfaces**: an interface whose ``method`` field (own or inherited) is a string
  literal (MCP's ``CallToolRequest extends JSONRPCRequest { method: "tools/call"; params:
  CallToolRequestParams }``) and that a role union lists or whose name ends in ``Request``
  / ``Notification``: its params are the type of its ``params`` field (optional when the
  field is); the spec's role unions say who sends it and whether it is a request
  (``ClientRequest``, ``ServerNotification``: the role the name starts with sends the
  members; an alias of one message counts as a union of one); the result of a request ``XRequest`` is ``XResult`` in the receiver's result
  union (``ServerResult``), else the one member of that union no request pairs with by name
  (MCP's ``EmptyResult``);
- **registries**: an interface named ``...Map`` or ``...Registry`` whose every member maps a
  method name to ``{ params: P; result?: R }`` (AHP's ``CommandMap``): a request when it has
  a result, else a notification; sent by the role its name starts with
  (``ServerCommandMap``), else by the first role (a guess other sources override); a method
  in the maps of both roles goes both ways.
Guarantees: pure apart from lifting inline params/result objects into the ``methods`` group;
the names of registry interfaces are returned so the reader can leave them out of the wire
types (they are tables, not messages).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from codegen import ir
from codegen.diagnostics import Diagnostics, Severity
from codegen.frontends.typescript.evaluator import Evaluator
from codegen.frontends.typescript.materialize import pascal
from codegen.frontends.typescript.tstypes import (
    NULL,
    UNDEFINED,
    Obj,
    TsType,
    members_of,
    union_of,
)
from codegen.ir.index import Index
from codegen.methods.evidence import UNSET
from codegen.methods.evidence import Evidence as Found

_CATEGORIES = ("request", "notification", "result")
_REGISTRY = re.compile(r"(Map|Registry)$")


@dataclass
class _RoleUnions:
    """Role unions by (role, category) and the memberships of each declaration."""

    unions: dict[tuple[str, str], list[str]] = field(default_factory=dict)
    member_of: dict[str, list[tuple[str, str]]] = field(default_factory=dict)


def from_messages(
    decls: list[ir.Decl], roles: tuple[str, str], diags: Diagnostics | None = None
) -> list[Found]:
    index = Index(_protocol(decls))
    unions = _role_unions(decls, roles)
    messages: list[tuple[ir.StructDecl, str, dict[str, ir.Field]]] = []
    for decl in decls:
        if not isinstance(decl, ir.StructDecl) or decl.derived_from is not None:
            continue
        fields = {f.wire_name: f for f in index.wire_fields(decl)}
        wire = _literal_string(fields.get("method"), index)
        if wire is not None:
            messages.append((decl, wire, fields))
    grouped = _message_unions(decls, {d.name for d, _, _ in messages}, unions)
    # Once the spec groups its messages in unions, a message in none of them is a type
    # (a request embedded in a result, an example), not a method sent over JSON-RPC.
    any_union = bool(unions.member_of) or bool(grouped)
    sender_known = any(
        category != "result" for ms in unions.member_of.values() for _, category in ms
    )
    out: list[Found] = []
    requests: list[tuple[ir.StructDecl, str]] = []
    for decl, wire, fields in messages:
        memberships = unions.member_of.get(decl.name, [])
        categories = {category for _, category in memberships}
        group = grouped.get(decl.name)
        if group is not None:
            categories.add(group[1])
        if not categories:
            if any_union and diags is not None:
                diags.report(
                    "MTH009",
                    f"interface {decl.name} has method {wire!r} but is in no union of "
                    "requests or notifications: read as a type, not a method",
                    decl.span,
                    Severity.NOTE,
                )
                continue
            if not decl.name.endswith(("Request", "Notification")):
                continue  # a literal ``method`` alone does not make a message
        found = Found(
            wire, f"interface {decl.name}", decl.span, lifecycle=decl.lifecycle
        )
        if "request" in categories or (
            not categories and decl.name.endswith("Request")
        ):
            found.kind = ir.MethodKind.REQUEST
        elif "notification" in categories or (
            not categories and decl.name.endswith("Notification")
        ):
            found.kind = ir.MethodKind.NOTIFICATION
        senders = sorted(
            {role for role, category in memberships if category != "result"},
            key=roles.index,
        )
        if senders:
            receiver = roles[1] if senders[0] == roles[0] else roles[0]
            found.direction = ir.Direction(
                senders[0], receiver, both_ways=len(senders) > 1
            )
            found.how["direction"] = "in the role union(s) " + ", ".join(
                sorted(
                    {
                        f"{role[:1].upper()}{role[1:]}{category.title()}"
                        for role, category in memberships
                        if category != "result"
                    }
                )
            )
        elif group is not None and not sender_known:
            # No union names a role: one sender, the spec's first role (a note).
            found.direction = ir.Direction(roles[0], roles[1])
            found.inferred["direction"] = (
                f"{roles[0]} → {roles[1]}: {group[0]} names no role and no union of the "
                f"spec does, so its messages are taken as sent by the first role, "
                f"{roles[0]}"
            )
        params = fields.get("params")
        if params is None:
            found.params = None
        else:
            found.params = params.type
            found.params_optional = params.presence is not ir.Presence.REQUIRED
        out.append(found)
        if found.kind is ir.MethodKind.REQUEST:
            requests.append((decl, wire))
    _pair_results(out, requests, decls, unions, roles, index)
    return out


def _message_unions(
    decls: list[ir.Decl], messages: set[str], unions: _RoleUnions
) -> dict[str, tuple[str, str]]:
    """Unions of message interfaces that name no role (``type AppRequest = SendRequest |
    GetRequest``): member → (union, category), the category from the union's name
    (``...Request(s)``/``...Notification(s)``), else from the members' names."""
    out: dict[str, tuple[str, str]] = {}
    role_unions = {name for ms in unions.unions.values() for name in ms}
    for decl in decls:
        if decl.derived_from is not None:
            continue
        if isinstance(decl, ir.UnionDecl):
            members = [v.type.name for v in decl.variants if isinstance(v.type, ir.Ref)]
        elif isinstance(decl, ir.AliasDecl) and isinstance(decl.target, ir.Ref):
            members = [decl.target.name]  # an alias of one message: a union of one
        else:
            continue
        if not members or any(m not in messages for m in members):
            continue
        if decl.name in role_unions:
            continue
        base = decl.name.rstrip("s")
        for member in members:
            category = None
            for suffix in ("Request", "Notification"):
                if base.endswith(suffix) or member.endswith(suffix):
                    category = suffix.lower()
                    break
            if category is not None and member not in unions.member_of:
                out.setdefault(member, (decl.name, category))
    return out


def _pair_results(
    found: list[Found],
    requests: list[tuple[ir.StructDecl, str]],
    decls: list[ir.Decl],
    unions: _RoleUnions,
    roles: tuple[str, str],
    index: Index,
) -> None:
    by_name = {decl.name: decl for decl in decls}
    stems = {_stem(decl.name) for decl, _ in requests}
    by_wire = {item.wire: item for item in found}
    for decl, wire in requests:
        item = by_wire[wire]
        stem = _stem(decl.name)
        receivers = (
            [item.direction.receiver]
            + ([item.direction.sender] if item.direction.both_ways else [])
            if item.direction is not None
            else list(roles)
        )
        for receiver in receivers:
            members = unions.unions.get((receiver, "result"), [])
            if stem + "Result" in members or (
                not members and stem + "Result" in by_name
            ):
                result = by_name.get(stem + "Result")
                if result is not None:
                    item.result = ir.Ref(result.name, result.span)
                    item.how["result"] = (
                        f"{result.name}, paired by name with {decl.name}"
                    )
                    break
            unpaired = [
                m
                for m in members
                if not (m.endswith("Result") and m[: -len("Result")] in stems)
            ]
            if len(unpaired) == 1 and unpaired[0] in by_name:
                target = by_name[unpaired[0]]
                item.result = ir.Ref(target.name, target.span)
                item.how["result"] = (
                    f"{target.name}, the one member of {receiver}'s result union no "
                    "request pairs with by name"
                )
                break
        if item.result is UNSET:
            _from_envelope(item, stem, by_name, index)


def _from_envelope(
    item: Found, stem: str, by_name: dict[str, ir.Decl], index: Index
) -> None:
    """``interface SendSuccessResponse { result: Job | Reply }`` (or ``SendResponse``): the
    ``result`` field of the request's response envelope is its result."""
    for suffix in ("SuccessResponse", "Response"):
        envelope = by_name.get(stem + suffix)
        if not isinstance(envelope, ir.StructDecl):
            continue
        fields = {f.wire_name: f for f in index.wire_fields(envelope)}
        result = fields.get("result")
        if result is None:
            continue
        item.result = result.type
        item.how["result"] = f"the result field of its response {envelope.name}"
        return


def _stem(name: str) -> str:
    for suffix in ("Request", "Notification"):
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return name


def _role_unions(decls: list[ir.Decl], roles: tuple[str, str]) -> _RoleUnions:
    """``ClientRequest = A | B`` (or ``= A``, an alias of one) per role and category."""
    out = _RoleUnions()
    for decl in decls:
        if decl.derived_from is not None:
            continue
        if isinstance(decl, ir.UnionDecl):
            members = [v.type.name for v in decl.variants if isinstance(v.type, ir.Ref)]
        elif isinstance(decl, ir.AliasDecl) and isinstance(decl.target, ir.Ref):
            members = [decl.target.name]
        else:
            continue
        lowered = decl.name.lower().rstrip("s")
        for role in roles:
            for category in _CATEGORIES:
                if lowered == role.lower() + category:
                    out.unions[(role, category)] = members
                    for member in members:
                        out.member_of.setdefault(member, []).append((role, category))
    return out


def _literal_string(fld: ir.Field | None, index: Index) -> str | None:
    if fld is None:
        return None
    expr = index.resolve(fld.type)
    if isinstance(expr, ir.Literal) and isinstance(expr.value, str):
        return expr.value
    if isinstance(expr, ir.EnumMemberRef):
        enum = index.get(expr.enum)
        if isinstance(enum, ir.EnumDecl):
            for member in enum.members:
                if member.name == expr.member and isinstance(member.value, str):
                    return member.value
    return None


def _protocol(decls: list[ir.Decl]) -> ir.Protocol:
    return ir.Protocol(
        id="",
        title="",
        version="",
        transport=ir.Transport("", ()),
        roles=("", ""),
        decls=tuple(decls),
        methods=(),
    )


# ---------------------------------------------------------------------- registries


def registry_names(evaluator: Evaluator) -> list[str]:
    """Interfaces that map method names to ``{ params; result? }`` (see the docstring)."""
    out: list[str] = []
    for symbol in evaluator.table.order:
        if (
            symbol.kind != "interface"
            or symbol.params
            or not _REGISTRY.search(symbol.name)
        ):
            continue
        obj = evaluator.objects.get(symbol.name)
        if obj is None or not obj.props or obj.index is not None:
            continue
        entries = [evaluator.props_of(prop.type) for prop in obj.props]
        if all(e is not None and _is_entry(e) for e in entries):
            out.append(symbol.name)
    return out


def _is_entry(entry: Obj) -> bool:
    names = {prop.name for prop in entry.props}
    return "params" in names and names <= {"params", "result"}


def from_registries(
    evaluator: Evaluator, names: list[str], roles: tuple[str, str]
) -> list[Found]:
    out: list[Found] = []
    for name in names:
        symbol = evaluator.table.type(name)
        obj = evaluator.objects.get(name)
        if symbol is None or obj is None:
            continue
        sender = next((r for r in roles if name.lower().startswith(r.lower())), None)
        receiver = roles[1] if (sender or roles[0]) == roles[0] else roles[0]
        for prop in obj.props:
            entry = evaluator.props_of(prop.type)
            if entry is None:
                continue
            parts = {p.name: p for p in entry.props}
            found = Found(prop.name, f"registry {name}", prop.span)
            notification = "Notification" in name or "result" not in parts
            found.kind = (
                ir.MethodKind.NOTIFICATION if notification else ir.MethodKind.REQUEST
            )
            found.direction = ir.Direction(sender or roles[0], receiver)
            found.direction_guessed = sender is None
            found.direction_partial = sender is not None
            params = parts["params"]
            found.params, optional = _method_part(
                evaluator,
                params.type,
                pascal(prop.name) + "Params",
                f"{name}.{prop.name}.params",
            )
            found.params_optional = params.optional or optional
            if "result" in parts and not notification:
                found.result, _ = _method_part(
                    evaluator,
                    parts["result"].type,
                    pascal(prop.name) + "Result",
                    f"{name}.{prop.name}.result",
                )
            out.append(found)
    return out


def _method_part(
    evaluator: Evaluator, value: TsType, context: str, derived: str
) -> tuple[ir.TypeExpr | None, bool]:
    """The IR of a registry entry's params or result; ``null`` → none (a null result),
    ``| undefined`` → optional."""
    members = members_of(value)
    optional = UNDEFINED in members
    rest = [m for m in members if m not in (UNDEFINED, NULL)]
    if not rest:
        return None, optional
    span = ir.NO_SPAN
    expr = evaluator.element(
        union_of(rest + ([NULL] if NULL in members else [])), context, derived, span
    )
    return expr, optional
