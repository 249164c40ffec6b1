"""Methods a TypeScript spec declares as namespaces (the vscode-languageserver idiom).

Phase: frontend helper (beside ``method_sources``, before the shared resolver).
Inputs: the parsed files, the evaluator (to read the type arguments), the spec's roles.
A method reads::

    export namespace LookupRequest {
      export const method: 'doc/lookup' = 'doc/lookup';
      export const messageDirection: MessageDirection = MessageDirection.clientToServer;
      export const type = new RequestType<LookupParams, Entry | null, void>(method);
    }

Outputs: one ``Evidence`` per namespace with a string ``method`` constant: the kind from the
instance's class (``RequestType``/``ProtocolRequestType``: params, result, ...;
``RequestType0``: result only; ``NotificationType``/``ProtocolNotificationType``: params;
``NotificationType0``: none), else from the namespace's name (``...Request`` /
``...Notification``); the direction from ``messageDirection`` (``<a>To<b>`` in the
spec's role names, ``both``); params and result from the type arguments, ``void`` /
``undefined`` / ``null`` / ``never`` meaning none (a request answering nothing).
Guarantees: never raises on user input; a namespace without a ``method`` string constant
is not a method; a ``messageDirection`` naming no role is an MTH001 error on its line.
"""

from __future__ import annotations

import re

from tree_sitter import Node

from codegen import ir
from codegen.diagnostics import Diagnostics
from codegen.frontends.common.syntax import node_text, span_of
from codegen.frontends.typescript.evaluator import Evaluator
from codegen.frontends.typescript.method_sources import _method_part
from codegen.frontends.typescript.tstypes import NULL, UNDEFINED, members_of
from codegen.methods.evidence import Evidence
from codegen.spec.source import SourceText

# class → (index of the params argument or None, index of the result argument or None)
_CLASSES: dict[str, tuple[ir.MethodKind, int | None, int | None]] = {
    "RequestType": (ir.MethodKind.REQUEST, 0, 1),
    "ProtocolRequestType": (ir.MethodKind.REQUEST, 0, 1),
    "RequestType0": (ir.MethodKind.REQUEST, None, 0),
    "ProtocolRequestType0": (ir.MethodKind.REQUEST, None, 0),
    "NotificationType": (ir.MethodKind.NOTIFICATION, 0, None),
    "ProtocolNotificationType": (ir.MethodKind.NOTIFICATION, 0, None),
    "NotificationType0": (ir.MethodKind.NOTIFICATION, None, None),
    "ProtocolNotificationType0": (ir.MethodKind.NOTIFICATION, None, None),
}
_STRING = re.compile(r"^(['\"])(.*)\1$", re.DOTALL)


def from_namespaces(
    files: list[tuple[SourceText, Node]],
    evaluator: Evaluator,
    roles: tuple[str, str],
    diags: Diagnostics,
) -> list[Evidence]:
    out: list[Evidence] = []
    for source, root in files:
        for module in _modules(root):
            found = _read(module, source, evaluator, roles, diags)
            if found is not None:
                out.append(found)
    return out


def _modules(node: Node, depth: int = 0) -> list[Node]:
    """``namespace X {}`` / ``module X {}`` at any depth (nested namespaces too)."""
    out: list[Node] = []
    if depth > 6:
        return out
    for child in node.named_children:
        if child.type in ("internal_module", "module"):
            out.append(child)
            body = child.child_by_field_name("body")
            if body is not None:
                out.extend(_modules(body, depth + 1))
        elif child.type in (
            "export_statement",
            "expression_statement",
            "ambient_declaration",
        ):
            out.extend(_modules(child, depth + 1))
    return out


def _consts(body: Node) -> dict[str, Node]:
    """The ``const`` declarators of a namespace body: name → declarator."""
    out: dict[str, Node] = {}
    stack = list(body.named_children)
    while stack:
        node = stack.pop(0)
        if node.type == "export_statement":
            stack[:0] = node.named_children
        elif node.type == "lexical_declaration":
            for declarator in node.named_children:
                if declarator.type == "variable_declarator":
                    name = node_text(declarator.child_by_field_name("name"))
                    out.setdefault(name, declarator)
    return out


def _read(
    module: Node,
    source: SourceText,
    evaluator: Evaluator,
    roles: tuple[str, str],
    diags: Diagnostics,
) -> Evidence | None:
    name = node_text(module.child_by_field_name("name"))
    body = module.child_by_field_name("body")
    if body is None:
        return None
    consts = _consts(body)
    method = consts.get("method")
    wire = _string_value(method)
    if method is None or wire is None:
        return None
    span = span_of(source, method)
    found = Evidence(wire, f"namespace {name}", span, exclusive=True)
    if name.endswith("Request"):
        found.kind = ir.MethodKind.REQUEST
    elif name.endswith("Notification"):
        found.kind = ir.MethodKind.NOTIFICATION
    direction = consts.get("messageDirection")
    if direction is not None:
        found.direction = _direction(direction, roles)
        if found.direction is None:
            diags.report(
                "MTH001",
                f"{wire}: messageDirection {_value_text(direction)!r} names no "
                f"direction between {roles[0]!r} and {roles[1]!r}",
                span_of(source, direction),
            )
    for declarator in consts.values():
        value = declarator.child_by_field_name("value")
        if value is None or value.type != "new_expression":
            continue
        klass = node_text(value.child_by_field_name("constructor")).rsplit(".", 1)[-1]
        shape = _CLASSES.get(klass)
        if shape is None:
            continue
        kind, params_at, result_at = shape
        found.kind = kind
        args = value.child_by_field_name("type_arguments")
        types = [c for c in args.named_children] if args is not None else []
        if params_at is None:
            found.params = None
        elif params_at < len(types):
            found.params, found.params_optional = _part(
                evaluator, types[params_at], source, wire, "Params"
            )
        if kind is ir.MethodKind.REQUEST:
            if result_at is None:
                found.result = None
            elif result_at < len(types):
                found.result, _ = _part(
                    evaluator, types[result_at], source, wire, "Result"
                )
                found.answers_nothing = found.result is None
        break
    return found


def _part(
    evaluator: Evaluator, node: Node, source: SourceText, wire: str, suffix: str
) -> tuple[ir.TypeExpr | None, bool]:
    value = evaluator.eval(node, {}, source)
    members = members_of(value)
    if all(m in (NULL, UNDEFINED) for m in members) or node_text(node) in (
        "void",
        "never",
    ):
        return None, False
    context = re.sub(r"[^0-9A-Za-z]+", " ", wire).title().replace(" ", "") + suffix
    return _method_part(evaluator, value, context, f"{wire}.{suffix.lower()}")


def _string_value(declarator: Node | None) -> str | None:
    if declarator is None:
        return None
    value = declarator.child_by_field_name("value")
    while value is not None and value.type in ("as_expression", "satisfies_expression"):
        value = value.named_children[0] if value.named_children else None
    if value is None or value.type not in ("string", "template_string"):
        return None
    match = _STRING.match(node_text(value)) or re.match(
        r"^`([^`$]*)`$", node_text(value)
    )
    return match.group(match.lastindex or 1) if match else None


def _value_text(declarator: Node) -> str:
    value = declarator.child_by_field_name("value")
    return node_text(value) if value is not None else ""


def _direction(declarator: Node, roles: tuple[str, str]) -> ir.Direction | None:
    """``MessageDirection.clientToServer`` / ``'serverToClient'`` / ``both``."""
    text = _value_text(declarator).rsplit(".", 1)[-1].strip("'\"`")
    lowered = text.lower()
    if lowered == "both":
        return ir.Direction(roles[0], roles[1], both_ways=True)
    for sender, receiver in (roles, roles[::-1]):
        if lowered == f"{sender.lower()}to{receiver.lower()}":
            return ir.Direction(sender, receiver)
    return None
