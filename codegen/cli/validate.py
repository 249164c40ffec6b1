"""Validate wire messages against a spec, through the generated bindings.

Phase: audit (``codegen validate``).
Inputs: the project (where the generated package lives), a spec folder, and files of
messages: one JSON document; JSON Lines of messages or JSON-RPC batches (arrays); or a stub
server's ``--transcript`` (JSON Lines of ``{"time", "direction", "peer", "message"}``,
``"raw"`` for what was not JSON); ``-`` is stdin.  Optionally ``--method``/``--part`` for
bare params or result values.
Outputs: one ``Finding`` per problem: the file's line (and the item of a batch), the JSON
pointer into the message, the error, and the spec source line that declares the field at
that pointer; and the number of messages read.
Guarantees: every line is read: a line that is not JSON (or not UTF-8) is a finding and
the next line is still checked; a JSON-RPC envelope is matched to its method
automatically (requests and notifications by ``method``; responses by ``id`` to an earlier
request, per peer and direction in a transcript; envelope protocols without ids pair a
response with the last request); the kind (request or notification) is checked against
the method table; malformed input is a finding, never a crash; a spec that does not load
or was never generated is a ``ValidateError`` with what to run.
"""

from __future__ import annotations

import importlib
import json
import math
import os
import stat
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from types import ModuleType
from typing import Any, BinaryIO

from pydantic import TypeAdapter, ValidationError

from codegen import ir
from codegen.diagnostics import did_you_mean
from codegen.ir.index import Index
from codegen.passes.infer_discriminators import select_variant
from codegen.project import Project
from codegen.runtime.dispatch import read_params
from codegen.runtime.errors import RpcError

__all__ = ["Finding", "Record", "ValidateError", "Validator", "read_records"]


class ValidateError(Exception):
    """Validation cannot start: no such file, a spec that does not load, no package."""


@dataclass(frozen=True)
class Record:
    """One JSON value of a file (a line of JSON Lines), or why the line is not one."""

    line: int
    value: Any = None
    error: str | None = None


@dataclass(frozen=True)
class Finding:
    line: int  # 1-based line of the file
    pointer: str
    error: str
    declared_at: str = ""
    item: int | None = None  # position in a JSON-RPC batch

    def render(self, file: str) -> str:
        where = f" (declared at {self.declared_at})" if self.declared_at else ""
        batch = f"batch item {self.item}: " if self.item is not None else ""
        return f"{file}:{self.line}: {batch}{self.pointer or '/'}: {self.error}{where}"


def read_records(path: Path) -> Iterator[Record]:
    """The JSON values of a file, read as a stream: one document (possibly over many
    lines), else one per non-blank line.  Only regular files (and ``-``, stdin) are
    read: a FIFO, a device or a folder is a ``ValidateError``, never a hang.  JSON is
    read as the runtime reads it: ``NaN``, ``Infinity`` and numbers no double holds
    (``1e400``) are not JSON."""
    with _open_input(path) as stream:
        lines = _lines(stream)
        held: list[tuple[int, bytes]] = []  # lines read while looking for the document
        size = 0
        for number, raw in lines:
            if not raw.strip() and not held:
                continue
            held.append((number, raw))
            size += len(raw)
            if len(held) == 1 and _record(number, raw).error is None:
                break  # the first line is JSON by itself: JSON Lines, streamed
            if size > MAX_DOCUMENT_BYTES:
                break  # too long for one document: lines
        else:  # the whole input is held: one document, or lines
            text = b"".join(raw for _, raw in held)
            whole = _record(held[0][0] if held else 1, text)
            if held and whole.error is None:
                yield whole
                return
        for number, raw in held:
            if raw.strip():
                yield _record(number, raw)
        for number, raw in lines:
            if raw.strip():
                yield _record(number, raw)


MAX_DOCUMENT_BYTES = 64 * 1024 * 1024
"""The largest input read whole as one (multi-line) JSON document; JSON Lines are
streamed, whatever their total size."""


def _open_input(path: Path) -> BinaryIO:
    """``path`` opened for reading, if it is stdin (``-``) or a regular file."""
    if str(path) == "-":
        return os.fdopen(os.dup(sys.stdin.fileno()), "rb")
    try:
        # Non-blocking: opening a FIFO no writer holds must not wait for one.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as exc:
        raise ValidateError(f"cannot read {path}: {exc.strerror or exc}") from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise ValidateError(
            f"cannot read {path}: not a regular file (a FIFO, device or folder)"
        )
    os.set_blocking(fd, True)
    return os.fdopen(fd, "rb")


def _lines(stream: BinaryIO) -> Iterator[tuple[int, bytes]]:
    """Numbered lines (with their newline) of ``stream``, read one at a time."""
    try:
        yield from enumerate(stream, 1)
    except OSError as exc:
        raise ValidateError(f"cannot read: {exc.strerror or exc}") from None


def _record(number: int, raw: bytes) -> Record:
    try:
        return Record(number, _DECODER.decode(raw.decode("utf-8")))
    except UnicodeDecodeError as exc:
        return Record(number, error=f"not UTF-8 ({exc.reason})")
    except json.JSONDecodeError as exc:
        return Record(number, error=f"not JSON: {exc.msg} (column {exc.colno})")
    except (ValueError, RecursionError) as exc:
        return Record(number, error=f"not JSON: {exc}")


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):  # 1e400: no double holds it (as the runtime says)
        raise ValueError(f"number out of range: {text[:40]}")
    return value


_DECODER = json.JSONDecoder(parse_constant=_no_constant, parse_float=_finite)


def _transcript_entry(value: Any) -> bool:
    """A line of a stub server's --transcript (not a JSON-RPC message)."""
    return (
        isinstance(value, dict)
        and value.get("direction") in ("in", "out")
        and ("message" in value or "raw" in value)
        and "jsonrpc" not in value
        and "method" not in value
    )


class Validator:
    def __init__(self, project: Project, spec_dir: Path) -> None:
        outcome = project.load(spec_dir)
        name = spec_dir.name
        if outcome.protocol is None or outcome.config is None or not outcome.ok():
            raise ValidateError(
                f"spec {name!r} does not load; `codegen check {name}` says why"
            )
        self.protocol = outcome.protocol
        self.index = Index(self.protocol)
        config = outcome.config
        python_dir = project.output_dir(config.id) / "python"
        if not (python_dir / config.python_package / "__init__.py").is_file():
            raise ValidateError(
                f"spec {name!r} has not been generated "
                f"({project.show(python_dir / config.python_package)} does not exist); "
                f"run `codegen generate {name}` first"
            )
        self.package = _import(python_dir, config.python_package)
        self.jsonrpc = self.protocol.transport.kind == "jsonrpc-2.0"
        # an event envelope: the key of each part (requests, responses, events)
        self.envelope = dict(self.protocol.transport.fields) or None

    def validate(
        self,
        records: Iterable[Record],
        method: str | None = None,
        part: str | None = None,
    ) -> tuple[list[Finding], int]:
        """Every problem of the records, and how many messages they hold."""
        findings: list[Finding] = []
        count = 0
        self._pending: dict[tuple[str, str | None, str], str] = {}
        self._last: dict[tuple[str, str | None], str | None] = {}
        for record in records:
            if record.error is not None:
                count += 1
                findings.append(Finding(record.line, "", record.error))
                continue
            message, direction, peer = record.value, None, ""
            if _transcript_entry(message):
                direction, peer = message["direction"], str(message.get("peer", ""))
                if "message" not in message:
                    count += 1
                    findings.append(
                        Finding(
                            record.line, "/raw", "the peer sent text that is not JSON"
                        )
                    )
                    continue
                message = message["message"]
            if method is not None and part is not None:
                count += 1
                found = self._check_part(message, method, part, "")
                findings += [_at(f, record.line, None) for f in found]
                continue
            if isinstance(message, list) and self.jsonrpc:
                if not message:
                    count += 1
                    findings.append(
                        Finding(record.line, "", "an empty batch is an invalid request")
                    )
                for item, element in enumerate(message):
                    count += 1
                    found = self._message(element, direction, peer)
                    findings += [_at(f, record.line, item) for f in found]
                continue
            count += 1
            found = self._message(message, direction, peer)
            findings += [_at(f, record.line, None) for f in found]
        return findings, count

    def _message(self, message: Any, direction: str | None, peer: str) -> list[Finding]:
        if not isinstance(message, dict):
            return [Finding(0, "", "a message must be a JSON object")]
        if self.envelope is not None:
            return self._envelope(message, self.envelope, direction, peer)
        if "method" in message:
            name = message["method"]
            found = self._request(message)
            wire = name if isinstance(name, str) else None
            if "id" in message and wire is not None:
                self._pending[(peer, direction, _id_key(message["id"]))] = wire
            self._last[(peer, direction)] = wire
            return found
        if "result" in message or "error" in message:
            back = _opposite(direction)
            if self.jsonrpc:
                key = (peer, back, _id_key(message.get("id")))
                name = self._pending.pop(key, None)
            else:
                name = self._last.pop((peer, back), None)
            return self._response(message, name)
        return [Finding(0, "", "neither a request nor a response")]

    def _envelope(
        self,
        message: dict[str, Any],
        keys: dict[str, str],
        direction: str | None,
        peer: str,
    ) -> list[Finding]:
        """An event envelope's message, read as the JSON-RPC one it stands for (its
        findings' pointers name the envelope's own keys)."""
        kind = message.get(keys["type"])
        if kind in ("request", "event"):
            name_key = keys["command"] if kind == "request" else keys["event"]
            params_key = keys["arguments"] if kind == "request" else keys["body"]
            name = message.get(name_key)
            standing: dict[str, Any] = {"method": name}
            if params_key in message:
                standing["params"] = message[params_key]
            if kind == "request" and isinstance(name, str):
                seq = _id_key(message.get(keys["seq"]))
                self._pending[(peer, direction, seq)] = name
            found = self._request(standing)
            pointers = {"/method": "/" + name_key, "/params": "/" + params_key}
            return [_renamed(f, pointers) for f in found]
        if kind == "response":
            success = message.get(keys["success"])
            if not isinstance(success, bool):
                return [Finding(0, "/" + keys["success"], "must be true or false")]
            if not success:
                return []
            seq = _id_key(message.get(keys["request_seq"]))
            name = self._pending.pop((peer, _opposite(direction), seq), None)
            if name is None:
                return [
                    Finding(
                        0,
                        "/" + keys["request_seq"],
                        "a response to no earlier request of this file; "
                        "use --method and --part to check a bare body",
                    )
                ]
            body = message.get(keys["body"])
            found = self._check_part(body, name, "result", "/" + keys["body"])
            return found
        return [
            Finding(0, "/" + keys["type"], 'must be "request", "response" or "event"')
        ]

    def _request(self, message: dict[str, Any]) -> list[Finding]:
        name = message["method"]
        if self.jsonrpc and message.get("jsonrpc") != "2.0":
            return [Finding(0, "/jsonrpc", 'must be "2.0"')]
        info = self.package.METHODS.get(name) if isinstance(name, str) else None
        if info is None:
            return [Finding(0, "/method", unknown_method(name, self.package))]
        is_request = "id" in message
        if self.jsonrpc and is_request != (info.kind == "request"):
            kind = (
                "a request (with an id)" if info.kind == "request" else "a notification"
            )
            return [Finding(0, "/id", f"{name} is {kind}")]
        has_params = "params" in message
        params = message.get("params") if has_params else {}
        try:
            # The server's own reading (absent params, params of a method that takes
            # none): a message the server accepts is valid here, and the reverse.
            read_params(info, name, has_params, params)
        except RpcError as exc:
            return [Finding(0, "/params", exc.message)]
        except ValidationError as exc:
            found = self._findings(params, exc, name, "params", "/params")
            if not has_params:
                return [
                    replace(f, error=f"params are required: {f.error}") for f in found
                ]
            return found
        return []

    def _response(self, message: dict[str, Any], name: str | None) -> list[Finding]:
        if "error" in message:
            error = message["error"]
            if not isinstance(error, dict) or not isinstance(error.get("code"), int):
                return [Finding(0, "/error", "an error needs an integer code")]
            if not isinstance(error.get("message"), str):
                return [Finding(0, "/error/message", "an error needs a message string")]
            return []
        if name is None:
            return [
                Finding(
                    0,
                    "/id",
                    "a response to no earlier request of this file; "
                    "use --method and --part to check a bare result",
                )
            ]
        return self._check_part(message["result"], name, "result", "/result")

    def _check_part(
        self, value: Any, method: str, part: str, prefix: str
    ) -> list[Finding]:
        info = self.package.METHODS.get(method)
        if info is None:
            return [Finding(0, "", unknown_method(method, self.package))]
        adapter = info.params if part == "params" else info.result
        if adapter is None:
            adapter = TypeAdapter(None)
        try:
            adapter.validate_json(json.dumps(value))
        except ValidationError as exc:
            return self._findings(value, exc, method, part, prefix)
        return []

    def _findings(
        self, value: Any, exc: ValidationError, method: str, part: str, prefix: str
    ) -> list[Finding]:
        declared = self._declared_type(method, part)
        return _merge(
            [self._finding(value, error, prefix, declared) for error in exc.errors()]
        )

    def _declared_type(self, method: str, part: str) -> ir.TypeExpr | None:
        found = self.index.methods.get(method)
        if found is None:
            return None
        return found.params if part == "params" else found.result

    def _finding(
        self, value: Any, error: Any, prefix: str, root: ir.TypeExpr | None
    ) -> Finding:
        path = _instance_path(value, list(error.get("loc", ())))
        pointer = prefix + "".join(
            "/" + str(step).replace("~", "~0").replace("/", "~1") for step in path
        )
        span = _declaring_span(self.index, root, value, path)
        return Finding(0, pointer, str(error.get("msg", "invalid")), span)


def unknown_method(name: object, package: ModuleType) -> str:
    """``unknown method 'x'``, with the closest method of the spec."""
    hint = did_you_mean(name, package.METHODS) if isinstance(name, str) else ""
    return f"unknown method {name!r}{hint}"


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
            merged[finding.pointer] = replace(earlier, error=error)
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


def _at(finding: Finding, line: int, item: int | None) -> Finding:
    return replace(finding, line=line, item=item)


def _renamed(finding: Finding, pointers: dict[str, str]) -> Finding:
    """``finding`` with its pointer's first key as the envelope spells it."""
    for old, new in pointers.items():
        if finding.pointer == old or finding.pointer.startswith(old + "/"):
            return replace(finding, pointer=new + finding.pointer[len(old) :])
    return finding


def _id_key(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def _opposite(direction: str | None) -> str | None:
    return {"in": "out", "out": "in"}.get(direction or "")


def _import(python_dir: Path, package: str) -> ModuleType:
    """The generated package, imported from ``python_dir`` (the same import name from
    another place earlier in this process is not reused)."""
    if str(python_dir) not in sys.path:
        sys.path.insert(0, str(python_dir))
    loaded = sys.modules.get(package)
    origin = getattr(loaded, "__file__", None) or ""
    if loaded is not None and not Path(origin).is_relative_to(python_dir):
        for name in [
            m for m in sys.modules if m == package or m.startswith(package + ".")
        ]:
            del sys.modules[name]
    try:
        return importlib.import_module(package)
    except Exception as exc:  # noqa: BLE001 - a hand-edited or half-written package
        raise ValidateError(
            f"cannot import the generated package {package} from {python_dir}: {exc}; "
            "regenerate it"
        ) from None
