"""Named number aliases of a prose spec that mean integers (``integer``, ``uinteger``) or
decimals, with the bounds their docs state.

Phase: frontend helper (``prose.reader``, on the TypeScript frontend's declarations).
Inputs: the declarations read from the declaration fences.
Outputs: the same, where an alias of ``number`` is an integer: named ``integer``,
``uinteger``, ``int``, ``int32``, ``uint32``, ``int64`` or ``uint64`` (the names specs use
for them), or documented as one ("an integer", "an unsigned integer"); bounds from "the
range of -2^31 to 2^31 - 1" (powers, sums and plain numbers), else from "32-bit" /
"64-bit" with "unsigned", else ``minimum = 0`` for an unsigned one.  ``decimal`` (and any
other number alias) stays a number.
Guarantees: pure, never raises; only a ``type X = number`` alias is touched, never a
declared interface, union or enum.
"""

from __future__ import annotations

import re
from dataclasses import replace

from codegen import ir

_INTEGER_NAMES = frozenset(
    {"integer", "uinteger", "int", "int32", "uint32", "int64", "uint64", "long"}
)
_UNSIGNED_NAMES = frozenset({"uinteger", "uint32", "uint64"})
_SAYS_INTEGER = re.compile(r"\binteger\b", re.IGNORECASE)
_UNSIGNED = re.compile(r"\b(unsigned|non-negative)\b", re.IGNORECASE)
_RANGE = re.compile(
    r"range\s+(?:of\s+)?\[?\s*(?P<low>[-+]?[\d^ +-]*?\d)\s*(?:to|\.\.|,)\s*"
    r"(?P<high>[-+]?[\d^ +-]*\d)",
    re.IGNORECASE,
)
_BITS = re.compile(r"\b(8|16|32|53|64)[- ]bit\b", re.IGNORECASE)
_TERM = re.compile(r"^([-+]?)\s*(\d+)(?:\s*\^\s*(\d+))?$")


def integer_aliases(decls: tuple[ir.Decl, ...]) -> tuple[ir.Decl, ...]:
    return tuple(_integer(d) if isinstance(d, ir.AliasDecl) else d for d in decls)


def _integer(decl: ir.AliasDecl) -> ir.AliasDecl:
    target = decl.target
    if not (
        isinstance(target, ir.Primitive) and target.kind is ir.PrimitiveKind.NUMBER
    ):
        return decl
    docs = decl.lifecycle.docs
    said = _SAYS_INTEGER.search(docs)
    if decl.name not in _INTEGER_NAMES and said is None:
        return decl
    unsigned = decl.name in _UNSIGNED_NAMES or bool(_UNSIGNED.search(docs))
    low, high = _bounds(docs, unsigned)
    constraints = ir.Constraints(minimum=low, maximum=high)
    return replace(decl, target=ir.Primitive(ir.PrimitiveKind.INTEGER, constraints))


def _bounds(docs: str, unsigned: bool) -> tuple[int | None, int | None]:
    found = _RANGE.search(docs)
    if found is not None:
        low, high = _value(found.group("low")), _value(found.group("high"))
        if low is not None and high is not None and low <= high:
            return low, high
    bits = _BITS.search(docs)
    if bits is not None:
        width = int(bits.group(1))
        if unsigned:
            return 0, 2**width - 1
        return -(2 ** (width - 1)), 2 ** (width - 1) - 1
    return (0, None) if unsigned else (None, None)


def _value(text: str) -> int | None:
    """``-2^31``, ``2^31 - 1``, ``0``: a sum of signed powers and numbers."""
    total = 0
    parts = re.findall(r"[-+]?\s*\d+(?:\s*\^\s*\d+)?", text.strip())
    if not parts or re.sub(r"[-+\d^\s]", "", text):
        return None
    for part in parts:
        match = _TERM.match(part.strip())
        if match is None:
            return None
        sign, base, power = match.groups()
        value = int(base) ** int(power) if power else int(base)
        if int(power or 0) > 64:
            return None
        total += -value if sign == "-" else value
    return total
