"""Fields and variants serde reads otherwise than it writes (issue 31; schemars' contract
suite): ``rename(serialize = .., deserialize = ..)`` and ``rename_all`` per direction,
``alias``, ``skip_serializing``, ``skip_deserializing``, ``skip_serializing_if`` without a
default.  The JSON Schema's definition is what serde reads, ``x-written-form`` what it
writes; the Python bindings read as serde reads (tests/golden/rust/asymmetric_fields has
serde's recorded verdicts for fields).  Each accepting check has its rejecting twin: the
other direction's form."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator

from codegen import ir
from codegen.backends import python as backend
from codegen.backends.jsonschema import build_schema, written_bundle
from tests.frontends.test_rust_paths import _load
from tests.unit.test_python_backend import import_package, write_package

SOURCE = """use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize)]
#[serde(rename_all(serialize = "SCREAMING-KEBAB-CASE"))]
pub struct Fields {
    #[serde(skip_deserializing)]
    pub read_only: bool,
    #[serde(skip_serializing)]
    pub write_only: bool,
    #[serde(rename(serialize = "ser_renamed", deserialize = "de_renamed"))]
    pub renamed: bool,
    #[serde(alias = "other")]
    pub aliased: u8,
    #[serde(skip_serializing_if = "is_false")]
    pub flag: bool,
}

#[derive(Serialize, Deserialize)]
#[serde(tag = "tag")]
pub enum Variants {
    #[serde(skip_deserializing)]
    ReadOnly,
    #[serde(skip_serializing)]
    WriteOnly { i: i32 },
    #[serde(rename(serialize = "ser_struct", deserialize = "de_struct"))]
    Renamed { b: bool },
    Plain,
}

#[derive(Serialize, Deserialize)]
pub enum External {
    #[serde(rename(serialize = "ser_unit", deserialize = "de_unit"))]
    Unit,
    Other(u8),
}
"""


def _validators(tmp_path: Path) -> tuple[ir.Protocol, Any, Any]:
    protocol, errors, _ = _load(tmp_path, {"lib.rs": SOURCE})
    assert errors == []
    bundle = build_schema(protocol)
    written = written_bundle(bundle)

    def validator(schema: dict[str, Any]) -> Any:
        return lambda name: Draft202012Validator(
            {"$ref": f"#/$defs/{name}", "$defs": schema["$defs"]}
        )

    return protocol, validator(bundle), validator(written)


def test_fields_carry_both_directions(tmp_path: Path) -> None:
    protocol, _, _ = _validators(tmp_path)
    decl = next(d for d in protocol.decls if d.name == "Fields")
    assert isinstance(decl, ir.StructDecl)
    by_name = {f.name: f for f in decl.fields}
    assert (
        by_name["read_only"].wire_name == "READ-ONLY" and not by_name["read_only"].read
    )
    assert not by_name["write_only"].written
    assert by_name["renamed"].wire_name == "ser_renamed"
    assert by_name["renamed"].read_names == ("de_renamed",)
    assert by_name["aliased"].read_names == ("aliased", "other")
    assert by_name["flag"].read_required


def test_the_schema_reads_as_serde_reads(tmp_path: Path) -> None:
    _, read, _ = _validators(tmp_path)
    fields = read("Fields")
    good = {"write_only": True, "de_renamed": True, "other": 1, "flag": False}
    assert fields.is_valid(good)
    assert fields.is_valid({**good, "read_only": "ignored, any value"})
    for key in ("write_only", "de_renamed", "other", "flag"):
        assert not fields.is_valid({k: v for k, v in good.items() if k != key}), key
    assert not fields.is_valid({**good, "de_renamed": None, "ser_renamed": True})
    variants = read("Variants")
    assert variants.is_valid({"tag": "WriteOnly", "i": 1})
    assert variants.is_valid({"tag": "de_struct", "b": True})
    assert not variants.is_valid({"tag": "ReadOnly"})  # skip_deserializing
    assert not variants.is_valid({"tag": "ser_struct", "b": True})
    assert read("External").is_valid("de_unit")
    assert not read("External").is_valid("ser_unit")


def test_the_written_form_is_what_serde_writes(tmp_path: Path) -> None:
    _, _, written = _validators(tmp_path)
    fields = written("Fields")
    out = {"READ-ONLY": False, "ser_renamed": True, "ALIASED": 1, "FLAG": True}
    assert fields.is_valid(out)
    assert fields.is_valid({k: v for k, v in out.items() if k != "FLAG"})
    assert not fields.is_valid({k: v for k, v in out.items() if k != "READ-ONLY"})
    variants = written("Variants")
    assert variants.is_valid({"tag": "ReadOnly"})
    assert variants.is_valid({"tag": "ser_struct", "b": True})
    assert not variants.is_valid({"tag": "WriteOnly", "i": 1})  # skip_serializing
    assert not variants.is_valid({"tag": "de_struct", "b": True})
    assert written("External").is_valid("ser_unit")
    assert not written("External").is_valid("de_unit")


def test_symmetric_declarations_have_one_form(tmp_path: Path) -> None:
    protocol, _, _ = _validators(tmp_path)
    bundle = build_schema(protocol)
    assert "x-written-form" in bundle["$defs"]["Fields"]
    plain = bundle["$defs"].get("VariantsRenamed", {})
    assert "x-written-form" not in plain  # the struct itself reads as it writes


def test_the_bindings_read_variants_as_serde_reads(tmp_path: Path) -> None:
    protocol, _, _ = _validators(tmp_path)
    root = write_package(backend.render(protocol, "asym"), tmp_path / "pkg")
    models = import_package(root, "asym").models
    from pydantic import TypeAdapter, ValidationError

    variants: TypeAdapter[Any] = TypeAdapter(models.Variants)
    assert variants.validate_json('{"tag": "de_struct", "b": true}') is not None
    assert variants.validate_json('{"tag": "WriteOnly", "i": 3}') is not None
    for refused in ('{"tag": "ReadOnly"}', '{"tag": "ser_struct", "b": true}'):
        try:
            variants.validate_json(refused)
        except ValidationError:
            continue
        raise AssertionError(f"read {refused}")


def test_an_enum_no_reader_takes_is_a_valid_schema_refusing_all(tmp_path: Path) -> None:
    source = (
        "use serde::{Deserialize, Serialize};\n#[derive(Serialize, Deserialize)]\n"
        "pub enum OnlyWritten {\n  #[serde(skip_deserializing)]\n  A,\n"
        "  #[serde(skip_deserializing)]\n  B(u8),\n}\n"
    )
    protocol, errors, _ = _load(tmp_path, {"lib.rs": source})
    assert errors == []
    bundle = build_schema(protocol)
    Draft202012Validator.check_schema(bundle)
    read = Draft202012Validator({"$ref": "#/$defs/OnlyWritten", **bundle})
    written = Draft202012Validator(
        {"$ref": "#/$defs/OnlyWritten", **written_bundle(bundle)}
    )
    assert not read.is_valid("A") and not read.is_valid({"B": 1})
    assert written.is_valid("A") and written.is_valid({"B": 1})


TUPLE = """use serde::{Deserialize, Serialize};
#[derive(Serialize, Deserialize)]
pub struct Row(
    String,
    #[serde(skip_serializing)] bool,
    String,
    #[serde(skip_deserializing)] u8,
);
"""


def test_a_tuple_struct_reads_and_writes_its_own_items(tmp_path: Path) -> None:
    protocol, errors, every = _load(tmp_path, {"lib.rs": TUPLE})
    assert errors == []
    # the Python bindings cannot write the other form: said, not silent
    assert any("SER003" in line and "Row is read otherwise" in line for line in every)
    bundle = build_schema(protocol)
    read = Draft202012Validator({"$ref": "#/$defs/Row", **bundle})
    written = Draft202012Validator({"$ref": "#/$defs/Row", **written_bundle(bundle)})
    assert read.is_valid(["a", True, "b"])  # the bool is read, the u8 is not
    assert not read.is_valid(["a", "b", 1]) and not read.is_valid(["a", True, "b", 1])
    assert written.is_valid(["a", "b", 1])  # the bool is never written, the u8 is
    assert not written.is_valid(["a", True, "b"])


def test_attributes_before_pub_on_a_tuple_field_are_read(tmp_path: Path) -> None:
    # Was: ``#[serde(skip)] pub u8`` hung the attribute on ``pub`` and lost it, with
    # exit 0: the skipped field stayed on the wire.
    public = (
        TUPLE.replace("    String,\n", "    pub String,\n")
        .replace(
            "#[serde(skip_serializing)] bool", "#[serde(skip_serializing)] pub bool"
        )
        .replace(
            "#[serde(skip_deserializing)] u8", "#[serde(skip_deserializing)] pub u8"
        )
    )
    protocol, errors, _ = _load(tmp_path, {"lib.rs": public})
    assert errors == []
    bundle = build_schema(protocol)
    read = Draft202012Validator({"$ref": "#/$defs/Row", **bundle})
    written = Draft202012Validator({"$ref": "#/$defs/Row", **written_bundle(bundle)})
    assert read.is_valid(["a", True, "b"]) and not read.is_valid(["a", True, "b", 1])
    assert written.is_valid(["a", "b", 1]) and not written.is_valid(["a", True, "b"])


def test_skip_before_pub_drops_the_field(tmp_path: Path) -> None:
    source = (
        "use serde::{Deserialize, Serialize};\n#[derive(Serialize, Deserialize)]\n"
        "pub struct Pair(#[serde(skip)] pub u8, pub u16, pub String);\n"
    )
    protocol, errors, every = _load(tmp_path, {"lib.rs": source})
    assert errors == []
    assert not any("read otherwise" in line for line in every)  # symmetric: no note
    schema = Draft202012Validator({"$ref": "#/$defs/Pair", **build_schema(protocol)})
    assert schema.is_valid([1, "s"])
    assert not schema.is_valid([1, 2, "s"])  # the twin: the skipped u8 is not read


def test_a_tuple_field_attribute_finding_is_reported_once(tmp_path: Path) -> None:
    source = (
        "use serde::{Deserialize, Serialize};\n#[derive(Serialize, Deserialize)]\n"
        "pub struct Pair(#[serde(skip_serializing_if = 5)] u8, u16);\n"
    )
    _, _, diags = _load(tmp_path, {"lib.rs": source})
    found = [d for d in diags if "skip_serializing_if" in d]
    assert len(found) == 1, diags
