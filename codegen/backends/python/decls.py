"""Declarations of the Python bindings: structs → models, enums, aliases.

Phase: backend (Python bindings), after ``annotations`` (annotations) and before the
templates.
Inputs: a normalized ``ir.Protocol``, one ``ir.StructDecl`` / ``ir.EnumDecl`` /
``ir.AliasDecl`` at a time.
Outputs: ``DeclBuilder``: a ``DeclView`` per declaration (``struct``, ``enum``,
``alias``) and per synthesized model (``model``, used for union wrappers);
``definition_order`` of the views.
Guarantees: a model has every wire field in wire order (bases and flattened structs
inlined); may be absent → ``T | MISSING = MISSING`` (and, when absent means a default,
left out on writing while it holds that default, as serde's ``skip_serializing_if`` with
``default`` and Go's ``omitempty`` do); nullable → ``T | None``; tag
fields of union variants narrowed to the union's tag values; enums are ``StrEnum`` /
``IntEnum`` / ``IntFlag`` (``boundary=STRICT``); names used at import time are
defined before their use.
"""

from __future__ import annotations

import json
from dataclasses import replace

from codegen import ir, naming
from codegen.backends.python.annotations import ANY_JSON, TypeAnnotator
from codegen.backends.python.imports import names_in
from codegen.backends.python.names import tag_overrides
from codegen.backends.python.text import docstring, lifecycle_text, py_literal
from codegen.backends.python.views import DeclView, FieldView, MemberView
from codegen.ir.index import Index

__all__ = ["DeclBuilder", "definition_order"]

# ``NewType`` needs a class: these annotations are one; unions and ``Annotated`` are not.
_SIMPLE_NEWTYPE_TARGETS = frozenset({"str", "int", "bool"})


class DeclBuilder(TypeAnnotator):
    """The views of structs, enums, aliases and synthesized models of one protocol."""

    def __init__(self, protocol: ir.Protocol) -> None:
        super().__init__(protocol)
        self._tags = tag_overrides(protocol, self.index)
        self._uses = _method_uses(protocol)

    def attrs(self, fields: list[ir.Field]) -> dict[str, str]:
        """Wire name → the attribute of a model with these fields."""
        return naming.assign_names([f.wire_name for f in fields], naming.attribute_name)

    def struct(self, struct: ir.StructDecl) -> DeclView:
        fields = self.index.wire_fields(struct)
        extra_type = self.index.index_value(struct)
        sorted_extra = False
        extra_after: list[str] | None = None  # wire keys written before a flattened map
        kept: list[ir.Field] = []
        for fld in fields:
            if fld.flatten and self.index.struct_of(fld.type) is None:
                extra_after = [k.wire_name for k in kept]
                # A flattened map (serde ``#[serde(flatten)] extra: HashMap``): its
                # entries are the object's extra keys.
                resolved = self.index.resolve(fld.type)
                extra_type = (
                    resolved.values if isinstance(resolved, ir.MapOf) else ir.AnyJson()
                )
                sorted_extra = isinstance(resolved, ir.MapOf) and resolved.sorted_keys
                continue
            kept.append(fld)
        if extra_type is not None and self.index.numeric_index(struct):
            # ``[k: number]: T`` beside members: the extra keys are any JSON, the
            # numeric names among them checked as ``T`` (and the others refused when
            # the object is closed)
            entry = self.annotation(extra_type, strict=True)
            closed_numeric = struct.extra_keys is ir.ExtraKeys.FORBID
            extra_type = ir.AnyJson()
            # The entry's adapter is built once per class, on first use (building one
            # is the dearest step of a read; forward references resolve by then).
            body_numeric: tuple[str, ...] = (
                "    _numeric_entry: ClassVar[TypeAdapter[Any] | None] = None",
                "",
                '    @model_validator(mode="after")',
                "    def _numeric_keys(self) -> Self:",
                "        cls = type(self)",
                "        if cls._numeric_entry is None:",
                f"            cls._numeric_entry = TypeAdapter({entry})",
                "        _numeric_entries(",
                f"            self.__pydantic_extra__, cls._numeric_entry, {closed_numeric}",
                "        )",
                "        return self",
            )
        else:
            body_numeric = ()
        bases = ", ".join(b.name for b in struct.bases)
        notes = (
            (
                f"Extends {bases} (their fields are inlined, in wire order)."
                if bases
                else ""
            ),
            f"Synthesized from `{struct.derived_from}`." if struct.derived_from else "",
        )
        docs = struct.lifecycle.docs.strip() or self._uses.get(struct.name, "")
        body: tuple[str, ...] = body_numeric
        if extra_after is not None and len(extra_after) < len(kept):
            # serde writes a flattened map's entries where the map stands; pydantic
            # writes extra keys last.
            before = ", ".join(json.dumps(k) for k in extra_after)
            before = f"({before},)" if len(extra_after) == 1 else f"({before})"
            body += (
                '    @model_serializer(mode="wrap")',
                "    def _extra_in_place(",
                "        self, handler: SerializerFunctionWrapHandler",
                "    ) -> Any:",
                f"        return _extra_at(handler(self), {before}, self.__pydantic_extra__)",
            )
        if sorted_extra:
            body += (
                '    @model_validator(mode="after")',
                "    def _sorted_extra(self) -> Self:",
                "        # A flattened BTreeMap: serde writes its entries in key order.",
                "        if self.__pydantic_extra__:",
                "            self.__pydantic_extra__ = _sorted_keys(self.__pydantic_extra__)",
                "        return self",
            )
        unread = [k for f in kept if not f.read for k in f.read_keys()]
        if unread:
            closed = struct.extra_keys is ir.ExtraKeys.FORBID and extra_type is None
            listed = ", ".join(json.dumps(k) for k in unread)
            listed = f"({listed},)" if len(unread) == 1 else f"({listed})"
            # serde's skip_deserializing: a reader takes no value from the key (an
            # unknown key: refused by a closed struct, else ignored); the default fills it
            check = (
                (
                    f"        if isinstance(data, dict) and any(k in data for k in {listed}):",
                    '            raise ValueError("unknown field")',
                    "        return data",
                )
                if closed
                else (
                    "        if not isinstance(data, dict):",
                    "            return data",
                    f"        return {{k: v for k, v in data.items() if k not in {listed}}}",
                )
            )
            body += (
                '    @model_validator(mode="before")',
                "    @classmethod",
                "    def _never_read(cls, data: Any) -> Any:",
                *check,
            )
        if struct.array_form is not None:
            keys = ", ".join(f"({json.dumps(k)}, {o})" for k, o in struct.array_form)
            keys = f"({keys},)" if len(struct.array_form) == 1 else f"({keys})"
            # serde_json also reads the struct from an array of its fields.
            body += (f"    __array_form__ = {keys}",)
        return self.model(
            name=self.names[struct.name],
            struct_name=struct.name,
            body=body,
            fields=kept,
            closed=struct.extra_keys is ir.ExtraKeys.FORBID and extra_type is None,
            extra_type=extra_type,
            doc=lifecycle_text(
                docs or f"`{struct.name}` (the spec does not describe it).",
                struct.lifecycle,
                *notes,
            ),
            exported=struct.exported,
        )

    def model(
        self,
        *,
        name: str,
        struct_name: str | None,
        fields: list[ir.Field],
        closed: bool,
        extra_type: ir.TypeExpr | None,
        doc: str,
        exported: bool = True,
        tag_aliases: dict[str, tuple[str, ...]] | None = None,
        body: tuple[str, ...] = (),
    ) -> DeclView:
        attrs = self.attrs(fields)
        views: list[FieldView] = []
        for fld in fields:
            tags = self._tags.get((struct_name or "", fld.wire_name))
            if tags is not None and _is_literal_like(self.index, fld.type):
                tags = None
            aliases = (tag_aliases or {}).get(fld.wire_name)
            views.append(self._field(fld, attrs[fld.wire_name], tags, aliases))
        extra = ""
        if extra_type is not None:
            # Extra keys are validated without the model's strict config: strict scalars.
            extra = f"dict[str, {self.annotation(extra_type, strict=True)}]"
        return DeclView(
            kind="model",
            name=name,
            doc=docstring(doc, "    "),
            base="_ClosedModel" if closed else "_Model",
            fields=tuple(views),
            extra=extra,
            exported=exported,
            runtime="\n".join(v.value for v in views if v.value),
            body=body,
        )

    def _field(
        self,
        fld: ir.Field,
        attr: str,
        tags: tuple[str | int | bool, ...] | None,
        aliases: tuple[str, ...] | None,
    ) -> FieldView:
        annotation = self.tag_literal(fld, tags) if tags else self.annotation(fld.type)
        default: str | None = None
        extra_args: list[str] = []
        default_value: object = None
        has_default = False
        if fld.default_json is not None:
            try:
                default_value, has_default = json.loads(fld.default_json), True
            except ValueError:
                has_default = False
        nullable = fld.nullable or (
            fld.presence is ir.Presence.WRITTEN_ALWAYS_READ_OPTIONAL
            and has_default
            and default_value is None
        )
        if nullable and not _admits_none(annotation):
            annotation = f"{annotation} | None"
        notes: list[str] = []
        if fld.presence is ir.Presence.OPTIONAL or (
            fld.presence is ir.Presence.WRITTEN_ALWAYS_READ_OPTIONAL
            and not nullable
            and not has_default
        ):
            annotation = f"{annotation} | MISSING"
            default = "MISSING"
            if has_default:
                notes.append(f"Default when absent: `{fld.default_json}`.")
            if has_default and fld.presence is ir.Presence.OPTIONAL:
                # May be absent, and absent means the default: the writer leaves it out.
                helper = (
                    "_equals"
                    if _compares_as_json(self.index, fld.type, default_value)
                    else "_left_out_when"
                )
                extra_args.append(f"exclude_if={helper}({py_literal(default_value)})")
        elif fld.presence is ir.Presence.WRITTEN_ALWAYS_READ_OPTIONAL:
            if default_value is None:
                default = "None"
            else:
                default, extra_args = self._default(fld.type, default_value)
        if fld.read_required:
            default = None  # a writer may leave it out; a reader requires it
        if not fld.written:
            extra_args.append("exclude=True")  # serde's skip_serializing
        annotation = self._read_rules(fld, annotation, has_default, default_value)
        if fld.allowed_values_note:
            notes.insert(0, f"Allowed values: {fld.allowed_values_note}")
        # One legal value and no default: type checkers see a default, the constructor
        # fills it in (``_Model.__init__``), a message read from the wire must carry it.
        filled = (
            default is None
            and not nullable
            and _single_literal(self.index, fld.type, tags)
        )
        args: list[str] = []
        if default is not None and (
            aliases or attr != fld.wire_name or extra_args or fld.read_names
        ):
            args.append(
                default
                if default.startswith("default_factory=")
                else f"default={default}"
            )
        if aliases and len(aliases) > 1:
            choices = ", ".join(json.dumps(a) for a in aliases)
            args.append(f"validation_alias=AliasChoices({choices})")
            args.append(f"serialization_alias={json.dumps(aliases[0])}")
        elif fld.read_names:
            # serde reads other keys than it writes (rename per direction, alias)
            read = fld.read_names
            choices = (
                json.dumps(read[0])
                if len(read) == 1
                else f"AliasChoices({', '.join(json.dumps(a) for a in read)})"
            )
            args.append(f"validation_alias={choices}")
            args.append(f"serialization_alias={json.dumps(fld.wire_name)}")
        elif attr != fld.wire_name:
            # Not ``alias=``: type checkers would take the wire name for the
            # constructor's parameter (PEP 681); these leave it the attribute name.
            wire = json.dumps(fld.wire_name)
            args.append(f"validation_alias={wire}, serialization_alias={wire}")
        args.extend(extra_args)
        if filled:
            value = f"_filled({', '.join(args)})"
        elif args:
            value = f"Field({', '.join(args)})"
        else:
            value = default or ""
        statement = f"{attr}: {annotation}" + (f" = {value}" if value else "")
        doc = lifecycle_text(fld.lifecycle.docs, fld.lifecycle, *notes)
        return FieldView(attr, annotation, value, statement, docstring(doc, "    "))

    def _read_rules(
        self, fld: ir.Field, annotation: str, has_default: bool, default: object
    ) -> str:
        """serde's lenient reads: the value a writer leaves out reads as absent
        (``skip_serializing_if``), and a value that does not read becomes the default
        (serde_with ``DefaultOnError``)."""
        validators: list[str] = []
        if (
            fld.omitted_value == "null"
            and has_default
            and not annotation.endswith(" | MISSING")
        ):
            # A field a reader fills when absent (encoding/json's non-pointer values):
            # null reads as the absent key, i.e. the default.
            validators.append("_NULL_READS_DEFAULT")
        elif fld.omitted_value is not None:
            omitted = json.loads(fld.omitted_value)
            if omitted is None and not _admits_none(
                annotation.removesuffix(" | MISSING")
            ):
                annotation = annotation.replace(" | MISSING", " | None | MISSING")
            validators.append(f"_omitted({py_literal(omitted)})")
        if fld.default_on_error:
            if fld.presence is ir.Presence.OPTIONAL or not has_default:
                fallback = "MISSING" if "MISSING" in annotation else "None"
                # pydantic-core's own ``on_error`` where the fallback needs no reading.
                native = fallback == "MISSING" or _admits_none(
                    annotation.removesuffix(" | MISSING")
                )
            else:
                fallback = py_literal(default)
                native = _reads_as_itself(self.index, fld.type, default)
            if native:
                validators.append(f"_on_error({fallback})")
            else:
                validators.append(f"_read_or_default({fallback})")
        if not validators:
            return annotation
        return f"Annotated[{annotation}, {', '.join(validators)}]"

    def _default(self, expr: ir.TypeExpr, value: object) -> tuple[str, list[str]]:
        """The default of an always-written field: a plain literal when the annotation
        is a primitive, an enum member for enums, else a validated JSON default.
        """
        resolved = self.index.resolve(expr)
        if isinstance(resolved, ir.Primitive) and _is_instance_of(value, resolved.kind):
            return py_literal(value), []
        if isinstance(resolved, ir.Ref) and isinstance(value, (str, int)):
            enum = self.index.get(resolved.name)
            if isinstance(enum, ir.EnumDecl) and not enum.flags:
                member = self.enum_member(enum, value, by_name=False)
                if member is not None:
                    return member, []
        return f"default_factory=lambda: _json_default({py_literal(value)})", [
            "validate_default=True"
        ]

    def enum(self, enum: ir.EnumDecl) -> DeclView:
        if enum.flags:
            base = "_WireEnum, IntFlag, boundary=STRICT"
        elif enum.base is ir.EnumBase.STRING:
            base = "_WireEnum, StrEnum"
        else:
            base = "_WireEnum, IntEnum"
        table = self.members[enum.name]
        members = tuple(
            MemberView(
                table[m.name],
                py_literal(m.value),
                docstring(lifecycle_text(m.lifecycle.docs, m.lifecycle), "    "),
            )
            for m in enum.members
        )
        notes = [
            (
                "A bit-flag enum: every combination of its members is a valid value."
                if enum.flags
                else ""
            ),
            (
                "Open: fields of this type also accept values that are not members."
                if enum.open
                else ""
            ),
        ]
        docs = (
            enum.lifecycle.docs.strip()
            or f"`{enum.name}` (the spec does not describe it)."
        )
        body: tuple[str, ...] = ()
        if enum.open and not enum.flags:
            wire = "str" if enum.base is ir.EnumBase.STRING else "int"
            body = (
                "    @classmethod",
                "    def _missing_(cls, value: object) -> Any:",
                f'        """An open enum: any other {wire} reads as itself."""',
                f"        return _open_member(cls, value, {wire})",
            )
        if enum.map_form and enum.base is ir.EnumBase.STRING:
            known = (
                "None"
                if enum.catch_all is not None
                else "("
                + "".join(f"{py_literal(m.value)}, " for m in enum.members)
                + ")"
            )
            body += (
                "    @classmethod",
                "    def _wire_form(cls, value: Any) -> Any:",
                '        # serde_json also reads a member as {"member": null}.',
                f"        return _unit_map(value, {known})",
            )
        if enum.catch_all is not None and enum.catch_all in table:
            member = table[enum.catch_all]
            wire = "str" if enum.base is ir.EnumBase.STRING else "int"
            body += (
                "    @classmethod",
                "    def _missing_(cls, value: object) -> Any:",
                f'        """Any other {wire} reads as ``{member}`` (serde: other)."""',
                f"        return cls.{member} if isinstance(value, {wire}) else None",
            )
            notes.append(
                f"Any other value reads as `{member}`, which is what a writer writes."
            )
        return DeclView(
            kind="enum",
            body=body,
            name=self.names[enum.name],
            doc=docstring(lifecycle_text(docs, enum.lifecycle, *notes), "    "),
            base=base,
            members=members,
            exported=enum.exported,
        )

    def alias(self, alias: ir.AliasDecl) -> DeclView:
        name = self.names[alias.name]
        doc = docstring(lifecycle_text(alias.lifecycle.docs, alias.lifecycle), "")
        if alias.kind is ir.AliasKind.EXTERNAL:
            return DeclView(
                kind="alias",
                name=name,
                doc=doc,
                comment=(
                    f"{alias.name} is defined outside this spec: any JSON value.",
                ),
                value=ANY_JSON,
                exported=alias.exported,
            )
        target = self.annotation(alias.target, strict=True)
        simple = target in _SIMPLE_NEWTYPE_TARGETS or self._is_class(alias.target)
        kind = "newtype" if alias.kind is ir.AliasKind.NEWTYPE and simple else "alias"
        return DeclView(
            kind=kind,
            name=name,
            doc=doc,
            value=target,
            exported=alias.exported,
            runtime=target,
        )

    def _is_class(self, expr: ir.TypeExpr) -> bool:
        if not isinstance(expr, ir.Ref):
            return False
        decl = self.index.get(expr.name)
        if isinstance(decl, ir.StructDecl):
            return True
        if isinstance(decl, ir.EnumDecl):
            return not decl.open
        if isinstance(decl, ir.AliasDecl) and decl.kind is ir.AliasKind.NEWTYPE:
            target = self.annotation(decl.target, strict=True)
            return target in _SIMPLE_NEWTYPE_TARGETS or self._is_class(decl.target)
        return False


def _method_uses(protocol: ir.Protocol) -> dict[str, str]:
    """Struct name → a sentence naming the methods whose params or result it is: the
    docstring of a type the spec leaves undocumented (most ``*Params``)."""
    uses: dict[str, list[str]] = {}
    for method in protocol.methods:
        for role, expr in (("params", method.params), ("result", method.result)):
            if isinstance(expr, ir.Ref):
                kind = method.kind.value
                text = f"the {role} of the `{method.wire_name}` {kind} ({method.direction.arrow()})"
                uses.setdefault(expr.name, []).append(text)
    return {
        name: texts[0][0].upper() + "; ".join(texts)[1:] + "."
        for name, texts in uses.items()
    }


def _is_instance_of(value: object, kind: ir.PrimitiveKind) -> bool:
    """Whether a JSON value is of a primitive kind (so it can be a plain default)."""
    if kind is ir.PrimitiveKind.BOOLEAN or isinstance(value, bool):
        return kind is ir.PrimitiveKind.BOOLEAN and isinstance(value, bool)
    if kind is ir.PrimitiveKind.STRING:
        return isinstance(value, str)
    if kind is ir.PrimitiveKind.INTEGER:
        return isinstance(value, int)
    return kind is ir.PrimitiveKind.NUMBER and isinstance(value, (int, float))


def _admits_none(annotation: str) -> bool:
    return (
        annotation == ANY_JSON or annotation.endswith("| None") or annotation == "None"
    )


def _single_literal(
    index: Index, expr: ir.TypeExpr, tags: tuple[str | int | bool, ...] | None
) -> bool:
    """Whether a field's annotation is ``Literal`` of one value (a tag)."""
    if tags is not None:
        return len(tags) == 1
    resolved = index.resolve(expr)
    if isinstance(resolved, ir.Literal):
        return not isinstance(resolved.value, float)
    return isinstance(resolved, ir.EnumMemberRef)


def _reads_as_itself(index: Index, expr: ir.TypeExpr, default: object) -> bool:
    """Whether reading the JSON ``default`` as the type gives that very Python value:
    a string, integer, number or boolean of the type's own kind, within its bounds
    and with no pattern or format to check."""
    resolved = index.resolve(expr)
    if not isinstance(resolved, ir.Primitive) or isinstance(default, (list, dict)):
        return False
    rules = resolved.constraints
    if rules.pattern is not None or rules.format is not None:
        return False
    if isinstance(default, (int, float)) and not isinstance(default, bool):
        if rules.minimum is not None and default < rules.minimum:
            return False
        if rules.maximum is not None and default > rules.maximum:
            return False
        if rules.binary_float and isinstance(default, int):
            return False  # read as a float
    return _compares_as_json(index, expr, default) and (
        not isinstance(default, float) or resolved.kind is ir.PrimitiveKind.NUMBER
    )


def _compares_as_json(index: Index, expr: ir.TypeExpr, default: object) -> bool:
    """Whether every Python value of the type equals ``default`` exactly when its JSON
    does: a string, integer, number or boolean field against a default of its own kind
    (``0 == 0.0`` as in JSON; strict fields hold no ``True`` for ``1``), a list or map
    against an empty one, any JSON value against null."""
    resolved = index.resolve(expr)
    if isinstance(resolved, ir.AnyJson):
        return default is None  # only ``None`` is null (``0 == False`` in Python)
    if isinstance(resolved, ir.ArrayOf):
        return default == [] and isinstance(default, list)
    if isinstance(resolved, ir.MapOf):
        return default == {} and isinstance(default, dict)
    if not isinstance(resolved, ir.Primitive):
        return False
    kind = resolved.kind
    if isinstance(default, bool):
        return kind is ir.PrimitiveKind.BOOLEAN
    if isinstance(default, str):
        return kind is ir.PrimitiveKind.STRING
    if isinstance(default, int):
        return kind in (ir.PrimitiveKind.INTEGER, ir.PrimitiveKind.NUMBER)
    if isinstance(default, float):
        return kind is ir.PrimitiveKind.NUMBER
    return False


def _is_literal_like(index: Index, expr: ir.TypeExpr) -> bool:
    resolved = index.resolve(expr)
    if isinstance(resolved, (ir.Literal, ir.EnumMemberRef)):
        return True
    if isinstance(resolved, ir.InlineUnion):
        return all(_is_literal_like(index, member) for member in resolved.members)
    return False


def definition_order(items: list[DeclView]) -> list[DeclView]:
    """Spec order, except that a name used at import time (alias targets, union members,
    defaults) is defined before its use.  Model annotations are lazy
    (``from __future__ import annotations`` + ``model_rebuild``) and impose no order;
    aliases and unions that reach themselves become lazy ``TypeAliasType``s."""
    items = _mark_recursive(items)
    by_name = {item.name: item for item in items}
    done: set[str] = set()
    visiting: set[str] = set()
    ordered: list[DeclView] = []

    def visit(item: DeclView) -> None:
        if item.name in done or item.name in visiting:
            return
        visiting.add(item.name)
        for name in names_in(item.runtime) if item.runtime else []:
            if name != item.name and name in by_name:
                visit(by_name[name])
        visiting.discard(item.name)
        done.add(item.name)
        ordered.append(item)

    for item in items:
        visit(item)
    return ordered


def _mark_recursive(items: list[DeclView]) -> list[DeclView]:
    """Aliases and unions on a cycle of import-time references (``JSONValue`` →
    ``list[JSONValue]``) cannot be evaluated in order: they are made lazy."""
    lazy = {item.name: item for item in items if item.kind in ("alias", "union")}
    uses = {
        name: (
            {n for n in names_in(item.runtime) if n in lazy} if item.runtime else set()
        )
        for name, item in lazy.items()
    }
    cyclic: set[str] = set()
    for start in lazy:
        stack = list(uses[start])
        seen: set[str] = set()
        while stack:
            name = stack.pop()
            if name == start:
                cyclic.add(start)
                break
            if name not in seen:
                seen.add(name)
                stack.extend(uses[name])
    return [
        replace(item, recursive=True, runtime="") if item.name in cyclic else item
        for item in items
    ]
