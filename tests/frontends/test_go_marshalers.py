"""Custom marshalers in the Go frontend: recognised wire forms, and GOW001 for the rest."""

from __future__ import annotations

from pathlib import Path

from codegen import ir
from codegen.diagnostics import Diagnostics
from codegen.frontends.go.reader import GoTable, read_go
from codegen.pipeline import load_protocol
from codegen.spec.source import SourceText

FIXTURE = Path(__file__).parent / "go_fixtures" / "wrappers"
REPO = Path(__file__).resolve().parent.parent.parent

TYPES = """package p

type A struct {
	N int `json:"n"`
}

type B struct {
	S string `json:"s"`
}
"""

GOPLS_UNMARSHAL = """
func (t *Or_A_B) UnmarshalJSON(x []byte) error {
	if string(x) == "null" {
		t.Value = nil
		return nil
	}
	var h0 A
	if err := json.Unmarshal(x, &h0); err == nil {
		t.Value = h0
		return nil
	}
	var h1 []B
	if err := json.Unmarshal(x, &h1); err == nil {
		t.Value = h1
		return nil
	}
	return errors.New("no match")
}
"""

SWITCH_MARSHAL = """
func (t Or_A_B) MarshalJSON() ([]byte, error) {
	switch x := t.Value.(type) {
	case A:
		return json.Marshal(x)
	case []B:
		return json.Marshal(x)
	case nil:
		return []byte("null"), nil
	}
	return nil, errors.New("bad")
}
"""

WRAPPER = """
type Or_A_B struct {
	Value any `json:"value"`
}
"""


def _read(
    code: str, wrappers: dict[str, object] | None = None, path: str = "p.go"
) -> tuple[dict[str, ir.Decl], Diagnostics]:
    diags = Diagnostics()
    table = GoTable(dict(wrappers or {}))
    read = read_go([SourceText(path, code)], diags, table=table)
    return {d.name: d for d in read.decls}, diags


def _codes(diags: Diagnostics) -> list[str]:
    return [d.code for d in diags.items]


def test_gopls_union_reads_the_types_unmarshal_tries_in_order() -> None:
    decls, diags = _read(TYPES + WRAPPER + SWITCH_MARSHAL + GOPLS_UNMARSHAL)
    union = decls["Or_A_B"]
    assert isinstance(union, ir.UnionDecl), union
    assert union.repr is ir.UnionRepr.UNTAGGED and union.first_fit
    assert [v.type for v in union.variants] == [
        ir.Ref("A"),
        ir.ArrayOf(ir.Ref("B")),
        ir.Primitive(ir.PrimitiveKind.NULL),
    ]
    assert "GOW001" not in _codes(diags)


def test_an_unmarshal_body_of_another_shape_is_reported_not_guessed() -> None:
    body = GOPLS_UNMARSHAL.replace(
        "if err := json.Unmarshal(x, &h0); err == nil {",
        "if err := decode(x, &h0); err == nil {",
    )
    body = body.replace("var h1 []B\n", "var h1 []B\n\tcheck(h1)\n")
    decls, diags = _read(
        TYPES + WRAPPER + SWITCH_MARSHAL + body.replace("json.Unmarshal", "strict")
    )
    assert "GOW001" in _codes(diags)
    assert decls["Or_A_B"] == ir.AliasDecl("Or_A_B", ir.AnyJson(), ir.AliasKind.NEWTYPE)
    message = next(d.message for d in diags.items if d.code == "GOW001")
    assert "MarshalJSON, UnmarshalJSON" in message
    assert '[go.wrappers] Or_A_B = "any"' in message


def test_a_strict_decoder_is_not_plain_json_unmarshal() -> None:
    body = GOPLS_UNMARSHAL.replace(
        "var h0 A",
        "dec := json.NewDecoder(bytes.NewReader(x))\n\tdec.DisallowUnknownFields()\n\tvar h0 A",
    )
    _, diags = _read(TYPES + WRAPPER + SWITCH_MARSHAL + body)
    assert "GOW001" in _codes(diags)


def test_value_read_into_any_is_any_json() -> None:
    code = TYPES + WRAPPER + """
func (o Or_A_B) MarshalJSON() ([]byte, error) { return json.Marshal(o.Value) }
func (o *Or_A_B) UnmarshalJSON(b []byte) error { return json.Unmarshal(b, &o.Value) }
"""
    decls, diags = _read(code)
    alias = decls["Or_A_B"]
    assert isinstance(alias, ir.AliasDecl) and alias.target == ir.AnyJson()
    assert "GOW001" not in _codes(diags)


def test_a_marshaler_that_writes_something_else_is_reported() -> None:
    code = TYPES + WRAPPER + """
func (o Or_A_B) MarshalJSON() ([]byte, error) { return []byte("1"), nil }
func (o *Or_A_B) UnmarshalJSON(b []byte) error { return json.Unmarshal(b, &o.Value) }
"""
    _, diags = _read(code)
    assert "GOW001" in _codes(diags)


def test_only_a_marshaler_reads_the_struct_but_writes_the_value() -> None:
    code = TYPES + WRAPPER + SWITCH_MARSHAL
    decls, diags = _read(code)
    assert "GOW001" in _codes(diags)
    assert not isinstance(decls["Or_A_B"], ir.StructDecl)


PAGE = """type A struct {
	N int `json:"n"`
}

type B struct {
	S string `json:"s"`
}

type Or_A_B struct {
	Value any `json:"value"`
}

func (t Or_A_B) MarshalJSON() ([]byte, error)

func (t *Or_A_B) UnmarshalJSON(x []byte) error

type Or_Hover_contents struct {
	Value any `json:"value"`
}

    created for Or [A []B string]

func (t Or_Hover_contents) MarshalJSON() ([]byte, error)

func (t *Or_Hover_contents) UnmarshalJSON(x []byte) error

type Or_Thing_field struct {
	Value any `json:"value"`
}

func (t Or_Thing_field) MarshalJSON() ([]byte, error)

func (t *Or_Thing_field) UnmarshalJSON(x []byte) error
"""


def test_a_page_states_members_by_name_or_doc_comment() -> None:
    decls, diags = _read(PAGE, path="page.txt")
    by_name = decls["Or_A_B"]
    assert isinstance(by_name, ir.UnionDecl)
    assert [v.type for v in by_name.variants] == [ir.Ref("A"), ir.Ref("B")]
    by_doc = decls["Or_Hover_contents"]
    assert isinstance(by_doc, ir.UnionDecl)
    assert [v.type for v in by_doc.variants] == [
        ir.Ref("A"),
        ir.ArrayOf(ir.Ref("B")),
        ir.Primitive(ir.PrimitiveKind.STRING),
    ]
    # ``field`` names no type and no doc lists members: reported, not guessed.
    warned = [d for d in diags.items if d.code == "GOW001"]
    assert [d.message.split()[0] for d in warned] == ["Or_Thing_field"]


def test_marshal_text_on_a_string_type_is_a_string() -> None:
    code = """package p

type Name string

func (n Name) MarshalText() ([]byte, error) { return []byte(n), nil }

type Level int

func (l Level) MarshalText() ([]byte, error) { return []byte("x"), nil }
"""
    decls, diags = _read(code)
    assert decls["Name"] == ir.AliasDecl(
        "Name", ir.Primitive(ir.PrimitiveKind.STRING), ir.AliasKind.NEWTYPE
    )
    # An int's text is whatever the body makes of it.
    assert [d.message.split()[0] for d in diags.items if d.code == "GOW001"] == [
        "Level"
    ]
    assert decls["Level"] == ir.AliasDecl("Level", ir.AnyJson(), ir.AliasKind.NEWTYPE)


def test_go_wrappers_declare_the_form() -> None:
    code = """package p

type Level int

func (l Level) MarshalText() ([]byte, error) { return []byte("x"), nil }

type ID struct{ v any }

func (i ID) MarshalJSON() ([]byte, error) { return encode(i.v) }

type Blob struct{ b []byte }

func (b Blob) MarshalJSON() ([]byte, error) { return b.b, nil }
"""
    decls, diags = _read(
        code, {"Level": "string", "ID": ["int32", "string"], "Blob": "any"}
    )
    assert not diags.items, diags.items
    assert decls["Level"] == ir.AliasDecl(
        "Level", ir.Primitive(ir.PrimitiveKind.STRING), ir.AliasKind.NEWTYPE
    )
    union = decls["ID"]
    assert isinstance(union, ir.UnionDecl) and union.first_fit
    assert [v.type.kind for v in union.variants] == [  # type: ignore[union-attr]
        ir.PrimitiveKind.INTEGER,
        ir.PrimitiveKind.STRING,
    ]
    assert decls["Blob"] == ir.AliasDecl("Blob", ir.AnyJson(), ir.AliasKind.NEWTYPE)


def test_go_wrappers_that_are_not_go_types_are_errors() -> None:
    code = "package p\n\ntype Level int\n"
    _, diags = _read(code, {"Level": "not a type!", "Missing": "any"})
    messages = [d.message for d in diags.items if d.code == "CFG002"]
    assert any("'not a type!' is not a Go type" in m for m in messages)
    assert any("Missing names no type" in m for m in messages)
    _, diags = _read(code, {"Level": 3})
    assert "CFG002" in _codes(diags)


def test_unknown_go_keys_in_spec_toml_are_errors(tmp_path: Path) -> None:
    spec = tmp_path / "s"
    spec.mkdir()
    (spec / "a.go").write_text('package p\n\ntype A struct{ N int `json:"n"` }\n')
    (spec / "spec.toml").write_text(
        '[spec]\nid = "s"\nlanguage = "go"\nsources = ["a.go"]\ntypes = ["A"]\n\n'
        "[go]\nwrapers = {}\n"
    )
    outcome = load_protocol(spec, tmp_path)
    assert any(
        d.code == "CFG002" and "'wrapers'" in d.message and "wrappers" in d.message
        for d in outcome.diags.items
    )


def test_omitempty_on_a_wrapper_struct_value_has_no_effect() -> None:
    outcome = load_protocol(FIXTURE, REPO)
    assert outcome.protocol is not None
    hover = next(d for d in outcome.protocol.decls if d.name == "Hover")
    assert isinstance(hover, ir.StructDecl)
    fields = {f.wire_name: f for f in hover.fields}
    # ``ID Or_int32_string `json:"id,omitempty"```: a struct value is always written.
    assert fields["id"].presence is ir.Presence.WRITTEN_ALWAYS_READ_OPTIONAL
    assert fields["id"].default_json == "null"
    # ``*Or_Range_Position`` with omitempty: null is a nil pointer, left out.
    assert fields["where"].presence is ir.Presence.OPTIONAL
    assert fields["where"].default_json == "null"
    assert not [d for d in outcome.diags.items if d.code == "GOW001"]
