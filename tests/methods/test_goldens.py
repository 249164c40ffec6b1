"""Golden method tables of every built-in and corpus spec, checked against ground truth.

Each spec's table (``codegen.methods.report.method_table_text``: wire name, kind,
direction, params, result) is compared with ``goldens/<spec>.methods.txt`` (rewrite with
``--update-goldens``), so no change of the method model moves a method unnoticed. The
tables are also checked against what upstream publishes beside the sources:
- acp1: ``meta.json`` (method names per side: the agent's, the client's, the protocol's);
- MCP (four revisions): the ``method`` constants of the official ``schema.json``;
- piglet: the dispatch code of the published host (``host_rpc.go`` handles the requests an
  extension sends, ``host_notifications.go`` the notifications): each case is a method
  sent by the extension, of that kind.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from codegen import ir
from codegen.methods.report import method_table_text
from codegen.pipeline import load_protocol
from tests.golden_support import check_golden

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
CORPUS = REPO.parent / "shared" / "corpus"
SPEC_DIRS = sorted(
    [p for p in (REPO / "specs").iterdir() if (p / "spec.toml").is_file()]
    + [
        p
        for p in (REPO / "tests" / "corpus" / "specs").iterdir()
        if (p / "spec.toml").is_file()
    ]
)
COUNTS = {"acp1": 25, "mcp": 31, "piglet": 88, "ahp": 20, "acp": 10, "openctx": 4}


def _protocol(spec_dir: Path) -> ir.Protocol:
    outcome = load_protocol(spec_dir, REPO)
    assert outcome.protocol is not None, spec_dir
    assert not outcome.diags.has_errors(), [str(d) for d in outcome.diags.errors()]
    return outcome.protocol


@pytest.mark.parametrize("spec_dir", SPEC_DIRS, ids=[p.name for p in SPEC_DIRS])
def test_method_table_golden(spec_dir: Path, update_goldens: bool) -> None:
    assert CORPUS.is_dir(), "../shared/corpus must stand beside the checkout"
    protocol = _protocol(spec_dir)
    if spec_dir.name in COUNTS:
        assert len(protocol.methods) == COUNTS[spec_dir.name]
    text = method_table_text(protocol)
    check_golden(
        HERE / "goldens" / f"{spec_dir.name}.methods.txt", text, update_goldens
    )


def test_acp1_methods_match_meta_json() -> None:
    meta = json.loads((CORPUS / "acp1" / "1.21.0" / "meta.json").read_text())
    methods = {m.wire_name: m for m in _protocol(REPO / "specs" / "acp1").methods}
    expected = {
        **{w: "client → agent" for w in meta["agentMethods"].values()},
        **{w: "agent → client" for w in meta["clientMethods"].values()},
        **{w: "agent ↔ client" for w in meta["protocolMethods"].values()},
    }
    got = {w: m.direction.arrow() for w, m in methods.items()}
    # A two-way arrow may name either role first.
    for wire, arrow in expected.items():
        if "↔" in arrow:
            assert methods[wire].direction.both_ways, wire
            got[wire] = arrow
    assert got == expected


@pytest.mark.parametrize(
    "revision", ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"]
)
def test_mcp_methods_match_the_official_schema(revision: str) -> None:
    schema = json.loads((CORPUS / "mcp" / revision / "schema.json").read_text())
    defs = schema.get("definitions") or schema.get("$defs")
    kinds: dict[str, set[str]] = {}
    for name, value in defs.items():
        method = value.get("properties", {}).get("method", {})
        if "const" in method:
            kind = "notification" if name.endswith("Notification") else "request"
            kinds.setdefault(method["const"], set()).add(kind)
    protocol = _protocol(REPO / "tests" / "corpus" / "specs" / f"mcp-{revision}")
    got = {m.wire_name: {m.kind.value} for m in protocol.methods}
    assert got == kinds


def test_piglet_methods_match_the_hosts_dispatch_code() -> None:
    source = CORPUS / "piglet" / "v0.23.1" / "external"
    consts = {
        name: wire
        for path in sorted(source.glob("*.go"))
        for name, wire in re.findall(
            r'^\s*(Method\w+)\s*=\s*"([^"]+)"', path.read_text(), re.MULTILINE
        )
    }
    methods = {m.wire_name: m for m in _protocol(REPO / "specs" / "piglet").methods}
    for file, kind in (
        ("host_rpc.go", "request"),
        ("host_notifications.go", "notification"),
    ):
        text = (source / file).read_text()
        switch = text[text.index("switch msg.Method {") :]
        cases = re.findall(
            r"^\tcase (Method\w+(?:, Method\w+)*):", switch, re.MULTILINE
        )
        names = [n.strip() for case in cases for n in case.split(",")]
        assert names, file
        for name in names:
            method = methods[consts[name]]
            assert method.kind.value == kind, (name, file)
            assert method.direction.sender == "extension" or (
                method.direction.both_ways
            ), (name, file)
