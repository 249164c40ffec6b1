"""Everything the Rust frontend reads recursively is bounded: cfg predicates, attribute
arguments, inline modules, use trees, default expressions (and the calls they make),
serde_as types and type expressions, 5,000 levels deep, end as diagnostics at the line of
the construct, never as a RecursionError (with the pipeline's internal-error net made to
re-raise, so only the frontend's own bounds can pass); the same constructs a few levels
deep read without a word.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from codegen import pipeline
from codegen.diagnostics import Severity

HEAD = "use serde::{Deserialize, Serialize};\n"
DERIVE = "#[derive(Serialize, Deserialize)]\n"


def _cfg(n: int) -> str:
    predicate = "all(" * n + 'not(feature = "x")' + ")" * n
    return f"{HEAD}#[cfg({predicate})]\n{DERIVE}pub struct D {{\n    pub x: u8,\n}}\n"


def _cfg_attr(n: int) -> str:
    predicate = "all(" * n + "unix" + ")" * n
    return (
        f'{HEAD}{DERIVE}#[cfg_attr({predicate}, serde(rename = "y"))]\n'
        "pub struct D {\n    pub x: u8,\n}\n"
    )


def _serde_args(n: int) -> str:
    nested = "rename(" * n + 'serialize = "y"' + ")" * n
    return f"{HEAD}{DERIVE}#[serde({nested})]\npub struct D {{\n    pub x: u8,\n}}\n"


def _modules(n: int) -> str:
    opened = "".join(f"mod m{i} {{\n" for i in range(n))
    return f"{HEAD}{opened}{DERIVE}pub struct D {{\n    pub x: u8,\n}}\n" + "}\n" * n


def _use_tree(n: int) -> str:
    tree = "a::{" + "b::{" * n + "c" + "}" * n + "}"
    return f"use {tree};\n{HEAD}{DERIVE}pub struct D {{\n    pub x: u8,\n}}\n"


def _default_expr(n: int) -> str:
    return (
        f"{HEAD}{DERIVE}pub struct D {{\n"
        '    #[serde(default = "seven")]\n'
        "    pub x: u8,\n}\n"
        f"fn seven() -> u8 {{\n    {'(' * n}7{')' * n}\n}}\n"
    )


def _serde_as(n: int) -> str:
    return (
        f"{HEAD}#[serde_with::serde_as]\n{DERIVE}pub struct D {{\n"
        f'    #[serde_as(as = "{"Option<" * n}_{">" * n}")]\n'
        f"    pub x: {'Option<' * min(n, 3)}u8{'>' * min(n, 3)},\n}}\n"
    )


def _tuple(n: int) -> str:
    return f"{HEAD}{DERIVE}pub struct D {{\n    pub x: {'(' * n}u8{',)' * n},\n}}\n"


def _reference(n: int) -> str:
    return f"{HEAD}{DERIVE}pub struct D {{\n    pub x: {'&' * n}str,\n}}\n"


# construct → (source at depth n, the diagnostic code a too-deep one gives, its line)
CASES: dict[str, tuple[Callable[[int], str], str, int]] = {
    "cfg": (_cfg, "SYN008", 2),
    "cfg_attr": (_cfg_attr, "SYN008", 3),
    "serde_args": (_serde_args, "SYN008", 3),
    "modules": (_modules, "SYN008", 65),
    "use_tree": (_use_tree, "SYN008", 1),
    "default_expr": (_default_expr, "SER003", 5),
    "serde_as": (_serde_as, "SER001", 5),
    "tuple": (_tuple, "SYN003", 4),
    "reference": (_reference, "SYN003", 4),
}


@pytest.fixture(autouse=True)
def _no_net(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    def reraise(_diags: object, error: Exception, _doing: str, _span: object) -> None:
        raise error

    monkeypatch.setattr(pipeline, "report_internal_error", reraise)
    yield


def _load(tmp_path: Path, text: str) -> pipeline.SpecOutcome:
    (tmp_path / "input.rs").write_text(text, encoding="utf-8")
    (tmp_path / "spec.toml").write_text(
        '[spec]\nid = "deep"\nlanguage = "rust"\nsources = ["input.rs"]\n',
        encoding="utf-8",
    )
    return pipeline.load_protocol(tmp_path, tmp_path)


@pytest.mark.parametrize("construct", sorted(CASES))
def test_five_thousand_deep_is_a_diagnostic_at_its_line(
    tmp_path: Path, construct: str
) -> None:
    build, code, line = CASES[construct]
    outcome = _load(tmp_path, build(5000))
    found = [d for d in outcome.diags.items if d.code == code]
    assert found, [(d.code, d.message) for d in outcome.diags.items]
    assert found[0].span.file == "input.rs"
    assert found[0].span.line == line
    assert not [d for d in outcome.diags.items if d.code == "INT001"]
    if code.startswith("SYN"):
        assert found[0].severity is Severity.ERROR


@pytest.mark.parametrize("construct", sorted(CASES))
def test_a_few_levels_read_without_a_word(tmp_path: Path, construct: str) -> None:
    build, _, _ = CASES[construct]
    outcome = _load(tmp_path, build(3))
    # Only the pipeline's note that this spec declares no methods.
    assert [d.code for d in outcome.diags.items] == ["MTH008"], [
        (d.code, d.message) for d in outcome.diags.items
    ]
    assert outcome.protocol is not None
