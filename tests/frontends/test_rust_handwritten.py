"""Types whose serde form is not derived (``rust.reader``/``rust.type_exprs``): a hand-written
``Serialize``/``Deserialize`` impl, ``serde_repr``, ``bitflags!``.  A use gets one diagnostic
naming what was found and where, with the ``[rust.wrappers]`` line that declares the form;
the declared forms (``"string"``, ``"integer"``, ``"integer-enum"``, ``"bitflags"``, a Rust
type) give the wire type; ``serde_repr`` enums are integer enums of their discriminants with
no declaration.  Each accepting case has a rejecting twin.
"""

from __future__ import annotations

from pathlib import Path

from codegen import ir
from codegen.pipeline import load_protocol
from tests.frontends.test_rust_paths import _load

URI = """use serde::{Deserialize, Serialize};

pub struct Uri(String);

impl Serialize for Uri {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

#[derive(Serialize, Deserialize)]
pub struct Link { pub target: Uri, pub again: Uri, pub flags: Flags, pub kind: Kind }

bitflags::bitflags! {
    pub struct Flags: u16 {
        const A = 1;
        const B = 2;
    }
}

#[repr(u8)]
pub enum Kind { Zero, Two = 2, Three }
"""


def _spec_with_wrappers(tmp_path: Path, wrappers: str) -> tuple[ir.Protocol, list[str]]:
    _load(tmp_path, {"src/lib.rs": URI})  # writes the spec
    toml = tmp_path / "spec" / "spec.toml"
    toml.write_text(
        toml.read_text(encoding="utf-8") + "[rust.wrappers]\n" + wrappers,
        encoding="utf-8",
    )
    outcome = load_protocol(toml.parent, toml.parent)
    assert outcome.protocol is not None
    return outcome.protocol, [d.headline() for d in outcome.diags.errors()]


def _field(protocol: ir.Protocol, name: str) -> ir.TypeExpr:
    link = next(d for d in protocol.decls if d.name == "Link")
    assert isinstance(link, ir.StructDecl)
    return next(f for f in link.fields if f.name == name).type


def test_undeclared_wire_forms_say_what_was_found(tmp_path: Path) -> None:
    _, errors, _ = _load(tmp_path, {"src/lib.rs": URI})
    uri = [e for e in errors if "`Uri`" in e]
    assert len(uri) == 1, errors  # once per type, not at every use
    assert "`Uri` is defined at src/lib.rs:3:1" in uri[0]
    assert "hand-written (a hand-written Serialize impl at src/lib.rs:5:1)" in uri[0]
    assert '[rust.wrappers] Uri = "string"' in uri[0]
    assert any("`Flags` is defined at" in e and "bitflags!" in e for e in errors)
    assert any('Flags = "bitflags"' in e for e in errors)
    assert any("`Kind` is defined at" in e and "derives neither" in e for e in errors)
    assert not any("REF001" in e for e in errors), errors  # never "not defined"


def test_declared_wire_forms_are_used(tmp_path: Path) -> None:
    protocol, errors = _spec_with_wrappers(
        tmp_path,
        'Uri = "string"\nFlags = "bitflags"\nKind = "integer-enum"\n',
    )
    assert not errors, errors
    assert _field(protocol, "target") == ir.Primitive(ir.PrimitiveKind.STRING)
    flags = _field(protocol, "flags")
    assert isinstance(flags, ir.Primitive) and flags.kind is ir.PrimitiveKind.INTEGER
    assert flags.constraints.maximum == 65535  # u16
    assert _field(protocol, "kind") == ir.InlineUnion(
        (ir.Literal(0), ir.Literal(2), ir.Literal(3))
    )


def test_a_rust_type_as_the_declared_form(tmp_path: Path) -> None:
    protocol, errors = _spec_with_wrappers(
        tmp_path,
        'Uri = "Vec<String>"\nFlags = "integer"\nKind = "u8"\n',
    )
    assert not errors, errors
    assert _field(protocol, "target") == ir.ArrayOf(
        ir.Primitive(ir.PrimitiveKind.STRING)
    )
    kind = _field(protocol, "kind")
    assert isinstance(kind, ir.Primitive) and kind.constraints.maximum == 255


def test_an_unknown_form_word_is_a_config_error(tmp_path: Path) -> None:
    """Rejecting twin: a lowercase word that is no form and no Rust primitive."""
    _load(tmp_path, {"src/lib.rs": URI})
    toml = tmp_path / "spec" / "spec.toml"
    text = toml.read_text(encoding="utf-8") + '[rust.wrappers]\nUri = "strng"\n'
    toml.write_text(text, encoding="utf-8")
    outcome = load_protocol(toml.parent, toml.parent)
    errors = [d.headline() for d in outcome.diags.errors()]
    assert outcome.protocol is None
    assert any("CFG002" in e and "strng" in e for e in errors), errors


REPR = """use serde_repr::{Deserialize_repr, Serialize_repr};

#[derive(Serialize_repr, Deserialize_repr)]
#[repr(u8)]
pub enum Level { Low = 1, Mid, High = 0x10 }

#[derive(serde::Serialize, serde::Deserialize)]
pub struct Holder { pub level: Level }
"""


def test_serde_repr_is_an_integer_enum(tmp_path: Path) -> None:
    protocol, errors, _ = _load(tmp_path, {"src/lib.rs": REPR})
    assert not errors, errors
    level = next(d for d in protocol.decls if d.name == "Level")
    assert isinstance(level, ir.EnumDecl) and level.base is ir.EnumBase.INTEGER
    assert [(m.name, m.value) for m in level.members] == [
        ("Low", 1),
        ("Mid", 2),
        ("High", 16),
    ]


def test_serde_repr_with_a_computed_discriminant_is_any_integer(tmp_path: Path) -> None:
    """Rejecting twin: a discriminant that is not a literal is not guessed."""
    lib = REPR.replace("High = 0x10", "High = BASE + 1")
    protocol, _, every = _load(tmp_path, {"src/lib.rs": lib})
    assert any("Level::High" in h and "SER003" in h for h in every), every
    level = next(d for d in protocol.decls if d.name == "Level")
    assert isinstance(level, ir.AliasDecl)
