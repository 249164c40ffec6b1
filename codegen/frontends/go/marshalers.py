"""Go types whose wire form is set by custom marshalers (``MarshalJSON``, ``UnmarshalJSON``,
``MarshalText``, ``UnmarshalText``), never modelled as their struct without a word.

Phase: frontend (``go.reader`` collects the methods of every source before it reads types,
and asks ``wire_form`` for each type that has any of them).
Inputs: method declarations of ``.go`` files (receiver, name, body) and ``func (T) Name``
blocks of documentation pages (signatures only); the ``[go.wrappers]`` table of spec.toml
(type name → ``"any"``, ``"string"``, a Go type, or a list of Go types tried in order).
Outputs: a ``WireForm`` per such type: the declaration that replaces the struct (an alias of
any JSON or of a string, or a first-fit untagged ``UnionDecl``) and where its members came
from; or ``None`` with a GOW001 warning naming the methods and the ``[go.wrappers]`` line
that declares the form (the type then reads as any JSON, never as its struct).
Guarantees: never raises on user input; a form is recognised only where encoding/json's
behaviour follows from the code with certainty:

- ``[go.wrappers]`` decides first (the spec's author states the wire form);
- ``MarshalText`` (without ``MarshalJSON``) on a type whose underlying type is ``string``:
  encoding/json writes and reads a JSON string (on any other type the text is whatever the
  body makes of the value: GOW001);
- a struct whose one field is ``Value any`` (or ``interface{}``) and whose ``MarshalJSON``
  writes that field (``json.Marshal(t.Value)``, or a type switch on ``t.Value`` whose cases
  each write the case value): a union.  Its members, in order, are those ``UnmarshalJSON``
  tries (``var hN T`` then ``json.Unmarshal(data, &hN)``: the first that reads wins, as
  with gopls' generated ``Or_*`` types; a leading ``"null"`` check adds ``null``); when
  ``UnmarshalJSON`` reads straight into ``&t.Value`` Go accepts any JSON, and so do we;
  when no body is at hand (a documentation page), from the type switch, the declared name
  ``Or_A_B`` (every part a type) or the doc comment (``created for Or [A B]``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

import tree_sitter_go
from tree_sitter import Language, Node, Parser

from codegen import ir
from codegen.diagnostics import Diagnostics
from codegen.frontends.common.syntax import node_text, span_of
from codegen.frontends.go.type_exprs import SCALAR_TYPES
from codegen.spec.source import SourceText

MARSHALERS = ("MarshalJSON", "UnmarshalJSON", "MarshalText", "UnmarshalText")
_LANGUAGE = Language(tree_sitter_go.language())
_PREDECLARED = SCALAR_TYPES | {"any"}
_UNMARSHAL_INTO = re.compile(r"json\.Unmarshal\(\s*\w+\s*,\s*&(\w+)(?:\.(\w+))?\s*\)")
_NULL_CHECK = re.compile(
    r'string\(\w+\)\s*==\s*"null"|bytes\.Equal\(\w+,\s*\[\]byte\("null"\)\)'
)
_OR_DOC = re.compile(r"\bOr\s*\[")


@dataclass(frozen=True, slots=True)
class MarshalMethod:
    type_name: str
    name: str
    receiver: str  # the receiver variable ("" on a documentation page)
    body: Node | None  # None: only the signature is known
    source: SourceText
    span: ir.Span


@dataclass
class Methods:
    """Every marshaler method of the sources, by receiver type."""

    by_type: dict[str, dict[str, MarshalMethod]] = field(default_factory=dict)

    def add(self, method: MarshalMethod) -> None:
        self.by_type.setdefault(method.type_name, {})[method.name] = method

    def of(self, type_name: str) -> dict[str, MarshalMethod]:
        return self.by_type.get(type_name, {})


def collect_file(root: Node, source: SourceText, into: Methods) -> None:
    """The marshaler methods declared in a parsed ``.go`` file."""
    for node in root.named_children:
        if node.type != "method_declaration":
            continue
        name = node_text(node.child_by_field_name("name"))
        if name not in MARSHALERS:
            continue
        receiver = node.child_by_field_name("receiver")
        params = receiver.named_children if receiver is not None else []
        param = next((c for c in params if c.type == "parameter_declaration"), None)
        if param is None:
            continue
        type_node = param.child_by_field_name("type")
        while type_node is not None and type_node.type in (
            "pointer_type",
            "parenthesized_type",
        ):
            type_node = (
                type_node.named_children[-1] if type_node.named_children else None
            )
        if type_node is None or type_node.type != "type_identifier":
            continue  # a generic receiver: the type is excluded anyway
        into.add(
            MarshalMethod(
                node_text(type_node),
                name,
                node_text(param.child_by_field_name("name")),
                node.child_by_field_name("body"),
                source,
                span_of(source, node),
            )
        )


def collect_page(
    funcs: list[tuple[str, int]], source: SourceText, into: Methods
) -> None:
    """``func (T) MarshalJSON`` blocks of a documentation page: (``T.Name``, row)."""
    for qualified, row in funcs:
        type_name, _, name = qualified.partition(".")
        if name in MARSHALERS and type_name:
            into.add(
                MarshalMethod(
                    type_name, name, "", None, source, source.span_at_point(row, 0)
                )
            )


@dataclass(frozen=True, slots=True)
class WireForm:
    decl: ir.Decl
    how: str  # what decided it, for notes and tests


# Converts a member type node (of ``source``) to IR; given by the reader (its converter).
Convert = Callable[[Node, SourceText], ir.TypeExpr]


@dataclass
class FormReader:
    diags: Diagnostics
    wrappers: dict[str, object]
    declared: set[str]  # every type name the sources declare
    convert: Convert
    wrapper_span: Callable[[str], ir.Span]

    def wire_form(
        self,
        name: str,
        type_node: Node,
        methods: dict[str, MarshalMethod],
        docs: str,
        span: ir.Span,
        lifecycle: ir.Lifecycle,
    ) -> WireForm | None:
        """The declaration ``name`` is on the wire, or None (a GOW001 warning said why)."""
        if name in self.wrappers:
            return self._declared(name, span, lifecycle)
        text = {"MarshalText", "UnmarshalText"} & set(methods)
        json_methods = {"MarshalJSON", "UnmarshalJSON"} & set(methods)
        underlying = node_text(type_node)
        if text and not json_methods:
            # Certain only on a string type: any other's text is what the body writes.
            if "MarshalText" in methods and underlying == "string":
                return WireForm(
                    ir.AliasDecl(
                        name,
                        ir.Primitive(ir.PrimitiveKind.STRING),
                        ir.AliasKind.NEWTYPE,
                        lifecycle=lifecycle,
                        span=span,
                    ),
                    "MarshalText writes a JSON string",
                )
        elif type_node.type == "struct_type" and _value_field(type_node):
            members = self._union_members(name, methods, docs)
            if members is not None:
                exprs, how = members
                if exprs is None:
                    return WireForm(
                        ir.AliasDecl(
                            name,
                            ir.AnyJson(),
                            ir.AliasKind.NEWTYPE,
                            lifecycle=lifecycle,
                            span=span,
                        ),
                        how,
                    )
                return WireForm(_union(name, exprs, span, lifecycle), how)
        self._report(name, methods, span)
        return None

    def _declared(
        self, name: str, span: ir.Span, lifecycle: ir.Lifecycle
    ) -> WireForm | None:
        form = self.wrappers[name]
        where = self.wrapper_span(name)
        texts = form if isinstance(form, list) else [form]
        if not texts or not all(isinstance(t, str) and t.strip() for t in texts):
            self.diags.report(
                "CFG002",
                f'[go.wrappers] {name}: the form must be "any", "string", a Go type '
                "or a list of Go types",
                where,
            )
            return None
        exprs: list[ir.TypeExpr] = []
        for text in texts:
            assert isinstance(text, str)
            if text == "any":
                exprs.append(ir.AnyJson())
                continue
            expr = self._go_type(text, where)
            if expr is None:
                self.diags.report(
                    "CFG002",
                    f"[go.wrappers] {name} = {text!r} is not a Go type",
                    where,
                )
                return None
            exprs.append(expr)
        how = "declared in [go.wrappers]"
        if len(exprs) == 1:
            return WireForm(
                ir.AliasDecl(
                    name, exprs[0], ir.AliasKind.NEWTYPE, lifecycle=lifecycle, span=span
                ),
                how,
            )
        return WireForm(_union(name, exprs, span, lifecycle), how)

    def _union_members(
        self, name: str, methods: dict[str, MarshalMethod], docs: str
    ) -> tuple[list[ir.TypeExpr] | None, str] | None:
        """(members, how) of a ``Value any`` wrapper; members None: any JSON."""
        marshal = methods.get("MarshalJSON")
        unmarshal = methods.get("UnmarshalJSON")
        if marshal is None:
            return None
        switch: list[Node] | None = None
        if marshal.body is not None:
            switch = _switch_types(marshal.body, marshal.receiver)
            if switch is None and not _marshals_value(marshal.body, marshal.receiver):
                return None  # the body writes something else: not certain
        if unmarshal is not None and unmarshal.body is not None:
            read = _unmarshal_tries(unmarshal.body, unmarshal.receiver)
            if read is None:
                return None
            if isinstance(read, str):  # "any"
                return None, "UnmarshalJSON reads into the any field: any JSON"
            tries, null = read
            exprs = [self.convert(t, unmarshal.source) for t in tries]
            if null:
                exprs.append(ir.Primitive(ir.PrimitiveKind.NULL))
            return exprs, "the types UnmarshalJSON tries, in order"
        if unmarshal is None:
            return None  # Go reads the struct form but writes the value: no one form
        if switch:
            null = any(node_text(t) == "nil" for t in switch)
            exprs = [
                self.convert(t, marshal.source) for t in switch if node_text(t) != "nil"
            ]
            if null:
                exprs.append(ir.Primitive(ir.PrimitiveKind.NULL))
            return exprs, "the cases MarshalJSON writes"
        stated = self._stated_members(name, docs, marshal.span)
        if stated is None:
            return None
        return stated

    def _stated_members(
        self, name: str, docs: str, span: ir.Span
    ) -> tuple[list[ir.TypeExpr] | None, str] | None:
        listed = _doc_members(docs)
        if listed is not None:
            how = "the members the doc comment lists"
        elif name.startswith("Or_"):
            listed = name[3:].split("_")
            how = "the members the declared name lists"
            if not all(
                part in self.declared or part in _PREDECLARED for part in listed
            ):
                return None
        else:
            return None
        exprs: list[ir.TypeExpr] = []
        for text in listed:
            expr = self._go_type(text, span)
            if expr is None:
                return None
            exprs.append(expr)
        return exprs, how

    def _go_type(self, text: str, span: ir.Span) -> ir.TypeExpr | None:
        """A Go type written as text (spec.toml, a name, a doc comment) → IR."""
        snippet = f"package p\ntype _ {text}\n"
        root = Parser(_LANGUAGE).parse(snippet.encode()).root_node
        if root.has_error:
            return None
        decl = next(
            (n for n in root.named_children if n.type == "type_declaration"), None
        )
        spec = (
            decl.named_children[0] if decl is not None and decl.named_children else None
        )
        type_node = spec.child_by_field_name("type") if spec is not None else None
        if type_node is None or node_text(type_node) != text.strip():
            return None
        return _respan(self.convert(type_node, SourceText(span.file, snippet)), span)

    def _report(
        self, name: str, methods: dict[str, MarshalMethod], span: ir.Span
    ) -> None:
        listed = ", ".join(m for m in MARSHALERS if m in methods)
        self.diags.report(
            "GOW001",
            f"{name} has {listed}: its wire form is what that code writes, which the "
            "frontend cannot read with certainty; read as any JSON. Declare it in "
            f'spec.toml: [go.wrappers] {name} = "any" (or "string", a Go type such as '
            '"[]Item", or a list of Go types tried in order)',
            span,
        )


def _value_field(struct: Node) -> bool:
    """``struct { Value any }`` (or ``interface{}``), tag or not: one field, no other."""
    body = next(
        (c for c in struct.named_children if c.type == "field_declaration_list"), None
    )
    members = [
        m
        for m in (body.named_children if body else [])
        if m.type == "field_declaration"
    ]
    if len(members) != 1:
        return False
    names = [node_text(n) for n in members[0].children_by_field_name("name")]
    kind = members[0].child_by_field_name("type")
    return (
        names == ["Value"]
        and kind is not None
        and (node_text(kind) == "any" or kind.type == "interface_type")
        and not (kind.type == "interface_type" and kind.named_children)
    )


def _walk(node: Node) -> list[Node]:
    out = [node]
    for child in node.named_children:
        out.extend(_walk(child))
    return out


def _switch_types(body: Node, receiver: str) -> list[Node] | None:
    """The case types of ``switch x := recv.Value.(type)`` when every case writes ``x``
    with ``json.Marshal`` (or ``null`` for ``nil``); None when there is no such switch.
    """
    for node in _walk(body):
        if node.type != "type_switch_statement":
            continue
        value = node_text(node.child_by_field_name("value"))
        alias = node_text(node.child_by_field_name("alias"))
        if value != f"{receiver}.Value" or not alias:
            continue
        types: list[Node] = []
        for case in node.named_children:
            if case.type != "type_case":
                continue
            case_types = case.children_by_field_name("type")
            text = node_text(case)
            if [node_text(t) for t in case_types] == ["nil"]:
                if '"null"' not in text:
                    return None
            elif len(case_types) != 1 or f"json.Marshal({alias})" not in text:
                return None
            types.extend(case_types)
        return types or None
    return None


def _marshals_value(body: Node, receiver: str) -> bool:
    statements = [n for n in _walk(body) if n.type == "return_statement"]
    return (
        len(statements) == 1
        and re.fullmatch(
            rf"return\s+json\.Marshal\(\s*{re.escape(receiver)}\.Value\s*\)",
            node_text(statements[0]),
        )
        is not None
    )


def _unmarshal_tries(body: Node, receiver: str) -> str | tuple[list[Node], bool] | None:
    """``"any"`` for ``json.Unmarshal(data, &recv.Value)``; the ``var hN T`` types tried
    in order (and whether ``null`` is checked first); None when the body is otherwise.
    """
    text = node_text(body)
    if "DisallowUnknownFields" in text or "Decoder" in text:
        return None
    targets = _UNMARSHAL_INTO.findall(text)
    if targets == [(receiver, "Value")]:
        return "any"
    if not targets or any(sub for _, sub in targets):
        return None
    var_types: dict[str, Node] = {}
    for node in _walk(body):
        if node.type == "var_spec":
            kind = node.child_by_field_name("type")
            for var in node.children_by_field_name("name"):
                if kind is not None:
                    var_types[node_text(var)] = kind
    tries: list[Node] = []
    for target, _ in targets:
        if target not in var_types or f"{receiver}.Value = {target}" not in text:
            return None
        tries.append(var_types[target])
    return tries, bool(_NULL_CHECK.search(text))


def _doc_members(docs: str) -> list[str] | None:
    """``created for Or [A B []C]`` (gopls) in a doc comment → ["A", "B", "[]C"]."""
    match = _OR_DOC.search(docs)
    if match is None:
        return None
    depth, start = 1, match.end()
    for index in range(start, len(docs)):
        if docs[index] == "[":
            depth += 1
        elif docs[index] == "]":
            depth -= 1
            if depth == 0:
                parts = docs[start:index].split()
                return parts or None
    return None


def _variant_name(expr: ir.TypeExpr) -> str:
    if isinstance(expr, ir.Ref):
        return expr.name
    if isinstance(expr, ir.Primitive):
        return expr.kind.value.capitalize()
    if isinstance(expr, ir.ArrayOf):
        return "ArrayOf" + _variant_name(expr.items)
    if isinstance(expr, ir.MapOf):
        return "MapOf" + _variant_name(expr.values)
    return "Value"


def _union(
    name: str, members: list[ir.TypeExpr], span: ir.Span, lifecycle: ir.Lifecycle
) -> ir.UnionDecl:
    seen: dict[str, int] = {}
    variants: list[ir.Variant] = []
    for expr in members:
        base = _variant_name(expr)
        seen[base] = seen.get(base, 0) + 1
        label = base if seen[base] == 1 else f"{base}{seen[base]}"
        variants.append(ir.Variant(label, expr, span=span))
    return ir.UnionDecl(
        name,
        tuple(variants),
        ir.UnionRepr.UNTAGGED,
        first_fit=True,
        lifecycle=lifecycle,
        span=span,
    )


def _respan(expr: ir.TypeExpr, span: ir.Span) -> ir.TypeExpr:
    """References parsed from a snippet point at the declaration that stated them."""
    if isinstance(expr, ir.Ref):
        return ir.Ref(expr.name, span)
    if isinstance(expr, ir.ArrayOf):
        return ir.ArrayOf(_respan(expr.items, span))
    if isinstance(expr, ir.MapOf):
        return ir.MapOf(_respan(expr.values, span), expr.key)
    if isinstance(expr, ir.InlineUnion):
        return ir.InlineUnion(tuple(_respan(m, span) for m in expr.members))
    return expr
