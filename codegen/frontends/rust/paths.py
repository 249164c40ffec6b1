"""Names as rustc resolves them: every module's items, ``use`` imports and glob imports, and
the paths that name them.

Phase: frontend (built by ``rust.crate`` while it walks the compiled modules; used by
``rust.type_exprs``, ``rust.reader`` and ``rust.methods``).
Inputs: for every compiled module (``crate``, ``crate::v1``, ``crate::v1::agent``): the items
it declares (with their visibility), its child modules, its ``use`` imports
(``use a::b::C``, ``use a::{self, D as E}``) and glob imports (``use a::*``), each with its
visibility; ``#[cfg]``'d-out items and imports are never recorded.
Outputs: ``Resolver.resolve(module, "a::B")``: the full path (``crate::x::B``) of the crate
item or module a path names in a module, or, for a library item, the path with its imports
expanded (``DateTime`` imported from chrono → ``chrono::DateTime``), or None when the name
is unknown there.  The lookup order is rustc's: a module's own items and child modules and its
explicit imports come first (a local item shadows a glob import of the same name), then its
glob imports in order; a path starts at ``crate``, ``self``, ``super`` (repeatable), a name in
scope, or, failing that, a module of the crate root (2015-edition paths).  A glob imports what
is visible to the importer: public items and imports, and private ones when the importer is
inside the module they belong to (``use super::*``).
``output_names``: the IR name of each wire type, unique and deterministic:
- a name declared once in the crate keeps that name;
- when several items share a name, each is placed at the module of its shortest public path
  (``Resolver.public_module``: ``crate::v1`` for an item of ``crate::v1::agent`` that ``v1``
  re-exports); the one placed at the crate root keeps the name, and every other one is named
  by that module path: as few trailing module segments as tell them apart, each in
  PascalCase, then the name (``crate::v1::Meta`` and ``crate::v2::Meta`` → ``V1Meta`` and
  ``V2Meta``; ``crate::v1::agent::Meta`` and ``crate::v2::agent::Meta``, not re-exported, share
  the segment ``agent``, so two segments: ``V1AgentMeta`` and ``V2AgentMeta``);
- a name so made that is still taken gets the smallest number suffix that frees it.
Guarantees: never raises; import cycles (``use a::X`` in b and ``use b::X`` in a) end as
unknown names, never recursion; one ``resolve`` follows each (module, import or glob, name)
at most once (a memo per call), so a crate whose globs form a dense graph costs time linear
in that graph, not one walk per path through it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tree_sitter import Node

from codegen.frontends.common.syntax import MAX_TYPE_NESTING, node_text

CRATE = "crate"

# One top-level lookup's answers so far, by (step, module, …): an answer in progress is None,
# which also cuts a cycle the path-local ``seen`` set has not met yet.
Memo = dict[tuple[Any, ...], "str | None"]


@dataclass
class Scope:
    """One compiled module's namespace."""

    path: str
    items: dict[str, bool] = field(default_factory=dict)  # name → public
    modules: dict[str, bool] = field(default_factory=dict)  # child module → public
    imports: dict[str, tuple[str, bool]] = field(default_factory=dict)  # name → path
    globs: list[tuple[str, bool]] = field(default_factory=list)  # (path, public)


def parent_of(module: str) -> str:
    return module.rsplit("::", 1)[0] if "::" in module else module


def is_within(module: str, ancestor: str) -> bool:
    return module == ancestor or module.startswith(ancestor + "::")


@dataclass
class Resolver:
    scopes: dict[str, Scope] = field(default_factory=dict)

    def scope(self, module: str) -> Scope:
        if module not in self.scopes:
            self.scopes[module] = Scope(module)
        return self.scopes[module]

    def resolve(self, module: str, text: str) -> str | None:
        """The full path ``text`` names in ``module`` (see the module docstring)."""
        segments = [s for s in text.replace(" ", "").split("::")]
        if not segments or not all(segments[1:]):
            return None
        return self._path(module, segments, frozenset(), {})

    def public_module(self, path: str) -> str:
        """The module of an item's shortest public path (rustdoc's: ``crate::v1`` for an
        item of ``crate::v1::agent`` that ``v1`` re-exports with ``pub use agent::*``);
        its own module when nothing re-exports it."""
        own, name = path.rsplit("::", 1)
        for module in sorted(self.scopes, key=lambda m: m.count("::")):
            if module.count("::") >= own.count("::"):
                break
            if self._glob_lookup(module, name, "", frozenset(), {}) == path:
                return module
        return own

    def is_crate_path(self, path: str | None) -> bool:
        return path is not None and is_within(path, CRATE)

    def _path(
        self,
        module: str,
        segments: list[str],
        seen: frozenset[tuple[str, str]],
        memo: Memo,
    ) -> str | None:
        first, rest = segments[0], segments[1:]
        if first == "":  # ``::std::x``: an extern crate
            return "::".join(rest) or None
        if first == CRATE:
            current: str | None = CRATE
        elif first == "self":
            current = module
        elif first == "super":
            current = parent_of(module)
            while rest and rest[0] == "super":
                current, rest = parent_of(current), rest[1:]
        else:
            current = self._lookup(module, first, seen, memo)
            if current is None and module != CRATE:
                current = self._lookup(CRATE, first, seen, memo)  # 2015-edition paths
            if current is None:
                return "::".join(segments)  # a library path
        for index, segment in enumerate(rest):
            if current is None:
                return None
            if not self.is_crate_path(current) or current not in self.scopes:
                # a library path, or a path into an item (``Enum::Variant``)
                return "::".join([current, *rest[index:]])
            current = self._lookup(current, segment, seen, memo)
        return current

    def _lookup(
        self,
        module: str,
        name: str,
        seen: frozenset[tuple[str, str]],
        memo: Memo,
    ) -> str | None:
        scope = self.scopes.get(module)
        if scope is None:
            return None
        if name in scope.modules or name in scope.items:
            return f"{module}::{name}"
        if name in scope.imports:
            return self._imported(module, name, scope.imports[name][0], seen, memo)
        for glob, _ in scope.globs:
            found = self._through_glob(module, glob, name, module, seen, memo)
            if found is not None:
                return found
        return None

    def _imported(
        self,
        module: str,
        name: str,
        text: str,
        seen: frozenset[tuple[str, str]],
        memo: Memo,
    ) -> str | None:
        key = (module, name)
        if key in seen or len(seen) > MAX_TYPE_NESTING:
            return None
        step = ("use", module, name)
        if step not in memo:
            memo[step] = None
            memo[step] = self._path(module, text.split("::"), seen | {key}, memo)
        return memo[step]

    def _through_glob(
        self,
        module: str,
        glob: str,
        name: str,
        importer: str,
        seen: frozenset[tuple[str, str]],
        memo: Memo,
    ) -> str | None:
        key = (module, f"{glob}::*")
        if key in seen or len(seen) > MAX_TYPE_NESTING:
            return None
        step = ("glob", module, glob, name, importer)
        if step in memo:
            return memo[step]
        memo[step] = None
        target = self._path(module, glob.split("::"), seen | {key}, memo)
        if target is None or target not in self.scopes:
            return None  # a library glob (``use serde::*``): nothing we know
        memo[step] = self._glob_lookup(target, name, importer, seen | {key}, memo)
        return memo[step]

    def _glob_lookup(
        self,
        module: str,
        name: str,
        importer: str,
        seen: frozenset[tuple[str, str]],
        memo: Memo,
    ) -> str | None:
        scope = self.scopes[module]

        def visible(public: bool) -> bool:
            return public or is_within(importer, module)

        if name in scope.modules and visible(scope.modules[name]):
            return f"{module}::{name}"
        if name in scope.items and visible(scope.items[name]):
            return f"{module}::{name}"
        if name in scope.imports and visible(scope.imports[name][1]):
            return self._imported(module, name, scope.imports[name][0], seen, memo)
        for glob, public in scope.globs:
            if visible(public):
                found = self._through_glob(module, glob, name, importer, seen, memo)
                if found is not None:
                    return found
        return None


def read_use_tree(
    node: Node | None, prefix: str, public: bool, scope: Scope, depth: int = 0
) -> bool:
    """Record ``use a::b::{C, d::E as F, self, *}`` in ``scope``; False when the tree is
    nested deeper than ``MAX_TYPE_NESTING`` (what is deeper is not read)."""
    if node is None:
        return True
    if depth >= MAX_TYPE_NESTING:
        return False
    kind = node.type
    if kind in ("scoped_identifier", "identifier", "crate", "super", "self"):
        text = node_text(node).replace(" ", "")
        if text == "self" and prefix:  # ``use a::{self}`` imports ``a``
            path = prefix[: -len("::")]
        else:
            path = prefix + text
        name = path.rsplit("::", 1)[-1]
        if name not in ("crate", "self", "super"):
            scope.imports[name] = (path, public)
    elif kind == "use_as_clause":
        target = node_text(node.child_by_field_name("path")).replace(" ", "")
        path = prefix[: -len("::")] if target == "self" and prefix else prefix + target
        alias = node_text(node.child_by_field_name("alias"))
        if alias != "_":  # ``use Trait as _`` brings no name
            scope.imports[alias] = (path, public)
    elif kind == "use_wildcard":
        head = next((c for c in node.named_children), None)
        base = prefix + node_text(head).replace(" ", "") if head else prefix
        scope.globs.append((base.removesuffix("::"), public))
    elif kind == "scoped_use_list":
        path_node = node.child_by_field_name("path")
        inner = node_text(path_node).replace(" ", "") if path_node else ""
        return read_use_tree(
            node.child_by_field_name("list"),
            f"{prefix}{inner}::",
            public,
            scope,
            depth + 1,
        )
    elif kind == "use_list":
        complete = True
        for child in node.named_children:  # every name, even after one too deep
            complete = (
                read_use_tree(child, prefix, public, scope, depth + 1) and complete
            )
        return complete
    return True


def is_public(node: Node) -> bool:
    """Any ``pub`` (``pub``, ``pub(crate)``, ``pub(super)``, ``pub(in ...)``): what a glob
    outside the module may see (the crate is read as one unit)."""
    return any(child.type == "visibility_modifier" for child in node.children)


def pascal(segment: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in segment.split("_") if part)


def output_names(
    paths: list[str], resolver: Resolver, taken: set[str] | None = None
) -> dict[str, str]:
    """Full item path → its IR name, by the rule in the module docstring.  ``paths`` in
    crate order; ``taken`` names the result must not use (besides its own)."""
    groups: dict[str, list[str]] = {}
    for path in dict.fromkeys(paths):  # one path twice: the same name (REF003 says so)
        groups.setdefault(path.rsplit("::", 1)[-1], []).append(path)
    out: dict[str, str] = {}
    used = set(taken or ()) | {name for name, group in groups.items()}
    for name, group in groups.items():
        if len(group) == 1:
            out[group[0]] = name
            continue
        shown = {p: resolver.public_module(p) for p in group}
        keeper = next((p for p in group if shown[p] == CRATE), None)
        others = [p for p in group if p != keeper]
        if keeper is not None:
            out[keeper] = name
        if not others:
            continue
        modules = {p: shown[p].split("::")[1:] for p in others}
        longest = max(len(m) for m in modules.values())
        for count in range(1, longest + 1):
            names = {
                p: "".join(pascal(s) for s in m[-count:]) + name
                for p, m in modules.items()
            }
            if len(set(names.values())) == len(names) and name not in names.values():
                break
        for path in others:
            chosen = names[path]
            if chosen in used or chosen == name:
                number = 2
                while f"{chosen}{number}" in used:
                    number += 1
                chosen = f"{chosen}{number}"
            used.add(chosen)
            out[path] = chosen
    return out
