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

import re
from typing import Any

from codegen import ir
from codegen.diagnostics import Diagnostics
from codegen.frontends.common.result import FrontendResult
from codegen.frontends.prose.markdown_blocks import CODE, Block, read_blocks
from codegen.frontends.prose.method_layouts import read_layouts
from codegen.frontends.prose.methods import PROSE_ONLY_TYPES, DocText, read_methods
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
    return read_with_externals(
        read_prose, with_includes(sources, config, diags), config, diags
    )


_INCLUDE = re.compile(
    r"\{%-?\s*include(?:_relative)?\s+[\"']?([^\s\"'%]+)[\"']?[^%]*-?%\}"
)


_DOCUMENTS = (".md", ".markdown", ".mdx", ".txt", ".html")


def with_includes(
    sources: list[SourceText], config: SpecConfig, diags: Diagnostics
) -> list[SourceText]:
    """The sources, each followed by the documents its ``{% include x.md %}`` lines name
    (found beside the including document, else in the spec's ``_includes/``), followed
    in turn; each included document keeps its own path, so spans point into it."""
    out: list[SourceText] = []
    seen = {source.rel_path for source in sources}
    pending = list(sources)
    while pending:
        source = pending.pop(0)
        out.append(source)
        here = (config.repo_root / source.rel_path).parent
        found: list[SourceText] = []
        for number, line in enumerate(source.text.splitlines(), start=1):
            for match in _INCLUDE.finditer(line):
                name = match.group(1)
                candidates = [here / name, config.spec_dir / "_includes" / name]
                path = next((c for c in candidates if c.is_file()), None)
                if path is not None and path.suffix.lower() not in _DOCUMENTS:
                    path = None  # only documents are followed, never code or data
                span = ir.Span(source.rel_path, number, match.start() + 1)
                if path is None:
                    diags.report(
                        "SYN002",
                        f"{{% include {name} %}} names no file beside the document or "
                        "in _includes/; what it holds is missing",
                        span,
                    )
                    continue
                rel = config.rel(path)
                if rel in seen or len(seen) > 200:
                    continue
                seen.add(rel)
                found.append(SourceText.read(path, rel, diags))
        pending[:0] = found
    return out


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
        for number, block in enumerate(b for b in doc_blocks if b.kind == CODE):
            view = SourceText(f"{doc.rel_path}{_VIEW_MARK}{number}", block.text)
            views.append(view)
            owners[view.rel_path] = (doc, block, DocText(view.rel_path, view.text))
    ts_diags = Diagnostics(diags.phase)
    # Prose names some types TypeScript lacks (``integer``): they resolve afterwards.
    options = Options(roots=False, known_names=frozenset(PROSE_ONLY_TYPES))
    typescript = read_typescript(views, roles, externals, ts_diags, options)

    def to_document(node: Any) -> Any:
        if isinstance(node, ir.Span) and node.file in owners:
            return _map_span(node, *owners[node.file])
        return node

    typescript = rewrite(typescript, to_document)
    for diagnostic in ts_diags.items:
        diags.items.append(rewrite(diagnostic, to_document))
    decls = _prose_types(typescript.decls)
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


def _prose_types(decls: tuple[ir.Decl, ...]) -> tuple[ir.Decl, ...]:
    declared = {decl.name for decl in decls}

    def replace_ref(node: Any) -> Any:
        # The other prose type names are TypeScript's own: read as such already.
        if isinstance(node, ir.Ref) and node.name not in declared:
            return PROSE_ONLY_TYPES.get(node.name, node)
        return node

    return rewrite(decls, replace_ref)
