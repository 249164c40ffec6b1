"""The per-field fast paths of the bindings give what the general helpers they stand in
for gave.

- ``_equals(default)`` (plain equality, used where the field's values compare as their
  JSON) against ``_left_out_when(default)`` on values of the field's own kind;
- ``_omitted(written)``'s direct comparison of plain values against its JSON
  comparison;
- ``_on_error(default)`` (pydantic-core's ``on_error``) and ``_read_or_default(default)``
  against ``_OnError``, the Python wrapper the bindings used for every value before, on
  good and bad values, absent or not.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import Annotated, Any

import pytest
from pydantic import (
    MISSING,
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    ValidatorFunctionWrapHandler,
    WrapValidator,
)
from pydantic_core import to_jsonable_python

REPO = Path(__file__).resolve().parent.parent.parent


def _models() -> Any:
    """A generated module that has every helper under test (acp1 uses them all)."""
    path = REPO / "generated" / "acp1" / "python"
    sys.path.insert(0, str(path))
    try:
        return importlib.import_module("acp1_protocol.models")
    finally:
        sys.path.pop(0)


M = _models()


class _OnError:
    """The reference: serde_with ``DefaultOnError`` as the bindings read it before, a
    Python wrapper around every value (a value that does not read takes what an absent
    key gives: the default, or absent)."""

    def __init__(self, default: Any) -> None:
        self.default = default

    def __call__(self, value: Any, handler: ValidatorFunctionWrapHandler) -> Any:
        try:
            return handler(value)
        except ValidationError:
            if self.default is MISSING:
                return MISSING
            return handler(self.default)


# (default, values of the field's kind): the kinds ``_compares_as_json`` admits.
KINDS: list[tuple[Any, list[Any]]] = [
    ("", ["", "x", " "]),
    ("x", ["", "x", "X"]),
    (0, [0, 1, -1, 0.0, 0.5, 2.0]),
    (2, [2, 2.0, 2.5, 0]),
    (0.5, [0.5, 0, 1]),
    (False, [False, True]),
    (True, [False, True]),
    ([], [[], [1], [None], [[]]]),
    ({}, [{}, {"a": 1}, {"": None}]),
    (None, [None, 0, False, "", [], {}, "null", [None]]),
]


@pytest.mark.parametrize(("default", "values"), KINDS)
def test_equals_leaves_out_what_the_json_comparison_does(
    default: Any, values: list[Any]
) -> None:
    fast, reference = M._equals(default), M._left_out_when(default)
    verdicts = [fast(value) for value in values]
    assert verdicts == [reference(value) for value in values]
    assert True in verdicts and False in verdicts


class _Kind(str):
    """A ``str`` that is not exactly one: the general comparison takes it."""


@pytest.mark.parametrize(("written", "values"), KINDS)
def test_omitted_reads_as_absent_what_the_json_comparison_does(
    written: Any, values: list[Any]
) -> None:
    check = M._omitted(written).func
    for value in [*values, _Kind("x"), _Kind("")]:
        jsonable = to_jsonable_python(value, by_alias=True)
        want = MISSING if M._same_json(jsonable, written) else value
        assert check(value) is want, (written, value)


def test_on_error_reads_as_the_python_wrapper_did() -> None:
    config = ConfigDict(strict=True, extra="allow")

    class Old(BaseModel):
        model_config = config
        flag: Annotated[bool | MISSING, WrapValidator(_OnError(False))] = MISSING
        name: Annotated[str | MISSING, WrapValidator(_OnError(MISSING))] = MISSING
        size: Annotated[int | None, WrapValidator(_OnError(None))] = None

    class New(BaseModel):
        model_config = config
        flag: Annotated[bool | MISSING, M._on_error(False)] = MISSING
        name: Annotated[str | MISSING, M._on_error(MISSING)] = MISSING
        size: Annotated[int | None, M._on_error(None)] = None

    texts = ["{}", '{"flag": true}', '{"flag": 1}', '{"flag": null}']
    texts += ['{"name": "n"}', '{"name": 5}', '{"size": 3}', '{"size": "3"}']
    texts += ['{"size": null, "other": [1]}']
    falls_back = '{"flag":false,"size":null}'
    bad = {'{"flag": 1}': falls_back, '{"flag": null}': falls_back}
    bad |= {'{"name": 5}': '{"size":null}', '{"size": "3"}': '{"size":null}'}
    for text in texts:
        results = []
        for model in (Old, New):
            try:
                value = model.model_validate_json(text, by_name=False)
            except ValidationError:  # pragma: no cover - neither rejects
                results.append("rejected")
                continue
            results.append(
                (value.model_dump_json(by_alias=True), value.model_fields_set)
            )
        assert results[0] == results[1], text
        if text in bad:  # a value that does not read falls back to the default
            assert results[1][0] == bad[text], (text, results[1])


def test_read_or_default_reads_as_the_python_wrapper_did() -> None:
    """A default that must be read (a model, a list of models): the value is read by
    pydantic-core, the default only when the value does not read."""
    config = ConfigDict(strict=True, extra="allow")

    class Inner(BaseModel):
        model_config = config
        a: bool = False
        b: list[int] = []

    inner_default = {"a": True, "b": [1]}

    class Old(BaseModel):
        model_config = config
        inner: Annotated[Inner, WrapValidator(_OnError(inner_default))] = Field(
            default_factory=lambda: Inner(a=True, b=[1])
        )
        items: Annotated[list[Inner], WrapValidator(_OnError([]))] = []
        none: Annotated[int | None, WrapValidator(_OnError(None))] = None

    class New(BaseModel):
        model_config = config
        inner: Annotated[Inner, M._read_or_default(inner_default)] = Field(
            default_factory=lambda: Inner(a=True, b=[1])
        )
        items: Annotated[list[Inner], M._read_or_default([])] = []
        none: Annotated[int | None, M._read_or_default(None)] = None

    texts = ["{}", '{"inner": {"a": false}}', '{"inner": {"a": 1}}', '{"inner": 5}']
    texts += ['{"inner": {"b": [1, "x"]}, "x": 1}', '{"items": [{"a": true}, {}]}']
    texts += ['{"items": [{"a": 2}]}', '{"items": {}}', '{"none": 1}']
    texts += ['{"none": "1"}', '{"inner": null, "items": null, "none": null}']
    fell_back = 0
    for text in texts:
        results = []
        for model in (Old, New):
            try:
                value = model.model_validate_json(text)
            except ValidationError:  # pragma: no cover - neither rejects
                results.append("rejected")
                continue
            results.append(
                (value.model_dump_json(by_alias=True), value.model_fields_set)
            )
        assert results[0] == results[1], text
        default = '"inner":{"a":true,"b":[1]}'
        fell_back += default in results[1][0] and '"inner"' in text
    assert fell_back == 4  # {"a": 1}, 5, ["x"] in b, null

    # A default that does not read itself is an error, as before.
    class Bad(BaseModel):
        model_config = config
        size: Annotated[int, M._read_or_default("x")] = 0

    with pytest.raises(ValidationError):
        Bad.model_validate_json('{"size": "y"}')
    assert Bad.model_validate_json('{"size": 2}').size == 2
