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

    old_tags = unique_tags(old)
    new_tags = unique_tags(new)
    take(
        lambda o, n: bool(
            o.key in old_tags
            and n.key in new_tags
            and set(o.tag_values) & set(n.tag_values)
        )
    )
    take(lambda o, n: o.name == n.name)
    take(
        lambda o, n: (
            _decl_name(o, old_view) is not None
            and _decl_name(o, old_view) == _decl_name(n, new_view)
        )
    )
    scored: list[tuple[float, float, int, int]] = []
    for i, o in enumerate(left):
        for j, n in enumerate(right):
            contained, shared = _similarity(o, n, old_view, new_view)
            scored.append((-contained, -shared, i, j))
    scored.sort()
    used_old: set[int] = set()
    used_new: set[int] = set()
    extra: Pairs = []
    for contained, _, i, j in scored:
        if -contained < 0.5 or i in used_old or j in used_new:
            continue
        # Two different tags are two different variants.
        if (
            left[i].tag_values
            and right[j].tag_values
            and not set(left[i].tag_values) & set(right[j].tag_values)
        ):
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


def unique_tags(variants: list[VariantView]) -> set[str]:
    """Keys of the variants whose tag values no other variant shares: only those tell a
    variant apart (``type: "string"`` on two schemas is no discriminator)."""
    seen: dict[str | int | bool, int] = {}
    for variant in variants:
        for value in set(variant.tag_values):
            seen[value] = seen.get(value, 0) + 1
    return {
        v.key
        for v in variants
        if v.tag_values and all(seen[value] == 1 for value in v.tag_values)
    }


def _similarity(
    old: VariantView, new: VariantView, ov: View, nv: View
) -> tuple[float, float]:
    """(share of the smaller side's keys the other has, share of all keys in common):
    a variant that gained keys still contains its old self."""
    if old.payload is None or new.payload is None:
        same = old.payload is None and new.payload is None
        return (1.0, 1.0) if same else (0.0, 0.0)
    a = ov.shape(old.payload).node
    b = nv.shape(new.payload).node
    if isinstance(a, (ObjectNode, MapNode)) and isinstance(b, (ObjectNode, MapNode)):
        keys_a = _keys(a, ov)
        keys_b = _keys(b, nv)
        if not keys_a or not keys_b:
            same = not keys_a and not keys_b
            return (1.0, 1.0) if same else (0.0, 0.0)
        common = len(keys_a & keys_b)
        return (
            common / min(len(keys_a), len(keys_b)),
            common / len(keys_a | keys_b),
        )
    if type(a) is not type(b):
        return (0.0, 0.0)
    if isinstance(a, ScalarNode) and isinstance(b, ScalarNode):
        return (1.0, 1.0) if a.kind is b.kind else (0.0, 0.0)
    if isinstance(a, ValuesNode) and isinstance(b, ValuesNode):
        return (1.0, 1.0) if a.base == b.base else (0.0, 0.0)
    return (1.0, 1.0)


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
