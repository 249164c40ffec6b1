"""Unions written by the class of the value they hold (``_BY_CLASS``) write what the
typed union writer wrote, and only unions of models are written so.

pydantic-core's typed writer of a union tries its members in turn (a callable
discriminator is a Python call per value); a union whose every member is a model, a
list of models or such a union writes the same JSON when each value is written by its
own class.  The reference is each spec's models rendered again with no union written by
class, imported beside the generated ones: every marked union reads, in both, every
JSON object and array its spec's samples hold; the verdict, the member and what is
written (JSON, JSON without unset fields, Python) must be the same, with no warning
from either writer.  The twins: unions with a member that is not a model, or held by a
union that is not written by class, stay typed; and a member with a writer of its own,
written by class, writes something else (what the rule keeps out).
"""

from __future__ import annotations

import importlib
import json
import sys
import warnings
from pathlib import Path
from typing import Annotated, Any, get_args, get_origin

import pytest
from pydantic import BaseModel, PlainSerializer, TypeAdapter, ValidationError

from codegen import ir
from codegen.backends import python as backend
from codegen.backends.python.unions import UnionBuilder
from tests.roundtrip import harness

SPECS = harness.GENERATED_SPECS


def _typed_models(
    spec: str, root: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[Any, Any]:
    """The generated models of ``spec`` and the same rendered with every union typed."""
    with monkeypatch.context() as patch:
        patch.setattr(UnionBuilder, "_by_class", property(lambda _: frozenset()))
        package = f"typed_{spec}"
        files = backend.render(harness.protocol(spec), package)
    models = root / package / "models.py"
    models.parent.mkdir(parents=True)
    models.write_text(files[f"python/{package}/models.py"], encoding="utf-8")
    (models.parent / "__init__.py").write_text("", encoding="utf-8")
    sys.path.insert(0, str(root))
    try:
        typed = importlib.import_module(f"{package}.models")
    finally:
        sys.path.remove(str(root))
    return harness.package(spec).models, typed


def _marked(module: Any) -> list[str]:
    return [
        name
        for name, value in sorted(vars(module).items())
        if get_origin(value) is Annotated
        and any(m is module._BY_CLASS for m in get_args(value)[1:])
    ]


def _written(adapter: TypeAdapter[Any], text: str) -> Any:
    """The member ``text`` reads as and what it writes, or "rejected"; a writer's
    warning is an error."""
    try:
        value = adapter.validate_json(text, by_name=False)
    except ValidationError:
        return "rejected"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return (
            type(value).__name__,
            adapter.dump_json(value, by_alias=True),
            adapter.dump_json(value, by_alias=True, exclude_unset=True),
            adapter.dump_python(value, by_alias=True),
        )


@pytest.mark.parametrize("spec", SPECS)
def test_unions_written_by_class_write_as_typed_ones(
    spec: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ours, typed = _typed_models(spec, tmp_path, monkeypatch)
    marked = _marked(ours)
    assert not _marked(typed)
    texts = list(
        dict.fromkeys(
            json.dumps(v)
            for s in harness.sample_values(spec)
            for v in harness.values_in(s)
        )
    )
    accepted = 0
    for name in marked:
        fast, slow = TypeAdapter(getattr(ours, name)), TypeAdapter(getattr(typed, name))
        for text in texts:
            got, want = _written(fast, text), _written(slow, text)
            assert got == want, (spec, name, text)
            accepted += got != "rejected"
    if marked:
        assert accepted, spec


def test_the_specs_with_unions_of_models_write_them_by_class() -> None:
    """mcp's messages and content blocks (a list of blocks included); piglet (Go) has
    no unions."""
    found = {spec: set(_marked(harness.package(spec).models)) for spec in SPECS}
    assert {
        "JSONRPCMessage",
        "JSONRPCResponse",
        "SamplingMessageContent",
        "SamplingMessageContentBlock",
        "ClientResult",
    } <= found["mcp"]
    assert not found["piglet"]


def _struct(name: str) -> ir.StructDecl:
    return ir.StructDecl(
        name,
        (
            ir.Field(
                name="v", wire_name="v", type=ir.Primitive(ir.PrimitiveKind.STRING)
            ),
        ),
    )


def _untagged(name: str, *types: ir.TypeExpr) -> ir.UnionDecl:
    return ir.UnionDecl(
        name,
        tuple(ir.Variant(f"V{i}", t) for i, t in enumerate(types)),
        ir.UnionRepr.UNTAGGED,
    )


def _with_fallback(name: str, fallback: ir.TypeExpr) -> ir.UnionDecl:
    """A tagged union with serde's untagged variant, tried after the tagged ones."""
    return ir.UnionDecl(
        name,
        (
            ir.Variant("A", ir.Ref("A"), ("a",)),
            ir.Variant("Other", fallback, untagged=True),
        ),
        ir.UnionRepr.INTERNALLY_TAGGED,
        tag_key="type",
    )


def test_only_unions_of_models_held_by_such_unions_are_written_by_class() -> None:
    a, b = ir.Ref("A"), ir.Ref("B")
    sorted_map = ir.MapOf(ir.Primitive(ir.PrimitiveKind.STRING), a, sorted_keys=True)
    decls: list[ir.Decl] = [
        _struct("A"),
        _struct("B"),
        _untagged("Models", a, b),
        _untagged("One", a),
        _untagged("Listed", a, ir.ArrayOf(a)),
        _untagged("Outer", ir.Ref("Listed"), b),
        _untagged("WithString", a, ir.Primitive(ir.PrimitiveKind.STRING)),
        _untagged("WithMap", a, sorted_map),
        _untagged("WithSkipping", a, ir.ArrayOf(a, skip_invalid=True)),
        _untagged("HeldByTyped", a, b),
        _untagged(
            "Typed", ir.Ref("HeldByTyped"), ir.Primitive(ir.PrimitiveKind.STRING)
        ),
        _untagged("HeldInline", a, b),
        _with_fallback("Fallback", a),
        _with_fallback("StringFallback", ir.Primitive(ir.PrimitiveKind.STRING)),
        ir.StructDecl(
            "Holder",
            (
                ir.Field(
                    name="x",
                    wire_name="x",
                    type=ir.InlineUnion(
                        (ir.Ref("HeldInline"), ir.Primitive(ir.PrimitiveKind.INTEGER))
                    ),
                ),
            ),
        ),
    ]
    protocol = ir.Protocol(
        id="unions",
        title="Unions",
        version="1",
        transport=ir.Transport("jsonrpc-2.0", ("ndjson-stdio",)),
        roles=("client", "server"),
        decls=tuple(decls),
        methods=(),
    )
    builder = UnionBuilder(protocol)
    by_class = {
        d.name
        for d in decls
        if isinstance(d, ir.UnionDecl)
        and any("_BY_CLASS" in view.value for view in builder.union(d))
    }
    assert by_class == {"Models", "Listed", "Outer", "Fallback"}


class _Model(BaseModel):
    v: str


def test_a_member_with_its_own_writer_is_written_otherwise_by_class() -> None:
    """Why only models: a member whose writer is not its value's own (an int written
    as a string) comes out otherwise when the value is written by its class."""
    marker = harness.package("mcp").models._BY_CLASS
    member = Annotated[int, PlainSerializer(str)]
    typed = TypeAdapter(_Model | member)
    by_class = TypeAdapter(Annotated[_Model | member, marker])
    assert _written(typed, '{"v": "x"}') == _written(by_class, '{"v": "x"}')
    assert _written(typed, "5")[1] == b'"5"'
    assert _written(by_class, "5")[1] == b"5"
