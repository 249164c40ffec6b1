"""JSON texts compared the way the oracles need: token for token, or value for value.

Phase: verification (``make oracle``).
Inputs: two JSON texts (an oracle's output and the bindings').
Outputs: ``difference(left, right, ...)``: ``None`` when they agree, else a short description
with the JSON pointer of the first difference; ``parse`` (a tree that keeps key order and
number spelling) and ``dumps`` (the compact text the case files use).
Guarantees: insignificant whitespace and string escapes never count (Go escapes ``<`` as
``\\u003c``, serde does not: the same string either way); in ``tokens`` mode everything
else does: key order and number spelling (``1`` is not ``1.0``); ``numbers="value"`` compares
numbers by exact decimal value when either is written as a float (``1e+16`` = ``1e16`` =
``10000000000000000``), integers stay exact; ``ordered=False`` ignores key order; given the
paths of structs, maps may compare unordered, and given the paths of float64 values, their
numbers compare as float64, optionally within one unit in the last place (``Relax``).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any


@dataclass(frozen=True, slots=True)
class Num:
    """A JSON number as written."""

    token: str

    @property
    def is_integer_token(self) -> bool:
        return not any(c in self.token for c in ".eE")

    def value(self) -> Decimal:
        try:
            return Decimal(self.token)
        except InvalidOperation:  # pragma: no cover - json never gives such tokens
            return Decimal(0)


@dataclass(frozen=True, slots=True)
class Obj:
    """A JSON object with its keys in written order (duplicates kept)."""

    pairs: tuple[tuple[str, Any], ...]

    def as_dict(self) -> dict[str, Any]:
        return dict(self.pairs)


def parse(text: str) -> Any:
    return json.loads(
        text,
        object_pairs_hook=lambda pairs: Obj(tuple(pairs)),
        parse_int=Num,
        parse_float=Num,
        parse_constant=Num,
    )


def dumps(value: Any) -> str:
    """The compact JSON text of a Python JSON value (ASCII, so every reader sees the same
    bytes whatever its I/O encoding)."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=True)


@dataclass(frozen=True)
class Relax:
    """How far a comparison is relaxed (each by a normalization the divergences file
    lists); the default compares token for token."""

    ordered: bool = True  # False: no object's key order counts
    numbers: str = "tokens"  # "value": a number written as a float compares by value
    # JSON pointers of the objects that are structs (declared fields); with
    # ``maps_unordered`` the other objects (maps, any-JSON) compare unordered
    structs: frozenset[str] | None = None
    maps_unordered: bool = False
    # JSON pointers of the values whose numbers a reader holds as float64 (a float field,
    # an any-JSON value): numbers at or under them compare as float64
    floats: frozenset[str] = frozenset()
    # those float64 numbers may also differ by a few units in the last place (serde_json's
    # default float parsing is best-effort: ``1.712854054672354e+204`` reads as the float
    # next to the nearest one; see PARSE_ULPS)
    one_ulp: bool = False


def difference(left: str, right: str, relax: Relax = Relax()) -> str | None:
    """Where two JSON texts differ, or None."""
    try:
        a, b = parse(left), parse(right)
    except ValueError as exc:
        return f"not JSON: {exc}"
    return _diff(a, b, "", relax, "" in relax.floats)


# How far serde_json's best-effort float parse may land from the correctly rounded float:
# its significand (rounded to 53 bits) times a power of ten (rounded again) is off by up
# to two units in the last place in the oracle's runs (-1.0000967511033257e+65 reads as
# -1.0000967511033255e65); four leaves room for the rounding of both steps and no more.
PARSE_ULPS = 4


def _ulps_apart(x: float, y: float) -> int:
    """How many floats apart ``x`` and ``y`` are, counted up to ``PARSE_ULPS + 1``."""
    steps = 0
    while x != y and steps <= PARSE_ULPS:
        x, steps = math.nextafter(x, y), steps + 1
    return steps


def _numbers_equal(a: Num, b: Num, relax: Relax, as_float: bool) -> bool:
    if a.token == b.token:
        return True
    if as_float:
        x, y = float(a.value()), float(b.value())
        return x == y or (relax.one_ulp and _ulps_apart(x, y) <= PARSE_ULPS)
    if relax.numbers == "value" and not (a.is_integer_token and b.is_integer_token):
        return a.value() == b.value()
    return False


def _diff(a: Any, b: Any, path: str, relax: Relax, as_float: bool) -> str | None:
    if isinstance(a, Num) and isinstance(b, Num):
        if _numbers_equal(a, b, relax, as_float):
            return None
        return f"{path or '/'}: {a.token} != {b.token}"
    if type(a) is not type(b):
        return f"{path or '/'}: {_show(a)} != {_show(b)}"
    if isinstance(a, Obj):
        is_struct = relax.structs is None or path in relax.structs
        ordered = relax.ordered and (is_struct or not relax.maps_unordered)
        keys_a = [k for k, _ in a.pairs]
        keys_b = [k for k, _ in b.pairs]
        if ordered and keys_a != keys_b:
            return f"{path or '/'}: keys {keys_a} != {keys_b}"
        da, db = a.as_dict(), b.as_dict()
        if set(da) != set(db):
            return f"{path or '/'}: keys {sorted(da)} != {sorted(db)}"
        for key in keys_a if ordered else sorted(da):
            inner = f"{path}/{_escape(key)}"
            found = _diff(
                da[key], db[key], inner, relax, as_float or inner in relax.floats
            )
            if found:
                return found
        return None
    if isinstance(a, list):
        if len(a) != len(b):
            return f"{path or '/'}: {len(a)} items != {len(b)} items"
        for index, (va, vb) in enumerate(zip(a, b)):
            inner = f"{path}/{index}"
            found = _diff(va, vb, inner, relax, as_float or inner in relax.floats)
            if found:
                return found
        return None
    if a != b:
        return f"{path or '/'}: {_show(a)} != {_show(b)}"
    return None


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


def _show(value: Any) -> str:
    if isinstance(value, Num):
        return value.token
    if isinstance(value, Obj):
        return "{...}"
    if isinstance(value, list):
        return "[...]"
    return json.dumps(value)
