"""encoding/json wire semantics in the Go frontend: one test per rule (a plain .go fixture)."""

from __future__ import annotations

from pathlib import Path

import pytest

from codegen import ir
from codegen.diagnostics import Diagnostics
from codegen.frontends.go import GoRead, read_go
from codegen.frontends.go_types import allowed_values, parse_tag
from codegen.source import SourceText

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
    assert fields["title"].default_json is None


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


def test_allowed_values_patterns() -> None:
    assert allowed_values('"cancel" (default) or "block"')
    assert allowed_values('"50%", "80" (chars), "" (auto)')
    assert not allowed_values('e.g. "ctrl+g"')
    assert not allowed_values("JSON Schema")
