"""The generated models' fast ``model_validate_json`` / ``model_dump_json`` give pydantic's
own results.

Called without options, the generated base model reads and writes through pydantic-core's
validator and serializer straight (pydantic's wrappers pass every option by keyword, a cost
as large as a small message's); with options, pydantic's own methods run.  Checked on
every sample message of the ``mcp`` package, against pydantic's ``BaseModel`` methods
called on the same class: the same values and the same JSON text, the same errors for
messages that do not read, and options still honoured (a wrong option still refused).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

REPO = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(REPO / "generated" / "mcp" / "python"))

from mcp_protocol import models

MESSAGES: list[tuple[str, str]] = [
    ("Implementation", '{"name": "x", "version": "1", "unknown": [1, {"a": null}]}'),
    ("ModelHint", "{}"),
    ("Icon", '{"src": "data:,", "sizes": ["1x1"], "theme": "dark"}'),
    (
        "CallToolResult",
        (
            '{"content": [{"type": "text", "text": "hi"}, {"type": "image",'
            ' "data": "AA==", "mimeType": "image/png"}], "isError": false,'
            ' "_meta": {"k": 1.5}}'
        ),
    ),
    (
        "JSONRPCRequest",
        '{"jsonrpc": "2.0", "id": 7, "method": "ping", "params": {"a": [true]}}',
    ),
]
REJECTED: list[tuple[str, str]] = [
    ("Implementation", '{"name": 1, "version": "1"}'),  # not a string (strict)
    ("JSONRPCRequest", '{"jsonrpc": "1.0", "id": 7, "method": "ping"}'),
    ("ModelHint", "[]"),
    ("ModelHint", "{"),  # not JSON
]


def _model(name: str) -> type[BaseModel]:
    model = getattr(models, name)
    assert isinstance(model, type) and issubclass(model, BaseModel)
    return model


def test_the_base_model_has_the_fast_methods() -> None:
    # the fast paths are the generated base's own, not pydantic's
    base = models._Model
    assert "model_validate_json" in vars(base)
    assert "model_dump_json" in vars(base)
    assert vars(base)["model_dump_json"] is not vars(BaseModel)["model_dump_json"]


@pytest.mark.parametrize(("name", "text"), MESSAGES)
def test_read_and_written_as_pydantic_reads_and_writes(name: str, text: str) -> None:
    model = _model(name)
    fast = model.model_validate_json(text)
    slow: Any = BaseModel.model_validate_json.__func__(model, text)  # type: ignore[attr-defined]
    assert fast == slow
    assert type(fast) is model
    assert fast.model_fields_set == slow.model_fields_set
    assert fast.model_dump_json() == BaseModel.model_dump_json(slow)
    # bytes in, as a pipe or a socket gives them
    assert model.model_validate_json(text.encode()) == slow
    # the wire text back, unknown keys included
    assert json.loads(fast.model_dump_json()) == json.loads(text)


@pytest.mark.parametrize(("name", "text"), REJECTED)
def test_rejected_as_pydantic_rejects(name: str, text: str) -> None:
    model = _model(name)
    with pytest.raises(ValidationError) as fast:
        model.model_validate_json(text)
    with pytest.raises(ValidationError) as slow:
        BaseModel.model_validate_json.__func__(model, text)  # type: ignore[attr-defined]
    assert fast.value.errors() == slow.value.errors()
    assert fast.value.title == slow.value.title == name


def test_options_are_pydantic_s() -> None:
    model = _model("Implementation")
    value = model.model_validate_json('{"name": "x", "version": "1"}')
    assert value.model_dump_json(indent=2) == BaseModel.model_dump_json(value, indent=2)
    assert "\n" in value.model_dump_json(indent=2)
    assert value.model_dump_json(exclude={"version"}) == '{"name":"x"}'
    # an option pydantic refuses is still refused, not dropped by a fast path
    with pytest.raises(TypeError):
        value.model_dump_json(no_such_option=True)
    with pytest.raises(TypeError):
        model.model_validate_json('{"name": "x", "version": "1"}', no_such_option=1)
    # by keyword, as pydantic's signature allows
    again = model.model_validate_json(json_data='{"name": "x", "version": "1"}')
    assert again == value
    # options go through to pydantic-core (the fields are strict themselves)
    lax = model.model_validate_json(
        '{"name": "x", "version": "1"}', strict=False, context={"a": 1}
    )
    assert lax == value


def test_each_class_reads_with_its_own_validator() -> None:
    # the kept reader is per class: a subclass reads as itself, its base as the base,
    # whichever is read first
    base = _model("Implementation")

    class Tagged(base):  # type: ignore[valid-type, misc]
        tag: str = "t"

    text = '{"name": "x", "version": "1", "tag": "u"}'
    sub = Tagged.model_validate_json(text)
    plain = base.model_validate_json(text)
    assert type(sub) is Tagged and sub.tag == "u"
    assert type(plain) is base and "tag" not in base.model_fields
    assert plain.model_extra == {"tag": "u"}  # an unknown key to the base
    assert type(Tagged.model_validate_json(text)) is Tagged


def test_a_rebuilt_class_reads_with_its_new_validator() -> None:
    model = _model("Implementation")
    text = '{"name": "x", "version": "1"}'
    before = model.model_validate_json(text)
    kept = models._JSON_READERS[model]
    assert model.model_rebuild(force=True) is True
    assert model not in models._JSON_READERS  # dropped: read again on next use
    assert model.model_validate_json(text) == before
    assert models._JSON_READERS[model] is not kept
    assert models._JSON_READERS[model] == model.__pydantic_validator__.validate_json


# A request id is a string or a number (``_SCALARS``: read by the one member of its
# JSON kind, written as it is); the same values, JSON text and refusals as pydantic's
# smart union of the same members.
IDS = ["7", '"7"', "7.5", "-0", "1e3", "12345678901234567890123", '""']
NOT_IDS = ["true", "null", "[]", "{}", '["7"]']


@pytest.mark.parametrize("text", IDS)
def test_a_request_id_reads_as_the_smart_union_reads_it(text: str) -> None:
    from pydantic import TypeAdapter

    fast = TypeAdapter(models.RequestId)
    smart = TypeAdapter(str | int | float)
    value = fast.validate_json(text)
    assert type(value) is type(smart.validate_json(text))
    assert value == smart.validate_json(text)
    assert fast.dump_json(value) == smart.dump_json(value)
    message = models.JSONRPCRequest.model_validate_json(
        f'{{"jsonrpc": "2.0", "id": {text}, "method": "ping"}}'
    )
    assert json.loads(message.model_dump_json())["id"] == json.loads(text)


@pytest.mark.parametrize("text", NOT_IDS)
def test_a_request_id_refuses_what_is_no_string_or_number(text: str) -> None:
    from pydantic import TypeAdapter

    with pytest.raises(ValidationError) as refused:
        TypeAdapter(models.RequestId).validate_json(text)
    # one error for the string, one for the number (not one per number member)
    assert [e["type"] for e in refused.value.errors()] == ["string_type", "float_type"]
    with pytest.raises(ValidationError):
        models.JSONRPCRequest(jsonrpc="2.0", id=json.loads(text), method="ping")


def test_a_rebuild_resolves_names_where_it_is_called() -> None:
    # pydantic resolves a rebuilt class's names in its caller's frame: the generated
    # base's own ``model_rebuild`` frame must not stand in its place
    base = _model("Implementation")

    class Later(base):  # type: ignore[valid-type, misc]
        other: Local

    class Local(BaseModel):
        x: int

    assert Later.model_rebuild() is True
    text = '{"name": "x", "version": "1", "other": {"x": 1}}'
    assert Later.model_validate_json(text).other == Local(x=1)

    # Rejecting twin: a name defined nowhere still does not resolve.
    class Never(base):  # type: ignore[valid-type, misc]
        other: Nowhere  # type: ignore[name-defined]  # noqa: F821

    with pytest.raises(Exception, match="Nowhere"):
        Never.model_rebuild()


def test_a_class_completed_on_first_read_is_read_complete() -> None:
    base = _model("Implementation")

    class Pending(base):  # type: ignore[valid-type, misc]
        other: Item

    class Item(BaseModel):
        x: int

    globals()["Item"] = Item  # where pydantic looks when the class completes itself
    try:
        text = '{"name": "x", "version": "1", "other": {"x": 2}}'
        assert Pending.model_validate_json(text).other.x == 2
        assert Pending.model_validate_json(text).other.x == 2  # the kept reader
        with pytest.raises(ValidationError):
            Pending.model_validate_json('{"name": "x", "version": "1", "other": {}}')
    finally:
        del globals()["Item"]
