"""A JSON read of the bindings that skips a Python step gives what that step gave.

Any JSON object or array (``_STRUCTURED_JSON``) reads left to right and is written as
plain JSON: the same verdicts and text as pydantic's smart union of the two.
"""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path
from typing import Annotated, Any

from pydantic import JsonValue, TypeAdapter, ValidationError

REPO = Path(__file__).resolve().parent.parent.parent


def _module(spec: str) -> Any:
    (models,) = (REPO / "generated" / spec / "python").glob("*/models.py")
    sys.path.insert(0, str(models.parent.parent))
    try:
        return importlib.import_module(f"{models.parent.name}.models")
    finally:
        sys.path.pop(0)


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
