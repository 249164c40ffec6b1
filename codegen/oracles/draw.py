"""Instances drawn with hypothesis from a JSON Schema (ours or an official one).

Phase: verification (``make oracle``), case generation.
Inputs: a schema bundle (``$defs`` or ``definitions``) and the name of one definition.
Outputs: ``draw(bundle, name, count, seed)``: up to ``count`` JSON values, deterministic for
a given seed.
Guarantees: the strategies are built with hypothesis's own combinators, one ``deferred``
strategy per definition, so recursive types are drawn like any other (hypothesis-jsonschema
inlines every ``$ref`` first, which fails on recursion and took minutes on AHP's larger
types); the instances need not be valid: they are inputs for the readers to judge, and a
keyword this module does not know is ignored (the instance may then be invalid, which is
fine).  Strings, lists and maps are kept small so cases stay readable.
"""

from __future__ import annotations

import contextlib
import re
from typing import Any

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

_TEXT = st.text(max_size=10)
_SEMVER = st.builds(
    lambda a, b, c, pre: f"{a}.{b}.{c}{pre}",
    st.integers(0, 20),
    st.integers(0, 20),
    st.integers(0, 20),
    st.sampled_from(["", "", "", "-alpha.1", "+build.5"]),
)
_FORMATS: dict[str, st.SearchStrategy[str]] = {
    "semver": _SEMVER,
    "uri": st.sampled_from(["file:///tmp/a.txt", "https://example.com/x?y=1", "a:b"]),
    "date-time": st.sampled_from(
        ["2024-05-01T12:00:00Z", "2024-05-01T12:00:00.5+02:00"]
    ),
    "date": st.just("2024-05-01"),
}
_FLOATS = st.floats(allow_nan=False, allow_infinity=False, width=64)
_SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**40), 2**40), _FLOATS, _TEXT
)
ANY_JSON: st.SearchStrategy[Any] = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=6,
)


class _Builder:
    def __init__(self, bundle: dict[str, Any]) -> None:
        self.defs: dict[str, Any] = {
            **bundle.get("definitions", {}),
            **bundle.get("$defs", {}),
        }
        self.refs: dict[str, st.SearchStrategy[Any]] = {}

    def ref(self, name: str) -> st.SearchStrategy[Any]:
        if name not in self.refs:
            if name not in self.defs:
                self.refs[name] = ANY_JSON
            else:
                self.refs[name] = st.deferred(lambda: self.build(self.defs[name]))
        return self.refs[name]

    def build(self, schema: Any) -> st.SearchStrategy[Any]:
        if schema is True or schema == {}:
            return ANY_JSON
        if schema is False or not isinstance(schema, dict):
            return st.nothing()
        ref = schema.get("$ref")
        if isinstance(ref, str):
            return self.ref(ref.rsplit("/", 1)[-1])
        if "const" in schema:
            return st.just(schema["const"])
        if isinstance(schema.get("enum"), list) and schema["enum"]:
            return st.sampled_from(schema["enum"])
        for key in ("oneOf", "anyOf"):
            if isinstance(schema.get(key), list) and schema[key]:
                return st.one_of([self.build(branch) for branch in schema[key]])
        if isinstance(schema.get("allOf"), list):
            return self.build(self._merged(schema))
        kinds = schema.get("type")
        if isinstance(kinds, list):
            return st.one_of([self.typed({**schema, "type": k}) for k in kinds])
        if kinds is None:
            if "properties" in schema:
                return self.typed({**schema, "type": "object"})
            if "items" in schema or "prefixItems" in schema:
                return self.typed({**schema, "type": "array"})
            return ANY_JSON
        return self.typed(schema)

    def _merged(self, schema: dict[str, Any]) -> dict[str, Any]:
        """An ``allOf`` of object schemas as one object schema (properties united)."""
        merged: dict[str, Any] = {k: v for k, v in schema.items() if k != "allOf"}
        for part in schema["allOf"]:
            while isinstance(part, dict) and isinstance(part.get("$ref"), str):
                part = self.defs.get(part["$ref"].rsplit("/", 1)[-1], {})
            if not isinstance(part, dict):
                continue
            if "allOf" in part:
                part = self._merged(part)
            for key, value in part.items():
                if key == "properties":
                    merged["properties"] = {**merged.get("properties", {}), **value}
                elif key == "required":
                    merged["required"] = [*merged.get("required", []), *value]
                else:
                    merged.setdefault(key, value)
        return merged

    def typed(self, schema: dict[str, Any]) -> st.SearchStrategy[Any]:
        kind = schema.get("type")
        if kind == "null":
            return st.none()
        if kind == "boolean":
            return st.booleans()
        if kind == "integer":
            return st.integers(schema.get("minimum"), schema.get("maximum"))
        if kind == "number":
            low, high = schema.get("minimum"), schema.get("maximum")
            return st.one_of(
                st.integers(
                    None if low is None else int(low),
                    None if high is None else int(high),
                ),
                st.floats(low, high, allow_nan=False, allow_infinity=False),
            )
        if kind == "string":
            return self.string(schema)
        if kind == "array":
            return self.array(schema)
        if kind == "object":
            return self.object(schema)
        return ANY_JSON

    def string(self, schema: dict[str, Any]) -> st.SearchStrategy[Any]:
        fmt = schema.get("format")
        if isinstance(fmt, str) and fmt in _FORMATS:
            return _FORMATS[fmt]
        pattern = schema.get("pattern")
        if isinstance(pattern, str):
            try:
                re.compile(pattern)
                return st.from_regex(pattern, fullmatch=True)
            except re.error:
                pass
        low = int(schema.get("minLength", 0))
        high = schema.get("maxLength")
        return st.text(min_size=low, max_size=max(low, int(high) if high else 10))

    def array(self, schema: dict[str, Any]) -> st.SearchStrategy[Any]:
        prefix = schema.get("prefixItems")
        if isinstance(prefix, list):
            return st.tuples(*(self.build(item) for item in prefix)).map(list)
        items = schema.get("items", True)
        if isinstance(items, list):  # draft-07 tuples
            return st.tuples(*(self.build(item) for item in items)).map(list)
        low = int(schema.get("minItems", 0))
        high = schema.get("maxItems")
        return st.lists(
            self.build(items), min_size=low, max_size=max(low, min(int(high or 3), 3))
        )

    def object(self, schema: dict[str, Any]) -> st.SearchStrategy[Any]:
        properties: dict[str, Any] = schema.get("properties", {}) or {}
        required = [k for k in schema.get("required", []) if k in properties]
        optional = {
            k: self.build(v) for k, v in properties.items() if k not in required
        }
        fixed = st.fixed_dictionaries(
            {k: self.build(properties[k]) for k in required}, optional=optional
        )
        extra = schema.get("additionalProperties")
        if isinstance(extra, dict) and extra and not properties:
            return st.dictionaries(st.text(max_size=6), self.build(extra), max_size=3)
        if isinstance(extra, dict) and extra:
            more = st.dictionaries(
                st.text(max_size=6).filter(lambda k: k not in properties),
                self.build(extra),
                max_size=2,
            )
            return st.tuples(fixed, more).map(lambda pair: {**pair[0], **pair[1]})
        return fixed


def draw(bundle: dict[str, Any], name: str, count: int, seed: int = 0) -> list[Any]:
    """Up to ``count`` distinct instances of definition ``name`` (deterministic)."""
    strategy = _Builder(bundle).ref(name)
    found: list[Any] = []
    seen: set[str] = set()

    @settings(
        max_examples=count * 3,
        deadline=None,
        database=None,
        derandomize=True,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(strategy)
    def collect(value: Any) -> None:
        text = repr(value)
        if len(found) < count and text not in seen and not _has_surrogate(value):
            seen.add(text)
            found.append(value)

    del seed  # derandomize fixes the stream; the parameter keeps call sites explicit
    with contextlib.suppress(Exception):  # an unsatisfiable schema draws nothing
        collect()
    return found


def _has_surrogate(value: Any) -> bool:
    """serde_json rejects lone surrogates, encoding/json replaces them: not a type test."""
    if isinstance(value, str):
        return any(0xD800 <= ord(c) <= 0xDFFF for c in value)
    if isinstance(value, list):
        return any(_has_surrogate(v) for v in value)
    if isinstance(value, dict):
        return any(_has_surrogate(k) or _has_surrogate(v) for k, v in value.items())
    return False
