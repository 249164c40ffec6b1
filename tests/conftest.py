"""Shared pytest fixtures and options: ``--update-goldens`` rewrites expected outputs."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
# tests/interop/ needs the real peers' SDKs: it runs in their own venv (`make interop`).
collect_ignore = [] if os.environ.get("CODEGEN_INTEROP") else ["interop"]


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-goldens",
        action="store_true",
        default=False,
        help="rewrite golden expectation files instead of comparing against them",
    )


@pytest.fixture
def update_goldens(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-goldens"))


@pytest.fixture(scope="session")
def repo() -> Path:
    return REPO


def pytest_configure(config: pytest.Config) -> None:
    # Generated packages are imported by tests the way a user would import a vendored copy.
    for python_dir in sorted((REPO / "generated").glob("*/python")):
        if str(python_dir) not in sys.path:
            sys.path.insert(0, str(python_dir))
