"""schemars' integration tests as conformance cases (``../shared/conformance/schemars``).

Phase: verification (``make conformance-rust``).
Inputs: ``<file>.rs`` (types and ``#[test] fn``s calling ``test!(Type ...)``) and its
snapshots ``snapshots/.../<file>.rs~<test>[.de|.ser].json`` (a JSON Schema 2020-12).
Outputs: ``cases()`` (one per snapshot: ``<file>~<test>[.de|.ser]``) and ``run_case``.
Guarantees: the root is the type the test function passes to ``test!``; a root written as
a type expression or a type the file does not declare (``Version``) (``TypeParam<String>``, ``Result<bool, String>``) is named by a type
alias appended to the copied source (``pub type ConfRoot = ...;``), which is how a Rust
crate names an instantiation.  A plain snapshot and a ``.de`` one describe what serde
reads; a ``.ser`` one what serde writes, judged on serde's own output against our
schema's written form (``x-written-form`` where serde writes otherwise than it reads).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator

from tests.conformance.rust.harness import (
    DRAWS,
    SUITES,
    Expected,
    Ours,
    judge,
    public_items,
    read_ours,
    temporary,
)
from tests.conformance.verdict import Verdict

FOLDER = SUITES / "schemars"
SNAPSHOTS = FOLDER / "snapshots" / "schemars" / "tests" / "integration"
ALIAS = "ConfRoot"
_NAME = re.compile(r"[A-Za-z_]\w*")


def cases() -> list[str]:
    out = []
    for path in SNAPSHOTS.glob("*.json"):
        file, _, rest = path.name.partition(".rs~")
        out.append(f"{file}~{rest.removesuffix('.json')}")
    return sorted(out)


def snapshot(case: str) -> Path:
    file, _, rest = case.partition("~")
    return SNAPSHOTS / f"{file}.rs~{rest}.json"


def root_expression(case: str) -> str | None:
    """The first argument of the ``test!`` call in the case's test function."""
    file, _, rest = case.partition("~")
    test = rest.split(".", 1)[0]
    text = (FOLDER / f"{file}.rs").read_text(encoding="utf-8")
    # the #[test] function, not a method of the same name (``impl From`` has ``fn from``)
    found = re.search(
        rf"#\[test\][^{{}}]*?\bfn\s+{re.escape(test)}\s*\(", text
    ) or re.search(rf"\bfn\s+{re.escape(test)}\s*\(", text)
    if found is None:
        return None
    call = text.find("test!(", found.end())
    if call < 0:
        return None
    depth, start = 0, call + len("test!(")
    for index in range(start, len(text)):
        char = text[index]
        if char in "(<[":
            depth += 1
        elif char in ")>]":
            if depth == 0:
                return text[start:index].strip()
            depth -= 1
        elif char == "," and depth == 0:
            return text[start:index].strip()
    return None


def run_case(case: str, draws: int = DRAWS, serde: bool = True) -> Verdict:
    file, _, rest = case.partition("~")
    expression = root_expression(case)
    if expression is None or expression.startswith("value:"):
        return Verdict(case, False, "the test names no type")
    expected_schema = json.loads(snapshot(case).read_text(encoding="utf-8"))
    text = (FOLDER / f"{file}.rs").read_text(encoding="utf-8")
    declared = re.search(
        rf"^\s*(?:pub\s+)?(?:struct|enum|type)\s+{re.escape(expression)}\b",
        text,
        re.MULTILINE,
    )
    if _NAME.fullmatch(expression) and declared:
        root, extra = expression, ""
    else:
        root, extra = ALIAS, f"\npub type {ALIAS} = {expression};\n"
    with temporary() as tmp:
        spec = Path(tmp) / "src"
        spec.mkdir()
        (spec / "lib.rs").write_text(text, encoding="utf-8")
        ours = read_ours(
            spec, ["lib.rs"], [root], Path(tmp), lambda text: public_items(text) + extra
        )
        if not isinstance(ours, Ours):
            return Verdict(case, False, ours, [root])
        contract = "written" if rest.endswith(".ser") else "read"
        return judge(
            case, ours, [_expected(root, expected_schema, contract)], draws, serde
        )


def _expected(root: str, schema: dict[str, Any], contract: str) -> Expected:
    validator = Draft202012Validator(schema)
    body = {k: v for k, v in schema.items() if k not in ("$defs", "$schema")}
    bundle = {"$defs": {**schema.get("$defs", {}), "__peer_root": body}}

    def accepts(value: Any) -> bool:
        try:
            return bool(validator.is_valid(value))
        except Exception:  # noqa: BLE001 - a schema the library cannot judge
            return False

    return Expected(root, bundle, "__peer_root", accepts, contract)
