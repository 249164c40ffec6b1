"""Multi-file TypeScript specs in a temporary folder: read them, render and import the
package, feed wire values to its models."""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from pydantic import TypeAdapter, ValidationError

from codegen.pipeline import SpecOutcome, load_protocol, render_outputs


def load(
    tmp_path: Path, files: dict[str, str], toml: str = "", name: str = "t"
) -> SpecOutcome:
    spec = tmp_path / name
    spec.mkdir(parents=True, exist_ok=True)
    sources = ", ".join(json.dumps(rel) for rel in files)
    (spec / "spec.toml").write_text(
        f'[spec]\nid = "{name}"\nlanguage = "typescript"\nsources = [{sources}]\n'
        + toml,
        encoding="utf-8",
    )
    for rel, text in files.items():
        path = spec / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("utf-8"))
    return load_protocol(spec, spec)


def codes(outcome: SpecOutcome) -> list[str]:
    return [d.code for d in outcome.diags.errors()]


def build(
    tmp_path: Path, files: dict[str, str], toml: str = "", name: str = "t"
) -> ModuleType:
    outcome = load(tmp_path, files, toml, name)
    assert outcome.ok(), [d.headline() for d in outcome.diags.errors()]
    assert outcome.protocol is not None and outcome.config is not None
    out = tmp_path / f"out_{name}"
    for rel, text in render_outputs(outcome.protocol, outcome.config).items():
        path = out / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    package = outcome.config.python_package
    for loaded in [
        m for m in sys.modules if m == package or m.startswith(package + ".")
    ]:
        del sys.modules[loaded]
    sys.path.insert(0, str(out / "python"))
    importlib.invalidate_caches()
    try:
        module = importlib.import_module(package)
        importlib.import_module(package + ".models")
        return module
    finally:
        sys.path.remove(str(out / "python"))


def decl_names(outcome: SpecOutcome) -> set[str]:
    assert outcome.protocol is not None
    return {d.name for d in outcome.protocol.decls}


def decl(outcome: SpecOutcome, name: str) -> Any:
    assert outcome.protocol is not None
    return next(d for d in outcome.protocol.decls if d.name == name)


def accepts(kind: Any, value: Any) -> bool:
    adapter: TypeAdapter[Any] = TypeAdapter(kind)
    try:
        adapter.validate_json(json.dumps(value), by_name=False)
    except ValidationError:
        return False
    return True
