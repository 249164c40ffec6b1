"""specs/mcp/examples/docs-*.json are built from MCP's own doc messages, and stay so.

The spec's documentation (2025-11-25) shows JSON-RPC messages; ../shared/corpus holds them
one per file with an INDEX.  Each request's and notification's ``params`` becomes an
accepted ``params`` sample of its method, each response's ``result`` an accepted
``result`` sample of the method of the request it answers (the latest request with the
same id on the same doc page); every whole message is also a sample of the JSON-RPC
unions it belongs to (``JSONRPCMessage``, ``ClientRequest``, ``ServerResult``, …, by the
method's direction).  Messages of methods MCP does not have (the progress page's
``some_method``), fragments and responses whose request the page does not show are left
out, and counted here.  Every accepted params sample gets a rejecting twin: the same
params without the first key their type requires.  ``hand-*.json`` beside them are
written by hand for what the docs do not show.

The files are golden: ``pytest --update-goldens`` rewrites them from the corpus.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from codegen import ir
from codegen.ir.index import Index
from codegen.pipeline import load_protocol
from tests.golden_support import check_golden

REPO = Path(__file__).resolve().parent.parent.parent
DOCS = REPO.parent / "shared" / "corpus" / "mcp" / "2025-11-25" / "examples-docs"
EXAMPLES = REPO / "specs" / "mcp" / "examples"
HEADER = "built from the spec's doc messages by tests/corpus/test_mcp_examples.py; do not edit"
pytestmark = pytest.mark.skipif(
    not DOCS.is_dir(), reason="../shared/corpus is not beside the checkout"
)

Message = tuple[str, str, str, dict[str, Any]]  # kind, method, sample name, message


def _doc_messages() -> tuple[list[Message], dict[str, int]]:
    """(kind, method, sample name, message) in doc order; what was left out, by kind."""
    index = json.loads((DOCS / "INDEX.json").read_text(encoding="utf-8"))
    out: list[Message] = []
    left_out: dict[str, int] = {}

    def leave(kind: str) -> None:
        left_out[kind] = left_out.get(kind, 0) + 1

    requests: dict[tuple[str, str], str] = {}  # (doc page, id) → method
    for entry in index:
        kind = entry.get("kind")
        if entry["status"] == "unparseable" or kind not in (
            "request",
            "response",
            "notification",
            "error_response",
        ):
            leave(str(kind or entry["status"]))
            continue
        name = Path(entry["file"]).name
        message = json.loads((DOCS / name).read_text(encoding="utf-8"))
        key = (entry["source"], json.dumps(message.get("id")))
        if kind == "request":
            requests[key] = message["method"]
        method = message.get("method") or requests.get(key)
        if method is None:
            leave(f"{kind} without its request")
            continue
        stem = name.removesuffix(".json").split("__")
        out.append((kind, method, "doc-" + "-".join(stem[:-1]), message))
    return out, left_out


def _twin(params: Any, expr: ir.TypeExpr | None, index: Index) -> Any:
    """The params without the first key their type requires, and why."""
    struct = index.struct_of(expr) if expr is not None else None
    if struct is None or not isinstance(params, dict):
        return None
    for fld in index.wire_fields(struct):
        if fld.presence is ir.Presence.REQUIRED and fld.wire_name in params:
            trimmed = {k: v for k, v in params.items() if k != fld.wire_name}
            return trimmed, f"{fld.wire_name} is required ({struct.name})"
    return None


def _unions_of(kind: str, method: ir.Method) -> list[str]:
    """The JSON-RPC unions of schema.ts a message belongs to."""
    senders = [method.direction.sender]
    if method.direction.both_ways:
        senders.append(method.direction.receiver)
    out = ["JSONRPCMessage"]
    if kind == "request":
        out += ["JSONRPCRequest"] + [f"{s.capitalize()}Request" for s in senders]
    elif kind == "notification":
        out += ["JSONRPCNotification"] + [
            f"{s.capitalize()}Notification" for s in senders
        ]
    else:
        out += ["JSONRPCResponse"]
    return out


def build() -> tuple[dict[str, str], dict[str, int]]:
    outcome = load_protocol(REPO / "specs" / "mcp", REPO)
    assert outcome.protocol is not None
    index = Index(outcome.protocol)
    messages, left_out = _doc_messages()
    methods: dict[str, list[dict[str, Any]]] = {}
    types: dict[str, list[dict[str, Any]]] = {}
    for kind, method_name, name, message in messages:
        method = index.methods.get(method_name)
        if method is None:
            left_out["not an MCP method"] = left_out.get("not an MCP method", 0) + 1
            continue
        samples = methods.setdefault(method_name, [])
        if kind in ("request", "notification") and "params" in message:
            params = message["params"]
            samples.append({"name": name, "part": "params", "value": params})
            twin = _twin(params, method.params, index)
            if twin is not None:
                samples.append(
                    {
                        "name": name + "-missing-key",
                        "part": "params",
                        "expect": "reject",
                        "why": twin[1],
                        "value": twin[0],
                    }
                )
        elif kind == "response":
            samples.append({"name": name, "part": "result", "value": message["result"]})
            receivers = [method.direction.receiver]
            if method.direction.both_ways:
                receivers.append(method.direction.sender)
            for role in receivers:
                types.setdefault(f"{role.capitalize()}Result", []).append(
                    {"name": name, "value": message["result"]}
                )
        for union in _unions_of(kind, method):
            types.setdefault(union, []).append({"name": name, "value": message})
    texts: dict[str, str] = {}
    for method_name, samples in methods.items():
        if samples:
            texts[f"methods/docs-{method_name.replace('/', '__')}.json"] = _file(
                {"method": method_name}, samples
            )
    for type_name, samples in types.items():
        texts[f"types/docs-{type_name}.json"] = _file(
            {"type": type_name},
            [{**s, "part": "type"} for s in samples],
        )
    return texts, left_out


def _file(target: dict[str, str], samples: list[dict[str, Any]]) -> str:
    full = [
        {"name": s["name"], "part": s["part"], "expect": s.get("expect", "accept")}
        | ({"why": s["why"]} if "why" in s else {})
        | {"value": s["value"]}
        for s in samples
    ]
    document = {"comment": HEADER, "target": target, "samples": full}
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def test_examples_are_the_doc_messages(update_goldens: bool) -> None:
    texts, _ = build()
    existing = {
        p.relative_to(EXAMPLES).as_posix() for p in EXAMPLES.glob("*/docs-*.json")
    }
    if update_goldens:
        for stale in existing - set(texts):
            (EXAMPLES / stale).unlink()
        for folder in ("methods", "types"):
            (EXAMPLES / folder).mkdir(parents=True, exist_ok=True)
    for rel, text in texts.items():
        check_golden(EXAMPLES / rel, text, update_goldens)
    built = {p.relative_to(EXAMPLES).as_posix() for p in EXAMPLES.glob("*/docs-*.json")}
    assert built == set(texts)


def test_what_is_left_out_is_counted() -> None:
    texts, left_out = build()
    documents = [json.loads(text) for text in texts.values()]
    accepted = sum(
        1
        for document in documents
        if "method" in document["target"]
        for sample in document["samples"]
        if sample["expect"] == "accept"
    )
    # Of 27 requests, 27 responses and 11 notifications in the docs: the params of the
    # requests and notifications that have params, and the results whose request the
    # page shows (the progress page's request names no MCP method); 4 of the 11 error
    # responses answer a request their page shows.
    assert accepted == 54
    assert left_out == {
        "fragment": 53,
        "array": 1,
        "unparseable": 1,
        "response without its request": 2,
        "error_response without its request": 7,
        "not an MCP method": 1,
    }
