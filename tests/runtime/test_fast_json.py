"""The runtime's JSON fast paths give the standard library's answers: ``loads`` reads with
pydantic-core where it may and falls back to the standard reader, whose value or error
stands; ``dumps_plain`` writes with pydantic-core the same text as ``dumps`` (a float's
exponent aside: the same number) and leaves NaN, Infinity and lone surrogates to it.
"""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic_core import from_json

import codegen.runtime as rpc
from codegen.runtime import codec


def _same(left: Any, right: Any) -> bool:
    """Equal JSON values of the same types, key order included; a float by its repr (so
    ``-0.0`` is not ``0.0``)."""
    if type(left) is not type(right):
        return False
    if isinstance(left, dict):
        return list(left) == list(right) and all(_same(left[k], right[k]) for k in left)
    if isinstance(left, list):
        return len(left) == len(right) and all(map(_same, left, right))
    if isinstance(left, float):
        return repr(left) == repr(right)
    return bool(left == right)


def _outcome(read: Any, data: str | bytes) -> tuple[str, Any]:
    try:
        return "value", read(data)
    except rpc.RpcError as error:
        return "error", (error.code, error.message)


def _agrees(data: str | bytes) -> None:
    fast, standard = _outcome(rpc.loads, data), _outcome(codec._standard_loads, data)
    assert fast[0] == standard[0], (data[:80], fast, standard)
    if fast[0] == "value":
        assert _same(fast[1], standard[1]), data[:80]
    else:
        assert fast[1] == standard[1]


HOSTILE = [
    b"NaN",
    b"[Infinity]",
    b"-Infinity",
    b"1e400",
    b"-1e400",
    b"1E+0400",
    b"1e-400",
    b"1" + b"0" * 400 + b".0",
    b"1" + b"0" * 250 + b".0e99",  # overflows with a two-digit exponent
    b"1" + b"0" * 5000,  # over Python's 4300 digits
    b"1" + b"0" * 4299,
    b'"\\ud800"',
    b'{"id": "\\udfff", "x": 1}',
    b'"\\ud83d\\ude00"',
    b"\xef\xbb\xbf{}",
    b'"\xff"',
    b'"\xed\xa0\x80"',
    b"[" * 199 + b"]" * 199,
    b"[" * 201 + b"]" * 201,
    b"[" * 5000 + b"]" * 5000,
    b'{"a": 1, "b": 2, "a": 3}',
    b'{"a": 1}x',
    b"[1,]",
    b"01",
    b"-0",
    b"-0.0",
    b"4.9e-324",
    b"1.7976931348623157e308",
    b"2.2250738585072014e-308",
    b"9007199254740993",
    b' \t\r\n{"a" : [1, 2.0, true, null, "\\u0000\\n"]} \n',
    b"\x00",
    b"",
    b"   ",
]


@pytest.mark.parametrize("data", HOSTILE, ids=range(len(HOSTILE)))
def test_hostile_text_reads_as_the_standard_reader_reads_it(data: bytes) -> None:
    _agrees(data)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return
    _agrees(text)
    _agrees("\ufeff" + text)


def test_pydantic_cores_reader_alone_would_take_infinity_for_a_number() -> None:
    """Why ``loads`` sends numbers that may overflow to the standard reader: the fast
    reader alone reads them as infinity, a value no JSON text holds."""
    for data in (b"1e400", b"1" + b"0" * 250 + b".0e99"):
        assert math.isinf(from_json(data, allow_inf_nan=False))
        with pytest.raises(rpc.RpcError, match="number out of range"):
            rpc.loads(data)


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=5)
    | st.dictionaries(st.text(max_size=8), inner, max_size=5),
    max_leaves=30,
)


@settings(max_examples=400, deadline=None)
@given(JSON_VALUES)
def test_any_json_value_reads_the_same(value: Any) -> None:
    for text in (
        json.dumps(value),
        json.dumps(value, ensure_ascii=False, separators=(",", ":")),
    ):
        try:
            data = text.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate: only as escapes in bytes
            data = json.dumps(value).encode()
        _agrees(text)
        _agrees(data)


@settings(max_examples=400, deadline=None)
@given(st.binary(max_size=60))
def test_any_bytes_read_the_same(data: bytes) -> None:
    _agrees(data)
    _agrees(b'{"jsonrpc": "2.0", "id": ' + data + b"}")


def _has_exponent(value: Any) -> bool:
    if isinstance(value, float):
        return "e" in repr(value)
    if isinstance(value, dict):
        return any(map(_has_exponent, value.values()))
    if isinstance(value, list):
        return any(map(_has_exponent, value))
    return False


@settings(max_examples=400, deadline=None)
@given(JSON_VALUES)
def test_plain_messages_are_written_as_dumps_writes_them(value: Any) -> None:
    message = {"jsonrpc": "2.0", "id": 1, "result": value}
    fast, standard = rpc.dumps_plain(message), rpc.dumps(message).encode("utf-8")
    assert _same(json.loads(fast), json.loads(standard))
    if not _has_exponent(value):  # ``1e-07`` there, ``1e-7`` here
        assert fast == standard


@pytest.mark.parametrize(
    "value",
    [
        float("nan"),
        [float("inf")],
        {"x": -float("inf")},
        "\ud800",
        {"id": "\udfff"},
        "NaN and Infinity, in a string",
        1e16,
        1e-7,
        -0.0,
        10**40,
    ],
    ids=repr,
)
def test_what_pydantic_core_writes_otherwise_is_left_to_dumps(value: Any) -> None:
    message = {"result": value}
    try:
        expected = rpc.dumps(message).encode("utf-8")
    except ValueError:
        with pytest.raises(ValueError):
            rpc.dumps_plain(message)
        return
    written = rpc.dumps_plain(message)
    assert _same(json.loads(written), json.loads(expected))
    assert written.isascii() == expected.isascii()  # a lone surrogate: escaped
