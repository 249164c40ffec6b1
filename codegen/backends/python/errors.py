"""Error codes of a generated package: JSON-RPC's five and the protocol's own.

Phase: backend (Python bindings), before the templates.
Inputs: a normalized ``ir.Protocol`` and the module-level names the package's
``__init__`` already exports (its classes).
Outputs: ``error_views``: one ``ErrorView`` (constant name, code, docstring block) per
protocol error code, sorted by code, for ``errors.py`` and the package's ``__all__``.
Guarantees: constant names are UPPER_CASE identifiers, unique, never one of JSON-RPC's
(``PARSE_ERROR`` ...) nor a name the package exports; a code the protocol names like
JSON-RPC does (``InvalidParams`` = -32602) is not repeated; deterministic.
"""

from __future__ import annotations

from dataclasses import dataclass

from codegen import ir, naming
from codegen.backends.python.text import docstring

__all__ = ["STANDARD_ERRORS", "ErrorView", "error_views"]

# JSON-RPC 2.0's codes, as ``_rpc`` names them.
STANDARD_ERRORS: dict[str, int] = {
    "PARSE_ERROR": -32700,
    "INVALID_REQUEST": -32600,
    "METHOD_NOT_FOUND": -32601,
    "INVALID_PARAMS": -32602,
    "INTERNAL_ERROR": -32603,
}


@dataclass(frozen=True)
class ErrorView:
    name: str
    code: int
    doc: str


def error_views(protocol: ir.Protocol, taken: set[str]) -> list[ErrorView]:
    """The protocol's own error codes as constants (first name and docs per code)."""
    codes: dict[int, ir.ErrorCode] = {}
    for error in protocol.errors:
        codes.setdefault(error.code, error)
    for method in protocol.methods:
        for error in method.errors:
            codes.setdefault(error.code, error)
    standard = {code: name for name, code in STANDARD_ERRORS.items()}
    wanted = {
        code: naming.constant_case(error.name)
        for code, error in codes.items()
        if naming.constant_case(error.name) != standard.get(code)
    }
    keys = {str(code): name for code, name in wanted.items()}
    names = naming.assign_names(
        keys, lambda key: keys[key], taken | set(STANDARD_ERRORS)
    )
    return [
        ErrorView(
            names[str(code)],
            code,
            docstring(
                codes[code].docs or f"The protocol's `{codes[code].name}` error.", ""
            ),
        )
        for code in sorted(wanted)
    ]
