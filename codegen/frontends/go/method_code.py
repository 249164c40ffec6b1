"""Method evidence in Go code: ``switch`` dispatch on method names and ``Call``/``Notify`` sends.

Phase: frontend (the Go reader hands this evidence to ``go.methods.build_methods``).
Inputs: the ``.go`` sources (pkg.go.dev pages show no function bodies, so they give none),
the string constants (name → value), the declared type names, the spec's roles.
Outputs: ``Evidence``:
- **dispatch**: ``switch r.Method() { case "doc/lookup": ... }`` (or ``msg.Method``,
  ``method``; a case may name a constant): each case value is a method the function's
  role *receives* when the function is a method of a role's type (``func (h *Host)
  handleRequest``) — so the other role sends it; a function named for requests or
  notifications (``handleNotification``) gives the kind; the params type is the variable
  the case (or the one function it hands the message to) decodes into: ``var p
  LookupParams; json.Unmarshal(msg.Params, &p)``;
- **sends**: ``x.Call(ctx, "ui/ask", params, &result)`` (a request: its params and result
  types from the variables' declarations or composite literals) and ``x.Notify(ctx,
  "ui/changed", params)`` (a notification), sent by the role whose type the enclosing
  function is a method of.
Guarantees: never raises on user input; a name that resolves to no string is not
evidence; directions are partial (a role handling a method does not say the other cannot),
so dispatch in both roles makes a method two-way.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tree_sitter import Node

from codegen import ir
from codegen.frontends.common.syntax import node_text, span_of
from codegen.methods.evidence import Evidence
from codegen.spec.source import SourceText

_SWITCH_ON_METHOD = re.compile(r"(?:^|\.)(?:method|Method)(?:\(\))?$")
_SENDS = {"Call": ir.MethodKind.REQUEST, "Notify": ir.MethodKind.NOTIFICATION}
_DECODERS = ("Unmarshal", "Decode", "UnmarshalJSON")


@dataclass
class CodeReader:
    source: SourceText
    strings: dict[str, str]  # constant name → value
    types: set[str]  # declared type names
    roles: tuple[str, str]

    def read(self, root: Node) -> list[Evidence]:
        funcs = _all(root, ("function_declaration", "method_declaration"))
        self.functions: dict[str, Node] = {}
        for node in funcs:
            self.functions.setdefault(_func_name(node), node)
        out: list[Evidence] = []
        for func in funcs:
            role = _receiver_role(func, self.roles)
            for switch in _all(func, ("expression_switch_statement",)):
                value = switch.child_by_field_name("value")
                if value is None or not _SWITCH_ON_METHOD.search(node_text(value)):
                    continue
                out.extend(self.dispatch(switch, func, role))
            for call in _all(func, ("call_expression",)):
                found = self.send(call, func, role)
                if found is not None:
                    out.append(found)
        return out

    def wire(self, node: Node) -> str | None:
        text = node_text(node)
        if (
            node.type == "interpreted_string_literal"
            or node.type == "raw_string_literal"
        ):
            return text[1:-1]
        return self.strings.get(text.rsplit(".", 1)[-1])

    def dispatch(self, switch: Node, func: Node, role: str | None) -> list[Evidence]:
        out: list[Evidence] = []
        name = _func_name(func)
        kind = (
            ir.MethodKind.NOTIFICATION
            if "otification" in name
            else ir.MethodKind.REQUEST if "equest" in name else None
        )
        for case in switch.named_children:
            if case.type != "expression_case":
                continue
            values = case.child_by_field_name("value")
            wires = [
                w
                for v in (values.named_children if values is not None else [])
                if (w := self.wire(v)) is not None
            ]
            params = self.decoded(case, func, depth=0)
            result, answers_nothing = self.returned(case)
            for wire in wires:
                found = Evidence(
                    wire,
                    f"case {wire!r} of the switch in {name}",
                    span_of(self.source, case),
                    kind=kind,
                )
                if role is not None:
                    other = self.roles[1] if role == self.roles[0] else self.roles[0]
                    found.direction = ir.Direction(other, role)
                    found.direction_partial = True
                if params is not None:
                    found.params = ir.Ref(params)
                if result is not None:
                    found.result = result
                    found.kind = found.kind or ir.MethodKind.REQUEST
                found.answers_nothing = answers_nothing
                out.append(found)
        return out

    def returned(self, case: Node) -> tuple[ir.TypeExpr | None, bool]:
        """What the case answers: the first value of its first ``return`` when that is a
        composite literal (``return []Entry{}, nil``, ``&AskResult{...}``), past early
        ``return nil, err``; only ``nil`` everywhere says it answers nothing."""
        returns = [r for r in _all(case, ("return_statement",)) if r.named_children]
        firsts = []
        for statement in returns:
            values = statement.named_children[0]
            first = values.named_children[0] if values.named_children else values
            firsts.append(node_text(first).lstrip("&"))
        for text in firsts:
            match = re.match(r"^(\[\])?([\w.]+)\s*\{", text)
            base = match.group(2).rsplit(".", 1)[-1] if match else ""
            if match is not None and base in self.types:
                ref: ir.TypeExpr = ir.Ref(base)
                return (ir.ArrayOf(ref) if match.group(1) else ref), False
        return None, bool(firsts) and all(text == "nil" for text in firsts)

    def decoded(self, scope: Node, func: Node, depth: int) -> str | None:
        """The type a JSON decoder fills in ``scope``, else in the one function the scope
        hands the message to (``h.handleHostChat(msg)``)."""
        local = _var_types(scope, self.types)
        for call in _all(scope, ("call_expression",)):
            callee = node_text(call.child_by_field_name("function"))
            if callee.rsplit(".", 1)[-1] not in _DECODERS:
                continue
            args = call.child_by_field_name("arguments")
            for arg in args.named_children if args is not None else []:
                text = node_text(arg)
                if text.startswith("&") and text[1:] in local:
                    return local[text[1:]]
        if depth == 0:
            for call in _all(scope, ("call_expression",)):
                callee = node_text(call.child_by_field_name("function"))
                target = self.functions.get(callee.rsplit(".", 1)[-1])
                if target is not None and target is not func:
                    found = self.decoded(target, target, depth + 1)
                    if found is not None:
                        return found
        return None

    def send(self, call: Node, func: Node, role: str | None) -> Evidence | None:
        callee = node_text(call.child_by_field_name("function"))
        kind = _SENDS.get(callee.rsplit(".", 1)[-1])
        args = call.child_by_field_name("arguments")
        if kind is None or "." not in callee or args is None:
            return None
        named = args.named_children
        at = next((i for i, a in enumerate(named) if self.wire(a) is not None), None)
        if at is None:
            return None
        wire = self.wire(named[at])
        assert wire is not None
        local = _var_types(func, self.types)
        found = Evidence(
            wire,
            f"{callee}(…) in {_func_name(func)}",
            span_of(self.source, call),
            kind=kind,
        )
        rest = named[at + 1 :]
        if rest:
            params = _type_of_arg(rest[0], local, self.types)
            if params is not None:
                found.params = ir.Ref(params)
            elif node_text(rest[0]) == "nil":
                found.params = None
        if kind is ir.MethodKind.REQUEST and len(rest) >= 2:
            result = _type_of_arg(rest[-1], local, self.types)
            if result is not None:
                found.result = ir.Ref(result)
            elif node_text(rest[-1]) == "nil":
                found.answers_nothing = True
        if role is not None:
            other = self.roles[1] if role == self.roles[0] else self.roles[0]
            found.direction = ir.Direction(role, other)
            found.direction_partial = True
        return found


def _all(node: Node, kinds: tuple[str, ...], depth: int = 0) -> list[Node]:
    out: list[Node] = []
    if depth > 60:
        return out
    for child in node.named_children:
        if child.type in kinds:
            out.append(child)
        out.extend(_all(child, kinds, depth + 1))
    return out


def _func_name(func: Node) -> str:
    return node_text(func.child_by_field_name("name"))


def _receiver_role(func: Node, roles: tuple[str, str]) -> str | None:
    receiver = func.child_by_field_name("receiver")
    if receiver is None:
        return None
    words = re.findall(r"[A-Za-z]+", node_text(receiver))
    named = [r for r in roles if r.lower() in (w.lower() for w in words[1:] or words)]
    return named[0] if len(named) == 1 else None


def _var_types(scope: Node, types: set[str]) -> dict[str, str]:
    """``var p T`` and ``p := T{...}`` / ``p := &T{...}`` in a scope: variable → type."""
    out: dict[str, str] = {}
    for spec in _all(scope, ("var_spec",)):
        kind = spec.child_by_field_name("type")
        name = spec.child_by_field_name("name")
        if kind is not None and name is not None:
            base = node_text(kind).lstrip("*").rsplit(".", 1)[-1]
            if base in types:
                out[node_text(name)] = base
    for decl in _all(scope, ("short_var_declaration",)):
        left = decl.child_by_field_name("left")
        right = decl.child_by_field_name("right")
        if left is None or right is None or not right.named_children:
            continue
        literal = _literal_type(right.named_children[0], types)
        if literal is not None and left.named_children:
            out[node_text(left.named_children[0])] = literal
    return out


def _literal_type(node: Node, types: set[str]) -> str | None:
    text = node_text(node).lstrip("&")
    match = re.match(r"^([\w.]+)\s*\{", text)
    if match is None:
        return None
    base = match.group(1).rsplit(".", 1)[-1]
    return base if base in types else None


def _type_of_arg(node: Node, local: dict[str, str], types: set[str]) -> str | None:
    text = node_text(node).lstrip("&")
    if text in local:
        return local[text]
    return _literal_type(node, types)
