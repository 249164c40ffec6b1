"""Docs backend: a Markdown reference per protocol (index, methods, types, diagrams).

Phase: backend.
Inputs: a normalized ``ir.Protocol``.
Outputs: ``docs/index.md``, ``docs/methods.md``, ``docs/types.md``, ``docs/diagram.md`` (paths relative to
generated/<id>/), rendered by the Jinja templates in ``templates/docs/`` from view-models
computed here.
Guarantees: every method and every declaration of the IR gets a section with its source
location; links between sections use the anchors Python-Markdown and GitHub both derive from
the heading text, so they resolve in the built site and on a code host alike;
deterministic output.
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass, field

from codegen import ir
from codegen.backends.docs.diagrams import class_diagrams, sequence_diagram
from codegen.backends.render import render_template
from codegen.ir.index import Index

MAX_EXAMPLES_PER_ITEM = 3


def slug(text: str) -> str:
    """The anchor Python-Markdown's toc extension (and GitHub) gives a heading."""
    value = (
        unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    )
    value = re.sub(r"[^\w\s-]", "", value).strip().lower()
    return re.sub(r"[-\s]+", "-", value)


def cell(text: str) -> str:
    """Text made safe for one Markdown table cell."""
    return (
        text.replace("|", "\\|").replace("\n\n", "<br><br>").replace("\n", " ").strip()
    )


@dataclass
class Row:
    cells: list[str]


@dataclass
class Section:
    name: str
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

    def type_link(self, expr: ir.TypeExpr | None) -> str:
        if expr is None:
            return "—"
        return self._type(expr)

    def _type(self, expr: ir.TypeExpr) -> str:
        if isinstance(expr, ir.Ref):
            return f"[{expr.name}](types.md#{slug(expr.name)})"
        if isinstance(expr, ir.Primitive):
            fmt = f" ({expr.constraints.format})" if expr.constraints.format else ""
            return f"`{expr.kind.value}`{fmt}"
        if isinstance(expr, ir.EnumMemberRef):
            return f"[{expr.enum}](types.md#{slug(expr.enum)}).{expr.member}"
        if isinstance(expr, ir.Literal):
            return f"`{json.dumps(expr.value)}`"
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
        for decl in sorted(self.protocol.decls, key=lambda d: d.name.lower()):
            out.append(self._decl(decl))
        return out

    def _decl(self, decl: ir.Decl) -> Section:
        section = Section(
            name=decl.name,
            kind=_kind(decl),
            source=_source(decl.span),
            docs=decl.lifecycle.docs,
            lifecycle=_lifecycle(decl.lifecycle),
            examples=self.examples_by_type.get(decl.name, []),
        )
        if decl.derived_from:
            section.notes.append(
                f"Named after where it is written inline: `{decl.derived_from}`."
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
                        f"`{fld.wire_name}`",
                        self._type(fld.type),
                        _presence(fld.presence),
                        "yes" if fld.nullable else "no",
                        f"`{fld.default_json}`" if fld.default_json is not None else "",
                        fld.lifecycle.since or "",
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
                        member.name,
                        f"`{json.dumps(member.value)}`",
                        cell(member.lifecycle.docs),
                    ]
                )
            )

    def _union(self, decl: ir.UnionDecl, section: Section) -> None:
        how = {
            ir.UnionRepr.INTERNALLY_TAGGED: f"tagged by the key `{decl.tag_key}`",
            ir.UnionRepr.ADJACENTLY_TAGGED: f"tag in `{decl.tag_key}`, payload in `{decl.content_key}`",
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
            tags = ", ".join(f"`{json.dumps(v)}`" for v in variant.tag_values)
            section.rows.append(Row([variant.name, self.type_link(variant.type), tags]))

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
                    pretty = json.dumps(
                        json.loads(example.json_text), indent=2, ensure_ascii=False
                    )
                    chosen.append((example.note or example.name, pretty))

    def methods(self) -> list[dict[str, object]]:
        out: list[dict[str, object]] = []
        for method in self.protocol.methods:
            out.append(
                {
                    "name": method.wire_name,
                    "anchor": slug(method.wire_name),
                    "kind": method.kind.value,
                    "arrow": method.direction.arrow(),
                    "params": (
                        self.type_link(method.params) if method.params else "none"
                    ),
                    "result": self._result(method),
                    "errors": ", ".join(f"`{e.code}` {e.name}" for e in method.errors),
                    "error_rows": [
                        (e.code, e.name, cell(e.docs)) for e in method.errors
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
        "header": f"generated by codegen from spec '{protocol.id}' — do not edit; "
        "run `make generate` to regenerate.",
        "transport": f"{protocol.transport.kind} over {', '.join(protocol.transport.framings) or 'unspecified'}",
        "errors": [(e.code, e.name) for e in protocol.errors],
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
        parts.append(f"Since {life.since}.")
    if life.deprecated is not None:
        parts.append(
            f"**Deprecated**{': ' + life.deprecated if life.deprecated else ''}."
        )
    return " ".join(parts)


def _source(span: ir.Span) -> str:
    return f"{span.file}:{span.line}" if span.line else "synthesized"
