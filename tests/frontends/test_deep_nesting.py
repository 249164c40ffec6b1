"""Deep type nesting ends as a diagnostic from the frontend itself, never as a
RecursionError (issue 17): reachable chains thousands deep give SYN003 at the declaration;
realistic depth reads without a word; with the pipeline's internal-error net made to
re-raise, so that only the frontend's own bound can pass these tests.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from codegen import pipeline
from codegen.frontends.common.syntax import MAX_TYPE_NESTING


def _typescript(depth: int) -> tuple[str, str]:
    expr = "string"
    for _ in range(depth):
        expr = f"Array<{expr}>"
    text = f"""export interface OpenRequest {{ method: "open"; params: OpenParams }}
export interface OpenParams {{ deep: {expr} }}
export interface OpenResult {{ ok: boolean }}
export type ClientRequest = OpenRequest;
export type ServerResult = OpenResult;
"""
    return "input.ts", text


def _go(depth: int) -> tuple[str, str]:
    return "input.go", (
        "package p\n\n// OpenParams is sent with open.\ntype OpenParams struct {\n"
        f'\tDeep {"[]" * depth}string `json:"deep"`\n}}\n'
    )


def _rust(depth: int) -> tuple[str, str]:
    return "input.rs", (
        "use serde::{Deserialize, Serialize};\n\n"
        "#[derive(Serialize, Deserialize)]\npub struct OpenParams {\n"
        f"    pub deep: {'Vec<' * depth}String{'>' * depth},\n}}\n"
    )


LANGUAGES: dict[str, Callable[[int], tuple[str, str]]] = {
    "typescript": _typescript,
    "go": _go,
    "rust": _rust,
}


@pytest.fixture(autouse=True)
def _no_net(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    def reraise(_diags: object, error: Exception, _doing: str, _span: object) -> None:
        raise error

    monkeypatch.setattr(pipeline, "report_internal_error", reraise)
    yield


def _load(tmp_path: Path, language: str, depth: int) -> pipeline.SpecOutcome:
    tmp_path.mkdir(parents=True, exist_ok=True)
    name, text = LANGUAGES[language](depth)
    (tmp_path / name).write_text(text, encoding="utf-8")
    (tmp_path / "spec.toml").write_text(
        f'[spec]\nid = "deep"\nlanguage = "{language}"\nsources = ["{name}"]\n',
        encoding="utf-8",
    )
    return pipeline.load_protocol(tmp_path, tmp_path)


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_thousands_deep_is_a_diagnostic_at_the_declaration(
    tmp_path: Path, language: str
) -> None:
    outcome = _load(tmp_path, language, 5000)
    errors = outcome.diags.errors()
    assert any(e.code == "SYN003" and "deep" in e.message for e in errors), errors
    first = next(e for e in errors if e.code == "SYN003")
    assert first.span.file.endswith(LANGUAGES[language](1)[0])
    assert first.span.line > 1


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_realistic_depth_reads_and_renders_without_a_word(
    tmp_path: Path, language: str
) -> None:
    outcome = _load(tmp_path, language, 12)
    assert not outcome.diags.errors(), outcome.diags.errors()
    assert outcome.protocol is not None
    files = pipeline.render_protocol(
        outcome.protocol, outcome.config, tmp_path, tmp_path / "out"
    )
    assert any(path.endswith("models.py") for path in files)


@pytest.mark.parametrize("language", ["go", "rust", "typescript"])
def test_bound_is_exact(tmp_path: Path, language: str) -> None:
    at = _load(tmp_path / "at", language, MAX_TYPE_NESTING - 1)  # + string = the bound
    assert not at.diags.errors(), at.diags.errors()
    over = _load(tmp_path / "over", language, MAX_TYPE_NESTING)
    assert [e.code for e in over.diags.errors()] == ["SYN003"]
