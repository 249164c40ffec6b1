"""Rebuild an IR value bottom-up with a function applied to every node.

Phase: IR utility for any layer: the prose frontend maps spans from TypeScript views back
into the document and replaces prose-only type names such as ``integer``; the package
backend blanks spans to hash the IR; tests compare IR with spans blanked out.
Inputs: any IR value (a dataclass, a tuple of them, a ``FrontendResult``, a ``Diagnostic``)
and ``fn``, called on every dataclass node after its children were rewritten.
Outputs: the rewritten value; unchanged subtrees are returned as they were.
Guarantees: pure; frozen dataclasses are rebuilt with ``dataclasses.replace``, so their own
invariants (``__post_init__``) still run.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


def rewrite(value: T, fn: Callable[[Any], Any]) -> T:
    result: T = _rewrite(value, fn)
    return result


def _rewrite(value: Any, fn: Callable[[Any], Any]) -> Any:
    if isinstance(value, tuple):
        items = tuple(_rewrite(item, fn) for item in value)
        return value if all(a is b for a, b in zip(items, value)) else items
    if isinstance(value, list):
        return [_rewrite(item, fn) for item in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        changes: dict[str, Any] = {}
        for field in dataclasses.fields(value):
            if not field.init:
                continue
            old = getattr(value, field.name)
            new = _rewrite(old, fn)
            if new is not old:
                changes[field.name] = new
        if changes:
            value = dataclasses.replace(value, **changes)
        return fn(value)
    return value
