"""Rust type expressions → IR type expressions, with serde_json's wire forms.

Phase: frontend helper (used by ``rust.decls``).
Inputs: a tree-sitter-rust type node, the names the crate declares, the file's ``use``
imports, the spec's wrapper types (``[rust.wrappers]``) and an optional serde_as ``AsType``.
Outputs: ``ir.TypeExpr``: integers keep their width as ``Constraints`` (``u64`` → minimum 0,
format "uint64"), ``PathBuf`` → string format "path", ``semver::Version`` → string format "semver" (whose
grammar the backends check: ``1.2.3-01`` and ``not-a-version`` do not read), chrono's
``DateTime``/``NaiveDate``/``NaiveDateTime``/``NaiveTime`` → strings (format "date-time",
"date", "time"), ``serde_json::Value``/``RawValue`` → any JSON, ``Vec``/sets → arrays, maps →
``MapOf``, tuples and ``[T; N]`` → ``TupleOf``, ``Option<T>`` (inside containers) →
``T | null``; ``Box``/``Arc``/``Rc``/``Cow``/``&`` are transparent, as are std's
``Cell``/``RefCell``/``Mutex``/``RwLock``/``Wrapping``/``Reverse`` (serde writes their
content) and ``Weak<T>`` is ``T | null`` (serde writes it as ``Option<T>``); a declared wrapper takes
its declared form; ``VecSkipError`` under serde_as → an array that drops unreadable items.
Guarantees: never raises; an unknown generic or a type form serde_json has no wire form for is
SYN003 with the span of the type, and becomes any JSON so the rest of the spec still loads.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

from tree_sitter import Node

from codegen import ir
from codegen.diagnostics import Diagnostics
from codegen.frontends.common.syntax import MAX_TYPE_NESTING, node_text, span_of
from codegen.frontends.rust.crate import parse_tree
from codegen.frontends.rust.paths import Resolver
from codegen.frontends.rust.serde_as import AsType
from codegen.spec.rust_wrappers import WRAPPER_FORMS
from codegen.spec.source import SourceText

_STRING = ir.Primitive(ir.PrimitiveKind.STRING)
_NULL = ir.Primitive(ir.PrimitiveKind.NULL)


def _int(bits: int, signed: bool) -> ir.Primitive:
    low = -(2 ** (bits - 1)) if signed else 0
    high = 2 ** (bits - 1) - 1 if signed else 2**bits - 1
    prefix = "int" if signed else "uint"
    return ir.Primitive(
        ir.PrimitiveKind.INTEGER, ir.Constraints(low, high, f"{prefix}{bits}")
    )


_DATE = r"[+-]?[0-9]{4,}-[0-9]{1,2}-[0-9]{1,2}"
_TIME = r"[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]+)?"
_OFFSET = r"(?:Z|[+-][0-9]{2}:?[0-9]{2})"


def _text(fmt: str, pattern: str) -> ir.Primitive:
    return ir.Primitive(
        ir.PrimitiveKind.STRING, ir.Constraints(format=fmt, pattern=f"^{pattern}$")
    )


PRIMITIVES: dict[str, ir.TypeExpr] = {
    "bool": ir.Primitive(ir.PrimitiveKind.BOOLEAN),
    "str": _STRING,
    "String": _STRING,
    "char": ir.Primitive(
        ir.PrimitiveKind.STRING, ir.Constraints(format="char", pattern="^.$")
    ),
    "f32": ir.Primitive(
        ir.PrimitiveKind.NUMBER, ir.Constraints(format="float", binary_float=True)
    ),
    "f64": ir.Primitive(
        ir.PrimitiveKind.NUMBER, ir.Constraints(format="double", binary_float=True)
    ),
    **{f"u{bits}": _int(bits, False) for bits in (8, 16, 32, 64, 128)},
    **{f"i{bits}": _int(bits, True) for bits in (8, 16, 32, 64, 128)},
    "usize": _int(64, False),
    "isize": _int(64, True),
}

# Full paths of library types with a fixed serde_json wire form.
KNOWN_PATHS: dict[str, ir.TypeExpr] = {
    "std::path::PathBuf": ir.Primitive(
        ir.PrimitiveKind.STRING, ir.Constraints(format="path")
    ),
    "std::path::Path": ir.Primitive(
        ir.PrimitiveKind.STRING, ir.Constraints(format="path")
    ),
    # The bindings check the semver crate's grammar for this format (wire_formats).
    "semver::Version": ir.Primitive(
        ir.PrimitiveKind.STRING, ir.Constraints(format="semver")
    ),
    "url::Url": ir.Primitive(ir.PrimitiveKind.STRING, ir.Constraints(format="uri")),
    "uuid::Uuid": ir.Primitive(ir.PrimitiveKind.STRING, ir.Constraints(format="uuid")),
    # chrono's serde forms: RFC 3339 with an offset (``T`` or a space), a date, a time.
    "chrono::DateTime": _text("date-time", f"{_DATE}[T ]{_TIME}{_OFFSET}"),
    "chrono::NaiveDateTime": _text("naive-date-time", f"{_DATE}T{_TIME}"),
    "chrono::NaiveDate": _text("date", _DATE),
    "chrono::NaiveTime": _text("time", _TIME),
    "serde_json::Value": ir.AnyJson(),
    "serde_json::value::Value": ir.AnyJson(),
    "serde_json::value::RawValue": ir.AnyJson(),
    "serde_json::value::Map": ir.AnyJson(object_only=True),
    "serde_json::Map": ir.AnyJson(object_only=True),
    "std::string::String": _STRING,
}
# Bare names that mean the library type when the spec neither declares nor imports them.
_BARE = {
    "PathBuf": "std::path::PathBuf",
    "Path": "std::path::Path",
    "Value": "serde_json::Value",
    "RawValue": "serde_json::value::RawValue",
}
_SEQUENCES = {"Vec", "VecDeque", "HashSet", "BTreeSet", "IndexSet", "LinkedList"}
_MAPS = {"HashMap", "BTreeMap", "IndexMap"}
_WRAPPERS = {"Box", "Arc", "Rc", "Cow"}
# std types serde writes as their content (serde's impls for Cell, RefCell, Mutex, RwLock,
# Wrapping, Reverse); `Weak<T>` (std::rc / std::sync, serde's "rc" feature) is written as
# `Option<T>` (none once the value is gone) and read from one.  Only when the name is not
# the crate's own type.
_STD_TRANSPARENT = {"Cell", "RefCell", "Mutex", "RwLock", "Wrapping", "Reverse"}
_WEAK = "Weak"


def generic_base(node: Node) -> str | None:
    """The last path segment of a generic type's name (``Option`` for
    ``std::option::Option<T>``), else None."""
    if node.type != "generic_type":
        return None
    return node_text(node.child_by_field_name("type")).rsplit("::", 1)[-1]


def type_args(node: Node) -> list[Node]:
    arguments = node.child_by_field_name("type_arguments")
    if arguments is None:
        return []
    return [
        child
        for child in arguments.named_children
        if child.type not in ("lifetime", "line_comment", "block_comment")
    ]


def is_option(node: Node) -> Node | None:
    """The ``T`` of ``Option<T>`` (or ``std::option::Option<T>``), else None."""
    if generic_base(node) != "Option":
        return None
    args = type_args(node)
    return args[0] if len(args) == 1 else None


@dataclass
class CrateNames:
    """What a type path may name in the crate: its wire types (by full path, with their IR
    names), its generic declarations and its other type items (declared, but with no derived
    serde form)."""

    resolver: Resolver = field(default_factory=Resolver)
    names: dict[str, str] = field(default_factory=dict)  # full path → IR name
    generic: set[str] = field(default_factory=set)  # full paths
    others: dict[str, str] = field(default_factory=dict)  # full path → "src/x.rs:12"
    # full path → what writes its wire form instead of a derive ("a hand-written Serialize
    # impl at src/x.rs:20", "bitflags!"); the types reported so far (once each)
    handwritten: dict[str, str] = field(default_factory=dict)
    reported: set[str] = field(default_factory=set)
    widths: dict[str, str] = field(default_factory=dict)  # bitflags! type → "u32"
    # full path → a function of the crate (``schemars(schema_with = ...)`` targets)
    functions: dict[str, tuple[Node, SourceText]] = field(default_factory=dict)
    # (type's full path, associated type name) → the type an ``impl Trait for Type``
    # gives it (``type Item = String;``), with the impl's source and module
    associated: dict[tuple[str, str], tuple[Node, SourceText, str]] = field(
        default_factory=dict
    )
    discriminants: dict[str, tuple[int, ...]] = field(default_factory=dict)
    # (generic's full path, argument types, their Rust text, use span) → the instance's IR
    # name (``rust.generics``), None when it cannot be made (reported)
    instantiate: (
        Callable[[str, list[ir.TypeExpr], list[str], ir.Span], str | None] | None
    ) = None


@dataclass
class TypeConverter:
    source: SourceText
    diags: Diagnostics
    module: str  # the module whose names the types use: "crate::v1::agent"
    crate: CrateNames = field(default_factory=CrateNames)
    wrappers: dict[str, str] = field(default_factory=dict)  # name → form
    depth: int = 0  # how deep the type expression being converted is, so far
    # a generic instance's type parameters → their arguments' IR types
    bindings: dict[str, ir.TypeExpr] = field(default_factory=dict)
    # a type parameter bound to a crate type → that type's full path (for ``T::Item``);
    # of those, the ones that are not wire types (an error only where used on the wire)
    binding_paths: dict[str, str] = field(default_factory=dict)
    not_wire: set[str] = field(default_factory=set)

    def resolve(self, text: str) -> str | None:
        """The full path a type path names here (``crate::...`` for the crate's own items,
        a library path with imports expanded otherwise)."""
        return self.crate.resolver.resolve(self.module, text)

    def ref_name(self, node: Node | None, depth: int = 0) -> str | None:
        """The IR name of the wire type a type node names, looking through the transparent
        wrappers (``Box<T>``, ``&T``, ...); None when it names none.  No diagnostics."""
        if node is None or depth > MAX_TYPE_NESTING:
            return None
        if node.type == "reference_type":
            return self.ref_name(node.child_by_field_name("type"), depth + 1)
        if node.type == "generic_type" and generic_base(node) in _WRAPPERS:
            args = type_args(node)
            return self.ref_name(args[0], depth + 1) if len(args) == 1 else None
        if node.type not in ("type_identifier", "scoped_type_identifier"):
            return None
        full = self.resolve(node_text(node))
        return self.crate.names.get(full) if full is not None else None

    def wrapper_arg(self, node: Node, form: str) -> Node | None:
        """The ``T`` of ``W<T>`` when ``W`` is a declared wrapper of this form."""
        base = generic_base(node)
        if base is None or self.wrappers.get(base) != form:
            return None
        args = type_args(node)
        return args[0] if len(args) == 1 else None

    def convert(self, node: Node, as_type: AsType | None = None) -> ir.TypeExpr:
        # A bound, not Python's stack: every later phase walks type expressions
        # recursively too, so `Vec<Vec<...>>` thousands deep stops here as a diagnostic
        # at the innermost type that is too deep, rather than as a RecursionError.
        if self.depth >= MAX_TYPE_NESTING:
            self.diags.report(
                "SYN003",
                f"a type nested more than {MAX_TYPE_NESTING} levels deep; read as any "
                "JSON value",
                span_of(self.source, node),
            )
            return ir.AnyJson()
        self.depth += 1
        try:
            return self._convert(node, as_type)
        finally:
            self.depth -= 1

    def _convert(self, node: Node, as_type: AsType | None) -> ir.TypeExpr:
        if as_type is not None and not as_type.is_same:
            adapted = self._as(node, as_type)
            if adapted is not None:
                return adapted
        kind = node.type
        if kind == "primitive_type":
            return PRIMITIVES.get(node_text(node), _STRING)
        if kind in ("type_identifier", "scoped_type_identifier"):
            return self._named(node)
        if kind == "reference_type":
            inner = node.child_by_field_name("type")
            return (
                self.convert(inner, as_type) if inner is not None else self._bad(node)
            )
        if kind == "generic_type":
            return self._generic(node, as_type)
        if kind == "tuple_type":
            return ir.TupleOf(tuple(self.convert(c) for c in node.named_children))
        if kind == "unit_type":
            return _NULL
        if kind == "array_type":
            return self._array(node)
        return self._bad(node)

    def _as(self, node: Node, as_type: AsType) -> ir.TypeExpr | None:
        """serde_as adapters that change the read form of ``node``."""
        args = type_args(node) if node.type == "generic_type" else []
        base = generic_base(node)
        if as_type.name == "VecSkipError" and base in _SEQUENCES and len(args) == 1:
            return ir.ArrayOf(self.convert(args[0], as_type.arg()), skip_invalid=True)
        if as_type.name == "DisplayFromStr":
            return _STRING
        if as_type.name in ("Option", *self.wrappers) and base == as_type.name:
            return None  # handled by _generic with the inner adapter
        return None

    def convert_text(self, text: str, span: ir.Span) -> ir.TypeExpr:
        """A type named in an attribute string (``from = "i32"``)."""
        return self._path_type(text.replace(" ", ""), span)

    def _named(self, node: Node) -> ir.TypeExpr:
        text = node_text(node).replace(" ", "")
        if text in self.wrappers:
            return self._wrapper(self.wrappers[text], None, None, node)
        return self._path_type(text, span_of(self.source, node))

    def _path_type(self, text: str, span: ir.Span) -> ir.TypeExpr:
        if text in self.not_wire:
            path = self.binding_paths[text]
            return self._not_wire(path, path.rsplit("::", 1)[-1], span)
        if text in self.bindings:
            return self.bindings[text]
        param, _, assoc = text.partition("::")
        if param in self.binding_paths and assoc and "::" not in assoc:
            return self._associated(self.binding_paths[param], assoc, text, span)
        name = text.rsplit("::", 1)[-1]
        full = self.resolve(text)
        if full is not None and full in self.crate.names:
            return ir.Ref(self.crate.names[full], span)
        if full in self.crate.generic and self.crate.instantiate is not None:
            instance = self.crate.instantiate(full, [], [], span)
            return ir.Ref(instance, span) if instance is not None else ir.AnyJson()
        if full is not None and self.crate.resolver.is_crate_path(full):
            return self._not_wire(full, text, span)
        if "::" not in text and name in PRIMITIVES:
            return PRIMITIVES[name]
        library = full if full is not None else text
        known = KNOWN_PATHS.get(library) or KNOWN_PATHS.get(_BARE.get(library, ""))
        if known is not None:
            return known
        if "::" in library:
            self.diags.report(
                "SYN003",
                f"{text} is neither declared in this crate nor a library type with a "
                "known serde wire form; read as any JSON value",
                span,
            )
            return ir.AnyJson()
        hidden = [p for p, n in self.crate.names.items() if n == name]
        if hidden:
            # A crate type of that IR name is not in scope here (private to its module,
            # or never imported): a Ref would silently bind to it.
            self.diags.report(
                "REF001",
                f"{name} is not in scope in {self.module} ({hidden[0]} is declared but "
                "neither declared here nor imported, or private to its module); read "
                "as any JSON value",
                span,
            )
            return ir.AnyJson()
        # An undeclared bare name: the reference pass reports it (REF001).
        return ir.Ref(name, span)

    def _associated(
        self, owner: str, assoc: str, text: str, span: ir.Span
    ) -> ir.TypeExpr:
        """``T::Item`` with T bound to a crate type: the type its trait impl gives
        ``Item`` (``impl Iterator for MyIterator { type Item = String; }``)."""
        found = self.crate.associated.get((owner, assoc))
        if found is None:
            self.diags.report(
                "SYN003",
                f"{text}: no `type {assoc} = ...` in an impl for {owner}; read as any "
                "JSON value",
                span,
            )
            return ir.AnyJson()
        node, source, module = found
        converter = TypeConverter(source, self.diags, module, self.crate, self.wrappers)
        return converter.convert(node)

    def lenient_arg(self, node: Node) -> tuple[ir.TypeExpr, str] | None:
        """A type argument that names a crate type with no serde form (``MyIterator``
        in ``MyContainer<MyIterator>``): a placeholder and its full path, reported only
        where the instance puts it on the wire; None for any other argument."""
        if node.type not in ("type_identifier", "scoped_type_identifier"):
            return None
        full = self.resolve(node_text(node).replace(" ", ""))
        if full is None or full not in self.crate.others:
            return None
        return ir.AnyJson(), full

    def _not_wire(self, full: str, text: str, span: ir.Span) -> ir.TypeExpr:
        """A crate item that is not a wire type: say what it is and where."""
        where = self.crate.others.get(full)
        if full in self.crate.generic:
            message = (
                f"{text} is a generic declaration used without type arguments; read as "
                "any JSON value"
            )
        elif where is not None:
            if full in self.crate.reported:
                return ir.AnyJson()  # said once, at the first use
            self.crate.reported.add(full)
            name = full.rsplit("::", 1)[-1]
            how = self.crate.handwritten.get(full)
            found = (
                f"its wire form is hand-written ({how})"
                if how is not None
                else "it derives neither Serialize nor Deserialize"
            )
            suggestion = "bitflags" if how == "bitflags!" else "string"
            message = (
                f"`{name}` is defined at {where} but {found}; declare its wire form in "
                f'spec.toml: [rust.wrappers] {name} = "{suggestion}" (or "string", '
                '"integer", "integer-enum", "bitflags", "any", or a Rust type such as '
                '"Vec<String>"); read as any JSON value until then'
            )
        else:
            # a module path, or an item of a module whose file is missing (SYN002)
            message = (
                f"{text} names {full}, which is not a type this crate declares with the "
                "selected features; read as any JSON value"
            )
        self.diags.report("SYN003", message, span)
        return ir.AnyJson()

    def _generic(self, node: Node, as_type: AsType | None) -> ir.TypeExpr:
        path = node_text(node.child_by_field_name("type")).replace(" ", "")
        base = path.rsplit("::", 1)[-1]
        args = type_args(node)
        inner_as = (
            as_type.arg() if as_type is not None and as_type.name == base else None
        )
        if path in self.wrappers:
            return self._wrapper(
                self.wrappers[base], args[0] if args else None, inner_as, node
            )
        full = self.resolve(path) or path
        if not args and self.crate.resolver.is_crate_path(full):
            # ``Outer<'a>``: lifetimes only, the crate's own type (or why it is none)
            return self._path_type(path, span_of(self.source, node))
        if base == "PhantomData" and not self.crate.resolver.is_crate_path(full):
            # serde writes a PhantomData as unit (null) and reads only null; its type
            # argument never reaches the wire
            return _NULL
        if base == "DateTime" and full.startswith("chrono::"):
            return KNOWN_PATHS["chrono::DateTime"]
        if base == "Option" and len(args) == 1:
            return ir.InlineUnion((self.convert(args[0], inner_as), _NULL))
        if base in _SEQUENCES and len(args) == 1:
            return ir.ArrayOf(self.convert(args[0]))
        if base in _MAPS and len(args) in (2, 3):
            key = self.convert(args[0])
            # A BTreeMap<String, _> writes its keys in byte order (code point order in
            # Python); other key types order by their own Ord, which is not modelled.
            return ir.MapOf(
                self.convert(args[1]),
                key=key,
                sorted_keys=base == "BTreeMap" and key == _STRING,
            )
        if base in _WRAPPERS and len(args) == 1:
            return self.convert(args[0], as_type)
        if len(args) == 1 and not self.crate.resolver.is_crate_path(full):
            if base in _STD_TRANSPARENT:
                return self.convert(args[0], as_type)
            if base == _WEAK:
                return ir.InlineUnion((self.convert(args[0]), _NULL))
        if base == "Map" and len(args) == 2:
            return ir.AnyJson(object_only=True)
        if full in self.crate.generic and self.crate.instantiate is not None:
            span = span_of(self.source, node)
            converted: list[ir.TypeExpr] = []
            texts: list[str] = []
            for arg in args:
                lenient = self.lenient_arg(arg)
                if lenient is not None:
                    # passed by full path: a non-wire crate type (``crate::m::X``)
                    converted.append(lenient[0])
                    texts.append(lenient[1])
                    continue
                converted.append(self.convert(arg))
                texts.append(node_text(arg))
            instance = self.crate.instantiate(full, converted, texts, span)
            return ir.Ref(instance, span) if instance is not None else ir.AnyJson()
        if full in self.crate.generic:
            self.diags.report(
                "SYN003",
                f"{base} is a generic declaration, which is not modelled; "
                f"{node_text(node)[:60]!r} is read as any JSON value",
                span_of(self.source, node),
            )
            return ir.AnyJson()
        return self._bad(node)

    def _wrapper(
        self, form: str, arg: Node | None, as_type: AsType | None, node: Node
    ) -> ir.TypeExpr:
        if form == "any":
            return ir.AnyJson()
        if form == "string":
            return _STRING
        if form in ("integer", "integer-enum", "bitflags"):
            return self._integer_form(form, node)
        if form not in WRAPPER_FORMS:  # a Rust type, written in spec.toml
            return self._declared_type(form)
        if arg is None:
            return self._bad(node)
        inner = self.convert(arg, as_type)
        if form == "transparent":
            return inner
        return ir.InlineUnion((inner, _NULL))  # option, tri-state: null is a value

    def _declared_type(self, form: str) -> ir.TypeExpr:
        """A ``[rust.wrappers]`` form written as a Rust type, read where it is used."""
        snippet = SourceText("spec.toml", f"type Declared = {form};")
        item = parse_tree(snippet).named_children
        target = item[0].child_by_field_name("type") if item else None
        if target is None or item[0].has_error:
            self.diags.report(
                "CFG002",
                f"[rust.wrappers] form {form!r} is neither a form nor a Rust type",
                ir.Span("spec.toml", 1, 1),
            )
            return ir.AnyJson()
        return replace(self, source=snippet).convert(target)

    def _integer_form(self, form: str, node: Node) -> ir.TypeExpr:
        """A declared integer form: an integer enum of the type's discriminants, or the
        flags' integer of the bitflags! width; else any integer."""
        text = node_text(node).split("<", 1)[0].replace(" ", "")
        full = self.resolve(text) or text
        values = self.crate.discriminants.get(full)
        if form == "integer-enum" and values:
            return ir.InlineUnion(tuple(ir.Literal(v) for v in values))
        width = self.crate.widths.get(full)
        if width is not None and width in PRIMITIVES:
            return PRIMITIVES[width]
        return ir.Primitive(ir.PrimitiveKind.INTEGER)

    def _array(self, node: Node) -> ir.TypeExpr:
        element = node.child_by_field_name("element")
        length = node.child_by_field_name("length")
        if element is None:
            return self._bad(node)
        item = self.convert(element)
        text = node_text(length)
        if length is not None and text.isdigit() and int(text) <= 32:
            return ir.TupleOf(tuple(item for _ in range(int(text))))
        return ir.ArrayOf(item)

    def _bad(self, node: Node) -> ir.TypeExpr:
        self.diags.report(
            "SYN003",
            f"type {node_text(node)[:60]!r} has no serde wire form this frontend knows; "
            "read as any JSON value",
            span_of(self.source, node),
        )
        return ir.AnyJson()
