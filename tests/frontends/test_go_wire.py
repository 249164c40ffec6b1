"""encoding/json wire semantics in the Go frontend: one test per rule (a plain .go fixture)."""

from __future__ import annotations

import importlib
import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

import jsonschema
import pytest
from pydantic import ValidationError

from codegen import ir
from codegen.backends import jsonschema as schema_backend
from codegen.backends import python as python_backend
from codegen.diagnostics import Diagnostics
from codegen.frontends.go.reader import GoRead, read_go
from codegen.frontends.go.type_exprs import allowed_values, parse_tag
from codegen.pipeline import load_protocol
from codegen.spec.source import SourceText

FIXTURE = Path(__file__).parent / "go_fixtures" / "wire.go"


@pytest.fixture(scope="module")
def read() -> tuple[GoRead, Diagnostics]:
    diags = Diagnostics()
    source = SourceText(
        "tests/frontends/go_fixtures/wire.go", FIXTURE.read_text(encoding="utf-8")
    )
    return read_go([source], diags), diags


def _item(read: tuple[GoRead, Diagnostics]) -> dict[str, ir.Field]:
    decl = next(d for d in read[0].decls if d.name == "Item")
    assert isinstance(decl, ir.StructDecl)
    return {f.wire_name: f for f in decl.fields}


def test_plain_go_file_parses_without_errors(read: tuple[GoRead, Diagnostics]) -> None:
    assert not read[1].has_errors(), read[1].items


def test_json_name_and_no_option_is_written_always(
    read: tuple[GoRead, Diagnostics],
) -> None:
    name = _item(read)["name"]
    assert name.name == "Name"
    assert name.presence is ir.Presence.WRITTEN_ALWAYS_READ_OPTIONAL
    assert name.default_json == '""' and not name.nullable


def test_omitempty_and_omitzero_are_optional(read: tuple[GoRead, Diagnostics]) -> None:
    fields = _item(read)
    assert fields["title"].presence is ir.Presence.OPTIONAL
    assert fields["hint"].presence is ir.Presence.OPTIONAL
    # What the writer leaves out is what a reader assumes when the key is absent.
    assert fields["title"].default_json == '""'
    assert fields["hint"].default_json == "0"


def test_omitempty_defaults_are_the_values_it_leaves_out(
    read: tuple[GoRead, Diagnostics],
) -> None:
    fields = _item(read)
    assert fields["anything"].default_json == "null"  # a nil interface
    assert fields["optTags"].default_json == "[]"  # nil or empty: len 0
    assert fields["blob"].default_json == '""'  # []byte: an empty base64 string
    assert fields["priority"].default_json == "0"  # a named int
    assert fields["plain"].default_json == '""'  # a named string
    # Only a nil pointer is left out, and nil is absent, never a value.
    assert fields["optPtr"].default_json is None


def test_dash_and_unexported_fields_are_not_on_the_wire(
    read: tuple[GoRead, Diagnostics],
) -> None:
    fields = _item(read)
    assert "Secret" not in fields
    assert fields["-"].name == "Dash"  # ``json:"-,"`` is the key "-"
    assert "hidden" not in fields


def test_field_without_tag_uses_go_name(read: tuple[GoRead, Diagnostics]) -> None:
    no_tag = _item(read)["NoTag"]
    assert no_tag.type == ir.Primitive(ir.PrimitiveKind.BOOLEAN)
    assert no_tag.default_json == "false"


def test_pointers(read: tuple[GoRead, Diagnostics]) -> None:
    fields = _item(read)
    assert fields["ptr"].nullable and fields["ptr"].default_json == "null"
    # omitempty leaves a nil pointer out: the writer never writes null
    assert not fields["optPtr"].nullable
    assert fields["optPtr"].presence is ir.Presence.OPTIONAL


def test_raw_message_and_any_are_any_json(read: tuple[GoRead, Diagnostics]) -> None:
    fields = _item(read)
    assert fields["raw"].type == ir.AnyJson()
    assert fields["anything"].type == ir.AnyJson()


def test_maps_and_slices(read: tuple[GoRead, Diagnostics]) -> None:
    fields = _item(read)
    assert fields["labels"].type == ir.MapOf(ir.Primitive(ir.PrimitiveKind.STRING))
    assert fields["labels"].nullable  # a nil map is written as null
    assert fields["tags"].type == ir.ArrayOf(ir.Primitive(ir.PrimitiveKind.STRING))
    assert fields["tags"].nullable and fields["tags"].default_json == "null"
    assert not fields["optTags"].nullable


def test_numbers_bytes_and_time(read: tuple[GoRead, Diagnostics]) -> None:
    fields = _item(read)
    assert fields["score"].type == ir.Primitive(ir.PrimitiveKind.NUMBER)
    count = fields["count"].type
    assert isinstance(count, ir.Primitive) and count.kind is ir.PrimitiveKind.INTEGER
    assert (count.constraints.minimum, count.constraints.maximum) == (0, 255)
    blob = fields["blob"].type
    assert isinstance(blob, ir.Primitive) and blob.constraints.format == "byte"
    at = fields["at"]
    assert (
        isinstance(at.type, ir.Primitive) and at.type.constraints.format == "date-time"
    )
    assert at.default_json == '"0001-01-01T00:00:00Z"'


def test_embedded_struct_is_flattened(read: tuple[GoRead, Diagnostics]) -> None:
    base = _item(read)["Base"]
    assert base.flatten and base.type == ir.Ref("Base", base.type.span)  # type: ignore[union-attr]


def test_omitempty_has_no_effect_on_a_struct_value(
    read: tuple[GoRead, Diagnostics],
) -> None:
    nested = _item(read)["nested"]
    assert nested.presence is ir.Presence.WRITTEN_ALWAYS_READ_OPTIONAL
    assert nested.default_json == '{"kind":""}'


def test_trailing_comment_lists_allowed_values(
    read: tuple[GoRead, Diagnostics],
) -> None:
    fields = _item(read)
    assert fields["role"].allowed_values_note == '"user" or "assistant"'
    assert fields["note"].allowed_values_note is None
    assert fields["note"].lifecycle.docs == 'e.g. "free text"'


def test_empty_struct_and_since_from_doc_comment(
    read: tuple[GoRead, Diagnostics],
) -> None:
    empty = next(d for d in read[0].decls if d.name == "Empty")
    assert isinstance(empty, ir.StructDecl) and empty.fields == ()
    assert empty.lifecycle.since == "v1.2.0"


def test_non_wire_types_are_excluded_with_a_note(
    read: tuple[GoRead, Diagnostics],
) -> None:
    excluded = read[0].excluded
    assert set(excluded) == {"Handle", "Callback", "Config"}
    notes = [d for d in read[1].items if d.code == "SYN005"]
    assert len(notes) == 3
    assert all(d.span.file.endswith("wire.go") and d.span.line > 1 for d in notes)
    names = {d.name for d in read[0].decls}
    assert not names & set(excluded)


def test_constants_are_read(read: tuple[GoRead, Diagnostics]) -> None:
    consts = {c.name: c.value for c in read[0].consts}
    assert consts == {"MethodPing": "host/ping", "Version": 3}


@pytest.mark.parametrize(
    ("raw", "name", "options"),
    [
        ('json:"a,omitempty"', "a", {"omitempty"}),
        ('json:",omitzero" yaml:"b"', "", {"omitzero"}),
        ('json:"-"', "-", set()),
        ('json:"-,"', "-", set()),
    ],
)
def test_parse_tag(raw: str, name: str, options: set[str]) -> None:
    tag = parse_tag(raw)
    assert tag.present and tag.name == name and tag.options == options
    assert tag.skip is (raw == 'json:"-"')


def test_parse_tag_without_a_json_key() -> None:
    tag = parse_tag('yaml:"a,omitempty" xml:"b"')
    assert not tag.present and not tag.skip
    assert tag.name == "" and tag.options == frozenset()
    assert tag.other_keys == {"yaml", "xml"}


def test_allowed_values_patterns() -> None:
    assert allowed_values('"cancel" (default) or "block"')
    assert allowed_values('"50%", "80" (chars), "" (auto)')
    assert not allowed_values('e.g. "ctrl+g"')
    assert not allowed_values("JSON Schema")


# ------------------------------------------------------------- typed constants → enums


def _decl(read: tuple[GoRead, Diagnostics], name: str) -> ir.Decl:
    return next(d for d in read[0].decls if d.name == name)


def test_typed_string_constants_make_an_open_enum(
    read: tuple[GoRead, Diagnostics],
) -> None:
    level = _decl(read, "Level")
    assert isinstance(level, ir.EnumDecl)
    assert level.base is ir.EnumBase.STRING and level.open and not level.flags
    # Member names are the Go constants as written, type-name prefix kept.
    assert [(m.name, m.value) for m in level.members] == [
        ("LevelInfo", "info"),
        ("LevelWarn", "warn"),
    ]
    assert [m.lifecycle.docs for m in level.members] == [
        "for the record",
        "LevelWarn needs a look.",
    ]
    # The block's comment joins the type's docs; the field keeps its zero value.
    assert level.lifecycle.docs.endswith("reads any string into a Level.")
    assert _item(read)["level"].default_json == '""'


def test_iota_continuation_makes_an_open_integer_enum(
    read: tuple[GoRead, Diagnostics],
) -> None:
    priority = _decl(read, "Priority")
    assert isinstance(priority, ir.EnumDecl) and priority.open
    assert priority.base is ir.EnumBase.INTEGER
    assert [(m.name, m.value) for m in priority.members] == [
        ("PriorityLow", 1),
        ("PriorityHigh", 2),
    ]


def test_named_type_without_typed_constants_stays_an_alias(
    read: tuple[GoRead, Diagnostics],
) -> None:
    plain = _decl(read, "Plain")
    assert isinstance(plain, ir.AliasDecl)
    assert plain.target == ir.Primitive(ir.PrimitiveKind.STRING)


def _read_text(source: str) -> tuple[GoRead, Diagnostics]:
    diags = Diagnostics()
    return read_go([SourceText("input.go", source)], diags), diags


def test_constants_of_undeclared_or_non_basic_types_stay_constants() -> None:
    read, diags = _read_text("""package x
type Point struct{ X int `json:"x"` }
type Alias = string
const (
    Timeout time.Duration = 5
    Origin Point = 0
    Named Alias = "a"
    Untyped = "u"
)
""")
    assert not diags.items
    assert {d.name: type(d) for d in read.decls} == {
        "Point": ir.StructDecl,
        "Alias": ir.AliasDecl,
    }
    consts = {c.name: c.value for c in read.consts}
    assert consts == {"Timeout": 5, "Origin": 0, "Named": "a", "Untyped": "u"}


def test_repeated_value_stays_a_constant_with_a_warning() -> None:
    read, diags = _read_text("""package x
type Color string
const (
    ColorRed Color = "red"
    ColorAlsoRed // repeats "red", as Go repeats the expression
    ColorMix Color = "re" + "d2"
)
""")
    color = next(d for d in read.decls if d.name == "Color")
    assert isinstance(color, ir.EnumDecl)
    assert [(m.name, m.value) for m in color.members] == [
        ("ColorRed", "red"),
        ("ColorMix", "red2"),
    ]
    assert [c.name for c in read.consts] == ["ColorAlsoRed"]
    assert [d.code for d in diags.items] == ["SYN002"]


def test_constant_expressions_follow_go() -> None:
    read, diags = _read_text("""package x
const (
    A = iota * 10
    B
    C = -7 / 2
    D = -7 % 2
    E = 1 << iota
    F = A + C
    G = len("x")
    H = 1 << 2000
)
""")
    consts = {c.name: c.value for c in read.consts}
    assert consts == {"A": 0, "B": 10, "C": -3, "D": -1, "E": 16, "F": -3}
    skipped = [(d.code, d.span.line) for d in diags.items]
    assert skipped == [("SYN002", 9), ("SYN002", 10)]


COLOR_SPEC = """package demo

// Color is a document color.
type Color string

const (
	ColorRed  Color = "red"  // the red one
	ColorBlue Color = "blue" // the blue one
)

// Paint carries a color.
type Paint struct {
	Color Color `json:"color"`
}
"""


@contextmanager
def _go_bindings(
    tmp_path_factory: pytest.TempPathFactory, spec_id: str, source: str
) -> Iterator[tuple[ModuleType, ir.Protocol]]:
    """A Go source through the pipeline and the bindings backend, imported (and
    forgotten again afterwards)."""
    root = tmp_path_factory.mktemp(f"go_{spec_id}")
    (root / "spec.toml").write_text(
        f'[spec]\nid = "{spec_id}"\nlanguage = "go"\nsources = ["input.go"]\n',
        encoding="utf-8",
    )
    (root / "input.go").write_text(source, encoding="utf-8")
    outcome = load_protocol(root, repo_root=root)
    assert outcome.protocol is not None and not outcome.diags.has_errors()
    package = f"go_{spec_id}_bindings"
    for relative, text in python_backend.render(outcome.protocol, package).items():
        path = root / "out" / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    sys.path.insert(0, str(root / "out" / "python"))
    try:
        module: ModuleType = importlib.import_module(package)
    finally:
        sys.path.remove(str(root / "out" / "python"))
    try:
        yield module, outcome.protocol
    finally:
        for name in [
            n for n in sys.modules if n == package or n.startswith(package + ".")
        ]:
            del sys.modules[name]


@pytest.fixture(scope="module")
def color(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """The Color spec through the pipeline: the bindings module and the schema."""
    with _go_bindings(tmp_path_factory, "colors", COLOR_SPEC) as (module, protocol):
        bundle = schema_backend.build_schema(protocol)
        yield {"module": module, "bundle": bundle, "protocol": protocol}


def _schema_accepts(bundle: dict[str, Any], name: str, instance: Any) -> bool:
    jsonschema.Draft202012Validator.check_schema(bundle)
    validator = jsonschema.Draft202012Validator(
        {"$ref": schema_backend.def_pointer(name), "$defs": bundle["$defs"]}
    )
    return bool(validator.is_valid(instance))


def test_typed_constant_enum_accepts_known_and_unknown_values(
    color: dict[str, Any],
) -> None:
    """Accepting twin: a member and a value the listing does not name (Go is open)."""
    paint, enum = color["module"].Paint, color["module"].Color
    assert enum.COLOR_RED.value == "red" and enum.COLOR_BLUE.value == "blue"
    for text in ('{"color":"red"}', '{"color":"mauve"}'):
        for model in (
            paint.model_validate_json(text),
            paint.model_validate(json.loads(text)),
        ):
            assert model.model_dump_json(by_alias=True) == text
        assert _schema_accepts(color["bundle"], "Paint", json.loads(text))
    assert paint.model_validate_json('{"color":"red"}').color is enum.COLOR_RED
    assert paint.model_validate_json('{"color":"mauve"}').color == "mauve"
    assert paint.model_validate_json("{}").color == ""  # encoding/json's zero value


def test_typed_constant_enum_rejects_a_number(color: dict[str, Any]) -> None:
    """Rejecting twin: open means other strings, never another JSON type."""
    paint = color["module"].Paint
    text = '{"color":1}'
    with pytest.raises(ValidationError):
        paint.model_validate_json(text)
    with pytest.raises(ValidationError):
        paint.model_validate(json.loads(text))
    assert not _schema_accepts(color["bundle"], "Paint", json.loads(text))
    assert not _schema_accepts(color["bundle"], "Color", 1)


OMIT_SPEC = """package demo

// Opts has every kind of key encoding/json leaves out when empty.
type Opts struct {
	Title string         `json:"title,omitempty"`
	Tags  []string       `json:"tags,omitempty"`
	Meta  map[string]int `json:"meta,omitempty"`
	N     int            `json:"n,omitempty"`
	Z     float64        `json:"z,omitzero"`
	On    bool           `json:"on,omitempty"`
	Any   any            `json:"any,omitempty"`
	Ptr   *int           `json:"ptr,omitempty"`
}
"""


@pytest.fixture(scope="module")
def omit(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    with _go_bindings(tmp_path_factory, "omit", OMIT_SPEC) as (module, _):
        yield module


def test_bindings_leave_out_empty_omitempty_values_as_go_writes(
    omit: ModuleType,
) -> None:
    empty = (
        '{"title":"","tags":[],"meta":{},"n":0,"z":0.0,"on":false,"any":null,"ptr":0}'
    )
    # encoding/json writes back only the pointer: it is not nil (it points at 0).
    for model in (
        omit.Opts.model_validate_json(empty),
        omit.Opts.model_validate(json.loads(empty)),
    ):
        assert model.model_dump_json() == '{"ptr":0}'


def test_bindings_write_back_values_that_are_not_empty(omit: ModuleType) -> None:
    """Rejecting twin of the above: nothing that is not empty is left out."""
    full = '{"title":"t","tags":[""],"meta":{"a":0},"n":-1,"z":0.5,"on":true,"any":0}'
    assert omit.Opts.model_validate_json(full).model_dump_json() == full
    assert omit.Opts.model_validate_json("{}").model_dump_json() == "{}"


def test_docs_are_the_comment_right_above_not_one_trailing_the_line_before() -> None:
    read, diags = _read_text("""package x
const Version = 3 // the wire version
type Trailed string
// Documented is documented.
type Documented string
""")
    assert not diags.items
    docs = {d.name: d.lifecycle.docs for d in read.decls}
    assert docs == {"Trailed": "", "Documented": "Documented is documented."}


def test_constant_docs_fall_back_to_the_block_docs() -> None:
    read, _ = _read_text("""package x
// Limits of the wire.
const (
    // MaxItems bounds a page.
    MaxItems = 10
    MaxDepth = 3
)
""")
    docs = {c.name: (c.own_docs, c.group_docs, c.docs) for c in read.consts}
    assert docs == {
        "MaxItems": (
            "MaxItems bounds a page.",
            "Limits of the wire.",
            "MaxItems bounds a page.",
        ),
        "MaxDepth": ("", "Limits of the wire.", "Limits of the wire."),
    }
