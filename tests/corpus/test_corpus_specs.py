"""Real-world TypeScript specs generate with zero edits and zero errors.

MCP at its four revisions and AHP at upstream 975f041 (the per-channel files, the
aggregators re-exporting them and the reducers, whose code is skipped), read from
``../shared/corpus`` untouched.  Pinned here: the diagnostics of each, counted by code
(``expected_diagnostics.json``, refreshed with ``--update-goldens``); MCP 2025-11-25's
method table (``mcp-2025-11-25.methods.txt``); that the generated packages import and pass
mypy --strict, ruff and black.  The rejecting twins: the same sources with one construct
made unevaluable stop generation when a method reaches it, and only then.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from codegen import ir
from codegen.pipeline import load_protocol
from tests.corpus.support import (
    CORPUS,
    MCP_REVISIONS,
    SPECS,
    corpus_out,
    generate,
    needs_corpus,
    outcome,
)
from tests.golden_support import check_golden

pytestmark = needs_corpus
HERE = Path(__file__).resolve().parent
__all__ = ["corpus_out"]  # the fixture, imported for pytest


def _counts(spec: str) -> dict[str, int]:
    found = Counter(f"{d.severity.value}[{d.code}]" for d in outcome(spec).diags.items)
    return dict(sorted(found.items()))


def test_corpus_specs_are_all_there() -> None:
    assert MCP_REVISIONS == [
        "mcp-2024-11-05",
        "mcp-2025-03-26",
        "mcp-2025-06-18",
        "mcp-2025-11-25",
    ]
    assert "ahp-975f041" in SPECS
    sources = outcome("ahp-975f041").protocol
    assert sources is not None and len(sources.sources) == 48


@pytest.mark.parametrize("spec", SPECS)
def test_generates_with_zero_errors(spec: str) -> None:
    result = outcome(spec)
    errors = [d.headline() for d in result.diags.errors()]
    assert errors == [] and result.ok()


def test_diagnostics_by_code(update_goldens: bool) -> None:
    counts = {spec: _counts(spec) for spec in SPECS}
    check_golden(
        HERE / "expected_diagnostics.json",
        json.dumps(counts, indent=2) + "\n",
        update_goldens,
    )


def _method_table(spec: str) -> str:
    protocol = outcome(spec).protocol
    assert protocol is not None

    def name(expr: ir.TypeExpr | None) -> str:
        if isinstance(expr, ir.Ref):
            return expr.name
        if isinstance(expr, ir.InlineUnion):
            return " | ".join(name(m) for m in expr.members)
        return "null" if expr is None else type(expr).__name__

    lines = []
    for method in protocol.methods:
        params = name(method.params) + ("?" if method.params_optional else "")
        result = name(method.result) if method.kind is ir.MethodKind.REQUEST else "-"
        lines.append(
            f"{method.wire_name:38} {method.kind.value:12} "
            f"{method.direction.arrow():16} {params:38} {result}".rstrip()
        )
    return "\n".join(lines) + "\n"


def test_mcp_2025_11_25_has_31_methods(update_goldens: bool) -> None:
    table = _method_table("mcp-2025-11-25")
    check_golden(HERE / "mcp-2025-11-25.methods.txt", table, update_goldens)
    protocol = outcome("mcp-2025-11-25").protocol
    assert protocol is not None
    methods = {m.wire_name: m for m in protocol.methods}
    assert len(methods) == 31
    kinds = Counter(m.kind for m in methods.values())
    assert kinds == {ir.MethodKind.REQUEST: 20, ir.MethodKind.NOTIFICATION: 11}
    ping = methods["ping"]
    assert ping.direction.both_ways and ping.params_optional
    assert ping.result == ir.Ref("EmptyResult")
    sampling = methods["sampling/createMessage"]
    assert (sampling.direction.sender, sampling.direction.receiver) == (
        "server",
        "client",
    )


def test_every_mcp_revision_finds_its_methods() -> None:
    # Requests and notifications of each revision's ClientRequest / ServerRequest /
    # ClientNotification / ServerNotification unions (ping and cancelled go both ways).
    expected = {
        "mcp-2024-11-05": 24,
        "mcp-2025-03-26": 24,
        "mcp-2025-06-18": 25,
        "mcp-2025-11-25": 31,
    }
    for spec, count in expected.items():
        protocol = outcome(spec).protocol
        assert protocol is not None and len(protocol.methods) == count, spec
        assert all(m.kind is not None for m in protocol.methods)


def test_ahp_finds_every_method_including_action() -> None:
    protocol = outcome("ahp-975f041").protocol
    assert protocol is not None
    methods = {m.wire_name: m for m in protocol.methods}
    assert len(methods) == 37
    action = methods["action"]
    assert action.kind is ir.MethodKind.NOTIFICATION
    assert action.params == ir.Ref("ActionEnvelope")
    added = methods["root/sessionAdded"]
    assert added.params == ir.Ref("SessionAddedParams")
    assert methods["resourceRead"].direction.both_ways


# The newest MCP revision and AHP are linted in make test; the three older MCP revisions
# (the same generator on older text: 70 s of mypy) in make test-long.
LINTED_IN_MAKE_TEST = {"ahp-975f041", MCP_REVISIONS[-1]}


@pytest.mark.parametrize(
    "spec",
    [
        pytest.param(s, marks=() if s in LINTED_IN_MAKE_TEST else pytest.mark.long)
        for s in SPECS
    ],
)
def test_generated_packages_import_and_pass_the_linters(
    spec: str, corpus_out: Path
) -> None:
    path, package = generate(spec, corpus_out)
    assert package.METHODS, spec
    bin_dir = Path(sys.executable).parent
    for command in (
        [str(bin_dir / "mypy"), "--strict", "--no-incremental"],
        [str(bin_dir / "ruff"), "check", "--isolated"],
        [str(bin_dir / "black"), "--check", "--quiet"],
    ):
        run = subprocess.run(
            [*command, str(path)],
            capture_output=True,
            text=True,
            cwd=corpus_out,
            check=False,
        )
        assert run.returncode == 0, run.stdout + run.stderr


# ---------------------------------------------------------------------- rejecting twins


def _mcp_copy(tmp_path: Path, old: str, new: str, extra: str = "") -> Path:
    text = (CORPUS / "mcp" / "2025-11-25" / "schema.ts").read_text(encoding="utf-8")
    assert old in text
    (tmp_path / "schema.ts").write_text(text.replace(old, new, 1), encoding="utf-8")
    (tmp_path / "spec.toml").write_text(
        '[spec]\nid = "m"\nlanguage = "typescript"\nsources = ["schema.ts"]\n' + extra,
        encoding="utf-8",
    )
    return tmp_path


def test_an_unevaluable_construct_a_method_reaches_blocks(tmp_path: Path) -> None:
    # tools/call → CallToolRequestParams → arguments: now a function type.
    spec = _mcp_copy(
        tmp_path, "arguments?: { [key: string]: unknown };", "arguments?: () => void;"
    )
    result = load_protocol(spec, tmp_path)
    assert [d.code for d in result.diags.errors()] == ["SYN003"]
    assert "CallToolRequestParams is needed" in result.diags.errors()[0].message


def test_the_same_construct_nothing_reaches_is_left_out(tmp_path: Path) -> None:
    # No method's params or result reaches the JSONRPCMessage union.
    spec = _mcp_copy(
        tmp_path,
        "export type JSONRPCMessage =\n  JSONRPCRequest | JSONRPCNotification | "
        "JSONRPCResponse;",
        "export type JSONRPCMessage = () => void;",
    )
    result = load_protocol(spec, tmp_path)
    assert result.ok() and result.protocol is not None
    left_out = [d for d in result.diags.items if d.code == "SYN006"]
    assert len(left_out) == 1 and "JSONRPCMessage is left out" in left_out[0].message
    assert result.protocol.decl("JSONRPCMessage") is None


def test_the_same_construct_blocks_when_spec_toml_asks_for_the_type(
    tmp_path: Path,
) -> None:
    spec = _mcp_copy(
        tmp_path,
        "export type JSONRPCMessage =\n  JSONRPCRequest | JSONRPCNotification | "
        "JSONRPCResponse;",
        "export type JSONRPCMessage = () => void;",
        'types = ["JSONRPCMessage"]\n',
    )
    result = load_protocol(spec, tmp_path)
    assert [d.code for d in result.diags.errors()] == ["SYN003"]
