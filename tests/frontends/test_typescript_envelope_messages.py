"""A TypeScript spec of an event envelope, written as the Debug Adapter Protocol writes
itself (``LaunchRequest extends Request { command: 'launch'; arguments: ... }``,
``XResponse`` bodies, ``StoppedEvent { event: 'stopped'; body: ... }``), yields its
methods with no ``[methods]`` table: requests from the first role with their arguments
and their response's body, events from the second role with their body.  Twins: the same
sources under JSON-RPC declare no method; renamed keys read the renamed literals only;
the bases (``command: string``) are no methods; a response pairs by its literal command
before its name."""

from __future__ import annotations

from pathlib import Path

from codegen import ir
from codegen.pipeline import load_protocol

DAP_TS = """\
export interface ProtocolMessage {
  seq: number;
  type: 'request' | 'response' | 'event' | string;
}
export interface Request extends ProtocolMessage {
  type: 'request';
  command: string;
  arguments?: any;
}
export interface Event extends ProtocolMessage {
  type: 'event';
  event: string;
  body?: any;
}
export interface Response extends ProtocolMessage {
  type: 'response';
  request_seq: number;
  success: boolean;
  command: string;
  message?: string;
  body?: any;
}
/** Launch the debuggee. */
export interface LaunchRequest extends Request {
  command: 'launch';
  arguments: LaunchArguments;
}
export interface LaunchArguments {
  program: string;
}
export interface LaunchResponse extends Response {
  body: { processId: number };
}
export interface EvaluateRequest extends Request {
  command: 'evaluate';
  arguments: { expression: string };
}
/** Paired by its literal command, not by name. */
export interface EvaluationAnswer extends Response {
  type: 'response';
  command: 'evaluate';
  body: { result: string };
}
export interface StoppedEvent extends Event {
  event: 'stopped';
  body: { reason: 'step' | 'breakpoint'; threadId?: number };
}
"""


def _load(tmp_path: Path, transport: str, source: str = DAP_TS) -> ir.Protocol:
    spec = tmp_path / "specs" / "dap"
    spec.mkdir(parents=True, exist_ok=True)
    (tmp_path / "pyproject.toml").write_text("")
    (spec / "dap.ts").write_text(source, encoding="utf-8")
    (spec / "spec.toml").write_text(
        '[spec]\nid = "dap"\nlanguage = "typescript"\nsources = ["dap.ts"]\n'
        'roles = ["client", "adapter"]\n' + transport,
        encoding="utf-8",
    )
    outcome = load_protocol(spec, tmp_path)
    assert outcome.protocol is not None, [d.headline() for d in outcome.diags.items]
    return outcome.protocol


def _methods(protocol: ir.Protocol) -> dict[str, tuple[str, str, str, str]]:
    def name(ref: ir.TypeExpr | None) -> str:
        return ref.name if isinstance(ref, ir.Ref) else repr(ref)

    return {
        m.wire_name: (
            m.kind.value,
            m.direction.arrow(),
            name(m.params),
            name(m.result),
        )
        for m in protocol.methods
    }


ENVELOPE = '[transport]\nkind = "event-envelope"\nframings = ["ndjson-stdio"]\n'


def test_dap_shaped_messages_are_the_methods(tmp_path: Path) -> None:
    protocol = _load(tmp_path, ENVELOPE)
    methods = _methods(protocol)
    assert set(methods) == {"launch", "evaluate", "stopped"}  # no base is a method
    kind, direction, params, result = methods["launch"]
    assert (kind, direction, params) == (
        "request",
        "client → adapter",
        "LaunchArguments",
    )
    launch_result = protocol.decl(result)
    assert isinstance(launch_result, ir.StructDecl)
    assert [f.wire_name for f in launch_result.fields] == ["processId"]
    # evaluate's body comes from EvaluationAnswer, paired by its literal command
    evaluate = protocol.decl(methods["evaluate"][3])
    assert isinstance(evaluate, ir.StructDecl)
    assert [f.wire_name for f in evaluate.fields] == ["result"]
    stopped = methods["stopped"]
    assert stopped[:2] == ("notification", "adapter → client")
    body = protocol.decl(stopped[2])
    assert isinstance(body, ir.StructDecl)
    assert [f.wire_name for f in body.fields] == ["reason", "threadId"]


def test_the_same_sources_under_json_rpc_declare_no_method(tmp_path: Path) -> None:
    outcome_dir = tmp_path / "jsonrpc"
    outcome_dir.mkdir()
    spec = outcome_dir / "specs" / "dap"
    spec.mkdir(parents=True)
    (outcome_dir / "pyproject.toml").write_text("")
    (spec / "dap.ts").write_text(DAP_TS, encoding="utf-8")
    (spec / "spec.toml").write_text(
        '[spec]\nid = "dap"\nlanguage = "typescript"\nsources = ["dap.ts"]\n',
        encoding="utf-8",
    )
    outcome = load_protocol(spec, outcome_dir)
    methods = outcome.protocol.methods if outcome.protocol is not None else ()
    assert methods == ()


def test_renamed_keys_read_the_renamed_literals_only(tmp_path: Path) -> None:
    renamed = DAP_TS.replace("command: 'launch'", "op: 'launch'").replace(
        "event: 'stopped'", "name: 'stopped'"
    )
    fields = '[transport.fields]\ncommand = "op"\nevent = "name"\n'
    methods = _methods(_load(tmp_path, ENVELOPE + fields, renamed))
    # launch and stopped use the renamed keys; evaluate still says `command`
    assert set(methods) == {"launch", "stopped"}
    assert methods["launch"][2] == "LaunchArguments"
