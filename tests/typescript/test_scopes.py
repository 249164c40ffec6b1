"""Scopes as the TypeScript checker has them (issue 30, item 1): each file a module,
private declarations private, imports and re-exports bind names, namespaces are scopes,
declarations merge as the checker merges them; IR names by the rule in
``codegen/frontends/typescript/scopes.py``.  Every accepting test has rejecting twins.
"""

from __future__ import annotations

from pathlib import Path

from tests.typescript.support import accepts, build, codes, decl, decl_names, load

TYPES = '[spec]\ntypes = ["Holder"]\n'


def _types(*names: str) -> str:
    return "types = [" + ", ".join(f'"{n}"' for n in names) + "]\n"


def test_private_and_exported_declarations_of_one_name_are_not_ref003(
    tmp_path: Path,
) -> None:
    files = {
        "a.ts": "type integer = number;\nexport interface A { n: integer }\n",
        "b.ts": "export type integer = number;\nexport interface B { n: integer }\n",
    }
    outcome = load(tmp_path, files, _types("A", "B"))
    assert codes(outcome) == []
    models = build(tmp_path, files, _types("A", "B"), "t2").models
    assert accepts(models.A, {"n": 1}) and accepts(models.B, {"n": 2})
    assert not accepts(models.A, {"n": "1"}) and not accepts(models.B, {"n": "x"})


def test_two_private_helpers_of_one_name_are_two_types(tmp_path: Path) -> None:
    files = {
        "a.ts": "type integer = number;\nexport interface A { n: integer }\n",
        "b.ts": "type integer = string;\nexport interface B { n: integer }\n",
    }
    outcome = load(tmp_path, files, _types("A", "B"))
    assert codes(outcome) == []
    assert {"integer", "BInteger"} <= decl_names(outcome)
    models = build(tmp_path, files, _types("A", "B"), "t2").models
    assert accepts(models.A, {"n": 1}) and not accepts(models.A, {"n": "1"})
    assert accepts(models.B, {"n": "1"}) and not accepts(models.B, {"n": 1})


def test_a_private_generic_does_not_shadow_another_files(tmp_path: Path) -> None:
    files = {
        "a.ts": "type Params<T> = { a: T };\nexport interface A { p: Params<string> }\n",
        "b.ts": "type Params<T> = { b: T[] };\nexport interface B { p: Params<number> }\n",
    }
    models = build(tmp_path, files, _types("A", "B")).models
    assert accepts(models.A, {"p": {"a": "x"}})
    assert not accepts(models.A, {"p": {"a": 1}})
    assert accepts(models.B, {"p": {"b": [1, 2]}})
    assert not accepts(models.B, {"p": {"b": 1}})
    assert not accepts(models.B, {"p": {"b": ["x"]}})


def test_names_are_stable_across_reorderings(tmp_path: Path) -> None:
    a = "type Item = { a: string };\nexport interface A { i: Item }\n"
    b = "export type Item = { b: number };\nexport interface B { i: Item }\n"
    one = load(tmp_path, {"a.ts": a, "b.ts": b}, _types("A", "B"), "one")
    two = load(tmp_path, {"b.ts": b, "a.ts": a}, _types("B", "A"), "two")
    assert decl_names(one) == decl_names(two)
    # the exported one keeps the name; the private one is named after its file
    assert decl(one, "Item").fields[0].name == "b"
    assert decl(one, "AItem").fields[0].name == "a"


def test_a_generated_name_that_is_declared_is_not_taken(tmp_path: Path) -> None:
    files = {
        "a.ts": "type Item = string;\nexport type AItem = boolean;\n"
        "export interface A { i: Item; j: AItem }\n",
        "b.ts": "export type Item = number;\nexport interface B { i: Item }\n",
    }
    outcome = load(tmp_path, files, _types("A", "B"))
    assert codes(outcome) == []
    models = build(tmp_path, files, _types("A", "B"), "t2").models
    assert accepts(models.A, {"i": "x", "j": True})
    assert not accepts(models.A, {"i": 1, "j": True})
    assert not accepts(models.A, {"i": "x", "j": "x"})
    assert accepts(models.B, {"i": 1}) and not accepts(models.B, {"i": "x"})


def test_import_with_alias_binds_the_other_files_declaration(tmp_path: Path) -> None:
    files = {
        "a.ts": "import type { Item as Thing } from './b.js';\n"
        "type Item = { wrong: boolean };\nexport interface A { t: Thing; w: Item }\n",
        "b.ts": "export interface Item { right: string }\n",
        "c.ts": "export interface Item { other: number }\n",
    }
    models = build(tmp_path, files, _types("A")).models
    assert accepts(models.A, {"t": {"right": "x"}, "w": {"wrong": True}})
    assert not accepts(models.A, {"t": {"right": 1}, "w": {"wrong": True}})
    assert not accepts(models.A, {"t": {"right": "x"}, "w": {"wrong": "no"}})


def test_export_star_and_namespace_imports(tmp_path: Path) -> None:
    files = {
        "types/inner.ts": "export interface Item { deep: number }\n",
        "types/index.ts": "export * from './inner.js';\nexport { Item as Renamed } "
        "from './inner.js';\n",
        "use.ts": "import * as M from './types/index.js';\n"
        "import { Renamed } from './types';\n"
        "interface Item { local: string }\n"
        "export interface Use { m: M.Item; r: Renamed; l: Item }\n",
    }
    outcome = load(tmp_path, files, _types("Use"))
    assert codes(outcome) == []
    models = build(tmp_path, files, _types("Use"), "t2").models
    good = {"m": {"deep": 1}, "r": {"deep": 2}, "l": {"local": "x"}}
    assert accepts(models.Use, good)
    assert not accepts(models.Use, {**good, "m": {"deep": "1"}})
    assert not accepts(models.Use, {**good, "r": {"local": "x"}})
    assert not accepts(models.Use, {**good, "l": {"deep": 1}})


def test_a_namespace_is_a_scope_of_its_own(tmp_path: Path) -> None:
    source = (
        "export namespace NS { export interface Item { inner: string }\n"
        "  export interface Box { item: Item } }\n"
        "export interface Item { outer: number }\n"
        "export interface Use { a: NS.Item; b: Item; c: NS.Box }\n"
    )
    outcome = load(tmp_path, {"input.ts": source}, _types("Use"))
    assert codes(outcome) == []
    assert {"Item", "NSItem"} <= decl_names(outcome)
    models = build(tmp_path, {"input.ts": source}, _types("Use"), "t2").models
    good = {"a": {"inner": "x"}, "b": {"outer": 1}, "c": {"item": {"inner": "y"}}}
    assert accepts(models.Use, good)
    assert not accepts(models.Use, {**good, "a": {"outer": 1}})
    assert not accepts(models.Use, {**good, "c": {"item": {"outer": 1}}})


def test_a_namespace_hides_what_it_does_not_export(tmp_path: Path) -> None:
    source = (
        "export namespace NS { interface Hidden { x: string } }\n"
        "export interface Use { h: NS.Hidden }\n"
    )
    outcome = load(tmp_path, {"input.ts": source}, _types("Use"))
    assert "SYN003" in codes(outcome)
    source_ok = source.replace("{ interface", "{ export interface")
    assert codes(load(tmp_path, {"input.ts": source_ok}, _types("Use"), "t2")) == []


def test_interfaces_declared_twice_in_one_scope_merge(tmp_path: Path) -> None:
    source = (
        "export interface Box { a: string }\nexport interface Box { b?: number }\n"
        "export interface Holder { box: Box }\n"
    )
    models = build(tmp_path, {"input.ts": source}, _types("Holder")).models
    assert accepts(models.Holder, {"box": {"a": "x", "b": 1}})
    assert accepts(models.Holder, {"box": {"a": "x"}})
    assert not accepts(models.Holder, {"box": {"b": 1}})
    assert not accepts(models.Holder, {"box": {"a": "x", "b": "1"}})


def test_interfaces_of_one_name_in_two_modules_do_not_merge(tmp_path: Path) -> None:
    files = {
        "a.ts": "export interface Box { a: string }\nexport interface A { b: Box }\n",
        "b.ts": "export interface Box { b: number }\nexport interface B { b: Box }\n",
    }
    models = build(tmp_path, files, _types("A", "B")).models
    assert accepts(models.A, {"b": {"a": "x"}}) and not accepts(models.A, {"b": {}})
    assert accepts(models.B, {"b": {"b": 1}}) and not accepts(models.B, {"b": {}})


def test_scripts_share_the_global_scope(tmp_path: Path) -> None:
    files = {
        "a.ts": "interface Shared { s: string }\n",
        "b.ts": "interface User { s: Shared }\n",
    }
    models = build(tmp_path, files, _types("User")).models
    assert accepts(models.User, {"s": {"s": "x"}})
    assert not accepts(models.User, {"s": {"s": 1}})


EXPORT_ASSIGNED = {
    "lib.d.ts": (
        "declare namespace Lib {\n"
        "  interface Item { id: string }\n"
        "  namespace Inner { interface Deep { n: number } }\n"
        "}\n"
        "export = Lib;\n"
    ),
    "main.ts": (
        'import * as Lib from "./lib";\n'
        "export interface Holder { item: Lib.Item; deep: Lib.Inner.Deep }\n"
    ),
}


def test_export_assignment_makes_the_namespace_the_module(tmp_path: Path) -> None:
    toml = 'types = ["Holder"]\n'
    outcome = load(tmp_path, EXPORT_ASSIGNED, toml)
    assert codes(outcome) == []
    models = build(tmp_path, EXPORT_ASSIGNED, toml, "t2").models
    assert accepts(models.Holder, {"item": {"id": "x"}, "deep": {"n": 1}})
    assert not accepts(models.Holder, {"item": {"id": 1}, "deep": {"n": 1}})
    assert not accepts(models.Holder, {"item": {"id": "x"}, "deep": {"n": "1"}})


def test_a_name_the_assigned_namespace_lacks_is_an_error(tmp_path: Path) -> None:
    files = {
        **EXPORT_ASSIGNED,
        "main.ts": 'import * as Lib from "./lib";\nexport interface H { x: Lib.Gone }\n',
    }
    assert "SYN003" in codes(load(tmp_path, files, 'types = ["H"]\n'))
