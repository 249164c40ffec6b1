"""TypeScript ``enum`` / ``const enum`` declarations → ``ir.EnumDecl``.

Phase: frontend helper.
Inputs: an ``enum_declaration`` node.
Outputs: an ``EnumDecl``: string or integer members; a bit-flag enum when any member is
written with ``<<`` or ``|`` (``InputNeeded = (1 << 3) | (1 << 4)``).
Guarantees: member values are evaluated as constant expressions without ``eval``; anything
that is not a constant is a diagnostic (SYN004), never an exception.
"""

from __future__ import annotations

from tree_sitter import Node

from codegen import ir
from codegen.diagnostics import Diagnostics
from codegen.frontends.common.syntax import node_text, span_of
from codegen.frontends.typescript.jsdoc import JsDoc, is_jsdoc, parse_jsdoc
from codegen.spec.source import SourceText

_BIT_OPERATORS = {"<<", "|"}


class _NotConstant(Exception):
    pass


def convert_enum(
    node: Node,
    source: SourceText,
    diags: Diagnostics,
    lifecycle: ir.Lifecycle,
    exported: bool,
) -> ir.EnumDecl:
    name = node_text(node.child_by_field_name("name"))
    enum_span = span_of(source, node)
    body = node.child_by_field_name("body")
    members: list[ir.EnumMember] = []
    flags = False
    next_auto = 0
    known: dict[str, str | int] = {}  # earlier members, which later ones may name
    doc: JsDoc | None = None
    for member in body.named_children if body else []:
        span = span_of(source, member)
        if member.type == "comment":
            text = node_text(member)
            doc = (
                parse_jsdoc(text, member.start_point[0] + 1) if is_jsdoc(text) else doc
            )
            continue
        member_name, value_node = _member_parts(member)
        value: str | int
        if value_node is None:
            value = next_auto
        else:
            try:
                value, uses_bits = _evaluate(value_node, known)
            except _NotConstant as exc:
                diags.report("SYN004", f"{name}.{member_name}: {exc}", span)
                doc = None
                continue
            flags = flags or uses_bits
        if isinstance(value, int):
            next_auto = value + 1
        member_lifecycle = (
            ir.Lifecycle(docs=doc.description) if doc else ir.NO_LIFECYCLE
        )
        members.append(ir.EnumMember(member_name, value, member_lifecycle, span))
        known[member_name] = value
        doc = None
    # An enum of both kinds (heterogeneous) is emitted by the evaluator as the union of
    # its values; its members keep their values here.
    kinds = {type(member.value) for member in members}
    base = ir.EnumBase.INTEGER if kinds == {int} else ir.EnumBase.STRING
    return ir.EnumDecl(
        name=name,
        base=base,
        members=tuple(members),
        flags=flags and base is ir.EnumBase.INTEGER,
        lifecycle=lifecycle,
        span=enum_span,
        exported=exported,
    )


def _member_parts(member: Node) -> tuple[str, Node | None]:
    if member.type == "enum_assignment":
        name_node = member.child_by_field_name("name")
        return _unquote(node_text(name_node)), member.child_by_field_name("value")
    return _unquote(node_text(member)), None


def _evaluate(node: Node, known: dict[str, str | int]) -> tuple[str | int, bool]:
    """Evaluate a constant enum initializer; the flag says whether bit operators were used.
    ``known``: the earlier members (``Z = X | Y``, ``Z = Enum.X``), as the checker allows.
    """
    kind = node.type
    if kind == "identifier" and node_text(node) in known:
        return known[node_text(node)], False
    if kind == "member_expression":
        prop = node.child_by_field_name("property")
        if prop is not None and node_text(prop) in known:
            return known[node_text(prop)], False
    if kind in ("as_expression", "satisfies_expression") and node.named_children:
        inner, bits = _evaluate(node.named_children[0], known)
        if node_text(node.named_children[-1]) in ("any", "unknown"):
            return inner, bits  # ``"x" as any``: the value is the literal's
        raise _NotConstant(f"{node_text(node)!r} is not a constant expression")
    if kind == "string":
        return _unquote(node_text(node)), False
    if kind == "number":
        text = node_text(node).replace("_", "")
        try:
            return int(text, 0), False
        except ValueError as exc:
            raise _NotConstant(f"{text!r} is not an integer") from exc
    if kind == "parenthesized_expression" and node.named_children:
        return _evaluate(node.named_children[0], known)
    if kind == "unary_expression":
        operator = node_text(node.child_by_field_name("operator"))
        argument = node.child_by_field_name("argument")
        value, bits = _evaluate(argument, known) if argument else ("", False)
        if operator == "-" and isinstance(value, int):
            return -value, bits
        if operator == "~" and isinstance(value, int):
            return ~value, True
        raise _NotConstant(f"unsupported operator {operator!r}")
    if kind == "binary_expression":
        return _binary(node, known)
    raise _NotConstant(f"{node_text(node)!r} is not a constant expression")


def _binary(node: Node, known: dict[str, str | int]) -> tuple[int, bool]:
    operator = node_text(node.child_by_field_name("operator"))
    left_node = node.child_by_field_name("left")
    right_node = node.child_by_field_name("right")
    if left_node is None or right_node is None:
        raise _NotConstant("incomplete expression")
    left, left_bits = _evaluate(left_node, known)
    right, right_bits = _evaluate(right_node, known)
    if not isinstance(left, int) or not isinstance(right, int):
        raise _NotConstant("bit operators need integer operands")
    if operator == "<<":
        if not 0 <= right < 64:
            raise _NotConstant("shift out of range")
        value = left << right
    elif operator == "|":
        value = left | right
    elif operator == "&":
        value = left & right
    elif operator == "+":
        value = left + right
    elif operator == "-":
        value = left - right
    else:
        raise _NotConstant(f"unsupported operator {operator!r}")
    return value, left_bits or right_bits or operator in _BIT_OPERATORS


def _unquote(text: str) -> str:
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"`":
        return text[1:-1]
    return text
