"""Shared paths of the interop tests (run by ``make interop`` in .venv-interop)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent.parent
HERE = Path(__file__).resolve().parent


def generated_python(spec: str) -> Path:
    return REPO / "generated" / spec / "python"


def env_with(spec: str) -> dict[str, str]:
    """The environment of a child process that imports the generated package."""
    path = os.environ.get("PYTHONPATH")
    joined = os.pathsep.join(filter(None, [str(generated_python(spec)), path]))
    return {**os.environ, "PYTHONPATH": joined}


@pytest.fixture(scope="session")
def python() -> str:
    return sys.executable
