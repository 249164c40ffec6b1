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
from typing import Any, TypeVar

from codegen import ir
from codegen.diagnostics import Diagnostics
from codegen.frontends.go.page import GoPage
from codegen.ir.index import walk_expr
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


def build_methods(
    consts: list[GoConst],
    decls: list[ir.Decl],
    pages: list[GoPage],
    config: SpecConfig,
    diags: Diagnostics,
    counts: MethodCounts | None = None,
) -> tuple[list[ir.Method], list[ir.ConstDecl]]:
    counts = counts if counts is not None else MethodCounts()
    by_name = {decl.name: decl for decl in decls}
    roles = config.roles
    handle_docs = _handle_docs(pages, roles)
    overrides = _Overrides.load(config, diags)
    methods: list[ir.Method] = []
    constants: list[ir.ConstDecl] = []
    seen: dict[str, ir.Span] = {}
    for const in consts:
        if not (const.name.startswith("Method") and isinstance(const.value, str)):
            constants.append(
                ir.ConstDecl(
                    const.name,
                    const.value,
                    ir.Lifecycle(const.docs, const.since),
                    const.span,
                )
            )
            continue
        wire = const.value
        if wire in seen:
            diags.report(
                "MTH002",
                f"method {wire!r} is declared twice (first at {seen[wire]})",
                const.span,
            )
            continue
        seen[wire] = const.span
        builder = _MethodBuilder(
            const, by_name, roles, handle_docs, overrides, diags, counts
        )
        methods.append(builder.build())
    overrides.report_unused(set(seen), diags)
    _report_unpaired(methods, decls, diags)
    return methods, constants


@dataclass
class _Overrides:
    entries: dict[str, dict[str, Any]]
    spans: dict[str, ir.Span]
    used: set[tuple[str, str]] = field(default_factory=set)

    @classmethod
    def load(cls, config: SpecConfig, diags: Diagnostics) -> _Overrides:
        """The spec's ``[methods]`` entries (``[methods."<wire>"]`` or the older
        ``[methods.overrides."<wire>"]``; config.py has checked their keys)."""
        entries: dict[str, dict[str, Any]] = {}
        spans: dict[str, ir.Span] = {}
        for entry in config.methods:
            spans[entry.wire] = entry.span
            facts: dict[str, Any] = {}
            if entry.direction is not None:
                facts["direction"] = entry.direction
            if entry.kind is not None:
                facts["kind"] = entry.kind
            for key in ("params", "result"):
                names = getattr(entry, key)
                if names is None:
                    continue
                if len(names) != 1:
                    diags.report(
                        "CFG002",
                        f"{key} of {entry.wire!r} must name one type for a Go spec",
                        entry.span,
                    )
                    continue
                facts[key] = names[0]
            entries[entry.wire] = facts
        return cls(entries, spans)

    def get(self, wire: str, key: str) -> Any:
        return self.entries.get(wire, {}).get(key)

    def span(self, wire: str) -> ir.Span:
        return self.spans.get(wire, ir.NO_SPAN)

    def report_unused(self, methods: set[str], diags: Diagnostics) -> None:
        for wire in sorted(self.entries):
            if wire not in methods:
                diags.report(
                    "MTH005",
                    f"override {wire!r} names no Method* constant of the listing",
                    self.span(wire),
                )


@dataclass
class _MethodBuilder:
    const: GoConst
    by_name: dict[str, ir.Decl]
    roles: tuple[str, str]
    handle_docs: list[tuple[str, str]]
    overrides: _Overrides
    diags: Diagnostics
    counts: MethodCounts

    @property
    def wire(self) -> str:
        return str(self.const.value)

    def build(self) -> ir.Method:
        stems = [self.const.name[len("Method") :], _pascal_wire(self.wire)]
        params = self.pair("params", "Params", stems)
        result = self.pair("result", "Result", stems)
        facts = self.text_facts(params, result)
        direction = self.decide_direction(facts)
        kind = self.decide_kind(facts, result)
        params_expr: ir.TypeExpr = ir.AnyJson()
        if params is not None:
            params_expr = ir.Ref(params.name, params.span)
        else:
            self.note_missing("Params", stems[0], "params")
        result_expr: ir.TypeExpr | None = None
        if kind is ir.MethodKind.REQUEST:
            if result is not None:
                result_expr = ir.Ref(result.name, result.span)
            else:
                result_expr = ir.AnyJson()
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
        lifecycle = ir.Lifecycle(
            docs=docs or (source.lifecycle.docs if source else ""),
            since=source.lifecycle.since if source else None,
        )
        return ir.Method(
            self.wire,
            kind,
            direction,
            params_expr,
            result_expr,
            lifecycle=lifecycle,
            span=self.const.span,
        )

    def pair(self, key: str, suffix: str, stems: list[str]) -> ir.Decl | None:
        found = next(
            (self.by_name[s + suffix] for s in stems if s + suffix in self.by_name),
            None,
        )
        named = self.overrides.get(self.wire, key)
        if named is None:
            return found
        span = self.overrides.span(self.wire)
        if found is not None:
            self.diags.report(
                "MTH005",
                f"override {key} = {named!r} of {self.wire!r} is not needed: "
                f"{found.name} pairs by name",
                span,
            )
            return found
        decl = self.by_name.get(str(named))
        if decl is None:
            self.diags.report(
                "MTH005",
                f"override {key} of {self.wire!r} names no type {named!r}",
                span,
            )
        return decl

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

    def decide_direction(self, facts: _Facts) -> ir.Direction:
        a, b = self.roles
        found = _agree(
            facts.direction, self.wire, "direction", self.const.span, self.diags
        )
        rule = "text"
        if found is None:
            prefix = self.wire.split("/", 1)[0] if "/" in self.wire else ""
            if prefix in (a, b):
                found, rule = ir.Direction(b if prefix == a else a, prefix), "wire name"
        override = self.overrides.get(self.wire, "direction")
        if override is not None:
            parsed = _parse_direction(str(override), self.roles)
            span = self.overrides.span(self.wire)
            if parsed is None:
                self.diags.report(
                    "CFG002",
                    f"direction {override!r} of {self.wire!r} must be '{a} → {b}' or '{b} → {a}'",
                    span,
                )
            elif found is not None:
                self.diags.report(
                    "MTH005",
                    f"override direction of {self.wire!r} is not needed: the {rule} "
                    f"already gives {found.arrow()}",
                    span,
                )
            else:
                found, rule = parsed, "override"
        if found is None:
            self.diags.report(
                "MTH006",
                f"the direction of {self.wire} is not in the listing; add "
                f'[methods.overrides."{self.wire}"] direction = "{a} → {b}" (or the reverse)',
                self.const.span,
            )
            found, rule = ir.Direction(a, b), "unknown"
        self.counts.direction[rule] += 1
        return found

    def decide_kind(self, facts: _Facts, result: ir.Decl | None) -> ir.MethodKind:
        found = _agree(facts.kind, self.wire, "kind", self.const.span, self.diags)
        rule = "text"
        if found is None:
            prefix = self.wire.split("/", 1)[0] if "/" in self.wire else ""
            if prefix in self.roles:
                found, rule = ir.MethodKind.REQUEST, "wire name"
            else:
                rule = "listing"
                found = (
                    ir.MethodKind.REQUEST
                    if result is not None
                    else ir.MethodKind.NOTIFICATION
                )
        override = self.overrides.get(self.wire, "kind")
        if override is not None:
            span = self.overrides.span(self.wire)
            if override not in ("request", "notification"):
                self.diags.report(
                    "CFG002",
                    f"kind of {self.wire!r} must be 'request' or 'notification'",
                    span,
                )
            elif rule != "listing" or ir.MethodKind(override) is found:
                self.diags.report(
                    "MTH005",
                    f"override kind of {self.wire!r} is not needed: the {rule} already "
                    f"makes it a {found.value}",
                    span,
                )
            else:
                found, rule = ir.MethodKind(override), "override"
        self.counts.kind[rule] += 1
        return found


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


def _parse_direction(text: str, roles: tuple[str, str]) -> ir.Direction | None:
    match = _ARROW.fullmatch(text.strip())
    if match is None:
        return None
    sender, receiver = match.group(1), match.group(2)
    if {sender, receiver} != set(roles):
        return None
    return ir.Direction(sender, receiver)


def _pascal_wire(wire: str) -> str:
    parts = re.split(r"[^0-9A-Za-z]+", wire)
    return "".join(part[:1].upper() + part[1:] for part in parts if part)


def _first_paragraph(docs: str) -> str:
    return docs.split("\n\n", 1)[0].replace("\n", " ")
