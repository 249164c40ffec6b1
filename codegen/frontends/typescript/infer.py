"""``infer`` in a conditional type's ``extends`` clause: matching a type against a pattern.

Phase: frontend helper (used by ``evaluator`` for ``T extends P ? A : B``).
Inputs: the pattern's syntax node (with ``infer X`` in it), the evaluated checked type, the
environment of type parameters.
Outputs: ``match`` → True (the type fits; ``bound`` holds each inferred name's type),
False (it does not: the false branch), None (the evaluator cannot tell: a problem).
Guarantees: never raises on user input.  What the checker infers, for the shapes data
types use: ``infer X`` (with ``extends C``), arrays (``(infer U)[]``, ``Array<infer U>``),
tuples with a rest (``[infer H, ...infer R]``, ``[...infer R, infer L]``), object members
(``{ a: infer A }``, ``{ [k: string]: infer V }``), a generic interface's arguments
(``Box<infer U>`` against ``Box<string>``) and template literals (```${infer H}.${infer
R}```: each placeholder but the last takes the shortest text, the last the rest).  A name
inferred twice is the union of its candidates; a union checked against a pattern (not a
distributed parameter) must fit in every member.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from tree_sitter import Node

from codegen import ir
from codegen.frontends.common.syntax import node_text
from codegen.frontends.typescript.strings import decode_string
from codegen.frontends.typescript.tstypes import (
    ANY,
    Arr,
    Dict,
    Leaf,
    Obj,
    TsType,
    Tup,
    Union,
    literal,
    literal_value,
    union_of,
)
from codegen.spec.source import SourceText

if TYPE_CHECKING:
    from codegen.frontends.typescript.evaluator import Env, Evaluator

_WRAPPERS = ("parenthesized_type", "readonly_type", "type_annotation")


def contains_infer(node: Node) -> bool:
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type == "infer_type":
            return True
        stack.extend(current.named_children)
    return False


class Inference:
    """One conditional type's matching (see the module docstring)."""

    def __init__(self, ev: Evaluator, env: Env, source: SourceText) -> None:
        self.ev = ev
        self.env = env
        self.source = source
        self.bound: dict[str, TsType] = {}

    def match(self, pattern: Node, value: TsType) -> bool | None:
        if not contains_infer(pattern):
            target = self.ev.eval(pattern, {**self.env, **self.bound}, self.source)
            return self.ev.assignable(value, target)
        kind = pattern.type
        named = [c for c in pattern.named_children if c.type != "comment"]
        if kind in _WRAPPERS and named:
            return self.match(named[0], value)
        if kind == "infer_type":
            return self._infer(named, value)
        resolved = self.ev.resolve(value)
        if isinstance(resolved, Union):
            verdicts = [self.match(pattern, m) for m in resolved.members]
            if any(v is None for v in verdicts):
                return None
            return all(verdicts)
        if kind == "array_type" and named:
            return self._array(named[0], resolved)
        if kind == "generic_type":
            return self._generic(pattern, resolved, value)
        if kind == "tuple_type":
            return self._tuple(named, resolved)
        if kind == "object_type":
            return self._object(named, resolved)
        if kind == "template_literal_type":
            return self._template(named, resolved)
        return None

    # ------------------------------------------------------------------ shapes

    def _infer(self, named: list[Node], value: TsType) -> bool | None:
        if not named:
            return None
        name = node_text(named[0])
        if len(named) > 1:  # ``infer X extends C``: the candidate must fit C
            constraint = self.ev.eval(named[1], {**self.env, **self.bound}, self.source)
            fits = self.ev.assignable(value, constraint)
            if fits is not True:
                return fits
        earlier = self.bound.get(name)
        self.bound[name] = value if earlier is None else union_of([earlier, value])
        return True

    def _array(self, items: Node, value: TsType) -> bool | None:
        if isinstance(value, Arr):
            return self.match(items, value.items)
        if isinstance(value, Tup):
            parts = (*value.items, *([value.rest] if value.rest is not None else []))
            return self.match(items, union_of(list(parts)))
        if value == ANY:
            return self.match(items, ANY)
        if isinstance(value, (Obj, Dict)) or _scalar(value):
            return False
        return None

    def _generic(self, pattern: Node, resolved: TsType, value: TsType) -> bool | None:
        name = node_text(pattern.child_by_field_name("name"))
        args_node = pattern.child_by_field_name("type_arguments")
        args = [
            a
            for a in (args_node.named_children if args_node else [])
            if a.type != "comment"
        ]
        symbol = self.ev.table.lookup_type(name, self.ev.scope_of(pattern, self.source))
        if symbol is None and name in ("Array", "ReadonlyArray") and len(args) == 1:
            return self._array(args[0], resolved)
        if symbol is None or not (
            isinstance(value, Leaf) and isinstance(value.expr, ir.Ref)
        ):
            return None
        # an instance of the same generic interface: match its arguments pairwise
        for (order, instance_args), instance in self.ev.instances.items():
            if order == symbol.order and instance == value.expr.name:
                verdicts = [
                    self.match(a, v) for a, v in zip(args, instance_args, strict=False)
                ]
                if any(v is False for v in verdicts):
                    return False
                return None if any(v is None for v in verdicts) else True
        return None

    def _tuple(self, elements: list[Node], value: TsType) -> bool | None:
        if isinstance(value, Arr):
            value = Tup((), 0, value.items)
        if not isinstance(value, Tup):
            return False if isinstance(value, (Obj, Dict)) or _scalar(value) else None
        kinds: list[tuple[str, Node]] = []
        for element in elements:
            kind, inner = _element(element)
            if inner is None:
                return None
            kinds.append((kind, inner))
        rests = [i for i, (k, _) in enumerate(kinds) if k == "rest"]
        if len(rests) > 1 or any(k == "optional" for k, _ in kinds):
            return None
        if not rests:
            if value.rest is not None or value.least != len(value.items):
                return False
            if len(value.items) != len(kinds):
                return False
            return _all(
                self.match(node, item)
                for (_, node), item in zip(kinds, value.items, strict=True)
            )
        at = rests[0]
        head, tail = kinds[:at], kinds[at + 1 :]
        if value.least < len(head) + len(tail):
            return False
        if tail and value.rest is not None:
            return None  # the last items of an open array are not known
        verdicts = [self.match(n, value.items[i]) for i, (_, n) in enumerate(head)]
        count = len(value.items)
        verdicts.extend(
            self.match(n, value.items[count - len(tail) + i])
            for i, (_, n) in enumerate(tail)
        )
        middle = value.items[len(head) : count - len(tail)]
        required = None if value.required is None else value.required - len(head)
        rest_value: TsType = Tup(
            tuple(middle), required if required != len(middle) else None, value.rest
        )
        if not middle and value.rest is not None:
            rest_value = Arr(value.rest)
        verdicts.append(self.match(kinds[at][1], rest_value))
        return _all(iter(verdicts))

    def _object(self, members: list[Node], value: TsType) -> bool | None:
        obj = self.ev.props_of(value)
        if obj is None:
            if isinstance(value, Dict):
                obj = Obj(index=value.values)
            else:
                return False if _scalar(value) else None
        have = {p.name: p for p in obj.props}
        verdicts: list[bool | None] = []
        for member in members:
            if member.type == "property_signature":
                key = member.child_by_field_name("name")
                type_node = member.child_by_field_name("type")
                if key is None or type_node is None:
                    return None
                name = (
                    decode_string(node_text(key))
                    if key.type == "string"
                    else node_text(key)
                )
                optional = any(c.type == "?" for c in member.children)
                prop = have.get(name)
                if prop is None:
                    if obj.index is not None:
                        verdicts.append(self.match(type_node, obj.index))
                        continue
                    if optional:
                        continue
                    return False
                if prop.optional and not optional:
                    return False
                verdicts.append(self.match(type_node, prop.type))
            elif member.type == "index_signature":
                type_node = member.child_by_field_name("type")
                if type_node is None:
                    return None
                parts = [p.type for p in obj.props]
                if obj.index is not None:
                    parts.append(obj.index)
                verdicts.append(self.match(type_node, union_of(parts)))
            else:
                return None
        return _all(iter(verdicts))

    def _template(self, parts: list[Node], value: TsType) -> bool | None:
        raw = literal_value(self.ev.scalar(value))
        if not isinstance(raw, str):
            return False if _scalar(value) and raw is not None else None
        text = raw
        pieces: list[tuple[str, Node | str]] = []
        for part in parts:
            if part.type == "string_fragment":
                pieces.append(("text", decode_string(node_text(part))))
            elif part.type == "template_type":
                inner = [c for c in part.named_children if c.type != "comment"]
                if not inner:
                    return None
                pieces.append(("hole", inner[0]))
        position = 0
        verdicts: list[bool | None] = []
        for index, (kind, piece) in enumerate(pieces):
            if kind == "text":
                assert isinstance(piece, str)
                if not text.startswith(piece, position):
                    return False
                position += len(piece)
                continue
            assert isinstance(piece, Node)
            following = pieces[index + 1] if index + 1 < len(pieces) else None
            if following is None:
                end = len(text)
            elif following[0] == "text":
                assert isinstance(following[1], str)
                found = text.find(following[1], position)
                if found < 0:
                    return False
                end = found
            else:  # two holes side by side: the first takes one character
                end = min(position + 1, len(text))
            verdicts.append(self.match(piece, literal(text[position:end])))
            position = end
        if position != len(text):
            return False
        return _all(iter(verdicts))


def _element(node: Node) -> tuple[str, Node | None]:
    """A tuple pattern's element: its kind (required, optional, rest) and type node."""
    named = [c for c in node.named_children if c.type != "comment"]
    if node.type == "optional_type":
        return "optional", named[0] if named else None
    if node.type == "rest_type":
        return "rest", named[0] if named else None
    if node.type == "optional_parameter":
        return "optional", node.child_by_field_name("type")
    if node.type == "required_parameter":
        rest = any(c.type == "rest_pattern" for c in node.named_children)
        return ("rest" if rest else "required"), node.child_by_field_name("type")
    return "required", node


def _scalar(value: TsType) -> bool:
    return isinstance(value, Leaf) and isinstance(
        value.expr, (ir.Primitive, ir.Literal, ir.EnumMemberRef)
    )


def _all(verdicts: Iterable[bool | None]) -> bool | None:
    out: bool | None = True
    for verdict in verdicts:
        if verdict is False:
            return False
        if verdict is None:
            out = None
    return out
