"""Build a one-file TypeScript spec in a temporary directory and run frontend + passes on it."""

from __future__ import annotations

from pathlib import Path

from codegen.pipeline import SpecOutcome, load_protocol


def load_ts(tmp_path: Path, source: str, extra_toml: str = "") -> SpecOutcome:
    (tmp_path / "spec.toml").write_text(
        '[spec]\nid = "t"\nlanguage = "typescript"\nsources = ["input.ts"]\n'
        + extra_toml,
        encoding="utf-8",
    )
    (tmp_path / "input.ts").write_text(source, encoding="utf-8")
    return load_protocol(tmp_path, repo_root=tmp_path)
