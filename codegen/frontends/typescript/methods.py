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

import re
from dataclasses import dataclass, field

from codegen import ir
from codegen.diagnostics import Diagnostics
from codegen.frontends.typescript.jsdoc import JsDoc, Tag, lifecycle_of
from codegen.frontends.typescript.jsonc_examples import split_examples
from codegen.frontends.typescript.materialize import pascal
from codegen.frontends.typescript.symbols import MethodComment
from codegen.spec.source import SourceText

_ARROWS = ("↔", "<->", "→", "->")
_CODE_PATTERNS = (
    re.compile(r"`(?P<code>-?\d+)`\s*\(`(?P<name>\w+)`\)"),
    re.compile(r"`(?P<name>[A-Za-z]\w*)`\s*\(`(?P<code>-?\d+)`\)"),
    re.compile(r"`(?P<name>[A-Za-z]\w*)`\s*`(?P<code>-?\d+)`"),
)
_UNSET = object()


@dataclass
class Found:
    """What one declaration says about a method; ``None`` where it says nothing.
    ``params``/``result`` are ``_UNSET`` when not given, ``None`` for "none"."""

    wire: str
    where: str  # for messages: "@method tag", "CommandMap", "interface CallToolRequest"
    span: ir.Span
    kind: ir.MethodKind | None = None
    direction: ir.Direction | None = None
    direction_guessed: bool = False  # a registry without a role in its name
    params: object = _UNSET
    params_optional: bool = False
    result: object = _UNSET
    errors: tuple[ir.ErrorCode, ...] = ()
    lifecycle: ir.Lifecycle = ir.NO_LIFECYCLE
    examples: list[ir.Example] = field(default_factory=list)


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
    found = Found(wire, "its @method tag", span, kinds[kind_text], direction)
    params, result = _pair(wire, comment.attached, decls)
    if params is not None:
        found.params = ir.Ref(params.name, params.span)
    if result is not None:
        found.result = ir.Ref(result.name, result.span)
    found.errors = _errors(doc, [d for d in (params, result) if d is not None])
    found.lifecycle = lifecycle_of(doc)
    found.examples = _examples(wire, doc, source, diags)
    return found


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


def merge(
    found: list[Found],
    roles: tuple[str, str],
    supplied: dict[str, set[str]],
    diags: Diagnostics,
) -> Table:
    """One method per wire name from every source's facts; ``supplied``: the facts
    spec.toml's ``[methods]`` gives per wire name (so a missing one is no error)."""
    groups: dict[str, list[Found]] = {}
    for item in found:
        groups.setdefault(item.wire, []).append(item)
    table = Table([], [], {})
    for wire, items in groups.items():
        method, unknown = _merge_one(
            wire, items, roles, supplied.get(wire, set()), diags
        )
        if method is None:
            continue
        table.methods.append(method)
        if unknown:
            table.unknown[wire] = unknown
        for item in items:
            table.examples.extend(item.examples)
    return table


def _merge_one(
    wire: str,
    items: list[Found],
    roles: tuple[str, str],
    supplied: set[str],
    diags: Diagnostics,
) -> tuple[ir.Method | None, set[str]]:
    first = items[0]
    unknown: set[str] = set()
    tags = [i for i in items if i.where == "its @method tag"]
    for extra in tags[1:]:
        diags.report(
            "MTH002",
            f"method {wire} is declared twice (first at {tags[0].span})",
            extra.span,
        )
    agreed = _agree(
        wire, "kind", [(i.kind, i) for i in items if i.kind is not None], diags
    )
    kind = agreed if isinstance(agreed, ir.MethodKind) else None
    if kind is None:
        kind = (
            ir.MethodKind.REQUEST
            if any(i.result is not _UNSET for i in items)
            else None
        )
    if kind is None:
        if "kind" not in supplied:
            diags.report(
                "MTH006",
                f"the kind of {wire} (request or notification) is not in the source; "
                f'add [methods."{wire}"] kind = "request" (or "notification") to spec.toml',
                first.span,
            )
        kind, unknown = ir.MethodKind.REQUEST, unknown | {"kind"}
    direction = _merged_direction(wire, items, diags)
    if direction is None:
        if "direction" not in supplied:
            diags.report(
                "MTH006",
                f"the direction of {wire} is not in the source; add "
                f'[methods."{wire}"] direction = "{roles[0]} → {roles[1]}" (or another) '
                "to spec.toml",
                first.span,
            )
        direction, unknown = ir.Direction(roles[0], roles[1]), unknown | {"direction"}
    params = _agree(
        wire, "params", [(i.params, i) for i in items if i.params is not _UNSET], diags
    )
    has_params = any(i.params is not _UNSET for i in items)
    if not has_params:
        unknown.add("params")
        if "params" not in supplied:
            stem = pascal(wire)
            diags.report(
                "MTH003",
                f"method {wire} has no {stem}Params declaration; it sends no params",
                first.span,
            )
    result = _agree(
        wire, "result", [(i.result, i) for i in items if i.result is not _UNSET], diags
    )
    if kind is ir.MethodKind.NOTIFICATION:
        if result is not None:
            diags.report(
                "MTH003",
                f"notification {wire} cannot have a result ({_name(result)} ignored)",
                first.span,
            )
        result = None
    elif not any(i.result is not _UNSET for i in items):
        unknown.add("result")
    lifecycle = next((i.lifecycle for i in items if i.lifecycle.docs), first.lifecycle)
    errors = tuple(e for i in items for e in i.errors)
    return (
        ir.Method(
            wire_name=wire,
            kind=kind,
            direction=direction,
            params=(
                params
                if isinstance(params, (ir.Ref, ir.InlineUnion, ir.AnyJson))
                else None
            ),
            result=(
                result
                if isinstance(result, (ir.Ref, ir.InlineUnion, ir.AnyJson))
                else None
            ),
            errors=tuple(dict.fromkeys(errors)),
            lifecycle=lifecycle,
            span=(tags[0] if tags else first).span,
            params_optional=any(i.params_optional for i in items),
        ),
        unknown,
    )


def _merged_direction(
    wire: str, items: list[Found], diags: Diagnostics
) -> ir.Direction | None:
    stated = [i for i in items if i.direction is not None and not i.direction_guessed]
    if stated:
        agreed = _agree(wire, "direction", [(i.direction, i) for i in stated], diags)
        return agreed if isinstance(agreed, ir.Direction) else None
    # Registries: the sender of each (a method in a client map and a server map goes both
    # ways).
    guessed = [i.direction for i in items if i.direction is not None]
    if not guessed:
        return None
    senders = {d.sender for d in guessed}
    first = guessed[0]
    if len(senders) > 1 or any(d.both_ways for d in guessed):
        return ir.Direction(first.sender, first.receiver, both_ways=True)
    return first


def _agree(
    wire: str, what: str, values: list[tuple[object, Found]], diags: Diagnostics
) -> object:
    if not values:
        return None
    chosen, source = values[0]
    for value, other in values[1:]:
        if value != chosen and not _both_ways_covers(value, chosen):
            diags.report(
                "MTH006",
                f"{wire}: {source.where} gives {what} {_name(chosen)}, {other.where} gives "
                f"{_name(value)}",
                other.span,
            )
    return chosen


def _both_ways_covers(value: object, chosen: object) -> bool:
    """A two-way direction agrees with each one-way direction between the same roles."""
    if isinstance(value, ir.Direction) and isinstance(chosen, ir.Direction):
        roles = {value.sender, value.receiver}
        return roles == {chosen.sender, chosen.receiver} and (
            value.both_ways or chosen.both_ways
        )
    return False


def _name(value: object) -> str:
    if isinstance(value, ir.Ref):
        return value.name
    if isinstance(value, ir.Direction):
        return value.arrow()
    if isinstance(value, ir.MethodKind):
        return value.value
    if isinstance(value, ir.InlineUnion):
        return " | ".join(_name(m) for m in value.members)
    if value is None:
        return "none"
    return type(value).__name__
