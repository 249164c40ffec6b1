"""Docs backend: a Markdown reference per protocol (index, methods, types, diagrams).

Phase: backend.
Inputs: a normalized ``ir.Protocol``.
Outputs: ``docs/index.md``, ``docs/methods.md``, ``docs/types.md``, ``docs/diagram.md`` (paths relative to
generated/<id>/), rendered by the Jinja templates in ``templates/docs/`` from view-models
computed here.
Guarantees: every method and every declaration of the IR gets a section with its source
location; links between sections use the anchors Python-Markdown's ``toc`` gives the headings
(``escape.anchors``: unique even for names that differ only in case; GitHub derives the same
ones unless two names collide); spec text (names, docs, values) reaches the Markdown only
through the encoders of ``escape``, so no doc comment can put live HTML or a script link
on the docs site; deterministic output.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from codegen import ir
from codegen.backends.docs.diagrams import class_diagrams, sequence_diagram
from codegen.backends.escape import (
    anchors,
    html_comment,
    md_code,
    md_heading,
    md_inline,
    slug,
)
from codegen.backends.render import render_template
from codegen.ir.index import Index

MAX_EXAMPLES_PER_ITEM = 3
__all__ = ["cell", "render", "slug"]  # slug: re-exported for the tests


def cell(text: str) -> str:
    """Spec text made safe for one Markdown table cell (or a sentence)."""
    return md_inline(text)


def _json(value: object, indent: int | None = None) -> str:
    """JSON text that always encodes as UTF-8 (a lone surrogate is escaped)."""
    text = json.dumps(value, indent=indent, ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(value, indent=indent)
    return text


@dataclass
class Row:
    cells: list[str]


@dataclass
class Section:
    name: str
    anchor: str
    kind: str
    source: str
    docs: str
    lifecycle: str
    table_head: list[str] = field(default_factory=list)
    rows: list[Row] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    examples: list[tuple[str, str]] = field(default_factory=list)


class _Docs:
    def __init__(self, protocol: ir.Protocol) -> None:
        self.protocol = protocol
        self.index = Index(protocol)
        self._index_examples()
        # Each page's headings in page order, and the anchor toc gives each.
        self.decl_order = sorted(protocol.decls, key=lambda d: d.name.lower())
        self.type_anchor = dict(
            zip(
                [d.name for d in self.decl_order],
                anchors(
                    [f"{protocol.title}: types", *(d.name for d in self.decl_order)]
                )[1:],
                strict=True,
            )
        )
        self.method_anchors = anchors(
            [f"{protocol.title}: methods", *(m.wire_name for m in protocol.methods)]
        )[1:]

    def _type_ref(self, name: str) -> str:
        anchor = self.type_anchor.get(name, slug(name))
        return f"[{md_heading(name)}](types.md#{anchor})"

    def type_link(self, expr: ir.TypeExpr | None) -> str:
        if expr is None:
            return "—"
        return self._type(expr)

    def _type(self, expr: ir.TypeExpr) -> str:
        if isinstance(expr, ir.Ref):
            return self._type_ref(expr.name)
        if isinstance(expr, ir.Primitive):
            form = expr.constraints.format
            fmt = f" ({md_inline(form)})" if form else ""
            return f"`{expr.kind.value}`{fmt}"
        if isinstance(expr, ir.EnumMemberRef):
            return f"{self._type_ref(expr.enum)}.{md_heading(expr.member)}"
        if isinstance(expr, ir.Literal):
            return md_code(_json(expr.value))
        if isinstance(expr, ir.ArrayOf):
            return f"{self._type(expr.items)}[]"
        if isinstance(expr, ir.MapOf):
            return f"map&lt;{self._type(expr.key)}, {self._type(expr.values)}&gt;"
        if isinstance(expr, ir.TupleOf):
            return "[" + ", ".join(self._type(item) for item in expr.items) + "]"
        if isinstance(expr, ir.AnyJson):
            if expr.structured:
                return "any JSON object or array"
            return "any JSON object" if expr.object_only else "any JSON"
        return " \\| ".join(self._type(member) for member in expr.members)

    def sections(self) -> list[Section]:
        out: list[Section] = []
        for decl in self.decl_order:
            out.append(self._decl(decl))
        return out

    def _decl(self, decl: ir.Decl) -> Section:
        section = Section(
            name=decl.name,
            anchor=self.type_anchor[decl.name],
            kind=_kind(decl),
            source=_source(decl.span),
            docs=decl.lifecycle.docs,
            lifecycle=_lifecycle(decl.lifecycle),
            examples=self.examples_by_type.get(decl.name, []),
        )
        if decl.derived_from:
            section.notes.append(
                f"Named after where it is written inline: {md_code(decl.derived_from)}."
            )
        if isinstance(decl, ir.StructDecl):
            self._struct(decl, section)
        elif isinstance(decl, ir.EnumDecl):
            self._enum(decl, section)
        elif isinstance(decl, ir.UnionDecl):
            self._union(decl, section)
        else:
            section.notes.append(f"Wire form: {self.type_link(decl.target)}.")
        return section

    def _struct(self, decl: ir.StructDecl, section: Section) -> None:
        if decl.bases:
            bases = ", ".join(self._type(base) for base in decl.bases)
            section.notes.append(
                f"Extends {bases}; inherited fields are listed here too."
            )
        extra = self.index.index_value(decl)
        if extra is not None:
            section.notes.append(
                f"Other keys are allowed, with values of type {self._type(extra)}."
            )
        elif decl.extra_keys is ir.ExtraKeys.FORBID:
            section.notes.append("Other keys are rejected.")
        section.table_head = [
            "Field",
            "Type",
            "Required",
            "Nullable",
            "Default",
            "Since",
            "Deprecated",
            "Description",
        ]
        for fld in self.index.wire_fields(decl):
            section.rows.append(
                Row(
                    [
                        md_code(fld.wire_name),
                        self._type(fld.type),
                        _presence(fld.presence),
                        "yes" if fld.nullable else "no",
                        (
                            md_code(fld.default_json)
                            if fld.default_json is not None
                            else ""
                        ),
                        cell(fld.lifecycle.since or ""),
                        cell(fld.lifecycle.deprecated or "")
                        or ("yes" if fld.lifecycle.deprecated == "" else ""),
                        cell(
                            " ".join(
                                filter(
                                    None,
                                    [fld.lifecycle.docs, fld.allowed_values_note or ""],
                                )
                            )
                        ),
                    ]
                )
            )

    def _enum(self, decl: ir.EnumDecl, section: Section) -> None:
        facts = [f"{decl.base.value} values"]
        if decl.flags:
            facts.append("bit flags: any OR of members is a value")
        facts.append("open: other values are accepted" if decl.open else "closed")
        section.notes.append("; ".join(facts).capitalize() + ".")
        section.table_head = ["Member", "Value", "Description"]
        for member in decl.members:
            section.rows.append(
                Row(
                    [
                        cell(member.name),
                        md_code(_json(member.value)),
                        cell(member.lifecycle.docs),
                    ]
                )
            )

    def _union(self, decl: ir.UnionDecl, section: Section) -> None:
        tag, content = md_code(decl.tag_key or ""), md_code(decl.content_key or "")
        how = {
            ir.UnionRepr.INTERNALLY_TAGGED: f"tagged by the key {tag}",
            ir.UnionRepr.ADJACENTLY_TAGGED: f"tag in {tag}, payload in {content}",
            ir.UnionRepr.EXTERNALLY_TAGGED: "the variant's tag is the only key (unit variants are bare strings)",
            ir.UnionRepr.UNTAGGED: "untagged",
        }[decl.repr]
        section.notes.append(f"One of the variants below, {how}.")
        if decl.repr is ir.UnionRepr.UNTAGGED:
            section.notes.append(
                "Readers take the first variant, in the order below, that reads the value."
                if decl.first_fit
                else "Readers take a variant that reads the value, preferring the one "
                "that matches the most fields."
            )
        section.table_head = ["Variant", "Type", "Tag values"]
        for variant in decl.variants:
            tags = ", ".join(md_code(_json(v)) for v in variant.tag_values)
            section.rows.append(
                Row([cell(variant.name), self.type_link(variant.type), tags])
            )

    def _index_examples(self) -> None:
        """The first few accepted examples per type and per method, in spec order (one
        pass over the examples, not one per declaration)."""
        self.examples_by_type: dict[str, list[tuple[str, str]]] = {}
        self.examples_by_method: dict[str, list[tuple[str, str]]] = {}
        for example in self.protocol.examples:
            if example.expect is not ir.Expectation.ACCEPT or example.skipped_reason:
                continue
            for key, table in (
                (example.type_name, self.examples_by_type),
                (example.method, self.examples_by_method),
            ):
                chosen = table.setdefault(key, []) if key is not None else None
                if chosen is not None and len(chosen) < MAX_EXAMPLES_PER_ITEM:
                    pretty = _json(json.loads(example.json_text), indent=2)
                    chosen.append((cell(example.note or example.name), pretty))

    def methods(self) -> list[dict[str, object]]:
        out: list[dict[str, object]] = []
        for method, anchor in zip(
            self.protocol.methods, self.method_anchors, strict=True
        ):
            out.append(
                {
                    "name": method.wire_name,
                    "anchor": anchor,
                    "kind": method.kind.value,
                    "arrow": method.direction.arrow(),
                    "params": (
                        self.type_link(method.params) if method.params else "none"
                    ),
                    "result": self._result(method),
                    "errors": ", ".join(
                        f"`{e.code}` {cell(e.name)}" for e in method.errors
                    ),
                    "error_rows": [
                        (e.code, cell(e.name), cell(e.docs)) for e in method.errors
                    ],
                    "docs": method.lifecycle.docs,
                    "lifecycle": _lifecycle(method.lifecycle),
                    "source": _source(method.span),
                    "examples": self.examples_by_method.get(method.wire_name, []),
                }
            )
        return out

    def _result(self, method: ir.Method) -> str:
        if method.kind is ir.MethodKind.NOTIFICATION:
            return "no reply"
        return self.type_link(method.result) if method.result else "`null`"


def render(protocol: ir.Protocol) -> dict[str, str]:
    docs = _Docs(protocol)
    methods = docs.methods()
    context = {
        "protocol": protocol,
        "methods": methods,
        "sections": docs.sections(),
        "sequence": sequence_diagram(protocol),
        "diagrams": class_diagrams(docs.index),
        "header": f"generated by codegen from spec '{html_comment(protocol.id)}' — do not edit; "
        "run `make generate` to regenerate.",
        "transport": cell(
            f"{protocol.transport.kind} over "
            f"{', '.join(protocol.transport.framings) or 'unspecified'}"
        ),
        "errors": [(e.code, cell(e.name)) for e in protocol.errors],
    }
    return {
        "docs/index.md": render_template("docs/index.md.j2", **context),
        "docs/methods.md": render_template("docs/methods.md.j2", **context),
        "docs/types.md": render_template("docs/types.md.j2", **context),
        "docs/diagram.md": render_template("docs/diagram.md.j2", **context),
    }


def _kind(decl: ir.Decl) -> str:
    if isinstance(decl, ir.StructDecl):
        return "object"
    if isinstance(decl, ir.EnumDecl):
        return "flags" if decl.flags else "enum"
    if isinstance(decl, ir.UnionDecl):
        return "union"
    return decl.kind.value  # "alias", "newtype" or "external"


def _presence(presence: ir.Presence) -> str:
    return {
        ir.Presence.REQUIRED: "yes",
        ir.Presence.OPTIONAL: "no",
        ir.Presence.WRITTEN_ALWAYS_READ_OPTIONAL: "written always; may be absent on read",
    }[presence]


def _lifecycle(life: ir.Lifecycle) -> str:
    parts = []
    if life.since:
        parts.append(f"Since {md_inline(life.since)}.")
    if life.deprecated is not None:
        reason = md_inline(life.deprecated)
        parts.append(f"**Deprecated**{': ' + reason if reason else ''}.")
    return " ".join(parts)


def _source(span: ir.Span) -> str:
    return f"{span.file}:{span.line}" if span.line else "synthesized"
