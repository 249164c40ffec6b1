"""The spec under test: its config, IR, generated package, schema and source files.

Phase: verification (``make oracle``).
Inputs: a spec id and the repository root (``specs/<id>/``, ``generated/<id>/``).
Outputs: a ``Subject``: config, normalized IR, the imported bindings package, the schema
bundle and its ``$defs``, the source files, and the official schema from
``../shared/corpus`` when the spec has one (``official_schema``).
Guarantees: the bindings are imported from ``generated/<id>/python`` (what users vendor),
never regenerated here; a spec that does not load is an error with its diagnostics.
"""

from __future__ import annotations

import importlib
import json
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from codegen import ir
from codegen.pipeline import load_protocol
from codegen.spec.config import SpecConfig

# Official schemas of the seed specs (the corpus folders of specs read from the corpus are
# found from their source paths: ``schema.json`` or ``protocol.schema.json`` beside them).
OFFICIAL_FILE = Path("tests/oracle/official_schemas.toml")
_OFFICIAL_NAMES = ("schema.json", "protocol.schema.json")


@dataclass(frozen=True)
class Subject:
    id: str
    repo: Path
    config: SpecConfig
    protocol: ir.Protocol
    package: ModuleType
    bundle: dict[str, Any]
    official: tuple[str, dict[str, Any]] | None  # (repo-relative path, schema)

    @property
    def defs(self) -> dict[str, Any]:
        defs: dict[str, Any] = self.bundle.get("$defs", {})
        return defs

    @property
    def language(self) -> str:
        return self.config.language

    def source_paths(self) -> list[Path]:
        return self.config.source_paths()


class SubjectError(Exception):
    """The spec does not load or has no generated bindings."""


def load_subject(spec: str, repo: Path) -> Subject:
    outcome = load_protocol(repo / "specs" / spec, repo)
    if outcome.config is None or outcome.protocol is None:
        problems = "; ".join(str(d.message) for d in outcome.diags.items[:5])
        raise SubjectError(f"spec {spec!r} does not load: {problems}")
    config = outcome.config
    python_dir = repo / "generated" / spec / "python"
    schema_path = repo / "generated" / spec / "schema" / f"{spec}.schema.json"
    if not python_dir.is_dir() or not schema_path.is_file():
        raise SubjectError(
            f"spec {spec!r} has no generated output: run `make generate`"
        )
    if str(python_dir) not in sys.path:
        sys.path.insert(0, str(python_dir))
    package = importlib.import_module(config.python_package)
    bundle = json.loads(schema_path.read_text(encoding="utf-8"))
    return Subject(
        spec,
        repo,
        config,
        outcome.protocol,
        package,
        bundle,
        _official_schema(spec, config, repo),
    )


def _official_schema(
    spec: str, config: SpecConfig, repo: Path
) -> tuple[str, dict[str, Any]] | None:
    path: Path | None = None
    table = repo / OFFICIAL_FILE
    if table.is_file():
        entry = tomllib.loads(table.read_text(encoding="utf-8")).get(spec)
        if isinstance(entry, str):
            path = (repo / entry).resolve()
    if path is None:
        path = _beside_sources(config, repo)
    if path is None or not path.is_file():
        return None
    try:
        rel = path.relative_to(repo.resolve().parent)
        shown = f"../{rel.as_posix()}"
    except ValueError:
        shown = path.name
    return shown, json.loads(path.read_text(encoding="utf-8"))


def _beside_sources(config: SpecConfig, repo: Path) -> Path | None:
    """``schema.json`` in the corpus version folder a spec's sources come from."""
    corpus = (repo.parent / "shared" / "corpus").resolve()
    for source in config.source_paths():
        resolved = source.resolve()
        if corpus not in resolved.parents:
            continue
        version_dir = corpus / Path(*resolved.relative_to(corpus).parts[:2])
        for name in _OFFICIAL_NAMES:
            if (version_dir / name).is_file():
                return version_dir / name
    return None
