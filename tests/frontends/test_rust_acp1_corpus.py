"""ACP v1 (the agent-client-protocol-schema crate, release 1.21.0) read from its untouched
sources in ../shared/corpus/acp1, checked against the corpus's own ground truth.

- ``specs/acp1`` is the crate byte for byte; it generates with zero errors;
- the methods are meta.json's (25 stable; 43 entries of meta.unstable.json, 42 wire names,
  with ``features = ["unstable"]``), with the kinds, sides and payload types of the official
  schemars schema (its ``x-method``/``x-side`` annotations);
- instances drawn from the official schema.json, and their mutants, read and written by the
  generated bindings exactly as serde does (verdict and output, key order included), and the
  docs' messages likewise.  serde's verdicts and outputs were recorded from a crate built
  from these sources against Debian's serde 1.0.152 / serde_json 1.0.87 (serde_with's
  DefaultOnError / VecSkipError emulated after serde_with 3's code, serde's variant-level
  untagged after serde_derive's expansion); ``make oracle`` rebuilds that comparison live.
Every difference is one of the listed divergences, each with its reason.
"""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path
from typing import Any

from codegen import ir
from codegen.pipeline import load_protocol
from tests.frontends.serde_support import judge
from tests.roundtrip import harness

REPO = Path(__file__).resolve().parent.parent.parent
CORPUS = REPO.parent / "shared" / "corpus" / "acp1" / "1.21.0"
FIXTURES = Path(__file__).parent / "acp1_serde"
SPEC = REPO / "specs" / "acp1"

# Divergences between the bindings and serde, each with its reason.
DIVERGENCES = {
    "unknown-keys": "the bindings keep keys a struct does not declare (a round trip and a "
    "proxy preserve them); serde reads them and drops them",
    "json-numbers": "serde_json (no arbitrary_precision, no float_roundtrip) turns integers "
    "beyond 64 bits into f64 in any-JSON values and parses some floats one ULP off; the "
    "bindings keep the numbers as written",
    "hand-written-deserialize": "OtherElicitationMode, OtherMultiSelectItems, "
    "OtherElicitationPropertySchema and OtherElicitationAction read through hand-written "
    "Deserialize impls (SER003) that also reject the tags the tagged variants know; the "
    "bindings read them as their derived Serialize form",
}
# Routing enums (the method table, left out of the types: SYN005) and the enums whose
# untagged fallback is one of the hand-written types above.
ROUTING = {
    "AgentNotification",
    "AgentRequest",
    "AgentResponse",
    "ClientNotification",
    "ClientRequest",
    "ClientResponse",
    "ProtocolLevelNotification",
}


# --------------------------------------------------------------------------- sources


def test_spec_sources_are_the_corpus_bytes() -> None:
    files = sorted(p.relative_to(CORPUS) for p in (CORPUS / "src").rglob("*.rs"))
    assert len(files) == 16
    for rel in [*files, Path("Cargo.toml")]:
        assert (SPEC / rel).read_bytes() == (CORPUS / rel).read_bytes(), rel
    config = load_protocol(SPEC, REPO).config
    assert config is not None
    assert {Path(s) for s in config.sources} == {*files, Path("Cargo.toml")}


def test_stable_build_generates_with_zero_errors() -> None:
    outcome = load_protocol(SPEC, REPO)
    assert outcome.protocol is not None
    assert not outcome.diags.has_errors(), [
        d.headline() for d in outcome.diags.errors()
    ]
    # The unstable modules are compiled out, said once each.
    left_out = [d for d in outcome.diags.items if d.code == "SYN007"]
    assert sorted(d.span.file.rsplit("/", 1)[-1] for d in left_out) == [
        "mcp.rs",
        "nes.rs",
    ]


# --------------------------------------------------------------------------- methods


def _expected(meta: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    """Wire name → (kind, receiver or "both", params, result), from meta.json (names and
    sides) and the official schema's x-method annotations (payload types, kinds)."""
    sides: dict[str, set[str]] = {}
    for key, side in (
        ("agentMethods", "agent"),
        ("clientMethods", "client"),
        ("protocolMethods", "both"),
    ):
        for wire in meta[key].values():
            sides.setdefault(wire, set()).add(side)
    annotated: dict[str, list[str]] = {}
    for name, definition in schema["$defs"].items():
        if "x-method" in definition:
            annotated.setdefault(definition["x-method"], []).append(name)
    out: dict[str, Any] = {}
    for wire, side_set in sides.items():
        types = annotated[wire]
        results = [t for t in types if t.endswith("Response")]
        params = [t for t in types if not t.endswith("Response")]
        requests = [t for t in params if t.endswith("Request")]
        kind = "request" if results else "notification"
        receiver = side_set.pop() if len(side_set) == 1 else "both"
        chosen = (requests or params)[0]
        out[wire] = (kind, receiver, chosen, results[0] if results else None)
    return out


def _actual(protocol: ir.Protocol) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for method in protocol.methods:
        direction = method.direction
        receiver = "both" if direction.both_ways else direction.receiver
        params = method.params.name if isinstance(method.params, ir.Ref) else None
        result = method.result.name if isinstance(method.result, ir.Ref) else None
        out[method.wire_name] = (method.kind.value, receiver, params, result)
    return out


def test_stable_methods_are_meta_json_with_the_official_payloads() -> None:
    protocol = load_protocol(SPEC, REPO).protocol
    assert protocol is not None
    meta = json.loads((CORPUS / "meta.json").read_text(encoding="utf-8"))
    schema = json.loads((CORPUS / "schema.json").read_text(encoding="utf-8"))
    entries = sum(
        len(meta[k]) for k in ("agentMethods", "clientMethods", "protocolMethods")
    )
    assert entries == 25 and len(protocol.methods) == 25
    assert _actual(protocol) == _expected(meta, schema)
    kinds = {m.wire_name: m.kind for m in protocol.methods}
    assert kinds["session/cancel"] is ir.MethodKind.NOTIFICATION
    assert kinds["session/update"] is ir.MethodKind.NOTIFICATION
    assert kinds["session/prompt"] is ir.MethodKind.REQUEST


def test_unstable_features_give_meta_unstable_json(tmp_path: Path) -> None:
    spec = tmp_path / "acp1u"
    shutil.copytree(CORPUS / "src", spec / "src")
    shutil.copy(CORPUS / "Cargo.toml", spec / "Cargo.toml")
    text = (SPEC / "spec.toml").read_text(encoding="utf-8")
    (spec / "spec.toml").write_text(
        text.replace("features = []", 'features = ["unstable"]'), encoding="utf-8"
    )
    outcome = load_protocol(spec, spec)
    assert outcome.protocol is not None
    assert not outcome.diags.has_errors(), [
        d.headline() for d in outcome.diags.errors()
    ]
    assert not [d for d in outcome.diags.items if d.code == "SYN007"]
    meta = json.loads((CORPUS / "meta.unstable.json").read_text(encoding="utf-8"))
    schema = json.loads((CORPUS / "schema.unstable.json").read_text(encoding="utf-8"))
    entries = sum(
        len(meta[k]) for k in ("agentMethods", "clientMethods", "protocolMethods")
    )
    # mcp/message is listed on both sides: one method, sent both ways.
    assert entries == 43 and len(outcome.protocol.methods) == 42
    assert _actual(outcome.protocol) == _expected(meta, schema)
    # The feature selection reaches the types too: the stable build has none of these.
    stable = load_protocol(SPEC, REPO).protocol
    assert stable is not None
    for name in ("StartNesRequest", "MessageMcpRequest", "ListProvidersRequest"):
        assert outcome.protocol.decl(name) is not None
        assert stable.decl(name) is None


def test_without_default_features_the_method_tables_still_give_every_method(
    tmp_path: Path,
) -> None:
    """``default_features = false`` turns the crate's default feature (schemars) off, and
    with it the x-method annotations: the method-name tables and routing enums still give
    every method, with the same kinds, sides and payloads."""
    spec = tmp_path / "acp1d"
    shutil.copytree(CORPUS / "src", spec / "src")
    shutil.copy(CORPUS / "Cargo.toml", spec / "Cargo.toml")
    text = (SPEC / "spec.toml").read_text(encoding="utf-8")
    (spec / "spec.toml").write_text(
        text.replace("features = []", "features = []\ndefault_features = false"),
        encoding="utf-8",
    )
    outcome = load_protocol(spec, spec)
    assert outcome.protocol is not None
    assert not outcome.diags.has_errors()
    stable = load_protocol(SPEC, REPO).protocol
    assert stable is not None
    assert _actual(outcome.protocol) == _actual(stable)


# --------------------------------------------------------------------------- serde


def test_official_schema_instances_and_mutants_read_as_serde_reads_them() -> None:
    models = harness.package("acp1").models
    with gzip.open(
        FIXTURES / "schema_cases.jsonl.gz", "rt", encoding="utf-8"
    ) as stream:
        cases = [json.loads(line) for line in stream]
    tally: dict[str, dict[str, int]] = {"instance": {}, "mutant": {}}
    failures = []
    for case in cases:
        if case["type"] in ROUTING:
            verdict = "routing-enum (not a type of the bindings)"
        else:
            verdict = judge(
                models,
                case["type"],
                case["input"],
                case["serde"],
                case["output"],
                case["error"],
            )
        if verdict.startswith("DISAGREE"):
            failures.append((case["type"], case["input"], verdict))
        bucket = tally[case["kind"]]
        bucket[verdict] = bucket.get(verdict, 0) + 1
    print(json.dumps(tally, indent=1))
    assert not failures, failures[:10]
    # Each listed divergence occurs (the list does not rot), and nothing else does.
    seen = {
        tag for bucket in tally.values() for key in bucket for tag in key.split(",")
    }
    assert {"unknown-keys", "hand-written-deserialize"} <= seen
    assert seen - set(DIVERGENCES) <= {
        "exact",
        "routing-enum (not a type of the bindings)",
    }
    # The bulk of the comparison is exact, not explained away.
    assert (
        tally["instance"].get("exact", 0) + tally["instance"].get("unknown-keys", 0)
        > 250
    )
    assert tally["mutant"].get("exact", 0) > 2000


def test_doc_messages_read_as_serde_reads_them() -> None:
    models = harness.package("acp1").models
    expected = json.loads((FIXTURES / "docs.json").read_text(encoding="utf-8"))
    docs = CORPUS / "examples" / "docs"
    index = json.loads((docs / "INDEX.json").read_text(encoding="utf-8"))
    verbatim = [e for e in index if e["status"] == "verbatim"]
    assert len(verbatim) == len(expected) == 94
    tally: dict[str, int] = {}
    failures = []
    for name, entry in expected.items():
        if "skip" in entry:
            key = "skipped: " + entry["skip"]
            tally[key] = tally.get(key, 0) + 1
            continue
        message = json.loads((docs / name).read_text(encoding="utf-8"))
        value = message[entry["key"]] if "key" in entry else message
        verdict = judge(
            models,
            entry["target"],
            json.dumps(value),
            entry["serde"],
            entry["output"],
            None,
        )
        if verdict.startswith("DISAGREE"):
            failures.append((name, verdict))
        same = entry["serde"] == "OK" and json.dumps(
            json.loads(entry["output"])
        ) == json.dumps(value)
        key = f"{verdict} ({'serde writes the doc back' if same else 'serde rewrites or rejects it'})"
        tally[key] = tally.get(key, 0) + 1
    print(json.dumps(tally, indent=1))
    assert not failures, failures
    # Only the docs' extension methods (not in the crate) and their error are left out.
    assert sum(v for k, v in tally.items() if k.startswith("skipped")) == 4


# serde's verdicts and outputs for numbers (recorded the same way as the fixtures).
NUMBER_CASES = [
    (
        "Cost",
        '{"amount":5,"currency":"x"}',
        "OK",
        '{"amount":5.0,"currency":"x"}',
        "exact",
    ),
    (
        "Cost",
        '{"amount":-7528272179819127.0,"currency":"x"}',
        "OK",
        '{"amount":-7528272179819126.0,"currency":"x"}',
        "json-numbers",
    ),
    (
        "AuthenticateRequest",
        '{"methodId":"m","_meta":{"n":351115827950913585152}}',
        "OK",
        '{"methodId":"m","_meta":{"n":3.511158279509136e20}}',
        "json-numbers",
    ),
    ("Cost", '{"amount":1e400,"currency":"x"}', "ERR", None, "exact"),
    ("Cost", '{"amount":"5","currency":"x"}', "ERR", None, "exact"),
]


def test_numbers_read_as_serde_reads_them() -> None:
    """f64 reads 5 as 5.0 and rejects 1e400, exactly; serde_json's any-JSON numbers and
    its float parsing are the listed divergence."""
    models = harness.package("acp1").models
    for name, text, serde, output, expected in NUMBER_CASES:
        assert judge(models, name, text, serde, output, None) == expected, text
