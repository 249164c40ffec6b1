"""String formats whose source-language reader rejects what does not match them.

Phase: backend (Python bindings and JSON Schema).
Inputs: an IR string format name (``ir.Constraints.format``).
Outputs: ``ENFORCED_PATTERNS``: format → the regular expression a value must match, for
the formats the source language itself checks when it reads (serde's ``semver::Version``
rejects ``"not-a-version"``); ``pattern_of(constraints)``: the pattern a string must match
(the spec's own ``pattern`` first), or None.
Guarantees: every pattern is ASCII-only and free of lookarounds, so Python's ``re``,
pydantic's Rust regex engine and JSON Schema validators read it the same way; other
formats (``uri``, ``path``, ``uint64`` ...) stay annotations, as JSON Schema has them.
"""

from __future__ import annotations

from codegen import ir

__all__ = ["ENFORCED_PATTERNS", "decimal_at_most", "pattern_of"]


def decimal_at_most(limit: int) -> str:
    """A regex for the decimal numerals without leading zeros whose value is <= limit."""
    digits = str(limit)
    parts = ["0"]
    if len(digits) > 1:
        parts.append(f"[1-9][0-9]{{0,{len(digits) - 2}}}")
    for index, digit in enumerate(digits):
        first = "1" if index == 0 else "0"
        if int(digit) > int(first):
            rest = len(digits) - index - 1
            tail = f"[0-9]{{{rest}}}" if rest else ""
            parts.append(f"{digits[:index]}[{first}-{int(digit) - 1}]{tail}")
    parts.append(digits)
    return "(?:" + "|".join(parts) + ")"


# Each number of a version is a u64 (the semver crate rejects 18446744073709551616.0.0).
_NUMBER = decimal_at_most(2**64 - 1)
_PRE = r"(?:0|[1-9][0-9]*|[0-9]*[A-Za-z-][0-9A-Za-z-]*)"
# semver.org's grammar, as the semver crate parses it (no leading zeros, no `v` prefix).
SEMVER = (
    rf"^{_NUMBER}\.{_NUMBER}\.{_NUMBER}"
    rf"(?:-{_PRE}(?:\.{_PRE})*)?"
    r"(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$"
)
ENFORCED_PATTERNS: dict[str, str] = {"semver": SEMVER}


def pattern_of(constraints: ir.Constraints) -> str | None:
    if constraints.pattern is not None:
        return constraints.pattern
    if constraints.format is not None:
        return ENFORCED_PATTERNS.get(constraints.format)
    return None
