"""Deterministic text form of the IR, for ``codegen ir dump`` and frontend expectations.

Phase: inspection (after the passes).
Inputs: any IR node, usually a whole ``ir.Protocol``.
Outputs: JSON text: each dataclass as an object whose first key ``"node"`` names its class,
fields in declaration order, default-valued fields left out so dumps stay short.
Guarantees: byte-identical for equal IR; independent of ``PYTHONHASHSEED`` (no sets).
"""

from __future__ import annotations

import dataclasses
import enum
import json
from typing import Any


def to_data(node: Any) -> Any:
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        out: dict[str, Any] = {"node": type(node).__name__}
        for field in dataclasses.fields(node):
            value = getattr(node, field.name)
            if _is_default(field, value):
                continue
            out[field.name] = to_data(value)
        return out
    if isinstance(node, enum.Enum):
        return node.value
    if isinstance(node, (tuple, list)):
        return [to_data(item) for item in node]
    return node


def _is_default(field: dataclasses.Field[Any], value: Any) -> bool:
    if field.default is not dataclasses.MISSING:
        return _identical(value, field.default)
    if field.default_factory is not dataclasses.MISSING:
        return _identical(value, field.default_factory())
    return False


def _identical(left: Any, right: Any) -> bool:
    """Equal in every field, presentation included: IR equality ignores spans and docs,
    a dump must not (a node with docs is not a default-valued node)."""
    if dataclasses.is_dataclass(left) and not isinstance(left, type):
        return type(left) is type(right) and all(
            _identical(getattr(left, f.name), getattr(right, f.name))
            for f in dataclasses.fields(left)
        )
    return bool(left == right)


def dump(node: Any) -> str:
    return json.dumps(to_data(node), indent=2, ensure_ascii=False) + "\n"
