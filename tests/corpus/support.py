"""The real-world corpus specs (../shared/corpus), loaded and generated once per session.

Each folder under ``tests/corpus/specs/`` is a spec.toml whose sources point into
``../shared/corpus`` untouched: MCP at its four revisions and AHP at upstream 975f041 (all
48 non-test ``.ts`` files of ``types/``).  ``generate`` renders a spec's Python package
into a session folder and imports it.
"""

from __future__ import annotations

import importlib
import sys
from functools import cache
from pathlib import Path
from types import ModuleType

import pytest

from codegen.pipeline import SpecOutcome, load_protocol, render_outputs

REPO = Path(__file__).resolve().parent.parent.parent
CORPUS = REPO.parent / "shared" / "corpus"
SPECS_DIR = Path(__file__).resolve().parent / "specs"
SPECS = sorted(p.name for p in SPECS_DIR.iterdir() if (p / "spec.toml").is_file())
MCP_REVISIONS = [s for s in SPECS if s.startswith("mcp-")]

needs_corpus = pytest.mark.skipif(
    not CORPUS.is_dir(), reason="../shared/corpus is not beside the checkout"
)


@cache
def outcome(spec: str) -> SpecOutcome:
    return load_protocol(SPECS_DIR / spec, REPO)


def generate(spec: str, root: Path) -> tuple[Path, ModuleType]:
    """Render the spec's package under ``root/<spec>/`` and import it."""
    result = outcome(spec)
    assert result.protocol is not None and result.config is not None
    out = root / spec
    if not out.exists():
        for rel, text in render_outputs(result.protocol, result.config).items():
            path = out / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    python_dir = str(out / "python")
    if python_dir not in sys.path:
        sys.path.insert(0, python_dir)
    package = importlib.import_module(result.config.python_package)
    return out / "python" / result.config.python_package, package


@pytest.fixture(scope="session")
def corpus_out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("corpus")
