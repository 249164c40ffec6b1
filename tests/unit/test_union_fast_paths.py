"""The unions the bindings read from JSON with pydantic-core's own machinery give what
the slower unions they stand in front of gave.

``_ByWireTag`` (pydantic-core's tagged union on the wire key, for JSON) and
``_ByKeys`` (members set aside, or one read alone, by the keys of the object)
keep the old union for Python input; here each fast union of every generated package
reads every JSON object found in its spec's samples, mutations of them (the tag made a
number, a boolean, null, a list; a key removed; the key spelled as the attribute) and
objects two different members read, merged; it must accept exactly what the old union
accepts, with the same member, and write back the same JSON text.  Bounded here: per union, at most ``CODEGEN_UNION_OBJECTS`` (default 50) of the
objects the old union reads, of those it rejects and of the merges, each spread evenly over
its kind; ``make test-long`` sets it to ``all``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from typing import Annotated, Any, get_args, get_origin

import pytest
from pydantic import TypeAdapter, ValidationError

from tests.roundtrip import harness

FAST = ("_ByWireTag", "_ByKeys")


def _fast_unions(module: Any) -> Iterator[tuple[str, Any, Any, Any]]:
    """(name, the fast annotation, the union it stands in front of, its marker)."""
    for name, value in sorted(vars(module).items()):
        if get_origin(value) is not Annotated:
            continue
        inner, *metadata = get_args(value)
        fast = [m for m in metadata if type(m).__name__ in FAST]
        if not fast:
            continue
        rest = [m for m in metadata if m not in fast]
        reference = Annotated[(inner, *rest)] if rest else inner  # type: ignore[valid-type]
        yield name, value, reference, fast[0]


def _mutations(obj: dict[str, Any], marker: Any) -> Iterator[Any]:
    yield obj
    keys = [marker.key] if hasattr(marker, "key") else list(obj)
    for key in keys:
        for odd in (1, True, None, ["x"], "no such tag"):
            yield {**obj, key: odd}
        if key in obj:
            yield {k: v for k, v in obj.items() if k != key}
            yield {(k + "_" if k == key else k): v for k, v in obj.items()}
            for attr in _attributes(marker, key):  # the tag by its Python spelling
                yield {(attr if k == key else k): v for k, v in obj.items()}
    yield []
    yield "x"


def _attributes(marker: Any, key: str) -> set[str]:
    """The attribute names of the field at wire key ``key`` in the marker's models."""
    models = getattr(marker, "models", None)
    if not isinstance(models, dict):
        return set()
    return {
        name
        for model in models.values()
        for name, field in model.model_fields.items()
        if field.validation_alias == key and name != key
    }


def _read(adapter: TypeAdapter[Any], text: str) -> Any:
    try:
        value = adapter.validate_json(text, by_name=False)
    except ValidationError:
        return "rejected"
    # The member read (extra keys are kept, so another member could write the same
    # JSON) and the text written, key order included.
    return type(value).__name__, adapter.dump_json(value, by_alias=True).decode()


def _merged(reference: TypeAdapter[Any], objects: list[dict[str, Any]]) -> list[Any]:
    """Objects two members read, merged: more than one member may read them."""
    by_member: dict[str, list[dict[str, Any]]] = {}
    for obj in objects:
        read = _read(reference, json.dumps(obj))
        if read != "rejected" and len(by_member.setdefault(read[0], [])) < 3:
            by_member[read[0]].append(obj)
    return [
        {**a, **b}
        for first, some in by_member.items()
        for second, others in by_member.items()
        if first != second
        for a in some
        for b in others
    ]


SPECS = harness.GENERATED_SPECS
EACH = os.environ.get("CODEGEN_UNION_OBJECTS", "50")


def _spread(items: list[Any]) -> list[Any]:
    """At most ``EACH`` of ``items``, spread evenly (all of them with ``all``)."""
    if EACH == "all":
        return items
    return items[:: max(1, -(-len(items) // int(EACH)))]


def _bounded(reference: TypeAdapter[Any], objects: list[Any]) -> list[Any]:
    """Of the objects, those ``reference`` reads and those it rejects, each kind
    bounded (most objects of a spec belong to no member of a given union, and a union
    of results open to extra keys reads nearly all of them), then the merges."""
    read, rejected = [], []
    for obj in objects:
        taken = _read(reference, json.dumps(obj)) != "rejected"
        (read if taken else rejected).append(obj)
    return _spread(read) + _spread(rejected) + _spread(_merged(reference, objects))


@pytest.mark.parametrize("spec", SPECS)
def test_fast_unions_read_and_write_as_the_old_ones(spec: str) -> None:
    unions = list(_fast_unions(harness.package(spec).models))
    # Each distinct object once (samples repeat their nested objects many times over).
    texts = dict.fromkeys(
        json.dumps(obj)
        for sample in harness.sample_values(spec)
        for obj in harness.objects_in(sample)
    )
    objects = [json.loads(text) for text in texts]
    # Objects with the keys of two (where more than one member may read them).
    objects += [{**a, **b} for a, b in zip(objects, objects[1:] + objects[:1])]
    compared = accepted = 0
    for name, fast, reference, marker in unions:
        ours, theirs = TypeAdapter(fast), TypeAdapter(reference)
        for obj in _bounded(theirs, objects):
            for item in _mutations(obj, marker):
                text = json.dumps(item)
                got, want = _read(ours, text), _read(theirs, text)
                assert got == want, (name, text)
                compared += 1
                accepted += got != "rejected"
    if unions:
        assert accepted and compared > accepted, (spec, compared, accepted)


def test_fast_unions_are_generated_where_they_pay() -> None:
    """The specs with string-tagged unions read them natively; ahp's snapshot state (three
    large models, each with a key of its own) is sorted by its keys."""
    found = {
        spec: {type(m).__name__ for *_, m in _fast_unions(harness.package(spec).models)}
        for spec in SPECS
    }
    assert found["ahp"] == set(FAST)
    assert "_ByWireTag" in found["mcp"]
    assert not found["piglet"]


def test_a_tag_with_another_python_name_is_read_natively() -> None:
    """acp1's SessionUpdate: the tag is ``sessionUpdate`` on the wire and
    ``session_update`` in Python; its JSON reading is pydantic-core's tagged union."""
    models = harness.package("acp1").models
    found = {name: m for name, _, _, m in _fast_unions(models)}
    marker = found["SessionUpdate"]
    assert type(marker).__name__ == "_ByWireTag" and marker.key == "sessionUpdate"
    assert _attributes(marker, marker.key) == {"session_update"}
