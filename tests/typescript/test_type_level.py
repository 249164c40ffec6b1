"""Type-level TypeScript as the checker evaluates it (issue 30): tuples with optional and
rest elements, template literal types, mapped types with ``as``, conditional types with
``infer``, and the global types whose JSON form ``JSON.stringify`` decides (``Date``,
``URL``, ``RegExp``, ``symbol``).  Each accepting case has rejecting twins, checked on the
generated JSON Schema and, where the binding is exact, on the pydantic models."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator

from codegen.backends.jsonschema import build_schema
from tests.typescript.support import accepts, build, codes, load


def _types(*names: str) -> str:
    return "types = [" + ", ".join(f'"{n}"' for n in names) + "]\n"


def _schemas(tmp_path: Path, source: str, *names: str) -> dict[str, Any]:
    # closed objects, as the peers' schemas are: an absent key is then checkable
    toml = _types(*names) + 'extra_keys = "forbid"\n'
    outcome = load(tmp_path, {"input.ts": source}, toml, "s")
    assert outcome.ok(), [d.headline() for d in outcome.diags.errors()]
    assert outcome.protocol is not None and outcome.config is not None
    document = json.loads(json.dumps(build_schema(outcome.protocol)))
    return {
        name: Draft202012Validator(
            {"$ref": f"#/$defs/{name}", "$defs": document["$defs"]}
        )
        for name in names
    }


TUPLES = """
export type Opt = [string, number, string?, number?];
export type Rest = [string, number?, ...boolean[]];
export type Spread = [{ a: number }, ...[{ b: string }, ...[{ c: boolean }, ...[]]]];
export type Named = [first: string, second?: number, ...more: string[]];
export type OnlyRest = [...items: number[]];
type Pair = [string, number];
export type First = Pair[0];
export type Second = Pair[1];
"""


def test_tuple_optional_and_rest_elements(tmp_path: Path) -> None:
    s = _schemas(
        tmp_path, TUPLES, "Opt", "Rest", "Spread", "Named", "OnlyRest", "First"
    )
    assert s["Opt"].is_valid(["a", 1]) and s["Opt"].is_valid(["a", 1, "b", 2])
    assert not s["Opt"].is_valid(["a"])  # two required elements
    assert not s["Opt"].is_valid(["a", 1, "b", 2, 3])  # at most four
    assert not s["Opt"].is_valid(["a", 1, 2])  # the third is a string
    assert s["Rest"].is_valid(["a"]) and s["Rest"].is_valid(["a", 1, True, False])
    assert not s["Rest"].is_valid(["a", 1, "x"])  # the rest is boolean
    assert not s["Rest"].is_valid([])
    assert s["Spread"].is_valid([{"a": 1}, {"b": "x"}, {"c": True}])
    assert not s["Spread"].is_valid([{"a": 1}, {"b": "x"}])  # spread tuples: required
    assert s["Named"].is_valid(["a"]) and s["Named"].is_valid(["a", 1, "x", "y"])
    assert not s["Named"].is_valid(["a", "b"])
    assert s["OnlyRest"].is_valid([]) and s["OnlyRest"].is_valid([1, 2])
    assert not s["OnlyRest"].is_valid(["a"])
    assert s["First"].is_valid("a") and not s["First"].is_valid(1)  # Pair[0]


def test_optional_tuple_elements_in_the_bindings(tmp_path: Path) -> None:
    source = (
        "export interface Holder { t: [string, number?]; r: [string, ...number[]] }"
    )
    models = build(tmp_path, {"input.ts": source}, _types("Holder")).models
    assert accepts(models.Holder, {"t": ["a"], "r": ["a", 1, 2]})
    assert accepts(models.Holder, {"t": ["a", 1], "r": ["a"]})
    assert not accepts(models.Holder, {"t": [], "r": ["a"]})
    assert not accepts(models.Holder, {"t": ["a", 1, 2], "r": ["a"]})
    # a rest after fixed items: pydantic has no variadic tuple, so the binding checks
    # the items' types and the JSON Schema their positions (test above)
    assert not accepts(models.Holder, {"t": ["a"], "r": ["a", None]})
    assert not accepts(models.Holder, {"t": ["a"], "r": "a"})


def test_a_tuple_element_after_a_rest_is_an_error(tmp_path: Path) -> None:
    source = "export type T = [...string[], number];\n"
    assert "SYN003" in codes(load(tmp_path, {"input.ts": source}, _types("T")))


TEMPLATES = """
enum Kind { A = "a", B = "b" }
type Ok = "ok";
type Result = Ok | "fail";
export type FromEnum = `${Kind}`;
export type Product = `${Result}-${1 | 2}-${boolean}`;
export type Num = `${number}%`;
export type Open = `${string}.${string}`;
export type Mixed = `id-${Result | number}`;
export type Nulls = `@${null}/${undefined}`;
"""


def test_template_literal_types(tmp_path: Path) -> None:
    s = _schemas(tmp_path, TEMPLATES, "FromEnum", "Product", "Num", "Open", "Mixed")
    assert s["FromEnum"].is_valid("a") and not s["FromEnum"].is_valid("c")
    assert s["Product"].is_valid("ok-1-true") and s["Product"].is_valid("fail-2-false")
    assert not s["Product"].is_valid("ok-3-true")
    assert not s["Product"].is_valid("ok-1-yes")
    for good in ("1%", "-2.5%", "1e3%", "0x1F%", ".5%"):
        assert s["Num"].is_valid(good), good
    for bad in ("%", "a%", "1", "1e%"):
        assert not s["Num"].is_valid(bad), bad
    assert s["Open"].is_valid("a.b") and s["Open"].is_valid(".")
    assert s["Open"].is_valid("a\nb.c")  # ${string} takes any text, newlines too
    assert not s["Open"].is_valid("ab")
    assert s["Mixed"].is_valid("id-ok") and s["Mixed"].is_valid("id-12")
    assert not s["Mixed"].is_valid("id-other")


def test_a_template_over_an_object_type_is_an_error(tmp_path: Path) -> None:
    source = "type O = { a: 1 };\nexport type T = `x${O}`;\n"
    assert "SYN003" in codes(load(tmp_path, {"input.ts": source}, _types("T")))


MAPPED = """
interface Message { id: number; name?: string; title: string }
export type Renamed = { [K in keyof Message as `get${Capitalize<K>}`]: Message[K] };
export type Filtered = { [K in keyof Message as Exclude<K, "title">]: Message[K] };
export type Twice = { [K in "a" | "b" as K | `${K}2`]: K };
"""


def test_mapped_types_with_key_remapping(tmp_path: Path) -> None:
    s = _schemas(tmp_path, MAPPED, "Renamed", "Filtered", "Twice")
    assert s["Renamed"].is_valid({"getId": 1, "getTitle": "t"})
    assert s["Renamed"].is_valid({"getId": 1, "getName": "n", "getTitle": "t"})
    assert not s["Renamed"].is_valid({"getId": 1})  # getTitle is required
    assert not s["Renamed"].is_valid({"id": 1, "getId": 1, "getTitle": "t"})
    assert s["Filtered"].is_valid({"id": 1})
    assert not s["Filtered"].is_valid({"id": 1, "title": "t"})  # filtered to never
    assert s["Twice"].is_valid({"a": "a", "a2": "a", "b": "b", "b2": "b"})
    assert not s["Twice"].is_valid({"a": "a", "a2": "b", "b": "b", "b2": "b"})


def test_a_mapped_as_clause_over_open_keys_is_an_error(tmp_path: Path) -> None:
    source = "export type T = { [K in string as `x${K}`]: number };\n"
    assert "SYN003" in codes(load(tmp_path, {"input.ts": source}, _types("T")))


INFER = """
type ElementOf<T> = T extends (infer U)[] ? U : never;
export type E = ElementOf<string[] | number[]>;
type Prop<T> = T extends { a: infer A } ? A : "none";
export type P = Prop<{ a: boolean }>;
export type PNone = Prop<{ b: boolean }>;
type Tail<T extends any[]> = T extends [any, ...infer R] ? R : never;
export type TailOf = Tail<[string, number, boolean]>;
type Last<T extends any[]> = T extends [...any[], infer L] ? L : never;
export type LastOf = Last<[string, number]>;
type Flatten<T> = T extends Array<infer A> ? Flatten<A> : T;
export type Flat = Flatten<[[string], [[number]]]>;
type Split<S> = S extends `${infer H}.${infer R}` ? [H, R] : [S];
export type Parts = Split<"a.b.c">;
type Strings<T> = T extends infer S extends string ? S : "other";
export type Only = Strings<"x" | 1>;
type Box<T> = { item: T };
interface Wrap<T> { inner: T }
type Unwrap<T> = T extends Wrap<infer U> ? U : never;
export type Unwrapped = Unwrap<Wrap<number>>;
"""


def test_conditional_types_with_infer(tmp_path: Path) -> None:
    names = "E P PNone TailOf LastOf Flat Parts Only Unwrapped".split()  # noqa: SIM905
    s = _schemas(tmp_path, INFER, *names)
    assert s["E"].is_valid("a") and s["E"].is_valid(1)  # distributed over the union
    assert not s["E"].is_valid(True)
    assert s["P"].is_valid(True) and not s["P"].is_valid("none")
    assert s["PNone"].is_valid("none") and not s["PNone"].is_valid(True)
    assert s["TailOf"].is_valid([1, True]) and not s["TailOf"].is_valid(["a", 1, True])
    assert s["LastOf"].is_valid(1) and not s["LastOf"].is_valid("a")
    assert s["Flat"].is_valid("a") and s["Flat"].is_valid(2)
    assert not s["Flat"].is_valid(["a"])
    assert s["Parts"].is_valid(["a", "b.c"])  # the first hole takes the shortest text
    assert not s["Parts"].is_valid(["a.b", "c"])
    assert s["Only"].is_valid("x") and s["Only"].is_valid("other")
    assert not s["Only"].is_valid(1)
    assert s["Unwrapped"].is_valid(3) and not s["Unwrapped"].is_valid("3")


def test_an_infer_the_evaluator_cannot_decide_is_an_error(tmp_path: Path) -> None:
    source = (
        "type Ret<T> = T extends (...a: any[]) => infer R ? R : never;\n"
        "export type T = Ret<string>;\n"
    )
    assert "SYN003" in codes(load(tmp_path, {"input.ts": source}, _types("T")))


GLOBALS = """
type When = Date;
export interface Stamped {
  at: Date;
  alias: When;
  link: URL;
  pattern: RegExp;
  tag: symbol;
  tags: { [name: string]: symbol };
}
const Key: unique symbol = Symbol("key");
export interface Keyed { key: typeof Key; name: string }
"""


def test_globals_as_json_stringify_writes_them(tmp_path: Path) -> None:
    outcome = load(tmp_path, {"input.ts": GLOBALS}, _types("Stamped", "Keyed"))
    assert codes(outcome) == []
    # RegExp: JSON.stringify writes {} (the pattern is lost), said with a warning
    assert any(
        d.code == "SYN002" and "RegExp" in d.message for d in outcome.diags.items
    )
    s = _schemas(tmp_path, GLOBALS, "Stamped", "Keyed")
    good = {"at": "2024-01-01T00:00:00.000Z", "alias": "x", "link": "https://a/"}
    assert s["Stamped"].is_valid({**good, "pattern": {}, "tags": {}})
    assert not s["Stamped"].is_valid({**good, "pattern": "a+", "tags": {}})
    assert not s["Stamped"].is_valid({**good, "pattern": {}, "tags": {}, "tag": 1})
    assert not s["Stamped"].is_valid({**good, "pattern": {}, "tags": {"a": 1}})
    assert not s["Stamped"].is_valid({**good, "at": 0, "pattern": {}, "tags": {}})
    props = s["Stamped"].schema["$defs"]["Stamped"]["properties"]
    assert props["at"].get("format") == "date-time"  # the format is stated
    assert props["link"].get("format") == "uri"
    assert s["Keyed"].is_valid({"name": "n"})
    assert not s["Keyed"].is_valid({"name": "n", "key": "k"})  # a symbol: never written
    models = build(tmp_path, {"input.ts": GLOBALS}, _types("Stamped", "Keyed")).models
    assert accepts(models.Keyed, {"name": "n"})
    assert not accepts(models.Keyed, {})


def test_a_symbol_alone_has_no_json_value(tmp_path: Path) -> None:
    source = "export type S = symbol;\n"
    assert "SYN003" in codes(load(tmp_path, {"input.ts": source}, _types("S")))


MORE = """
export type Tag = string | TagArray;
export interface TagArray extends Array<Tag> {}
export type Maybe = string | undefined;
export interface UsesMaybe { m: Maybe; n: string }
interface A { flag: boolean; x: "a" | "b" }
interface B { flag: true; x: "b" | "c" }
export type Both = A & B;
type K1 = "s1";
type K2 = K1 | "s2";
export type Keys = Record<K2 | "s3", number>;
export interface Geo { type: Coll["type"] }
export interface Coll extends Geo { type: "Coll" }
type WithNumbers<T> = { [P in keyof T]: T[P] | number };
export type Mapped = WithNumbers<string[]>;
export type MappedTuple = WithNumbers<[string, boolean]>;
type Drop<T> = T extends string ? never : T;
export type NoTuple = number | [Drop<"x">];
"""


def test_more_checker_semantics(tmp_path: Path) -> None:
    names = [
        "Tag",
        "UsesMaybe",
        "Both",
        "Keys",
        "Coll",
        "Mapped",
        "MappedTuple",
        "NoTuple",
    ]
    s = _schemas(tmp_path, MORE, *names)
    # an interface extending Array<T> is an array
    assert s["Tag"].is_valid(["a", ["b", []]]) and not s["Tag"].is_valid([1])
    # an alias with undefined: its values are the rest, a property it types may be absent
    assert s["UsesMaybe"].is_valid({"n": "x"}) and s["UsesMaybe"].is_valid(
        {"m": "y", "n": "x"}
    )
    assert not s["UsesMaybe"].is_valid({"m": None, "n": "x"})
    # two bases with one member of different types: the member is their intersection
    assert s["Both"].is_valid({"flag": True, "x": "b"})
    assert not s["Both"].is_valid({"flag": False, "x": "b"})
    assert not s["Both"].is_valid({"flag": True, "x": "a"})
    # a union of aliases of unions as Record keys
    assert s["Keys"].is_valid({"s1": 1, "s2": 2, "s3": 3})
    assert not s["Keys"].is_valid({"s1": 1, "s2": 2})
    # a base whose member refers back to the interface extending it
    assert s["Coll"].is_valid({"type": "Coll"}) and not s["Coll"].is_valid({"type": 1})
    # a homomorphic mapped type over an array or tuple is an array or tuple
    assert s["Mapped"].is_valid(["a", 1]) and not s["Mapped"].is_valid([True])
    assert s["MappedTuple"].is_valid(["a", 1]) and s["MappedTuple"].is_valid([1, True])
    assert not s["MappedTuple"].is_valid(["a", "b"])
    # a tuple with a never element has no value
    assert s["NoTuple"].is_valid(1) and not s["NoTuple"].is_valid([None])
    outcome = load(tmp_path, {"input.ts": MORE}, _types(*names), "w")
    assert any(d.code == "SYN002" and "Maybe" in d.message for d in outcome.diags.items)


def test_an_alias_of_only_undefined_is_still_an_error(tmp_path: Path) -> None:
    source = "export type U = undefined;\n"
    assert "SYN003" in codes(load(tmp_path, {"input.ts": source}, _types("U")))


CONST_PROPS = """
interface Basic { a: string; b: number }
const kept = { a: "a" as const, b: 1 } satisfies Basic;
export type Kept = typeof kept;
"""


def test_a_const_asserted_property_keeps_its_literal(tmp_path: Path) -> None:
    s = _schemas(tmp_path, CONST_PROPS, "Kept")
    assert s["Kept"].is_valid({"a": "a", "b": 5})  # b widens to number
    assert not s["Kept"].is_valid({"a": "x", "b": 5})  # a stays "a"


LAZY = """
type Alpha = { s: string; fromBeta: Beta["n"] };
export type Beta = { n: number; fromAlpha: Alpha["s"]; opt?: boolean };
export type Gamma = { viaBeta: Beta["opt"] };
export type Either = Partial<{ foo: number } | { foo: boolean }>;
"""


def test_members_read_lazily_and_partial_distributes(tmp_path: Path) -> None:
    s = _schemas(tmp_path, LAZY, "Beta", "Gamma", "Either")
    # two aliases indexing each other: each member is read alone, as the checker does
    assert s["Beta"].is_valid({"n": 1, "fromAlpha": "a"})
    assert not s["Beta"].is_valid({"n": 1, "fromAlpha": 2})
    assert s["Gamma"].is_valid({}) and s["Gamma"].is_valid({"viaBeta": True})
    assert not s["Gamma"].is_valid({"viaBeta": "x"})
    # Partial over a union is the union of the partials
    assert s["Either"].is_valid({}) and s["Either"].is_valid({"foo": True})
    assert not s["Either"].is_valid({"foo": "x"})


NUMERIC = """
export interface ByIndex { [index: number]: string }
export type Mapped = { [k in number]?: boolean };
export type Rec = Record<number, number>;
export interface Mixed { [k: string]: number }
"""


def test_numeric_index_signatures_take_numeric_names(tmp_path: Path) -> None:
    s = _schemas(tmp_path, NUMERIC, "ByIndex", "Mapped", "Rec", "Mixed")
    for good in ("0", "12", "-3", "1.5", "1e+21"):
        assert s["ByIndex"].is_valid({good: "x"}), good
    for bad in ("", "01", "a", "1.50", "-0"):
        assert not s["ByIndex"].is_valid({bad: "x"}), bad
    assert not s["ByIndex"].is_valid({"1": 1})
    assert s["Mapped"].is_valid({"2": True}) and not s["Mapped"].is_valid({"x": True})
    assert s["Rec"].is_valid({"7": 1}) and not s["Rec"].is_valid({"seven": 1})
    assert s["Mixed"].is_valid({"seven": 1})  # a string index takes any name


def test_a_numeric_key_that_names_no_tuple_position(tmp_path: Path) -> None:
    # Was: int(float("1e400")) raised OverflowError inside the evaluator, and "1.5" was
    # read as position 1.  The checker has no such member on a tuple.
    source = (
        "type P = [string, number];\n"
        "export interface R {\n"
        '  huge: P extends { 1e400: string } ? "yes" : "no";\n'
        '  half: P extends { 1.5: number } ? "yes" : "no";\n'
        '  one: P extends { 1: number } ? "yes" : "no";\n'
        "}\n"
    )
    s = _schemas(tmp_path, source, "R")
    assert s["R"].is_valid({"huge": "no", "half": "no", "one": "yes"})
    # the twin: a whole position in range is a member
    assert not s["R"].is_valid({"huge": "no", "half": "no", "one": "no"})
    assert not s["R"].is_valid({"huge": "yes", "half": "no", "one": "yes"})
