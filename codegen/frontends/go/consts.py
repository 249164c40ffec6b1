"""Go constants: the value of each ``const`` spec, and typed constants → open enums.

Phase: frontend (``go.py`` evaluates each ``const`` block while it walks a source, and turns
typed constants into enums once every source is read).
Inputs: ``const_spec`` nodes; the constants read so far; the named basic types of the listing.
Outputs: constant values (``str`` / ``int`` / ``float`` / ``bool``) with the Go type each
constant is declared with; ``ir.EnumDecl``s that replace the ``AliasDecl`` of a named basic
type.
Guarantees: never raises on user input and never uses ``eval``; a value this module cannot
evaluate is ``None`` (``go.py`` reports it as SYN002 and skips the constant).

Values follow the Go spec for constant declarations: ``iota`` is the index of the spec in its
``const`` block; a spec without a type and a value repeats the type and the expressions of the
last spec that had them (``ColorBlue`` after ``ColorRed Color = "red"`` is a ``Color`` too,
``KindB`` after ``KindA Kind = iota`` is ``iota`` again).  An expression is evaluated when it
is built from literals, ``iota``, constants declared earlier, parentheses, unary ``+ - ^`` and
the binary operators ``+ - * / % << >> & | ^ &^`` on integers (``+`` also on strings).

Typed constants → enum: a named type whose underlying type is ``string`` or an integer kind
(``type Color string``, ``type Level int``; not a Go alias ``type Color = string``) becomes an
``EnumDecl`` when the listing declares constants of that type; its members are those
constants in source order:

- base: ``STRING`` for ``string``, ``INTEGER`` for the integer kinds;
- member name: the constant's Go identifier exactly as written, type-name prefix kept
  (``ColorRed``, not ``Red``): the Go name is what a Go reader knows and searches for, the
  prefix is Go's only namespace for it, and stripping it would turn ``Color`` + ``Colorful``
  into the odd ``ful``;
- member value: the constant's value; member docs: the constant's own comment (on its line,
  else right above it); a block that declares only this constant lends it the block's docs;
  the docs of a ``const (...)`` block of members (its comment, or the prose after it on a
  pkg.go.dev page) are a paragraph appended to the enum's docs;
- open: encoding/json reads any string (any integer) into ``Color``, so readers must accept
  values that are not members (``open=True``); the members are the values the listing knows.

Not members, kept as constants (``ConstDecl``): ``Method*`` string constants of a type named
for methods (``type Method string``: they name methods, see ``go.methods``; a ``Method*``
constant of any other named type is an enum member, never a method), constants of a type the listing does not declare or that is not
a named basic type, and a constant that repeats the value of an earlier member (a SYN002
warning names both).  A named basic type without typed constants stays an ``AliasDecl``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, replace

from tree_sitter import Node

from codegen import ir
from codegen.diagnostics import Diagnostics
from codegen.frontends.common.syntax import node_text
from codegen.frontends.go.methods import GoConst
from codegen.frontends.go.type_exprs import INTEGER_TYPES

Value = str | int | float | bool
_INT_OPERATORS: dict[str, Callable[[int, int], int]] = {
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
    "&": lambda a, b: a & b,
    "|": lambda a, b: a | b,
    "^": lambda a, b: a ^ b,
    "&^": lambda a, b: a & ~b,
}
# Go constants are exact; a wider one is no wire value (and the bound keeps work small).
_MAX_BITS = 1024


@dataclass
class ConstGroup:
    """The state of one ``const`` block: ``iota`` and what an empty spec repeats."""

    iota: int = 0
    type_name: str = ""
    values: tuple[Node, ...] = ()

    def spec(self, spec: Node) -> tuple[str, tuple[Node, ...]]:
        """The Go type name ("" when untyped) and value expressions of ``spec``."""
        value_node = spec.child_by_field_name("value")
        if value_node is not None:
            type_node = spec.child_by_field_name("type")
            self.type_name = node_text(type_node) if type_node is not None else ""
            self.values = tuple(value_node.named_children)
        return self.type_name, self.values


def evaluate(node: Node, iota: int, known: dict[str, Value]) -> Value | None:
    """The value of a constant expression, or ``None`` when it is not one we evaluate."""
    kind = node.type
    if kind == "iota":
        return iota
    if kind == "identifier":
        return known.get(node_text(node))
    if kind == "parenthesized_expression" and node.named_children:
        return evaluate(node.named_children[0], iota, known)
    if kind == "unary_expression":
        return _unary(node, iota, known)
    if kind == "binary_expression":
        return _binary(node, iota, known)
    return literal(node)


def literal(node: Node) -> Value | None:
    raw = node_text(node)
    if node.type == "interpreted_string_literal":
        try:
            value = json.loads(raw)
        except ValueError:
            return raw[1:-1]
        return value if isinstance(value, str) else None
    if node.type == "raw_string_literal":
        return raw[1:-1]
    if node.type == "int_literal":
        try:
            return int(raw.replace("_", ""), 0)
        except ValueError:
            return None
    if node.type == "float_literal":
        try:
            return float(raw.replace("_", ""))
        except ValueError:
            return None
    if node.type in ("true", "false"):
        return node.type == "true"
    return None


def _unary(node: Node, iota: int, known: dict[str, Value]) -> Value | None:
    operand = node.child_by_field_name("operand")
    operator = node.child_by_field_name("operator")
    if operand is None or operator is None:
        return None
    value = evaluate(operand, iota, known)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    op = node_text(operator)
    if op == "+":
        return value
    if op == "-":
        return -value
    if op == "^" and isinstance(value, int):
        return ~value
    return None


def _binary(node: Node, iota: int, known: dict[str, Value]) -> Value | None:
    left_node = node.child_by_field_name("left")
    right_node = node.child_by_field_name("right")
    operator = node.child_by_field_name("operator")
    if left_node is None or right_node is None or operator is None:
        return None
    left = evaluate(left_node, iota, known)
    right = evaluate(right_node, iota, known)
    op = node_text(operator)
    if isinstance(left, str) and isinstance(right, str):
        return left + right if op == "+" else None
    if not _is_int(left) or not _is_int(right):
        return None
    assert isinstance(left, int) and isinstance(right, int)
    result: int | None = None
    if op in _INT_OPERATORS:
        result = _INT_OPERATORS[op](left, right)
    elif op in ("/", "%") and right != 0:
        quotient = abs(left) // abs(right) * (1 if (left < 0) == (right < 0) else -1)
        result = quotient if op == "/" else left - quotient * right  # truncated, as Go
    elif op in ("<<", ">>") and 0 <= right <= _MAX_BITS:
        result = left << right if op == "<<" else left >> right
    if result is None or result.bit_length() > _MAX_BITS:
        return None
    return result


def _is_int(value: Value | None) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def enum_base(type_node: Node, is_go_alias: bool) -> ir.EnumBase | None:
    """The enum base a named type would have: ``type X string`` / ``type X int``."""
    if is_go_alias or type_node.type != "type_identifier":
        return None
    name = node_text(type_node)
    if name == "string":
        return ir.EnumBase.STRING
    return ir.EnumBase.INTEGER if name in INTEGER_TYPES else None


def typed_enums(
    decls: list[ir.Decl],
    consts: list[GoConst],
    bases: dict[str, ir.EnumBase],
    diags: Diagnostics,
) -> tuple[list[ir.Decl], list[GoConst]]:
    """Named basic types with typed constants → open enums; the other constants stay."""
    aliases = {d.name for d in decls if isinstance(d, ir.AliasDecl) and d.name in bases}
    members: dict[str, list[ir.EnumMember]] = {}
    group_docs: dict[str, list[str]] = {}
    seen: dict[tuple[str, Value], str] = {}
    rest: list[GoConst] = []
    for const in consts:
        base = bases.get(const.type_name)
        if (
            base is None
            or const.type_name not in aliases
            or (
                const.name.startswith("Method")
                and isinstance(const.value, str)
                and "Method" in const.type_name
            )
        ):
            rest.append(const)
            continue
        if not _fits(const.value, base):
            diags.report(
                "SYN004",
                f"constant {const.name} of type {const.type_name} has the value "
                f"{const.value!r}, which is not a {base.value}; kept as a constant",
                const.span,
            )
            rest.append(const)
            continue
        key = (const.type_name, const.value)
        if key in seen:
            diags.report(
                "SYN002",
                f"constant {const.name} repeats the value {const.value!r} of "
                f"{seen[key]}; {const.type_name} keeps one member per value and "
                f"{const.name} stays a constant",
                const.span,
            )
            rest.append(const)
            continue
        seen[key] = const.name
        assert isinstance(const.value, (str, int))
        member = ir.EnumMember(
            const.name,
            const.value,
            ir.Lifecycle(docs=const.own_docs, since=const.since),
            const.span,
        )
        members.setdefault(const.type_name, []).append(member)
        paragraphs = group_docs.setdefault(const.type_name, [])
        if const.group_docs and const.group_docs not in paragraphs:
            paragraphs.append(const.group_docs)
    out: list[ir.Decl] = []
    for decl in decls:
        if isinstance(decl, ir.AliasDecl) and decl.name in members:
            docs = [decl.lifecycle.docs, *group_docs[decl.name]]
            decl = ir.EnumDecl(
                decl.name,
                bases[decl.name],
                tuple(members[decl.name]),
                open=True,
                lifecycle=replace(
                    decl.lifecycle, docs="\n\n".join(d for d in docs if d)
                ),
                span=decl.span,
                derived_from=decl.derived_from,
                exported=decl.exported,
            )
        out.append(decl)
    return out, rest


def _fits(value: Value, base: ir.EnumBase) -> bool:
    if base is ir.EnumBase.STRING:
        return isinstance(value, str)
    return _is_int(value)
