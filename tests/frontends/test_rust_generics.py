"""Generic Rust declarations instantiated at each use (``rust.generics``), and the transparent
wrappers (``Box``, ``Arc``, ``Rc``, ``Cow``, ``&'a T``) everywhere a type is written.  Each
accepting case has a rejecting twin.
"""

from __future__ import annotations

from pathlib import Path

from codegen import ir
from tests.frontends.test_rust_paths import _load

ONE_OF = """use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize)]
#[serde(untagged)]
pub enum OneOf<A, B> { Left(A), Right(B) }

#[derive(Serialize, Deserialize)]
pub struct Options { pub deep: bool }

#[derive(Serialize, Deserialize)]
pub struct TagSupport<T> { pub value_set: Vec<T> }

#[derive(Serialize, Deserialize)]
pub struct Tree<T> { pub value: T, pub children: Vec<Tree<T>> }

#[derive(Serialize, Deserialize)]
pub struct WithDefault<T = u8> { pub v: T }

#[derive(Serialize, Deserialize)]
pub struct Caps {
    pub hover: OneOf<bool, Options>,
    pub again: OneOf<bool, Options>,
    pub other: OneOf<String, u32>,
    pub tags: TagSupport<Options>,
    pub nested: OneOf<bool, TagSupport<String>>,
    pub tree: Tree<String>,
    pub plain: WithDefault,
}
"""


def _decl(protocol: ir.Protocol, name: str) -> ir.Decl:
    return next(d for d in protocol.decls if d.name == name)


def _field(protocol: ir.Protocol, struct: str, name: str) -> ir.TypeExpr:
    decl = _decl(protocol, struct)
    assert isinstance(decl, ir.StructDecl)
    return next(f for f in decl.fields if f.name == name).type


def test_generic_instances_keep_their_member_types(tmp_path: Path) -> None:
    protocol, errors, every = _load(tmp_path, {"src/lib.rs": ONE_OF})
    assert not errors, errors
    assert not [h for h in every if "SYN002" in h or "SYN003" in h], every
    assert _field(protocol, "Caps", "hover") == ir.Ref("OneOfBoolOptions")
    assert _field(protocol, "Caps", "again") == ir.Ref(
        "OneOfBoolOptions"
    )  # one instance
    union = _decl(protocol, "OneOfBoolOptions")
    assert isinstance(union, ir.UnionDecl) and union.repr is ir.UnionRepr.UNTAGGED
    assert [v.type for v in union.variants] == [
        ir.Primitive(ir.PrimitiveKind.BOOLEAN),
        ir.Ref("Options"),
    ]
    other = _decl(protocol, "OneOfStringU32")
    assert isinstance(other, ir.UnionDecl)
    assert other.variants[0].type == ir.Primitive(ir.PrimitiveKind.STRING)
    assert _field(protocol, "TagSupportOptions", "value_set") == ir.ArrayOf(
        ir.Ref("Options")
    )
    # nested: the inner instance is its own type, named inside the outer's name
    nested = _decl(protocol, "OneOfBoolTagSupportString")
    assert isinstance(nested, ir.UnionDecl)
    assert nested.variants[1].type == ir.Ref("TagSupportString")
    # recursive: the instance refers to itself
    assert _field(protocol, "TreeString", "children") == ir.ArrayOf(
        ir.Ref("TreeString")
    )
    # a defaulted parameter
    plain = _field(protocol, "WithDefault", "v")
    assert isinstance(plain, ir.Primitive) and plain.kind is ir.PrimitiveKind.INTEGER
    assert "OneOf" not in {
        d.name for d in protocol.decls
    }  # the generic itself: no type


def test_wrong_generic_uses_are_reported(tmp_path: Path) -> None:
    """Rejecting twins: too many arguments, a missing argument with no default, a
    polymorphically recursive generic that makes a new type at every level."""
    lib = ONE_OF + (
        "#[derive(Serialize, Deserialize)]\n"
        "pub struct Bad { pub a: OneOf<bool, u8, u8>, pub b: TagSupport }\n"
        "#[derive(Serialize, Deserialize)]\n"
        "pub struct Grow<T> { pub g: Option<Box<Grow<Vec<T>>>> }\n"
        "#[derive(Serialize, Deserialize)]\n"
        "pub struct UsesGrow { pub g: Grow<u8> }\n"
    )
    _, errors, _ = _load(tmp_path, {"src/lib.rs": lib})
    assert any("takes 2 type argument(s), 3 given" in e for e in errors), errors
    assert any("TagSupport: no type argument for T" in e for e in errors), errors
    assert any("Grow: generic instances nested" in e for e in errors), errors


WRAPPED = """use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::rc::Rc;
use std::sync::Arc;

#[derive(Serialize, Deserialize)]
pub struct Inner { pub x: u8 }

pub type Shared = Arc<Inner>;

#[derive(Serialize, Deserialize)]
pub struct Outer<'a> {
    pub boxed: Box<Inner>,
    pub arc: Arc<Inner>,
    pub rc: Rc<Inner>,
    pub cow: Cow<'a, str>,
    pub borrowed: &'a Inner,
    pub alias: Shared,
    pub list: Vec<Box<Inner>>,
}

#[derive(Serialize, Deserialize)]
pub enum Choice<'a> { Boxed(Box<Inner>), Ref(&'a Inner), Named { inner: Rc<Inner> } }
"""


def test_wrappers_are_transparent_everywhere(tmp_path: Path) -> None:
    protocol, errors, _ = _load(tmp_path, {"src/lib.rs": WRAPPED})
    assert not errors, errors
    inner = ir.Ref("Inner")
    for name in ("boxed", "arc", "rc", "borrowed", "alias"):
        assert _field(protocol, "Outer", name) in (inner, ir.Ref("Shared")), name
    shared = _decl(protocol, "Shared")
    assert isinstance(shared, ir.AliasDecl) and shared.target == inner
    assert _field(protocol, "Outer", "cow") == ir.Primitive(ir.PrimitiveKind.STRING)
    assert _field(protocol, "Outer", "list") == ir.ArrayOf(inner)
    choice = _decl(protocol, "Choice")
    assert isinstance(choice, ir.UnionDecl)
    assert [v.type for v in choice.variants[:2]] == [inner, inner]
    assert _field(protocol, "ChoiceNamed", "inner") == inner


def test_an_unknown_wrapper_is_not_transparent(tmp_path: Path) -> None:
    """Rejecting twin: a library generic with no serde impl (``Pin``; ``Mutex`` has one,
    test_rust_std_wrappers) is not a wrapper."""
    lib = WRAPPED.replace("pub rc: Rc<Inner>", "pub rc: Pin<Inner>")
    _, errors, _ = _load(tmp_path, {"src/lib.rs": lib})
    assert any("Pin<Inner>" in e and "SYN003" in e for e in errors), errors
