"""spec.toml's ``[methods]`` table declares or corrects methods for every source language.

An entry naming a method the source declares corrects the facts it gives (MTH007 note);
a fact the source already states is stale (MTH005), as is a type name the spec does not
declare; an entry naming no method declares one (kind and direction required).  The same
table works for TypeScript, Rust, Go (either spelling) and prose specs.
"""

from __future__ import annotations

from pathlib import Path

from codegen import ir
from codegen.pipeline import SpecOutcome, load_protocol

GOLDEN = Path(__file__).resolve().parent.parent / "golden"


def _spec(
    tmp_path: Path, language: str, source_name: str, source: str, toml: str
) -> SpecOutcome:
    (tmp_path / source_name).write_text(source, encoding="utf-8")
    (tmp_path / "spec.toml").write_text(
        f'[spec]\nid = "t"\nlanguage = "{language}"\nsources = ["{source_name}"]\n'
        + toml,
        encoding="utf-8",
    )
    return load_protocol(tmp_path, tmp_path)


def _methods(outcome: SpecOutcome) -> dict[str, ir.Method]:
    assert outcome.protocol is not None
    return {m.wire_name: m for m in outcome.protocol.methods}


TS = """
/**
 * @method open
 * @direction Client → Server
 * @messageType Request
 */
export interface OpenParams { path: string }
export interface OpenResult { ok: boolean }
export interface Other { x: string }
"""


def test_typescript_declares_a_method(tmp_path: Path) -> None:
    toml = (
        '[methods."tick"]\nkind = "notification"\ndirection = "server → client"\n'
        'params = "Other"\nparams_optional = true\n'
    )
    outcome = _spec(tmp_path, "typescript", "input.ts", TS, toml)
    assert outcome.ok()
    tick = _methods(outcome)["tick"]
    assert tick.kind is ir.MethodKind.NOTIFICATION and tick.params_optional
    assert (tick.direction.sender, tick.params) == ("server", ir.Ref("Other"))


def test_typescript_corrects_a_method_with_a_note(tmp_path: Path) -> None:
    toml = '[methods."open"]\nresult = ["OpenResult", "Other"]\n'
    outcome = _spec(tmp_path, "typescript", "input.ts", TS, toml)
    assert outcome.ok()
    assert _methods(outcome)["open"].result == ir.InlineUnion(
        (ir.Ref("OpenResult"), ir.Ref("Other"))
    )
    assert [d.code for d in outcome.diags.items] == ["MTH007"]


def test_a_fact_the_source_states_is_stale(tmp_path: Path) -> None:
    toml = '[methods."open"]\ndirection = "client → server"\n'
    outcome = _spec(tmp_path, "typescript", "input.ts", TS, toml)
    assert [d.code for d in outcome.diags.errors()] == ["MTH005"]


def test_a_type_the_spec_lacks_is_an_error(tmp_path: Path) -> None:
    toml = '[methods."open"]\nresult = "Nope"\n'
    outcome = _spec(tmp_path, "typescript", "input.ts", TS, toml)
    assert [d.code for d in outcome.diags.errors()] == ["MTH005"]


def test_declaring_needs_kind_and_direction(tmp_path: Path) -> None:
    toml = '[methods."tick"]\nparams = "Other"\n'
    outcome = _spec(tmp_path, "typescript", "input.ts", TS, toml)
    assert [d.code for d in outcome.diags.errors()] == ["MTH005"]


def test_malformed_entries_are_config_errors(tmp_path: Path) -> None:
    toml = '[methods."x"]\nkind = "event"\nwhat = 1\n'
    outcome = _spec(tmp_path, "typescript", "input.ts", TS, toml)
    messages = [d.message for d in outcome.diags.errors()]
    assert messages == [
        "methods.x.kind must be one of request, notification, not 'event'",
        (
            "unknown key 'what' in [methods.x] (known: kind, direction, params, "
            "params_optional, result, docs, method)"
        ),
    ]


def test_a_direction_between_unknown_roles_is_an_error(tmp_path: Path) -> None:
    toml = '[methods."open"]\ndirection = "client → sideways"\n'
    outcome = _spec(tmp_path, "typescript", "input.ts", TS, toml)
    assert [d.code for d in outcome.diags.errors()] == ["CFG002"]


def test_rust_declares_a_method(tmp_path: Path) -> None:
    source = (GOLDEN / "rust" / "default" / "input.rs").read_text(encoding="utf-8")
    toml = (
        'roles = ["client", "agent"]\n[methods."defaults/set"]\nkind = "request"\n'
        'direction = "client → agent"\nparams = "Defaults"\n'
    )
    outcome = _spec(tmp_path, "rust", "input.rs", source, toml)
    method = _methods(outcome)["defaults/set"]
    assert method.params == ir.Ref("Defaults") and method.result is None
    assert "MTH008" not in [d.code for d in outcome.diags.items]


def test_prose_declares_a_method(tmp_path: Path) -> None:
    source = "# Doc\n\n```ts\ninterface Ping { at: number }\n```\n"
    toml = (
        'roles = ["client", "provider"]\n[methods."ping"]\nkind = "request"\n'
        'direction = "client → provider"\nparams = "Ping"\n'
    )
    outcome = _spec(tmp_path, "prose", "doc.md", source, toml)
    assert _methods(outcome)["ping"].params == ir.Ref("Ping")


def test_go_reads_both_spellings(tmp_path: Path) -> None:
    case = GOLDEN / "go" / "method_overrides"
    source = (case / "input.godoc.txt").read_text(encoding="utf-8")
    legacy = (case / "spec.toml").read_text(encoding="utf-8")
    toml = legacy.split("\n", 5)[-1].replace("[methods.overrides.", "[methods.")
    outcome = _spec(
        tmp_path,
        "go",
        "input.godoc.txt",
        source,
        'roles = ["host", "extension"]\n' + toml,
    )
    expected = load_protocol(case, case)
    assert sorted(d.code for d in outcome.diags.items) == sorted(
        d.code for d in expected.diags.items
    )
    assert _methods(outcome) == _methods(expected)
