"""Fixtures of the command-line tests: codegen installed from its wheel into a fresh venv."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.cli.installed import Installed, install


@pytest.fixture(scope="session")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    base = tmp_path_factory.getbasetemp()
    # Under xdist each worker has its own base; their parent is this session's alone.
    shared = (base.parent if "PYTEST_XDIST_WORKER" in os.environ else base) / "dist"
    return install(shared, tmp_path_factory.mktemp("venv"))


@pytest.fixture
def scratch(tmp_path: Path) -> Path:
    """A user's project folder, outside the repository."""
    project = tmp_path / "myapp"
    project.mkdir()
    return project
