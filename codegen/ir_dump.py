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
        return bool(value == field.default)
    if field.default_factory is not dataclasses.MISSING:
        return bool(value == field.default_factory())
    return False


def dump(node: Any) -> str:
    return json.dumps(to_data(node), indent=2, ensure_ascii=False) + "\n"
