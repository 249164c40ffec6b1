"""One-file specs in any language, loaded through the whole pipeline, for method tests."""

from __future__ import annotations

from pathlib import Path

from codegen import ir
from codegen.methods.resolver import type_text
from codegen.pipeline import SpecOutcome, load_protocol

_FILES = {
    "typescript": "input.ts",
    "rust": "lib.rs",
    "go": "input.go",
    "prose": "spec.md",
}


def load(
    tmp_path: Path,
    language: str,
    source: str,
    extra_toml: str = "",
    roles: tuple[str, str] = ("client", "server"),
    spec_id: str = "t",
) -> SpecOutcome:
    name = _FILES[language]
    (tmp_path / "spec.toml").write_text(
        f'[spec]\nid = "{spec_id}"\nlanguage = "{language}"\nsources = ["{name}"]\n'
        f'roles = ["{roles[0]}", "{roles[1]}"]\n' + extra_toml,
        encoding="utf-8",
    )
    (tmp_path / name).write_text(source, encoding="utf-8")
    return load_protocol(tmp_path, repo_root=tmp_path)


def table(outcome: SpecOutcome) -> dict[str, str]:
    """wire → "kind direction params result" (``-`` for a notification's result)."""
    assert outcome.protocol is not None
    return {m.wire_name: row(m) for m in outcome.protocol.methods}


def row(method: ir.Method) -> str:
    params = type_text(method.params) + ("?" if method.params_optional else "")
    result = type_text(method.result) if method.kind is ir.MethodKind.REQUEST else "-"
    return f"{method.kind.value} {method.direction.arrow()} {params} {result}"


def codes(outcome: SpecOutcome, *prefixes: str) -> list[str]:
    return [
        d.code for d in outcome.diags.items if d.code.startswith(prefixes or ("MTH",))
    ]


def messages(outcome: SpecOutcome, code: str) -> list[str]:
    return [d.message for d in outcome.diags.items if d.code == code]
