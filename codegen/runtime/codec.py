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
import re
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
    if not _may_overflow(raw):
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
    if b"NaN" in data or b"Infinity" in data:  # in a string, or a float JSON lacks
        return dumps(message).encode("utf-8")
    return data


def _may_overflow(data: bytes | bytearray) -> bool:
    """Whether a number in ``data`` might not fit a double: one with an exponent of
    three digits (``1e400``) or a run of 200 digits (``1`` and 400 digits ``.0``); a
    literal overflows only if its integer digits and its exponent add up to over 308.
    With every digit made ``0``, ``E`` made ``e`` and signs left out, bytes' own
    search finds both (a regex, byte by byte, cost as much as the read).  Signs left
    out may join digits (``"1-2"``) or spell ``0e000`` in a string: such text is only
    read the slower way."""
    shapes = data.translate(_NUMBER_SHAPES, b"+-")
    if not (b"0e000" in shapes or (len(shapes) >= 200 and _LONG_RUN in shapes)):
        return False
    # A closer look, at the rare text that got here (a hex trace id holds ``0e019``):
    # only a number token counts, and a number follows ``[``, ``:``, ``,``,
    # whitespace or nothing.  Text in a string that looks like one still counts.
    for whole, fraction, exponent in _NUMBER_TOKEN.findall(data):
        if len(exponent) >= 3 or len(whole) >= 200 or len(fraction) >= 200:
            return True
    return False


_NUMBER_SHAPES: Final = bytes.maketrans(b"123456789E", b"000000000e")
_LONG_RUN: Final = b"0" * 200
_NUMBER_TOKEN: Final = re.compile(
    rb"(?:^|(?<=[\[:,\s]))-?([0-9]+)(?:\.([0-9]+))?(?:[eE][+-]?([0-9]+))?"
)


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
