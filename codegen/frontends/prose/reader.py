"""The prose frontend: a Markdown spec (or the raw page it came from) with embedded TypeScript.

Phase: frontend (``language = "prose"`` in spec.toml).
Inputs: prose spec sources (``SourceText``): Markdown with ```` ```ts ```` fences and
``Request:`` / ``Response:`` lines under method headings, or the scraped page the Markdown
was restored from (no markup, TypeScript flattened onto single lines); the spec's roles and
declared external types.
Outputs: a ``FrontendResult``: the declarations of every TypeScript block (read by the
TypeScript frontend), the method table (``prose_methods``), no examples; diagnostics.
Guarantees: every span points into the prose file itself, at the character the TypeScript
frontend or the method reader meant (each TypeScript block is parsed on its own and its spans
are mapped back through the block's character origins); the Markdown and the raw page of the
same spec give equal IR apart from spans; never raises on user input.

Prose-only type names (``integer`` in ``code: integer``) are read as the JSON types they name
unless the spec declares a type of that name.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from codegen import ir
from codegen.diagnostics import Diagnostics
from codegen.frontends.common.result import FrontendResult
from codegen.frontends.prose.fences import declaration_blocks
from codegen.frontends.prose.includes import with_includes
from codegen.frontends.prose.markdown_blocks import Block, read_blocks
from codegen.frontends.prose.method_layouts import read_layouts
from codegen.frontends.prose.methods import PROSE_ONLY_TYPES, DocText, read_methods
from codegen.frontends.prose.namespaces import namespace_enums
from codegen.frontends.prose.numbers import integer_aliases
from codegen.frontends.typescript.reader import (
    Options,
    read_typescript,
    read_with_externals,
)
from codegen.ir.rewrite import rewrite
from codegen.methods.evidence import Evidence
from codegen.methods.resolver import resolve_with
from codegen.spec.config import SpecConfig
from codegen.spec.source import SourceText

_VIEW_MARK = "#ts-block-"


def read_spec(
    sources: list[SourceText], config: SpecConfig, diags: Diagnostics
) -> FrontendResult:
    """The frontend entry point the pipeline calls for ``language = "prose"``."""
    sources = with_includes(sources, config.repo_root, diags)
    return read_with_externals(read_prose, sources, config, diags)


def read_prose(
    sources: list[SourceText],
    roles: tuple[str, str],
    externals: dict[str, str],
    diags: Diagnostics,
) -> FrontendResult:
    docs = [DocText(source.rel_path, source.text) for source in sources]
    blocks = [read_blocks(source.text) for source in sources]
    views: list[SourceText] = []
    owners: dict[str, tuple[DocText, Block, DocText]] = {}
    for doc, doc_blocks in zip(docs, blocks):
        fences = declaration_blocks(doc_blocks, doc, diags)
        for number, block in enumerate(fences):
            view = SourceText(f"{doc.rel_path}{_VIEW_MARK}{number}", block.text)
            views.append(view)
            owners[view.rel_path] = (doc, block, DocText(view.rel_path, view.text))
    ts_diags = Diagnostics(diags.phase)
    # Prose names some types TypeScript lacks (``integer``), and the spec may declare
    # external a name the prose only uses (``array``): they resolve afterwards.
    options = Options(
        roots=False, known_names=frozenset(PROSE_ONLY_TYPES) | frozenset(externals)
    )
    typescript = read_typescript(views, roles, externals, ts_diags, options)
    enums = namespace_enums(views)
    typescript = replace(typescript, decls=_with_enums(typescript.decls, enums))
    made = {f"({enum.name})" for enum in enums}
    ts_diags.items = [
        d
        for d in ts_diags.items
        if not (d.code == "SYN005" and any(name in d.message for name in made))
    ]

    def to_document(node: Any) -> Any:
        if isinstance(node, ir.Span) and node.file in owners:
            return _map_span(node, *owners[node.file])
        return node

    typescript = rewrite(typescript, to_document)
    for diagnostic in ts_diags.items:
        diags.items.append(rewrite(diagnostic, to_document))
    decls = integer_aliases(_prose_types(typescript.decls, externals))
    methods: list[ir.Method] = []
    layouts: list[Evidence] = []
    declared = {decl.name for decl in decls}
    for doc, doc_blocks in zip(docs, blocks):
        methods.extend(read_methods(doc_blocks, doc, roles, diags))
        layouts.extend(read_layouts(doc_blocks, doc, roles, declared, diags))
    provenance: dict[str, dict[str, str]] = {}
    if layouts:
        methods = resolve_with(
            methods, layouts, roles, diags, "its Request: line", provenance
        )
    return FrontendResult(
        decls=decls,
        methods=tuple(methods),
        examples=typescript.examples,
        constants=typescript.constants,
        provenance=provenance,
    )


def _map_span(span: ir.Span, doc: DocText, block: Block, view: DocText) -> ir.Span:
    """A span in a TypeScript block → the same character in the prose document."""
    return doc.block_span(block, view.offset(span.line, span.col))


def _prose_types(
    decls: tuple[ir.Decl, ...], externals: dict[str, str]
) -> tuple[ir.Decl, ...]:
    declared = {decl.name for decl in decls}

    def replace_ref(node: Any) -> Any:
        # The other prose type names are TypeScript's own: read as such already.
        if isinstance(node, ir.Ref) and node.name not in declared:
            return PROSE_ONLY_TYPES.get(node.name, node)
        return node

    out = rewrite(decls, replace_ref)
    # A name the prose only uses, declared external in spec.toml: any JSON, as an
    # imported external type is.
    used = {
        node.name
        for node in _refs(out)
        if node.name in externals and node.name not in declared
    }
    first: dict[str, ir.Span] = {}
    for node in _refs(out):
        if node.name in used:
            first.setdefault(node.name, node.span)
    return out + tuple(
        ir.AliasDecl(
            name,
            ir.AnyJson(),
            ir.AliasKind.EXTERNAL,
            ir.Lifecycle(docs=externals[name]),
            first[name],
        )
        for name in sorted(used)
    )


def _refs(decls: tuple[ir.Decl, ...]) -> list[ir.Ref]:
    found: list[ir.Ref] = []

    def visit(node: Any) -> Any:
        if isinstance(node, ir.Ref):
            found.append(node)
        return node

    rewrite(decls, visit)
    return found


def _with_enums(
    decls: tuple[ir.Decl, ...], enums: list[ir.EnumDecl]
) -> tuple[ir.Decl, ...]:
    """Each namespace enum in place of the type alias of its name, else added."""
    # The TypeScript frontend reads a namespace merged with an alias as an enum itself:
    # that one stands.
    made = {d.name for d in decls if isinstance(d, ir.EnumDecl)}
    enums = [enum for enum in enums if enum.name not in made]
    by_name = {enum.name: enum for enum in enums}
    out: list[ir.Decl] = []
    for decl in decls:
        enum = by_name.pop(decl.name, None)
        if enum is not None and isinstance(decl, ir.AliasDecl):
            docs = "\n\n".join(
                d for d in (decl.lifecycle.docs, enum.lifecycle.docs) if d
            )
            out.append(
                replace(
                    enum,
                    lifecycle=replace(decl.lifecycle, docs=docs),
                    span=decl.span,
                )
            )
            continue
        out.append(decl)
        if enum is not None:
            made.add(enum.name)  # a declaration of another kind keeps its name
    out.extend(e for e in enums if e.name in by_name and e.name not in made)
    return tuple(out)
