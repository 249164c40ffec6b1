"""The method table of a prose spec, from ``Request:`` / ``Response:`` lines under headings.

Phase: frontend helper (used by ``prose.py``).
Inputs: the blocks of one document (``markdown_blocks``), a ``DocText`` for spans, the spec's
roles.  A method section reads::

    ### Meta
    The meta request is sent by the client to the provider to ...
    Request: { method: "meta", params: MetaParams, settings?: object }
    Response: { result: MetaResult }

Outputs: ``ir.Method``s: wire name from ``method: "..."``, params from ``params: X``, result
from ``result: Y``, docs from the prose between the heading and the ``Request:`` line,
direction from "sent by the <role> to the <role>" (else first role → second role).
Guarantees: never raises; a malformed line is an MTH001 error with the span of the offending
text, a missing ``Response:`` an MTH003 warning, an unsupported type text SYN003.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, replace

from codegen import ir
from codegen.diagnostics import Diagnostics
from codegen.frontends.prose.markdown_blocks import HEADING, PARAGRAPH, Block
from codegen.frontends.typescript.tstypes import PREDEFINED

_REQUEST = re.compile(r"^Request:\s*")
_RESPONSE = re.compile(r"^Response:\s*")
_ENTRY = re.compile(
    r"^\s*(?P<key>[A-Za-z_$][\w$]*)(?P<opt>\?)?\s*:\s*(?P<value>.*?)\s*$"
)
_TYPE = re.compile(r"^(?P<name>[A-Za-z_$][\w$]*)(?P<arrays>(?:\s*\[\s*\])*)$")
_WIRE_NAME = re.compile(r"^(\"[^\"]*\"|'[^']*')$")
_SENT_BY = re.compile(r"sent by the (\w+) to the (\w+)", re.IGNORECASE)
_REQUEST_KEYS = ("method", "params", "settings")
# Type names a prose spec may use besides TypeScript's own (``code: integer``).
PROSE_ONLY_TYPES: dict[str, ir.TypeExpr] = {
    "integer": ir.Primitive(ir.PrimitiveKind.INTEGER)
}
# What a ``Request:`` / ``Response:`` line may name without a declaration.
PROSE_TYPES: dict[str, ir.TypeExpr] = {
    **PREDEFINED,
    "null": ir.Primitive(ir.PrimitiveKind.NULL),
    **PROSE_ONLY_TYPES,
}


class DocText:
    """Character offsets of one document → spans (1-based line, character column)."""

    def __init__(self, rel_path: str, text: str) -> None:
        self.rel_path = rel_path
        self.text = text
        self.starts = [0] + [i + 1 for i, c in enumerate(text) if c == "\n"]

    def span(self, offset: int) -> ir.Span:
        offset = min(max(offset, 0), len(self.text))
        row = bisect_right(self.starts, offset) - 1
        return ir.Span(self.rel_path, row + 1, offset - self.starts[row] + 1)

    def offset(self, line: int, col: int) -> int:
        """The character offset of a 1-based line and column (the inverse of ``span``)."""
        row = min(max(line, 1), len(self.starts)) - 1
        return self.starts[row] + max(col - 1, 0)

    def block_span(self, block: Block, index: int = 0) -> ir.Span:
        if not block.origins:
            return self.span(0)
        return self.span(block.origins[min(max(index, 0), len(block.origins) - 1)])


@dataclass
class _Entry:
    key: str
    optional: bool
    value: str
    start: int  # index of the value in the block text
    key_start: int


def read_methods(
    blocks: list[Block], doc: DocText, roles: tuple[str, str], diags: Diagnostics
) -> list[ir.Method]:
    methods: list[ir.Method] = []
    seen: dict[str, ir.Span] = {}
    prose: list[str] = []
    current: ir.Method | None = None
    answered: ir.Method | None = None  # the method the last Response: line completed
    for block in blocks:
        if block.kind == HEADING:
            _close(current, methods, doc, diags)
            current, answered, prose = None, None, []
            continue
        if block.kind != PARAGRAPH:
            continue
        if _REQUEST.match(block.text):
            _close(current, methods, doc, diags)
            current = _request(block, doc, "\n\n".join(prose), roles, diags)
            answered, prose = None, []
            if current is not None and current.wire_name in seen:
                diags.report(
                    "MTH002",
                    f"method {current.wire_name} is declared twice "
                    f"(first at {seen[current.wire_name]})",
                    current.span,
                )
                current = None
            elif current is not None:
                seen[current.wire_name] = current.span
        elif _RESPONSE.match(block.text):
            if current is None:
                diags.report(
                    "MTH001",
                    (
                        f"method {answered.wire_name} has a second Response: line"
                        if answered
                        else "a Response: line without a Request: line before it"
                    ),
                    doc.block_span(block),
                )
            else:
                result = _response(block, doc, diags)
                if result is not None:
                    answered = replace(current, result=result)
                    methods.append(answered)
                    current = None
        elif current is None:
            prose.append(block.text)
    _close(current, methods, doc, diags)
    return methods


def _close(
    method: ir.Method | None,
    methods: list[ir.Method],
    doc: DocText,
    diags: Diagnostics,
) -> None:
    if method is None:
        return
    diags.report(
        "MTH003",
        f"method {method.wire_name} has no Response: {{ result: ... }} line; "
        "its result is read as null",
        method.span,
    )
    methods.append(method)


def _request(
    block: Block, doc: DocText, docs: str, roles: tuple[str, str], diags: Diagnostics
) -> ir.Method | None:
    entries = _object_entries(block, _REQUEST, doc, diags)
    if entries is None:
        return None
    by_key: dict[str, _Entry] = {}
    for entry in entries:
        if entry.key not in _REQUEST_KEYS:
            diags.report(
                "SYN002",
                f"unknown key {entry.key!r} in a Request: line; ignored",
                doc.block_span(block, entry.key_start),
            )
        by_key.setdefault(entry.key, entry)
    method = by_key.get("method")
    if method is None or not _WIRE_NAME.match(method.value):
        where = method.start if method else 0
        diags.report(
            "MTH001",
            'a Request: line needs method: "<wire name>" (a quoted string)',
            doc.block_span(block, where),
        )
        return None
    wire_name = method.value[1:-1]
    span = doc.block_span(block, method.start + 1)
    if not wire_name.strip():
        diags.report("MTH001", "a method's wire name is empty", span)
        return None
    params_entry = by_key.get("params")
    params = _type(params_entry, block, doc, diags) if params_entry else None
    if params_entry is None:
        diags.report(
            "MTH003", f"method {wire_name} has no params: entry; it sends none", span
        )
    return ir.Method(
        wire_name=wire_name,
        kind=ir.MethodKind.REQUEST,
        direction=_direction(docs, roles),
        params=params,
        result=None,
        lifecycle=ir.Lifecycle(docs=docs),
        span=span,
    )


def _response(block: Block, doc: DocText, diags: Diagnostics) -> ir.TypeExpr | None:
    entries = _object_entries(block, _RESPONSE, doc, diags)
    if entries is None:
        return None
    result = next((e for e in entries if e.key == "result"), None)
    for entry in entries:
        if entry.key != "result":
            diags.report(
                "SYN002",
                f"unknown key {entry.key!r} in a Response: line; ignored",
                doc.block_span(block, entry.key_start),
            )
    if result is None:
        diags.report(
            "MTH001",
            "a Response: line needs result: <type>",
            doc.block_span(block),
        )
        return None
    return _type(result, block, doc, diags)


def _object_entries(
    block: Block, prefix: re.Pattern[str], doc: DocText, diags: Diagnostics
) -> list[_Entry] | None:
    """The ``key: value`` entries of ``Prefix: { ... }``, split at top-level commas."""
    text = block.text
    head = prefix.match(text)
    start = head.end() if head else 0
    end = text.rfind("}")
    if not text[start:].startswith("{") or end <= start:
        diags.report(
            "MTH001",
            f"expected {{ ... }} after {text[: start].strip() or 'the label'}",
            doc.block_span(block, start),
        )
        return None
    entries: list[_Entry] = []
    depth, piece_start = 0, start + 1
    for index in range(start + 1, end + 1):
        char = text[index] if index < end else ","
        if char in "{[(<":
            depth += 1
        elif char in "}])>":
            depth -= 1
        elif char == "," and depth <= 0:
            piece = text[piece_start:index]
            if piece.strip():
                entry = _ENTRY.match(piece)
                if entry is None:
                    diags.report(
                        "MTH001",
                        f"expected key: value, got {piece.strip()!r}",
                        doc.block_span(block, piece_start),
                    )
                    return None
                entries.append(
                    _Entry(
                        entry.group("key"),
                        bool(entry.group("opt")),
                        entry.group("value"),
                        piece_start + entry.start("value"),
                        piece_start + entry.start("key"),
                    )
                )
            piece_start = index + 1
    return entries


def _type(
    entry: _Entry, block: Block, doc: DocText, diags: Diagnostics
) -> ir.TypeExpr | None:
    match = _TYPE.match(entry.value)
    span = doc.block_span(block, entry.start)
    if match is None:
        diags.report(
            "SYN003",
            f"{entry.key}: {entry.value!r} is not a type name (or a name with []); "
            "name a declared type instead",
            span,
        )
        return None
    name = match.group("name")
    expr = PROSE_TYPES.get(name) or ir.Ref(name, span)
    for _ in range(match.group("arrays").count("[")):
        expr = ir.ArrayOf(expr)
    return expr


def _direction(docs: str, roles: tuple[str, str]) -> ir.Direction:
    known = {role.lower(): role for role in roles}
    match = _SENT_BY.search(docs)
    if match:
        sender, receiver = match.group(1).lower(), match.group(2).lower()
        if sender in known and receiver in known and sender != receiver:
            return ir.Direction(known[sender], known[receiver])
    return ir.Direction(roles[0], roles[1])
