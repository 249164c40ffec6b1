"""encoding/json's reading in the Go frontend: named key kinds, what is unexported, null
into values; and the encoding/json oracle agreeing on a fixture package of them."""

from __future__ import annotations

import re
from pathlib import Path

from codegen import ir
from codegen.diagnostics import Diagnostics
from codegen.frontends.go.reader import read_go
from codegen.pipeline import load_protocol
from codegen.spec.source import SourceText
from tests.oracle.go_fixture_support import oracle_report

FIXTURE = Path(__file__).parent / "go_fixtures" / "jsonsem"
REPO = Path(__file__).resolve().parent.parent.parent


def _read(code: str, path: str = "p.go") -> tuple[dict[str, ir.Decl], Diagnostics]:
    diags = Diagnostics()
    read = read_go([SourceText(path, code)], diags)
    return {d.name: d for d in read.decls}, diags


def _fields(decl: ir.Decl) -> dict[str, ir.Field]:
    assert isinstance(decl, ir.StructDecl), decl
    return {f.wire_name: f for f in decl.fields}


def test_map_keys_of_any_string_or_integer_kind() -> None:
    code = """package p

type ID string
type Alias ID
type Port uint16
type Point struct{ X int }
type Stamp struct{ n int }

func (s Stamp) MarshalText() ([]byte, error) { return nil, nil }

type M struct {
	A map[ID]int    `json:"a"`
	B map[Alias]int `json:"b"`
	C map[Port]int  `json:"c"`
	D map[Stamp]int `json:"d"`
}

type Bad struct {
	P map[Point]int `json:"p"`
}
"""
    decls, diags = _read(code)
    syn003 = [d for d in diags.items if d.code == "SYN003"]
    # Only the struct key (no MarshalText) is not a JSON object key.
    assert len(syn003) == 1 and "'Point'" in syn003[0].message
    assert syn003[0].span.line == 19
    a = _fields(decls["M"])["a"].type
    assert isinstance(a, ir.MapOf) and a.key == ir.Primitive(ir.PrimitiveKind.STRING)


def test_unexported_types_fields_and_constants_stay_out() -> None:
    outcome = load_protocol(FIXTURE, REPO)
    assert outcome.protocol is not None
    decls = {d.name: d for d in outcome.protocol.decls}
    # Used by exported types (embedded, a field): kept, not exported from the bindings.
    assert not decls["base"].exported and not decls["note"].exported
    # Used by nothing exported: never reaches the IR, with a note saying so.
    assert "unused" not in decls
    notes = {d.message.split()[0]: d for d in outcome.diags.items if d.code == "SYN005"}
    assert "unused" in notes and "Handle" in notes  # all fields unexported: a handle
    assert "Handle" not in decls
    resource = _fields(decls["Resource"])
    assert "secret" not in resource and "weight" not in _fields(decls["base"])
    kind = decls["Kind"]
    assert isinstance(kind, ir.EnumDecl)
    assert [m.name for m in kind.members] == ["KindFile", "KindDir"]
    constants = {c.name: c for c in outcome.protocol.constants}
    assert "maxDepth" not in constants and "kindTemp" not in constants
    assert constants["MaxItems"].value == 40  # evaluated from the unexported one


def test_an_exported_twin_of_an_unused_type_stays() -> None:
    decls, diags = _read(
        'package p\n\ntype Unused struct {\n\tX int `json:"x"`\n}\n'
        'type hidden struct {\n\tX int `json:"x"`\n}\n'
    )
    assert decls["Unused"].exported and "hidden" not in decls
    assert [d.code for d in diags.items] == ["SYN005"]


GO_DOC = """package p // import "example.com/p"

TYPES

type Handle struct {
	// Has unexported fields.
}
    Handle is a connection.

type Mixed struct {
	A int `json:"a"`
	// Has unexported fields.
}
    Mixed has one exported field.

type Empty struct{}
"""


def test_go_doc_has_unexported_fields_is_recognised() -> None:
    decls, diags = _read(GO_DOC, path="p.godoc.txt")
    assert "Handle" not in decls
    assert any(
        d.code == "SYN005" and d.message.startswith("Handle") for d in diags.items
    )
    assert list(_fields(decls["Mixed"])) == ["a"]
    assert _fields(decls["Empty"]) == {}  # no field at all is a message: {}


def test_null_into_a_value_reads_as_the_zero_value() -> None:
    outcome = load_protocol(FIXTURE, REPO)
    assert outcome.protocol is not None
    decls = {d.name: d for d in outcome.protocol.decls}
    resource = _fields(decls["Resource"])
    for key in ("id", "kind", "size", "ratio", "enabled", "note"):
        assert resource[key].omitted_value == "null", key
    # null is a value where the writer writes it: any JSON, a nil slice or map
    assert resource["meta"].omitted_value is None
    listing = _fields(decls["Listing"])
    assert listing["byId"].nullable and listing["byId"].omitted_value is None
    # omitempty leaves a nil slice out: a null read is that nil, left out
    assert resource["tags"].omitted_value == "null"


def test_encoding_json_oracle_agrees_on_the_fixture(tmp_path: Path) -> None:
    report = oracle_report(FIXTURE, tmp_path)
    assert report.error is None, report.error
    assert {"Listing", "Resource", "Kind", "Port"} <= set(report.targets)
    assert not report.failures
    nulls = [o for o in report.outcomes if o.case.kind == "null"]
    assert nulls and any(o.oracle.accept for o in nulls)
    # A null in a field read as Go reads it: agreed outright, never excused as a known
    # divergence (a null item of a map or array still is: listed in divergences.toml).
    at_field = [o for o in nulls if re.fullmatch(r"null at /[^/]+", o.case.mutation)]
    assert at_field and not [o for o in at_field if "null-as-zero" in o.excused_by]
    # Numbers in any read as float64 (compared so), and integers of fields exactly.
    counts = report.counts()
    assert 0 < counts["oracle_accepts"] < counts["cases"]


def test_items_of_pointers_are_nullable_and_items_of_values_are_not() -> None:
    decls, _ = _read(
        'package p\n\ntype I struct {\n\tN int `json:"n"`\n}\n'
        'type L struct {\n\tP []*I `json:"p"`\n\tV []I `json:"v"`\n'
        '\tA [2]*I `json:"a"`\n}\n'
    )
    fields = _fields(decls["L"])
    null = ir.Primitive(ir.PrimitiveKind.NULL)
    assert fields["p"].type == ir.ArrayOf(ir.InlineUnion((ir.Ref("I"), null)))
    assert fields["a"].type == ir.ArrayOf(ir.InlineUnion((ir.Ref("I"), null)))
    assert fields["v"].type == ir.ArrayOf(ir.Ref("I"))
