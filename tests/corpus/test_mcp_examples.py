"""specs/mcp/examples/ is built from MCP's own doc messages (../shared/corpus), and stays so.

The spec's documentation (2025-11-25) shows JSON-RPC messages; the corpus holds them one
per file with an INDEX.  Each request and notification becomes an accepted ``message``
sample of its method; each response becomes one of the method of the request it answers
(the latest request with the same id in the same doc page); error responses, fragments and
messages of methods MCP does not have (the progress page's ``some_method``) are left out,
and counted here.  Every accepted sample with params gets a rejecting twin: the same
message without the first key its params type requires.

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
EXAMPLES = REPO / "specs" / "mcp" / "examples" / "methods"
pytestmark = pytest.mark.skipif(
    not DOCS.is_dir(), reason="../shared/corpus is not beside the checkout"
)


def _doc_messages() -> tuple[list[tuple[str, str, dict[str, Any]]], dict[str, int]]:
    """(method, sample name, message) in doc order, and what was left out by kind."""
    index = json.loads((DOCS / "INDEX.json").read_text(encoding="utf-8"))
    out: list[tuple[str, str, dict[str, Any]]] = []
    left_out: dict[str, int] = {}
    requests: dict[tuple[str, str], str] = {}  # (doc page, id) → method
    for entry in index:
        kind = entry.get("kind")
        if entry["status"] == "unparseable" or kind not in (
            "request",
            "response",
            "notification",
        ):
            left_out[str(kind or entry["status"])] = (
                left_out.get(str(kind or entry["status"]), 0) + 1
            )
            continue
        name = Path(entry["file"]).name
        message = json.loads((DOCS / name).read_text(encoding="utf-8"))
        page = entry["source"]
        if kind == "request":
            requests[(page, json.dumps(message.get("id")))] = message["method"]
        method = (
            message.get("method")
            if kind != "response"
            else requests.get((page, json.dumps(message.get("id"))))
        )
        if method is None:
            left_out["response without its request"] = (
                left_out.get("response without its request", 0) + 1
            )
            continue
        stem = name.removesuffix(".json").split("__")
        out.append((method, "doc-" + "-".join(stem[:-1]), message))
    return out, left_out


def _twin(message: dict[str, Any], params: ir.TypeExpr | None, index: Index) -> Any:
    """The message without the first key its params type requires, and why."""
    struct = index.struct_of(params) if params is not None else None
    values = message.get("params")
    if struct is None or not isinstance(values, dict):
        return None
    for fld in index.wire_fields(struct):
        if fld.presence is ir.Presence.REQUIRED and fld.wire_name in values:
            trimmed = {k: v for k, v in values.items() if k != fld.wire_name}
            why = f"params.{fld.wire_name} is required ({struct.name})"
            return {**message, "params": trimmed}, why
    return None


def build() -> tuple[dict[str, str], dict[str, int]]:
    outcome = load_protocol(REPO / "specs" / "mcp", REPO)
    assert outcome.protocol is not None
    index = Index(outcome.protocol)
    messages, left_out = _doc_messages()
    files: dict[str, list[dict[str, Any]]] = {}
    for method, name, message in messages:
        known = index.methods.get(method)
        if known is None:
            left_out["not an MCP method"] = left_out.get("not an MCP method", 0) + 1
            continue
        samples = files.setdefault(method, [])
        samples.append(
            {"name": name, "part": "message", "expect": "accept", "value": message}
        )
        twin = _twin(message, known.params, index) if "params" in message else None
        if twin is not None:
            value, why = twin
            samples.append(
                {
                    "name": name + "-missing-key",
                    "part": "message",
                    "expect": "reject",
                    "why": why,
                    "value": value,
                }
            )
    texts = {
        method.replace("/", "__")
        + ".json": json.dumps(
            {
                "comment": "built from the spec's doc messages by "
                "tests/corpus/test_mcp_examples.py; do not edit",
                "target": {"method": method},
                "samples": samples,
            },
            indent=2,
            ensure_ascii=False,
        )
        + "\n"
        for method, samples in files.items()
    }
    return texts, left_out


def test_examples_are_the_doc_messages(update_goldens: bool) -> None:
    texts, _ = build()
    if update_goldens:
        EXAMPLES.mkdir(parents=True, exist_ok=True)
        for stale in {p.name for p in EXAMPLES.glob("*.json")} - set(texts):
            (EXAMPLES / stale).unlink()
    for name, text in texts.items():
        check_golden(EXAMPLES / name, text, update_goldens)
    assert {p.name for p in EXAMPLES.glob("*.json")} == set(texts)


def test_what_is_left_out_is_counted() -> None:
    texts, left_out = build()
    accepted = sum(
        1
        for text in texts.values()
        for sample in json.loads(text)["samples"]
        if sample["expect"] == "accept"
    )
    # 27 requests + 27 responses + 11 notifications in the docs; the progress page's
    # example request names no MCP method, two responses answer requests not shown.
    assert accepted == 62
    assert left_out == {
        "fragment": 53,
        "error_response": 11,
        "array": 1,
        "unparseable": 1,
        "response without its request": 2,
        "not an MCP method": 1,
    }
