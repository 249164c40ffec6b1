"""Validate wire messages against a spec, through the generated bindings.

Phase: audit (``codegen validate``).
Inputs: a spec id, a file holding one JSON message or a JSON Lines transcript, optionally
``--method``/``--part`` for a bare params or result value.
Outputs: one ``Finding`` per problem: message number, JSON pointer into the message, the
error, and the spec source line that declares the field at that pointer.
Guarantees: a JSON-RPC envelope is matched to its method automatically (requests and
notifications by ``method``; responses by ``id`` to an earlier request of the transcript);
the direction is checked against the method table; malformed input is a finding, never a
crash.
"""

from __future__ import annotations

import importlib
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter, ValidationError

from codegen import ir
from codegen.ir.index import Index
from codegen.passes.infer_discriminators import select_variant
from codegen.pipeline import SpecOutcome, load_protocol


@dataclass(frozen=True)
class Finding:
    message: int  # 1-based position in the file
    pointer: str
    error: str
    declared_at: str = ""

    def render(self, file: str) -> str:
        where = f" (declared at {self.declared_at})" if self.declared_at else ""
        return f"{file}: message {self.message}: {self.pointer or '/'}: {self.error}{where}"


def read_messages(path: Path) -> list[Any] | str:
    """The messages in a file: one JSON document, or JSON Lines; an error text otherwise."""
    text = path.read_text(encoding="utf-8")
    try:
        return [json.loads(text)]
    except json.JSONDecodeError:
        pass
    messages: list[Any] = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            messages.append(json.loads(line))
        except json.JSONDecodeError as exc:
            return f"line {number} is not JSON: {exc.msg} (column {exc.colno})"
    return messages


class Validator:
    def __init__(self, repo: Path, spec: str) -> None:
        self.outcome: SpecOutcome = load_protocol(repo / "specs" / spec, repo)
        if self.outcome.protocol is None or self.outcome.config is None:
            raise ValueError(f"spec {spec!r} does not load; run `codegen check {spec}`")
        self.protocol = self.outcome.protocol
        self.index = Index(self.protocol)
        python_dir = str(repo / "generated" / spec / "python")
        if python_dir not in sys.path:
            sys.path.insert(0, python_dir)
        self.package = importlib.import_module(self.outcome.config.python_package)
        self.jsonrpc = self.protocol.transport.kind == "jsonrpc-2.0"

    def validate(
        self, messages: list[Any], method: str | None = None, part: str | None = None
    ) -> list[Finding]:
        findings: list[Finding] = []
        pending: dict[str, str] = {}  # request id (as JSON text) → method
        last_request: str | None = None
        for number, message in enumerate(messages, 1):
            if method is not None and part is not None:
                findings += self._check_part(number, message, method, part, "")
                continue
            if not isinstance(message, dict):
                findings.append(Finding(number, "", "a message must be a JSON object"))
                continue
            if "method" in message:
                name = message["method"]
                findings += self._request(number, message)
                if "id" in message and isinstance(name, str):
                    pending[json.dumps(message["id"])] = name
                last_request = name if isinstance(name, str) else None
            elif "result" in message or "error" in message:
                key = json.dumps(message.get("id"))
                name = pending.pop(key, None) if self.jsonrpc else last_request
                findings += self._response(number, message, name)
            else:
                findings.append(Finding(number, "", "neither a request nor a response"))
        return findings

    def _request(self, number: int, message: dict[str, Any]) -> list[Finding]:
        name = message["method"]
        if self.jsonrpc and message.get("jsonrpc") != "2.0":
            return [Finding(number, "/jsonrpc", 'must be "2.0"')]
        info = self.package.METHODS.get(name) if isinstance(name, str) else None
        if info is None:
            return [Finding(number, "/method", f"unknown method {name!r}")]
        is_request = "id" in message
        if self.jsonrpc and is_request != (info.kind == "request"):
            kind = (
                "a request (with an id)" if info.kind == "request" else "a notification"
            )
            return [Finding(number, "/id", f"{name} is {kind}")]
        if info.params is None:
            if "params" in message:
                return [Finding(number, "/params", f"{name} takes no params")]
            return []
        if "params" not in message:
            return [Finding(number, "/params", "missing")]
        return self._check_part(number, message["params"], name, "params", "/params")

    def _response(
        self, number: int, message: dict[str, Any], name: str | None
    ) -> list[Finding]:
        if "error" in message:
            error = message["error"]
            if not isinstance(error, dict) or not isinstance(error.get("code"), int):
                return [Finding(number, "/error", "an error needs an integer code")]
            if not isinstance(error.get("message"), str):
                return [
                    Finding(number, "/error/message", "an error needs a message string")
                ]
            return []
        if name is None:
            return [
                Finding(
                    number,
                    "/id",
                    "a response to no request of this transcript; "
                    "use --method and --part to check a bare result",
                )
            ]
        return self._check_part(number, message["result"], name, "result", "/result")

    def _check_part(
        self, number: int, value: Any, method: str, part: str, prefix: str
    ) -> list[Finding]:
        info = self.package.METHODS.get(method)
        if info is None:
            return [Finding(number, "", f"unknown method {method!r}")]
        adapter = info.params if part == "params" else info.result
        if adapter is None:
            adapter = TypeAdapter(None)
        try:
            adapter.validate_json(json.dumps(value))
        except ValidationError as exc:
            declared = self._declared_type(method, part)
            return _merge(
                [
                    self._finding(number, value, error, prefix, declared)
                    for error in exc.errors()
                ]
            )
        return []

    def _declared_type(self, method: str, part: str) -> ir.TypeExpr | None:
        found = self.index.methods.get(method)
        if found is None:
            return None
        return found.params if part == "params" else found.result

    def _finding(
        self, number: int, value: Any, error: Any, prefix: str, root: ir.TypeExpr | None
    ) -> Finding:
        path = _instance_path(value, list(error.get("loc", ())))
        pointer = prefix + "".join(
            "/" + str(step).replace("~", "~0").replace("/", "~1") for step in path
        )
        span = _declaring_span(self.index, root, value, path)
        return Finding(number, pointer, str(error.get("msg", "invalid")), span)


def _merge(findings: list[Finding]) -> list[Finding]:
    """One finding per pointer: a value failing every branch of ``int | float`` is one error."""
    merged: dict[str, Finding] = {}
    for finding in findings:
        earlier = merged.get(finding.pointer)
        if earlier is None:
            merged[finding.pointer] = finding
        elif finding.error not in earlier.error:
            error = (
                f"{earlier.error}; or {finding.error[:1].lower()}{finding.error[1:]}"
            )
            merged[finding.pointer] = Finding(
                earlier.message, earlier.pointer, error, earlier.declared_at
            )
    return list(merged.values())


def _instance_path(value: Any, loc: list[Any]) -> list[str | int]:
    """The steps of pydantic's ``loc`` that exist in the message (tags and validator names
    that pydantic inserts for unions are skipped)."""
    path: list[str | int] = []
    current = value
    for step in loc:
        if isinstance(current, dict) and isinstance(step, str):
            if step in current:
                path.append(step)
                current = current[step]
            elif step == loc[-1]:
                path.append(step)  # a missing key: the pointer names where it should be
        elif (
            isinstance(current, list)
            and isinstance(step, int)
            and 0 <= step < len(current)
        ):
            path.append(step)
            current = current[step]
    return path


def _declaring_span(
    index: Index, expr: ir.TypeExpr | None, value: Any, path: list[str | int]
) -> str:
    """The source line that declares the field the path ends at, following the message."""
    field_span = ""
    current = value
    for step in path:
        if expr is None:
            break
        expr = index.resolve(expr)
        if isinstance(step, int):
            expr = expr.items if isinstance(expr, ir.ArrayOf) else None
            current = (
                current[step]
                if isinstance(current, list) and step < len(current)
                else None
            )
            continue
        struct = _struct_for(index, expr, current)
        if struct is None:
            break
        found = next(
            (f for f in index.wire_fields(struct) if f.wire_name == step), None
        )
        if found is None:
            break
        field_span = f"{found.span.file}:{found.span.line}"
        expr = found.type
        current = current.get(step) if isinstance(current, dict) else None
    return field_span


def _struct_for(index: Index, expr: ir.TypeExpr, value: Any) -> ir.StructDecl | None:
    struct = index.struct_of(expr)
    if struct is not None:
        return struct
    union = index.get(expr.name) if isinstance(expr, ir.Ref) else None
    if not isinstance(union, ir.UnionDecl):
        return None
    variant = select_variant(union, value, index)
    return index.struct_of(variant.type) if variant and variant.type else None
