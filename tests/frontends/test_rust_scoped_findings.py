"""Findings scoped to what they affect (``rust.scope``): a broken type no method and no
``[spec] types`` entry reaches is a warning naming what it would break, and the spec still
generates; the same finding in a reached type stays an error (the rejecting twins).
"""

from __future__ import annotations

from pathlib import Path

from codegen.pipeline import load_protocol
from tests.frontends.test_rust_paths import _load

LIB = """use serde::{Deserialize, Serialize};

pub const PING: &str = "ping";

#[derive(Serialize, Deserialize)]
#[schemars(extend("x-side" = "agent", "x-method" = PING))]
pub struct PingRequest { pub n: u8 }

#[derive(Serialize, Deserialize)]
#[schemars(extend("x-side" = "agent", "x-method" = PING))]
pub struct PingResponse { pub n: u8 }

#[derive(Serialize, Deserialize)]
pub struct Inner { pub commands: Vec<String> }

#[derive(Serialize, Deserialize)]
pub struct Outer {
    pub commands: Vec<String>,
    #[serde(flatten)]
    pub inner: Inner,
}

#[derive(Serialize, Deserialize)]
pub struct Wrapper { pub outer: Outer, pub odd: Mystery::Thing }
"""


def test_a_broken_type_nothing_reaches_is_a_warning(tmp_path: Path) -> None:
    protocol, errors, every = _load(tmp_path, {"src/lib.rs": LIB})
    assert not errors, errors
    clash = [h for h in every if "STR001" in h]
    assert clash and "warning[STR001]" in clash[0], every
    assert "no method or [spec] types reaches Outer" in clash[0]
    assert "it would break Outer and what uses it (Wrapper)" in clash[0]
    assert any("warning[SYN003]" in h and "Mystery::Thing" in h for h in every)
    assert {"Outer", "Wrapper", "PingRequest"} <= {d.name for d in protocol.decls}


def test_the_same_finding_in_a_reached_type_is_an_error(tmp_path: Path) -> None:
    lib = LIB.replace(
        "pub struct PingRequest { pub n: u8 }",
        "pub struct PingRequest { pub w: Wrapper }",
    )
    _, errors, _ = _load(tmp_path, {"src/lib.rs": lib})
    assert any("error[STR001]" in e and "Outer" in e for e in errors), errors
    assert any("error[SYN003]" in e and "Mystery::Thing" in e for e in errors), errors


def test_a_requested_type_is_reached(tmp_path: Path) -> None:
    _load(tmp_path, {"src/lib.rs": LIB})
    toml = tmp_path / "spec" / "spec.toml"
    text = toml.read_text(encoding="utf-8").replace(
        "[rust]", 'types = ["Outer"]\n[rust]'
    )
    toml.write_text(text, encoding="utf-8")
    outcome = load_protocol(toml.parent, toml.parent)
    errors = [d.headline() for d in outcome.diags.errors()]
    assert any("error[STR001]" in e for e in errors), errors
    # Wrapper is still not reached: its unknown type stays a warning
    assert not any("SYN003" in e for e in errors), errors
