"""serde's remote definitions (``rust.decls``): ``#[serde(remote = "ext::Duration")]`` on a
crate type with a serde derive, used by ``#[serde(with = "DurationDef")]`` on a field of
the foreign type: the field's wire form is the definition's (generic ones instantiated:
``with = "OrDef::<u8, bool>"``).  Found by schemars' ``remote_derive`` suite.  Rejecting
twins: ``with`` naming a module (hand-written functions) keeps the SER003 warning and the
declared type; the foreign type without ``with`` is still not a wire type."""

from __future__ import annotations

from pathlib import Path

from codegen import ir
from tests.frontends.test_rust_paths import _load

SOURCE = """use serde::{Deserialize, Serialize};

mod external {
    pub struct Duration { pub secs: i64, pub nanos: i32 }
    pub enum Or<A, B> { A(A), B(B) }
}

#[derive(Serialize, Deserialize)]
#[serde(remote = "external::Duration")]
pub struct DurationDef { secs: i64, nanos: i32 }

#[derive(Serialize, Deserialize)]
#[serde(untagged, remote = "external::Or")]
pub enum OrDef<A, B> { A(A), B(B) }

#[derive(Serialize, Deserialize)]
pub struct Process {
    #[serde(with = "DurationDef")]
    pub wall_time: external::Duration,
    #[serde(with = "OrDef::<u8, bool>")]
    pub either: external::Or<u8, bool>,
    #[serde(with = "as_seconds")]
    pub coded: u64,
}
"""


def _process(protocol: ir.Protocol) -> dict[str, ir.Field]:
    decl = next(d for d in protocol.decls if d.name == "Process")
    assert isinstance(decl, ir.StructDecl)
    return {f.name: f for f in decl.fields}


def test_with_a_remote_definition_takes_its_form(tmp_path: Path) -> None:
    protocol, errors, every = _load(tmp_path, {"lib.rs": SOURCE})
    assert errors == []
    fields = _process(protocol)
    assert fields["wall_time"].type == ir.Ref("DurationDef")
    either = fields["either"].type
    assert isinstance(either, ir.Ref)
    union = next(d for d in protocol.decls if d.name == either.name)
    assert isinstance(union, ir.UnionDecl) and union.repr is ir.UnionRepr.UNTAGGED
    kinds = [v.type for v in union.variants]
    assert kinds[0] == ir.Primitive(ir.PrimitiveKind.INTEGER, kinds[0].constraints)  # type: ignore[union-attr]
    assert kinds[1] == ir.Primitive(ir.PrimitiveKind.BOOLEAN)
    assert not any("remote" in line for line in every)


def test_with_a_module_is_still_code(tmp_path: Path) -> None:
    _, _, every = _load(tmp_path, {"lib.rs": SOURCE})
    assert any("SER003" in line and "serde(with)" in line for line in every)
    protocol, _, _ = _load(tmp_path, {"lib.rs": SOURCE})
    assert _process(protocol)["coded"].type.kind is ir.PrimitiveKind.INTEGER  # type: ignore[union-attr]


def test_the_foreign_type_alone_is_no_wire_type(tmp_path: Path) -> None:
    plain = SOURCE.replace('#[serde(with = "DurationDef")]\n', "")
    _, errors, _ = _load(tmp_path, {"lib.rs": plain})
    assert any("Duration" in e for e in errors)
