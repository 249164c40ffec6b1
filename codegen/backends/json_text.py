"""Indented JSON text, as ``json.dumps(value, indent=2, sort_keys=True)`` writes it, faster.

Phase: backend helper (the JSON Schema bundle).
Inputs: plain JSON data: dicts with string keys, lists, tuples, strings, ints, floats,
booleans, None (exact types, no subclasses).
Outputs: the text ``json.dumps`` gives with ``indent=2, sort_keys=True`` and the same
``ensure_ascii``.
Guarantees: byte-identical to ``json.dumps`` (``json.dumps`` itself writes any value
outside the plain types above, and raises what it raises).  Why: with ``indent`` the
standard library leaves its C encoder for a generator per value in Python; this writes
the nesting in one recursive function and leaves strings to the C string encoders (a
third of the time on a large bundle).
"""

from __future__ import annotations

import json
import math
from json.encoder import encode_basestring, encode_basestring_ascii
from typing import Any

__all__ = ["dumps_indented"]


class _NotPlain(Exception):
    """A value the fast path does not write (``json.dumps`` does)."""


def dumps_indented(value: Any, ensure_ascii: bool = True) -> str:
    """``json.dumps(value, indent=2, sort_keys=True, ensure_ascii=ensure_ascii)``."""
    encode = encode_basestring_ascii if ensure_ascii else encode_basestring
    parts: list[str] = []
    try:
        _write(value, parts, encode, "\n")
    except (_NotPlain, RecursionError):
        return json.dumps(value, indent=2, sort_keys=True, ensure_ascii=ensure_ascii)
    return "".join(parts)


def _write(value: Any, parts: list[str], encode: Any, newline: str) -> None:
    kind = type(value)
    if kind is dict:
        if not value:
            parts.append("{}")
            return
        inner = newline + "  "
        separator = "," + inner
        opening = "{" + inner
        for key in sorted(value):  # TypeError on mixed keys, as json.dumps
            if type(key) is not str:
                raise _NotPlain
            item = value[key]
            if type(item) is str:  # the most common value: no call for it
                parts.append(f"{opening}{encode(key)}: {encode(item)}")
            else:
                parts.append(f"{opening}{encode(key)}: ")
                _write(item, parts, encode, inner)
            opening = separator
        parts.append(newline + "}")
    elif kind is list or kind is tuple:
        if not value:
            parts.append("[]")
            return
        inner = newline + "  "
        separator = "," + inner
        opening = "[" + inner
        for item in value:
            if type(item) is str:
                parts.append(opening + encode(item))
            else:
                parts.append(opening)
                _write(item, parts, encode, inner)
            opening = separator
        parts.append(newline + "]")
    else:
        parts.append(_scalar(value, encode))


def _scalar(value: Any, encode: Any) -> str:
    kind = type(value)
    if kind is str:
        return str(encode(value))
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if kind is int:
        return int.__repr__(value)
    if kind is float and math.isfinite(value):
        return float.__repr__(value)
    raise _NotPlain  # NaN, the infinities, anything not plain: json.dumps writes it
