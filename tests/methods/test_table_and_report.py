"""The ``[methods]`` table in each language's own type syntax, ``method = false``, the
"no methods" error (MTH011) and ``codegen check --methods`` (issue 29)."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from codegen.cli.commands import app
from tests.methods.support import codes, load, messages, table

_GO = """package p

type Entry struct {
\tWord string `json:"word"`
}

type LookupParams struct {
\tWord string `json:"word"`
}
"""

_GO_TABLE = """
[methods."doc/lookup"]
kind = "request"
direction = "client <-> server"
params = "LookupParams"
result = "[]Entry"

[methods."doc/ping"]
kind = "notification"
direction = "server -> client"
params = ""

[methods."doc/find"]
kind = "request"
direction = "client → server"
params = "*LookupParams"
result = "map[string]*Entry"
"""


def test_a_go_spec_declares_methods_in_go_syntax(tmp_path: Path) -> None:
    out = load(tmp_path, "go", _GO, _GO_TABLE)
    assert table(out) == {
        "doc/lookup": "request client ↔ server LookupParams Entry[]",
        "doc/ping": "notification server → client none -",
        "doc/find": "request client → server LookupParams | null map<Entry | null>",
    }
    assert [c for c in codes(out) if c not in ("MTH008",)] == []


def test_an_undeclared_or_malformed_type_text_is_an_error(tmp_path: Path) -> None:
    bad = _GO_TABLE.replace('result = "[]Entry"', 'result = "[]Entri"').replace(
        'params = "*LookupParams"', 'params = "LookupParams]["'
    )
    out = load(tmp_path, "go", _GO, bad)
    assert any("'Entri' is not declared" in m for m in messages(out, "MTH005"))
    assert any("LookupParams][" in m for m in messages(out, "CFG002"))


_TS = """
export interface Entry { word: string }
export interface LookupParams { word: string }
export interface LookupRequest { method: 'doc/lookup'; params: LookupParams }
export interface EmbeddedRequest { method: 'inner/call' }
export type ClientRequest = LookupRequest | EmbeddedRequest;
"""


def test_ts_result_in_ts_syntax_and_method_false(tmp_path: Path) -> None:
    entries = (
        '[methods."doc/lookup"]\nresult = "Entry[] | null"\n'
        '[methods."inner/call"]\nmethod = false\n'
    )
    out = load(tmp_path, "typescript", _TS, entries)
    assert table(out) == {
        "doc/lookup": "request client → server LookupParams Entry[] | null"
    }
    assert codes(out) == []


def test_method_false_naming_nothing_is_stale(tmp_path: Path) -> None:
    entries = (
        '[methods."doc/lookup"]\nresult = "Entry"\n'
        '[methods."inner/call"]\nmethod = false\n'
        '[methods."never/seen"]\nmethod = false\n'
    )
    out = load(tmp_path, "typescript", _TS, entries)
    assert any("never/seen" in m for m in messages(out, "MTH005"))
    assert "inner/call" not in table(out)


def test_rust_syntax_reads_option_vec(tmp_path: Path) -> None:
    from codegen.methods.type_syntax import SyntaxProblem, read_type

    expr = read_type("Option<Vec<Box<Entry>>>", "rust", {"Entry"})
    assert not isinstance(expr, SyntaxProblem) and expr is not None
    from codegen.methods.resolver import type_text

    assert type_text(expr) == "Entry[] | null"
    assert read_type("()", "rust", set()) is None
    assert isinstance(read_type("Vec<Entry", "rust", {"Entry"}), SyntaxProblem)


_NO_METHODS_GO = _GO + """
const (
\tLookup = "doc/lookup"
\tFind   = "doc/find"
)
"""


def test_a_jsonrpc_spec_with_method_like_strings_but_no_methods_is_an_error(
    tmp_path: Path,
) -> None:
    out = load(tmp_path, "go", _NO_METHODS_GO)
    [error] = messages(out, "MTH011")
    assert "input.go:12:" in error and "'doc/lookup'" in error and "'doc/find'" in error
    assert '[methods."doc/lookup"]' in error
    assert "MTH008" not in codes(out)


def test_a_spec_of_types_alone_is_only_warned(tmp_path: Path) -> None:
    out = load(tmp_path, "go", _GO)
    assert "MTH008" in codes(out) and "MTH011" not in codes(out)


def test_a_go_comment_declares_a_method_constant(tmp_path: Path) -> None:
    source = _NO_METHODS_GO.replace(
        '\tLookup = "doc/lookup"', '\tLookup = "doc/lookup" // client → server request'
    )
    out = load(tmp_path, "go", source, '[methods."doc/lookup"]\nresult = "Entry"\n')
    rows = table(out)
    assert rows == {"doc/lookup": "request client → server LookupParams Entry"}


def test_a_typed_enum_constant_is_never_a_method(tmp_path: Path) -> None:
    source = _GO + (
        '\ntype Kind string\n\nconst (\n\tMethodA Kind = "a/b"\n'
        '\tMethodC Kind = "c/d"\n)\n'
    )
    out = load(tmp_path, "go", source)
    assert out.protocol is not None and out.protocol.methods == ()
    assert any(d.name == "Kind" for d in out.protocol.decls)


def test_check_methods_prints_the_table_with_evidence(tmp_path: Path) -> None:
    spec = tmp_path / "spec"
    spec.mkdir()
    load(spec, "typescript", _TS, '[methods."inner/call"]\nmethod = false\n')
    (tmp_path / "pyproject.toml").write_text("[tool.codegen]\n", encoding="utf-8")
    result = CliRunner().invoke(
        app,
        ["check", str(spec), "--methods", "--config", str(tmp_path / "pyproject.toml")],
    )
    text = result.output
    assert "doc/lookup" in text, text
    assert "params: interface LookupRequest" in text


_RUST_TYPES = """use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize)]
pub struct Entry {
    pub name: String,
}
"""

_RUST_TEST_MODULE = """
#[cfg(test)]
mod tests {
    #[test]
    fn names() {
        assert_eq!(route("doc/lookup"), 1);
    }
}
"""


def test_strings_in_code_rust_does_not_compile_are_no_evidence(tmp_path: Path) -> None:
    # A #[cfg(test)] module is not part of the crate rustc builds: its strings say nothing
    # about the protocol, so a types-only crate is only warned (MTH008).
    out = load(tmp_path, "rust", _RUST_TYPES + _RUST_TEST_MODULE)
    assert "MTH008" in codes(out) and "MTH011" not in codes(out)
    # A #[test] function outside a test module is built by `cargo test` alone, too.
    bare = _RUST_TEST_MODULE.replace("#[cfg(test)]\nmod tests {", "").rstrip()[:-1]
    out = load(tmp_path, "rust", _RUST_TYPES + bare)
    assert "MTH008" in codes(out) and "MTH011" not in codes(out)


def test_the_same_string_in_compiled_rust_code_is_evidence(tmp_path: Path) -> None:
    compiled = _RUST_TEST_MODULE.replace("#[cfg(test)]\n", "").replace("#[test]\n", "")
    out = load(tmp_path, "rust", _RUST_TYPES + compiled)
    [error] = messages(out, "MTH011")
    assert "'doc/lookup'" in error
