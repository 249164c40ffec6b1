"""Mutants of an instance: every small change a reader must accept or reject consistently.

Phase: verification (``make oracle``), case generation.
Inputs: a JSON value (a sample or a drawn instance) and ``Knowledge`` of the spec: the tag
keys of its unions with their values, how the bindings name attributes, whether its source
language matches keys case-insensitively (Go).
Outputs: ``mutants(value, knowledge)``: ``(kind, description, text)`` triples, in a fixed
order.  Kinds: ``drop`` (each key), ``null`` (each value), ``wrong-type`` (each value in
another JSON type), ``enum`` (each string an unknown value), ``tag-wrong`` / ``tag-absent`` /
``tag-extra``, ``extra-key``, ``attr-name`` (a wire key spelled as the bindings' Python
attribute, ``toolCallId`` → ``tool_call_id``, ``class`` → ``class_``), ``key-case``
(``Name`` for ``name``), ``int-bound`` (the bounds of every Rust and Go integer type at each
integer), ``int-float`` (``1.0`` for ``1``).
Guarantees: pure and deterministic; each mutant differs from its base in one place (one
key, one value); positions per base are capped (``MAX_POSITIONS``) so a big instance does
not drown the small ones.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from codegen.oracles.jsontext import dumps

MAX_POSITIONS = 24
# The bounds of i8 … u64 / int8 … uint64, and one past each (plus 0, -1 and 2^53 + 1,
# the first integer a float64 cannot hold).
INT_BOUNDS: tuple[int, ...] = tuple(
    sorted(
        {
            value
            for bits in (8, 16, 32, 64)
            for value in (
                -(2 ** (bits - 1)) - 1,
                -(2 ** (bits - 1)),
                2 ** (bits - 1) - 1,
                2 ** (bits - 1),
                2**bits - 1,
                2**bits,
            )
        }
        | {0, -1, 2**53 + 1}
    )
)

Path = tuple[str | int, ...]
Mutant = tuple[str, str, Callable[[], str]]


@dataclass(frozen=True)
class Knowledge:
    """What mutation needs to know about a spec."""

    tags: dict[str, tuple[str | int | float | bool, ...]] = field(default_factory=dict)
    attribute_name: Callable[[str], str] = str
    case_insensitive_keys: bool = False


def positions(value: Any, path: Path = ()) -> Iterator[tuple[Path, Any]]:
    """Every value inside ``value`` with its path, the root first, depth first."""
    yield path, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from positions(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from positions(item, (*path, index))


def pointer(path: Path) -> str:
    return (
        "".join("/" + str(step).replace("~", "~0").replace("/", "~1") for step in path)
        or "/"
    )


def _replace(value: Any, path: Path, new: Any) -> Any:
    if not path:
        return new
    out = copy.deepcopy(value)
    parent = out
    for step in path[:-1]:
        parent = parent[step]
    parent[path[-1]] = new
    return out


def _edit_object(value: Any, path: Path, edit: Edit) -> Any:
    out = copy.deepcopy(value)
    if not path:
        return edit(out)
    parent = out
    for step in path[:-1]:
        parent = parent[step]
    parent[path[-1]] = edit(parent[path[-1]])
    return out


Edit = Callable[[dict[str, Any]], dict[str, Any]]


def _without(key: str) -> Edit:
    return lambda obj: {k: v for k, v in obj.items() if k != key}


def _renamed(old: str, new: str) -> Edit:
    return lambda obj: {(new if k == old else k): v for k, v in obj.items()}


def _with(key: str, value: Any) -> Edit:
    return lambda obj: {**obj, key: value}


def _wrong_types(item: Any) -> list[Any]:
    if isinstance(item, bool):
        return [1, "true"]
    if isinstance(item, int):
        return ["7", True]
    if isinstance(item, float):
        return ["7.5"]
    if isinstance(item, str):
        return [7, ["x"]]
    if item is None:
        return [0, {}]
    if isinstance(item, dict):
        return [[], "x"]
    return [{}, "x"]


def _put(value: Any, path: Path, new: Any) -> Callable[[], str]:
    """The text of ``value`` with ``new`` at ``path``, built when called."""
    return lambda: dumps(_replace(value, path, new))


def _edit(value: Any, path: Path, edit: Edit) -> Callable[[], str]:
    """The text of ``value`` with the object at ``path`` edited, built when called."""
    return lambda: dumps(_edit_object(value, path, edit))


def mutants(value: Any, knowledge: Knowledge) -> Iterator[Mutant]:
    """``(kind, description, make)`` for each mutant of ``value``; ``make()`` builds its
    JSON text (only the mutants a budget keeps are built)."""
    places = list(positions(value))[:MAX_POSITIONS]
    for path, item in places:
        where = pointer(path)
        if isinstance(item, dict):
            for key in item:
                yield "drop", f"drop {pointer((*path, key))}", _edit(
                    value, path, _without(key)
                )
            yield "extra-key", f"extra key at {where}", _edit(
                value, path, _with("zzExtra", 1)
            )
            for key in item:
                attr = knowledge.attribute_name(key)
                if attr != key and attr not in item:
                    yield "attr-name", f"{pointer((*path, key))} as {attr}", _edit(
                        value, path, _renamed(key, attr)
                    )
                if knowledge.case_insensitive_keys and key[:1].isalpha():
                    other = key[0].swapcase() + key[1:]
                    if other not in item:
                        yield "key-case", f"{pointer((*path, key))} as {other}", _edit(
                            value, path, _renamed(key, other)
                        )
            yield from _tag_mutants(value, path, item, knowledge)
        if path:
            yield "null", f"null at {where}", _put(value, path, None)
        for wrong in _wrong_types(item):
            yield "wrong-type", f"{dumps(wrong)} at {where}", _put(value, path, wrong)
        if isinstance(item, str):
            yield "enum", f"unknown string at {where}", _put(value, path, "zzUnknown")
        if isinstance(item, int) and not isinstance(item, bool):
            yield "int-float", f"{item}.0 at {where}", _put(value, path, float(item))
            for bound in INT_BOUNDS:
                if bound != item:
                    yield "int-bound", f"{bound} at {where}", _put(value, path, bound)


def _tag_mutants(
    value: Any, path: Path, item: dict[str, Any], knowledge: Knowledge
) -> Iterator[Mutant]:
    for key, values in knowledge.tags.items():
        where = pointer((*path, key))
        if key in item:
            others = [
                v for v in values if v != item[key] or type(v) is not type(item[key])
            ]
            for other in [*others[:3], "zzOtherTag"]:
                yield "tag-wrong", f"{where} = {dumps(other)}", _edit(
                    value, path, _with(key, other)
                )
            yield "tag-absent", f"no {where}", _edit(value, path, _without(key))
        elif values:
            yield "tag-extra", f"{where} = {dumps(values[0])} added", _edit(
                value, path, _with(key, values[0])
            )
