"""``bitflags!`` types whose serde form the code makes certain (``rust.bitflags``): serde's
derive written inside a bitflags 1 macro (Debian packages bitflags 1.3.2, whose own test
writes ``{"bits":3}``) is the object ``{"bits": n}`` of the declared width, or with
``#[serde(transparent)]`` the integer.  Rejecting twins: with no derive inside, or with a
Cargo.toml asking for bitflags 2 (which writes flag names), the type keeps the
"declare its wire form" diagnostic.
"""

from __future__ import annotations

from pathlib import Path

from codegen import ir
from tests.frontends.test_rust_paths import _load

FLAGS = """use serde::{{Deserialize, Serialize}};

bitflags::bitflags! {{
    /// The modes.
    {attrs}
    pub struct Mode: u16 {{
        const READ = 1;
        const WRITE = 2;
    }}
}}

#[derive(Serialize, Deserialize)]
pub struct File {{ pub mode: Mode }}
"""
DERIVED = "#[derive(Serialize, Deserialize)]"
CARGO = '[package]\nname = "x"\nversion = "0.1.0"\n[dependencies]\nbitflags = "{v}"\n'


def _decl(protocol: ir.Protocol, name: str) -> ir.Decl:
    return next(d for d in protocol.decls if d.name == name)


def test_a_derive_inside_the_macro_is_the_bits_object(tmp_path: Path) -> None:
    protocol, errors, _ = _load(tmp_path, {"src/lib.rs": FLAGS.format(attrs=DERIVED)})
    assert not errors, errors
    mode = _decl(protocol, "Mode")
    assert isinstance(mode, ir.StructDecl)
    assert [f.wire_name for f in mode.fields] == ["bits"]
    bits = mode.fields[0].type
    assert isinstance(bits, ir.Primitive) and bits.kind is ir.PrimitiveKind.INTEGER
    assert bits.constraints.maximum == 65535  # u16
    assert mode.array_form == (("bits", False),)  # serde reads a struct from [n] too
    file = _decl(protocol, "File")
    assert isinstance(file, ir.StructDecl) and file.fields[0].type == ir.Ref("Mode")


def test_transparent_is_the_integer(tmp_path: Path) -> None:
    attrs = DERIVED + "\n    #[serde(transparent)]"
    protocol, errors, _ = _load(tmp_path, {"src/lib.rs": FLAGS.format(attrs=attrs)})
    assert not errors, errors
    mode = _decl(protocol, "Mode")
    assert isinstance(mode, ir.AliasDecl)
    assert isinstance(mode.target, ir.Primitive)
    assert mode.target.constraints.maximum == 65535


def test_bitflags_1_in_cargo_toml_is_the_same_form(tmp_path: Path) -> None:
    files = {
        "Cargo.toml": CARGO.format(v="1.3"),
        "src/lib.rs": FLAGS.format(attrs=DERIVED),
    }
    protocol, errors, _ = _load(tmp_path, files)
    assert not errors, errors
    assert isinstance(_decl(protocol, "Mode"), ir.StructDecl)


def test_no_derive_inside_keeps_the_diagnostic(tmp_path: Path) -> None:
    _, errors, _ = _load(tmp_path, {"src/lib.rs": FLAGS.format(attrs="")})
    assert any("`Mode` is defined at" in e and "bitflags!" in e for e in errors), errors


def test_bitflags_2_keeps_the_diagnostic(tmp_path: Path) -> None:
    files = {
        "Cargo.toml": CARGO.format(v="2.4"),
        "src/lib.rs": FLAGS.format(attrs=DERIVED),
    }
    _, errors, _ = _load(tmp_path, files)
    assert any("`Mode` is defined at" in e and 'Mode = "bitflags"' in e for e in errors)
