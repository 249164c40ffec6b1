"""TypeScript scopes as the checker has them, and the rule that names their declarations
in the IR.

Phase: frontend helper (used by ``symbols`` while collecting, by ``evaluator`` to resolve).
Inputs: ``Scope``s filled by ``symbols``: one per file (a *module* when it has a top-level
``import``/``export``, else a *script*), one per ``namespace`` name in a scope (all blocks
of that name merged, as the checker merges them).
Outputs: name lookups in the three spaces TypeScript keeps apart (types, values,
namespaces), following the scope chain, imports (``import { X as Y }``, ``import * as
NS``), a module's exports (declared ``export``, ``export { A as B } [from]``, ``export * [as
NS] from``); ``assign_names``, the IR name of every declaration.
Guarantees: lookups never raise and end on cyclic re-exports; a module path resolves as
``tsc`` resolves relative specifiers (``./x.js`` → ``x.ts``, ``x.d.ts``, ``x/index.ts``).

The naming rule (stable across reorderings of files and declarations): a declared name
used by one declaration only is its IR name.  Declarations sharing a name are ordered by
(exported before private, fewer namespace levels first, file path, namespace path); the
first keeps the name; each other is named by the first free candidate of: its namespace
path + name (``NS.Item`` → ``NSItem``), its file's stem + namespace path + name
(``a.ts``'s private ``integer`` → ``AInteger``), the same with the parent folder too,
then that with ``2``, ``3`` … .  A candidate is free when no declaration is declared with
it and no earlier declaration took it.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass, field
from typing import Any

from codegen import ir

_SUFFIXES = (".d.ts", ".ts", ".tsx", ".d.mts", ".mts", ".d.cts", ".cts")
_JS = (".js", ".mjs", ".cjs", ".jsx")


@dataclass(frozen=True, slots=True)
class Import:
    name: str  # the local name
    imported: str  # the name in the module it comes from ("*": the module itself)
    module: str
    span: ir.Span
    importer: str = ""  # the importing file's rel_path


@dataclass(eq=False)
class Scope:
    """A file or a namespace: what it declares, imports and exports."""

    kind: str  # module, script, namespace
    file: str  # rel_path of the (first) file
    path: tuple[str, ...]  # namespace names from the file down
    parent: Scope | None
    ambient: bool = False  # ``declare namespace`` / ``.d.ts``: members are exported
    types: dict[str, Any] = field(default_factory=dict)  # name → Symbol
    values: dict[str, Any] = field(default_factory=dict)
    namespaces: dict[str, Scope] = field(default_factory=dict)
    blocks: list[Scope] = field(default_factory=list)  # nested namespace scopes
    exported: set[str] = field(default_factory=set)
    reexports: dict[str, tuple[str | None, str]] = field(default_factory=dict)
    stars: list[str] = field(default_factory=list)
    imports: dict[str, Import] = field(default_factory=dict)
    aliases: dict[str, str] = field(default_factory=dict)  # ``import A = B.C``
    assigned: str | None = None  # ``export = NS``: the module is that namespace
    ranges: list[tuple[str, int, int]] = field(default_factory=list)
    doc_nodes: list[Any] = field(default_factory=list)

    def add_range(self, file: str, start: int, end: int) -> None:
        self.ranges.append((file, start, end))

    def ranges_contain(self, file: str, position: int) -> bool:
        return any(f == file and s <= position < e for f, s, e in self.ranges)

    # ------------------------------------------------------------------ lookup

    def lookup(self, name: str, space: str, files: dict[str, Scope]) -> Any:
        """``name`` as seen from inside this scope (the chain up to the file)."""
        scope: Scope | None = self
        while scope is not None:
            found = scope.own(name, space)
            if found is not None:
                return found
            if name in scope.aliases:
                return scope.qualified(scope.aliases[name], space, files)
            imported = scope.imports.get(name)
            if imported is not None:
                target = scope.resolve_module(imported.module, files)
                if target is None:
                    return None
                if imported.imported == "*":
                    return target if space == "namespace" else None
                return target.export(imported.imported, space, files, set())
            scope = scope.parent
        return None

    def qualified(self, dotted: str, space: str, files: dict[str, Scope]) -> Any:
        """``A.B.C`` seen from this scope: namespaces down to ``C`` in ``space``."""
        parts = dotted.split(".")
        if len(parts) == 1:
            return self.lookup(parts[0], space, files)
        owner = self.lookup(parts[0], "namespace", files)
        for part in parts[1:-1]:
            if not isinstance(owner, Scope):
                return None
            owner = owner.export(part, "namespace", files, set())
        if not isinstance(owner, Scope):
            return None
        return owner.export(parts[-1], space, files, set())

    def own(self, name: str, space: str) -> Any:
        if space == "type":
            return self.types.get(name)
        if space == "value":
            return self.values.get(name)
        return self.namespaces.get(name)

    def export(
        self, name: str, space: str, files: dict[str, Scope], seen: set[int]
    ) -> Any:
        """What this module or namespace exports as ``name``."""
        if id(self) in seen:
            return None
        seen = seen | {id(self)}
        if self.assigned is not None and self.assigned in self.namespaces:
            # ``export = NS``: what the module exports is what the namespace does
            found = self.namespaces[self.assigned].export(name, space, files, seen)
            if found is not None:
                return found
        if name in self.exported:
            found = self.own(name, space)
            if found is not None:
                return found
        if name in self.reexports:
            module, original = self.reexports[name]
            if module is None:
                return self.lookup(original, space, files)
            target = self.resolve_module(module, files)
            if target is None:
                return None
            if original == "*":
                return target if space == "namespace" else None
            return target.export(original, space, files, seen)
        if name == "default":
            return None
        for module in self.stars:
            target = self.resolve_module(module, files)
            if target is None:
                continue
            found = target.export(name, space, files, seen)
            if found is not None:
                return found
        return None

    def resolve_module(self, module: str, files: dict[str, Scope]) -> Scope | None:
        """The file a module specifier names, relative to this scope's file."""
        if not module.startswith("."):
            return files.get(module_key(module))
        base = posixpath.normpath(posixpath.join(posixpath.dirname(self.file), module))
        for candidate in (module_key(base), module_key(base) + "/index"):
            if candidate in files:
                return files[candidate]
        # The same folder layout under another root (sources named from elsewhere):
        # the longest unique suffix match.
        stem = module_key(base).lstrip("./")
        matches = [key for key in files if key == stem or key.endswith("/" + stem)]
        return files[matches[0]] if len(matches) == 1 else None


def module_key(path: str) -> str:
    """A file's module path without its extension (``a/b.d.ts`` and ``a/b.js`` → ``a/b``)."""
    for suffix in _SUFFIXES + _JS:
        if path.endswith(suffix):
            return path[: -len(suffix)]
    return path


def _cap(name: str) -> str:
    return name[:1].upper() + name[1:]


def _pascal(text: str) -> str:
    return "".join(_cap(p) for p in re.split(r"[^0-9A-Za-z]+", text) if p)


def assign_names(symbols: list[Any]) -> dict[Any, str]:
    """The IR name of every type declaration (``Symbol``), by the rule in the module
    docstring; constants keep their declared names (they are values, not types)."""
    out: dict[Any, str] = {}
    by_name: dict[str, list[Any]] = {}
    for symbol in symbols:
        if symbol.kind == "const":
            out[symbol] = symbol.local
            continue
        by_name.setdefault(symbol.local, []).append(symbol)
    declared = set(by_name)
    taken: set[str] = set()
    for name, group in by_name.items():
        if len(group) == 1:
            out[group[0]] = name
            taken.add(name)
    for name in sorted(n for n, g in by_name.items() if len(g) > 1):
        group = sorted(by_name[name], key=_rank)
        out[group[0]] = name
        taken.add(name)
        for symbol in group[1:]:
            chosen = _free(symbol, taken, declared)
            out[symbol] = chosen
            taken.add(chosen)
    return out


def _rank(symbol: Any) -> tuple[int, int, str, tuple[str, ...]]:
    scope = symbol.scope
    public = symbol.exported or scope is None or scope.kind == "script"
    path = scope.path if scope is not None else ()
    return (0 if public else 1, len(path), symbol.source.rel_path, path)


def _free(symbol: Any, taken: set[str], declared: set[str]) -> str:
    scope = symbol.scope
    path = "".join(_cap(p) for p in (scope.path if scope is not None else ()))
    parts = module_key(symbol.source.rel_path).split("/")
    stem = _pascal(parts[-1])
    folder = _pascal(parts[-2]) if len(parts) > 1 else ""
    name = _cap(symbol.local)
    candidates = [c for c in (path + name if path else "",) if c]
    candidates += [stem + path + name, folder + stem + path + name]
    for candidate in candidates:
        if candidate not in taken and candidate not in declared:
            return candidate
    number = 2
    while (
        f"{candidates[-1]}{number}" in taken or f"{candidates[-1]}{number}" in declared
    ):
        number += 1
    return f"{candidates[-1]}{number}"
