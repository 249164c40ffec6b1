"""The method table of a Go listing: ``Method*`` constants, paired types, direction and kind.

Phase: frontend (after ``go.py`` has read declarations and constants).
Inputs: the string constants, the declarations, the pages (for the prose of ``func`` blocks),
the spec's roles and its ``[methods.overrides."<wire name>"]`` table.
Outputs: ``ir.Method``s in constant order and the remaining constants as ``ir.ConstDecl``s.
Guarantees: every ``Method*`` string constant becomes a method; a fact the rules below cannot
find and no override gives is an MTH006 error; an override entry that names no method, or
gives a fact the listing already states, is an MTH005 error (so the table never goes stale);
``counts`` records where each method's direction and kind came from.

Pairing: ``MethodToolExecute = "tool/execute"`` pairs with ``ToolExecuteParams`` /
``ToolExecuteResult`` (the constant's name without ``Method``), else with the PascalCase of the
wire name (``eventBus/event`` → ``EventBusEventParams``), else with the override's ``params`` /
``result``.  A request without a Result type, or a method without a Params type, reads that
part as any JSON (an MTH004 note).

Direction and kind, first rule that applies wins (``<a>``/``<b>`` are the two roles):

1. prose (counted as "text"):
   - the constant's trailing comment: ``// <a> → <b> notification`` / ``... callback``;
   - the Params / Result type's docs: an arrow ``<a> → <b>``; "sent by the <a>", "the <a>'s
     request", "asks the <b>", "tells the <b>"; "the <a>'s response" (then <b> sent a
     request); "notification" in "is a … notification" / "payload for a … notification";
     "request" / "callback" / "response" for a request;
   - the docs of a method of the ``<a>`` handle type (``func (*Host) ExecuteTool``) saying it
     "sends a <wire name> request" or names "<wire name> notification": <a> sends it;
2. the wire name (counted as "wire name"): ``<b>/…`` is sent to <b> and is a request (the
   role owns the namespace and answers the calls in it);
3. the listing (counted as "listing"): a method with a Result type is a request; without
   one, a notification;
4. ``[methods.overrides."<wire name>"]`` with ``direction = "<a> → <b>"`` and/or
   ``kind = "request" | "notification"`` (counted as "override").
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import TypeVar

from codegen import ir
from codegen.diagnostics import Diagnostics
from codegen.frontends.go.page import GoPage
from codegen.ir.index import walk_expr
from codegen.methods.evidence import Evidence
from codegen.methods.resolver import resolve
from codegen.methods.table import apply_method_table, method_table_facts
from codegen.spec.config import SpecConfig

_ARROW = re.compile(r"\b(\w+)\s*(?:→|->)\s*(\w+)\b")
_NOTIFICATION = re.compile(
    r"\bis (?:a|an|the)\b[^.]*\bnotification\b|\bpayload for an? \S+ notification\b"
    r"|\bnotification\s*$",
    re.IGNORECASE,
)
_REQUEST = re.compile(
    r"\bis (?:a|an|the)\b[^.]*\b(?:request|callback|response)\b|'s request\b",
    re.IGNORECASE,
)
_COMMENT_REQUEST = re.compile(r"\b(?:request|callback)\b", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class GoConst:
    name: str
    value: str | int | float | bool
    trailing: str  # the comment after it on its line
    since: str | None
    span: ir.Span
    type_name: str = ""  # the Go type it is declared with ("" when untyped)
    own_docs: str = ""  # its own comment (or its block's docs when alone in the block)
    group_docs: str = ""  # the docs of its ``const (...)`` block when it is not alone

    @property
    def docs(self) -> str:
        """Its own docs, else those of its block."""
        return self.own_docs or self.group_docs


@dataclass
class MethodCounts:
    """Where each method's direction and kind came from: rule → count."""

    direction: Counter[str] = field(default_factory=Counter)
    kind: Counter[str] = field(default_factory=Counter)


@dataclass
class _Facts:
    direction: list[tuple[ir.Direction, str, str]] = field(default_factory=list)
    kind: list[tuple[ir.MethodKind, str, str]] = field(default_factory=list)


def is_method_const(const: GoConst, roles: tuple[str, str]) -> bool:
    """A string constant that names a method: ``MethodX`` / ``XMethod``, untyped or of a
    type named for methods (``type Method string``) — a constant of any other named type
    is an enum member, never a method — or one whose own comment says so
    (``// client → server request``)."""
    if not isinstance(const.value, str):
        return False
    typed_ok = const.type_name in ("", "string") or "Method" in const.type_name
    if (const.name.startswith("Method") or const.name.endswith("Method")) and typed_ok:
        return True
    comment = const.trailing
    arrow = _ARROW.search(comment)
    return (
        const.type_name in ("", "string")
        and arrow is not None
        and {arrow.group(1).lower(), arrow.group(2).lower()} == set(roles)
        and re.search(r"\b(request|notification|callback)\b", comment, re.IGNORECASE)
        is not None
    )


def method_evidence(
    consts: list[GoConst],
    decls: list[ir.Decl],
    pages: list[GoPage],
    config: SpecConfig,
    diags: Diagnostics,
    counts: MethodCounts,
) -> tuple[list[Evidence], list[ir.ConstDecl]]:
    """The evidence of the method-name constants; the other constants as ``ConstDecl``s."""
    by_name = {decl.name: decl for decl in decls}
    roles = config.roles
    handle_docs = _handle_docs(pages, roles)
    supplied = {entry.wire: set(method_table_facts(entry)) for entry in config.methods}
    named = {
        (entry.wire, key): value[0]
        for entry in config.methods
        for key, value in (("Params", entry.params), ("Result", entry.result))
        if value is not None and len(value) == 1 and value[0] in by_name
    }
    evidence: list[Evidence] = []
    constants: list[ir.ConstDecl] = []
    for const in consts:
        if not is_method_const(const, roles):
            constants.append(
                ir.ConstDecl(
                    const.name,
                    const.value,
                    ir.Lifecycle(const.docs, const.since),
                    const.span,
                )
            )
            continue
        builder = _MethodBuilder(
            const,
            by_name,
            roles,
            handle_docs,
            supplied.get(str(const.value), set()),
            diags,
            counts,
            named,
        )
        evidence.append(builder.build())
    return evidence, constants


def build_methods(
    consts: list[GoConst],
    decls: list[ir.Decl],
    pages: list[GoPage],
    config: SpecConfig,
    diags: Diagnostics,
    counts: MethodCounts | None = None,
    extra: list[Evidence] | None = None,
    provenance: dict[str, dict[str, str]] | None = None,
) -> tuple[list[ir.Method], list[ir.ConstDecl]]:
    """Method constants (and ``extra`` evidence: dispatch, sends) → the shared resolver
    → spec.toml's ``[methods]`` table."""
    counts = counts if counts is not None else MethodCounts()
    evidence, constants = method_evidence(consts, decls, pages, config, diags, counts)
    evidence.extend(extra or [])
    supplied = {entry.wire: set(method_table_facts(entry)) for entry in config.methods}
    resolved = resolve(evidence, config.roles, supplied, diags, params_missing="note")
    if provenance is not None:
        provenance.update(resolved.provenance)
    for wire, facts in resolved.unknown.items():
        given = supplied.get(wire, set())
        if "direction" in facts and "direction" in given:
            counts.direction["override"] += 1
            counts.direction["unknown"] -= 1
        if "kind" in facts and "kind" in given:
            counts.kind["override"] += 1
            counts.kind["listing"] -= 1
    counts.direction = +counts.direction  # drop zero counts
    counts.kind = +counts.kind
    methods = apply_method_table(
        resolved.methods,
        decls,
        config.methods,
        config.roles,
        diags,
        resolved.unknown,
        language="go",
        provenance=provenance,
    )
    _report_unpaired(methods, decls, diags)
    return methods, constants


@dataclass
class _MethodBuilder:
    const: GoConst
    by_name: dict[str, ir.Decl]
    roles: tuple[str, str]
    handle_docs: list[tuple[str, str]]
    supplied: set[str]
    diags: Diagnostics
    counts: MethodCounts
    # (wire, "Params"/"Result") → a declared type the [methods] table names for it: its
    # docs are read like a paired type's (the table's fact itself is applied later).
    named: dict[tuple[str, str], str]

    @property
    def wire(self) -> str:
        return str(self.const.value)

    def build(self) -> Evidence:
        name = self.const.name
        stem = (
            name[len("Method") :]
            if name.startswith("Method")
            else name.removesuffix("Method")
        )
        stems = [stem, _pascal_wire(self.wire)]
        params = self.pair("Params", stems)
        result = self.pair("Result", stems)
        facts = self.text_facts(params, result)
        found = Evidence(self.wire, f"const {name}", self.const.span, exclusive=True)
        found.direction = self.decide_direction(facts)
        found.kind = self.decide_kind(facts, result, found)
        for decl, part in ((params, "params"), (result, "result")):
            if decl is not None and decl.name == self.named.get(
                (self.wire, part.title())
            ):
                found.weak.add(part)  # the table's name, not a pairing
        for decl, part in ((params, "params"), (result, "result")):
            if decl is not None and part not in found.weak:
                found.how[part] = f"{decl.name}, paired by name"
        if params is not None:
            found.params = ir.Ref(params.name, params.span)
        else:
            found.params = ir.AnyJson()
            found.weak.add("params")
            if "params" not in self.supplied:
                self.note_missing("Params", stems[0], "params")
        if found.kind is ir.MethodKind.REQUEST:
            if result is not None:
                found.result = ir.Ref(result.name, result.span)
            else:
                found.result = ir.AnyJson()
                found.weak.add("result")
                if "result" not in self.supplied:
                    self.note_missing("Result", stems[0], "result")
        elif result is not None:
            self.diags.report(
                "MTH006",
                f"{self.wire} is a notification but {result.name} is its result type",
                self.const.span,
            )
        docs = (
            self.const.trailing
            if self.const.trailing and not _ARROW.search(self.const.trailing)
            else ""
        )
        source = params or result
        found.lifecycle = ir.Lifecycle(
            docs=docs or (source.lifecycle.docs if source else ""),
            since=source.lifecycle.since if source else None,
        )
        return found

    def pair(self, suffix: str, stems: list[str]) -> ir.Decl | None:
        return next(
            (self.by_name[s + suffix] for s in stems if s + suffix in self.by_name),
            None,
        ) or self.by_name.get(self.named.get((self.wire, suffix), ""))

    def note_missing(self, suffix: str, stem: str, part: str) -> None:
        self.diags.report(
            "MTH004",
            f"the listing has no {stem}{suffix} type for {self.wire}; its {part} is "
            "read as any JSON",
            self.const.span,
        )

    def text_facts(self, params: ir.Decl | None, result: ir.Decl | None) -> _Facts:
        facts = _Facts()
        a, b = self.roles
        self._prose(
            facts, self.const.trailing, "the constant's comment", _COMMENT_REQUEST
        )
        if params is not None:
            self._prose(
                facts, _first_paragraph(params.lifecycle.docs), params.name, _REQUEST
            )
        if result is not None:
            text = _first_paragraph(result.lifecycle.docs)
            for sender, receiver in ((a, b), (b, a)):
                if re.search(rf"\bthe {receiver}'s response\b", text):
                    facts.direction.append(
                        (ir.Direction(sender, receiver), "text", result.name)
                    )
            if _REQUEST.search(text):
                facts.kind.append((ir.MethodKind.REQUEST, "text", result.name))
        quoted = re.escape(self.wire)
        for owner, text in self.handle_docs:
            sender, receiver = owner, (b if owner == a else a)
            if re.search(rf"(?<![\w/.$]){quoted} request\b", text):
                facts.direction.append(
                    (ir.Direction(sender, receiver), "text", "handle docs")
                )
                facts.kind.append((ir.MethodKind.REQUEST, "text", "handle docs"))
            elif re.search(rf"(?<![\w/.$]){quoted} notification\b", text):
                facts.direction.append(
                    (ir.Direction(sender, receiver), "text", "handle docs")
                )
                facts.kind.append((ir.MethodKind.NOTIFICATION, "text", "handle docs"))
        return facts

    def _prose(
        self, facts: _Facts, text: str, where: str, request: re.Pattern[str]
    ) -> None:
        if not text:
            return
        a, b = self.roles
        for match in _ARROW.finditer(text):
            sender, receiver = match.group(1).lower(), match.group(2).lower()
            if {sender, receiver} == {a, b}:
                facts.direction.append((ir.Direction(sender, receiver), "text", where))
        for sender, receiver in ((a, b), (b, a)):
            if re.search(
                rf"\bsent by the {sender}\b|\bthe {sender}'s request\b"
                rf"|\basks the {receiver}\b|\btells the {receiver}\b",
                text,
            ):
                facts.direction.append((ir.Direction(sender, receiver), "text", where))
        if _NOTIFICATION.search(text):
            facts.kind.append((ir.MethodKind.NOTIFICATION, "text", where))
        elif request.search(text):
            facts.kind.append((ir.MethodKind.REQUEST, "text", where))

    def decide_direction(self, facts: _Facts) -> ir.Direction | None:
        a, b = self.roles
        found = _agree(
            facts.direction, self.wire, "direction", self.const.span, self.diags
        )
        rule = "text"
        if found is None:
            prefix = self.wire.split("/", 1)[0] if "/" in self.wire else ""
            if prefix in (a, b):
                found, rule = ir.Direction(b if prefix == a else a, prefix), "wire name"
        if found is None:
            rule = "unknown"
        self.counts.direction[rule] += 1
        return found

    def decide_kind(
        self, facts: _Facts, result: ir.Decl | None, found: Evidence
    ) -> ir.MethodKind:
        kind = _agree(facts.kind, self.wire, "kind", self.const.span, self.diags)
        rule = "text"
        if kind is None:
            prefix = self.wire.split("/", 1)[0] if "/" in self.wire else ""
            if prefix in self.roles:
                kind, rule = ir.MethodKind.REQUEST, "wire name"
            else:
                # A rule of thumb the table may correct without being stale.
                rule = "listing"
                found.weak.add("kind")
                kind = (
                    ir.MethodKind.REQUEST
                    if result is not None
                    else ir.MethodKind.NOTIFICATION
                )
        self.counts.kind[rule] += 1
        return kind


_T = TypeVar("_T", ir.Direction, ir.MethodKind)


def _agree(
    facts: list[tuple[_T, str, str]],
    wire: str,
    what: str,
    span: ir.Span,
    diags: Diagnostics,
) -> _T | None:
    if not facts:
        return None
    values = {value for value, _, _ in facts}
    if len(values) > 1:
        said = "; ".join(
            f"{where}: {value.arrow() if isinstance(value, ir.Direction) else value.value}"
            for value, _, where in facts
        )
        diags.report(
            "MTH006",
            f"the listing contradicts itself on the {what} of {wire} ({said})",
            span,
        )
    return facts[0][0]


def _handle_docs(pages: list[GoPage], roles: tuple[str, str]) -> list[tuple[str, str]]:
    """Prose of methods on a role's handle type (``func (*Host) X``): (role, docs)."""
    out: list[tuple[str, str]] = []
    for page in pages:
        for block in page.funcs():
            receiver, _, _ = block.name.partition(".")
            if receiver.lower() in roles and "." in block.name and block.docs:
                out.append((receiver.lower(), block.docs))
    return out


def _report_unpaired(
    methods: list[ir.Method], decls: list[ir.Decl], diags: Diagnostics
) -> None:
    paired = {
        expr.name
        for method in methods
        for expr in (method.params, method.result)
        if isinstance(expr, ir.Ref)
    }
    referenced: set[str] = set()
    for decl in decls:
        if isinstance(decl, ir.StructDecl):
            for fld in decl.fields:
                referenced.update(
                    node.name
                    for node in walk_expr(fld.type)
                    if isinstance(node, ir.Ref)
                )
    for decl in decls:
        if (
            decl.name.endswith(("Params", "Result"))
            and decl.name not in paired
            and decl.name not in referenced
        ):
            diags.report(
                "MTH003",
                f"{decl.name} looks like a method's params or result but no Method* "
                "constant pairs with it",
                decl.span,
            )


def _pascal_wire(wire: str) -> str:
    parts = re.split(r"[^0-9A-Za-z]+", wire)
    return "".join(part[:1].upper() + part[1:] for part in parts if part)


def _first_paragraph(docs: str) -> str:
    return docs.split("\n\n", 1)[0].replace("\n", " ")
