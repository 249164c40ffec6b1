"""A JSON read of the bindings that skips a Python step gives what that step gave.

Any JSON (``_ANY_JSON``) is written by pydantic-core's own writer.  On an object or
array it also reads left to right: the same verdicts and text as pydantic's smart union
of the two.  On ``JsonValue`` and ``dict[str, JsonValue]``: the same verdicts and text
as ``JsonValue``'s writer, which picks a member of its tagged union with a Python call
per nested value.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

from pydantic import JsonValue, TypeAdapter, ValidationError

from tests.roundtrip import harness


def _module(spec: str) -> Any:
    return harness.package(spec).models


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


def test_any_json_object_or_array_reads_and_writes_as_the_smart_union() -> None:
    marker = _module("mcp")._ANY_JSON
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


_ANY_VALUES: list[Any] = [
    {"a": [1, 2.5, {"b": None}], "c": "d", "e": True, "f": False},
    [1, {"x": [{}]}, "s", -0.0, 1.0, 1e300, 10**40, -(10**30)],
    {"é": "ü\u2028", "tab\t": "\u0000", "": [[], {}]},
    {"nested": {"deeper": {"deepest": [None, True, 0]}}},
    {},
    [],
    "x",
    "",
    1,
    0.5,
    None,
    True,
]


def test_any_json_reads_as_json_value_and_writes_the_same_text() -> None:
    marker = _module("mcp")._ANY_JSON
    pairs = [
        (Annotated[JsonValue, marker], JsonValue),
        (Annotated[dict[str, JsonValue], marker], dict[str, JsonValue]),
    ]
    for fast_type, plain_type in pairs:
        fast: TypeAdapter[Any] = TypeAdapter(fast_type)
        plain: TypeAdapter[Any] = TypeAdapter(plain_type)
        schema: Any = fast.core_schema
        schema = schema.get("schema", schema)  # under its definitions
        assert schema["serialization"] == {"type": "any"}
        for mode in ("validation", "serialization"):  # the JSON Schema pydantic gives
            assert fast.json_schema(mode=mode) == plain.json_schema(mode=mode)
        for value in _ANY_VALUES:
            text = json.dumps(value)
            for from_json in (True, False):
                got = _read(fast, text, from_json=from_json)
                assert got == _read(plain, text, from_json=from_json), (fast_type, text)
        # Python-side output too: what a server answers with (``mode="json"``).
        for value in _ANY_VALUES:
            try:
                held = plain.validate_python(value)
            except ValidationError:
                continue
            assert fast.dump_python(held, mode="json") == plain.dump_python(
                held, mode="json"
            )
    object_only: TypeAdapter[Any] = TypeAdapter(pairs[1][0])
    assert _read(object_only, "[1]", from_json=True) == "rejected"
    assert _read(object_only, '"x"', from_json=True) == "rejected"
    any_value: TypeAdapter[Any] = TypeAdapter(pairs[0][0])
    assert _read(any_value, '{"a": ', from_json=True) == "rejected"
    # pydantic's JSON reader takes NaN for JsonValue; both writers write it as null.
    plain_value: TypeAdapter[Any] = TypeAdapter(JsonValue)
    assert _read(any_value, "NaN", from_json=True) == _read(
        plain_value, "NaN", from_json=True
    )


def test_extra_keys_and_error_data_are_written_by_the_plain_writer() -> None:
    """Where the bindings hold any JSON (a model's extra keys, an error's ``data``), the
    field carries the plain writer."""
    models = _module("mcp")
    result = models.Result.__pydantic_core_schema__
    assert "'serialization': {'type': 'any'}" in repr(result)
    written = models.Result.model_validate_json(
        '{"k": {"n": [1, 2.0, "x", null]}, "_meta": {}}', by_name=False
    ).model_dump_json(by_alias=True)
    assert json.loads(written) == {"k": {"n": [1, 2.0, "x", None]}, "_meta": {}}
    assert '"n":[1,2.0,"x",null]' in written
