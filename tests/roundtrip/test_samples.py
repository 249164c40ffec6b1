"""Every wire sample of every generated protocol, through three validators.

- our bindings accept each valid sample and write it back equal to the input (types of
  numbers included: ``1`` stays ``1``), and reject each invalid one;
- our JSON Schema accepts exactly the valid ones;
- models datamodel-code-generator builds from our JSON Schema agree on every sample.
The spec's own ``@example`` messages are checked the same way, part by part.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from codegen import ir
from codegen.backends.python.names import class_names, wrapper_key
from codegen.ir.index import Index
from tests.roundtrip import harness

SPECS = sorted(
    p.name
    for p in (harness.REPO / "specs").iterdir()
    if (p / "spec.toml").is_file()
    and (harness.REPO / "generated" / p.name / "python").is_dir()
)


def _samples() -> list[tuple[str, ir.Example]]:
    out: list[tuple[str, ir.Example]] = []
    for spec in SPECS:
        for example in harness.protocol(spec).examples:
            if example.part is not ir.ExamplePart.MESSAGE:
                out.append((spec, example))
    return out


def _messages() -> list[tuple[str, ir.Example]]:
    out: list[tuple[str, ir.Example]] = []
    for spec in SPECS:
        for example in harness.protocol(spec).examples:
            if (
                example.part is ir.ExamplePart.MESSAGE
                and example.skipped_reason is None
            ):
                out.append((spec, example))
    return out


SAMPLES = _samples()
MESSAGES = _messages()


def _id(item: tuple[str, ir.Example]) -> str:
    return f"{item[0]}:{item[1].name}"


@pytest.mark.parametrize("item", SAMPLES, ids=[_id(i) for i in SAMPLES])
def test_bindings_round_trip_or_reject(item: tuple[str, ir.Example]) -> None:
    spec, example = item
    adapter = harness.ours_adapter(spec, example)
    original = json.loads(example.json_text)
    if example.expect is ir.Expectation.ACCEPT:
        written = harness.ours_round_trip(adapter, example.json_text)
        assert harness.strict_equal(written, original), (written, original)
        if harness.fixes_key_order(spec):
            assert harness.same_key_order(written, original), (written, original)
    else:
        assert not harness.ours_accepts(adapter, example.json_text), example.note


@pytest.mark.parametrize("item", SAMPLES, ids=[_id(i) for i in SAMPLES])
def test_json_schema_agrees(item: tuple[str, ir.Example]) -> None:
    spec, example = item
    target = harness.target_of(spec, example)
    accepted = harness.schema_accepts(spec, target, json.loads(example.json_text))
    assert accepted is (example.expect is ir.Expectation.ACCEPT), example.note


@pytest.fixture(scope="session")
def datamodel_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One output folder per session, so each spec's models are generated once."""
    return tmp_path_factory.mktemp("datamodel")


@pytest.mark.parametrize("item", SAMPLES, ids=[_id(i) for i in SAMPLES])
def test_datamodel_codegen_agrees(
    item: tuple[str, ir.Example], datamodel_dir: Path
) -> None:
    spec, example = item
    module = harness.datamodel_module(spec, str(datamodel_dir))
    adapter = harness.datamodel_adapter(module, harness.target_of(spec, example))
    accepted = harness.ours_accepts(adapter, example.json_text)
    assert accepted is (example.expect is ir.Expectation.ACCEPT), example.note


def _parts(message: dict[str, Any]) -> list[tuple[ir.ExamplePart, Any]]:
    if "params" in message:
        return [(ir.ExamplePart.PARAMS, message["params"])]
    if "result" in message:
        return [(ir.ExamplePart.RESULT, message["result"])]
    return []


@pytest.mark.parametrize("item", MESSAGES, ids=[_id(i) for i in MESSAGES])
def test_spec_examples_round_trip(item: tuple[str, ir.Example]) -> None:
    spec, example = item
    message = json.loads(example.json_text)
    assert message.get("jsonrpc") == "2.0"
    if "error" in message:
        error = message["error"]
        assert isinstance(error.get("code"), int) and isinstance(
            error.get("message"), str
        )
        return
    if "method" in message:
        assert message["method"] == example.method
    for part, value in _parts(message):
        text = json.dumps(value)
        adapter = harness.ours_adapter(spec, example, part)
        target = harness.target_of(spec, example, part)
        if example.expect is ir.Expectation.REJECT:
            # A spec example that contradicts the spec's types (declared in spec.toml).
            assert not harness.ours_accepts(adapter, text), example.note
            assert not harness.schema_accepts(spec, target, value), example.note
            continue
        assert harness.strict_equal(harness.ours_round_trip(adapter, text), value)
        assert harness.schema_accepts(spec, target, value)


def test_there_are_samples_of_both_kinds_for_every_spec() -> None:
    assert SPECS, "no generated protocols found"
    # The parametrized tests above pass vacuously on an empty list.
    assert MESSAGES, "no spec @example messages found"
    for spec in SPECS:
        kinds = {e.expect for s, e in SAMPLES if s == spec}
        assert kinds == {ir.Expectation.ACCEPT, ir.Expectation.REJECT}, spec


def test_every_method_has_valid_params_and_result_samples() -> None:
    for spec in SPECS:
        proto = harness.protocol(spec)
        for method in proto.methods:
            parts = {
                e.part
                for s, e in SAMPLES
                if s == spec
                and e.method == method.wire_name
                and e.expect is ir.Expectation.ACCEPT
            }
            assert (
                ir.ExamplePart.PARAMS in parts or method.params is None
            ), method.wire_name
            if method.kind is ir.MethodKind.REQUEST:
                assert ir.ExamplePart.RESULT in parts, method.wire_name


@pytest.mark.parametrize("spec", SPECS)
def test_every_union_variant_has_a_valid_sample(spec: str) -> None:
    proto = harness.protocol(spec)
    index = Index(proto)
    classes = class_names(proto, index)
    # Each valid sample is read once; every union is then judged against what was
    # read (reading each sample once per union was quadratic: two minutes of make test).
    traces = [
        _Trace.of(harness.ours_adapter(spec, example), example)
        for s, example in SAMPLES
        if s == spec and example.expect is ir.Expectation.ACCEPT
    ]
    for decl in proto.decls:
        if not isinstance(decl, ir.UnionDecl):
            continue
        by_class = _variant_of_class(index, classes, decl)
        seen: set[str] = set()
        for trace in traces:
            seen.update(trace.variants_hit(decl, by_class))
        missing = {v.name for v in decl.variants} - seen
        assert not missing, f"{spec}: {decl.name} lacks samples for {sorted(missing)}"


def test_a_union_variant_without_a_sample_is_caught() -> None:
    # The twin: a union whose second variant no sample reads is reported missing.
    union = ir.UnionDecl(
        name="Shape",
        variants=(
            ir.Variant(name="Circle", type=ir.Ref(name="Circle")),
            ir.Variant(name="Square", type=ir.Ref(name="Square")),
        ),
        repr=ir.UnionRepr.UNTAGGED,
    )

    class Circle:
        pass

    trace = _Trace(node_types={Circle}, list_heads=set(), type_name="", kind=None)
    by_class = {"Circle": "Circle", "Square": "Square"}
    assert trace.variants_hit(union, by_class) == {"Circle"}


def _variant_of_class(
    index: Index, classes: dict[Any, str], decl: ir.UnionDecl
) -> dict[str, str]:
    """Class name -> the union's variant it stands for."""
    # A variant whose payload is a named struct (serde's lifted ``Enum::Variant``
    # structs, an alias of a struct) is hit when that struct's class is found; one
    # that names a union, when a class of that union is.
    by_class: dict[str, str] = {}
    for variant in decl.variants:
        for name in _classes_of(index, variant.type):
            by_class.setdefault(name, variant.name)
    # A variant the bindings wrap (a tag plus its payload's fields) is hit when its
    # wrapper class is found.
    for variant in decl.variants:
        if wrapper_key(decl, variant) in classes:
            by_class[classes[wrapper_key(decl, variant)]] = variant.name
    # A variant holding a list of structs (serde's ``Grouped(Vec<Group>)``) is hit
    # when one of those structs is found.
    for variant in decl.variants:
        if isinstance(variant.type, ir.ArrayOf) and isinstance(
            variant.type.items, ir.Ref
        ):
            by_class.setdefault(variant.type.items.name, variant.name)
    return by_class


_SCALARS = {bool: "Boolean", int: "Number", float: "Number", str: "String"}


@dataclass(frozen=True)
class _Trace:
    """What reading one valid sample produced: the Python types of every value in it,
    the types of each non-empty list's first item, and the sample's own JSON kind."""

    node_types: set[type]
    list_heads: set[type]
    type_name: str | None
    kind: ir.PrimitiveKind | None

    @classmethod
    def of(cls, adapter: Any, example: ir.Example) -> _Trace:
        value = adapter.validate_json(example.json_text)
        node_types: set[type] = set()
        list_heads: set[type] = set()
        stack = [value]
        while stack:
            current = stack.pop()
            node_types.add(type(current))
            if isinstance(current, (list, tuple)):
                stack.extend(current)
                if current:
                    list_heads.add(type(current[0]))
            elif isinstance(current, dict):
                stack.extend(current.values())
            elif hasattr(current, "__pydantic_fields__"):
                fields = type(current).__pydantic_fields__
                stack.extend(getattr(current, f) for f in fields)
                extra = getattr(current, "__pydantic_extra__", None) or {}
                stack.extend(extra.values())
        kind = _json_kind(json.loads(example.json_text))
        return cls(node_types, list_heads, example.type_name, kind)

    def variants_hit(self, decl: ir.UnionDecl, by_class: dict[str, str]) -> set[str]:
        """Names of the union's variants this sample holds a value of."""
        names = {v.name for v in decl.variants}
        hit: set[str] = set()
        for node in self.node_types:
            name = node.__name__
            if name in names:
                hit.add(name)
            elif name in by_class:
                hit.add(by_class[name])
            elif node in _SCALARS and _SCALARS[node] in names:
                hit.add(_SCALARS[node])
        for head in self.list_heads:
            if f"{head.__name__}List" in names:
                hit.add(f"{head.__name__}List")
            listed = by_class.get(head.__name__)
            if listed is not None and f"{listed}List" in names:
                hit.add(f"{listed}List")
        if self.type_name == decl.name:
            # A sample of the union itself hits the first variant whose primitive type
            # has the sample's JSON type (no class to find for those).
            for variant in decl.variants:
                if _primitive_kind(variant.type) == self.kind:
                    hit.add(variant.name)
                    break
        return hit


def _json_kind(value: Any) -> ir.PrimitiveKind | None:
    if value is None:
        return ir.PrimitiveKind.NULL
    if isinstance(value, bool):
        return ir.PrimitiveKind.BOOLEAN
    if isinstance(value, int):
        return ir.PrimitiveKind.INTEGER
    if isinstance(value, float):
        return ir.PrimitiveKind.NUMBER
    return ir.PrimitiveKind.STRING if isinstance(value, str) else None


def _primitive_kind(expr: ir.TypeExpr | None) -> ir.PrimitiveKind | None:
    return expr.kind if isinstance(expr, ir.Primitive) else None


def _classes_of(index: Index, expr: ir.TypeExpr | None) -> list[str]:
    """Class names that stand for a variant's type: its struct through aliases, or
    the structs of the union it names."""
    if expr is None:
        return []
    resolved = index.resolve(expr)
    if not isinstance(resolved, ir.Ref):
        return []
    decl = index.get(resolved.name)
    if isinstance(decl, ir.UnionDecl):
        return [resolved.name] + [
            name for v in decl.variants for name in _classes_of(index, v.type)
        ]
    return [resolved.name] if isinstance(expr, ir.Ref) else []
