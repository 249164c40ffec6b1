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

__all__ = ["ENFORCED_PATTERNS", "pattern_of"]

_NUMBER = r"(?:0|[1-9][0-9]*)"
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
