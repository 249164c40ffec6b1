"""The TypeScript frontend: declarations, method tables and examples of ``.ts`` files → IR.

Phase: frontend.
Inputs: TypeScript sources (``SourceText``), the spec's roles, its declared external types,
its ``[methods]`` table and the types it asks for.
Outputs: a ``FrontendResult`` (declarations, methods, examples, constants) and diagnostics.
Guarantees: never raises on user input.  The files share one namespace (as the published
specs use them: per-channel files, aggregators re-exporting them); functions, classes and
other code are skipped with a note.  **Only what is reachable can block**: a declaration
whose type cannot be evaluated is an error only when a method's params or result, or a type
spec.toml asks for (``[spec] types``), reaches it; otherwise it is left out with a warning
(SYN006), and so is whatever uses it.  The same name declared twice with the same meaning
is one declaration; with different meanings, REF003.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import tree_sitter_typescript
from tree_sitter import Language, Node, Parser

from codegen import ir
from codegen.diagnostics import Diagnostics
from codegen.frontends.common.result import FrontendResult
from codegen.frontends.common.syntax import report_syntax_errors
from codegen.frontends.typescript import (
    envelope_messages,
    method_namespaces,
    method_sources,
    methods,
)
from codegen.frontends.typescript.evaluator import Evaluator
from codegen.frontends.typescript.includes import expand_includes
from codegen.frontends.typescript.jsdoc import lifecycle_of
from codegen.frontends.typescript.state import Group, Problem
from codegen.frontends.typescript.symbols import Symbol, SymbolTable, collect
from codegen.frontends.typescript.tstypes import Leaf, literal_value
from codegen.ir.index import walk_expr
from codegen.ir.rewrite import rewrite
from codegen.methods.table import apply_method_table
from codegen.spec.config import MethodEntry, SpecConfig
from codegen.spec.source import SourceText

_LANGUAGE = Language(tree_sitter_typescript.language_typescript())

# (sources, roles, external type name → reason, diagnostics) → result
Reader = Callable[
    [list[SourceText], tuple[str, str], dict[str, str], Diagnostics], FrontendResult
]


@dataclass(frozen=True, slots=True)
class Options:
    """What the spec says beyond its sources.  ``roots`` None: everything is reachable
    (every problem blocks), as for TypeScript embedded in prose."""

    entries: tuple[MethodEntry, ...] = ()
    requested: tuple[str, ...] = ()
    roots: bool = True
    known_names: frozenset[str] = frozenset()
    root: Path | None = None  # where the sources' relative paths start (includes)
    # an event-envelope spec: the envelope's keys (part → key), read for its messages
    envelope: tuple[tuple[str, str], ...] = ()


def read_spec(
    sources: list[SourceText], config: SpecConfig, diags: Diagnostics
) -> FrontendResult:
    """The frontend entry point the pipeline calls for ``language = "typescript"``."""
    options = Options(
        config.methods,
        config.requested_types,
        root=config.repo_root,
        envelope=config.envelope_fields,
    )

    def reader(
        srcs: list[SourceText],
        roles: tuple[str, str],
        externals: dict[str, str],
        found: Diagnostics,
    ) -> FrontendResult:
        return read_typescript(srcs, roles, externals, found, options)

    result = read_with_externals(reader, sources, config, diags)
    if config.extra_keys == "forbid":
        result = replace(result, decls=tuple(_closed(d) for d in result.decls))
    return result


def _closed(decl: ir.Decl) -> ir.Decl:
    """``extra_keys = "forbid"``: object types without an index signature take no key
    beyond their members (TypeScript's excess-property check, applied to every read);
    a numeric index signature (``[k: number]: T``) adds the numeric names only."""
    if isinstance(decl, ir.StructDecl) and (
        decl.index_value is None or decl.index_key is not None
    ):
        return replace(decl, extra_keys=ir.ExtraKeys.FORBID)
    return decl


def read_with_externals(
    reader: Reader, sources: list[SourceText], config: SpecConfig, diags: Diagnostics
) -> FrontendResult:
    """Run a TypeScript-based reader with the spec's roles and externals; warn (CFG004)
    about an external type that no source imports."""
    externals = {ext.name: ext.reason for ext in config.externals}
    result = reader(sources, config.roles, externals, diags)
    imported = {
        d.name
        for d in result.decls
        if isinstance(d, ir.AliasDecl) and d.kind is ir.AliasKind.EXTERNAL
    }
    for external in config.externals:
        if external.name not in imported:
            diags.report(
                "CFG004",
                f"external type {external.name} is declared in spec.toml but never imported",
                ir.Span(config.rel(config.spec_dir / "spec.toml"), 1, 1),
            )
    return result


def parse_tree(source: SourceText) -> Node:
    return Parser(_LANGUAGE).parse(source.data).root_node


def read_typescript(
    sources: list[SourceText],
    roles: tuple[str, str],
    externals: dict[str, str],
    diags: Diagnostics,
    options: Options | None = None,
) -> FrontendResult:
    """Read TypeScript sources into IR declarations, methods and examples."""
    options = options or Options(roots=False)
    files = []
    sources = [_lf(source) for source in sources]
    for source in sources:
        root = parse_tree(source)
        report_syntax_errors(root, source, diags)
        files.append((source, root))
    table = collect(files)
    for skipped in table.skipped:
        diags.report(
            "SYN005",
            f"{skipped.what} ({skipped.name}) is code, not a wire type; skipped",
            skipped.span,
        )
    external_groups = _external_groups(table, externals, diags)
    imported = {g.name for g in external_groups} | set(options.known_names)
    evaluator = Evaluator(table, imported, diags)
    groups = evaluator.run()
    groups = _merge_same(groups, diags)
    groups.extend(external_groups)
    constants = _constants(table, evaluator)

    decls = [decl for group in groups for decl in group.decls]
    by_name = {decl.name: decl for decl in decls}
    registries = method_sources.registry_names(evaluator)
    method_group = Group("<methods>", None)
    evaluator.stack.append(method_group)
    found = [
        item
        for comment in expand_includes(table.method_comments, options.root, diags)
        if (item := methods.from_jsdoc(comment, by_name, roles, diags)) is not None
    ]
    found.extend(method_sources.from_messages(decls, roles, diags))
    if options.envelope:
        found.extend(
            envelope_messages.from_envelopes(decls, roles, dict(options.envelope))
        )
    found.extend(method_namespaces.from_namespaces(files, evaluator, roles, diags))
    found.extend(method_sources.from_registries(evaluator, registries, roles))
    evaluator.stack.pop()
    supplied = {
        entry.wire: {k for k in method_table_facts(entry)} for entry in options.entries
    }
    merged = methods.merge(found, roles, supplied, diags)
    groups.append(method_group)
    for group in groups:
        if group.name in registries:
            diags.report(
                "SYN005",
                f"{group.name} is a method registry: it is read as the method table, "
                "not as a wire type",
                group.decls[-1].span if group.decls else ir.NO_SPAN,
            )
            group.decls = []
    all_decls = [decl for group in groups for decl in group.decls]
    method_list = merged.methods
    if options.roots:
        method_list = apply_method_table(
            method_list,
            all_decls,
            options.entries,
            roles,
            diags,
            merged.unknown,
            provenance=merged.provenance,
        )
    kept = _reachability(groups, method_list, options, diags)
    return FrontendResult(
        decls=tuple(kept),
        methods=tuple(method_list),
        examples=tuple(merged.examples),
        constants=tuple(constants),
        method_table_applied=options.roots,
        provenance=merged.provenance,
    )


def _lf(source: SourceText) -> SourceText:
    """The source with every line ending (``\\r\\n``, a lone ``\\r``) as ``\\n``: the
    checker reads all three as line terminators, and JSDoc, examples and spans are read
    by lines.  Line numbers stay those an editor shows."""
    if "\r" not in source.text:
        return source
    text = source.text.replace("\r\n", "\n").replace("\r", "\n")
    return SourceText(source.rel_path, text)


def method_table_facts(entry: MethodEntry) -> list[str]:
    facts = []
    for key in ("kind", "direction", "params", "result", "params_optional"):
        if getattr(entry, key) is not None:
            facts.append(key)
    if not entry.is_method:
        facts.append("method")
    return facts


# ---------------------------------------------------------------------- reachability


def _reachability(
    groups: list[Group],
    method_list: list[ir.Method],
    options: Options,
    diags: Diagnostics,
) -> list[ir.Decl]:
    """Report each group's problems as errors when it is reachable, else leave it out
    with a warning; then leave out whatever uses a left-out declaration."""
    owner = {decl.name: group for group in groups for decl in group.decls}
    if not options.roots:
        reached = set(owner)
    else:
        roots = [
            node.name
            for method in method_list
            for part in (method.params, method.result)
            for node in walk_expr(part)
            if isinstance(node, ir.Ref)
        ]
        roots.extend(options.requested)
        reached = _closure(roots, owner)
    dropped: dict[str, str] = {}  # declaration → why
    for group in groups:
        if not group.problems:
            continue
        # A group whose evaluation failed has no decls: its own name tells if it is needed.
        if group.name in reached or any(decl.name in reached for decl in group.decls):
            for problem in group.problems:
                message = problem.message
                if options.roots:
                    message += (
                        f"; {group.name} is needed (by a method or by [spec] types)"
                    )
                diags.report(problem.code, message, problem.span)
            continue
        for problem in group.problems:
            diags.report(
                "SYN006",
                f"{group.name} is left out: {problem.message}; no method or requested "
                "type uses it",
                problem.span,
            )
        for decl in group.decls:
            dropped[decl.name] = group.name
    changed = True
    while changed:
        changed = False
        for group in groups:
            if any(decl.name in dropped for decl in group.decls) or not group.decls:
                continue
            used = _uses(group, set(dropped))
            if used is None:
                continue
            diags.report(
                "SYN006",
                f"{group.name} is left out: it uses {used}, which was left out",
                group.decls[-1].span,
            )
            for decl in group.decls:
                dropped[decl.name] = group.name
            changed = True
    return [
        decl for group in groups for decl in group.decls if decl.name not in dropped
    ]


def _closure(roots: list[str], owner: dict[str, Group]) -> set[str]:
    seen: set[str] = set()
    stack = list(roots)
    while stack:
        name = stack.pop()
        if name in seen:
            continue
        seen.add(name)  # also names nothing owns: a failed group is still needed
        if name not in owner:
            continue
        decl = next(d for d in owner[name].decls if d.name == name)
        stack.extend(_refs(decl))
    return seen


def _refs(decl: ir.Decl) -> list[str]:
    out: list[str] = []
    exprs: list[ir.TypeExpr] = []
    if isinstance(decl, ir.StructDecl):
        out.extend(base.name for base in decl.bases)
        exprs.extend(f.type for f in decl.fields)
        if decl.index_value is not None:
            exprs.append(decl.index_value)
    elif isinstance(decl, ir.UnionDecl):
        exprs.extend(v.type for v in decl.variants if v.type is not None)
    elif isinstance(decl, ir.AliasDecl):
        exprs.append(decl.target)
    for expr in exprs:
        for node in walk_expr(expr):
            if isinstance(node, ir.Ref):
                out.append(node.name)
            elif isinstance(node, ir.EnumMemberRef):
                out.append(node.enum)
    return out


def _uses(group: Group, dropped: set[str]) -> str | None:
    for decl in group.decls:
        for name in _refs(decl):
            if name in dropped:
                return name
    return None


# ---------------------------------------------------------------------- the rest


def _merge_same(groups: list[Group], diags: Diagnostics) -> list[Group]:
    """Declarations of one name in different scopes are different types (``scopes``
    names them apart); when they mean the same (the same IR once their own names and
    the names of other merged twins are set aside), one is kept and the others' uses
    point at it, so a type re-declared by an aggregator file stays one type."""
    by_local: dict[str, list[Group]] = {}
    for group in groups:
        if group.symbol is not None and group.symbol.kind != "const":
            by_local.setdefault(group.symbol.local, []).append(group)
    renames: dict[str, str] = {}
    changed = True
    while changed:
        changed = False
        for local, twins in sorted(by_local.items()):
            if len(twins) < 2:
                continue
            keep = next((g for g in twins if g.name == local), twins[0])
            for group in twins:
                if group is keep or group.name in renames or not _plain(group):
                    continue
                if not _plain(keep):
                    break
                mine = _renamed(group.decls[0], {**renames, group.name: keep.name})
                theirs = _renamed(keep.decls[0], renames)
                mine = replace(mine, exported=theirs.exported)
                if not _same_meaning(mine, theirs):
                    continue
                renames[group.name] = keep.name
                changed = True
                diags.report(
                    "SYN005",
                    f"{local} is declared again with the same meaning (first at "
                    f"{theirs.span}); one declaration is kept",
                    mine.span,
                )
    if not renames:
        return groups
    out = [g for g in groups if g.name not in renames]
    for group in out:
        group.decls = [_renamed(d, renames) for d in group.decls]
    return out


def _plain(group: Group) -> bool:
    return len(group.decls) == 1 and not group.problems


def _renamed(decl: ir.Decl, renames: dict[str, str]) -> ir.Decl:
    if not renames:
        return decl

    def fix(node: object) -> object:
        if isinstance(node, ir.Ref) and node.name in renames:
            return replace(node, name=renames[node.name])
        if isinstance(node, ir.EnumMemberRef) and node.enum in renames:
            return replace(node, enum=renames[node.enum])
        return node

    renamed = rewrite(decl, fix)
    if renamed.name in renames:
        renamed = replace(renamed, name=renames[renamed.name])
    return renamed


def _same_meaning(a: ir.Decl | None, b: ir.Decl | None) -> bool:
    """IR equality, except that a TypeScript union is a set: member order does not count."""
    if isinstance(a, ir.UnionDecl) and isinstance(b, ir.UnionDecl) and not a.first_fit:
        return replace(a, variants=()) == replace(b, variants=()) and set(
            a.variants
        ) == set(b.variants)
    return a == b


def _external_groups(
    table: SymbolTable, externals: dict[str, str], diags: Diagnostics
) -> list[Group]:
    out: list[Group] = []
    seen: set[str] = set()
    for imported in table.imports:
        importer = table.by_source.get(imported.importer)
        if imported.name in seen or (
            importer is not None
            and importer.resolve_module(imported.module, table.files) is not None
        ):
            continue
        if table.type(imported.name) is not None:
            continue
        seen.add(imported.name)
        where = (
            f"{imported.name} is imported from {imported.module!r}, "
            "which is not part of this spec"
        )
        group = Group(imported.name, None)
        if imported.name in externals:
            lifecycle = ir.Lifecycle(
                docs=externals[imported.name] or f"Defined in {imported.module}."
            )
            diags.report(
                "REF002",
                f"{where}; declared external in spec.toml, it is read as any JSON value",
                imported.span,
            )
        else:
            lifecycle = ir.NO_LIFECYCLE
            group.problems.append(
                Problem(
                    "REF001",
                    f"{where}; declare it under [external] in spec.toml",
                    imported.span,
                )
            )
        group.decls.append(
            ir.AliasDecl(
                imported.name,
                ir.AnyJson(),
                ir.AliasKind.EXTERNAL,
                lifecycle,
                imported.span,
            )
        )
        out.append(group)
    return out


def _constants(table: SymbolTable, evaluator: Evaluator) -> list[ir.ConstDecl]:
    """Exported ``const``s with a literal value (protocol versions, error codes)."""
    out: list[ir.ConstDecl] = []
    for symbol in table.order:
        if symbol.kind != "const" or not symbol.exported or _in_namespace(symbol):
            continue
        value_node = symbol.node.child_by_field_name("value")
        if value_node is None or value_node.type not in (
            "string",
            "number",
            "true",
            "false",
            "unary_expression",
        ):
            continue
        scratch = Group(symbol.name, symbol)
        evaluator.stack.append(scratch)
        value = evaluator.value_of(value_node, {}, symbol.source)
        evaluator.stack.pop()
        raw = literal_value(value) if isinstance(value, Leaf) else None
        if raw is None or scratch.problems:
            continue
        out.append(
            ir.ConstDecl(symbol.name, raw, lifecycle_of(symbol.doc), symbol.span)
        )
    return out


def _in_namespace(symbol: Symbol) -> bool:
    return symbol.scope is not None and symbol.scope.kind == "namespace"
