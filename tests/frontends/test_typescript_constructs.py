"""TypeScript constructs as the generated bindings read them (the goldens pin the IR).

Each test builds a one-file spec, generates its package into a temporary folder, imports
it and feeds it wire values: what TypeScript accepts is accepted and written back
unchanged, what it rejects is rejected.
"""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from pydantic import TypeAdapter, ValidationError

from codegen.pipeline import load_protocol, render_outputs


def build(tmp_path: Path, name: str, source: str, toml: str = "") -> ModuleType:
    spec = tmp_path / name
    spec.mkdir()
    (spec / "spec.toml").write_text(
        f'[spec]\nid = "{name}"\nlanguage = "typescript"\nsources = ["input.ts"]\n'
        + toml,
        encoding="utf-8",
    )
    (spec / "input.ts").write_text(source, encoding="utf-8")
    outcome = load_protocol(spec, spec)
    assert outcome.ok(), [d.headline() for d in outcome.diags.errors()]
    assert outcome.protocol is not None and outcome.config is not None
    out = tmp_path / "out"
    for rel, text in render_outputs(outcome.protocol, outcome.config).items():
        path = out / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    sys.path.insert(0, str(out / "python"))
    try:
        return importlib.import_module(outcome.config.python_package)
    finally:
        sys.path.remove(str(out / "python"))


def round_trip(kind: Any, value: Any) -> Any:
    adapter: TypeAdapter[Any] = TypeAdapter(kind)
    parsed = adapter.validate_json(json.dumps(value), by_name=False)
    return json.loads(adapter.dump_json(parsed, by_alias=True))


def rejects(kind: Any, value: Any) -> bool:
    try:
        round_trip(kind, value)
    except ValidationError:
        return True
    return False


JSON_VALUE = """
export type JSONValue =
  | string | number | boolean | null | JSONValue[] | { [key: string]: JSONValue };
export interface Tree { name: string; children?: Tree[] }
export interface Holder { value: JSONValue; tree: Tree }
"""


def test_a_recursive_alias_imports_and_reads_nested_json(tmp_path: Path) -> None:
    package = build(tmp_path, "rec1", JSON_VALUE, 'types = ["Holder"]\n')
    value = {
        "value": [1, 2.5, {"a": [None, True, {"b": "c"}]}],
        "tree": {"name": "r", "children": [{"name": "x"}]},
    }
    assert round_trip(package.models.Holder, value) == value
    bad = {"value": 1, "tree": {"name": "r", "children": [{"name": 5}]}}
    assert rejects(package.models.Holder, bad)


def test_constraints_from_jsdoc(tmp_path: Path) -> None:
    source = """export interface M {
  /** @minimum 0
   * @maximum 1 */
  p: number;
  /** @pattern ^[a-z]+$ */
  s: string;
}"""
    models = build(tmp_path, "cons1", source, 'types = ["M"]\n').models
    assert round_trip(models.M, {"p": 0.5, "s": "ok"}) == {"p": 0.5, "s": "ok"}
    assert rejects(models.M, {"p": 1.5, "s": "ok"})
    assert rejects(models.M, {"p": 1, "s": "Not"})


OPEN = """
export interface Started { type: "started"; at: number }
export interface Stopped { type: "stopped"; reason?: string }
export type Event = Started | Stopped;
export type Closed = Started | Stopped;
"""


def test_an_open_union_keeps_unknown_variants_only(tmp_path: Path) -> None:
    toml = 'types = ["Event", "Closed"]\n[unions.Event]\nopen = true\n'
    models = build(tmp_path, "open1", OPEN, toml).models
    unknown = {"type": "paused", "for": 3, "nested": {"x": [1.5]}}
    assert round_trip(models.Event, unknown) == unknown
    assert round_trip(models.Event, {"type": "started", "at": 1}) == {
        "type": "started",
        "at": 1,
    }
    assert rejects(models.Event, {"type": "started"})  # known tag, broken body
    assert rejects(models.Event, {"at": 1})  # no tag at all
    assert rejects(models.Closed, unknown)  # the same union, not opened


METHODS = """
export interface Request { method: string; params?: { [key: string]: unknown } }
export interface Result { [key: string]: unknown }
export type EmptyResult = Result;
export interface PingRequest extends Request { method: "ping"; params?: { note?: string } }
export interface CallRequest extends Request { method: "call"; params: { name: string } }
export interface CallResult extends Result { text: string }
export type ClientRequest = PingRequest | CallRequest;
export type ServerResult = EmptyResult | CallResult;
"""


def test_optional_params_may_be_left_out(tmp_path: Path) -> None:
    package = build(tmp_path, "meth1", METHODS)
    ping = package.METHODS["ping"]
    assert ping.params.validate_python(None) is None
    assert package.methods.ping_request(id=1) == {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "ping",
    }
    call = package.METHODS["call"]
    with pytest.raises(ValidationError):
        call.params.validate_python(None)  # required params


def test_a_spec_without_methods_gets_a_warning_and_one_with_does_not(
    tmp_path: Path,
) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    for folder, source in (("a", "export interface X { a: string }"), ("b", METHODS)):
        (tmp_path / folder / "spec.toml").write_text(
            '[spec]\nid = "s"\nlanguage = "typescript"\nsources = ["input.ts"]\n',
            encoding="utf-8",
        )
        (tmp_path / folder / "input.ts").write_text(source, encoding="utf-8")
    none = load_protocol(tmp_path / "a", tmp_path / "a")
    some = load_protocol(tmp_path / "b", tmp_path / "b")
    assert [d.code for d in none.diags.items] == ["MTH008"]
    assert "MTH008" not in [d.code for d in some.diags.items]
