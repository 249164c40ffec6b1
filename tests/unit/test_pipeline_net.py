"""The pipeline's safety net: a crash while reading a spec is an INT001 diagnostic naming the
file (and the position the crashed code was at), never a traceback.

The crashes are simulated; real ones (deep nesting in a frontend) are found by the byte fuzz
(tests/hostile/test_spec_fuzz.py).  The net is not the fix: each is a bug to fix where it is.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from codegen import pipeline
from codegen.diagnostics import render_all
from codegen.spec.source import SourceText

REPO = Path(__file__).resolve().parent.parent.parent


class FakeNode:
    type = "object_type"

    def __init__(self, row: int, column: int) -> None:
        self.start_point = (row, column)


@pytest.fixture
def spec(tmp_path: Path) -> Path:
    shutil.copy2(REPO / "pyproject.toml", tmp_path)
    shutil.copytree(REPO / "specs/openctx", tmp_path / "specs/openctx")
    return tmp_path


def _recursing_frontend(sources: list[SourceText], *_: Any) -> Any:
    source = sources[0]  # noqa: F841 - found by the net among this frame's locals
    node = FakeNode(4, 2)  # noqa: F841

    def descend(depth: int) -> int:
        return descend(depth + 1) + 1

    return descend(0)


def test_a_frontend_recursion_error_is_int001_at_its_node(
    spec: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pipeline, "_frontend", lambda _: _recursing_frontend)
    outcome = pipeline.load_protocol(spec / "specs/openctx", spec)
    [item] = outcome.diags.items
    assert item.code == "INT001" and outcome.protocol is None and not outcome.ok()
    assert str(item.span) == "specs/openctx/protocol.md:5:3"
    assert item.message == (
        "the prose frontend crashed: the input is nested too deeply for it (RecursionError)"
    )
    assert "Traceback" not in render_all(outcome.diags, spec)


def test_a_crash_in_the_passes_is_int001(
    spec: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*_: Any) -> Any:
        raise ValueError("bad IR\nsecond line")

    monkeypatch.setattr(pipeline, "run_passes", broken)
    outcome = pipeline.load_protocol(spec / "specs/openctx", spec)
    [item] = [d for d in outcome.diags.items if d.code == "INT001"]
    assert item.message == "the IR passes crashed: ValueError: bad IR"
    assert item.span.file == "specs/openctx/protocol.md"


def test_a_crash_anywhere_else_is_int001_on_spec_toml(
    spec: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*_: Any) -> Any:
        raise KeyError("spec")

    monkeypatch.setattr(pipeline, "load_config", broken)
    outcome = pipeline.load_protocol(spec / "specs/openctx", spec)
    [item] = outcome.diags.items
    assert item.code == "INT001" and item.message.startswith("reading the spec crashed")
    assert str(item.span) == "specs/openctx/spec.toml:1:1"


def test_keyboard_interrupt_is_not_swallowed(
    spec: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupted(*_: Any) -> Any:
        raise KeyboardInterrupt

    monkeypatch.setattr(pipeline, "_frontend", lambda _: interrupted)
    with pytest.raises(KeyboardInterrupt):
        pipeline.load_protocol(spec / "specs/openctx", spec)
