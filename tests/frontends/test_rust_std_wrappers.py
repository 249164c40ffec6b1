"""std's types serde writes as their content (``Cell``, ``RefCell``, ``Mutex``, ``RwLock``,
``Wrapping``, ``Reverse``) and ``Weak<T>``, which serde writes as ``Option<T>``
(``rust.type_exprs``); found by the typeshare conformance suite's ``smart_pointers`` case.
Each accepting case has a rejecting twin: the crate's own type of the same name keeps its
own form, and a wrapper with no argument is no wrapper.
"""

from __future__ import annotations

from pathlib import Path

from codegen import ir
from tests.frontends.test_rust_paths import _load

STD = """use serde::{Deserialize, Serialize};
use std::cell::{Cell, RefCell};
use std::rc::Weak;
use std::sync::{Mutex, RwLock};

#[derive(Serialize, Deserialize)]
pub struct Shared {
    pub count: Cell<u8>,
    pub names: RefCell<Vec<String>>,
    pub lock: Mutex<String>,
    pub rw: RwLock<bool>,
    pub wrapping: std::num::Wrapping<u8>,
    pub parent: Weak<String>,
    pub arc_parent: std::sync::Weak<u8>,
}
"""

OWN = """use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize)]
pub struct Cell<T> { pub inner: T, pub row: u32 }

#[derive(Serialize, Deserialize)]
pub struct Weak<T> { pub target: T }

#[derive(Serialize, Deserialize)]
pub struct Grid { pub cell: Cell<String>, pub weak: Weak<bool> }
"""

STRING = ir.Primitive(ir.PrimitiveKind.STRING)
NULL = ir.Primitive(ir.PrimitiveKind.NULL)


def _fields(protocol: ir.Protocol, name: str) -> dict[str, ir.TypeExpr]:
    decl = next(d for d in protocol.decls if d.name == name)
    assert isinstance(decl, ir.StructDecl)
    return {f.name: f.type for f in decl.fields}


def test_std_wrappers_are_their_content(tmp_path: Path) -> None:
    protocol, errors, every = _load(tmp_path, {"src/lib.rs": STD})
    assert not errors, errors
    assert not [h for h in every if "SYN003" in h], every
    fields = _fields(protocol, "Shared")
    count = fields["count"]
    assert isinstance(count, ir.Primitive) and count.kind is ir.PrimitiveKind.INTEGER
    assert count.constraints.maximum == 255  # u8, through Cell
    assert fields["names"] == ir.ArrayOf(STRING)
    assert fields["lock"] == STRING
    assert fields["rw"] == ir.Primitive(ir.PrimitiveKind.BOOLEAN)
    wrapping = fields["wrapping"]
    assert isinstance(wrapping, ir.Primitive) and wrapping.constraints.maximum == 255


def test_weak_is_an_option(tmp_path: Path) -> None:
    protocol, errors, _ = _load(tmp_path, {"src/lib.rs": STD})
    assert not errors, errors
    fields = _fields(protocol, "Shared")
    parent = fields["parent"]
    assert isinstance(parent, ir.InlineUnion) and set(parent.members) == {STRING, NULL}
    arc_parent = fields["arc_parent"]
    assert isinstance(arc_parent, ir.InlineUnion) and NULL in arc_parent.members


def test_the_crates_own_type_of_that_name_keeps_its_form(tmp_path: Path) -> None:
    protocol, errors, _ = _load(tmp_path, {"src/lib.rs": OWN})
    assert not errors, errors
    fields = _fields(protocol, "Grid")
    # the crate's generic Cell<T> and Weak<T>, instantiated: objects, not their content
    for name in ("cell", "weak"):
        assert isinstance(fields[name], ir.Ref), fields[name]
        assert fields[name] != STRING


def test_a_wrapper_name_without_its_argument_is_no_wrapper(tmp_path: Path) -> None:
    source = STD.replace("pub rw: RwLock<bool>,", "pub rw: RwLock,")
    _, errors, _ = _load(tmp_path, {"src/lib.rs": source})
    assert any("RwLock" in e for e in errors), errors
