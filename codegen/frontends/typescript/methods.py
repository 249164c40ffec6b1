"""The method table of a TypeScript spec, from JSDoc tags, and its ``@example`` wire samples.

Phase: frontend helper.
Inputs: JSDoc blocks tagged ``@method``, ``@direction``, ``@messageType``, ``@throws``,
``@example``; the declarations of the file set (to pair ``<Method>Params``/``<Method>Result``).
Outputs: ``ir.Method``s and ``ir.Example``s (whole JSON-RPC messages, verbatim).
Guarantees: a malformed tag is a diagnostic (MTH001) and the method is skipped, not guessed;
an example that is not valid JSON (``...`` placeholders) is kept with ``skipped_reason`` and a
note diagnostic (EXM001), never dropped silently.

Pairing rule: a method ``fooBar`` takes ``FooBarParams`` and answers ``FooBarResult`` when
those declarations exist; a request without a ``...Result`` declaration answers ``null``.
Error codes come from ``@throws `Name` (`-32008`)`` and from the same backquoted pattern in the
method's, params' and result's prose (``code `-32005` (`UnsupportedProtocolVersion`)``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from codegen import ir
from codegen.diagnostics import Diagnostics
from codegen.frontends.typescript.jsdoc import JsDoc, Tag, lifecycle_of
from codegen.frontends.typescript.jsonc_examples import split_examples
from codegen.frontends.typescript.type_exprs import pascal
from codegen.spec.source import SourceText

_ARROWS = ("↔", "<->", "→", "->")
_CODE_PATTERNS = (
    re.compile(r"`(?P<code>-?\d+)`\s*\(`(?P<name>\w+)`\)"),
    re.compile(r"`(?P<name>[A-Za-z]\w*)`\s*\(`(?P<code>-?\d+)`\)"),
    re.compile(r"`(?P<name>[A-Za-z]\w*)`\s*`(?P<code>-?\d+)`"),
)


@dataclass(frozen=True, slots=True)
class MethodDoc:
    wire_name: str
    kind: ir.MethodKind
    direction_text: str
    doc: JsDoc
    span: ir.Span
    direction_span: ir.Span
    source: SourceText


def method_from_jsdoc(
    doc: JsDoc, source: SourceText, diags: Diagnostics
) -> MethodDoc | None:
    """A ``MethodDoc`` if the JSDoc declares a method (has ``@method``), else None."""
    method_tag = doc.first("method")
    if method_tag is None:
        return None
    span = _tag_span(source, method_tag)
    name = method_tag.text.strip().split()[0] if method_tag.text.strip() else ""
    if not name:
        diags.report("MTH001", "@method needs a wire name", span)
        return None
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
            f"method {name}: @messageType must be Request or Notification, got {kind_text!r}",
            where,
        )
        return None
    direction_tag = doc.first("direction")
    if direction_tag is None:
        diags.report("MTH001", f"method {name} has no @direction tag", span)
        return None
    return MethodDoc(
        name,
        kinds[kind_text],
        direction_tag.text.strip(),
        doc,
        span,
        _tag_span(source, direction_tag),
        source,
    )


def pair_methods(
    docs: list[MethodDoc],
    decls: list[ir.Decl],
    roles: tuple[str, str],
    diags: Diagnostics,
) -> tuple[list[ir.Method], list[ir.Example]]:
    by_name = {decl.name: decl for decl in decls}
    methods: list[ir.Method] = []
    examples: list[ir.Example] = []
    seen: dict[str, ir.Span] = {}
    for doc in docs:
        if doc.wire_name in seen:
            diags.report(
                "MTH002",
                f"method {doc.wire_name} is declared twice (first at {seen[doc.wire_name]})",
                doc.span,
            )
            continue
        seen[doc.wire_name] = doc.span
        direction = _direction(doc, roles, diags)
        if direction is None:
            continue
        stem = pascal(doc.wire_name)
        params = by_name.get(stem + "Params")
        result = by_name.get(stem + "Result")
        if params is None:
            diags.report(
                "MTH003",
                f"method {doc.wire_name} has no {stem}Params declaration; it sends no params",
                doc.span,
            )
        if result is not None and doc.kind is ir.MethodKind.NOTIFICATION:
            diags.report(
                "MTH003",
                f"notification {doc.wire_name} cannot have a result ({stem}Result ignored)",
                doc.span,
            )
            result = None
        methods.append(
            ir.Method(
                wire_name=doc.wire_name,
                kind=doc.kind,
                direction=direction,
                params=ir.Ref(params.name, params.span) if params else None,
                result=ir.Ref(result.name, result.span) if result else None,
                errors=_errors(doc, [d for d in (params, result) if d is not None]),
                lifecycle=lifecycle_of(doc.doc),
                span=doc.span,
            )
        )
        examples.extend(_examples(doc, diags))
    return methods, examples


def _direction(
    doc: MethodDoc, roles: tuple[str, str], diags: Diagnostics
) -> ir.Direction | None:
    text = doc.direction_text
    for arrow in _ARROWS:
        if arrow in text:
            left, right = (part.strip().lower() for part in text.split(arrow, 1))
            known = {role.lower(): role for role in roles}
            if left in known and right in known and left != right:
                return ir.Direction(
                    known[left], known[right], both_ways=arrow in ("↔", "<->")
                )
            break
    diags.report(
        "MTH001",
        f"method {doc.wire_name}: @direction {text!r} must read '<role> → <role>' with roles "
        f"{roles[0]!r} and {roles[1]!r}",
        doc.direction_span,
    )
    return None


def _errors(doc: MethodDoc, related: list[ir.Decl]) -> tuple[ir.ErrorCode, ...]:
    found: dict[int, ir.ErrorCode] = {}
    for tag in doc.doc.all("throws"):
        for code, name in _codes_in(tag.text):
            found.setdefault(
                code, ir.ErrorCode(code, name, tag.text.split(")", 1)[-1].strip())
            )
    texts = [doc.doc.description] + [decl.lifecycle.docs for decl in related]
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


def _examples(doc: MethodDoc, diags: Diagnostics) -> list[ir.Example]:
    out: list[ir.Example] = []
    for tag in doc.doc.all("example"):
        for sample in split_examples(tag.text, tag.text_line):
            index = len(out) + 1
            span = _line_span(doc.source, sample.line)
            if sample.error is not None:
                diags.report(
                    "EXM001",
                    f"{doc.wire_name} example {index} ({sample.note or 'untitled'}) skipped: "
                    f"{sample.error}",
                    span,
                )
            out.append(
                ir.Example(
                    name=f"{doc.wire_name}.{index}",
                    json_text=sample.json_text,
                    part=ir.ExamplePart.MESSAGE,
                    expect=ir.Expectation.ACCEPT,
                    method=doc.wire_name,
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
