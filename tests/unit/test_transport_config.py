"""[transport] in spec.toml is validated: an unknown kind, framing or key is a CFG002 error
naming the nearest known one, never a silent fallback to another envelope."""

from __future__ import annotations

from pathlib import Path

import pytest

from codegen.diagnostics import Diagnostics
from codegen.spec.config import load_config


def _load(tmp_path: Path, transport: str) -> tuple[object, list[str]]:
    (tmp_path / "pyproject.toml").write_text("")
    folder = tmp_path / "specs/x"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "a.ts").write_text("export interface A { x: string }\n")
    (folder / "spec.toml").write_text(
        f'[spec]\nlanguage = "typescript"\nsources = ["a.ts"]\n\n[transport]\n{transport}\n',
        encoding="utf-8",
    )
    diags = Diagnostics()
    config = load_config(folder, diags, tmp_path)
    return config, [f"{d.code}: {d.message}" for d in diags.items]


@pytest.mark.parametrize(
    ("transport", "kind", "framings"),
    [
        (
            'kind = "jsonrpc-2.0"\nframings = ["ndjson-stdio", "websocket"]',
            "jsonrpc-2.0",
            ("ndjson-stdio", "websocket"),
        ),
        (
            'kind = "http-post-envelope"\nframings = ["http-post"]',
            "http-post-envelope",
            ("http-post",),
        ),
        ("", "jsonrpc-2.0", ()),
    ],
)
def test_known_kinds_and_framings_load(
    tmp_path: Path, transport: str, kind: str, framings: tuple[str, ...]
) -> None:
    config, problems = _load(tmp_path, transport)
    assert not problems
    assert config.transport_kind == kind
    assert config.framings == framings


def test_an_unknown_kind_is_an_error_with_a_suggestion(tmp_path: Path) -> None:
    config, problems = _load(tmp_path, 'kind = "jsonrpc2"')
    assert config is None
    assert len(problems) == 1 and problems[0].startswith("CFG002: transport.kind")
    assert "'jsonrpc2'" in problems[0] and "did you mean 'jsonrpc-2.0'" in problems[0]


def test_an_unknown_framing_is_an_error_with_a_suggestion(tmp_path: Path) -> None:
    config, problems = _load(tmp_path, 'framings = ["ndjson-stdio", "websockets"]')
    assert config is None
    assert len(problems) == 1 and "'websockets'" in problems[0]
    assert "did you mean 'websocket'" in problems[0]


def test_an_unknown_key_is_an_error(tmp_path: Path) -> None:
    config, problems = _load(
        tmp_path, 'kind = "jsonrpc-2.0"\nframing = ["ndjson-stdio"]'
    )
    assert config is None
    assert len(problems) == 1 and "'framing'" in problems[0]
    assert "did you mean 'framings'" in problems[0]


def test_a_kind_that_is_not_a_string_is_an_error(tmp_path: Path) -> None:
    config, problems = _load(tmp_path, "kind = 2")
    assert config is None and "transport.kind" in problems[0] and "2" in problems[0]
