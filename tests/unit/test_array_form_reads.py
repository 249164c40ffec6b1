"""Models serde_json also reads from an array of their fields read JSON without a
Python step in front, and give what that step gave.

A model with ``__array_form__`` reads JSON through pydantic-core's union of the object
and the array (``_read_array_form``); Python input still goes through ``_array_form``
first.  The reference here is the old reading rebuilt from the same core schema: every
such model's JSON side swapped for its Python side, which is the ``_array_form`` step in
front of the model that the bindings used for JSON too.  Each model that acp1's samples
hold is fed every object of the samples, their array forms (whole, short of trailing
values, too long, the values out of order), mutations and non-objects; the verdict and
the JSON written must be the same.  The models still write by wire name, and their JSON
Schema is the object's, the same on every run.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from functools import partial
from typing import Any

import pytest
from pydantic import BaseModel, ValidationError
from pydantic_core import SchemaSerializer, SchemaValidator

from tests.roundtrip import harness


def _models() -> Any:
    return harness.package("acp1").models


def _old_reading(node: Any, module: Any) -> Any:
    """``node`` (a core schema) with each array-form reading's JSON side replaced by its
    Python side: ``_array_form`` in front of the model, for JSON input too."""
    if isinstance(node, list):
        return [_old_reading(item, module) for item in node]
    if not isinstance(node, dict):
        return node
    if node.get("type") == "json-or-python":
        step = node["python_schema"]
        function = step.get("function", {}).get("function")
        if isinstance(function, partial) and function.func is module._array_form:
            swapped = {**node, "json_schema": step}
            return {key: _old_reading(value, module) for key, value in swapped.items()}
    return {key: _old_reading(value, module) for key, value in node.items()}


class _Reader:
    def __init__(self, schema: Any) -> None:
        self.validator = SchemaValidator(schema)
        self.serializer = SchemaSerializer(schema)

    def read(self, text: str) -> Any:
        try:
            value = self.validator.validate_json(text, by_alias=True, by_name=False)
        except ValidationError:
            return "rejected"
        return self.serializer.to_json(value, by_alias=True).decode()


def _as_arrays(obj: dict[str, Any], keys: tuple[tuple[str, bool], ...]) -> list[Any]:
    """Array forms of ``obj``: whole, short of its trailing values, too long, and out of
    order; nested objects also as the arrays of their values."""
    values = [obj[key] for key, _ in keys if key in obj]
    nested = [
        list(value.values()) if isinstance(value, dict) else value for value in values
    ]
    forms = [values, nested, values + [None], values[::-1], [], [values]]
    forms += [values[:cut] for cut in range(len(values))]
    return forms


def _mutations(obj: dict[str, Any]) -> Iterator[Any]:
    yield obj
    for key in list(obj)[:4]:
        yield {k: v for k, v in obj.items() if k != key}
        for odd in (None, "x", 1.5, [], {}):
            yield {**obj, key: odd}
    yield "x"
    yield 1
    yield None


def _targets(module: Any) -> list[type[BaseModel]]:
    return sorted(
        (
            value
            for value in vars(module).values()
            if isinstance(value, type)
            and issubclass(value, BaseModel)
            and value.__dict__.get("__array_form__") is not None
        ),
        key=lambda model: model.__name__,
    )


def test_array_form_models_read_json_as_the_python_step_did() -> None:
    module = _models()
    targets = _targets(module)
    assert len(targets) > 50  # acp1's structs
    objects = list(
        dict.fromkeys(
            json.dumps(obj)
            for sample in harness.sample_values("acp1")
            for obj in harness.objects_in(sample)
        )
    )
    compared = accepted = arrays_accepted = 0
    for model in targets:
        schema = model.__pydantic_core_schema__
        old = _old_reading(schema, module)
        assert old != schema, model.__name__  # the JSON side was swapped
        new_reader, old_reader = _Reader(schema), _Reader(old)
        keys = model.__array_form__
        names = {key for key, _ in keys}
        # The objects that share a key with the model (others, a few: they only fail).
        mine = [text for text in objects if names & set(json.loads(text))]
        others = [text for text in objects if text not in mine][:3]
        for text in mine + others:
            obj = json.loads(text)
            inputs = [*_mutations(obj), *_as_arrays(obj, keys)]
            for item in inputs:
                item_text = json.dumps(item)
                got = new_reader.read(item_text)
                assert got == old_reader.read(item_text), (model.__name__, item_text)
                compared += 1
                accepted += got != "rejected"
                arrays_accepted += got != "rejected" and isinstance(item, list)
    assert compared > accepted > arrays_accepted > 0, (compared, accepted)


def test_array_form_reads_and_refusals() -> None:
    module = _models()
    response = module.InitializeResponse
    whole = response.model_validate_json("[1, {}, [], null]", by_name=False)
    assert whole.protocol_version == 1
    assert response.model_validate_json('{"protocolVersion": 1}', by_name=False)
    from_python = response.model_validate([1], by_name=False)
    assert from_python.model_dump_json() == whole.model_dump_json()
    written = json.loads(whole.model_dump_json())
    assert written["protocolVersion"] == 1 and written["authMethods"] == []
    assert "agentInfo" not in written  # null reads as absent, as serde's Option does
    for refused in ("[]", "[1, {}, [], null, null, 7]", '"x"', "1", "null"):
        with pytest.raises(ValidationError):
            response.model_validate_json(refused, by_name=False)
        with pytest.raises(ValidationError):
            response.model_validate(json.loads(refused), by_name=False)


def test_an_object_that_does_not_read_reports_its_own_problems() -> None:
    module = _models()
    with pytest.raises(ValidationError) as from_json:
        module.InitializeResponse.model_validate_json(
            '{"protocolVersion": "x"}', by_name=False
        )
    with pytest.raises(ValidationError) as from_python:
        module.InitializeResponse.model_validate(
            {"protocolVersion": "x"}, by_name=False
        )
    python_errors = from_python.value.errors(include_url=False)
    assert [(e["type"], e["loc"]) for e in python_errors] == [
        ("int_type", ("protocolVersion",))
    ]
    json_errors = from_json.value.errors(include_url=False)
    # The object's problem, under the class name; the array reading's, under its own.
    assert ("int_type", ("InitializeResponse", "protocolVersion")) in [
        (e["type"], e["loc"]) for e in json_errors
    ]
    assert [e["loc"][0] for e in json_errors] == ["InitializeResponse", "array form"]


def test_array_form_models_keep_their_json_schema_and_writer() -> None:
    module = _models()
    first = json.dumps(module.InitializeResponse.model_json_schema(), sort_keys=True)
    assert first == json.dumps(
        module.InitializeResponse.model_json_schema(), sort_keys=True
    )
    assert not re.search(r'"[A-Za-z]+_\d{6,}"', first)  # no definition named by an id
    definitions = module.InitializeResponse.model_json_schema()["$defs"]
    assert definitions["AgentCapabilities"]["type"] == "object"
    serialized = module.InitializeResponse.model_validate_json(
        '{"protocolVersion": 1, "agentInfo": {"name": "a", "version": "1"}}',
        by_name=False,
    )
    assert '"agentInfo":{"name":"a","version":"1"}' in serialized.model_dump_json()
    assert "agent_info" not in serialized.model_dump_json()
    assert serialized.model_dump()["protocolVersion"] == 1
