"""TypeScript method evidence, each form with its rejecting twin (issue 29).

Forms: namespaces with ``method``/``messageDirection`` constants and ``RequestType`` /
``NotificationType`` instances; message interfaces grouped by any union of requests or
notifications (not only role unions); results from response envelopes; interfaces in no
union are types; registries of both roles make a method two-way and keep bare array
results; a JSDoc ``@example`` answering ``null`` says the request answers nothing.
"""

from __future__ import annotations

from pathlib import Path

from tests.methods.support import codes, load, messages, table

_LSP_PRELUDE = """
export enum MessageDirection { clientToServer = 'clientToServer', serverToClient = 'serverToClient', both = 'both' }
export class RequestType<P, R, E> { constructor(public method: string) {} }
export class RequestType0<R, E> { constructor(public method: string) {} }
export class NotificationType<P> { constructor(public method: string) {} }
export interface Entry { word: string }
export interface LookupParams { word: string }
"""

_NAMESPACES = _LSP_PRELUDE + """
export namespace LookupRequest {
  export const method: 'doc/lookup' = 'doc/lookup';
  export const messageDirection: MessageDirection = MessageDirection.clientToServer;
  export const type = new RequestType<LookupParams, Entry | null, void>(method);
}
export namespace ChangedNotification {
  export const method = 'doc/changed' as const;
  export const messageDirection: MessageDirection = MessageDirection.serverToClient;
  export const type = new NotificationType<{ uri: string }>(method);
}
export namespace ShutdownRequest {
  export const method = 'shutdown';
  export const messageDirection: MessageDirection = MessageDirection.both;
  export const type = new RequestType0<void, void>(method);
}
"""


def test_namespaces_with_request_type_instances_are_methods(tmp_path: Path) -> None:
    out = load(tmp_path, "typescript", _NAMESPACES)
    assert table(out) == {
        "doc/lookup": "request client → server LookupParams Entry | null",
        "doc/changed": "notification server → client DocChangedParams -",
        "shutdown": "request client ↔ server none none",
    }
    assert [c for c in codes(out) if c != "MTH009"] == []


def test_a_message_direction_naming_no_role_is_an_error(tmp_path: Path) -> None:
    source = _NAMESPACES.replace(
        "MessageDirection.serverToClient", "MessageDirection.hostToClient"
    )
    out = load(tmp_path, "typescript", source)
    assert "MTH001" in codes(out)
    assert any("hostToClient" in m for m in messages(out, "MTH001"))


def test_a_request_type_without_its_result_argument_is_an_error(
    tmp_path: Path,
) -> None:
    source = _NAMESPACES.replace(
        "RequestType<LookupParams, Entry | null, void>", "RequestType<LookupParams>"
    )
    out = load(tmp_path, "typescript", source)
    assert any("doc/lookup" in m for m in messages(out, "MTH010"))


def test_a_namespace_without_a_method_constant_is_not_a_method(
    tmp_path: Path,
) -> None:
    source = _LSP_PRELUDE + ("export namespace Helpers { export const limit = 3; }\n")
    out = load(tmp_path, "typescript", source)
    assert out.protocol is not None and out.protocol.methods == ()


_UNIONS = """
export interface Job { id: string }
export interface Reply { text: string }
export interface SendParams { text: string }
export interface SendRequest { jsonrpc: '2.0'; id: number; method: 'chat/send'; params: SendParams }
export interface SendSuccessResponse { jsonrpc: '2.0'; id: number; result: Job | Reply }
export interface GetRequest { jsonrpc: '2.0'; id: number; method: 'chat/get'; params?: { id: string } }
export interface GetResult { job: Job }
export interface PingNotification { jsonrpc: '2.0'; method: 'chat/ping' }
export type AppRequest = SendRequest | GetRequest;
export type AppNotification = PingNotification;
export interface EmbeddedRequest { method: 'inner/call'; args: string[] }
export interface Outer { embedded: EmbeddedRequest }
"""


def test_any_union_of_requests_groups_messages_and_envelopes_give_results(
    tmp_path: Path,
) -> None:
    out = load(tmp_path, "typescript", _UNIONS)
    assert table(out) == {
        "chat/send": "request client → server SendParams SendSuccessResponseResult",
        "chat/get": "request client → server GetRequestParams? GetResult",
        "chat/ping": "notification client → server none -",
    }
    notes = messages(out, "MTH009")
    # The direction is an inference from the one sender, said in a note per method.
    assert sum("first role" in n for n in notes) == 3
    # The embedded request is in no union: a type, with a note, never a method.
    assert any("EmbeddedRequest" in n and "not a method" in n for n in notes)
    assert "MTH006" not in codes(out)


def test_a_request_without_result_or_envelope_is_an_error(tmp_path: Path) -> None:
    source = _UNIONS.replace(
        "export interface SendSuccessResponse { jsonrpc: '2.0'; id: number; result: Job | Reply }\n",
        "",
    )
    out = load(tmp_path, "typescript", source)
    assert any("chat/send" in m for m in messages(out, "MTH010"))


def test_a_role_union_places_the_sender_without_a_note(tmp_path: Path) -> None:
    source = _UNIONS.replace("export type AppRequest", "export type ServerRequest")
    out = load(tmp_path, "typescript", source)
    rows = table(out)
    assert rows["chat/send"].startswith("request server → client")
    # AppNotification names no role while ServerRequest does: not the first-role guess.
    assert not any("first role" in n for n in messages(out, "MTH009"))
    assert any("chat/ping" in m for m in messages(out, "MTH006"))


_REGISTRIES = """
export interface Swatch { color: string }
export interface ClientCommandMap {
  'palette/list': { params: { scope: string }; result: Swatch[] };
  'palette/ping': { params: null; result: null };
}
export interface ServerCommandMap {
  'palette/ping': { params: null; result: null };
}
"""


def test_a_method_in_both_registries_goes_both_ways(tmp_path: Path) -> None:
    out = load(tmp_path, "typescript", _REGISTRIES)
    assert table(out) == {
        "palette/list": "request client → server PaletteListParams Swatch[]",
        "palette/ping": "request client ↔ server none none",
    }
    assert "MTH006" not in codes(out)


def test_a_tag_contradicting_a_registry_is_an_error_naming_both(
    tmp_path: Path,
) -> None:
    source = _REGISTRIES + (
        "/**\n * @method palette/list\n * @direction Server → Client\n"
        " * @messageType Request\n */\nexport interface PaletteListParams2 { x: string }\n"
    )
    out = load(tmp_path, "typescript", source)
    conflicts = messages(out, "MTH006")
    assert conflicts and "@method tag" in conflicts[0]
    assert "registry ClientCommandMap" in conflicts[0]


_TAGGED = """
/**
 * @method session/close
 * @direction Client → Server
 * @messageType Request
 * @example
 * ```jsonc
 * { "jsonrpc": "2.0", "id": 1, "result": null }
 * ```
 */
export interface SessionCloseParams { id: string }
"""


def test_a_tagged_request_whose_example_answers_null_answers_nothing(
    tmp_path: Path,
) -> None:
    out = load(tmp_path, "typescript", _TAGGED)
    assert table(out) == {
        "session/close": "request client → server SessionCloseParams none"
    }
    assert "MTH010" not in codes(out)


def test_a_tagged_request_with_no_result_evidence_is_an_error(tmp_path: Path) -> None:
    source = _TAGGED.replace('"result": null', '"result": {}')
    out = load(tmp_path, "typescript", source)
    assert any("session/close" in m for m in messages(out, "MTH010"))
