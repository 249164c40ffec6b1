"""Specs written in each idiom generate with zero edits and their METHODS say the right
kind, direction, params and result (issue 29's "done when"): one spec per language, its
package rendered, imported and its method registry checked, results validated."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import Any

import pytest

from codegen.pipeline import render_outputs
from tests.methods.support import load
from tests.methods.test_typescript_evidence import _NAMESPACES

FIXTURES = Path(__file__).parent / "fixtures"
CASES = {
    "typescript": ("typescript", _NAMESPACES),
    "go": ("go", (FIXTURES / "dispatch.go").read_text()),
    "rust": ("rust", (FIXTURES / "impls.rs").read_text()),
    "prose": ("prose", (FIXTURES / "layouts.md").read_text()),
}
# language → wire → (kind, sender, receiver, both_ways, result sample accepted)
EXPECTED: dict[str, dict[str, tuple[str, str, str, bool, Any]]] = {
    "typescript": {
        "doc/lookup": ("request", "client", "server", False, {"word": "w"}),
        "doc/changed": ("notification", "server", "client", False, None),
        "shutdown": ("request", "client", "server", True, None),
    },
    "go": {
        "doc/lookup": ("request", "client", "server", False, [{"word": "w"}]),
        "ui/ask": ("request", "server", "client", False, {"answer": "a"}),
        "ui/changed": ("notification", "server", "client", False, None),
    },
    "rust": {
        "doc/lookup": ("request", "client", "server", False, None),
        "doc/changed": ("notification", "client", "server", False, None),
        "doc/count": ("request", "client", "server", False, 3),
    },
    "prose": {
        "doc/lookup": ("request", "client", "server", False, {"word": "w"}),
        "doc/changed": ("notification", "server", "client", False, None),
        "doc/list": ("request", "client", "server", False, [{"word": "w"}]),
    },
}


def _package(tmp_path: Path, language: str, source: str) -> Any:
    spec_dir = tmp_path / "spec"
    spec_dir.mkdir()
    spec_id = f"idiom_{language}"
    out = load(spec_dir, language, source, spec_id=spec_id)
    assert out.protocol is not None and out.config is not None
    assert not out.diags.has_errors(), [str(d) for d in out.diags.errors()]
    files = render_outputs(out.protocol, out.config)
    root = tmp_path / "out"
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    sys.path.insert(0, str(root / "python"))
    try:
        return importlib.import_module(out.config.python_package)
    finally:
        sys.path.remove(str(root / "python"))


@pytest.mark.parametrize("language", sorted(CASES))
def test_an_idiomatic_spec_generates_with_its_methods(
    tmp_path: Path, language: str
) -> None:
    package = _package(tmp_path, *CASES[language])
    methods = package.METHODS
    for wire, (kind, sender, receiver, both, sample) in EXPECTED[language].items():
        info = methods[wire]
        assert (info.kind, info.sender, info.receiver, info.both_ways) == (
            kind,
            sender,
            receiver,
            both,
        ), wire
        if kind == "request":
            assert info.result is not None
            info.result.validate_python(sample)
    # A result of the wrong shape is rejected: the result is not silently ``null``.
    lookup = methods["doc/lookup"]
    with pytest.raises(Exception):  # noqa: B017 - pydantic's ValidationError
        lookup.result.validate_python({"unexpected": True, "word": 3})
