"""The real AHP spec: nothing lost between the TypeScript sources and the IR and bindings."""

from __future__ import annotations

import json
import re
from pathlib import Path

from codegen import ir
from codegen.pipeline import load_protocol

REPO = Path(__file__).resolve().parent.parent.parent
SOURCES = [REPO / "specs/ahp/commands.ts", REPO / "specs/ahp/state.ts"]
DECLARATION = re.compile(
    r"^(?:export )?(?:declare )?(interface|type|const enum|enum) (\w+)", re.MULTILINE
)


def _source_declarations() -> dict[str, str]:
    found: dict[str, str] = {}
    for path in SOURCES:
        for kind, name in DECLARATION.findall(path.read_text(encoding="utf-8")):
            if kind == "type" and name == "":
                continue
            found[name] = kind
    return found


def _protocol() -> ir.Protocol:
    outcome = load_protocol(REPO / "specs/ahp", REPO)
    assert outcome.ok() and outcome.protocol is not None
    return outcome.protocol


def test_every_source_declaration_is_in_the_ir() -> None:
    protocol = _protocol()
    source = _source_declarations()
    names = {decl.name for decl in protocol.decls}
    assert set(source) <= names, sorted(set(source) - names)
    lifted = {decl.name for decl in protocol.decls if decl.derived_from}
    externals = {
        d.name
        for d in protocol.decls
        if isinstance(d, ir.AliasDecl) and d.kind is ir.AliasKind.EXTERNAL
    }
    assert names == set(source) | lifted | externals
    assert externals == {"ActionEnvelope", "StateAction"}


def test_every_jsdoc_method_is_in_the_table() -> None:
    text = "".join(path.read_text(encoding="utf-8") for path in SOURCES)
    tagged = re.findall(r"@method (\S+)", text)
    methods = _protocol().methods
    assert [m.wire_name for m in methods] == tagged and len(tagged) == 20
    kinds = {m.wire_name: m.kind for m in methods}
    assert kinds["unsubscribe"] is kinds["dispatchAction"] is ir.MethodKind.NOTIFICATION
    assert sum(k is ir.MethodKind.REQUEST for k in kinds.values()) == 18


def test_generated_registry_matches_the_ir() -> None:
    import ahp_protocol

    protocol = _protocol()
    assert set(ahp_protocol.METHODS) == {m.wire_name for m in protocol.methods}
    for method in protocol.methods:
        info = ahp_protocol.METHODS[method.wire_name]
        assert info.kind == method.kind.value
        assert (info.sender, info.receiver) == (
            method.direction.sender,
            method.direction.receiver,
        )
        assert (info.params is None) == (method.params is None)


def test_extracted_examples_list_every_block_and_the_skipped_one() -> None:
    document = json.loads(
        (REPO / "specs/ahp/examples/extracted.json").read_text(encoding="utf-8")
    )
    text = (REPO / "specs/ahp/commands.ts").read_text(encoding="utf-8")
    assert len(document["examples"]) == text.count('"jsonrpc": "2.0"')
    skipped = [e for e in document["examples"] if "skipped" in e]
    assert [e["name"] for e in skipped] == ["fetchTurns.2"]
    assert "placeholder" in skipped[0]["skipped"]
    assert document["extracted"] + document["skipped"] == len(document["examples"])


def test_snapshot_state_union_is_untagged_and_read_by_best_fit() -> None:
    union = _protocol().decl("SnapshotState")
    assert isinstance(union, ir.UnionDecl) and union.repr is ir.UnionRepr.UNTAGGED
    assert [v.name for v in union.variants] == [
        "RootState",
        "SessionState",
        "TerminalState",
    ]
    assert not union.first_fit


def test_session_status_is_a_flag_enum_accepting_combinations() -> None:
    import ahp_protocol
    from pydantic import TypeAdapter, ValidationError

    status = ahp_protocol.SessionStatus
    adapter = TypeAdapter(status)
    assert adapter.validate_json("40") == status.IN_PROGRESS | status.IS_READ
    for bad in ("0", "4", "128", '"8"', "8.0", "true"):
        try:
            adapter.validate_json(bad)
        except ValidationError:
            continue
        raise AssertionError(f"{bad} was accepted")


def test_messages_are_read_by_wire_names_only_while_python_builds_by_either() -> None:
    import ahp_protocol
    from pydantic import ValidationError

    model = ahp_protocol.InitializeParams
    wire = '{"protocolVersion": 1, "clientId": "c"}'
    assert model.model_validate_json(wire).model_dump_json() == wire.replace(" ", "")
    for reader in (
        model.model_validate_json,
        lambda text: model.model_validate(json.loads(text)),
    ):
        try:
            reader('{"protocol_version": 1, "client_id": "c"}')
        except ValidationError:
            continue
        raise AssertionError("attribute names were accepted as wire keys")
    built = model(protocol_version=1, client_id="c")
    assert built.model_dump_json() == wire.replace(" ", "")
    assert model(protocolVersion=1, clientId="c") == built
