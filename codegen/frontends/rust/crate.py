"""A Rust crate as the serde frontend sees it: the module tree, what ``#[cfg]`` compiles, and
the items of every compiled module in crate order.

Phase: frontend (first step of ``rust.reader``).
Inputs: the spec's sources (``.rs`` files, and optionally the crate's ``Cargo.toml``), the
``[rust]`` feature selection.
Outputs: ``Crate``: every compiled item (``Item``: node, attributes, source, module path) in
crate order (a module's items where its ``mod`` declaration stands), the namespace of every
compiled module (``paths.Resolver``: its items, child modules, ``use`` and glob imports), the
enabled ``Features`` and the ``AttrReader`` of each file.
Module files are found as rustc finds them: ``mod x;`` in a crate root or ``mod.rs`` means
``x.rs`` or ``x/mod.rs`` beside it, in ``foo.rs`` it means ``foo/x.rs`` or ``foo/x/mod.rs``;
``#[path = "..."]`` overrides; a source no ``mod`` declaration names is a crate root.  A file
whose ``mod`` declaration is compiled out (``#[cfg(feature = "unstable_nes")] mod nes;``
without that feature) contributes nothing (SYN007 note).
Guarantees: never raises; syntax errors are SYN001, a compiled ``mod`` whose file is not among
the sources is SYN002 (its declarations are missing, and references to them say so), an
unreadable Cargo.toml is CFG002.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass, field

import tree_sitter_rust
from tree_sitter import Language, Node, Parser

from codegen import ir
from codegen.diagnostics import Diagnostics, Severity
from codegen.frontends.common.syntax import (
    MAX_SYNTAX_ERRORS,
    MAX_TYPE_NESTING,
    node_text,
    span_of,
)
from codegen.frontends.rust.attrs import AttrReader, Attrs, attributed
from codegen.frontends.rust.bitflags import dependency_major
from codegen.frontends.rust.cfg import CfgEvaluator, Features, cargo_features
from codegen.frontends.rust.paths import Resolver, is_public, read_use_tree
from codegen.spec.source import SourceText

_LANGUAGE = Language(tree_sitter_rust.language())
_MOD_RS = ("lib.rs", "main.rs", "mod.rs")


def parse_tree(source: SourceText) -> Node:
    return Parser(_LANGUAGE).parse(source.data).root_node


@dataclass
class Item:
    node: Node
    attrs: Attrs
    source: SourceText
    module: str  # "crate::v1::agent"


@dataclass
class Crate:
    items: list[Item] = field(default_factory=list)
    resolver: Resolver = field(default_factory=Resolver)  # every module's namespace
    readers: dict[str, AttrReader] = field(default_factory=dict)  # file → its reader
    features: Features = field(default_factory=Features)
    bitflags_major: int | None = (
        None  # Cargo.toml's bitflags dependency, if it names one
    )
    # (file, first line, last line) of every item ``#[cfg]`` leaves out
    uncompiled: list[tuple[str, int, int]] = field(default_factory=list)


@dataclass
class _File:
    source: SourceText
    root: Node


def read_crate(
    sources: list[SourceText],
    requested: tuple[str, ...],
    default_features: bool,
    diags: Diagnostics,
) -> Crate:
    table: dict[str, list[str]] = {}
    files: dict[str, _File] = {}
    bitflags: int | None = None
    for source in sources:
        if posixpath.basename(source.rel_path) == "Cargo.toml":
            parsed = cargo_features(source.text)
            if parsed is None:
                diags.report(
                    "CFG002",
                    f"{source.rel_path} is not valid TOML; its features are not known",
                    ir.Span(source.rel_path, 1, 1),
                )
            else:
                table.update(parsed)
                bitflags = dependency_major(source.text, "bitflags")
            continue
        root = parse_tree(source)
        _report_syntax_errors(root, source, diags)
        files[source.rel_path] = _File(source, root)
    crate = Crate(features=Features.resolve(requested, table, default_features))
    crate.bitflags_major = bitflags
    cfg = CfgEvaluator(crate.features, diags)
    for path, file in files.items():
        crate.readers[path] = AttrReader(file.source, diags, cfg)
    walker = _Walker(files, crate, diags)
    named = walker.named_files()
    for path in files:
        if path not in named:
            walker.module(path, "crate")
    for path in sorted(set(files) - walker.visited):
        diags.report(
            "SYN007",
            f"{path} is not compiled with the selected features; its declarations are "
            "left out",
            ir.Span(path, 1, 1),
        )
    return crate


@dataclass
class _Walker:
    files: dict[str, _File]
    crate: Crate
    diags: Diagnostics
    visited: set[str] = field(default_factory=set)

    def named_files(self) -> set[str]:
        """Every file some ``mod x;`` names, compiled or not."""
        named: set[str] = set()
        for path, file in self.files.items():
            self._declarations(path, file.root, posixpath.dirname(path), named)
        return named

    def _declarations(
        self, path: str, node: Node, base: str, named: set[str], depth: int = 0
    ) -> None:
        for child, _ in attributed(node.named_children):
            if child.type != "mod_item":
                continue
            name = node_text(child.child_by_field_name("name"))
            body = child.child_by_field_name("body")
            if body is not None:
                if depth + 1 < MAX_TYPE_NESTING:  # _items reports the deeper ones
                    inner = posixpath.join(base, name)
                    self._declarations(path, body, inner, named, depth + 1)
                continue
            for candidate in self._candidates(path, base, name, None):
                if candidate in self.files:
                    named.add(candidate)

    def _candidates(
        self, path: str, base: str, name: str, explicit: str | None
    ) -> list[str]:
        if explicit is not None:
            return [
                posixpath.normpath(posixpath.join(posixpath.dirname(path), explicit))
            ]
        return [
            posixpath.normpath(posixpath.join(base, f"{name}.rs")),
            posixpath.normpath(posixpath.join(base, name, "mod.rs")),
        ]

    def module(self, path: str, module: str) -> None:
        if path in self.visited:
            return
        self.visited.add(path)
        file = self.files[path]
        is_root = module == "crate"
        directory = posixpath.dirname(path)
        if is_root or posixpath.basename(path) in _MOD_RS:
            base = directory
        else:
            base = posixpath.join(directory, posixpath.basename(path)[: -len(".rs")])
        self._items(path, file.root, module, base)

    def _items(
        self, path: str, node: Node, module: str, base: str, depth: int = 0
    ) -> None:
        file = self.files[path]
        reader = self.crate.readers[path]
        if depth >= MAX_TYPE_NESTING:
            self.diags.report(
                "SYN008",
                f"modules nested more than {MAX_TYPE_NESTING} levels deep; the "
                "declarations inside are left out",
                span_of(file.source, node),
            )
            return
        scope = self.crate.resolver.scope(module)
        for child, attr_nodes in attributed(node.named_children):
            attrs = reader.collect(attr_nodes)
            if not attrs.enabled:
                first = (attr_nodes[0] if attr_nodes else child).start_point[0] + 1
                self.crate.uncompiled.append((path, first, child.end_point[0] + 1))
                continue
            if child.type == "use_declaration":
                tree = child.child_by_field_name("argument")
                if not read_use_tree(tree, "", is_public(child), scope):
                    self.diags.report(
                        "SYN008",
                        f"a use tree nested more than {MAX_TYPE_NESTING} levels deep; "
                        "its names are not imported",
                        span_of(file.source, child),
                    )
                continue
            if child.type != "mod_item":
                item_name = child.child_by_field_name("name")
                if item_name is not None and child.type in _NAMED_ITEMS:
                    scope.items[node_text(item_name)] = is_public(child)
                self.crate.items.append(Item(child, attrs, file.source, module))
                continue
            name = node_text(child.child_by_field_name("name"))
            body = child.child_by_field_name("body")
            if body is not None:
                inner = f"{module}::{name}"
                scope.modules[name] = is_public(child)
                self._items(path, body, inner, posixpath.join(base, name), depth + 1)
                continue
            found = next(
                (
                    c
                    for c in self._candidates(path, base, name, attrs.path)
                    if c in self.files
                ),
                None,
            )
            if found is None:
                self.diags.report(
                    "SYN002",
                    f"module {name}: its file ({name}.rs or {name}/mod.rs) is not among "
                    "the spec's sources; its declarations are missing",
                    span_of(file.source, child),
                )
                continue
            scope.modules[name] = is_public(child)
            self.module(found, f"{module}::{name}")


# Items that put a name in their module's namespace.
_NAMED_ITEMS = {
    "struct_item",
    "enum_item",
    "type_item",
    "union_item",
    "const_item",
    "static_item",
    "function_item",
    "trait_item",
}


# Items whose insides the frontend never reads as declarations (and generic declarations,
# which are not modelled): a syntax error there (rustc syntax tree-sitter does not know, such
# as ``#[cfg]`` on a field pattern or ``dyn 'static + Fn()``) cannot change a wire type, so it
# is a note, not an error.
_OPAQUE_ITEMS = {
    "impl_item",
    "function_item",
    "trait_item",
    "macro_definition",
    "static_item",
}


def _report_syntax_errors(root: Node, source: SourceText, diags: Diagnostics) -> None:
    if not root.has_error:
        return
    stack = [(root, False)]
    reported = 0
    while stack and reported < MAX_SYNTAX_ERRORS:
        node, opaque = stack.pop()
        if node.is_error or node.is_missing:
            what = f"missing {node.type!r}" if node.is_missing else "unexpected text"
            snippet = node_text(node)[:40].replace("\n", " ")
            message = f"syntax error: {what}" + (
                f" near {snippet!r}" if snippet else ""
            )
            if opaque:
                message += " (inside an item that is skipped; it does not affect the wire types)"
            diags.report(
                "SYN001",
                message,
                span_of(source, node),
                Severity.NOTE if opaque else None,
            )
            reported += 1
            continue
        if node.has_error:
            inside = opaque or node.type in _OPAQUE_ITEMS or _generic_item(node)
            stack.extend((child, inside) for child in reversed(node.children))


def _generic_item(node: Node) -> bool:
    """A generic declaration: never modelled (its wire form depends on its arguments)."""
    return (
        node.type in ("type_item", "struct_item", "enum_item")
        and node.child_by_field_name("type_parameters") is not None
    )
