"""Rust method evidence, each form with its rejecting twin (issue 29): trait impls with
``const METHOD`` and associated ``Params``/``Result`` types, ``macro_rules!`` tables the
crate defines and invokes, routing enums whose payloads are ``Box``ed."""

from __future__ import annotations

from pathlib import Path

from tests.methods.support import codes, load, messages, table

SOURCE = (Path(__file__).parent / "fixtures" / "impls.rs").read_text()


def test_trait_impls_and_macro_tables_are_methods(tmp_path: Path) -> None:
    out = load(tmp_path, "rust", SOURCE)
    assert table(out) == {
        "doc/lookup": "request client → server LookupParams Entry[] | null",
        "doc/changed": "notification client → server ChangedParams -",
        "shutdown": "request client → server none none",
        "doc/find": "request client → server LookupParams Entry[]",
        "doc/count": "request client → server LookupParams integer",
    }
    notes = messages(out, "MTH009")
    assert sum("names no role" in n for n in notes) == 5
    assert [c for c in codes(out, "MTH", "REF") if c != "MTH009"] == []


def test_a_trait_naming_a_role_gives_the_sender(tmp_path: Path) -> None:
    source = SOURCE.replace("impl Request for Lookup", "impl ServerRequest for Lookup")
    out = load(tmp_path, "rust", source)
    assert table(out)["doc/lookup"].startswith("request server → client")


def test_an_undeclared_associated_type_is_an_error(tmp_path: Path) -> None:
    source = SOURCE.replace("Option<Vec<Entry>>", "Option<Vec<Entri>>")
    out = load(tmp_path, "rust", source)
    assert any("Entri" in m for m in messages(out, "MTH010"))


def test_a_macro_entry_not_matching_its_matcher_is_not_read(tmp_path: Path) -> None:
    source = SOURCE.replace(
        'Count => "doc/count", LookupParams, u32;', 'Count => "doc/count", u32;'
    )
    out = load(tmp_path, "rust", source)
    assert "doc/count" not in table(out) and "doc/find" in table(out)


def test_two_declarations_disagreeing_are_an_error_naming_both(
    tmp_path: Path,
) -> None:
    source = SOURCE.replace(
        'Find => "doc/find", LookupParams, Vec<Entry>;',
        'Find => "doc/lookup", LookupParams, Vec<Entry>;',
    )
    out = load(tmp_path, "rust", source)
    conflicts = messages(out, "MTH006")
    assert any(
        "impl Request for Lookup" in m and "requests! entry" in m for m in conflicts
    ), conflicts


ROUTED = """
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize)]
pub struct LookupRequest {
    pub word: String,
}

#[derive(Serialize, Deserialize)]
pub struct LookupResponse {
    pub words: Vec<String>,
}

#[derive(Serialize, Deserialize)]
#[serde(untagged)]
pub enum ClientRequest {
    LookupRequest(Box<LookupRequest>),
}

impl ClientRequest {
    pub fn method(&self) -> &str {
        match self {
            Self::LookupRequest(_) => "doc/lookup",
        }
    }
}

pub const SERVER_METHOD_NAMES: ServerMethodNames = ServerMethodNames {
    lookup: "doc/lookup",
};

pub struct ServerMethodNames {
    pub lookup: &'static str,
}
"""


def test_a_boxed_routing_payload_is_its_payload(tmp_path: Path) -> None:
    out = load(tmp_path, "rust", ROUTED)
    assert table(out) == {
        "doc/lookup": "request client → server LookupRequest LookupResponse"
    }
    assert "REF001" not in codes(out, "REF")


def test_an_unboxed_name_that_is_not_declared_is_still_an_error(
    tmp_path: Path,
) -> None:
    source = ROUTED.replace("Box<LookupRequest>", "Box<LookupRequst>")
    out = load(tmp_path, "rust", source)
    assert "REF001" in codes(out, "REF") or "MTH003" in codes(out)
