"""The method table of a TypeScript spec, however the spec declares it, and its JSDoc examples.

Phase: frontend helper (after the declarations are converted).
Inputs: ``Found`` facts from three kinds of declaration (``method_sources``): JSDoc blocks
tagged ``@method``/``@direction``/``@messageType`` (with ``@throws``, ``@example``);
interfaces carrying a literal ``method`` field (MCP's ``CallToolRequest``); registry
interfaces mapping method names to params and results (AHP's ``CommandMap``).
Outputs: one ``ir.Method`` per wire name, the facts of every source merged, in order of first
appearance; the ``@example`` wire samples; the facts no source gave (for spec.toml).
Guarantees: a malformed tag is a diagnostic (MTH001) and the tag is skipped, not guessed;
two sources that disagree on a method's kind, direction, params or result are an MTH006
error naming both; a method whose direction no source gives is an MTH006 error unless
spec.toml's ``[methods]`` gives it; an example that is not valid JSON is kept with
``skipped_reason`` and a note (EXM001).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from codegen import ir
from codegen.diagnostics import Diagnostics
from codegen.frontends.typescript.jsdoc import JsDoc, Tag, lifecycle_of
from codegen.frontends.typescript.jsonc_examples import split_examples
from codegen.frontends.typescript.materialize import pascal
from codegen.frontends.typescript.symbols import MethodComment
from codegen.methods.evidence import Evidence as Found
from codegen.methods.resolver import resolve
from codegen.spec.source import SourceText

_ARROWS = ("↔", "<->", "→", "->")
_CODE_PATTERNS = (
    re.compile(r"`(?P<code>-?\d+)`\s*\(`(?P<name>\w+)`\)"),
    re.compile(r"`(?P<name>[A-Za-z]\w*)`\s*\(`(?P<code>-?\d+)`\)"),
    re.compile(r"`(?P<name>[A-Za-z]\w*)`\s*`(?P<code>-?\d+)`"),
)


# ---------------------------------------------------------------------- JSDoc tags


def from_jsdoc(
    comment: MethodComment,
    decls: dict[str, ir.Decl],
    roles: tuple[str, str],
    diags: Diagnostics,
) -> Found | None:
    """A ``@method`` block: kind, direction, errors, examples; params and result are the
    ``...Params`` or ``...Result`` declaration the block is attached to and its partner
    (``SessionAddedParams`` for ``root/sessionAdded``), else ``<Method>Params`` /
    ``<Method>Result`` by the wire name (or by its last segment)."""
    doc, source = comment.doc, comment.source
    tag = doc.first("method")
    assert tag is not None
    span = _tag_span(source, tag)
    words = tag.text.strip().split()
    if not words:
        diags.report("MTH001", "@method needs a wire name", span)
        return None
    wire = words[0]
    type_tag = doc.first("messageType")
    kind_text = type_tag.text.strip().lower() if type_tag else ""
    kinds = {
        "request": ir.MethodKind.REQUEST,
        "notification": ir.MethodKind.NOTIFICATION,
    }
    if kind_text not in kinds:
        where = _tag_span(source, type_tag) if type_tag else span
        diags.report(
            "MTH001",
            f"method {wire}: @messageType must be Request or Notification, got {kind_text!r}",
            where,
        )
        return None
    direction_tag = doc.first("direction")
    if direction_tag is None:
        diags.report("MTH001", f"method {wire} has no @direction tag", span)
        return None
    direction = _direction(direction_tag.text.strip(), roles)
    if direction is None:
        diags.report(
            "MTH001",
            f"method {wire}: @direction {direction_tag.text.strip()!r} must read "
            f"'<role> → <role>' with roles {roles[0]!r} and {roles[1]!r}",
            _tag_span(source, direction_tag),
        )
        return None
    found = Found(
        wire, "its @method tag", span, kinds[kind_text], direction, exclusive=True
    )
    params, result = _pair(wire, comment.attached, decls)
    if params is not None:
        found.params = ir.Ref(params.name, params.span)
    if result is not None:
        found.result = ir.Ref(result.name, result.span)
    found.errors = _errors(doc, [d for d in (params, result) if d is not None])
    found.lifecycle = lifecycle_of(doc)
    found.examples = _examples(wire, doc, source, diags)
    if result is None:
        found.answers_nothing = any(_answers_null(e) for e in found.examples)
    return found


def _answers_null(example: ir.Example) -> bool:
    """An ``@example`` success response ``{"id": 2, "result": null}``: the source says
    the request answers nothing."""
    if example.skipped_reason is not None:
        return False
    try:
        value = json.loads(example.json_text)
    except ValueError:
        return False
    return isinstance(value, dict) and "result" in value and value["result"] is None


def _pair(
    wire: str, attached: str | None, decls: dict[str, ir.Decl]
) -> tuple[ir.Decl | None, ir.Decl | None]:
    params: ir.Decl | None = None
    result: ir.Decl | None = None
    stems: list[str] = []
    target = decls.get(attached) if attached is not None else None
    # Only a ``...Params`` / ``...Result`` declaration right after the tag is the method's
    # own: a tag may also stand before a helper (``interface HasUri``).
    if target is not None and target.name.endswith("Result"):
        result = target
        stems.append(target.name[: -len("Result")])
    elif target is not None and target.name.endswith("Params"):
        params = target
        stems.append(target.name[: -len("Params")])
    stems.append(pascal(wire))
    if "/" in wire:  # ``root/sessionAdded`` → ``SessionAddedParams`` too
        stems.append(pascal(wire.rsplit("/", 1)[1]))
    if params is None:
        params = next(
            (decls[s + "Params"] for s in stems if s + "Params" in decls), None
        )
    if result is None:
        result = next(
            (decls[s + "Result"] for s in stems if s + "Result" in decls), None
        )
    return params, result


def _direction(text: str, roles: tuple[str, str]) -> ir.Direction | None:
    for arrow in _ARROWS:
        if arrow in text:
            left, right = (part.strip().lower() for part in text.split(arrow, 1))
            known = {role.lower(): role for role in roles}
            if left in known and right in known and left != right:
                return ir.Direction(
                    known[left], known[right], both_ways=arrow in ("↔", "<->")
                )
            return None
    return None


def _errors(doc: JsDoc, related: list[ir.Decl]) -> tuple[ir.ErrorCode, ...]:
    found: dict[int, ir.ErrorCode] = {}
    for tag in doc.all("throws"):
        for code, name in _codes_in(tag.text):
            found.setdefault(
                code, ir.ErrorCode(code, name, tag.text.split(")", 1)[-1].strip())
            )
    texts = [doc.description] + [decl.lifecycle.docs for decl in related]
    for text in texts:
        for code, name in _codes_in(text):
            found.setdefault(code, ir.ErrorCode(code, name))
    return tuple(found[code] for code in sorted(found, reverse=True))


def _codes_in(text: str) -> list[tuple[int, str]]:
    out: list[tuple[int, str]] = []
    for pattern in _CODE_PATTERNS:
        for match in pattern.finditer(text):
            out.append((int(match.group("code")), match.group("name")))
    return out


def _examples(
    wire: str, doc: JsDoc, source: SourceText, diags: Diagnostics
) -> list[ir.Example]:
    out: list[ir.Example] = []
    for tag in doc.all("example"):
        for sample in split_examples(tag.text, tag.text_line):
            index = len(out) + 1
            span = _line_span(source, sample.line)
            if sample.error is not None:
                diags.report(
                    "EXM001",
                    f"{wire} example {index} ({sample.note or 'untitled'}) skipped: "
                    f"{sample.error}",
                    span,
                )
            out.append(
                ir.Example(
                    name=f"{wire}.{index}",
                    json_text=sample.json_text,
                    part=ir.ExamplePart.MESSAGE,
                    expect=ir.Expectation.ACCEPT,
                    method=wire,
                    span=span,
                    skipped_reason=sample.error,
                    note=sample.note,
                )
            )
    return out


def _tag_span(source: SourceText, tag: Tag) -> ir.Span:
    return _line_span(source, tag.line, "@" + tag.name)


def _line_span(source: SourceText, line: int, needle: str | None = None) -> ir.Span:
    text = source.line_text(line)
    column = text.find(needle) if needle else len(text) - len(text.lstrip())
    return ir.Span(source.rel_path, line, max(column, 0) + 1)


# ---------------------------------------------------------------------- merging


@dataclass
class Table:
    methods: list[ir.Method]
    examples: list[ir.Example]
    unknown: dict[str, set[str]]  # wire name → facts no source gave
    provenance: dict[str, dict[str, str]] = field(default_factory=dict)


def merge(
    found: list[Found],
    roles: tuple[str, str],
    supplied: dict[str, set[str]],
    diags: Diagnostics,
) -> Table:
    """One method per wire name from every source's facts (the shared resolver);
    ``supplied``: the facts spec.toml's ``[methods]`` gives per wire name (so a missing
    one is no error)."""
    resolved = resolve(found, roles, supplied, diags)
    return Table(
        resolved.methods, resolved.examples, resolved.unknown, resolved.provenance
    )
