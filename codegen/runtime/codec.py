"""JSON text in and out, exactly as JSON-RPC peers expect it, at pydantic-core's speed.

Phase: runtime (every generated package carries this module in its ``_rpc`` package).
Inputs: message bytes or text from a peer; JSON values to send.
Outputs: ``loads`` (one message, or ``RpcError(PARSE_ERROR)``), ``dumps`` (compact,
always UTF-8-encodable text), ``dumps_plain`` (UTF-8 bytes of plain JSON values, written
by pydantic-core) and ``id_key`` (the key of a pending request's id).
Guarantees: what is not JSON is refused (invalid UTF-8, NaN, Infinity, numbers no double
holds, integers of over 4300 digits); the fast path (pydantic-core, one call into Rust)
and the standard library agree on every message both read.
"""

from __future__ import annotations

import json
import math
from typing import Any, Final

from pydantic_core import PydanticSerializationError, from_json, to_json

from .errors import PARSE_ERROR, RpcError, short


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(
        value
    ):  # 1e400: no double holds it (Go's encoding/json agrees)
        raise ValueError(f"number out of range: {short(text, 40)}")
    return value


def loads(data: str | bytes) -> Any:
    """Parse one message; raises ``RpcError(PARSE_ERROR)`` on anything that is not
    UTF-8 JSON: invalid UTF-8 (and UTF-16/32, which ``json`` would guess), NaN and
    Infinity, numbers no double holds (``1e400``) and integers of over 4300 digits.

    pydantic-core's reader (one call into Rust, a quarter of the standard library's
    cost) reads what it can; what it refuses (NaN, a lone surrogate escape, nesting
    over 200, a BOM, bad UTF-8...) and any number that might not fit a double (an
    exponent of three digits, a run of 200 digits: it would read ``1e400`` as
    infinity) go to the standard library's reader, whose verdict and message stand.
    Both keep the last of duplicate keys at the first one's place.
    """
    # A lone surrogate in text makes bytes pydantic-core refuses: the standard reader
    # decides on the text itself.
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    if not may_overflow(raw):
        try:
            return from_json(raw, allow_inf_nan=False)
        except ValueError:
            pass
    return _standard_loads(data)


def _standard_loads(data: str | bytes) -> Any:
    """``loads`` by the standard library's reader alone: the reference ``loads`` keeps."""
    try:
        text = data.decode("utf-8") if isinstance(data, (bytes, bytearray)) else data
    except UnicodeDecodeError as error:
        raise RpcError(
            PARSE_ERROR, f"parse error: not UTF-8 (byte {error.start})"
        ) from None
    try:
        if text.startswith("\ufeff"):  # what json.loads refuses, refused the same way
            return json.loads(text)
        return _DECODER.decode(text)
    except RecursionError:
        raise RpcError(PARSE_ERROR, "parse error: nested too deeply") from None
    except ValueError as error:
        raise RpcError(PARSE_ERROR, f"parse error: {short(error)}") from None


def dumps(message: Any) -> str:
    """Compact JSON that always encodes as UTF-8: a string holding a lone surrogate (a
    peer may send ``"\\ud800"``, and its id is echoed) makes the whole message ASCII with
    escapes, exactly as the peer wrote it.  Raises ``ValueError`` on NaN or Infinity,
    which are not JSON.
    """
    text = _ENCODER.encode(message)
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            text = _ASCII_ENCODER.encode(message)
    return text


def dumps_plain(message: Any) -> bytes:
    """``dumps`` of a message that holds only what reading JSON or pydantic's JSON-mode
    dump gives (dicts, lists, strings, numbers, booleans, None), as UTF-8: written by
    pydantic-core (one call into Rust) with the same text but for a float's exponent
    (``1e-7``, not ``1e-07``: the same number).  What it would write otherwise goes to
    ``dumps``: NaN or Infinity (refused there), a lone surrogate (escaped there)."""
    try:
        data = to_json(message, inf_nan_mode="constants")
    except PydanticSerializationError:
        data = b"NaN"  # what only ``dumps`` writes right
    # In a string, or a float JSON lacks (``find``: bytes' ``in`` first tries its
    # operand as an integer, and the TypeError it raises and clears costs more).
    if data.find(b"NaN") >= 0 or data.find(b"Infinity") >= 0:
        return dumps(message).encode("utf-8")
    return data


def may_overflow(data: bytes | bytearray) -> bool:
    """Whether a number in ``data`` might not fit a double: one with an exponent of
    three digits (``1e400``) or a run of 200 digits (``1`` and 400 digits ``.0``); a
    literal overflows only if its integer digits and its exponent add up to over 308.
    With every digit made ``0``, ``E`` made ``e`` and ``+`` made ``-``, bytes' own
    search finds both shapes (a regex, byte by byte, costs as much as the read); each
    place found counts only where a number holds it: what it is part of, read back
    over digits, ``.`` and ``-``, starts the text or follows ``[``, ``:``, ``,`` or
    whitespace (a hex trace id's ``08e019`` does not).  Text in a string that looks
    like a number that way (``"a,1e400"``) is only read the slower way.

    Every message read passes here, and nearly none holds such a shape: first, with
    the signs deleted too, one search for ``e000`` (both exponent shapes) and one for
    the 200 digits only in text as long (``find``, not ``in``: bytes' ``in`` first
    tries its operand as an integer, and the ``TypeError`` it clears costs more)."""
    quick = data.translate(_NUMBER_SHAPES, b"+-")
    if quick.find(b"e000") < 0 and (len(quick) < 200 or quick.find(_LONG_RUN) < 0):
        return False  # deleting signs only joins shapes: nothing here was missed
    shapes = data.translate(_NUMBER_SHAPES)
    looks = 0
    for shape in _BIG_SHAPES:
        at = shapes.find(shape)
        while at >= 0:
            looks += 1
            if looks > 16:  # text full of such shapes: read the slower way at once
                return True
            start = at
            while start and data[start - 1] in _IN_NUMBER:
                start -= 1
            if not start or data[start - 1] in _BEFORE_NUMBER:
                return True
            if shape is _LONG_RUN:  # on past the rest of this run
                at += len(shapes) - at - len(shapes[at:].lstrip(b"0"))
            at = shapes.find(shape, at + 1)
    return False


_NUMBER_SHAPES: Final = bytes.maketrans(b"123456789E+", b"000000000e-")
_LONG_RUN: Final = b"0" * 200
_BIG_SHAPES: Final = (b"e000", b"e-000", _LONG_RUN)
_IN_NUMBER: Final = frozenset(b"0123456789.-")
_BEFORE_NUMBER: Final = frozenset(b"[:, \t\r\n")


# One coder each, built once: ``json.loads``/``dumps`` with options build a new one per
# call, which costs as much as coding a small message.
_DECODER: Final = json.JSONDecoder(parse_constant=_no_constants, parse_float=_finite)
_ENCODER: Final = json.JSONEncoder(
    ensure_ascii=False, separators=(",", ":"), allow_nan=False
)
_ASCII_ENCODER: Final = json.JSONEncoder(separators=(",", ":"), allow_nan=False)


def id_key(request_id: Any) -> Any:
    """The key of a pending request: ints as themselves, any other id as its JSON text
    (so ``1``, ``1.0``, ``"1"`` and ``true`` stay four different ids)."""
    return request_id if type(request_id) is int else dumps(request_id)
