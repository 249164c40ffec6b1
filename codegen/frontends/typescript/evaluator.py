"""TypeScript type syntax → evaluated types → IR declarations, one group per declaration.

Phase: frontend (the heart of the TypeScript frontend).
Inputs: the ``SymbolTable`` of the spec's files and the names imported from modules the spec
does not have.
Outputs: ``Group``s in source order: each top-level declaration's IR (with what was lifted
out of it) and the problems met; enums; constants with literal values.
Guarantees: never raises on user input.  What TypeScript computes at the type level is
computed here when its arguments are concrete: intersections, ``typeof`` of constants
(``as const`` objects and arrays too), ``keyof``, indexed access ``T["k"]``, the utility types
(``Partial``, ``Required``, ``Readonly``, ``Pick``, ``Omit``, ``Record``, ``Exclude``,
``Extract``, ``NonNullable``), user generics (interfaces become one declaration per
instantiation, ``BoxFoo``; aliases are expanded), conditional types (distributed over
unions when the checked type is a type parameter) and mapped types.  Comments may stand
anywhere, unions of unions are flattened, string escapes are decoded.  What cannot be
evaluated is a ``Problem`` on its group; the reader decides whether that blocks generation.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace

from tree_sitter import Node

from codegen import ir
from codegen.diagnostics import Diagnostics
from codegen.frontends.common.syntax import MAX_TYPE_NESTING, node_text, span_of
from codegen.frontends.typescript.enums import convert_enum
from codegen.frontends.typescript.infer import Inference, contains_infer
from codegen.frontends.typescript.jsdoc import (
    JsDoc,
    is_jsdoc,
    lifecycle_of,
    parse_jsdoc,
)
from codegen.frontends.typescript.materialize import Materializer
from codegen.frontends.typescript.scopes import Scope
from codegen.frontends.typescript.state import Group
from codegen.frontends.typescript.strings import decode_string, parse_number
from codegen.frontends.typescript.symbols import Symbol, SymbolTable
from codegen.frontends.typescript.tstypes import (
    ANY,
    BOOLEAN,
    NEVER,
    NULL,
    NUMBER,
    NUMBER_KEY,
    STRING,
    UNDEFINED,
    Arr,
    Dict,
    Leaf,
    Obj,
    Prop,
    TsType,
    Tup,
    Union,
    describe,
    literal,
    literal_value,
    members_of,
    union_of,
)
from codegen.spec.source import SourceText

Env = dict[str, TsType]

_PREDEFINED: dict[str, TsType] = {
    "string": STRING,
    "number": NUMBER,
    "bigint": Leaf(ir.Primitive(ir.PrimitiveKind.INTEGER)),
    "boolean": BOOLEAN,
    "unknown": ANY,
    "any": ANY,
    "object": Leaf(ir.AnyJson(structured=True)),  # arrays are objects in TS
    "never": NEVER,
    "undefined": UNDEFINED,
    "void": UNDEFINED,
    "null": NULL,
    # JSON.stringify leaves a symbol-valued key out and writes null for a symbol in an
    # array, as it does with undefined
    "symbol": UNDEFINED,
    "unique symbol": UNDEFINED,
}
# The global classes whose JSON form is a string, as their ``toJSON`` writes it
# (``Date`` → ``toISOString()``, ``URL`` → ``href``).
_GLOBAL_STRINGS: dict[str, TsType] = {
    "Date": Leaf(
        ir.Primitive(ir.PrimitiveKind.STRING, ir.Constraints(format="date-time"))
    ),
    "URL": Leaf(ir.Primitive(ir.PrimitiveKind.STRING, ir.Constraints(format="uri"))),
}
_WRAPPERS = (
    "type_annotation",
    "opting_type_annotation",
    "omitting_type_annotation",
    "adding_type_annotation",
    "parenthesized_type",
    "readonly_type",
)
# A method is a function-valued key, which JSON.stringify leaves out: the object's data is
# the rest.  A call or construct signature makes the value itself a function.
_NOT_DATA = ("method_signature",)
_CALLABLE = ("call_signature", "construct_signature")
_MAX_INSTANTIATION_DEPTH = 40
# A template literal type over finite unions expands to at most this many literals (the
# checker's own limit is 100 000); beyond it, a pattern.
_MAX_TEMPLATE_EXPANSION = 10_000
# The texts ``${number}`` takes: what ``+text`` reads as a finite number (the checker's
# isValidNumberString), and ``${bigint}``: an integer literal.
_JS_SPACE = (
    r"[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]*"
)
_NUMBER_TEXT = (
    _JS_SPACE + r"(?:[-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?"
    r"|0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+)" + _JS_SPACE
)
_BIGINT_TEXT = r"-?(?:[0-9]+|0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+)"
# TypeScript's intrinsic string types, on literals
_INTRINSIC: dict[str, Callable[[str], str]] = {
    "Uppercase": str.upper,
    "Lowercase": str.lower,
    "Capitalize": lambda text: text[:1].upper() + text[1:],
    "Uncapitalize": lambda text: text[:1].lower() + text[1:],
}
# Type syntax nested this deep is deeper than any expression the output renders (inline
# objects are lifted into named declarations, so they may nest beyond the IR bound).
_MAX_SYNTAX_DEPTH = 2 * MAX_TYPE_NESTING


class Evaluator(Materializer):
    """Evaluates the declarations of one spec (see the module docstring)."""

    def __init__(
        self, table: SymbolTable, imported: set[str], diags: Diagnostics
    ) -> None:
        super().__init__(table)
        self.imported = imported  # names that come from modules the spec lacks
        self.diags = diags
        self.group_of: dict[int, Group] = {}
        self.enums: dict[str, ir.EnumDecl] = {}
        self.source: SourceText | None = None
        self.instantiating = 0  # generic instantiations in progress (``Grow<[T]>``)
        self.syntax_depth = 0  # type nodes being evaluated, one inside the other

    # ------------------------------------------------------------------ driving

    def run(self) -> list[Group]:
        for symbol in self.table.order:
            if symbol.kind == "const":
                continue
            self._convert(symbol)
        return [
            self.group_of[s.order] for s in self.table.order if s.order in self.group_of
        ]

    def group_for(self, symbol: Symbol) -> Group:
        group = self.group_of.get(symbol.order)
        if group is None:
            group = Group(symbol.name, symbol)
            self.group_of[symbol.order] = group
        return group

    def _convert(self, symbol: Symbol) -> None:
        group = self.group_for(symbol)
        self.stack.append(group)
        self.source = symbol.source
        depth = len(self.stack)
        try:
            decl = self._declaration(symbol)
        except RecursionError:
            # Nesting deeper than Python's stack (thousands of levels): not a wire type.
            del self.stack[depth:]
            self.problem(symbol.span, f"{symbol.name} is nested too deeply to evaluate")
            decl = None
        finally:
            self.stack.pop()
        if decl is not None:
            group.decls.append(decl)

    def _declaration(self, symbol: Symbol) -> ir.Decl | None:
        lifecycle = lifecycle_of(symbol.doc)
        span = symbol.span
        if symbol.kind == "enum":
            declared = self.enum_decl(symbol)
            if not _heterogeneous(declared):
                return declared
            # Members of both kinds (``a = 0, d = "foo"``), which the checker allows: on
            # the wire the enum is the union of its values, as ``type E = 0 | "foo"``.
            return self.alias_decl(
                self.symbol_value(symbol.name) or ANY,
                symbol.name,
                declared.lifecycle,
                span,
                symbol.exported,
            )
        if not _all_defaults(symbol):
            self.diags.report(
                "SYN005",
                f"{symbol.name} is generic: it is emitted where it is used with type "
                "arguments, one declaration per instantiation",
                span,
            )
            return None
        if symbol.kind == "interface":
            array = self.array_interface(symbol)
            if array is not None:
                return self.alias_decl(
                    array, symbol.name, lifecycle, span, symbol.exported
                )
            obj = self.interface_obj(symbol, ())
            if obj is None:
                return None
            as_map = _numeric_map(obj)
            if not isinstance(as_map, Obj):  # ``[k: number]: T`` alone: a map
                return self.alias_decl(
                    as_map, symbol.name, lifecycle, span, symbol.exported
                )
            return self.struct(
                obj,
                symbol.name,
                derived_from=None,
                lifecycle=lifecycle,
                exported=symbol.exported,
                span=span,
            )
        value = self.alias_value(symbol, ())
        enum = self._namespace_enum(symbol, value)
        if enum is not None:
            return enum
        members = members_of(value)
        if UNDEFINED in members and any(m not in (UNDEFINED, NULL) for m in members):
            self.diags.report(
                "SYN002",
                f"'undefined' in the type alias {symbol.name} is not a JSON value: the "
                "alias stands for the rest, and a property it types may be absent",
                span,
            )
        return self.alias_decl(value, symbol.name, lifecycle, span, symbol.exported)

    def _namespace_enum(self, symbol: Symbol, value: TsType) -> ir.EnumDecl | None:
        """``namespace Kind { export const A = 1; ... }`` merged with ``type Kind = 1 |
        ...``: an enum whose members are the namespace's constants (names and docs), when
        the alias is exactly the union of their values."""
        scope = symbol.scope
        space = scope.namespaces.get(symbol.local) if scope is not None else None
        if space is None:
            return None
        members: list[ir.EnumMember] = []
        by_value: dict[str | int | float | bool, str] = {}
        for name, const in space.values.items():
            if name not in space.exported or const.kind != "const":
                continue
            scratch = Group(const.name, const)
            self.stack.append(scratch)
            raw = literal_value(self.scalar(self._value_symbol(const, const.span)))
            self.stack.pop()
            if isinstance(raw, bool) or not isinstance(raw, (str, int)):
                return None
            if scratch.problems or raw in by_value:
                return None
            by_value[raw] = name
            members.append(
                ir.EnumMember(name, raw, lifecycle_of(const.doc), const.span)
            )
        wanted = {literal_value(self.scalar(m)) for m in members_of(value)}
        if not members or wanted != set(by_value):
            return None
        kinds = {type(m.value) for m in members}
        if len(kinds) != 1:
            return None
        base = ir.EnumBase.STRING if kinds == {str} else ir.EnumBase.INTEGER
        return ir.EnumDecl(
            symbol.name,
            base,
            tuple(members),
            lifecycle=lifecycle_of(symbol.doc),
            span=symbol.span,
            exported=symbol.exported,
        )

    # ------------------------------------------------------------------ hooks of typeops

    def named_object(self, name: str) -> Obj | None:
        if name in self.objects:
            return self.objects[name]
        symbol = self.table.type(name)
        if symbol is None or not _all_defaults(symbol):
            return None
        if symbol.kind == "interface":
            if self.array_interface(symbol) is not None:
                return None
            return self.interface_obj(symbol, ())
        if symbol.kind == "alias":
            value = self.alias_value(symbol, ())
            return value if isinstance(value, Obj) else None
        return None

    def looked_inside(self, value: TsType, seen: frozenset[str] = frozenset()) -> None:
        """A homomorphic mapped type copies the members of the named object ``value``
        (and of its bases) into the type being evaluated: their problems (a function
        type) go with them, since no reference by name leads reachability there."""
        value = self.resolve(value)
        if not (isinstance(value, Leaf) and isinstance(value.expr, ir.Ref)):
            return
        name = value.expr.name
        symbol = self.table.type(name)
        found = self.named_object(name)
        if symbol is None or found is None or not self.stack or name in seen:
            return
        theirs = self.group_for(symbol)
        mine = self.group
        if theirs is not mine:
            mine.problems.extend(p for p in theirs.problems if p not in mine.problems)
        for base in found.bases:
            self.looked_inside(Leaf(base), seen | {name})

    def member_while_evaluating(self, name: str, key: TsType) -> TsType | None:
        """The checker reads a property's type lazily, so ``type A = { b: B["s"] }`` and
        ``type B = { s: string; a: A["b"] }`` are fine: while ``A`` is being evaluated,
        ``A["k"]`` evaluates the one member ``k`` of its object literal."""
        symbol = self.table.type(name)
        if symbol is None or symbol.kind != "alias" or symbol.params:
            return None
        if f"alias:{symbol.order}:()" not in self.in_progress:
            return None
        raw = literal_value(key)
        value_node = symbol.node.child_by_field_name("value")
        if not isinstance(raw, str) or value_node is None:
            return None
        if value_node.type != "object_type":
            return None
        for member in _named(value_node):
            if member.type != "property_signature":
                continue
            name_node = member.child_by_field_name("name")
            type_node = member.child_by_field_name("type")
            if name_node is None or type_node is None:
                continue
            found = self._key(name_node, {}, symbol.source)
            if found is None or found[0] != raw:
                continue
            value = self.eval(type_node, {}, symbol.source)
            optional = any(c.type == "?" for c in member.children)
            return union_of([value, UNDEFINED]) if optional else value
        return None

    def array_interface(self, symbol: Symbol) -> Arr | None:
        """``interface Tags extends Array<Tag> {}``: an array type with a name (no members
        of its own, one base that is an array)."""
        if symbol.parts or symbol.params:
            return None
        body = symbol.node.child_by_field_name("body")
        if body is not None and _named(body):
            return None
        clauses = [c for c in symbol.node.children if c.type == "extends_type_clause"]
        bases = [b for c in clauses for b in _named(c)]
        if len(bases) != 1 or bases[0].type not in ("generic_type", "array_type"):
            return None
        marker = f"array-interface:{symbol.order}"
        if marker in self.in_progress:
            return None
        self.in_progress.add(marker)
        try:
            base = self.eval(bases[0], {}, symbol.source)
        finally:
            self.in_progress.discard(marker)
        return base if isinstance(base, Arr) else None

    def symbol_value(self, name: str) -> TsType | None:
        symbol = self.table.type(name)
        if symbol is None:
            return None
        if symbol.kind == "enum":
            enum = self.enum_decl(symbol)
            return union_of([self.member_type(enum, m.name) for m in enum.members])
        if symbol.kind == "alias" and _all_defaults(symbol):
            return self.alias_value(symbol, ())
        if symbol.kind == "interface":
            return self.array_interface(symbol)
        return None

    def enum_value(self, enum: str, member: str) -> str | int | None:
        symbol = self.table.type(enum)
        if symbol is None or symbol.kind != "enum":
            return None
        for candidate in self.enum_decl(symbol).members:
            if candidate.name == member:
                return candidate.value
        return None

    def member_type(
        self, enum: ir.EnumDecl, member: str, span: ir.Span = ir.NO_SPAN
    ) -> TsType:
        """The type ``Enum.member``: a reference to the member, or its literal value
        when the enum mixes string and number members (emitted as that union)."""
        if _heterogeneous(enum):
            for candidate in enum.members:
                if candidate.name == member:
                    return Leaf(ir.Literal(candidate.value))
        return Leaf(ir.EnumMemberRef(enum.name, member, span))

    def enum_decl(self, symbol: Symbol) -> ir.EnumDecl:
        found = self.enums.get(symbol.name)
        if found is None:
            found = convert_enum(
                symbol.node,
                symbol.source,
                self.diags,
                lifecycle_of(symbol.doc),
                symbol.exported,
            )
            if found.name != symbol.name:  # another scope declares the name too
                found = replace(found, name=symbol.name)
            self.enums[symbol.name] = found
        return found

    # ------------------------------------------------------------------ symbols

    def interface_obj(self, symbol: Symbol, args: tuple[TsType, ...]) -> Obj | None:
        canonical = not args and self.table.type(symbol.name) is symbol
        if canonical and symbol.name in self.objects:
            return self.objects[symbol.name]
        marker = f"interface:{symbol.order}:{args!r}"
        if marker in self.in_progress:
            return None
        self.in_progress.add(marker)
        own = not args
        if own:
            self.stack.append(self.group_for(symbol))
        try:
            env = self._bind(symbol, args)
            obj = self._interface_body(symbol, env)
        finally:
            self.in_progress.discard(marker)
            if own:
                self.stack.pop()
        if canonical:
            self.objects[symbol.name] = obj
        return obj

    def _interface_body(self, symbol: Symbol, env: Env) -> Obj:
        """The members of an interface and of the declarations merged into it (the
        checker merges ``interface X`` declared twice in one scope)."""
        if not symbol.parts:
            return self._interface_part(symbol, symbol, env)
        bodies = [self._interface_part(symbol, p, env) for p in (symbol, *symbol.parts)]
        props: dict[str, Prop] = {}
        bases: list[ir.Ref] = []
        for body in bodies:
            props.update((p.name, p) for p in body.props)
            bases.extend(b for b in body.bases if b not in bases)
        return Obj(
            tuple(props.values()),
            next((b.index for b in bodies if b.index is not None), None),
            tuple(bases),
            any(b.closed for b in bodies),
            bodies[0].span,
            next((b.numeric_index for b in bodies if b.index is not None), False),
        )

    def _interface_part(self, symbol: Symbol, part: Symbol, env: Env) -> Obj:
        source = part.source
        bases: list[ir.Ref] = []
        inherited: list[Prop] = []
        index: TsType | None = None
        for child in part.node.children:
            if child.type != "extends_type_clause":
                continue
            for base_node in child.named_children:
                if base_node.type == "comment":
                    continue
                base = self.eval(base_node, env, source)
                if self.is_object_ref(base) or self._interface_ref(base):
                    assert isinstance(base, Leaf) and isinstance(base.expr, ir.Ref)
                    bases.append(ir.Ref(base.expr.name, span_of(source, base_node)))
                    continue
                resolved = self.props_of(base)
                if resolved is None:
                    resolved = self._index_only(base)
                if resolved is None:
                    self.problem(
                        span_of(source, base_node),
                        f"{symbol.name} extends {node_text(base_node)!r}, which is not an "
                        "object type",
                    )
                    continue
                inherited.extend(resolved.props)
                index = index or resolved.index
        body = part.node.child_by_field_name("body")
        own = self._members(body, env, source) if body is not None else Obj()
        props: dict[str, Prop] = {p.name: p for p in inherited}
        for prop in own.props:
            props.pop(prop.name, None)
            props[prop.name] = prop
        return Obj(
            tuple(props.values()),
            own.index or index,
            tuple(bases),
            own.closed,
            span_of(source, part.node),
            own.numeric_index if own.index is not None else False,
        )

    def _interface_ref(self, base: TsType) -> bool:
        """A reference to an interface whose members are being read (``interface A {
        t: B["t"] }``, ``interface B extends A``): an object type all the same."""
        if not (isinstance(base, Leaf) and isinstance(base.expr, ir.Ref)):
            return False
        symbol = self.table.type(base.expr.name)
        return (
            symbol is not None
            and symbol.kind == "interface"
            and self.array_interface(symbol) is None
            and any(
                m.startswith(f"interface:{symbol.order}:") for m in self.in_progress
            )
        )

    def _index_only(self, base: TsType) -> Obj | None:
        """An object type with no named members, as ``extends`` takes it: a record
        (``Record<string, V>``, a mapped type over ``string``) or ``object``."""
        value = self.resolve(base)
        if isinstance(value, Dict):
            return Obj(index=value.values)
        if isinstance(value, Leaf) and value.expr == ir.AnyJson(structured=True):
            return Obj(index=ANY)
        return None

    def alias_value(self, symbol: Symbol, args: tuple[TsType, ...]) -> TsType:
        key = (symbol.order, args)
        found = self.alias_values.get(key)
        if found is not None:
            return found
        marker = f"alias:{symbol.order}:{args!r}"
        if marker in self.in_progress:
            self.problem(
                symbol.span,
                f"{symbol.name} refers to itself where its members are needed",
            )
            return ANY
        self.in_progress.add(marker)
        own = not args
        if own:
            self.stack.append(self.group_for(symbol))
        # The problems met in the value (a function type, say), kept for every
        # declaration it is inlined into (``inline_alias``).
        target = self.group if self.stack else None
        before = len(target.problems) if target is not None else 0
        try:
            env = self._bind(symbol, args)
            value_node = symbol.node.child_by_field_name("value")
            if value_node is None:
                self.problem(symbol.span, f"type alias {symbol.name} has no value")
                value: TsType = ANY
            else:
                value = self.eval(value_node, env, symbol.source)
        finally:
            self.in_progress.discard(marker)
            if own:
                self.stack.pop()
        met = tuple(target.problems[before:]) if target is not None else ()
        self.alias_problems[key] = met
        self.alias_values[key] = value
        return value

    def inline_alias(self, symbol: Symbol, args: tuple[TsType, ...]) -> TsType:
        """A generic alias's value written in place (``Array<Handler>``, ``Box<T>``):
        the problems met in it (a function type, say) are the using declaration's too,
        since no reference by name leads reachability to the alias."""
        value = self.alias_value(symbol, args)
        if self.stack:
            mine = self.group.problems
            met = self.alias_problems.get((symbol.order, args), ())
            mine.extend(p for p in met if p not in mine)
        return value

    def _bind(self, symbol: Symbol, args: tuple[TsType, ...]) -> Env:
        env: Env = {}
        for position, param in enumerate(symbol.params):
            if position < len(args):
                env[param.name] = args[position]
            elif param.default is not None:
                env[param.name] = self.eval(param.default, env, symbol.source)
            else:
                env[param.name] = ANY
        return env

    def instantiate(
        self,
        symbol: Symbol,
        arg_nodes: list[Node],
        env: Env,
        source: SourceText,
        span: ir.Span,
    ) -> TsType:
        if self.instantiating > _MAX_INSTANTIATION_DEPTH:
            self.problem(
                span, f"{symbol.name} is instantiated inside itself without end"
            )
            return ANY
        self.instantiating += 1
        try:
            return self._instantiate(symbol, arg_nodes, env, source, span)
        finally:
            self.instantiating -= 1

    def _instantiate(
        self,
        symbol: Symbol,
        arg_nodes: list[Node],
        env: Env,
        source: SourceText,
        span: ir.Span,
    ) -> TsType:
        args = [self.eval(node, env, source) for node in arg_nodes]
        if len(args) > len(symbol.params):
            self.problem(
                span, f"{symbol.name} takes {len(symbol.params)} type arguments"
            )
            return ANY
        scope: Env = {}
        full: list[TsType] = []
        for position, param in enumerate(symbol.params):
            if position < len(args):
                value = args[position]
            elif param.default is not None:
                value = self.eval(param.default, scope, symbol.source)
            else:
                self.problem(
                    span, f"{symbol.name} needs a type argument for {param.name}"
                )
                return ANY
            scope[param.name] = value
            full.append(value)
        defaults_only = not args or (
            _all_defaults(symbol) and full == self._defaults(symbol)
        )
        if symbol.kind == "alias":
            return self.inline_alias(symbol, () if defaults_only else tuple(full))
        if symbol.kind != "interface":
            self.problem(span, f"{symbol.name} is not generic")
            return ANY
        if defaults_only:
            return Leaf(ir.Ref(symbol.name, span))
        named = tuple(args)  # the arguments written: ``Page<string>`` → ``PageString``
        return Leaf(ir.Ref(self._instance(symbol, tuple(full), named, span), span))

    def _defaults(self, symbol: Symbol) -> list[TsType]:
        scope: Env = {}
        out: list[TsType] = []
        for param in symbol.params:
            value = (
                self.eval(param.default, scope, symbol.source) if param.default else ANY
            )
            scope[param.name] = value
            out.append(value)
        return out

    def _instance(
        self,
        symbol: Symbol,
        args: tuple[TsType, ...],
        named: tuple[TsType, ...],
        span: ir.Span,
    ) -> str:
        key = (symbol.order, args)
        name = self.instances.get(key)
        if name is not None:
            return name
        name = self.fresh_name(symbol.name + "".join(describe(a) for a in named))
        self.instances[key] = name
        obj = self.interface_obj(symbol, args)
        if obj is None:
            self.problem(span, f"{symbol.name} is instantiated inside itself")
            obj = Obj()
        derived = f"{symbol.name}<{', '.join(describe(a) for a in args)}>"
        struct = self.struct(
            obj,
            name,
            derived_from=derived,
            lifecycle=lifecycle_of(symbol.doc),
            exported=symbol.exported,
            span=span,
        )
        self.add_lifted(struct)
        return name

    # ------------------------------------------------------------------ type syntax

    def eval(self, node: Node, env: Env, source: SourceText) -> TsType:
        """The type a type node stands for.  Nesting is bounded here, before Python's
        stack is: a level the output could not render anyway (``materialize.bounded``)
        is an error at its own line."""
        if node.type in _WRAPPERS:  # ``: T``, ``(T)``: no level of their own
            return self._eval(node, env, source)
        if self.syntax_depth >= _MAX_SYNTAX_DEPTH:
            return self._bad(
                span_of(source, node),
                f"a type nested more than {MAX_TYPE_NESTING} levels deep cannot be "
                "rendered; name an inner level (a type alias or interface)",
            )
        self.syntax_depth += 1
        try:
            return self._eval(node, env, source)
        finally:
            self.syntax_depth -= 1

    def _eval(self, node: Node, env: Env, source: SourceText) -> TsType:
        kind = node.type
        span = span_of(source, node)
        if kind in _WRAPPERS:
            inner = _named(node)
            return (
                self.eval(inner[0], env, source)
                if inner
                else self._bad(span, "an empty type")
            )
        if kind == "predefined_type" or (
            kind == "literal_type" and _keyword(node) in ("null", "undefined")
        ):
            name = node_text(node) if kind == "predefined_type" else _keyword(node)
            found = _PREDEFINED.get(name)
            return (
                found
                if found is not None
                else self._bad(span, f"the type {name!r} has no JSON form")
            )
        if kind == "type_identifier":
            return self._name(node_text(node), env, span, self.scope_of(node, source))
        if kind == "nested_type_identifier":
            return self._qualified(node, env, source, span)
        if kind == "literal_type":
            return self._literal(node, span)
        if kind == "template_literal_type":
            return self._template(node, env, source, span)
        if kind == "array_type":
            inner = _named(node)
            return (
                Arr(self.eval(inner[0], env, source))
                if inner
                else self._bad(span, "an empty array type")
            )
        if kind == "tuple_type":
            return self._tuple(node, env, source, span)
        if kind == "union_type":
            return union_of(
                [self.eval(m, env, source) for m in _flat(node, "union_type")]
            )
        if kind == "intersection_type":
            parts = [
                self.eval(m, env, source) for m in _flat(node, "intersection_type")
            ]
            return self.intersect(parts, span)
        if kind == "object_type":
            members = _named(node)
            if len(members) == 1 and _is_mapped(members[0]):
                return self._mapped(members[0], env, source)
            if len(members) == 1 and _any_index(members[0]):
                # ``{ [key: string]: any }`` takes any object, arrays included (TypeScript's
                # rule for an ``any`` index signature; ``unknown`` does not take arrays).
                return Leaf(ir.AnyJson(structured=True))
            return _numeric_map(self._members(node, env, source))
        if kind == "generic_type":
            return self._generic(node, env, source, span)
        if kind == "type_query":
            inner = _named(node)
            return (
                self.value_of(inner[0], env, source)
                if inner
                else self._bad(span, "an empty typeof")
            )
        if kind == "index_type_query":
            inner = _named(node)
            if not inner:
                return self._bad(span, "an empty keyof")
            return self.keys_of(self.eval(inner[0], env, source), span)
        if kind == "lookup_type":
            inner = _named(node)
            if len(inner) != 2:
                return self._bad(span, "a malformed indexed access type")
            return self.index_access(
                self.eval(inner[0], env, source), self.eval(inner[1], env, source), span
            )
        if kind == "conditional_type":
            return self._conditional(node, env, source, span)
        if node.is_error or node.is_missing:
            return ANY  # the syntax error itself is the finding (SYN001), said once
        what = {
            "function_type": "a function type",
            "constructor_type": "a constructor type",
            "this_type": "'this'",
            "infer_type": "an 'infer' type outside a conditional type's condition",
            "type_predicate": "a type predicate",
        }.get(kind, f"the type construct {kind!r}")
        return self._bad(span, f"{what} has no JSON form")

    def _bad(self, span: ir.Span, message: str, code: str = "SYN003") -> TsType:
        self.problem(span, message, code)
        return ANY

    def scope_of(self, node: Node, source: SourceText) -> Scope | None:
        return self.table.scope_at(source, node)

    def _name(self, name: str, env: Env, span: ir.Span, scope: Scope | None) -> TsType:
        if name in env:
            return env[name]
        if self.table.imported_from_outside(name, scope):
            return Leaf(ir.Ref(name, span))
        symbol = self.table.lookup_type(name, scope)
        if symbol is not None:
            if symbol.params:
                source = self.source or symbol.source
                return self.instantiate(symbol, [], env, source, span)
            return Leaf(ir.Ref(symbol.name, span))
        if name in _PREDEFINED:  # tree-sitter reads ``bigint`` as an identifier
            return _PREDEFINED[name]
        if name in self.imported:
            return Leaf(ir.Ref(name, span))
        if name in _GLOBAL_STRINGS:
            return _GLOBAL_STRINGS[name]
        if name == "RegExp":
            # a RegExp has no enumerable own property: JSON.stringify writes ``{}``
            self.diags.report(
                "SYN002",
                "RegExp is written by JSON.stringify as {} (its pattern is lost); read "
                "as an empty object",
                span,
            )
            return Obj(closed=True, span=span)
        self.problem(span, f"{name} is not defined", "REF001")
        return ANY

    def _qualified(
        self, node: Node, env: Env, source: SourceText, span: ir.Span
    ) -> TsType:
        """``Enum.Member``, ``NS.Type``, ``NS.Inner.Type``, ``Imported.Type``."""
        module = node.child_by_field_name("module")
        member = node.child_by_field_name("name")
        if module is None or member is None:
            return self._bad(span, "a malformed qualified type")
        scope = self.scope_of(node, source)
        parts = [node_text(module)] if module.type == "identifier" else None
        if parts is None:
            parts = node_text(module).replace(" ", "").split(".")
        first = parts[0]
        owner: Symbol | Scope | None = self.table.lookup_namespace(first, scope)
        if owner is None:
            enum = self.table.lookup_type(first, scope)
            if enum is not None and enum.kind == "enum" and len(parts) == 1:
                return self.member_type(self.enum_decl(enum), node_text(member), span)
        for part in parts[1:]:
            owner = (
                owner.export(part, "namespace", self.table.files, set())
                if (isinstance(owner, Scope))
                else None
            )
        if isinstance(owner, Scope):
            symbol = owner.export(node_text(member), "type", self.table.files, set())
            if isinstance(symbol, Symbol):
                if symbol.params:
                    return self.instantiate(symbol, [], env, source, span)
                return Leaf(ir.Ref(symbol.name, span))
            return self._bad(
                span, f"{node_text(node)!r} is not a type the namespace exports"
            )
        if len(parts) == 1 and not self.table.imported_from_outside(first, scope):
            # A reference to an enum the spec does not declare (``lodash.__`` with
            # ``import lodash = require(...)``): a problem of the declaration using it,
            # so it blocks only what needs it (left to the passes, it blocked the spec).
            return self._bad(span, f"{first} is not an enum", "REF001")
        if len(parts) == 1 and self.table.imported_from_outside(first, scope):
            return Leaf(ir.Ref(first, span))
        return self._bad(span, f"{node_text(node)!r} names no enum member")

    def _qualified_symbol(self, node: Node, source: SourceText) -> Symbol | None:
        """The declaration ``NS.Inner.Type`` names, if a namespace exports it."""
        parts = node_text(node).replace(" ", "").split(".")
        scope = self.scope_of(node, source)
        owner = self.table.lookup_namespace(parts[0], scope)
        for part in parts[1:-1]:
            if owner is None:
                return None
            owner = owner.export(part, "namespace", self.table.files, set())
        if owner is None:
            return None
        found = owner.export(parts[-1], "type", self.table.files, set())
        return found if isinstance(found, Symbol) else None

    def _literal(self, node: Node, span: ir.Span) -> TsType:
        inner = _named(node)
        child = inner[0] if inner else node
        text = node_text(child)
        if child.type == "string":
            return literal(decode_string(text))
        number = parse_number(text) if child.type == "number" else _signed_number(child)
        if number is not None and not math.isfinite(number):
            # ``1e999`` is Infinity to the checker; JSON has no such number
            # (JSON.stringify writes null for it)
            return self._bad(span, f"the literal type {text} is not a finite number")
        if number is not None:
            return literal(number)
        if child.type in ("true", "false"):
            return literal(child.type == "true")
        return self._bad(span, f"the literal type {text!r} is not supported")

    def _template(
        self, node: Node, env: Env, source: SourceText, span: ir.Span
    ) -> TsType:
        """A template literal type as the checker reads it: over finite unions of literals
        it is the union of every concatenation (```a-${'x' | 'y'}``` → ``'a-x' | 'a-y'``);
        with an infinite placeholder (``string``, ``number``, ``bigint``) it is a string
        matching a pattern."""
        parts: list[list[str] | str] = []  # literal choices, or a regex
        for child in node.named_children:
            if child.type == "string_fragment":
                parts.append([decode_string(node_text(child))])
            elif child.type == "template_type":
                inner = _named(child)
                if not inner:
                    return self._bad(span, "an empty template placeholder")
                part = self._template_part(self.eval(inner[0], env, source))
                if part is None:
                    return self._bad(
                        span,
                        f"a template literal type with ${{{node_text(inner[0])}}}: "
                        "only strings, numbers, booleans, null, undefined and their "
                        "literals have a text form",
                    )
                parts.append(part)
        if all(isinstance(p, list) for p in parts):
            total = 1
            for p in parts:
                total *= len(p)
            if total <= _MAX_TEMPLATE_EXPANSION:
                texts = [""]
                for p in parts:
                    assert isinstance(p, list)
                    texts = [t + choice for t in texts for choice in p]
                return union_of([literal(t) for t in texts])
        pattern = "".join(p if isinstance(p, str) else _alternation(p) for p in parts)
        constraints = ir.Constraints(pattern=f"^{pattern}$")
        return Leaf(ir.Primitive(ir.PrimitiveKind.STRING, constraints))

    def _template_part(self, value: TsType) -> list[str] | str | None:
        """What one placeholder may write: its literal texts, or a regex."""
        texts: list[str] = []
        patterns: list[str] = []
        pending = list(members_of(self.resolve(value)))
        while pending:
            member = self.resolve(self.scalar(pending.pop(0)))
            if isinstance(member, Union):  # an alias of a union, inside the union
                pending[:0] = member.members
                continue
            raw = literal_value(member)
            if isinstance(raw, bool):
                texts.append("true" if raw else "false")
            elif isinstance(raw, str):
                texts.append(raw)
            elif isinstance(raw, (int, float)):
                texts.append(_js_number_text(raw))
            elif member == BOOLEAN:
                texts.extend(("false", "true"))
            elif member == NULL:
                texts.append("null")
            elif member is UNDEFINED:
                texts.append("undefined")
            elif isinstance(member, Leaf) and isinstance(member.expr, ir.Primitive):
                kind = member.expr.kind
                pattern = member.expr.constraints.pattern
                if kind is ir.PrimitiveKind.STRING:
                    patterns.append(pattern[1:-1] if pattern else "[\\s\\S]*")
                elif kind is ir.PrimitiveKind.NUMBER:
                    patterns.append(_NUMBER_TEXT)
                elif kind is ir.PrimitiveKind.INTEGER:
                    patterns.append(_BIGINT_TEXT)
                else:
                    return None
            elif member == ANY:
                patterns.append("[\\s\\S]*")
            else:
                return None
        texts = list(dict.fromkeys(texts))
        if not patterns:
            return texts
        return "(?:" + "|".join([*(_regex_escape(t) for t in texts), *patterns]) + ")"

    def _tuple(self, node: Node, env: Env, source: SourceText, span: ir.Span) -> TsType:
        """``[A, B?, ...C[]]`` as the checker normalizes it: a spread tuple's elements are
        spliced in, a spread array becomes the rest; a rest followed by more elements has
        no JSON Schema form here (a problem)."""
        items: list[TsType] = []
        required = 0
        rest: TsType | None = None
        for child in _named(node):
            kind = "required"
            inner: Node | None = child
            if child.type in ("optional_type", "rest_type"):
                kind = "optional" if child.type == "optional_type" else "rest"
                inner = next(iter(_named(child)), None)
            elif child.type in ("required_parameter", "optional_parameter"):
                if child.type == "optional_parameter":
                    kind = "optional"
                elif any(c.type == "rest_pattern" for c in child.named_children):
                    kind = "rest"
                inner = child.child_by_field_name("type")
            if inner is None:
                return self._bad(span, "a tuple member without a type")
            value = self.eval(inner, env, source)
            if rest is not None:
                return self._bad(
                    span, "a tuple element after a rest element has no JSON Schema form"
                )
            if kind == "rest":
                spread = self.resolve(value)
                if isinstance(spread, Tup):
                    if len(items) == required:
                        required += spread.least
                    items.extend(spread.items)
                    rest = spread.rest
                elif isinstance(spread, Arr):
                    rest = spread.items
                elif spread == ANY:
                    rest = ANY
                else:
                    return self._bad(span, "a rest element that is not an array type")
                continue
            if kind == "required" and len(items) == required:
                required += 1
            items.append(value)
        if rest is not None and not items:
            return Arr(rest)
        return _tuple_of(
            tuple(items), None if required == len(items) else required, rest
        )

    def _generic(
        self, node: Node, env: Env, source: SourceText, span: ir.Span
    ) -> TsType:
        name_node = node.child_by_field_name("name")
        args_node = node.child_by_field_name("type_arguments")
        name = node_text(name_node)
        arg_nodes = [
            a
            for a in (args_node.named_children if args_node else [])
            if a.type != "comment"
        ]
        if name_node is not None and name_node.type == "nested_type_identifier":
            symbol = self._qualified_symbol(name_node, source)
        else:
            symbol = self.table.lookup_type(name, self.scope_of(node, source))
        if symbol is not None:
            return self.instantiate(symbol, arg_nodes, env, source, span)
        args = [self.eval(a, env, source) for a in arg_nodes]
        count = len(args)
        if name in ("Array", "ReadonlyArray") and count == 1:
            return Arr(args[0])
        if name == "Record" and count == 2:
            return self.record(args[0], args[1], span)
        if name in ("Partial", "Required") and count == 1:
            self.looked_inside(args[0])  # the members are copied, problems too
            return self.partial(args[0], span, optional=name == "Partial")
        if name == "Readonly" and count == 1:
            return args[0]
        if name in ("Pick", "Omit") and count == 2:
            # (every member's problems, the left-out ones too: refused, never any)
            self.looked_inside(args[0])
            return self.pick(args[0], args[1], span, keep=name == "Pick")
        if name in ("Exclude", "Extract") and count == 2:
            return self.exclude(args[0], args[1], span, keep=name == "Extract")
        if name == "NonNullable" and count == 1:
            return self.non_nullable(args[0])
        if name in _INTRINSIC and count == 1:
            return self._intrinsic(name, args[0], span)
        return self._bad(span, f"the generic type {name!r} is not defined in the spec")

    def _intrinsic(self, name: str, value: TsType, span: ir.Span) -> TsType:
        """``Uppercase<T>`` and its kin on string literals (and ``string``, which stays
        ``string``: the checker keeps it as an unresolved intrinsic of any string)."""
        out: list[TsType] = []
        for member in members_of(self.resolve(value)):
            raw = literal_value(self.scalar(member))
            if isinstance(raw, str):
                out.append(literal(_INTRINSIC[name](raw)))
            elif member == STRING:
                out.append(STRING)
            else:
                return self._bad(span, f"{name}<T> applies to strings only here")
        return union_of(out)

    def _conditional(
        self, node: Node, env: Env, source: SourceText, span: ir.Span
    ) -> TsType:
        check = node.child_by_field_name("left")
        if (
            check is not None
            and check.type == "type_identifier"
            and node_text(check) in env
        ):
            param = node_text(check)
            return union_of(
                [
                    self._conditional_once(node, {**env, param: member}, source, span)
                    for member in members_of(self.resolve(env[param]))
                ]
            )
        return self._conditional_once(node, env, source, span)

    def _conditional_once(
        self, node: Node, env: Env, source: SourceText, span: ir.Span
    ) -> TsType:
        parts = [
            node.child_by_field_name(f)
            for f in ("left", "right", "consequence", "alternative")
        ]
        if any(p is None for p in parts):
            return self._bad(span, "a malformed conditional type")
        check, extends, yes, no = (p for p in parts if p is not None)
        if contains_infer(extends):
            inference = Inference(self, env, source)
            fits = inference.match(extends, self.eval(check, env, source))
            if fits is None:
                return self._bad(
                    span, "this conditional type with 'infer' cannot be decided"
                )
            if fits:
                return self.eval(yes, {**env, **inference.bound}, source)
            return self.eval(no, env, source)
        verdict = self.assignable(
            self.eval(check, env, source), self.eval(extends, env, source)
        )
        if verdict is None:
            return self._bad(span, "this conditional type cannot be decided")
        return self.eval(yes if verdict else no, env, source)

    # ------------------------------------------------------------------ object types

    def _members(self, body: Node, env: Env, source: SourceText) -> Obj:
        span = span_of(source, body)
        props: dict[str, Prop] = {}  # a member declared again replaces the earlier one
        index: TsType | None = None
        numeric = False
        doc: JsDoc | None = None
        for member in body.named_children:
            if member.type == "comment":
                text = node_text(member)
                doc = (
                    parse_jsdoc(text, member.start_point[0] + 1)
                    if is_jsdoc(text)
                    else doc
                )
                continue
            if member.type == "property_signature":
                prop = self._property(member, env, source, doc)
                if prop is not None:
                    props.pop(prop.name, None)
                    props[prop.name] = prop
            elif member.type == "index_signature":
                if _is_mapped(member):
                    self.problem(
                        span_of(source, member), "a mapped type beside other members"
                    )
                else:
                    index = self._index_signature(member, env, source)
                    key_type = member.child_by_field_name("index_type")
                    numeric = key_type is not None and node_text(key_type) == "number"
            elif member.is_error or member.is_missing:
                pass  # the syntax error itself is the finding (SYN001), said once
            elif member.type in _CALLABLE:
                # A value of the type is a function: JSON.stringify writes nothing for
                # it, and the checker takes no JSON value for it (``{}`` "provides no
                # match for the signature").
                what = member.type.replace("_", " ")
                self.problem(
                    span_of(source, member),
                    f"a type with a {what} is a function, which has no JSON form",
                )
            elif member.type in _NOT_DATA:
                what = member.type.replace("_", " ")
                text = node_text(member).split("\n", 1)[0].rstrip(";")[:40]
                self.diags.report(
                    "SYN002",
                    f"the {what} {text!r} is not data; skipped",
                    span_of(source, member),
                )
            else:
                self.problem(
                    span_of(source, member),
                    f"the member {member.type!r} is not supported",
                )
            doc = None
        # no key can have a value (``never``) or be written (``undefined``, a symbol)
        closed = index is NEVER or index is UNDEFINED
        if closed:
            index = None
        return Obj(
            tuple(props.values()), index, (), closed, span, numeric and not closed
        )

    def _property(
        self, member: Node, env: Env, source: SourceText, doc: JsDoc | None
    ) -> Prop | None:
        name_node = member.child_by_field_name("name")
        if name_node is None:
            return None
        span = span_of(source, member)
        key = self._key(name_node, env, source)
        if key is None:
            return None
        name, numeric = key
        type_node = member.child_by_field_name("type")
        if type_node is None:
            self.problem(
                span,
                f"the property {name!r} has no type (TypeScript reads it as 'any')",
            )
            value: TsType = ANY
        else:
            value = self.eval(type_node, env, source)
        optional = any(child.type == "?" for child in member.children)
        readonly = any(child.type == "readonly" for child in member.children)
        return Prop(name, value, optional, numeric, readonly, doc, span)

    def _key(self, node: Node, env: Env, source: SourceText) -> tuple[str, bool] | None:
        text = node_text(node)
        if node.type == "string":
            return decode_string(text), False
        if node.type == "number":
            return _number_key(parse_number(text)), True
        if node.type == "computed_property_name":
            inner = _named(node)
            value = self.scalar(self.value_of(inner[0], env, source)) if inner else ANY
            raw = literal_value(value)
            if isinstance(raw, str):
                return raw, False
            if isinstance(raw, (int, float)) and not isinstance(raw, bool):
                return _number_key(raw), True
            self.problem(
                span_of(source, node), f"the computed key {text} is not a constant"
            )
            return None
        if node.type == "private_property_identifier":
            return None
        return text, False

    def _index_signature(self, member: Node, env: Env, source: SourceText) -> TsType:
        type_node = member.child_by_field_name("type")
        if type_node is None:
            return ANY
        return self.eval(type_node, env, source)

    def _mapped(self, member: Node, env: Env, source: SourceText) -> TsType:
        span = span_of(source, member)
        clause = next(
            c for c in member.named_children if c.type == "mapped_type_clause"
        )
        param = node_text(clause.child_by_field_name("name"))
        keys_node = clause.child_by_field_name("type")
        alias_node = clause.child_by_field_name("alias")
        if keys_node is None:
            self.problem(span, "a mapped type without keys")
            return Obj(span=span)
        annotation = next(
            (c for c in member.named_children if c.type.endswith("type_annotation")),
            None,
        )
        value_node = (
            _named(annotation)[0]
            if annotation is not None and _named(annotation)
            else None
        )
        modifier = annotation.type if annotation is not None else ""
        keys = self.eval(keys_node, env, source)
        source_obj: Obj | None = None
        if keys_node.type == "index_type_query" and _named(keys_node):
            mapped = self.eval(_named(keys_node)[0], env, source)
            over = self.resolve(mapped)
            if isinstance(over, (Arr, Tup)) and alias_node is None:
                # homomorphic over an array or a tuple: an array or a tuple again
                return self._mapped_array(over, param, value_node, env, source)
            source_obj = self.props_of(mapped)
            self.looked_inside(mapped)
        names = self.literal_keys(keys)
        if names is None:
            resolved = self.resolve(keys)
            if alias_node is not None:
                self.problem(
                    span, "a mapped type with 'as' over keys that are not literals"
                )
                return Obj(span=span)
            if resolved in (STRING, NUMBER) and value_node is not None:
                values = self.eval(value_node, {**env, param: resolved}, source)
                if values is NEVER:
                    return Obj(closed=True, span=span)
                if resolved == NUMBER:  # ``[k in number]``: numeric names only
                    return Dict(values, NUMBER_KEY)
                return Dict(values)
            self.problem(span, "a mapped type over keys that are not literals")
            return Obj(span=span)
        props: dict[str, Prop] = {}  # a key given twice: the later one (as the checker)
        for name, numeric in names:
            key_type = literal(_key_number(name) if numeric else name)
            renamed: list[tuple[str, bool]] = [(name, numeric)]
            if alias_node is not None:
                # ``as``: the key is remapped (``never`` drops it, a union repeats it)
                remapped = self.eval(alias_node, {**env, param: key_type}, source)
                found = self.literal_keys(remapped)
                if found is None:
                    self.problem(
                        span,
                        "a mapped type's 'as' clause gives keys that are not literals",
                    )
                    return Obj(span=span)
                renamed = found
            if not renamed:
                continue
            value = (
                self.eval(value_node, {**env, param: key_type}, source)
                if value_node is not None
                else ANY
            )
            earlier = None
            if source_obj is not None:
                earlier = next((p for p in source_obj.props if p.name == name), None)
            if modifier in ("opting_type_annotation", "adding_type_annotation"):
                optional = True
            elif modifier == "omitting_type_annotation":
                optional = False  # ``-?`` also removes ``undefined`` from the value
                value = union_of([m for m in members_of(value) if m is not UNDEFINED])
            else:
                optional = earlier.optional if earlier is not None else False
            doc = earlier.doc if earlier is not None else None
            for key, key_numeric in renamed:
                props.pop(key, None)
                props[key] = Prop(key, value, optional, key_numeric, False, doc, span)
        return Obj(tuple(props.values()), span=span)

    def _mapped_array(
        self,
        over: Arr | Tup,
        param: str,
        value_node: Node | None,
        env: Env,
        source: SourceText,
    ) -> TsType:
        def each(key: TsType) -> TsType:
            if value_node is None:
                return ANY
            return self.eval(value_node, {**env, param: key}, source)

        if isinstance(over, Arr):
            return Arr(each(NUMBER))
        items = tuple(each(literal(i)) for i in range(len(over.items)))
        rest = each(NUMBER) if over.rest is not None else None
        return _tuple_of(items, over.required, rest)

    # ------------------------------------------------------------------ values (typeof)

    def value_of(
        self, node: Node, env: Env, source: SourceText, frozen: bool = False
    ) -> TsType:
        """The type of a value expression, as ``typeof`` sees it (``frozen``: inside
        ``as const``, literals keep their literal types)."""
        kind = node.type
        span = span_of(source, node)
        if kind == "identifier":
            return self._value_name(node_text(node), span, self.scope_of(node, source))
        if kind == "member_expression":
            target = node.child_by_field_name("object")
            prop = node.child_by_field_name("property")
            if target is None or prop is None:
                return self._bad(span, "a malformed member access")
            owner = self._value_owner(target, source)
            if (
                isinstance(owner, Symbol)
                and owner.kind == "enum"
                and self.enum_value(owner.name, node_text(prop)) is None
                and owner.scope is not None
                and owner.local in owner.scope.namespaces
            ):  # ``enum E`` merged with ``namespace E``: the namespace's member
                owner = owner.scope.namespaces[owner.local]
            if isinstance(owner, Symbol) and owner.kind == "enum":
                return self.member_type(self.enum_decl(owner), node_text(prop), span)
            if isinstance(owner, Scope):
                found = owner.export(node_text(prop), "value", self.table.files, set())
                if isinstance(found, Symbol):
                    return self._value_symbol(found, span)
                inner = owner.export(
                    node_text(prop), "namespace", self.table.files, set()
                )
                if isinstance(inner, Scope):
                    return self._namespace_value(inner, span)
                return self._bad(
                    span,
                    f"the namespace {node_text(target)} exports no {node_text(prop)}",
                )
            base = self.value_of(target, env, source)
            return self.index_access(base, literal(node_text(prop)), span)
        if kind in (
            "parenthesized_expression",
            "satisfies_expression",
            "non_null_expression",
        ):
            inner = _named(node)
            return (
                self.value_of(inner[0], env, source, frozen)
                if inner
                else self._bad(span, "an empty expression")
            )
        if kind == "as_expression":
            inner = _named(node)
            if inner and node.children[-1].type == "const":  # ``as const``
                return self.value_of(inner[0], env, source, frozen=True)
            if len(inner) == 2:
                return self.eval(inner[1], env, source)
            return self._bad(span, "a malformed 'as' expression")
        if kind in ("string", "template_string"):
            if kind == "template_string" and any(
                c.type == "template_substitution" for c in node.named_children
            ):
                return STRING
            return literal(decode_string(node_text(node)))
        if kind == "number":
            return literal(parse_number(node_text(node)))
        if kind in ("true", "false"):
            return literal(kind == "true")
        if kind == "null":
            return NULL
        if kind == "undefined":
            return UNDEFINED
        if kind == "call_expression" and node_text(
            node.child_by_field_name("function")
        ) in ("Symbol", "Symbol.for"):
            return UNDEFINED  # a symbol: JSON.stringify writes none (see _PREDEFINED)
        if kind == "unary_expression":
            signed = _signed_number(node)
            if signed is not None:
                return literal(signed)
            return self._bad(
                span, f"the expression {node_text(node)!r} is not a constant"
            )
        if kind == "object":
            return self._object_value(node, env, source, frozen)
        if kind == "array":
            items = [
                self.value_of(c, env, source, frozen)
                for c in node.named_children
                if c.type != "comment"
            ]
            if frozen:
                return Tup(tuple(items))
            return Arr(union_of([_widen(i) for i in items]))
        return self._bad(
            span, f"typeof of {node_text(node)[:40]!r} cannot be evaluated"
        )

    def _value_owner(self, node: Node, source: SourceText) -> Symbol | Scope | None:
        """What ``A`` or ``A.B`` names as a value: an enum, a namespace, a constant."""
        scope = self.scope_of(node, source)
        if node.type == "identifier":
            return self.table.lookup_value(node_text(node), scope)
        if node.type == "member_expression":
            target = node.child_by_field_name("object")
            prop = node.child_by_field_name("property")
            owner = self._value_owner(target, source) if target is not None else None
            if isinstance(owner, Scope) and prop is not None:
                found = owner.export(
                    node_text(prop), "namespace", self.table.files, set()
                )
                if found is None:
                    found = owner.export(
                        node_text(prop), "value", self.table.files, set()
                    )
                return found  # type: ignore[no-any-return]
        return None

    def _namespace_value(self, scope: Scope, span: ir.Span) -> TsType:
        """``typeof NS``: an object of the constants the namespace exports."""
        props = [
            Prop(name, self._value_symbol(symbol, span), readonly=True)
            for name, symbol in scope.values.items()
            if name in scope.exported
        ]
        return Obj(tuple(props), span=span)

    def _value_name(self, name: str, span: ir.Span, scope: Scope | None) -> TsType:
        symbol = self.table.lookup_value(name, scope)
        if isinstance(symbol, Scope):
            return self._namespace_value(symbol, span)
        if symbol is None:
            self.problem(
                span, f"the value {name} is not defined in the spec's sources", "REF001"
            )
            return ANY
        return self._value_symbol(symbol, span)

    def _value_symbol(self, symbol: Symbol, span: ir.Span) -> TsType:
        name = symbol.name
        if symbol.kind == "enum":
            enum = self.enum_decl(symbol)
            return Obj(
                tuple(
                    Prop(m.name, self.member_type(enum, m.name), readonly=True)
                    for m in enum.members
                ),
                span=span,
            )
        declared = symbol.node.child_by_field_name("type")
        if declared is not None:
            return self.eval(declared, {}, symbol.source)
        value = symbol.node.child_by_field_name("value")
        if value is None:
            return self._bad(span, f"the constant {name} has no value")
        marker = f"const:{symbol.order}"
        if marker in self.in_progress:
            return self._bad(span, f"the constant {name} refers to itself")
        self.in_progress.add(marker)
        try:
            found = self.value_of(value, {}, symbol.source)
        finally:
            self.in_progress.discard(marker)
        return found  # a ``const`` keeps the literal type of a primitive initializer

    def _object_value(
        self, node: Node, env: Env, source: SourceText, frozen: bool
    ) -> TsType:
        props: list[Prop] = []
        for child in node.named_children:
            if child.type == "pair":
                key_node = child.child_by_field_name("key")
                value_node = child.child_by_field_name("value")
                if key_node is None or value_node is None:
                    continue
                key = self._key(key_node, env, source)
                if key is None:
                    continue
                value = self.value_of(value_node, env, source, frozen)
                # ``"a" as const`` keeps its literal type in a mutable property
                keep = frozen or _const_asserted(value_node)
                props.append(
                    Prop(
                        key[0],
                        value if keep else _widen(value),
                        False,
                        key[1],
                        frozen,
                        span=span_of(source, child),
                    )
                )
            elif child.type == "shorthand_property_identifier":
                value = self._value_name(
                    node_text(child),
                    span_of(source, child),
                    self.scope_of(child, source),
                )
                props.append(
                    Prop(
                        node_text(child),
                        value if frozen else _widen(value),
                        readonly=frozen,
                    )
                )
            elif child.type == "spread_element":
                inner = _named(child)
                spread = (
                    self.props_of(self.value_of(inner[0], env, source, frozen))
                    if inner
                    else None
                )
                if spread is not None:
                    props.extend(spread.props)
            elif child.type != "comment":
                self.problem(
                    span_of(source, child), "this object member is not a constant"
                )
        return Obj(tuple(props), span=span_of(source, node))


# ---------------------------------------------------------------------- helpers


def _all_defaults(symbol: Symbol) -> bool:
    """A generic declaration usable without type arguments (or not generic at all)."""
    return all(param.default is not None for param in symbol.params)


def _numeric_map(obj: Obj) -> TsType:
    """``{ [k: number]: T }`` with no other member: a map whose keys are numeric names
    (the checker rejects any other key of a literal)."""
    if obj.numeric_index and obj.index is not None and not obj.props and not obj.bases:
        return Dict(obj.index, NUMBER_KEY)
    return obj


def _const_asserted(node: Node) -> bool:
    while node.type in ("parenthesized_expression", "satisfies_expression"):
        inner = _named(node)
        if not inner:
            return False
        node = inner[0]
    return node.type == "as_expression" and node.children[-1].type == "const"


def _tuple_of(
    items: tuple[TsType, ...], required: int | None, rest: TsType | None
) -> TsType:
    """A tuple, or ``never`` when a required element has no value (``[never]``: the
    checker keeps the type, but no JSON array is one)."""
    least = len(items) if required is None else required
    if any(item is NEVER for item in items[:least]):
        return NEVER
    return Tup(items, required, rest)


def _signed_number(node: Node) -> int | float | None:
    """``-1`` / ``+2.5`` (a unary expression of a number literal), else None."""
    if node.type != "unary_expression":
        return None
    argument = node.child_by_field_name("argument")
    operator = node_text(node.child_by_field_name("operator"))
    if argument is None or argument.type != "number" or operator not in ("-", "+"):
        return None
    number = parse_number(node_text(argument))
    return -number if operator == "-" else number


def _named(node: Node | None) -> list[Node]:
    if node is None:
        return []
    return [c for c in node.named_children if c.type != "comment"]


def _keyword(node: Node) -> str:
    inner = node.named_children
    return inner[0].type if inner else ""


def _flat(node: Node, kind: str) -> list[Node]:
    """Members of a union or intersection, nested ones and parenthesized ones flattened,
    comments left out (they may stand between members).  Iterative: tree-sitter nests
    ``a | b | c`` to the left, one level per member, so a long union is a deep tree."""
    out: list[Node] = []
    stack = [c for c in reversed(node.named_children) if c.type != "comment"]
    while stack:
        child = stack.pop()
        if child.type == "parenthesized_type":
            inner = _named(child)
            if len(inner) == 1 and inner[0].type == kind:
                child = inner[0]
        if child.type == kind:
            stack.extend(
                c for c in reversed(child.named_children) if c.type != "comment"
            )
        else:
            out.append(child)
    return out


def _any_index(member: Node) -> bool:
    if member.type != "index_signature" or _is_mapped(member):
        return False
    value = member.child_by_field_name("type")
    inner = _named(value)
    return (
        bool(inner)
        and inner[0].type == "predefined_type"
        and node_text(inner[0]) == "any"
    )


def _is_mapped(member: Node) -> bool:
    return member.type == "index_signature" and any(
        c.type == "mapped_type_clause" for c in member.named_children
    )


def _widen(value: TsType) -> TsType:
    """A mutable property's type: literals widen to their primitive."""
    if isinstance(value, Leaf) and isinstance(value.expr, ir.Literal):
        raw = value.expr.value
        if isinstance(raw, bool):
            return BOOLEAN
        if isinstance(raw, str):
            return STRING
        return NUMBER
    return value


def _number_key(value: float) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _key_number(text: str) -> int | float:
    try:
        return int(text)
    except ValueError:
        return float(text)


def _alternation(texts: list[str]) -> str:
    if len(texts) == 1:
        return _regex_escape(texts[0])
    return "(?:" + "|".join(_regex_escape(t) for t in texts) + ")"


def _js_number_text(value: float) -> str:
    """A number as JavaScript's ``String(n)`` writes it (for the usual values)."""
    if isinstance(value, int) or value.is_integer():
        return str(int(value))
    return repr(value)


def _regex_escape(text: str) -> str:
    return "".join("\\" + c if c in ".^$*+?()[]{}|\\/" else c for c in text)


def _heterogeneous(enum: ir.EnumDecl) -> bool:
    """An enum with string and number members (the IR's enums have one base)."""
    return len({type(m.value) for m in enum.members}) > 1
