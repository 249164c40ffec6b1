"""``[spec] types`` naming a type the sources do not give is REF005 at the name's own place
in spec.toml (with the closest generated name), never a silent no-op."""

from __future__ import annotations

from pathlib import Path

import pytest

from codegen.pipeline import load_protocol

SOURCES = {
    "typescript": ("a.ts", "export interface Options { level?: string }\n"),
    "go": (
        "a.go",
        'package p\n\ntype Options struct {\n\tLevel string `json:"level"`\n}\n',
    ),
}


def _findings(tmp_path: Path, language: str, types: str) -> list[str]:
    name, text = SOURCES[language]
    spec = tmp_path / "s"
    spec.mkdir()
    (spec / name).write_text(text, encoding="utf-8")
    (spec / "spec.toml").write_text(
        f'[spec]\nid = "s"\nlanguage = "{language}"\nsources = ["{name}"]\n'
        f"types = {types}\n\n"
        '[transport]\nkind = "http-post-envelope"\nframings = ["http-post"]\n',
        encoding="utf-8",
    )
    outcome = load_protocol(spec, tmp_path)
    return [
        f"{d.span.line}:{d.span.col} {d.message}"
        for d in outcome.diags.items
        if d.code == "REF005"
    ]


@pytest.mark.parametrize("language", sorted(SOURCES))
def test_a_requested_type_the_sources_lack_is_reported_where_it_is_named(
    tmp_path: Path, language: str
) -> None:
    found = _findings(tmp_path, language, '["Options", "Optons"]')
    assert len(found) == 1, found
    assert found[0].startswith("5:21 ") and "'Optons'" in found[0]
    assert "did you mean 'Options'?" in found[0]


@pytest.mark.parametrize("language", sorted(SOURCES))
def test_a_requested_type_the_sources_give_is_not_reported(
    tmp_path: Path, language: str
) -> None:
    assert _findings(tmp_path, language, '["Options"]') == []
