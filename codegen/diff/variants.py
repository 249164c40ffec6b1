"""Pair the variants of two revisions of a union, as a reader would tell them apart.

Phase: spec diff, used by ``compare`` for every union (named, inline, or a plain type
compared with a union).
Inputs: the ``VariantView``s of each side and the ``View`` of each protocol.
Outputs: ``(pairs, removed, added)``; ``style_text`` names a variant's representation for
messages.
Guarantees: deterministic.  Variants pair, in this order, by a shared tag value, by name, by
the declaration their payload names, then by shape: objects by the share of keys they have in
common (at least half), other kinds by kind, best matches first.  So a renamed variant type,
a union written inline in one revision and named in the other, or a variant that gained a key
pairs with its old self instead of reading as one removal plus one addition.
"""

from __future__ import annotations

from collections.abc import Callable

from codegen import ir
from codegen.diff.normalize import (
    MapNode,
    ObjectNode,
    ScalarNode,
    ValuesNode,
    VariantView,
    View,
)

Pairs = list[tuple[VariantView, VariantView]]


def match_variants(
    old: list[VariantView],
    new: list[VariantView],
    old_view: View,
    new_view: View,
) -> tuple[Pairs, list[VariantView], list[VariantView]]:
    pairs: Pairs = []
    left = list(old)
    right = list(new)

    def take(match: Callable[[VariantView, VariantView], bool]) -> None:
        for ov in list(left):
            for nv in right:
                if match(ov, nv):
                    pairs.append((ov, nv))
                    left.remove(ov)
                    right.remove(nv)
                    break

    take(
        lambda o, n: bool(
            o.tag_values and n.tag_values and set(o.tag_values) & set(n.tag_values)
        )
    )
    take(lambda o, n: o.name == n.name)
    take(
        lambda o, n: (
            _decl_name(o, old_view) is not None
            and _decl_name(o, old_view) == _decl_name(n, new_view)
        )
    )
    scored = sorted(
        (
            (-_similarity(o, n, old_view, new_view), i, j)
            for i, o in enumerate(left)
            for j, n in enumerate(right)
        ),
    )
    used_old: set[int] = set()
    used_new: set[int] = set()
    extra: Pairs = []
    for score, i, j in scored:
        if -score < 0.5 or i in used_old or j in used_new:
            continue
        # A tagged variant only pairs with an untagged one: two different tags are two
        # different variants.
        if left[i].tag_values and right[j].tag_values:
            continue
        used_old.add(i)
        used_new.add(j)
        extra.append((left[i], right[j]))
    pairs.extend(sorted(extra, key=lambda p: (old.index(p[0]), new.index(p[1]))))
    removed = [v for i, v in enumerate(left) if i not in used_old]
    added = [v for j, v in enumerate(right) if j not in used_new]
    return pairs, removed, added


def _decl_name(variant: VariantView, view: View) -> str | None:
    if variant.payload is None:
        return None
    resolved = view.index.resolve(variant.payload)
    return resolved.name if isinstance(resolved, ir.Ref) else None


def _similarity(old: VariantView, new: VariantView, ov: View, nv: View) -> float:
    if old.payload is None or new.payload is None:
        return 1.0 if old.payload is None and new.payload is None else 0.0
    a = ov.shape(old.payload).node
    b = nv.shape(new.payload).node
    if isinstance(a, (ObjectNode, MapNode)) and isinstance(b, (ObjectNode, MapNode)):
        keys_a = _keys(a, ov)
        keys_b = _keys(b, nv)
        if not keys_a and not keys_b:
            return 1.0
        return len(keys_a & keys_b) / len(keys_a | keys_b)
    if type(a) is not type(b):
        return 0.0
    if isinstance(a, ScalarNode) and isinstance(b, ScalarNode):
        return 1.0 if a.kind is b.kind else 0.0
    if isinstance(a, ValuesNode) and isinstance(b, ValuesNode):
        return 1.0 if a.base == b.base else 0.0
    return 1.0


def _keys(node: ObjectNode | MapNode, view: View) -> set[str]:
    if isinstance(node, MapNode):
        return set()
    return {wf.field.wire_name for wf in view.object_fields(node.decl)}


def style_text(style: tuple[str, ...]) -> str:
    """``key "type"``, ``external``, ``adjacent "t"/"c"``, ``untagged``."""
    if style[0] == "key":
        return f'key "{style[1]}"'
    if style[0] == "adjacent":
        return f'adjacent "{style[1]}"/"{style[2]}"'
    return style[0]
