"""Docs backend: a Markdown reference per protocol: an overview, a methods page, a types
index and a page per type, plus ``site.json`` for the site build.

Phase: backend.
Inputs: a normalized ``ir.Protocol``.
Outputs (paths relative to generated/<id>/): ``docs/index.md`` (what the protocol is, its
methods at a glance, error codes, a typical exchange as a sequence diagram built from the
spec's examples), ``docs/methods.md`` (a section per method with its errors and examples),
``docs/types/index.md`` (every type with its kind and first sentence) and
``docs/types/<page>.md`` (one per declaration: facts, a small class diagram of it and its
neighbours, its field / member / variant table, what uses it, its examples), and
``docs/site.json`` (titles and page list the site build needs for its navigation and home
page).  Rendered by the Jinja templates in ``templates/docs/`` from view-models computed
here.
Guarantees: every method and every declaration of the IR gets a section or a page with its
source location as a link (``../`` up to the repository, then the spec file, ``#L<line>``:
right on a code host; the site build maps it to its own source page); page names are
unique even for names that differ only in case (``escape.anchors``), and links between
pages use them; tables have no column that is empty on every row; spec text (names,
docs, values) reaches the Markdown only through the encoders of ``escape`` (doc comments
through ``text``, which first resolves JSDoc links and drops links to pages the site does
not have), so no doc comment can put live HTML, a script link or a dead link on the docs
site; deterministic output.
"""

from __future__ import annotations

import json
import posixpath
from dataclasses import dataclass, field
from urllib.parse import quote

from codegen import ir
from codegen.backends.docs import text
from codegen.backends.docs.diagrams import (
    outgoing,
    sequence_diagram,
    type_diagram,
    users,
)
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
# The default way from <output>/<id>/docs up to the project (source links climb out of it):
# generated/<id>/docs, three folders deep.
DOCS_ROOT = "../../.."
__all__ = ["cell", "render", "slug"]  # slug: re-exported for the tests


def cell(value: str) -> str:
    """Spec text made safe for one Markdown table cell (or a sentence)."""
    return md_inline(value)


def _json(value: object, indent: int | None = None) -> str:
    """JSON text that always encodes as UTF-8 (a lone surrogate is escaped)."""
    out = json.dumps(value, indent=indent, ensure_ascii=False)
    try:
        out.encode("utf-8")
    except UnicodeEncodeError:
        out = json.dumps(value, indent=indent)
    return out


@dataclass
class Table:
    head: list[str]
    rows: list[list[str]]

    def pruned(self, keep: int = 1) -> Table:
        """Without the columns (after the first ``keep``) that are empty on every row."""
        wanted = [
            i
            for i in range(len(self.head))
            if i < keep or any(row[i] for row in self.rows)
        ]
        return Table(
            [self.head[i] for i in wanted],
            [[row[i] for i in wanted] for row in self.rows],
        )


@dataclass
class Example:
    title: str
    body: str

    @property
    def lines(self) -> int:
        return self.body.count("\n") + 1

    @property
    def quoted_title(self) -> str:
        """The title inside the double quotes of a collapsible block's header."""
        return self.title.replace('"', "&quot;")


@dataclass
class TypePage:
    name: str
    page: str  # file name under types/, without .md
    kind: str
    source: str
    summary: str
    docs: str
    lifecycle: str
    notes: list[str] = field(default_factory=list)
    table: Table | None = None
    diagram: str | None = None
    used_by: str = ""
    examples: list[Example] = field(default_factory=list)


class _Docs:
    def __init__(self, protocol: ir.Protocol, root: str = DOCS_ROOT) -> None:
        self.protocol = protocol
        self.root = root  # from docs/ up to the folder spans are relative to
        self.index = Index(protocol)
        # Each declaration's references, found once: its diagram and every "used by"
        # line are built from them.
        self.outgoing = {d.name: outgoing(self.index, d) for d in protocol.decls}
        self.users = users(self.outgoing)
        self.decl_order = sorted(protocol.decls, key=lambda d: (d.name.lower(), d.name))
        # One page per declaration; "index" is the types index itself.
        self.page_of = dict(
            zip(
                [d.name for d in self.decl_order],
                anchors(["index", *(d.name for d in self.decl_order)])[1:],
                strict=True,
            )
        )
        self.method_anchors = dict(
            zip(
                [m.wire_name for m in protocol.methods],
                anchors(
                    [
                        f"{protocol.title}: methods",
                        *(m.wire_name for m in protocol.methods),
                    ]
                )[1:],
                strict=True,
            )
        )
        # Per declaration, the methods whose params or result mention it, in method order:
        # one walk of the methods, not one per declaration (quadratic on large specs).
        self.methods_using: dict[str, list[ir.Method]] = {}
        for method in protocol.methods:
            mentioned = self.index.references(method.params)
            mentioned += self.index.references(method.result)
            for name in dict.fromkeys(mentioned):
                self.methods_using.setdefault(name, []).append(method)
        self._index_examples()

    # ------------------------------------------------------------------ links

    def resolver(self, base: str) -> text.Resolver:
        """JSDoc link targets → a type page, from a page whose types/ prefix is ``base``."""

        def resolve(name: str) -> str | None:
            page = self.page_of.get(name)
            return f"{base}{page}.md" if page is not None else None

        return resolve

    def _type_ref(self, name: str, base: str) -> str:
        page = self.page_of.get(name)
        if page is None:
            return md_code(name)
        return f"[{md_heading(name)}]({base}{page}.md)"

    def type_link(self, expr: ir.TypeExpr | None, base: str) -> str:
        if expr is None:
            return "—"
        return self._type(expr, base)

    def _type(self, expr: ir.TypeExpr, base: str) -> str:
        if isinstance(expr, ir.Ref):
            return self._type_ref(expr.name, base)
        if isinstance(expr, ir.Primitive):
            form = expr.constraints.format
            fmt = f" ({md_inline(form)})" if form else ""
            return f"`{expr.kind.value}`{fmt}"
        if isinstance(expr, ir.EnumMemberRef):
            return f"{self._type_ref(expr.enum, base)}.{md_heading(expr.member)}"
        if isinstance(expr, ir.Literal):
            return md_code(_json(expr.value))
        if isinstance(expr, ir.ArrayOf):
            return f"{self._type(expr.items, base)}[]"
        if isinstance(expr, ir.MapOf):
            key, values = self._type(expr.key, base), self._type(expr.values, base)
            return f"map&lt;{key}, {values}&gt;"
        if isinstance(expr, ir.TupleOf):
            least = expr.least
            parts = [
                self._type(item, base) + ("?" if i >= least else "")
                for i, item in enumerate(expr.items)
            ]
            if expr.rest is not None:
                parts.append(f"...{self._type(expr.rest, base)}[]")
            return "[" + ", ".join(parts) + "]"
        if isinstance(expr, ir.AnyJson):
            if expr.structured:
                return "any JSON object or array"
            return "any JSON object" if expr.object_only else "any JSON"
        return " \\| ".join(self._type(member, base) for member in expr.members)

    def source(self, span: ir.Span, depth: int) -> str:
        """The source location as a link from a page ``depth`` folders under docs/."""
        if not span.line or span.file.startswith("<"):
            return "synthesized"
        target = self.up(depth) + quote(span.file, safe="/._-~")
        label = md_code(f"{posixpath.basename(span.file)}:{span.line}")
        return f"[{label}]({target}#L{span.line})"

    def up(self, depth: int) -> str:
        """From a page ``depth`` folders under docs/ to the project root."""
        return "../" * depth + (f"{self.root}/" if self.root not in ("", ".") else "")

    def source_file(self, path: str, depth: int) -> str:
        """A spec source file as a link from a page ``depth`` folders under docs/."""
        target = self.up(depth) + quote(path, safe="/._-~")
        return f"[{md_code(posixpath.basename(path))}]({target})"

    # ------------------------------------------------------------------ types

    def type_pages(self) -> list[TypePage]:
        return [self._decl(decl) for decl in self.decl_order]

    def _decl(self, decl: ir.Decl) -> TypePage:
        resolve = self.resolver("")
        page = TypePage(
            name=decl.name,
            page=self.page_of[decl.name],
            kind=_kind(decl),
            source=self.source(decl.span, 1),
            summary=text.summary(decl.lifecycle.docs, resolve),
            docs=text.block(decl.lifecycle.docs, resolve),
            lifecycle=_lifecycle(decl.lifecycle),
            diagram=type_diagram(
                self.index,
                decl,
                self.outgoing[decl.name],
                self.users.get(decl.name, []),
            ),
            examples=self.examples_by_type.get(decl.name, []),
        )
        if decl.derived_from:
            page.notes.append(
                f"Named after where it is written inline: {md_code(decl.derived_from)}."
            )
        if isinstance(decl, ir.StructDecl):
            self._struct(decl, page)
        elif isinstance(decl, ir.EnumDecl):
            self._enum(decl, page)
        elif isinstance(decl, ir.UnionDecl):
            self._union(decl, page)
        else:
            page.notes.append(f"Wire form: {self.type_link(decl.target, '')}.")
        page.used_by = self._used_by(decl)
        return page

    def _used_by(self, decl: ir.Decl) -> str:
        places = [
            f"[{md_code(m.wire_name)}](../methods.md#{self.method_anchors[m.wire_name]})"
            for m in self.methods_using.get(decl.name, [])
        ]
        places += [
            self._type_ref(name, "")
            for name in dict.fromkeys(u for u, _, _ in self.users.get(decl.name, []))
            if name != decl.name
        ]
        return ", ".join(places)

    def _struct(self, decl: ir.StructDecl, page: TypePage) -> None:
        if decl.bases:
            bases = ", ".join(self._type(base, "") for base in decl.bases)
            page.notes.append(f"Extends {bases}; inherited fields are listed here too.")
        extra = self.index.index_value(decl)
        if extra is not None:
            page.notes.append(
                f"Other keys are allowed, with values of type {self._type(extra, '')}."
            )
        elif decl.extra_keys is ir.ExtraKeys.FORBID:
            page.notes.append("Other keys are rejected.")
        resolve = self.resolver("")
        rows = []
        for fld in self.index.wire_fields(decl):
            facts = [
                text.inline(fld.lifecycle.docs, resolve),
                cell(fld.allowed_values_note or ""),
            ]
            if fld.default_json is not None:
                facts.append(f"Default: {md_code(fld.default_json)}.")
            facts.append(_directions(fld, decl.extra_keys is ir.ExtraKeys.FORBID))
            facts.append(_lifecycle(fld.lifecycle))
            shown = self._type(fld.type, "")
            if fld.nullable:
                shown += " \\| `null`"
            rows.append(
                [
                    md_code(fld.wire_name),
                    shown,
                    _presence(fld.presence),
                    " ".join(f for f in facts if f),
                ]
            )
        page.table = Table(["Field", "Type", "Required", "Description"], rows).pruned(3)

    def _enum(self, decl: ir.EnumDecl, page: TypePage) -> None:
        facts = [f"{decl.base.value} values"]
        if decl.flags:
            facts.append("bit flags: any OR of members is a value")
        facts.append("open: other values are accepted" if decl.open else "closed")
        page.notes.append("; ".join(facts).capitalize() + ".")
        resolve = self.resolver("")
        rows = [
            [
                cell(member.name),
                md_code(_json(member.value)),
                " ".join(
                    f
                    for f in (
                        text.inline(member.lifecycle.docs, resolve),
                        _lifecycle(member.lifecycle),
                    )
                    if f
                ),
            ]
            for member in decl.members
        ]
        page.table = Table(["Member", "Value", "Description"], rows).pruned(2)

    def _union(self, decl: ir.UnionDecl, page: TypePage) -> None:
        tag, content = md_code(decl.tag_key or ""), md_code(decl.content_key or "")
        how = {
            ir.UnionRepr.INTERNALLY_TAGGED: f"tagged by the key {tag}",
            ir.UnionRepr.ADJACENTLY_TAGGED: f"tag in {tag}, payload in {content}",
            ir.UnionRepr.EXTERNALLY_TAGGED: "the variant's tag is the only key "
            "(unit variants are bare strings)",
            ir.UnionRepr.UNTAGGED: "untagged",
        }[decl.repr]
        page.notes.append(f"One of the variants below, {how}.")
        if decl.repr is ir.UnionRepr.UNTAGGED:
            page.notes.append(
                "Readers take the first variant, in the order below, that reads the value."
                if decl.first_fit
                else "Readers take a variant that reads the value, preferring the one "
                "that matches the most fields."
            )
        resolve = self.resolver("")
        rows = [
            [
                cell(variant.name),
                self.type_link(variant.type, ""),
                ", ".join(md_code(_json(v)) for v in variant.tag_values),
                text.inline(variant.lifecycle.docs, resolve),
            ]
            for variant in decl.variants
        ]
        page.table = Table(
            ["Variant", "Type", "Tag values", "Description"], rows
        ).pruned(2)

    # ------------------------------------------------------------------ examples

    def _index_examples(self) -> None:
        """The first few accepted examples per type and per method, in spec order; a
        method's params (result) example is also an example of its params (result) type.
        """
        self.examples_by_type: dict[str, list[Example]] = {}
        self.examples_by_method: dict[str, list[Example]] = {}
        per_part: dict[tuple[str, str], int] = {}
        for example in self.protocol.examples:
            if example.expect is not ir.Expectation.ACCEPT or example.skipped_reason:
                try_json = None
            else:
                try:
                    try_json = json.loads(example.json_text)
                except ValueError:
                    try_json = None
            if try_json is None:
                continue
            pretty = _json(try_json, indent=2)
            name = cell(example.note or _example_name(example.name))
            if example.type_name is not None:
                self._add(
                    self.examples_by_type, example.type_name, Example(name, pretty)
                )
            if example.method is None:
                continue
            method = self.index.methods.get(example.method)
            part = example.part.value
            # At most two of each part per method, so a result follows its params.
            if per_part.get((example.method, part), 0) < 2 and self._add(
                self.examples_by_method,
                example.method,
                Example(f"{part}: {name}", pretty),
                limit=2 * MAX_EXAMPLES_PER_ITEM,
            ):
                per_part[(example.method, part)] = (
                    per_part.get((example.method, part), 0) + 1
                )
            if method is None:
                continue
            expr = {
                ir.ExamplePart.PARAMS: method.params,
                ir.ExamplePart.RESULT: method.result,
            }.get(example.part)
            if isinstance(expr, ir.Ref):
                self._add(
                    self.examples_by_type,
                    expr.name,
                    Example(f"{md_code(example.method)} {part}: {name}", pretty),
                )

    @staticmethod
    def _add(
        table: dict[str, list[Example]],
        key: str,
        example: Example,
        limit: int = MAX_EXAMPLES_PER_ITEM,
    ) -> bool:
        chosen = table.setdefault(key, [])
        if len(chosen) >= limit:
            return False
        chosen.append(example)
        return True

    # ------------------------------------------------------------------ methods

    def methods(self) -> list[dict[str, object]]:
        out: list[dict[str, object]] = []
        resolve = self.resolver("types/")
        for method in self.protocol.methods:
            errors = Table(
                ["Error code", "Name", "When"],
                [
                    [f"`{e.code}`", cell(e.name), text.inline(e.docs, resolve)]
                    for e in method.errors
                ],
            ).pruned(2)
            out.append(
                {
                    "name": method.wire_name,
                    "anchor": self.method_anchors[method.wire_name],
                    # an event envelope's notifications are its events
                    "kind": (
                        "event"
                        if method.kind is ir.MethodKind.NOTIFICATION
                        and self.protocol.transport.kind == "event-envelope"
                        else method.kind.value
                    ),
                    "arrow": md_inline(method.direction.arrow()),
                    "params": (
                        self.type_link(method.params, "types/")
                        if method.params
                        else "none"
                    ),
                    "result": self._result(method),
                    "error_codes": ", ".join(f"`{e.code}`" for e in method.errors),
                    "errors": errors if errors.rows else None,
                    "summary": text.summary(method.lifecycle.docs, resolve),
                    "docs": text.block(method.lifecycle.docs, resolve),
                    "lifecycle": _lifecycle(method.lifecycle),
                    "source": self.source(method.span, 0),
                    "examples": self.examples_by_method.get(method.wire_name, []),
                }
            )
        return out

    def _result(self, method: ir.Method) -> str:
        if method.kind is ir.MethodKind.NOTIFICATION:
            return "no reply"
        return self.type_link(method.result, "types/") if method.result else "`null`"

    def overview(self, methods: list[dict[str, object]]) -> Table:
        rows = [
            [
                f"[{md_code(str(m['name']))}](methods.md#{m['anchor']})",
                str(m["arrow"])
                + ("" if m["kind"] == "request" else f"<br>{m['kind']}"),
                f"{m['params']} → {m['result']}",
                str(m["error_codes"]),
                str(m["summary"]),
            ]
            for m in methods
        ]
        return Table(
            ["Method", "Direction", "Params → Result", "Errors", "Description"], rows
        ).pruned(3)


def render(protocol: ir.Protocol, root: str = DOCS_ROOT) -> dict[str, str]:
    """The docs pages; ``root``: the relative way from ``<output>/<id>/docs`` up to
    the folder the spec's spans are relative to (the project), for source links."""
    docs = _Docs(protocol, root)
    methods = docs.methods()
    types = docs.type_pages()
    resolve = docs.resolver("types/")
    context = {
        "protocol": protocol,
        "methods": methods,
        "overview": docs.overview(methods),
        "types": types,
        "docs": text.block(protocol.docs, resolve),
        "sequence": sequence_diagram(protocol),
        "header": f"generated by codegen from spec '{html_comment(protocol.id)}' — do not edit; "
        "run `codegen generate` to regenerate.",
        "transport": cell(
            f"{protocol.transport.kind} over "
            f"{', '.join(protocol.transport.framings) or 'unspecified'}"
        ),
        "sources": ", ".join(
            docs.source_file(source.path, 0) for source in protocol.sources
        ),
        "errors": [(e.code, cell(e.name), cell(e.docs)) for e in protocol.errors],
        "envelope": _envelope_rows(protocol.transport),
    }
    out = {
        "docs/index.md": render_template("docs/index.md.j2", **context),
        "docs/methods.md": render_template("docs/methods.md.j2", **context),
        "docs/types/index.md": render_template("docs/types_index.md.j2", **context),
        "docs/site.json": _site(protocol, docs, types),
    }
    for page in types:
        out[f"docs/types/{page.page}.md"] = render_template(
            "docs/type.md.j2", type=page, **context
        )
    return out


def _site(protocol: ir.Protocol, docs: _Docs, types: list[TypePage]) -> str:
    """What the site build needs and cannot read from the pages: the protocol's title and
    summary for the home page, and the navigation's labels (plain text: the site build
    encodes them for HTML)."""
    summary = text.summary(protocol.docs, docs.resolver("types/"), limit=400)
    data = {
        "comment": f"generated by codegen from spec '{protocol.id}'; do not edit",
        "id": protocol.id,
        "title": protocol.title,
        "summary": summary,
        "version": md_inline(protocol.version),
        "transport": cell(
            f"{protocol.transport.kind} over "
            f"{', '.join(protocol.transport.framings) or 'unspecified'}"
        ),
        "methods": len(protocol.methods),
        "types": [[page.name, f"types/{page.page}.md"] for page in types],
    }
    return _json(data, indent=2) + "\n"


# What each part of an event envelope holds (spec.toml's [transport.fields] keys).
_ENVELOPE_PARTS = {
    "seq": "the sender's sequence number of the message (1, 2, ... per side)",
    "type": '"request", "response" or "event"',
    "command": "a request's method (its response repeats it)",
    "arguments": "a request's params",
    "body": "a response's result, or an event's params",
    "success": "in a response: true, or false for an error",
    "message": "in a failed response: the error's text (DAP's body.error.id: its code)",
    "event": "an event's method (events go from the server, one way)",
    "request_seq": "in a response: the seq of the request it answers",
}


def _envelope_rows(transport: ir.Transport) -> list[tuple[str, str, str]]:
    """(part, its key, what it holds) of an event envelope; [] for the other kinds."""
    if transport.kind != "event-envelope":
        return []
    return [
        (part, md_code(key), md_inline(_ENVELOPE_PARTS.get(part, "")))
        for part, key in transport.fields
    ]


def _example_name(name: str) -> str:
    """``initialize.accept.full`` → ``full`` (the page already says whose it is)."""
    parts = name.rsplit(".", 2)
    return parts[-1] if len(parts) == 3 and parts[1] in ("accept", "reject") else name


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
        ir.Presence.WRITTEN_ALWAYS_READ_OPTIONAL: "always written; may be absent on read",
    }[presence]


def _directions(fld: ir.Field, closed: bool) -> str:
    """What a reader does otherwise than a writer (serde's alias, rename per direction,
    skip_serializing, skip_deserializing, skip_serializing_if without a default): the
    table's key and presence are what a writer writes."""
    if not fld.asymmetric():
        return ""
    facts = []
    if not fld.read:
        # An unread key is an unknown one: a struct that refuses unknown keys refuses it.
        facts.append(
            "A reader rejects the key."
            if closed
            else "Ignored on read: a reader takes the default."
        )
    elif fld.read_names and fld.read_names != (fld.wire_name,):
        keys = " or ".join(md_code(k) for k in fld.read_names)
        facts.append(f"Read from {keys}.")
    if not fld.written:
        facts.append("Never written.")
    if fld.read_required and fld.read:
        facts.append("A writer may leave it out, but a reader requires it.")
    return " ".join(facts)


def _lifecycle(life: ir.Lifecycle) -> str:
    parts = []
    if life.since:
        parts.append(f"Since {md_inline(life.since)}.")
    if life.deprecated is not None:
        reason = md_inline(life.deprecated)
        parts.append(f"**Deprecated**{': ' + reason if reason else ''}.")
    return " ".join(parts)
