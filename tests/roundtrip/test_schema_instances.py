"""Instances generated from our JSON Schema (hypothesis-jsonschema) go through our bindings.

For every non-recursive type of every spec: the bindings accept each instance the schema
generates, write back a superset of it (keys a serde or Go writer always writes are added
with their defaults; nothing else changes, ``1`` stays ``1``), reading the output again
changes nothing, and the schema accepts what the bindings wrote.  Bounded here
(``CODEGEN_SCHEMA_EXAMPLES``, default 3 per type); hypothesis-jsonschema cannot draw from
recursive schemas, which are listed by a test so they stay visible.
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

from tests.roundtrip import harness
from tests.roundtrip.test_samples import SPECS

EXAMPLES = int(os.environ.get("CODEGEN_SCHEMA_EXAMPLES", "3"))
# Formats we emit that JSON Schema does not define: any string will do for generation,
# except where the schema also has a pattern (semver: the semver crate's grammar).
CUSTOM_FORMATS = {
    **{
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
    },
    "semver": st.from_regex(
        r"(0|[1-9][0-9]{0,3})\.(0|[1-9][0-9]{0,3})\.(0|[1-9][0-9]{0,3})(-[a-z]{1,4})?",
        fullmatch=True,
    ),
}


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
        for name in sorted(defs):
            if hasattr(models, name) and _recursive(defs, name) is recursive:
                out.append((spec, name))
    return out


TYPES = _types(recursive=False)


def _contained(small: Any, big: Any) -> bool:
    if isinstance(small, dict):
        return isinstance(big, dict) and all(
            key in big and _contained(value, big[key]) for key, value in small.items()
        )
    if isinstance(small, list):
        return (
            isinstance(big, list)
            and len(small) == len(big)
            and all(_contained(a, b) for a, b in zip(small, big, strict=True))
        )
    return harness.strict_equal(small, big)


@pytest.mark.parametrize("item", TYPES, ids=[f"{s}:{n}" for s, n in TYPES])
def test_schema_instances_round_trip_through_the_bindings(
    item: tuple[str, str],
) -> None:
    spec, name = item
    bundle = harness.schema_bundle(spec)
    schema = {"$ref": f"#/$defs/{name}", "$defs": bundle["$defs"]}
    adapter = TypeAdapter(getattr(harness.package(spec).models, name))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # overriding standard formats is intended
        strategy = from_schema(schema, custom_formats=CUSTOM_FORMATS)

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(strategy)
    def check(value: Any) -> None:
        written = harness.ours_round_trip(adapter, json.dumps(value))
        assert _contained(value, written), (value, written)
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
