"""Every release of the old agentic-coding-protocol crate (../shared/corpus/acp-old, v0.0.1 …
v0.0.10) read as a spec with zero edits: ``acp.rs`` is the crate root, ``mod schema;`` finds
``schema.rs``, both ``acp_peer!`` forms (the early four-field entries and the later six-field
ones) give the method table, and ``DateTime<Utc>`` is chrono's string.  The methods agree with
each tag's published schema.json: ``AnyAgentRequest`` lists what the agent handles,
``AnyClientRequest`` what the client handles.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from codegen import ir
from codegen.pipeline import load_protocol

REPO = Path(__file__).resolve().parent.parent.parent
OLD = REPO.parent / "shared" / "corpus" / "acp-old"
TAGS = [f"v0.0.{n}" for n in range(1, 11)]
SPEC_TOML = """[spec]
id = "acpold"
language = "rust"
sources = ["acp.rs", "schema.rs"]
roles = ["client", "agent"]
"""


def _load(tag: str, tmp_path: Path) -> tuple[ir.Protocol, list[str]]:
    spec = tmp_path / tag
    spec.mkdir()
    for name in ("acp.rs", "schema.rs"):
        shutil.copyfile(OLD / tag / name, spec / name)
    (spec / "spec.toml").write_text(SPEC_TOML, encoding="utf-8")
    outcome = load_protocol(spec, spec)
    assert outcome.protocol is not None
    return outcome.protocol, [d.headline() for d in outcome.diags.errors()]


def _refs(schema: dict[str, object], name: str) -> list[str]:
    defs = schema["$defs"]
    assert isinstance(defs, dict)
    return [str(b["$ref"]).rsplit("/", 1)[-1] for b in defs[name]["anyOf"]]


@pytest.mark.parametrize("tag", TAGS)
def test_old_release_reads_with_zero_edits(tag: str, tmp_path: Path) -> None:
    protocol, errors = _load(tag, tmp_path)
    assert not errors, errors
    schema = json.loads((OLD / tag / "schema.json").read_text(encoding="utf-8"))
    to_agent = [m for m in protocol.methods if m.direction.receiver == "agent"]
    to_client = [m for m in protocol.methods if m.direction.receiver == "client"]
    agent_refs = _refs(schema, "AnyAgentRequest")
    client_refs = _refs(schema, "AnyClientRequest")
    assert len(to_agent) == len(agent_refs) and len(to_client) == len(client_refs)
    for methods, refs in ((to_agent, agent_refs), (to_client, client_refs)):
        for method in methods:
            assert method.kind is ir.MethodKind.REQUEST
            if isinstance(method.params, ir.Ref):
                assert method.params.name in refs, method.wire_name
    # Every type the published schema defines is a declaration, apart from the macro's
    # routing enums and schemars' name for semver::Version (a library string here).
    names = {d.name for d in protocol.decls}
    missing = set(schema["$defs"]) - names
    assert missing <= {
        "AnyAgentRequest",
        "AnyAgentResult",
        "AnyClientRequest",
        "AnyClientResult",
        "SemVer",
    }


def test_the_early_four_field_entries_and_chrono_dates(tmp_path: Path) -> None:
    protocol, errors = _load("v0.0.1", tmp_path)
    assert not errors
    initialize = next(m for m in protocol.methods if m.wire_name == "initialize")
    assert initialize.params == ir.Ref("InitializeParams")
    assert initialize.result == ir.Ref("InitializeResponse")
    # DateTime<Utc> is chrono's RFC 3339 string, not an error.
    stamped = [
        f
        for d in protocol.decls
        if isinstance(d, ir.StructDecl)
        for f in d.fields
        if isinstance(f.type, ir.Primitive) and f.type.constraints.format == "date-time"
    ]
    assert stamped
