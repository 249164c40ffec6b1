"""The real-crates campaign's serde sample against real serde_json (cargo, offline, Debian's
crates): a tiny local crate's types judged end to end, as ``make wild-rust`` judges a
crate's sample.  Long (a cargo build): ``make test-long`` (tests/conftest.py LONG).

A type serde reads and writes, one it only reads (``Deserialize`` alone: judged on its
verdicts) and an adjacently tagged enum agree with the bindings on every case; a type whose
declaration the machine's serde cannot build (another crate's type) is counted as not
judged with the compiler's reason, never as agreement.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.wild.rust import serde_sample

REPO = Path(__file__).resolve().parents[3]
CARGO = '[package]\nname = "fake"\nversion = "0.1.0"\n'
LIB = """\
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize)]
pub struct Flag {
    pub on: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<u8>,
}

/// Read, never written.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Incoming {
    pub request_id: u32,
}

#[derive(Serialize, Deserialize)]
#[serde(tag = "kind", content = "mode", rename_all = "kebab-case")]
pub enum Modify {
    Any,
    Data(u8),
}

/// Another crate's type: not in the serde program's reach.
#[derive(Serialize, Deserialize)]
pub struct Link {
    pub url: url::Url,
}
"""


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("scratch")
    # serde and serde_json compiled once for every run (the campaign's own target)
    shared = REPO / "build" / "wild" / "rust" / "oracle" / "cargo-target"
    shared.mkdir(parents=True, exist_ok=True)
    (out / "cargo-target").symlink_to(shared, target_is_directory=True)
    return out


def test_a_sample_agrees_with_real_serde(scratch: Path, tmp_path: Path) -> None:
    root = tmp_path / "fake"
    (root / "src").mkdir(parents=True)
    (root / "Cargo.toml").write_text(CARGO, encoding="utf-8")
    (root / "src" / "lib.rs").write_text(
        LIB.replace("url::Url", "String"), encoding="utf-8"
    )
    types = ["Flag", "Incoming", "Modify"]
    # a crate name of its own: its bindings package is imported once per process
    rows = serde_sample.judge_sample(
        {"served": types}, {"served": root}, {"served": []}, scratch
    )
    row = rows["served"]
    assert row["error"] is None and row["judged"] == types, row
    assert row["failures"] == 0, row["disagreements"]
    assert row["cases"] >= 3 * 10 and row["agree"] == row["cases"]


def test_a_type_serde_cannot_build_is_counted_with_the_compilers_reason(
    scratch: Path, tmp_path: Path
) -> None:
    root = tmp_path / "fake2"
    (root / "src").mkdir(parents=True)
    (root / "Cargo.toml").write_text(CARGO, encoding="utf-8")
    (root / "src" / "lib.rs").write_text(LIB, encoding="utf-8")
    rows = serde_sample.judge_sample(
        {"fake2": ["Flag", "Link"]}, {"fake2": root}, {"fake2": []}, scratch
    )
    figures = serde_sample.totals(rows)
    assert rows["fake2"]["judged"] == ["Flag"]
    why = figures["not_judged"]["fake2::Link"]
    assert "the machine's serde cannot build it" in why and "url" in why.lower(), why
    assert figures["judged_types"] == 1 and figures["sampled_types"] == 2
