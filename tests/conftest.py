"""Shared pytest fixtures and options: ``--update-goldens`` rewrites expected outputs;
the ``long`` marker on the suites ``make test`` leaves to the longer targets CI runs.
"""

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


# Suites that measure (RSS under load), kill, fuzz or draw at length: marked ``long`` and
# left out of ``make test`` (its budget is 10 minutes), each run in CI by the target named.
LONG: dict[str, str] = {
    "tests/hostile/test_generate_runs.py": "make fuzz (60 kills)",
    "tests/frontends/test_typescript_fuzz.py": "make fuzz (300 examples)",
    "tests/frontends/test_go_fuzz.py": "make fuzz (300 examples)",
    "tests/frontends/test_rust_fuzz.py": "make fuzz (300 examples)",
    "tests/frontends/test_prose_fuzz.py": "make fuzz (300 examples)",
    "tests/server/test_fuzz.py": "make fuzz (300 examples)",
    "tests/hostile/test_output_pressure.py": "make test-long",
    "tests/hostile/test_websocket_pressure.py": "make test-long",
    "tests/hostile/test_server_pressure.py": "make test-long",
    "tests/hostile/test_http_pressure.py": "make test-long",
    "tests/oracle/test_slices.py": "make test-long",
    "tests/roundtrip/test_schema_instances.py": "make test-long",
    # The wheel built and installed into a fresh venv, driven from a scratch project.
    "tests/cli/test_installed.py": "make test-long",
    # a cargo build of serde and serde_json (minutes on a fresh machine)
    "tests/wild/rust/test_serde_sample_cargo.py": "make test-long",
}


def pytest_collection_modifyitems(
    config: pytest.Config, items: list[pytest.Item]
) -> None:
    for item in items:
        if Path(item.path).relative_to(REPO).as_posix() in LONG:
            item.add_marker(pytest.mark.long)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "long: left out of make test; run by the CI target LONG names"
    )
    # Generated packages are imported by tests the way a user would import a vendored copy.
    for python_dir in sorted((REPO / "generated").glob("*/python")):
        if str(python_dir) not in sys.path:
            sys.path.insert(0, str(python_dir))
