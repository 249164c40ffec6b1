"""MCP 2025-11-25's official schema.json against bindings generated from its schema.ts.

For every definition of the official schema (all 145 are types of ours, by the same name):
instances drawn from it (hypothesis-jsonschema) are accepted and written back exactly;
mutants of them (a key dropped, a value of another JSON type, an integer made fractional)
get the official schema's verdict, with one listed ground-truth divergence: the official
schema types TypeScript's ``number`` as ``integer`` (typescript-json-schema's default), so
it rejects ``0.5`` where TypeScript accepts it.  A mutant is that divergence exactly when
the official schema with ``integer`` read as ``number`` accepts it; the bindings then
follow TypeScript and accept it too.  Bounded here (``CODEGEN_CORPUS_EXAMPLES`` instances
per definition, default 2, at most ``CODEGEN_CORPUS_MUTANTS`` mutants each; 18
representative definitions in ``make test``, all 145 in ``make corpus``).
"""

from __future__ import annotations

import copy
import json
import os
import warnings
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis_jsonschema import from_schema
from pydantic import TypeAdapter, ValidationError

from tests.corpus.support import CORPUS, corpus_out, generate, needs_corpus
from tests.roundtrip.harness import strict_equal

pytestmark = needs_corpus
EXAMPLES = int(os.environ.get("CODEGEN_CORPUS_EXAMPLES", "2"))
MAX_MUTANTS = int(os.environ.get("CODEGEN_CORPUS_MUTANTS", "30"))
# ``make test`` checks these definitions (numbers, unions, required keys, nested
# objects); ``make corpus`` sets CODEGEN_CORPUS_DEFS=all: all 145.
SOME = (
    "Annotations",
    "CallToolRequestParams",
    "CallToolResult",
    "CancelledNotificationParams",
    "CompleteRequestParams",
    "ContentBlock",
    "ElicitResult",
    "Implementation",
    "InitializeResult",
    "JSONRPCErrorResponse",
    "ListToolsResult",
    "ModelPreferences",
    "ProgressNotificationParams",
    "ReadResourceResult",
    "ResourceLink",
    "SetLevelRequest",
    "Task",
    "TextContent",
)
OFFICIAL = CORPUS / "mcp" / "2025-11-25" / "schema.json"
__all__ = ["corpus_out"]


@cache
def official() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(OFFICIAL.read_text(encoding="utf-8"))
    return loaded


@cache
def as_typescript() -> dict[str, Any]:
    """The official schema with ``integer`` read as TypeScript's ``number``."""

    def widen(node: Any) -> Any:
        if isinstance(node, dict):
            out = {k: widen(v) for k, v in node.items()}
            if out.get("type") == "integer":
                out["type"] = "number"
            elif isinstance(out.get("type"), list):
                out["type"] = ["number" if t == "integer" else t for t in out["type"]]
            return out
        if isinstance(node, list):
            return [widen(v) for v in node]
        return node

    widened: dict[str, Any] = widen(official())
    return widened


def _validator(bundle: dict[str, Any], name: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(
        {"$ref": f"#/$defs/{name}", "$defs": bundle["$defs"]}
    )


def _paths(
    value: Any, path: tuple[Any, ...] = ()
) -> Iterator[tuple[tuple[Any, ...], Any]]:
    yield path, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, (*path, index))


def _replaced(value: Any, path: tuple[Any, ...], new: Any, drop: bool = False) -> Any:
    if not path:
        return new
    out = copy.deepcopy(value)
    node = out
    for key in path[:-1]:
        node = node[key]
    if drop:
        del node[path[-1]]
    else:
        node[path[-1]] = new
    return out


def mutants(value: Any) -> Iterator[tuple[str, Any]]:
    """A key dropped; a value of another JSON type; an integer made fractional."""
    count = 0
    for path, item in _paths(value):
        found: list[tuple[str, Any]] = []
        if path and isinstance(path[-1], str):
            found.append(("drop", _replaced(value, path, None, drop=True)))
        if isinstance(item, bool):
            found.append(("type", _replaced(value, path, "x")))
        elif isinstance(item, int):
            found.append(("type", _replaced(value, path, "1")))
            found.append(("fraction", _replaced(value, path, item + 0.5)))
        elif isinstance(item, (float, str)):
            found.append(
                ("type", _replaced(value, path, 7 if isinstance(item, str) else "1"))
            )
        elif item is None:
            found.append(("type", _replaced(value, path, 0)))
        elif path:
            found.append(("type", _replaced(value, path, "x")))
        for mutant in found:
            yield mutant
            count += 1
            if count >= MAX_MUTANTS:
                return


def _accepts(adapter: TypeAdapter[Any], value: Any) -> bool:
    try:
        adapter.validate_json(json.dumps(value), by_name=False)
    except ValidationError:
        return False
    return True


@pytest.fixture(scope="module")
def models(corpus_out: Path) -> Any:
    _, package = generate("mcp-2025-11-25", corpus_out)
    return package.models


def test_every_official_definition_is_one_of_ours(models: Any) -> None:
    names = sorted(official()["$defs"])
    assert len(names) == 145
    assert [n for n in names if not hasattr(models, n)] == []
    assert set(SOME) <= set(names)  # make test's slice names real definitions


def _checked() -> list[str]:
    """The definitions checked: ``SOME``, or all of them with CODEGEN_CORPUS_DEFS=all."""
    if not OFFICIAL.is_file():
        return []
    if os.environ.get("CODEGEN_CORPUS_DEFS") == "all":
        return sorted(json.loads(OFFICIAL.read_text("utf-8"))["$defs"])
    return list(SOME)


@pytest.mark.parametrize("name", _checked())
def test_official_instances_and_mutants(name: str, models: Any) -> None:
    adapter = TypeAdapter(getattr(models, name))
    strict = _validator(official(), name)
    widened = _validator(as_typescript(), name)
    schema = {"$ref": f"#/$defs/{name}", "$defs": official()["$defs"]}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        strategy = from_schema(schema)

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(strategy)
    def check(instance: Any) -> None:
        parsed = adapter.validate_json(json.dumps(instance), by_name=False)
        written = json.loads(adapter.dump_json(parsed, by_alias=True))
        assert strict_equal(written, instance), (instance, written)
        for kind, mutant in mutants(instance):
            ours = _accepts(adapter, mutant)
            if strict.is_valid(mutant):
                assert ours, (kind, mutant)  # the official schema accepts it: so do we
            elif widened.is_valid(mutant):
                # The listed divergence: number typed as integer.  TypeScript decides.
                assert kind == "fraction" and ours, (kind, mutant)
            else:
                assert not ours, (kind, mutant)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check()
