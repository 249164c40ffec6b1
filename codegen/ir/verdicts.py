"""Three-valued verdicts of assignability, shared by the TypeScript frontend (on its
evaluated types) and the passes (on IR types): True, False, or None for "cannot tell".

Phase: IR helper (no phase of its own).
Inputs: verdicts; scalar IR type expressions (``Literal``, ``Primitive``).
Outputs: the combined verdict; whether a scalar type's values are all values of another.
Guarantees: pure; imports only the IR model.
"""

from __future__ import annotations

from collections.abc import Iterable

from codegen import ir

Verdict = bool | None
SCALARS = (ir.Literal, ir.Primitive)


def all_of(verdicts: Iterable[Verdict]) -> Verdict:
    """False if any is False, else None if any cannot tell, else True."""
    unknown = False
    for verdict in verdicts:
        if verdict is False:
            return False
        unknown = unknown or verdict is None
    return None if unknown else True


def any_of(verdicts: Iterable[Verdict]) -> Verdict:
    """True if any is True, else None if any cannot tell, else False."""
    unknown = False
    for verdict in verdicts:
        if verdict is True:
            return True
        unknown = unknown or verdict is None
    return None if unknown else False


def scalar_assignable(
    source: ir.Literal | ir.Primitive, target: ir.Literal | ir.Primitive
) -> bool:
    """Is every value of one scalar type a value of another?  An integer is a number;
    a literal is a value of its kind (``true`` is no integer); no primitive fits a literal.
    """
    if isinstance(source, ir.Literal):
        if isinstance(target, ir.Literal):
            return (
                type(source.value) is type(target.value)
                and source.value == target.value
            )
        return _literal_kind(source.value, target.kind)
    if isinstance(target, ir.Literal):
        return False
    return source.kind is target.kind or (
        source.kind is ir.PrimitiveKind.INTEGER
        and target.kind is ir.PrimitiveKind.NUMBER
    )


def _literal_kind(value: str | float | bool, kind: ir.PrimitiveKind) -> bool:
    if isinstance(value, bool):
        return kind is ir.PrimitiveKind.BOOLEAN
    if isinstance(value, str):
        return kind is ir.PrimitiveKind.STRING
    if kind is ir.PrimitiveKind.INTEGER:
        return isinstance(value, int)
    return kind is ir.PrimitiveKind.NUMBER
