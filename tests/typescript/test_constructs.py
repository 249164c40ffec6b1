"""TypeScript constructs the checker accepts, read with their TypeScript meaning (issue
30, item 2); each accepting test has rejecting twins."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator

from codegen import ir
from codegen.backends.jsonschema import build_schema
from tests.typescript.support import accepts, build, codes, decl, load


def _types(*names: str) -> str:
    return "types = [" + ", ".join(f'"{n}"' for n in names) + "]\n"


EXTENDS = """
type Meta = Record<string, unknown>;
export interface R extends Meta { p?: string }
type Both = { a: string } & { b: number };
export interface I extends Both { c: boolean }
type Keys = "x" | "y";
type Mapped = { [K in Keys]: number };
export interface M extends Mapped { z?: string }
type Box<T> = { item: T };
export interface G extends Box<string> { n: number }
type Strings = { [K in string]: string };
export interface S extends Strings { s: string }
"""


def test_extends_of_object_typed_aliases(tmp_path: Path) -> None:
    outcome = load(tmp_path, {"input.ts": EXTENDS}, _types("R", "I", "M", "G", "S"))
    assert codes(outcome) == []
    models = build(
        tmp_path, {"input.ts": EXTENDS}, _types("R", "I", "M", "G", "S"), "t2"
    ).models
    assert accepts(models.R, {"p": "x", "other": [1]})
    assert not accepts(models.R, {"p": 1})
    assert accepts(models.I, {"a": "x", "b": 1, "c": True})
    assert not accepts(models.I, {"a": "x", "c": True})
    assert accepts(models.M, {"x": 1, "y": 2})
    assert not accepts(models.M, {"x": 1})
    assert accepts(models.G, {"item": "i", "n": 1})
    assert not accepts(models.G, {"item": 1, "n": 1})
    assert accepts(models.S, {"s": "x", "t": "y"})
    assert not accepts(models.S, {"s": "x", "t": 1})


def test_extends_of_a_non_object_alias_is_an_error(tmp_path: Path) -> None:
    source = "type N = string;\nexport interface R extends N { p?: string }\n"
    assert "SYN003" in codes(load(tmp_path, {"input.ts": source}, _types("R")))
    union = "type U = { a: 1 } | { b: 2 };\nexport interface R extends U {}\n"
    assert "SYN003" in codes(load(tmp_path, {"input.ts": union}, _types("R"), "t2"))


EXCLUSIVE = """
export type Content =
  | { text: string; uri?: never }
  | { uri: string; text?: never; blob?: undefined };
export interface Holder { content: Content }
"""


def test_an_optional_never_property_is_an_absent_key(tmp_path: Path) -> None:
    outcome = load(tmp_path, {"input.ts": EXCLUSIVE}, _types("Holder"))
    assert codes(outcome) == []
    models = build(tmp_path, {"input.ts": EXCLUSIVE}, _types("Holder"), "t2").models
    assert accepts(models.Holder, {"content": {"text": "x"}})
    assert accepts(models.Holder, {"content": {"uri": "u"}})
    assert not accepts(models.Holder, {"content": {}})
    assert not accepts(models.Holder, {"content": {"text": 1}})


def test_a_required_never_property_is_still_an_error(tmp_path: Path) -> None:
    source = "export interface Holder { gone: never }\n"
    assert "SYN003" in codes(load(tmp_path, {"input.ts": source}, _types("Holder")))


UNDEFINED_INSIDE = """
export interface Sparse { [key: string]: string | undefined }
export interface Holder {
  sparse: Sparse;
  record: Record<string, number | undefined>;
  items: (string | undefined)[];
}
"""


def test_undefined_in_containers_is_a_key_that_may_be_absent(tmp_path: Path) -> None:
    files = {"input.ts": UNDEFINED_INSIDE}
    outcome = load(tmp_path, files, _types("Holder"))
    assert codes(outcome) == []
    models = build(tmp_path, files, _types("Holder"), "t2").models
    good = {"sparse": {"a": "x"}, "record": {"n": 1}, "items": ["a", None]}
    assert accepts(models.Holder, good)
    assert not accepts(models.Holder, {**good, "sparse": {"a": 1}})
    assert not accepts(models.Holder, {**good, "record": {"n": "1"}})
    assert not accepts(models.Holder, {**good, "items": [1]})


def test_an_alias_of_only_undefined_is_still_an_error(tmp_path: Path) -> None:
    source = "export type Nothing = undefined;\nexport interface H { n: Nothing[] }\n"
    assert codes(load(tmp_path, {"input.ts": source}, _types("H"))) != []


KIND = """
export namespace Kind {
  /** The first kind. */
  export const First = 1;
  export const Second = 2;
}
export type Kind = 1 | 2;
export namespace Markup {
  export const PlainText: 'plaintext' = 'plaintext';
  export const Markdown: 'markdown' = 'markdown';
}
export type Markup = 'plaintext' | 'markdown';
export interface Holder { kind: Kind; markup: Markup; second: typeof Kind.Second;
  md: typeof Markup.Markdown }
"""


def test_a_constant_namespace_merged_with_an_alias_is_an_enum(tmp_path: Path) -> None:
    outcome = load(tmp_path, {"input.ts": KIND}, _types("Holder"))
    assert codes(outcome) == []
    kind = decl(outcome, "Kind")
    assert isinstance(kind, ir.EnumDecl)
    assert [(m.name, m.value) for m in kind.members] == [("First", 1), ("Second", 2)]
    assert "The first kind." in kind.members[0].lifecycle.docs
    markup = decl(outcome, "Markup")
    assert isinstance(markup, ir.EnumDecl) and markup.base is ir.EnumBase.STRING
    models = build(tmp_path, {"input.ts": KIND}, _types("Holder"), "t2").models
    good = {"kind": 1, "markup": "markdown", "second": 2, "md": "markdown"}
    assert accepts(models.Holder, good)
    assert not accepts(models.Holder, {**good, "kind": 3})
    assert not accepts(models.Holder, {**good, "second": 1})
    assert not accepts(models.Holder, {**good, "md": "plaintext"})
    assert not accepts(models.Holder, {**good, "markup": "html"})


def test_an_alias_that_is_not_the_namespaces_values_stays_an_alias(
    tmp_path: Path,
) -> None:
    source = KIND.replace("export type Kind = 1 | 2;", "export type Kind = 1 | 2 | 3;")
    outcome = load(tmp_path, {"input.ts": source}, _types("Holder"))
    assert codes(outcome) == []
    assert not isinstance(decl(outcome, "Kind"), ir.EnumDecl)


def test_enum_and_namespace_merge(tmp_path: Path) -> None:
    source = (
        "export enum Color { Red = 'red', Blue = 'blue' }\n"
        "export namespace Color { export const Default = 'red'; }\n"
        "export interface Holder { c: Color; d: typeof Color.Default }\n"
    )
    outcome = load(tmp_path, {"input.ts": source}, _types("Holder"))
    assert codes(outcome) == []
    assert isinstance(decl(outcome, "Color"), ir.EnumDecl)
    models = build(tmp_path, {"input.ts": source}, _types("Holder"), "t2").models
    assert accepts(models.Holder, {"c": "blue", "d": "red"})
    assert not accepts(models.Holder, {"c": "green", "d": "red"})
    assert not accepts(models.Holder, {"c": "blue", "d": "blue"})


METHOD = """/**
 * Pings.
 *
 * @method ping
 * @direction Client → Server
 * @messageType Request
 * @example
 * {@includeCode ./examples/ping.json}
 */
export interface PingParams { note: string }
export interface PingResult { ok: boolean }
"""


def test_include_code_examples_are_followed_and_become_samples(
    tmp_path: Path,
) -> None:
    message = '{\n  "jsonrpc": "2.0", "id": 1, "method": "ping",\n  "params": {"note": "x"}\n}\n'
    files = {"input.ts": METHOD, "examples/ping.json": message}
    outcome = load(tmp_path, files)
    assert codes(outcome) == []
    assert outcome.protocol is not None
    samples = [e for e in outcome.protocol.examples if e.method == "ping"]
    assert len(samples) == 1 and samples[0].skipped_reason is None
    assert '"note": "x"' in samples[0].json_text


def test_a_missing_or_broken_include_is_a_warning(tmp_path: Path) -> None:
    missing = load(tmp_path, {"input.ts": METHOD}, name="t1")
    assert any(
        d.code == "EXM001" and "cannot be read" in d.message
        for d in missing.diags.items
    )
    broken = load(
        tmp_path, {"input.ts": METHOD, "examples/ping.json": "{ nope"}, name="t2"
    )
    assert any(
        d.code == "EXM001" and "is not JSON" in d.message for d in broken.diags.items
    )
    assert broken.protocol is not None and not broken.protocol.examples


CR_SPEC = METHOD.replace(" * @example\n * {@includeCode ./examples/ping.json}\n", "")


def test_any_line_ending_reads_the_same(tmp_path: Path) -> None:
    for ending, name in (("\r", "cr"), ("\r\n", "crlf"), ("\n", "lf")):
        outcome = load(tmp_path, {"input.ts": CR_SPEC.replace("\n", ending)}, name=name)
        assert codes(outcome) == [], name
        assert outcome.protocol is not None
        assert [m.wire_name for m in outcome.protocol.methods] == ["ping"], name


def test_a_bad_tag_under_cr_endings_is_reported_at_its_line(tmp_path: Path) -> None:
    bad = CR_SPEC.replace("Client → Server", "Nobody → Server").replace("\n", "\r")
    outcome = load(tmp_path, {"input.ts": bad})
    found = [d for d in outcome.diags.items if d.code == "MTH001"]
    assert found and found[0].span.line == 5


def test_intrinsic_string_types_map_literals(tmp_path: Path) -> None:
    source = (
        "type Names = 'alpha' | 'beta';\nexport interface H {\n"
        "  up: Uppercase<Names>; low: Lowercase<'MiXed'>; cap: Capitalize<Names>;\n"
        "  any: Uppercase<string> }\n"
    )
    models = build(tmp_path, {"input.ts": source}, _types("H")).models
    good = {"up": "BETA", "low": "mixed", "cap": "Alpha", "any": "whatever"}
    assert accepts(models.H, good)
    assert not accepts(models.H, {**good, "up": "beta"})
    assert not accepts(models.H, {**good, "low": "MiXed"})
    assert not accepts(models.H, {**good, "cap": "alpha"})
    bad = "export interface H { n: Uppercase<1> }\n"
    assert "SYN003" in codes(load(tmp_path, {"input.ts": bad}, _types("H"), "t2"))


def test_enum_members_may_name_earlier_members(tmp_path: Path) -> None:
    source = (
        "export enum E { A = 'a', B = A, C = E.A, D = 'd' as any }\n"
        "export interface H { e: E }\n"
    )
    outcome = load(tmp_path, {"input.ts": source}, _types("H"))
    assert codes(outcome) == []
    enum = decl(outcome, "E")
    assert [(m.name, m.value) for m in enum.members] == [
        ("A", "a"),
        ("B", "a"),
        ("C", "a"),
        ("D", "d"),
    ]
    later = "export enum E { A = B, B = 'b' }\nexport interface H { e: E }\n"
    assert "SYN004" in codes(load(tmp_path, {"input.ts": later}, _types("H"), "t2"))


INLINED_FUNCTION = """
export type Handler<T = unknown> = (event: T) => void;
export type Handlers = Array<Handler>;
export type Again = Handler[];
export type Named = Array<Box>;
export type Box<T = string> = { item: T };
"""


def test_a_problem_in_an_inlined_generic_alias_is_the_users_error(
    tmp_path: Path,
) -> None:
    # ``Array<Handler>``: the generic alias is inlined with its defaults, so its function
    # type (no JSON value; tsc takes no JSON value for it) blocks Handlers too, and was
    # silently ``any[]`` (found by the wild-ts oracle sample on mitt).
    outcome = load(tmp_path, {"input.ts": INLINED_FUNCTION}, _types("Handlers"))
    assert any(
        d.code == "SYN003" and "Handlers is needed" in d.message
        for d in outcome.diags.errors()
    )
    again = load(tmp_path, {"input.ts": INLINED_FUNCTION}, _types("Again"), "t2")
    assert any("Again is needed" in d.message for d in again.diags.errors())


def test_an_inlined_generic_alias_without_problems_stays_modelled(
    tmp_path: Path,
) -> None:
    outcome = load(tmp_path, {"input.ts": INLINED_FUNCTION}, _types("Named"))
    assert codes(outcome) == []
    models = build(tmp_path, {"input.ts": INLINED_FUNCTION}, _types("Named"), "t2")
    assert accepts(models.models.Named, [{"item": "x"}])
    assert not accepts(models.models.Named, [{"item": 1}])


MIXED_ENUM = """
enum Mixed { a, b = 10, c, d = "foo" }
enum Plain { x = 1, y = 2 }
export interface Holder {
  value: Mixed;
  member: Mixed.d;
  numeric: Mixed.c;
  all: typeof Mixed;
  plain: Plain;
}
"""


def test_a_heterogeneous_enum_is_the_union_of_its_values(tmp_path: Path) -> None:
    # The checker allows members of both kinds; on the wire the enum is 0 | 10 | 11 |
    # "foo" (what tsc takes for a JSON value of the type, enums read as their values).
    outcome = load(tmp_path, {"input.ts": MIXED_ENUM}, _types("Holder"))
    assert codes(outcome) == []
    models = build(tmp_path, {"input.ts": MIXED_ENUM}, _types("Holder"), "t2").models
    good = {"a": 0, "b": 10, "c": 11, "d": "foo"}
    base = {"member": "foo", "numeric": 11, "all": good, "plain": 1}
    for value in (0, 10, 11, "foo"):
        assert accepts(models.Holder, {**base, "value": value})
    for value in (1, 12, "bar", "0", None):
        assert not accepts(models.Holder, {**base, "value": value})
    assert not accepts(models.Holder, {**base, "value": 0, "member": 11})
    assert not accepts(models.Holder, {**base, "value": 0, "numeric": "foo"})
    assert not accepts(models.Holder, {**base, "value": 0, "all": {**good, "d": 12}})


def test_an_enum_of_one_kind_stays_an_enum(tmp_path: Path) -> None:
    outcome = load(tmp_path, {"input.ts": MIXED_ENUM}, _types("Holder"))
    assert outcome.protocol is not None
    kinds = {d.name: type(d).__name__ for d in outcome.protocol.decls}
    assert kinds["Plain"] == "EnumDecl"
    assert kinds["Mixed"] == "AliasDecl"
    models = build(tmp_path, {"input.ts": MIXED_ENUM}, _types("Holder"), "t2").models
    good = {"a": 0, "b": 10, "c": 11, "d": "foo"}
    base = {"value": 0, "member": "foo", "numeric": 11, "all": good}
    assert accepts(models.Holder, {**base, "plain": 2})
    assert not accepts(models.Holder, {**base, "plain": 3})


CALLABLE = """
export interface Fn { (end: number): boolean }
export interface Ctor { new (x: string): object }
export interface WithMethod { name: string; run(): void }
export interface UsesFn { f: Fn }
"""


def test_a_callable_interface_has_no_json_form(tmp_path: Path) -> None:
    # tsc: ``{}`` "provides no match for the signature"; JSON.stringify writes nothing
    # for a function (found by the wild-ts oracle sample on @types/lodash).
    cases = (("Fn", "Fn", "t1"), ("Ctor", "Ctor", "t2"), ("UsesFn", "Fn", "t3"))
    for name, blocked, number in cases:
        outcome = load(tmp_path, {"input.ts": CALLABLE}, _types(name), number)
        assert any(
            d.code == "SYN003" and f"{blocked} is needed" in d.message
            for d in outcome.diags.errors()
        ), name


def test_methods_are_left_out_as_json_stringify_leaves_them(tmp_path: Path) -> None:
    outcome = load(tmp_path, {"input.ts": CALLABLE}, _types("WithMethod"))
    assert codes(outcome) == []
    models = build(tmp_path, {"input.ts": CALLABLE}, _types("WithMethod"), "t2").models
    assert accepts(models.WithMethod, {"name": "x"})
    assert not accepts(models.WithMethod, {"name": 1})


UNDECLARED_ENUM = """
import lodash = require("./index");
export interface Uses { placeholder: lodash.__ }
export interface Clean { n: number }
"""


def test_an_undeclared_enum_blocks_only_what_uses_it(tmp_path: Path) -> None:
    # ``lodash.__`` (an ``import = require`` binding): REF001 where it is needed, and
    # nothing else of the spec is blocked (it was an error of the whole spec).
    clean = load(tmp_path, {"input.ts": UNDECLARED_ENUM}, _types("Clean"))
    assert [d.code for d in clean.diags.errors()] == []
    uses = load(tmp_path, {"input.ts": UNDECLARED_ENUM}, _types("Uses"), "t2")
    assert any(
        d.code == "REF001" and "Uses is needed" in d.message
        for d in uses.diags.errors()
    )


NUMERIC_BESIDE = """
export interface Open { [key: number]: number; a: string }
export interface StringIndex { [key: string]: number | string; a: string }
"""


def _bundle(outcome: Any) -> dict[str, Any]:
    bundle: dict[str, Any] = json.loads(json.dumps(build_schema(outcome.protocol)))
    return bundle


def _schema(outcome: Any, name: str) -> dict[str, Any]:
    found: dict[str, Any] = _bundle(outcome)["$defs"][name]
    return found


def test_members_beside_a_numeric_index_signature(tmp_path: Path) -> None:
    # ``[key: number]: number`` limits numeric names only (tsc: ``{a: "x", "1": "s"}``
    # is refused, ``{a: "x", q: "s"}`` is a value with an extra key); bindings and schema.
    outcome = load(tmp_path, {"input.ts": NUMERIC_BESIDE}, _types("Open"))
    assert codes(outcome) == []
    built = build(tmp_path, {"input.ts": NUMERIC_BESIDE}, _types("Open"), "t2")
    assert accepts(built.models.Open, {"a": "x", "1": 2, "1.5": 3.5})
    assert accepts(built.models.Open, {"a": "x", "q": "any"})
    assert not accepts(built.models.Open, {"a": "x", "1": "s"})
    assert not accepts(built.models.Open, {"a": 1, "1": 2})
    schema = _schema(outcome, "Open")
    assert list(schema["patternProperties"].values()) == [{"type": "number"}]
    assert "additionalProperties" not in schema
    check = Draft202012Validator({**_bundle(outcome), "$ref": "#/$defs/Open"})
    assert check.is_valid({"a": "x", "1": 2, "q": "s"})
    assert not check.is_valid({"a": "x", "1": "s"})


def test_a_closed_object_beside_a_numeric_index_refuses_other_keys(
    tmp_path: Path,
) -> None:
    toml = _types("Open") + 'extra_keys = "forbid"\n'
    built = build(tmp_path, {"input.ts": NUMERIC_BESIDE}, toml)
    assert accepts(built.models.Open, {"a": "x", "7": 2})
    assert not accepts(built.models.Open, {"a": "x", "q": 2})
    closed = load(tmp_path, {"input.ts": NUMERIC_BESIDE}, toml, "t3")
    assert _schema(closed, "Open")["additionalProperties"] is False
    # a string index signature still types every extra key
    strings = build(tmp_path, {"input.ts": NUMERIC_BESIDE}, _types("StringIndex"), "t2")
    assert accepts(strings.models.StringIndex, {"a": "x", "q": 2, "1": "s"})
    assert not accepts(strings.models.StringIndex, {"a": "x", "q": True})


INFINITE = """
export type PositiveInfinity = 1e999;
export type NegativeInfinity = -1e999;
export type Big = 1e308;
"""


def test_a_literal_type_beyond_float64_has_no_json_value(tmp_path: Path) -> None:
    # ``1e999`` is Infinity to the checker (type-fest's PositiveInfinity); no JSON number
    # is, JSON.stringify writes null (found by the wild-ts oracle sample).
    for name, number in (("PositiveInfinity", "t1"), ("NegativeInfinity", "t2")):
        outcome = load(tmp_path, {"input.ts": INFINITE}, _types(name), number)
        assert any(
            "not a finite number" in d.message and f"{name} is needed" in d.message
            for d in outcome.diags.errors()
        ), name


def test_a_large_finite_literal_type_is_kept(tmp_path: Path) -> None:
    assert codes(load(tmp_path, {"input.ts": INFINITE}, _types("Big"))) == []
    models = build(tmp_path, {"input.ts": INFINITE}, _types("Big"), "t2").models
    assert accepts(models.Big, 1e308)
    assert not accepts(models.Big, [1e308])


MAPPED_OVER_FUNCTION = """
export interface Def { when?: ((p: string) => boolean) | undefined; name: string }
export interface Clean { name: string; size: number }
type Params<T> = { [K in keyof T]?: T[K] };
export type CheckParams = Params<Def>;
export type CleanParams = Params<Clean>;
export type Keys = keyof Def;
export type Omitted = Omit<Def, "name">;
export type Loose = Partial<Def>;
export type CleanPick = Pick<Clean, "name">;
"""


def test_a_mapped_type_copies_the_problems_of_what_it_maps(tmp_path: Path) -> None:
    # zod's CheckParams<...>: a mapped type over an interface with a function-typed
    # member was modelled with that member as any (found by the wild-ts oracle sample).
    for name, number in (("CheckParams", "t1"), ("Omitted", "t2"), ("Loose", "t3")):
        outcome = load(
            tmp_path, {"input.ts": MAPPED_OVER_FUNCTION}, _types(name), number
        )
        assert any(
            "function type" in d.message and f"{name} is needed" in d.message
            for d in outcome.diags.errors()
        ), name


def test_a_mapped_type_over_a_clean_object_and_keyof_stay_modelled(
    tmp_path: Path,
) -> None:
    toml = _types("CleanParams", "Keys", "CleanPick")
    assert codes(load(tmp_path, {"input.ts": MAPPED_OVER_FUNCTION}, toml)) == []
    models = build(tmp_path, {"input.ts": MAPPED_OVER_FUNCTION}, toml, "t2").models
    assert accepts(models.CleanParams, {"size": 1})
    assert not accepts(models.CleanParams, {"size": "1"})
    assert accepts(models.Keys, "when") and not accepts(models.Keys, "other")
    assert accepts(models.CleanPick, {"name": "x"})
    assert not accepts(models.CleanPick, {"name": 1})


INDEX_ONLY = """
export interface Holder {
  meta?: { [key: string]: unknown };
  counts: { [key: string]: number };
  both: { [key: string]: string; fixed: string };
  byNumber: { [n: number]: string };
  record: Record<string, number>;
}
export interface Named { [key: string]: number }
"""


def test_an_object_type_of_only_a_string_index_is_a_map(tmp_path: Path) -> None:
    # ``{ [k: string]: T }`` and ``Record<string, T>`` are one type to the checker.
    outcome = load(tmp_path, {"input.ts": INDEX_ONLY}, _types("Holder", "Named"))
    assert codes(outcome) == []
    holder = decl(outcome, "Holder")
    types = {f.wire_name: f.type for f in holder.fields}
    assert types["meta"] == ir.MapOf(ir.AnyJson())
    assert types["counts"] == types["record"]
    assert isinstance(types["counts"], ir.MapOf)
    # Rejecting twins: a member beside the index and a named interface each stay a
    # declaration of their own; a numeric index is a map of numeric keys only.
    assert isinstance(types["both"], ir.Ref)
    assert isinstance(types["byNumber"], ir.MapOf)
    assert types["byNumber"].key != types["counts"].key
    assert isinstance(decl(outcome, "Named"), ir.StructDecl)
    models = build(
        tmp_path, {"input.ts": INDEX_ONLY}, _types("Holder", "Named"), "t2"
    ).models
    ok = {"counts": {"a": 1}, "both": {"fixed": "f"}, "byNumber": {}, "record": {}}
    assert accepts(models.Holder, {**ok, "meta": {"x": [1, None]}})
    assert not accepts(models.Holder, {**ok, "counts": {"a": "1"}})
    assert not accepts(models.Holder, {**ok, "meta": [1]})
    held = models.Holder.model_validate_json(json.dumps({**ok, "meta": {"k": 1}}))
    assert held.meta == {"k": 1} and held.counts == {"a": 1}


SCALAR_UNIONS = """
export type Id = string | number;
export type Mixed = boolean | string | number;
export type Tagged = "a" | number;
export type Listed = string | string[];
export interface Holder { id: Id; mixed: Mixed; tagged: Tagged; listed: Listed }
"""


def test_a_union_of_scalars_of_distinct_kinds_reads_left_to_right(
    tmp_path: Path,
) -> None:
    # ``string | number``: no value reads as two members, so the first member that
    # reads it is the smart union's choice, and the value is written as it is.
    built = build(tmp_path, {"input.ts": SCALAR_UNIONS}, _types("Holder"))
    text = Path(built.models.__file__).read_text()

    def alias(name: str) -> str:
        return (
            text.split(f"\n{name}: TypeAlias = ")[1].split('\n"""')[0].split("\n\n")[0]
        )

    assert "_SCALARS" in alias("Id") and "_SCALARS" in alias("Mixed")
    # Rejecting twins: a literal beside a number, a list beside a string stay smart.
    assert "_SCALARS" not in alias("Tagged") and "_SCALARS" not in alias("Listed")
    holder = built.models.Holder
    good = {"id": 1, "mixed": True, "tagged": "a", "listed": ["x"]}
    read = holder.model_validate_json(json.dumps(good))
    assert read.id == 1 and type(read.id) is int and read.mixed is True
    assert json.loads(read.model_dump_json()) == good
    again = holder.model_validate_json(json.dumps({**good, "id": 1.5, "mixed": 2}))
    assert again.id == 1.5 and again.mixed == 2 and type(again.mixed) is int
    assert json.loads(again.model_dump_json())["mixed"] == 2
    for bad in ({"id": True}, {"id": None}, {"mixed": None}, {"mixed": [1]}):
        assert not accepts(holder, {**good, **bad})
