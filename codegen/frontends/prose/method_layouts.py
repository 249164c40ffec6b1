"""Method descriptions in the common prose layouts: labelled bullet lists and tables.

Phase: frontend helper (used by ``prose.reader`` beside ``prose.methods``, which reads the
``Request: { ... }`` one-liners).
Inputs: the blocks of one document, a ``DocText`` for spans, the spec's roles, the
declared type names.  A method section reads, with bold or italic labels (``_Request_:``,
``**Notification**:``, ``*Response*:``) or label headings (``#### Request``)::

    ### Lookup
    The lookup request is sent by the client to the server.

    _Request_:
    * method: 'doc/lookup'
    * params: `LookupParams`

    _Response_:
    * result: `Entry` | `null`
    * error: code and message set in case an exception happens

or a table with a header naming ``method`` (and ``params``, ``result``, ``direction`` /
``sender``, ``kind`` / ``type`` columns), one method a row.
Outputs: ``Evidence`` per method: the kind from the label (``Notification`` → a
notification; ``Request`` → a request), the params and result read as prose types
(``type_syntax``: backticks dropped, ``none``/``void`` → none), the direction from an arrow
or "sent by the <a> to the <b>" / "from the <a> to the <b>" in the section (else the first
role's, as a note), the docs from the section's prose.
Guarantees: never raises; a ``method:`` value that is not a quoted or back-ticked name is
not read; a type text naming no declared type is an MTH010 error on its line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from codegen import ir
from codegen.diagnostics import Diagnostics
from codegen.frontends.prose.markdown_blocks import HEADING, LIST_ITEM, PARAGRAPH, Block
from codegen.frontends.prose.methods import DocText
from codegen.methods.evidence import Evidence
from codegen.methods.type_syntax import SyntaxProblem, read_type

_LABEL = re.compile(
    r"^\s*[_*]{0,2}(?P<label>Request|Response|Notification|Result|Params|Parameters)"
    r"[_*]{0,2}\s*:?[_*]{0,2}\s*(?P<rest>.*)$",
    re.IGNORECASE | re.DOTALL,
)
_KEY = re.compile(
    r"^\s*(?:[-*+]\s+)?[_*`]{0,2}(?P<key>method|params|parameters|result|error|"
    r"direction)[_*`]{0,2}\s*:\s*(?P<value>.*?)\s*$",
    re.IGNORECASE,
)
_WIRE = re.compile(r"^[`'\"](?P<wire>[^`'\"]+)[`'\"]")
_SENT = re.compile(
    r"(?:sent|goes)? ?(?:by|from) the (\w+) to the (\w+)|\b(\w+)\s*(?:→|->)\s*(\w+)\b",
    re.IGNORECASE,
)
_NONE = {"none", "void", "-", "—", "n/a", ""}


@dataclass
class _Section:
    prose: list[str] = field(default_factory=list)
    label: str = ""
    current: Evidence | None = None


def read_layouts(
    blocks: list[Block],
    doc: DocText,
    roles: tuple[str, str],
    declared: set[str],
    diags: Diagnostics,
) -> list[Evidence]:
    out: list[Evidence] = []
    section = _Section()
    for block in blocks:
        if block.kind == HEADING:
            label = _LABEL.match(block.text)
            if label is not None and not label.group("rest").strip():
                section.label = label.group("label").lower()
                continue
            section = _Section()
            continue
        if block.kind == PARAGRAPH and block.text.lstrip().startswith("|"):
            out.extend(_table(block, doc, roles, declared, diags))
            section = _Section()
            continue
        if block.kind not in (PARAGRAPH, LIST_ITEM):
            continue
        lines = block.text.split("\n")
        label = _LABEL.match(lines[0]) if block.kind == PARAGRAPH else None
        if label is not None:
            section.label = label.group("label").lower()
            rest = label.group("rest")
            lines = [rest] + lines[1:] if rest.strip() else lines[1:]
        offset = 0
        keyed = False
        for line in lines:
            at = block.text.find(line, offset) if line else offset
            offset = max(at, 0) + len(line)
            match = _KEY.match(line)
            if match is None:
                continue
            keyed = True
            span = doc.block_span(block, max(at, 0) + match.start("value"))
            section.current = _fact(
                section,
                match.group("key").lower(),
                match.group("value"),
                span,
                roles,
                declared,
                diags,
                out,
            )
        if not keyed and label is None and block.kind == PARAGRAPH:
            section.prose.append(block.text)
    for found in out:
        if found.direction is None:
            found.direction = ir.Direction(roles[0], roles[1])
            found.weak.add("direction")
            found.inferred["direction"] = (
                f"{roles[0]} → {roles[1]}: its section says no sender, so the first "
                f"role, {roles[0]}, is taken as the sender"
            )
    return out


def _fact(
    section: _Section,
    key: str,
    value: str,
    span: ir.Span,
    roles: tuple[str, str],
    declared: set[str],
    diags: Diagnostics,
    out: list[Evidence],
) -> Evidence | None:
    current = section.current
    if key == "method":
        wire = _WIRE.match(value.strip())
        if wire is None:
            return current
        found = Evidence(wire.group("wire"), "its method: line", span, exclusive=True)
        docs = "\n\n".join(section.prose).strip()
        found.lifecycle = ir.Lifecycle(docs=docs)
        found.kind = (
            ir.MethodKind.NOTIFICATION
            if section.label == "notification"
            else ir.MethodKind.REQUEST if section.label == "request" else None
        )
        found.direction = _direction(docs, roles)
        if found.kind is not None:
            found.how["kind"] = f"its section's {section.label.title()} label"
        if found.direction is not None:
            found.how["direction"] = "its section's prose names the sender"
        out.append(found)
        return found
    if current is None:
        return None
    if key in ("params", "parameters", "result", "direction"):
        current.how[key.replace("parameters", "params")] = f"its {key}: line ({span})"
    if key in ("params", "parameters"):
        current.params = _type(value, span, declared, diags, current.wire)
        if current.params is _BAD:
            current.params = ir.AnyJson()
    elif key == "result":
        result = _type(value, span, declared, diags, current.wire)
        if result is not _BAD:
            current.result = result
            current.answers_nothing = result is None
            if current.kind is None:
                current.kind = ir.MethodKind.REQUEST
    elif key == "direction":
        direction = _direction(value, roles)
        if direction is not None:
            current.direction = direction
    return current


_BAD = object()


def _type(
    value: str, span: ir.Span, declared: set[str], diags: Diagnostics, wire: str
) -> object:
    text = value.replace("`", "").strip().rstrip(".")
    if text.lower() in _NONE:
        return None
    read = read_type(text, "prose", declared)
    if isinstance(read, SyntaxProblem):
        diags.report("MTH010", f"{wire}: {text!r}: {read.message}", span)
        return _BAD
    return read


def _direction(text: str, roles: tuple[str, str]) -> ir.Direction | None:
    known = {role.lower(): role for role in roles}
    for match in _SENT.finditer(text):
        pair = [g.lower() for g in match.groups() if g is not None]
        if (
            len(pair) == 2
            and pair[0] in known
            and pair[1] in known
            and pair[0] != pair[1]
        ):
            return ir.Direction(known[pair[0]], known[pair[1]])
    return None


def _table(
    block: Block,
    doc: DocText,
    roles: tuple[str, str],
    declared: set[str],
    diags: Diagnostics,
) -> list[Evidence]:
    # A paragraph joins its lines; the table's rows are the document's lines.
    first = block.origins[0] if block.origins else 0
    raw = doc.text[first : (block.origins[-1] + 1) if block.origins else 0]
    rows: list[tuple[str, int]] = []
    at = first
    for line in raw.split("\n"):
        if line.strip().startswith("|"):
            rows.append((line, at))
        at += len(line) + 1
    if len(rows) < 3:
        return []
    header = [
        c.strip().strip("*_`").lower() for c in rows[0][0].strip().strip("|").split("|")
    ]
    if "method" not in header:
        return []
    out: list[Evidence] = []
    for row, at in rows[2:]:
        cells = [c.strip() for c in row.strip().strip("|").split("|")]
        values = dict(zip(header, cells, strict=False))
        wire = _WIRE.match(values.get("method", "")) or re.match(
            r"^(?P<wire>[\w$/.]+)$", values.get("method", "")
        )
        if wire is None:
            continue
        span = doc.span(at)
        found = Evidence(wire.group("wire"), "its table row", span, exclusive=True)
        kind = (values.get("kind") or values.get("type") or "").lower()
        if "notification" in kind:
            found.kind = ir.MethodKind.NOTIFICATION
        elif "request" in kind:
            found.kind = ir.MethodKind.REQUEST
        found.direction = _direction(
            values.get("direction") or values.get("sender") or "", roles
        )
        if "params" in values:
            params = _type(values["params"], span, declared, diags, found.wire)
            found.params = ir.AnyJson() if params is _BAD else params
        if "result" in values and found.kind is not ir.MethodKind.NOTIFICATION:
            result = _type(values["result"], span, declared, diags, found.wire)
            if result is not _BAD:
                found.result = result
                found.answers_nothing = result is None
                found.kind = found.kind or ir.MethodKind.REQUEST
        out.append(found)
    return out
