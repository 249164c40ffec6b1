"""A member whose serde form is code (``serde(with = module)``, ``serialize_with``,
``deserialize_with``) takes the type ``#[schemars(with = "T")]`` states as its wire form
(``rust.decls``): the crate's author states what the code reads and writes, as a spec does
with ``[rust.wrappers]``.  Found by schemars' ``enums`` and ``default`` suites.  Each
accepting case has a rejecting twin: without the statement the declared type is assumed
(with a SER003 warning), and a ``schemars(with)`` without serde code changes nothing
(schemars alone, no wire meaning)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import pytest
from pydantic import Field, TypeAdapter, ValidationError

from codegen import ir
from codegen.ecma_regex import RUST, for_pydantic
from tests.frontends.test_rust_paths import _load

STATED = """use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize)]
pub struct Pair { pub a: u8, pub b: bool }

#[derive(Serialize, Deserialize)]
pub struct Holder {
    #[serde(with = "pair_as_str")]
    #[schemars(with = "String")]
    pub pair: Pair,
    #[serde(deserialize_with = "de_opt", default)]
    #[schemars(with = "u64")]
    pub count: Option<u8>,
    #[schemars(with = "String")]
    pub plain: Pair,
}

#[derive(Serialize, Deserialize)]
pub enum Kind {
    One,
    #[serde(with = "unit_as_u64")]
    #[schemars(with = "u64")]
    AsInt,
}
"""

UNSTATED = STATED.replace('#[schemars(with = "String")]\n    pub pair', "pub pair")
UNSTATED = UNSTATED.replace('#[schemars(with = "u64")]\n    AsInt', "AsInt")

STRING = ir.Primitive(ir.PrimitiveKind.STRING)


def _decl(protocol: ir.Protocol, name: str) -> ir.Decl:
    return next(d for d in protocol.decls if d.name == name)


def _field(protocol: ir.Protocol, name: str) -> ir.Field:
    holder = _decl(protocol, "Holder")
    assert isinstance(holder, ir.StructDecl)
    return next(f for f in holder.fields if f.name == name)


def test_the_stated_type_is_the_members_wire_form(tmp_path: Path) -> None:
    protocol, errors, every = _load(tmp_path, {"lib.rs": STATED})
    assert errors == []
    assert _field(protocol, "pair").type == STRING
    count = _field(protocol, "count")
    assert isinstance(count.type, ir.Primitive)
    assert count.type.kind is ir.PrimitiveKind.INTEGER
    kind = _decl(protocol, "Kind")
    # a unit variant written by code is a variant with a payload (serde writes
    # {"AsInt": 42}), so the enum is no longer a string enum
    assert isinstance(kind, ir.UnionDecl)
    as_int = next(v for v in kind.variants if v.name == "AsInt")
    assert isinstance(as_int.type, ir.Primitive)
    assert not any("SER003" in line and "warning" in line for line in every)


def test_without_the_statement_the_declared_type_is_assumed(tmp_path: Path) -> None:
    protocol, _, every = _load(tmp_path, {"lib.rs": UNSTATED})
    assert _field(protocol, "pair").type == ir.Ref("Pair")
    kind = _decl(protocol, "Kind")
    assert isinstance(kind, ir.EnumDecl)  # both variants unit: a string enum
    assert any("SER003" in line and "with" in line for line in every)


def test_schemars_with_alone_has_no_wire_meaning(tmp_path: Path) -> None:
    protocol, _, _ = _load(tmp_path, {"lib.rs": STATED})
    # `plain` has no serde code: serde writes a Pair whatever schemars is told
    assert _field(protocol, "plain").type == ir.Ref("Pair")


FUNCTION = """use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize)]
pub struct Holder {
    #[serde(with = "int_as_str")]
    #[schemars(schema_with = "int_as_str::json_schema")]
    pub stated: i64,
    #[serde(with = "int_as_str")]
    #[schemars(schema_with = "int_as_str::computed")]
    pub computed: i64,
    #[schemars(schema_with = "int_as_str::json_schema")]
    pub plain: i64,
}

mod int_as_str {
    pub(super) fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "pattern": r"^-?\\d+$"
        })
    }
    pub(super) fn computed(g: &mut schemars::SchemaGenerator) -> schemars::Schema {
        g.subschema_for::<String>()
    }
}
"""


def test_a_schema_with_literal_is_the_members_wire_form(tmp_path: Path) -> None:
    protocol, errors, every = _load(tmp_path, {"lib.rs": FUNCTION})
    assert errors == []
    stated = _field(protocol, "stated").type
    assert isinstance(stated, ir.Primitive) and stated.kind is ir.PrimitiveKind.STRING
    # Kept as written (ECMA-262); the bindings spell it for pydantic (test below).
    assert stated.constraints.pattern == r"^-?\d+$"
    assert any("SER003" in line and "int_as_str::json_schema" in line for line in every)


def test_a_computed_schema_or_no_serde_code_leaves_the_declared_type(
    tmp_path: Path,
) -> None:
    protocol, _, every = _load(tmp_path, {"lib.rs": FUNCTION})
    for name in ("computed", "plain"):
        kind = _field(protocol, name).type
        assert isinstance(kind, ir.Primitive) and kind.kind is ir.PrimitiveKind.INTEGER
    # the computed one: code we cannot read, said so
    assert any("warning[SER003]" in line and "serde(with)" in line for line in every)


def test_a_digit_class_inside_brackets_stays_one_class(tmp_path: Path) -> None:
    # Was: [\d.] became [[0-9].], another regex (a class, then a literal "]").
    source = FUNCTION.replace(r'r"^-?\d+$"', r'r"^[\d.]+$"')
    assert source != FUNCTION
    protocol, errors, _ = _load(tmp_path, {"lib.rs": source})
    assert errors == []
    stated = _field(protocol, "stated").type
    assert isinstance(stated, ir.Primitive) and stated.constraints.pattern
    dialect, spelled = for_pydantic(stated.constraints.pattern)
    assert dialect is RUST
    adapter = TypeAdapter(Annotated[str, Field(pattern=spelled)])
    adapter.validate_python("1.5")
    for wrong in (
        "1]",
        "\u0663",
    ):  # a bracket; an Arabic-Indic digit (ECMA's \d is ASCII)
        with pytest.raises(ValidationError):
            adapter.validate_python(wrong)
