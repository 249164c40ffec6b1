"""Golden cases for the TypeScript frontend: one folder per trap under tests/golden/typescript.

Each folder is a tiny spec (spec.toml + input.ts); the expectations are the IR dump after the
passes and the rendered diagnostics.  Refresh with ``pytest --update-goldens``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.golden_support import check_spec_case

CASES = sorted(
    p
    for p in (Path(__file__).parent.parent / "golden" / "typescript").iterdir()
    if p.is_dir()
)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_typescript_golden(case: Path, update_goldens: bool) -> None:
    check_spec_case(case, update_goldens)


def test_golden_cases_cover_every_typescript_trap() -> None:
    names = {case.name for case in CASES}
    expected = {
        "const_enum_strings",
        "bitflag_enum",
        "enum_member_discriminant",
        "two_tag_values",
        "extends_three_bases",
        "optional_undefined_nullable",
        "record_and_index_signature",
        "inline_object_types",
        "string_literal_union",
        "unknown_object_number",
        "untagged_union_of_interfaces",
        "ambiguous_union",
        "meta_fields",
        "jsdoc_methods",
        "external_imports",
        "bad_input",
        "bad_methods",
        # TypeScript as it is written in the wild (issue 21)
        "intersections",
        "typeof_as_const",
        "utility_types",
        "user_generics",
        "indexed_access_keyof",
        "conditional_types",
        "mapped_types",
        "comments_anywhere",
        "recursive_alias",
        "union_of_unions",
        "narrowed_field",
        "string_escapes",
        "jsdoc_constraints",
        "method_interfaces",
        "method_registry",
        "jsdoc_namespaced_methods",
        "methods_table",
        "open_union",
        "reachability",
    }
    assert expected <= names
