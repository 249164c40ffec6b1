"""Round-trip machinery shared by the sample tests of every protocol.

For each wire sample of a spec it finds the validators that apply — our generated bindings,
our JSON Schema, and models datamodel-code-generator builds from that schema — and answers:
does it accept, and what does it write back.
"""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any, Union

import jsonschema
from pydantic import TypeAdapter, ValidationError

from codegen import ir
from codegen.pipeline import SpecOutcome, load_protocol

REPO = Path(__file__).resolve().parent.parent.parent


@cache
def outcome(spec: str) -> SpecOutcome:
    return load_protocol(REPO / "specs" / spec, REPO)


def protocol(spec: str) -> ir.Protocol:
    result = outcome(spec).protocol
    assert result is not None, f"spec {spec} did not load"
    return result


def package(spec: str) -> ModuleType:
    config = outcome(spec).config
    assert config is not None
    python_dir = str(REPO / "generated" / spec / "python")
    if python_dir not in sys.path:
        sys.path.insert(0, python_dir)
    return importlib.import_module(config.python_package)


@cache
def schema_bundle(spec: str) -> dict[str, Any]:
    path = REPO / "generated" / spec / "schema" / f"{spec}.schema.json"
    loaded: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return loaded


@dataclass(frozen=True)
class Target:
    """What a sample is checked against: a type name, or a method part."""

    type_name: str | None
    schema: dict[str, Any]  # schema fragment (refs into the bundle's $defs)


def target_of(
    spec: str, example: ir.Example, part: ir.ExamplePart | None = None
) -> Target:
    bundle = schema_bundle(spec)
    part = part or example.part
    if part is ir.ExamplePart.TYPE:
        assert example.type_name is not None
        return Target(example.type_name, {"$ref": f"#/$defs/{example.type_name}"})
    assert example.method is not None
    method = bundle["x-methods"][example.method]
    key = "params" if part is ir.ExamplePart.PARAMS else "result"
    schema = method.get(key, {"not": {}})
    ref = schema.get("$ref", "")
    return Target(ref.rsplit("/", 1)[-1] if ref else None, schema)


def ours_adapter(
    spec: str, example: ir.Example, part: ir.ExamplePart | None = None
) -> TypeAdapter[Any]:
    pkg = package(spec)
    part = part or example.part
    if part is ir.ExamplePart.TYPE:
        assert example.type_name is not None
        return TypeAdapter(getattr(pkg.models, example.type_name))
    assert example.method is not None
    info = pkg.METHODS[example.method]
    adapter = info.params if part is ir.ExamplePart.PARAMS else info.result
    if adapter is None:
        return TypeAdapter(None)
    assert isinstance(adapter, TypeAdapter)
    return adapter


def schema_accepts(spec: str, target: Target, value: Any) -> bool:
    bundle = schema_bundle(spec)
    validator = jsonschema.Draft202012Validator(
        {**target.schema, "$defs": bundle["$defs"]}
    )
    return bool(validator.is_valid(value))


def ours_round_trip(adapter: TypeAdapter[Any], text: str) -> Any:
    """Parse with our bindings and write back; raises ValidationError on rejection."""
    value = adapter.validate_json(text, by_name=False)  # messages carry wire names
    return json.loads(adapter.dump_json(value, by_alias=True))


def ours_accepts(adapter: TypeAdapter[Any], text: str) -> bool:
    try:
        adapter.validate_json(text, by_name=False)
    except ValidationError:
        return False
    return True


def strict_equal(left: Any, right: Any) -> bool:
    """JSON equality that also tells 1 from 1.0 and true from 1 (Python's == does not)."""
    if type(left) is not type(right):
        return False
    if isinstance(left, dict):
        return left.keys() == right.keys() and all(
            strict_equal(left[k], right[k]) for k in left
        )
    if isinstance(left, list):
        return len(left) == len(right) and all(
            strict_equal(a, b) for a, b in zip(left, right)
        )
    return bool(left == right)


def same_key_order(left: Any, right: Any) -> bool:
    """Whether two equal JSON values also list object keys in the same order, at every depth."""
    if isinstance(left, dict) and isinstance(right, dict):
        return list(left) == list(right) and all(
            same_key_order(left[k], right[k]) for k in left
        )
    if isinstance(left, list) and isinstance(right, list):
        return all(same_key_order(a, b) for a, b in zip(left, right))
    return True


def fixes_key_order(spec: str) -> bool:
    """serde and encoding/json write fields in declaration order; TypeScript fixes none."""
    return any(source.language in ("rust", "go") for source in protocol(spec).sources)


# The specs that have generated bindings.
GENERATED_SPECS = sorted(
    p.parent.parent.parent.name
    for p in (REPO / "generated").glob("*/python/*/models.py")
)


def sample_values(spec: str) -> Iterator[Any]:
    """The value of every sample in the spec's example files, accepted or not."""
    for path in sorted((REPO / "specs" / spec / "examples").rglob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        for sample in data.get("samples", []) if isinstance(data, dict) else []:
            if isinstance(sample, dict) and "value" in sample:
                yield sample["value"]


def values_in(node: Any) -> Iterator[Any]:
    """Every JSON object and array in ``node``, itself first, then those nested in it."""
    if isinstance(node, (dict, list)):
        yield node
        for item in node.values() if isinstance(node, dict) else node:
            yield from values_in(item)


def objects_in(node: Any) -> Iterator[dict[str, Any]]:
    """Every JSON object in ``node``, itself first, then those nested in it."""
    return (value for value in values_in(node) if isinstance(value, dict))


def written_form(node: Any) -> Any:
    """The schema of what a writer writes: where a reader accepts more (``"x-written":
    "first"``, serde's lenient reads), only the first branch."""
    if isinstance(node, list):
        return [written_form(item) for item in node]
    if not isinstance(node, dict):
        return node
    if node.get("x-written") == "first":
        rest = {k: v for k, v in node.items() if k not in ("anyOf", "x-written")}
        return written_form({**node["anyOf"][0], **rest})
    return {key: written_form(value) for key, value in node.items()}


@cache
def datamodel_module(spec: str, out_dir: str) -> ModuleType:
    """Models that datamodel-code-generator builds from our schema.

    Its defaults turn every optional key into ``T | None = None`` (so ``null`` is accepted
    where the schema forbids it) and validate enums laxly (``"8"`` for 8): 20 AHP samples
    disagree that way.  Its own options for MISSING, strict scalars and literal enums make it
    read what the schema says, which is what this cross-check is about.
    """
    module_name = f"dm_{spec}_models"
    output = Path(out_dir) / f"{module_name}.py"
    # It cannot combine a ``$ref`` to an ``anyOf`` with sibling keywords (a tagged variant
    # of a struct serde also reads from an array loses all its fields): it reads the
    # written form.
    schema = Path(out_dir) / f"{spec}.written.schema.json"
    full = json.loads(
        (REPO / "generated" / spec / "schema" / f"{spec}.schema.json").read_text()
    )
    schema.write_text(json.dumps(written_form(full)))
    subprocess.run(
        [
            str(Path(sys.executable).parent / "datamodel-codegen"),
            "--input",
            str(schema),
            "--input-file-type",
            "jsonschema",
            "--output",
            str(output),
            "--output-model-type",
            "pydantic_v2.BaseModel",
            "--target-python-version",
            "3.11",
            "--strict-types",
            "str",
            "int",
            "float",
            "bool",
            "--use-missing-sentinel",
            # A key with a default (Go's always-written fields) is not thereby nullable.
            "--strict-nullable",
            "--target-pydantic-version",
            "2.14",
            "--enum-field-as-literal",
            "all",
            "--formatters",
            "ruff-format",
        ],
        check=True,
        capture_output=True,
    )
    if out_dir not in sys.path:
        sys.path.insert(0, out_dir)
    return importlib.import_module(module_name)


def datamodel_adapter(module: ModuleType, target: Target) -> TypeAdapter[Any]:
    if target.type_name is None:
        if target.schema == {"type": "null"}:
            return TypeAdapter(None)
        if target.schema == {}:  # a part the spec leaves open: any JSON value
            return TypeAdapter(Any)
        refs = [branch.get("$ref", "") for branch in target.schema.get("anyOf", [])]
        if refs and all(refs):  # a result that is a union of named types
            classes = tuple(getattr(module, ref.rsplit("/", 1)[-1]) for ref in refs)
            return TypeAdapter(Union[classes])  # noqa: UP007 - built at run time
        raise LookupError(f"no datamodel class for {target.schema}")
    return TypeAdapter(getattr(module, target.type_name))
