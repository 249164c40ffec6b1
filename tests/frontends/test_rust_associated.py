"""Generic instances over crate types with no serde form, and associated types
(``rust.generics``, ``rust.type_exprs``): ``MyContainer<MyIterator>`` where
``MyIterator`` derives nothing is fine as long as the instance never puts ``T`` itself on
the wire (``PhantomData<T>``, a skipped field); ``T::Item`` is what ``impl Iterator for
MyIterator { type Item = String; }`` says.  Found by schemars' ``bound`` suite.  Rejecting
twins: ``T`` on the wire is the SYN003 the bare type gives, and an associated type no impl
declares is SYN003."""

from __future__ import annotations

from pathlib import Path

from codegen import ir
from tests.frontends.test_rust_paths import _load

SOURCE = """use serde::{Deserialize, Serialize};
use std::marker::PhantomData;

#[derive(Default)]
pub struct MyIterator;

impl Iterator for MyIterator {
    type Item = String;
    fn next(&mut self) -> Option<Self::Item> { None }
}

#[derive(Serialize, Deserialize)]
pub struct MyContainer<T: Iterator> {
    pub associated: T::Item,
    pub phantom: PhantomData<T>,
    #[serde(skip)]
    pub skipped: T,
    FIELD
}

#[derive(Serialize, Deserialize)]
pub struct Root { pub c: MyContainer<MyIterator> }
"""


def _container(protocol: ir.Protocol) -> dict[str, ir.Field]:
    root = next(d for d in protocol.decls if d.name == "Root")
    assert isinstance(root, ir.StructDecl) and isinstance(root.fields[0].type, ir.Ref)
    name = root.fields[0].type.name
    decl = next(d for d in protocol.decls if d.name == name)
    assert isinstance(decl, ir.StructDecl)
    return {f.name: f for f in decl.fields}


def test_an_associated_type_is_what_the_impl_says(tmp_path: Path) -> None:
    protocol, errors, _ = _load(tmp_path, {"lib.rs": SOURCE.replace("FIELD", "")})
    assert errors == []
    fields = _container(protocol)
    assert fields["associated"].type == ir.Primitive(ir.PrimitiveKind.STRING)
    assert fields["phantom"].type == ir.Primitive(ir.PrimitiveKind.NULL)
    assert "skipped" not in fields


def test_a_non_wire_argument_used_on_the_wire_is_reported(tmp_path: Path) -> None:
    source = SOURCE.replace("FIELD", "pub bare: T,")
    _, errors, _ = _load(tmp_path, {"lib.rs": source})
    assert any("MyIterator" in e and "SYN003" in e for e in errors), errors


def test_an_undeclared_associated_type_is_reported(tmp_path: Path) -> None:
    source = SOURCE.replace("FIELD", "pub other: T::Other,")
    _, errors, _ = _load(tmp_path, {"lib.rs": source})
    assert any("T::Other" in e and "SYN003" in e for e in errors), errors
