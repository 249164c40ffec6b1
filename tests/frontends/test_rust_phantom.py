"""``PhantomData<T>`` is unit on the wire (serde writes ``null`` and reads only ``null``)
and its type argument never reaches the wire (``rust.type_exprs``); found by schemars'
``bound`` suite.  Rejecting twin: the crate's own type named ``PhantomData`` keeps its
own form."""

from __future__ import annotations

from pathlib import Path

from codegen import ir
from tests.frontends.test_rust_paths import _load

STD = """use serde::{Deserialize, Serialize};
use std::marker::PhantomData;

pub struct NotWire;

#[derive(Serialize, Deserialize)]
pub struct Tagged { pub marker: PhantomData<NotWire>, pub n: u8 }
"""

OWN = """use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize)]
pub struct PhantomData<T> { pub value: T }

#[derive(Serialize, Deserialize)]
pub struct Tagged { pub marker: PhantomData<u8>, pub n: u8 }
"""


def _marker(protocol: ir.Protocol) -> ir.TypeExpr:
    decl = next(d for d in protocol.decls if d.name == "Tagged")
    assert isinstance(decl, ir.StructDecl)
    return next(f.type for f in decl.fields if f.name == "marker")


def test_phantom_data_is_null_whatever_its_argument(tmp_path: Path) -> None:
    protocol, errors, _ = _load(tmp_path, {"lib.rs": STD})
    assert errors == []  # NotWire has no serde form, and needs none here
    assert _marker(protocol) == ir.Primitive(ir.PrimitiveKind.NULL)


def test_the_crates_own_phantom_data_keeps_its_form(tmp_path: Path) -> None:
    protocol, errors, _ = _load(tmp_path, {"lib.rs": OWN})
    assert errors == []
    marker = _marker(protocol)
    assert isinstance(marker, ir.Ref) and marker.name.startswith("PhantomData")
