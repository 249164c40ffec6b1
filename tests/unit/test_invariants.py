"""Output invariants: deterministic across runs and hash seeds; check is clean after generate."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from codegen.ir import dump as ir_dump
from codegen.pipeline import build_plan, discover_specs
from tests.roundtrip import harness

REPO = Path(__file__).resolve().parent.parent.parent
CODEGEN = [sys.executable, "-m", "codegen"]


def test_plan_is_identical_on_repeat_runs() -> None:
    specs = discover_specs(REPO / "specs")
    first = build_plan(specs, REPO).files
    second = build_plan(specs, REPO).files
    assert first and first == second


def test_generated_tree_is_current_under_different_hash_seeds() -> None:
    for seed in ("0", "1", "4242"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        result = subprocess.run(
            [*CODEGEN, "generate", "--check"],
            cwd=REPO,
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        assert (
            result.returncode == 0
        ), f"seed {seed}:\n{result.stdout[-3000:]}{result.stderr[-2000:]}"


def test_ir_dump_is_identical_under_different_hash_seeds() -> None:
    outputs = set()
    for seed in ("0", "7"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        result = subprocess.run(
            [*CODEGEN, "ir", "dump", "ahp"],
            cwd=REPO,
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        assert result.returncode == 0, result.stderr
        outputs.add(result.stdout)
    assert len(outputs) == 1
    assert outputs == {ir_dump.dump(harness.protocol("ahp"))}


def test_every_generated_file_says_do_not_edit() -> None:
    paths = [
        path
        for path in (REPO / "generated").rglob("*")
        if path.is_file() and path.suffix in (".py", ".json")
    ]
    assert len(paths) >= 4 * 8, "the loop below must have generated files to check"
    for path in paths:
        assert "do not edit" in path.read_text(encoding="utf-8")[:400], path


def test_every_generated_schema_is_valid_against_the_2020_12_meta_schema() -> None:
    import json

    import jsonschema

    schemas = sorted((REPO / "generated").glob("*/schema/*.schema.json"))
    assert len(schemas) >= 4
    for path in schemas:
        bundle = json.loads(path.read_text(encoding="utf-8"))
        assert bundle["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        jsonschema.Draft202012Validator.check_schema(bundle)
    # The rejecting twin: the meta-schema does catch a malformed bundle.
    broken = {**bundle, "$defs": {"X": {"type": "no-such-type"}}}
    try:
        jsonschema.Draft202012Validator.check_schema(broken)
    except jsonschema.SchemaError:
        return
    raise AssertionError("a malformed schema passed the meta-schema")


def test_every_diagnostic_code_is_reported_somewhere() -> None:
    from codegen.diagnostics import CATALOGUE

    sources = "".join(
        path.read_text(encoding="utf-8")
        for path in sorted((REPO / "codegen").rglob("*.py"))
        if path.name != "diagnostics.py"
    )
    unused = sorted(code for code in CATALOGUE if f'"{code}"' not in sources)
    assert not unused, f"catalogue codes nothing reports: {unused}"
