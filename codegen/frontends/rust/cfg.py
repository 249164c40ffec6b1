"""Conditional compilation for the serde frontend: ``#[cfg(...)]`` predicates, ``cfg_attr``
and the crate's features, so a spec reads exactly what ``cargo build`` compiles.

Phase: frontend helper (used by ``rust.crate`` and ``rust.attrs``).
Inputs: the token tree of a ``cfg``/``cfg_attr`` attribute; the spec's ``[rust]`` table
(``features``, ``default_features``) and the crate's ``Cargo.toml`` ``[features]`` table.
Outputs: ``Features`` (the enabled set, closed under Cargo's feature implication) and
``evaluate`` (a predicate's truth).  ``feature = "x"`` is true for enabled features;
``test``, ``doc``, ``docsrs``, ``miri`` and anything else not set by a plain build are false;
``debug_assertions`` and the usual Unix target facts (``unix``, ``target_os = "linux"``,
``target_pointer_width = "64"``...) are true, since that is what the toolchain here builds.
Guarantees: never raises; a predicate it cannot read is reported once (SYN002) and is false
(the item is left out, as an unknown feature would leave it out).
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from dataclasses import dataclass, field

from tree_sitter import Node

from codegen import ir
from codegen.diagnostics import Diagnostics
from codegen.frontends.common.syntax import MAX_TYPE_NESTING, node_text
from codegen.frontends.rust.literals import string_literal_value

# What a plain `cargo build` on Linux x86_64 sets besides features.
_TRUE_FLAGS = frozenset({"unix", "debug_assertions", "panic"})
_TRUE_VALUES = {
    "target_os": {"linux"},
    "target_family": {"unix"},
    "target_arch": {"x86_64"},
    "target_pointer_width": {"64"},
    "target_endian": {"little"},
    "target_env": {"gnu"},
    "panic": {"unwind"},
    "target_has_atomic": {"8", "16", "32", "64", "ptr"},
}
# The same target facts, for the serde oracle's own cfg reading (codegen.oracles).
TARGET_FLAGS = _TRUE_FLAGS
TARGET_VALUES = _TRUE_VALUES


@dataclass(frozen=True)
class Features:
    """The features a build enables (after Cargo's implication: ``unstable = [...]``)."""

    enabled: frozenset[str] = frozenset()

    @staticmethod
    def resolve(
        requested: Iterable[str],
        table: dict[str, list[str]],
        default_features: bool = True,
    ) -> Features:
        wanted = list(requested)
        if default_features and "default" in table:
            wanted.append("default")
        enabled: set[str] = set()
        while wanted:
            name = wanted.pop()
            if name in enabled:
                continue
            enabled.add(name)
            for implied in table.get(name, []):
                # "dep:x" and "crate/feature" name dependencies, not features of this crate.
                if ":" not in implied and "/" not in implied:
                    wanted.append(implied)
        return Features(frozenset(enabled))


def cargo_features(text: str) -> dict[str, list[str]] | None:
    """The ``[features]`` table of a Cargo.toml (None if it does not parse)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return None
    table = data.get("features", {})
    if not isinstance(table, dict):
        return {}
    return {
        str(name): [str(item) for item in items]
        for name, items in table.items()
        if isinstance(items, list)
    }


@dataclass
class CfgEvaluator:
    features: Features
    diags: Diagnostics
    _reported: set[str] = field(default_factory=set)

    def evaluate(self, tree: Node | None, span: ir.Span) -> bool:
        """The truth of ``cfg(<tree>)``: ``tree`` is the parenthesized token tree."""
        if tree is None:
            return self._unreadable("cfg()", span)
        groups = split_groups(tree)
        if len(groups) != 1:
            return self._unreadable(node_text(tree), span)
        return self.predicate(groups[0], span)

    def predicate(self, tokens: list[Node], span: ir.Span, depth: int = 0) -> bool:
        if depth >= MAX_TYPE_NESTING:
            self.diags.report(
                "SYN008",
                f"a cfg predicate nested more than {MAX_TYPE_NESTING} levels deep; "
                "taken as false",
                span,
            )
            return False
        if not tokens or tokens[0].type != "identifier":
            return self._unreadable(" ".join(node_text(t) for t in tokens), span)
        name = node_text(tokens[0])
        if len(tokens) == 1:
            return name in _TRUE_FLAGS
        if len(tokens) == 3 and tokens[1].type == "=":
            value = string_literal_value(tokens[2])
            if value is None:
                return self._unreadable(node_text(tokens[2]), span)
            if name == "feature":
                return value in self.features.enabled
            return value in _TRUE_VALUES.get(name, set())
        if len(tokens) == 2 and tokens[1].type == "token_tree":
            groups = split_groups(tokens[1])
            parts = [self.predicate(g, span, depth + 1) for g in groups]
            if name == "all":
                return all(parts)
            if name == "any":
                return any(parts)
            if name == "not" and len(parts) == 1:
                return not parts[0]
        return self._unreadable(" ".join(node_text(t) for t in tokens), span)

    def _unreadable(self, text: str, span: ir.Span) -> bool:
        if text not in self._reported:
            self._reported.add(text)
            self.diags.report(
                "SYN002",
                f"cfg predicate {text[:60]!r} is not understood; taken as false",
                span,
            )
        return False


def split_groups(tree: Node) -> list[list[Node]]:
    """The comma-separated groups of a token tree's contents (comments left out)."""
    groups: list[list[Node]] = [[]]
    for child in tree.children[1:-1]:
        if child.type == ",":
            groups.append([])
        elif child.type not in ("line_comment", "block_comment"):
            groups[-1].append(child)
    return [group for group in groups if group]
