"""The serde constructs of the Rust golden cases on the wire: the bindings generated from each
case read and write every recorded message as serde does.

Each ``tests/golden/rust/<case>/wire.json`` lists messages with serde's verdict and output,
recorded from a crate built from the case's ``input.rs`` against Debian's serde 1.0.152 /
serde_json 1.0.87 (serde_with emulated after its own code; variant-level ``untagged`` after
serde_derive's expansion).  Every accepted case has rejecting twins in the same file.  The
only allowed difference is the bindings' policy of keeping unknown keys.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from codegen.backends import python as backend
from codegen.pipeline import load_protocol
from tests.frontends.serde_support import judge
from tests.unit.test_python_backend import import_package, write_package

CASES = sorted(
    p.parent
    for p in (Path(__file__).parent.parent / "golden" / "rust").glob("*/wire.json")
)


def _models(case: Path, tmp_path: Path) -> Any:
    outcome = load_protocol(case, repo_root=case)
    assert outcome.protocol is not None and not outcome.diags.has_errors()
    package = f"wire_{case.name}"
    root = write_package(backend.render(outcome.protocol, package), tmp_path)
    return import_package(root, package).models


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_golden_case_reads_and_writes_as_serde(case: Path, tmp_path: Path) -> None:
    recorded = json.loads((case / "wire.json").read_text(encoding="utf-8"))
    models = _models(case, tmp_path)
    verdicts = [
        judge(models, c["type"], c["input"], c["serde"], c["output"], c["error"])
        for c in recorded["cases"]
    ]
    wrong = [
        (c["input"], v)
        for c, v in zip(recorded["cases"], verdicts)
        if v not in ("exact", "unknown-keys")
    ]
    assert not wrong, wrong
    # Accepting cases come with rejecting twins.
    assert {c["serde"] for c in recorded["cases"]} == {"OK", "ERR"}


def test_every_serde_construct_has_a_wire_case() -> None:
    names = {case.name for case in CASES}
    assert {
        "skip_serializing_none",
        "default_on_error",
        "struct_tag",
        "untagged_variants",
        "serde_other",
        "from_into",
        "flatten_enum",
        "flatten_keyed_enums",
        "asymmetric_fields",
        "flatten_map",
        "container_default",
        "deny_unknown",
        "rename_escapes",
        "library_strings",
        "wrapper_tristate",
        "array_form",
        "adjacent_tagged",
    } <= names


def test_adjacent_tagged_schema_reads_as_serde() -> None:
    """The JSON Schema of an adjacently tagged enum accepts what serde reads: keys besides
    tag and content (unless deny_unknown_fields), a unit variant's null content; and
    rejects what serde rejects (the rejecting twins of the same file)."""
    import jsonschema

    from codegen.pipeline import render_outputs

    case = Path(__file__).parent.parent / "golden" / "rust" / "adjacent_tagged"
    outcome = load_protocol(case, repo_root=case)
    assert outcome.protocol is not None and outcome.config is not None
    outputs = render_outputs(outcome.protocol, outcome.config)
    bundle = json.loads(
        next(t for p, t in outputs.items() if p.endswith(".schema.json"))
    )
    recorded = json.loads((case / "wire.json").read_text(encoding="utf-8"))
    wrong = []
    for c in recorded["cases"]:
        schema = {"$ref": f"#/$defs/{c['type']}", "$defs": bundle["$defs"]}
        valid = jsonschema.Draft202012Validator(schema).is_valid(json.loads(c["input"]))
        if valid != (c["serde"] == "OK"):
            wrong.append((c["type"], c["input"], c["serde"]))
    assert not wrong, wrong
