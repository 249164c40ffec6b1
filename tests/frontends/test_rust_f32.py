"""Rust's ``f32`` as serde_json reads and writes it: a number is read as the nearest ``f32``
and written in ``f32``'s shortest form (``16777217`` → ``16777216.0``, ``0.123456789`` →
``0.12345679``); a number past ``f32``'s range reads as infinity, which serde_json writes as
``null``.  The rejecting twin: an ``f64`` field keeps what it read.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from codegen.backends import python as backend
from codegen.pipeline import load_protocol
from tests.unit.test_python_backend import import_package, write_package

LIB = """use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize)]
pub struct Sample { pub single: f32, pub double: f64, pub many: Vec<f32> }
"""


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> Any:
    spec = tmp_path_factory.mktemp("f32")
    (spec / "lib.rs").write_text(LIB, encoding="utf-8")
    (spec / "spec.toml").write_text(
        '[spec]\nid = "floats"\nlanguage = "rust"\nsources = ["lib.rs"]\n'
        'roles = ["client", "server"]\n',
        encoding="utf-8",
    )
    outcome = load_protocol(spec, repo_root=spec)
    assert outcome.protocol is not None and not outcome.diags.has_errors()
    root = write_package(backend.render(outcome.protocol, "f32_case"), spec / "out")
    return import_package(root, "f32_case").models.Sample


def _round_trip(model: Any, given: dict[str, Any]) -> dict[str, Any]:
    read = model.model_validate_json(json.dumps(given))
    written: dict[str, Any] = json.loads(read.model_dump_json(warnings="error"))
    return written


@pytest.mark.parametrize(
    ("given", "serde"),
    [
        (16777217, 16777216.0),
        (0.123456789, 0.12345679),
        (1e39, None),
        (-1e39, None),
        (0.1, 0.1),
        (3, 3.0),
    ],
)
def test_f32_reads_and_writes_as_serde_json(
    sample: Any, given: float, serde: float | None
) -> None:
    written = _round_trip(sample, {"single": given, "double": 1.0, "many": [given]})
    assert written["single"] == serde
    assert written["many"] == [serde]


@pytest.mark.parametrize("given", [16777217, 0.123456789, 1e300])
def test_f64_keeps_what_it_read(sample: Any, given: float) -> None:
    written = _round_trip(sample, {"single": 1.0, "double": given, "many": []})
    assert written["double"] == given


def test_f32_rejects_what_serde_rejects(sample: Any) -> None:
    from pydantic import ValidationError

    with pytest.raises(ValidationError):
        sample.model_validate_json('{"single": "1.0", "double": 1.0, "many": []}')
