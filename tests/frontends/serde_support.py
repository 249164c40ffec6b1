"""Judging the generated bindings against serde's recorded verdict and output.

Shared by the corpus test (acp1) and the golden wire cases: a case is a type name, an input,
serde's verdict (``OK``/``ERR``) and serde's output or error text.
"""

from __future__ import annotations

import json
import math
from typing import Any

from pydantic import BaseModel, ConfigDict, TypeAdapter, ValidationError

# Enums whose untagged fallback reads through a hand-written Deserialize impl (acp1's
# elicitation types): serde names them in its error.
HAND_WRITTEN_ENUMS = (
    "ElicitationMode",
    "MultiSelectItems",
    "ElicitationPropertySchema",
    "ElicitationAction",
)


def adapter(models: Any, name: str) -> TypeAdapter[Any] | None:
    target = getattr(models, name, None)
    if target is None:
        return None
    if isinstance(target, type) and issubclass(target, BaseModel):
        return TypeAdapter(target)
    return TypeAdapter(target, config=ConfigDict(strict=True))


def compare(ours: Any, serde: Any, given: Any, used: set[str]) -> bool:
    """Whether our output equals serde's (key order included), noting the listed
    divergences it takes."""
    if isinstance(serde, dict):
        if not isinstance(ours, dict):
            return False
        kept = [
            k
            for k in ours
            if k in serde or not (isinstance(given, dict) and k in given)
        ]
        if len(kept) != len(ours):
            used.add("unknown-keys")
        if kept != list(serde):
            return False
        return all(
            compare(
                ours[k],
                serde[k],
                given.get(k) if isinstance(given, dict) else None,
                used,
            )
            for k in kept
        )
    if isinstance(serde, list):
        if not isinstance(ours, list) or len(ours) != len(serde):
            return False
        given_items = (
            given
            if isinstance(given, list) and len(given) == len(ours)
            else [None] * len(ours)
        )
        return all(compare(a, b, c, used) for a, b, c in zip(ours, serde, given_items))
    if isinstance(serde, bool) or isinstance(ours, bool):
        return type(ours) is type(serde) and ours == serde
    if isinstance(serde, float) and isinstance(ours, (int, float)):
        if type(ours) is float and ours == serde:
            return True
        if math.isclose(ours, serde, rel_tol=1e-15):
            used.add("json-numbers")
            return True
        return False
    return type(ours) is type(serde) and ours == serde


def judge(
    models: Any, name: str, text: str, serde: str, output: str | None, error: str | None
) -> str:
    reader = adapter(models, name)
    assert reader is not None, name
    try:
        value = reader.validate_json(text, by_name=False)
    except ValidationError:
        return "exact" if serde == "ERR" else "DISAGREE: we reject, serde accepts"
    if serde == "ERR":
        if (
            error
            and "did not match any variant of untagged enum" in error
            and any(enum in error for enum in HAND_WRITTEN_ENUMS)
        ):
            return "hand-written-deserialize"
        return f"DISAGREE: we accept, serde rejects ({error})"
    written = json.loads(reader.dump_json(value, by_alias=True))
    used: set[str] = set()
    if not compare(written, json.loads(output or "null"), json.loads(text), used):
        return f"DISAGREE: output {json.dumps(written)[:200]} vs serde {output!s:.200}"
    return ",".join(sorted(used)) or "exact"
