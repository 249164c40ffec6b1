"""Two JSON reads of the bindings that skip a Python step give what that step gave.

- A struct serde also reads from an array (``_array_form``) reads a JSON object with
  its fields directly; Python input keeps the Python step, so each such model of every
  generated package reads every object of its spec's samples (and mutations: a key
  removed, a value made a list, null, a string) from JSON text and from the same value
  in Python alike: the same verdict and the same JSON written.  Arrays still read.
- Any JSON object or array (``_STRUCTURED_JSON``) reads left to right and is written
  as plain JSON: the same verdicts and text as pydantic's smart union of the two.
"""

from __future__ import annotations

import importlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any

import pytest
from pydantic import BaseModel, JsonValue, TypeAdapter, ValidationError

REPO = Path(__file__).resolve().parent.parent.parent
SPECS = sorted(
    p.parent.parent.parent.name
    for p in (REPO / "generated").glob("*/python/*/models.py")
)


def _module(spec: str) -> Any:
    (models,) = (REPO / "generated" / spec / "python").glob("*/models.py")
    sys.path.insert(0, str(models.parent.parent))
    try:
        return importlib.import_module(f"{models.parent.name}.models")
    finally:
        sys.path.pop(0)


def _objects(node: Any) -> Iterator[dict[str, Any]]:
    if isinstance(node, dict):
        yield node
        for item in node.values():
            yield from _objects(item)
    elif isinstance(node, list):
        for item in node:
            yield from _objects(item)


def _sample_objects(spec: str) -> list[dict[str, Any]]:
    texts: dict[str, None] = {}
    for path in sorted((REPO / "specs" / spec / "examples").rglob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        for sample in data.get("samples", []) if isinstance(data, dict) else []:
            if isinstance(sample, dict) and "value" in sample:
                texts.update(dict.fromkeys(json.dumps(o) for o in _objects(sample)))
    return [json.loads(text) for text in texts]


def _mutations(obj: dict[str, Any]) -> Iterator[Any]:
    yield obj
    for key in list(obj)[:4]:
        yield {k: v for k, v in obj.items() if k != key}
        for odd in (None, ["x"], "x"):
            yield {**obj, key: odd}
    yield list(obj.values())
    yield "x"


def _read(adapter: TypeAdapter[Any], text: str, *, from_json: bool) -> Any:
    """What ``adapter`` writes after reading ``text`` (as JSON text, or as the Python
    value ``json.loads`` gives), or "rejected"."""
    try:
        if from_json:
            value = adapter.validate_json(text, by_name=False)
        else:
            value = adapter.validate_python(json.loads(text), by_name=False)
    except ValidationError:
        return "rejected"
    return adapter.dump_json(value, by_alias=True).decode()


@pytest.mark.parametrize("spec", SPECS)
def test_array_form_models_read_json_objects_as_python_ones(spec: str) -> None:
    module = _module(spec)
    models = [
        c
        for c in vars(module).values()
        if isinstance(c, type)
        and issubclass(c, BaseModel)
        and "_array_form" in c.__dict__
    ]
    if not models:
        return
    objects = _sample_objects(spec)
    compared = accepted = arrays = 0
    for model in models:
        adapter = TypeAdapter(model)
        for obj in objects:
            for item in _mutations(obj):
                text = json.dumps(item)
                from_json = _read(adapter, text, from_json=True)
                from_python = _read(adapter, text, from_json=False)
                assert from_json == from_python, (model.__name__, text)
                compared += 1
                accepted += from_json != "rejected"
                arrays += isinstance(item, list) and from_json != "rejected"
    assert accepted and arrays and compared > accepted, (compared, accepted, arrays)


def test_any_json_object_or_array_reads_and_writes_as_the_smart_union() -> None:
    marker = _module("mcp")._STRUCTURED_JSON
    fast: TypeAdapter[Any] = TypeAdapter(
        Annotated[dict[str, JsonValue] | list[JsonValue], marker]
    )
    plain: TypeAdapter[Any] = TypeAdapter(dict[str, JsonValue] | list[JsonValue])
    schema: Any = fast.core_schema
    schema = schema.get("schema", schema)  # under its definitions
    assert schema["mode"] == "left_to_right"
    assert schema["serialization"] == {"type": "any"}
    values = [
        {"a": [1, 2.5, {"b": None}], "c": "d", "e": True},
        [1, {"x": [{}]}, "s"],
        {},
        [],
        "x",
        1,
        None,
        True,
    ]
    for value in values:
        text = json.dumps(value)
        for from_json in (True, False):
            got = _read(fast, text, from_json=from_json)
            assert got == _read(plain, text, from_json=from_json), text
    assert _read(fast, "1", from_json=True) == "rejected"
    assert _read(fast, "{}", from_json=True) == "{}"
