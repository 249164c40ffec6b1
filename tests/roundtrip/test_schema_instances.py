"""Instances generated from our JSON Schema (hypothesis-jsonschema) go through our bindings.

For every non-recursive type of every spec (at most ``CODEGEN_SCHEMA_TYPES`` per spec,
evenly spread, in ``make test``; all in ``make corpus``): the bindings accept each
instance the schema's written form generates (where a reader accepts more,
``"x-written": "first"``), write back a superset of it (keys a serde or Go writer always
writes are added with their defaults, optional keys that hold their default are left out
as serde's ``skip_serializing_if`` and Go's ``omitempty`` leave them out; nothing else
changes, ``1`` stays ``1``), reading the output again changes nothing, and the schema
accepts what the bindings wrote. Bounded here (``CODEGEN_SCHEMA_EXAMPLES``, default 3
per type); hypothesis-jsonschema cannot draw from recursive schemas, which are listed by
a test so they stay visible.
"""

from __future__ import annotations

import json
import os
import warnings
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema
from pydantic import TypeAdapter

from codegen.backends.wire_formats import ENFORCED_PATTERNS
from tests.roundtrip import harness
from tests.roundtrip.test_samples import SPECS

EXAMPLES = int(os.environ.get("CODEGEN_SCHEMA_EXAMPLES", "3"))
# Types per spec in ``make test`` (evenly spread over the sorted names); ``make corpus``
# sets CODEGEN_SCHEMA_TYPES=0: every type of every spec.
MAX_TYPES = int(os.environ.get("CODEGEN_SCHEMA_TYPES", "40"))
# Formats we emit that JSON Schema does not define: any string will do for generation.
CUSTOM_FORMATS = {
    name: st.text(max_size=8)
    for name in (
        "float",
        "path",
        "uint64",
        "uint32",
        "int32",
        "int64",
        "byte",
    )
}
# A format the readers enforce (codegen/backends/wire_formats.py) draws matching strings.
CUSTOM_FORMATS.update(
    {name: st.from_regex(p, fullmatch=True) for name, p in ENFORCED_PATTERNS.items()}
)


def _refs(schema: Any) -> set[str]:
    found: set[str] = set()
    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/$defs/"):
                found.add(ref.rsplit("/", 1)[-1])
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return found


def _closure(defs: dict[str, Any], name: str) -> set[str]:
    seen: set[str] = set()
    stack = list(_refs(defs[name]))
    while stack:
        current = stack.pop()
        if current not in seen and current in defs:
            seen.add(current)
            stack.extend(_refs(defs[current]))
    return seen


def _recursive(defs: dict[str, Any], name: str) -> bool:
    """Whether the type reaches a cycle of references (itself or one it uses)."""
    return any(
        other in _closure(defs, other) for other in _closure(defs, name) | {name}
    )


def _types(recursive: bool) -> list[tuple[str, str]]:
    out = []
    for spec in SPECS:
        defs = harness.schema_bundle(spec)["$defs"]
        models = harness.package(spec).models
        names = [
            name
            for name in sorted(defs)
            if hasattr(models, name) and _recursive(defs, name) is recursive
        ]
        if MAX_TYPES and len(names) > MAX_TYPES:
            step = len(names) / MAX_TYPES
            names = [names[int(i * step)] for i in range(MAX_TYPES)]
        out.extend((spec, name) for name in names)
    return out


TYPES = _types(recursive=False)


def _contained(small: Any, big: Any, left_out: set[tuple[str, str]]) -> bool:
    if isinstance(small, dict):
        return isinstance(big, dict) and all(
            (
                _contained(value, big[key], left_out)
                if key in big
                else (key, _default_key(value)) in left_out
            )
            for key, value in small.items()
        )
    if isinstance(small, list):
        return (
            isinstance(big, list)
            and len(small) == len(big)
            and all(_contained(a, b, left_out) for a, b in zip(small, big, strict=True))
        )
    return harness.strict_equal(small, big)


def _default_key(value: Any) -> str:
    """A default as compared: by JSON value, so ``0.0`` holds the default ``0`` (Go's
    omitempty leaves out a float64 zero however it was written)."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return json.dumps(value, sort_keys=True)


def _left_out_defaults(defs: dict[str, Any]) -> set[tuple[str, str]]:
    """(key, default) of every optional property with a default: a writer that leaves
    the key out while it holds the default (Go omitempty, serde skip_serializing_if with
    default) may drop exactly these."""
    found: set[tuple[str, str]] = set()
    for node in defs.values():
        stack = [node]
        while stack:
            current = stack.pop()
            if isinstance(current, dict):
                required = set(current.get("required", []))
                for key, prop in (current.get("properties") or {}).items():
                    if (
                        isinstance(prop, dict)
                        and "default" in prop
                        and key not in required
                    ):
                        found.add((key, _default_key(prop["default"])))
                stack.extend(current.values())
            elif isinstance(current, list):
                stack.extend(current)
    return found


@pytest.mark.parametrize("item", TYPES, ids=[f"{s}:{n}" for s, n in TYPES])
def test_schema_instances_round_trip_through_the_bindings(
    item: tuple[str, str],
) -> None:
    spec, name = item
    bundle = harness.schema_bundle(spec)
    # Instances are drawn from the written form; the full schema must accept them.
    schema = {"$ref": f"#/$defs/{name}", "$defs": harness.written_form(bundle["$defs"])}
    adapter = TypeAdapter(getattr(harness.package(spec).models, name))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # overriding standard formats is intended
        strategy = from_schema(schema, custom_formats=CUSTOM_FORMATS)
    left_out = _left_out_defaults(bundle["$defs"])

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(strategy)
    def check(value: Any) -> None:
        written = harness.ours_round_trip(adapter, json.dumps(value))
        assert _contained(value, written, left_out), (value, written)
        assert harness.strict_equal(
            harness.ours_round_trip(adapter, json.dumps(written)), written
        )
        assert harness.schema_accepts(
            spec, harness.Target(name, {"$ref": f"#/$defs/{name}"}), written
        )

    check()


def test_recursive_types_are_known() -> None:
    # hypothesis-jsonschema cannot resolve recursive $refs: types that reach a cycle rely on
    # the hand-written samples.
    recursive = {f"{s}:{n}" for s, n in _types(recursive=True)}
    assert "ahp:ConfigPropertySchema" in recursive
    assert len(TYPES) > 150 and len(recursive) < len(TYPES)
