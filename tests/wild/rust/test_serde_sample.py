"""The real-crates campaign's serde sample (``serde_sample``) on a tiny local crate.

The sample is deterministic and spread across crates; a crate's sampled types are judged
end to end (its spec written, our bindings generated, every case classified as ``make
oracle`` classifies it) against a stand-in for serde_json that reads the crate's one
struct as serde's derive does.  An agreeing stand-in gives no disagreement; a planted wrong
verdict and a planted wrong output are each counted and shown (rejecting twins).  The real
serde program is ``make wild-rust``'s (cargo builds take minutes).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from codegen.oracles import run as oracle_run
from codegen.oracles.case import Answer, Case
from tests.wild.rust import serde_sample

CARGO = '[package]\nname = "fake"\nversion = "0.1.0"\n\n[features]\nserde = []\n'
LIB = """\
use serde::{Deserialize, Serialize};

/// A switch with a level.
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct Flag {
    pub on: bool,
    pub level: u8,
}
"""


def serde_reads_flag(text: str) -> Answer:
    """``serde_json::from_str::<Flag>`` then ``to_string``: an object with ``on`` a bool and
    ``level`` an integer in 0..=255 (unknown keys ignored, a float never an integer), or
    the two as a sequence; written back as an object in declaration order."""
    try:
        value = json.loads(text, object_pairs_hook=_no_duplicates)
    except ValueError as exc:
        return Answer(False, None, str(exc))
    if isinstance(value, list) and len(value) == 2:
        on, level = value  # serde's derive reads a struct from a sequence too
    elif isinstance(value, dict):
        on, level = value.get("on"), value.get("level")
    else:
        return Answer(False, None, "invalid type: expected struct Flag")
    if not isinstance(on, bool):
        return Answer(False, None, "field on")
    if isinstance(level, bool) or not isinstance(level, int) or not 0 <= level <= 255:
        return Answer(False, None, "field level")
    return Answer(True, json.dumps({"on": on, "level": level}, separators=(",", ":")))


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    keys = [k for k, _ in pairs]
    if len(set(keys)) != len(keys):
        raise ValueError("duplicate field")
    return dict(pairs)


class StandIn:
    """An oracle (``codegen.oracles.case.Oracle``) answering by ``answer``."""

    language = "rust"
    compares = "bytes"

    def __init__(self, answer: Callable[[Case], Answer]) -> None:
        self.answer = answer
        self.skipped: dict[str, str] = {}

    def type_names(self) -> set[str]:
        return {"Flag"}

    def judge(self, cases: Sequence[Case]) -> list[Answer]:
        return [self.answer(case) for case in cases]


@pytest.fixture(scope="module")
def crate(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    """The fake crate written as the campaign's spec and generated once."""
    root = tmp_path_factory.mktemp("crate")
    (root / "src").mkdir()
    (root / "Cargo.toml").write_text(CARGO, encoding="utf-8")
    (root / "src" / "lib.rs").write_text(LIB, encoding="utf-8")
    scratch = tmp_path_factory.mktemp("scratch")
    ident = serde_sample.write_spec("fake", root, ["serde"], ["Flag"], scratch)
    assert serde_sample.generate(ident, scratch) is None
    return ident, scratch


def judged(
    crate: tuple[str, Path],
    monkeypatch: pytest.MonkeyPatch,
    answer: Callable[[Case], Answer],
) -> dict[str, Any]:
    monkeypatch.setattr(oracle_run, "make_oracle", lambda *_: StandIn(answer))
    ident, scratch = crate
    return serde_sample.judge_crate(ident, ["Flag"], scratch)


def test_sample_is_seeded_bounded_and_spread() -> None:
    modelled = {
        "big": [f"T{i}" for i in range(30)],
        "small": ["A"],
        "mid": ["X", "Y", "Z"],
    }
    first = serde_sample.sample(modelled, per_crate=4, cap=7)
    assert first == serde_sample.sample(modelled, per_crate=4, cap=7)
    assert sorted(first) == ["big", "mid", "small"]  # every crate before a second type
    assert sum(map(len, first.values())) == 7
    assert first["small"] == ["A"] and len(first["big"]) <= 4
    assert set(first["big"]) <= set(modelled["big"])
    # another seed, another sample (of the crate with 30 types to choose from)
    assert serde_sample.sample(modelled, seed=7, per_crate=4)["big"] != first["big"]


def test_a_crate_with_more_types_than_the_cap_allows_is_cut() -> None:
    modelled = {f"c{i}": ["A", "B"] for i in range(5)}
    assert sum(map(len, serde_sample.sample(modelled, cap=3).values())) == 3


def test_agreeing_serde_judges_every_case_and_agrees(
    crate: tuple[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    row = judged(crate, monkeypatch, lambda case: serde_reads_flag(case.text))
    # ``Flag`` is a name the models module imports (enum.Flag): the class is ``Flag_2``,
    # and our side finds it by the backend's naming rule, not by the Rust name
    ident, scratch = crate
    models = next((scratch / "generated" / ident / "python").glob("*/models.py"))
    assert "class Flag_2(" in models.read_text(encoding="utf-8")
    assert row["judged"] == ["Flag"] and row["error"] is None
    assert row["cases"] >= 10
    assert row["failures"] == 0 and row["agree"] == row["cases"], row["disagreements"]
    figures = serde_sample.totals({"fake": row})
    assert figures["agreement"] == 1.0 and figures["disagreements"] == []
    assert figures["sampled_types"] == figures["judged_types"] == 1


def test_a_planted_wrong_verdict_is_a_counted_disagreement(
    crate: tuple[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    def wrong(case: Case) -> Answer:
        right = serde_reads_flag(case.text)
        if right.accept and '"level":0' not in case.text:
            return right
        return Answer(not right.accept, '{"on":true,"level":0}', "planted")

    row = judged(crate, monkeypatch, wrong)
    assert row["failures"] >= 1 and row["agree"] == row["cases"] - row["failures"]
    shown = row["disagreements"][0]
    assert "Flag" in shown and "json:" in shown and "oracle:" in shown
    assert "bindings:" in shown and "verdict:" in shown
    assert serde_sample.totals({"fake": row})["agreement"] < 1.0


def test_a_planted_wrong_output_is_a_counted_disagreement(
    crate: tuple[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    def reordered(case: Case) -> Answer:
        right = serde_reads_flag(case.text)
        if not right.accept or right.output is None:
            return right
        value = json.loads(right.output)
        return Answer(True, json.dumps({"level": value["level"], "on": value["on"]}))

    row = judged(crate, monkeypatch, reordered)
    assert row["failures"] >= 1
    assert any("output:" in d for d in row["disagreements"])


def test_a_sample_that_does_not_generate_is_counted_with_why(
    tmp_path: Path,
) -> None:
    root = tmp_path / "broken"
    (root / "src").mkdir(parents=True)
    (root / "Cargo.toml").write_text(CARGO, encoding="utf-8")
    (root / "src" / "lib.rs").write_text(
        LIB.replace("pub level: u8", "pub level: Missing"), encoding="utf-8"
    )
    rows = serde_sample.judge_sample(
        {"broken": ["Flag"]}, {"broken": root}, {"broken": ["serde"]}, tmp_path / "s"
    )
    figures = serde_sample.totals(rows)
    assert figures["judged_types"] == 0 and figures["cases"] == 0
    assert "Missing" in figures["not_judged"]["broken"]
