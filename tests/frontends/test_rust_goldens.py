"""Golden cases for the Rust serde frontend: one folder per trap under tests/golden/rust.

Each folder is a tiny spec (spec.toml + input.rs); the expectations are the IR dump after the
passes and the rendered diagnostics.  Refresh with ``pytest --update-goldens``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.golden_support import check_spec_case

CASES = sorted(
    p
    for p in (Path(__file__).parent.parent / "golden" / "rust").iterdir()
    if p.is_dir()
)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_rust_golden(case: Path, update_goldens: bool) -> None:
    check_spec_case(case, update_goldens)


def test_golden_cases_cover_every_rust_trap() -> None:
    names = {case.name for case in CASES}
    expected = {
        "rename_all_container_and_variant",
        "rename",
        "tag_on_enum_and_struct",
        "untagged",
        "flatten_struct_and_variant",
        "flatten_conflict",
        "option_skip_vs_bare",
        "default",
        "unit_and_newtype_structs",
        "unit_variant_enum",
        "doc_comments",
        "peer_macro",
        "bad_peer_macro",
        "bad_input",
    }
    assert expected <= names
