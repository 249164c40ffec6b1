"""``_ByKeys`` (the generated bindings' fast smart union of models, read from JSON)
chooses from the keys of an object only what pydantic's smart union would choose.

pydantic-core's smart union keeps, of the members that read an object, the one that
counts the most fields set (its own and its nested models'); ``_ByKeys`` reads a member
alone when its fewest fields counted beat every other member's most.  Here hand-made
models put that bound to the test: a member with few keys of its own but a nested
model (it can outnumber one with more keys), a list of models and a recursive model
(no bound), a member that requires no key (MCP's ``EmptyResult``), a member that fails
on a value (the whole union must still read the object with another member), and
MCP's own results; each object is read by the fast union and by the plain one, which
must agree on the verdict, the member and the JSON written.
"""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path
from typing import Annotated, Any, Literal

import pytest
from pydantic import BaseModel, ConfigDict, TypeAdapter, ValidationError

REPO = Path(__file__).resolve().parent.parent.parent


def _models() -> Any:
    sys.path.insert(0, str(REPO / "generated" / "mcp" / "python"))
    try:
        return importlib.import_module("mcp_protocol.models")
    finally:
        sys.path.pop(0)


MCP = _models()


class _Open(BaseModel):
    model_config = ConfigDict(strict=True, extra="allow")


class Leaf(_Open):
    a: int | None = None
    b: int | None = None
    c: int | None = None


class Flat(_Open):
    p: int
    q: int | None = None


class Nested(_Open):
    r: Leaf
    q: int | None = None


class Listed(_Open):
    items: list[Leaf]


class Tree(_Open):
    child: Tree | None = None
    p: int | None = None


class Empty(_Open):
    pass


def _read(adapter: TypeAdapter[Any], value: Any) -> Any:
    try:
        read = adapter.validate_json(json.dumps(value))
    except ValidationError:
        return "rejected"
    return type(read).__name__, adapter.dump_json(read).decode()


def _pair(*members: type[BaseModel]) -> tuple[Any, TypeAdapter[Any], TypeAdapter[Any]]:
    plain: Any = members[0]
    for member in members[1:]:
        plain = plain | member
    marker = MCP._ByKeys(*members)
    return marker, TypeAdapter(Annotated[plain, marker]), TypeAdapter(plain)


CASES: list[tuple[tuple[type[BaseModel], ...], Any, str | None]] = [
    # Flat counts 2 (p, q); Nested counts r and its three nested fields: 4.
    ((Flat, Nested), {"p": 1, "q": 2, "r": {"a": 1, "b": 1, "c": 1}}, "Nested"),
    # The same keys, nothing nested: Flat counts 2, Nested 2 (r, q): the first.
    ((Flat, Nested), {"p": 1, "q": 2, "r": {}}, "Flat"),
    # Nested cannot read ``r: 5``: Flat (with r kept as an unknown key).
    ((Flat, Nested), {"p": 1, "q": 2, "r": 5}, "Flat"),
    # A list of models counts without bound.
    ((Flat, Listed), {"p": 1, "items": [{"a": 1}, {"b": 1}, {"c": 1}]}, "Listed"),
    ((Flat, Listed), {"p": 1, "q": 1, "items": []}, "Flat"),
    # A recursive model counts without bound.
    ((Flat, Tree), {"p": 1, "q": 1, "child": {"child": {"child": {"p": 1}}}}, "Tree"),
    ((Flat, Tree), {"p": 1, "q": 1}, "Flat"),
    # A member that requires nothing reads what the others cannot.
    ((Empty, Flat, Nested), {"p": 1}, "Flat"),
    ((Empty, Flat, Nested), {"p": "x"}, "Empty"),
    ((Empty, Flat, Nested), {"r": {"a": "x"}}, "Empty"),
    ((Empty, Flat, Nested), {}, "Empty"),
    ((Empty, Flat, Nested), [], None),
]


@pytest.mark.parametrize(("members", "value", "member"), CASES)
def test_fast_union_keeps_the_smart_unions_member(
    members: tuple[type[BaseModel], ...], value: Any, member: str | None
) -> None:
    _, fast, plain = _pair(*members)
    want = _read(plain, value)
    assert _read(fast, value) == want
    assert (want[0] if want != "rejected" else None) == member


def test_a_member_is_read_alone_only_when_it_outnumbers_the_others() -> None:
    marker, _, _ = _pair(Empty, Flat, Nested)
    # Nested lacks ``r``; Flat counts at least p and q (2), Empty nothing.
    assert marker._pick({"p": 1, "q": 2}) == "Flat!"
    # Only Empty reads an object without ``p`` or ``r``.
    assert marker._pick({"q": 2}) == "Empty"
    # All left: Flat counts at least 2, Nested (with its nested Leaf) up to 5.
    assert marker._pick({"p": 1, "q": 2, "r": {}}) == "Empty Flat Nested"
    marker, _, _ = _pair(Empty, Flat, Listed)
    assert marker._pick({"p": 1, "items": []}) == "Empty Flat Listed"
    # ``Empty`` counts nothing: Flat is the union's choice whenever it reads it.
    marker, _, _ = _pair(Empty, Flat)
    assert marker._pick({"p": 1, "zz": 0}) == "Flat!"
    assert marker._pick({"zz": 0}) == "Empty"
    assert marker._pick([1]) == "*"


def test_mcp_results_are_read_by_the_member_they_name() -> None:
    marker = next(
        m for m in MCP.ServerResult.__metadata__ if type(m).__name__ == "_ByKeys"
    )
    tools = {"tools": [{"name": "t", "inputSchema": {"type": "object"}}]}
    assert marker._pick(tools) == "ListToolsResult!"
    assert marker._pick({**tools, "_meta": {}}) == "ListToolsResult!"
    # Two members require nothing (EmptyResult is Result) and count nothing here.
    assert marker._pick({}) == "*"
    fast = TypeAdapter(MCP.ServerResult)
    plain = TypeAdapter(MCP.ServerResult.__origin__)
    for value in (tools, {**tools, "_meta": {}}, {"tools": 5}, {"tools": [5]}, {}):
        assert _read(fast, value) == _read(plain, value), value
    # ``tools`` that ListToolsResult cannot read: Result (EmptyResult) keeps them.
    assert _read(fast, {"tools": 5})[0] == "Result"


class Cat(_Open):
    kind: Literal["cat"]
    name: str | None = None


class Dog(_Open):
    kind: Literal["dog", "wolf"]
    name: str | None = None


class Pet(_Open):
    name: str | None = None


TAGGED: list[tuple[Any, str | None]] = [
    ({"kind": "cat", "name": "x"}, "Cat"),
    ({"kind": "wolf"}, "Dog"),
    # No tag reads "cow": the untagged member keeps it as an unknown key.
    ({"kind": "cow", "name": "x"}, "Pet"),
    # A tag that is no string sets no member aside by itself.
    ({"kind": 5}, "Pet"),
    ({"kind": None, "name": "x"}, "Pet"),
]


@pytest.mark.parametrize(("value", "member"), TAGGED)
def test_a_tag_string_sets_aside_the_members_that_do_not_read_it(
    value: Any, member: str | None
) -> None:
    _, fast, plain = _pair(Cat, Dog, Pet)
    want = _read(plain, value)
    assert _read(fast, value) == want
    assert want[0] == member


def test_tags_narrow_the_choice_before_any_read() -> None:
    marker, _, _ = _pair(Cat, Dog, Pet)
    # By keys alone, Cat, Dog and Pet all may read {"kind": ..., "name": ...}, and
    # neither Cat nor Dog outnumbers the other: their tag strings tell them apart.
    assert marker._pick({"kind": "cat", "name": "x"}) == "Cat!"
    assert marker._pick({"kind": "dog", "name": "x"}) == "Dog!"
    assert marker._pick({"kind": "cow", "name": "x"}) == "Pet"
    assert marker._pick({"kind": 5, "name": "x"}) == "Cat Dog Pet"
    # The decision is kept per keys and tag strings: one each for the four shapes, and
    # a shape seen before is not decided again.
    assert len(marker.decided) == 4

    def refuse(*_: object) -> str:
        raise AssertionError("decided again")

    marker._decide = refuse  # type: ignore[method-assign]
    assert marker._pick({"kind": "cat", "name": "y"}) == "Cat!"
    assert marker._pick({"kind": "dog", "name": "y"}) == "Dog!"
    assert marker._pick({"kind": 7, "name": "y"}) == "Cat Dog Pet"
    # Twins: another tag string, or the same keys in another order, is a shape not seen.
    with pytest.raises(AssertionError, match="decided again"):
        marker._pick({"kind": "bird", "name": "x"})
    with pytest.raises(AssertionError, match="decided again"):
        marker._pick({"name": "x", "kind": "cat"})
    marker, _, _ = _pair(Cat, Dog)
    assert marker._pick({"kind": "cow"}) == "*"


def test_a_large_union_has_smart_unions_of_the_members_one_tag_leaves() -> None:
    # MCP's PrimitiveSchemaDefinition: eight members, four of them ``type: "string"``.
    marker = next(
        m
        for m in MCP.PrimitiveSchemaDefinition.__metadata__
        if type(m).__name__ == "_ByKeys"
    )
    assert len(marker.models) == 8
    adapter = TypeAdapter(MCP.PrimitiveSchemaDefinition)
    plain = TypeAdapter(MCP.PrimitiveSchemaDefinition.__origin__)
    values = [
        {"type": "array", "items": {"type": "string", "enum": ["a"]}},
        {"type": "array", "items": {"anyOf": [{"const": "a", "title": "A"}]}},
        {"type": "string", "enum": ["a"]},
        {"type": "string", "enum": ["a"], "enumNames": ["A"]},
        {"type": "string", "oneOf": [{"const": "a", "title": "A"}]},
        {"type": "string"},
        {"type": "integer", "minimum": 1},
        {"type": "boolean", "default": True},
        {"type": "array", "items": 5},
        {"type": "object"},
        {"type": 1},
    ]
    for value in values:
        assert _read(adapter, value) == _read(plain, value), value
    assert (
        marker._pick(values[0])
        == "UntitledMultiSelectEnumSchema TitledMultiSelectEnumSchema"
    )
    assert marker._pick(values[2]) == (
        "StringSchema UntitledSingleSelectEnumSchema LegacyTitledEnumSchema"
    )
    # No member reads ``type: "object"``: the whole union reads it (and rejects it).
    assert marker._pick(values[9]) == "*"
    assert _read(adapter, values[9]) == "rejected"
