"""The method table of a Rust crate, however the crate declares it (besides ``acp_peer!``,
which ``rust.macros`` reads).

Phase: frontend (the last step of ``rust.reader``).
Inputs: what the crate's items say about methods:
- method-name constants (``const SESSION_NEW_METHOD_NAME: &str = "session/new";``) and
  method-name tables (``pub const AGENT_METHOD_NAMES: AgentMethodNames = AgentMethodNames {
  session_new: SESSION_NEW_METHOD_NAME, ... }``): the names, and the role handling them when
  the table's name names a role (``AGENT_...`` → the agent handles them; a table naming no
  role, such as ``PROTOCOL_LEVEL_METHOD_NAMES``, is sent both ways);
- schemars annotations on params and result types (``extend("x-side" = "agent",
  "x-method" = INITIALIZE_METHOD_NAME)``): the types of each method and its side
  (``agent``/``client`` handle it, ``both``/``protocol`` both ways);
- routing enums (``enum ClientRequest { InitializeRequest(InitializeRequest), ... }`` with
  ``impl ClientRequest { fn method(&self) -> &str { match self { Self::X(_) => ... } } }``):
  params types and the kind (``*Request`` → request, ``*Notification`` → notification) and
  result types (``*Response`` enums).
Outputs: ``ir.Method``s in table order.  A request's result is the type annotated with its
name that is a result (in a ``*Response`` routing enum, or named ``*Response``), else the
``XResponse`` of its ``XRequest`` params; a method
whose params are only in a notification routing enum (or named ``*Notification``) with no
result type is a notification.  Method docs are the routing enum variant's, else the params
type's.
Guarantees: never raises; a name used for two kinds (``mcp/message``, a request and a
notification) is kept as the request with a note (MTH003); a table entry no type is found
for is MTH003; a spec that declares no method at all is the pipeline's MTH008.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tree_sitter import Node

from codegen import ir
from codegen.diagnostics import Diagnostics, Severity
from codegen.frontends.common.syntax import node_text, span_of
from codegen.frontends.rust.decls import DeclFacts
from codegen.frontends.rust.literals import string_literal_value
from codegen.frontends.rust.paths import Resolver
from codegen.methods.evidence import Evidence
from codegen.methods.resolver import resolve_with
from codegen.spec.source import SourceText

_REQUEST, _NOTIFICATION, _RESPONSE = "request", "notification", "response"


@dataclass
class _Table:
    name: str  # the constant: AGENT_METHOD_NAMES
    struct: str  # its type: AgentMethodNames
    entries: list[tuple[str, Node, ir.Span]]  # field → value expression
    module: str = "crate"  # where it is declared


@dataclass
class MethodFacts:
    """Method-related items of a crate, gathered while reading it."""

    strings: dict[str, str] = field(default_factory=dict)  # const → value
    tables: list[_Table] = field(default_factory=list)
    routes: dict[str, list[tuple[str, Node, ir.Span]]] = field(default_factory=dict)
    sources: dict[str, SourceText] = field(default_factory=dict)  # table → its source
    # Constants by full path (``crate::v2::INITIALIZE``) and the crate's namespaces, so a
    # name resolves as rustc resolves it where it is written; ``strings`` keeps the first
    # constant of each simple name for evidence that carries no module.
    paths: dict[str, str] = field(default_factory=dict)
    resolver: Resolver | None = None
    route_modules: dict[str, str] = field(default_factory=dict)  # routing enum → module

    def read_const(self, node: Node, source: SourceText, module: str = "crate") -> None:
        name = node_text(node.child_by_field_name("name"))
        value = node.child_by_field_name("value")
        if value is None:
            return
        literal = string_literal_value(value)
        if literal is not None:
            self.strings.setdefault(name, literal)
            self.paths[f"{module}::{name}"] = literal
            return
        if value.type == "struct_expression":
            struct = node_text(value.child_by_field_name("name"))
            body = value.child_by_field_name("body")
            entries = []
            for item in body.named_children if body is not None else []:
                if item.type == "field_initializer":
                    target = item.child_by_field_name("value")
                    if target is not None:
                        entries.append(
                            (
                                node_text(item.child_by_field_name("field")),
                                target,
                                span_of(source, target),
                            )
                        )
            self.tables.append(_Table(name, struct, entries, module))
            self.sources[name] = source

    def read_impl(
        self, node: Node, source: SourceText, owner: str, module: str = "crate"
    ) -> None:
        """``impl Enum { fn method(&self) -> &str { match self { Self::V(..) => x } } }``;
        ``owner``: the IR name of ``Enum``."""
        if node.child_by_field_name("trait") is not None:
            return
        body = node.child_by_field_name("body")
        for function in body.named_children if body is not None else []:
            if function.type != "function_item":
                continue
            if node_text(function.child_by_field_name("name")) != "method":
                continue
            block = function.child_by_field_name("body")
            match = _find(block, "match_expression")
            if match is None:
                continue
            arms = []
            match_body = match.child_by_field_name("body")
            for arm in match_body.named_children if match_body is not None else []:
                if arm.type != "match_arm":
                    continue
                pattern = arm.child_by_field_name("pattern")
                value = arm.child_by_field_name("value")
                variant = _variant_of(pattern)
                if variant is not None and value is not None:
                    arms.append((variant, value, span_of(source, arm)))
            self.routes[owner] = arms
            self.route_modules[owner] = module

    def resolve(
        self, node: Node, depth: int = 0, module: str | None = None
    ) -> str | None:
        """The method name an expression stands for: a literal, a constant, a table
        field (``AGENT_METHOD_NAMES.initialize``); names are resolved in ``module``."""
        if depth > 8:
            return None
        literal = string_literal_value(node)
        if literal is not None:
            return literal
        text = node_text(node).replace(" ", "").removeprefix("&")
        if node.type == "field_expression" or "." in text:
            table_name, _, field_name = text.rpartition(".")
            full = self._full(module, table_name)
            table = next(
                (
                    t
                    for t in self.tables
                    if f"{t.module}::{t.name}" == full
                    or (full is None and t.name == table_name)
                ),
                None,
            )
            if table is None:
                return None
            entry = next((e for e in table.entries if e[0] == field_name), None)
            if entry is None:
                return None
            return self.resolve(entry[1], depth + 1, table.module)
        full = self._full(module, text)
        if full is not None and full in self.paths:
            return self.paths[full]
        return self.strings.get(text.rsplit("::", 1)[-1])

    def _full(self, module: str | None, text: str) -> str | None:
        """The full path of a crate item named ``text`` in ``module``, if it is one."""
        if module is None or self.resolver is None:
            return None
        full = self.resolver.resolve(module, text)
        return full if self.resolver.is_crate_path(full) else None


def _find(node: Node | None, kind: str) -> Node | None:
    if node is None:
        return None
    if node.type == kind:
        return node
    for child in node.named_children:
        found = _find(child, kind)
        if found is not None:
            return found
    return None


def _variant_of(pattern: Node | None) -> str | None:
    """``Self::InitializeRequest(_)`` → ``InitializeRequest``."""
    if pattern is None:
        return None
    text = node_text(pattern)
    head = text.split("(", 1)[0].split("{", 1)[0].strip()
    if "::" not in head:
        return None
    return head.rsplit("::", 1)[-1].strip()


@dataclass
class _Candidate:
    wire: str
    span: ir.Span
    side: str | None = None  # receiver role, or "both"
    params: list[str] = field(default_factory=list)
    results: list[str] = field(default_factory=list)
    kinds: set[str] = field(default_factory=set)
    docs: ir.Lifecycle | None = None


def build_methods(
    facts: MethodFacts,
    decl_facts: DeclFacts,
    decls: dict[str, ir.Decl],
    roles: tuple[str, str],
    diags: Diagnostics,
) -> list[ir.Method]:
    candidates: dict[str, _Candidate] = {}

    def candidate(wire: str, span: ir.Span) -> _Candidate:
        if wire not in candidates:
            candidates[wire] = _Candidate(wire, span)
        return candidates[wire]

    for table in facts.tables:
        side = _side_of_name(table.name, roles) or _side_of_name(table.struct, roles)
        for _, value, span in table.entries:
            wire = facts.resolve(value, module=table.module)
            if wire is None:
                continue
            found = candidate(wire, span)
            if side is not None and found.side not in (None, side):
                found.side = "both"
            elif side is not None:
                found.side = side
            elif found.side is None:
                found.side = "both"
    payload_kind = _routing_kinds(decl_facts)
    for enum, arms in facts.routes.items():
        kind = _kind_of_name(enum)
        payloads = {
            variant: unwrap_payload(payload)
            for variant, payload in decl_facts.variant_types.get(enum, [])
        }
        for variant, value, span in arms:
            wire = facts.resolve(value, module=facts.route_modules.get(enum))
            payload = payloads.get(variant)
            if wire is None or payload is None:
                continue
            found = candidate(wire, span)
            _add(found.params, payload, decl_facts)
            if kind is not None:
                found.kinds.add(kind)
            found.docs = found.docs or decl_facts.docs.get(f"{enum}::{variant}")
    for type_name, pairs in decl_facts.extends.items():
        method = pairs.get("x-method")
        if method is None or type_name not in decls:
            continue
        text, is_literal, span = method
        full = facts._full(decl_facts.modules.get(type_name), text)
        wire = (
            text
            if is_literal
            else facts.paths.get(
                full or "", facts.strings.get(text.rsplit("::", 1)[-1])
            )
        )
        if wire is None:
            diags.report(
                "MTH001",
                f"{type_name}: x-method {text} names no string constant of the crate",
                span,
            )
            continue
        found = candidate(wire, span)
        side_pair = pairs.get("x-side")
        if side_pair is not None and side_pair[1]:
            side = side_pair[0]
            found.side = side if side in roles else "both"
        if _is_result(type_name, payload_kind):
            _add(found.results, type_name, decl_facts)
        else:
            _add(found.params, type_name, decl_facts)
    built = [
        _method(found, payload_kind, decls, roles, diags)
        for found in candidates.values()
    ]
    return [method for method in built if method is not None]


_WRAPPERS = ("Box", "Arc", "Rc")


def unwrap_payload(payload: str | None) -> str | None:
    """``Box<InitializeRequest>`` (or ``Arc``/``Rc``, any path) → ``InitializeRequest``:
    serde writes a smart pointer as its payload."""
    while payload is not None:
        head, _, rest = payload.partition("<")
        if head.strip().rsplit("::", 1)[-1] not in _WRAPPERS or not rest.endswith(">"):
            break
        payload = rest[:-1].strip()
    return payload.rsplit("::", 1)[-1] if payload is not None else None


def _add(names: list[str], name: str, decl_facts: DeclFacts) -> None:
    """Add a method's params or result type.  A type of the same Rust name from another
    module (``crate::v2::InitializeRequest`` after ``crate::v1::InitializeRequest``: two
    versions of the protocol compiled side by side) replaces the earlier one: evidence comes
    in crate order, so the module declared later, the newer version, is the method's."""
    if name in names:
        return
    simple = decl_facts.simple.get(name)
    for index, known in enumerate(names):
        if simple is not None and decl_facts.simple.get(known) == simple:
            names[index] = name
            return
    names.append(name)


def _routing_kinds(decl_facts: DeclFacts) -> dict[str, set[str]]:
    """Payload type → the kinds of routing enums it is a variant of."""
    out: dict[str, set[str]] = {}
    for enum, variants in decl_facts.variant_types.items():
        kind = _kind_of_name(enum)
        if kind is None:
            continue
        for _, payload in variants:
            if payload is not None:
                out.setdefault(unwrap_payload(payload) or payload, set()).add(kind)
    return out


def _kind_of_name(name: str) -> str | None:
    for suffix, kind in (
        ("Request", _REQUEST),
        ("Notification", _NOTIFICATION),
        ("Response", _RESPONSE),
        ("Result", _RESPONSE),
    ):
        if name.endswith(suffix):
            return kind
    return None


def _is_result(type_name: str, payload_kind: dict[str, set[str]]) -> bool:
    kinds = payload_kind.get(type_name, set())
    if kinds:
        return kinds == {_RESPONSE}
    return _kind_of_name(type_name) == _RESPONSE


def _side_of_name(name: str, roles: tuple[str, str]) -> str | None:
    words = {part for part in _words(name)}
    found = [role for role in roles if role.lower() in words]
    return found[0] if len(found) == 1 else None


def _words(name: str) -> list[str]:
    out: list[str] = []
    current = ""
    for char in name:
        if char == "_" or (char.isupper() and current and not current[-1].isupper()):
            if current:
                out.append(current.lower())
            current = "" if char == "_" else char
        else:
            current += char
    if current:
        out.append(current.lower())
    return out


def _method(
    found: _Candidate,
    payload_kind: dict[str, set[str]],
    decls: dict[str, ir.Decl],
    roles: tuple[str, str],
    diags: Diagnostics,
) -> ir.Method | None:
    if not found.params and not found.results:
        diags.report(
            "MTH003",
            f"method {found.wire!r} is named by the crate but no params or result type "
            "is declared for it with the selected features; left out",
            found.span,
        )
        return None
    requests = [
        p
        for p in found.params
        if _REQUEST in payload_kind.get(p, set())
        or (not payload_kind.get(p) and _kind_of_name(p) == _REQUEST)
    ]
    notes = [
        p
        for p in found.params
        if _NOTIFICATION in payload_kind.get(p, set())
        or (not payload_kind.get(p) and _kind_of_name(p) == _NOTIFICATION)
    ]
    if found.results or requests or (_REQUEST in found.kinds):
        kind = ir.MethodKind.REQUEST
        params = (
            requests[0] if requests else (found.params[0] if found.params else None)
        )
        others = [p for p in notes if p != params]
        if others:
            diags.report(
                "MTH003",
                f"method {found.wire!r} is also sent as a notification with params "
                f"{', '.join(others)}; modelled as the request",
                found.span,
                Severity.NOTE,
            )
    else:
        kind = ir.MethodKind.NOTIFICATION
        params = notes[0] if notes else (found.params[0] if found.params else None)
    result = found.results[0] if found.results else None
    if kind is ir.MethodKind.REQUEST and result is None and params is not None:
        # No annotation names the result: serde crates pair ``XRequest`` with
        # ``XResponse`` (the routing enums of responses carry no method names).
        paired = params.removesuffix("Request") + "Response"
        if paired != params and paired in decls:
            result = paired
    if kind is ir.MethodKind.REQUEST and result is None:
        diags.report(
            "MTH003",
            f"request {found.wire!r} has no result type; its result is read as null",
            found.span,
        )
    side = found.side
    if side in roles:
        receiver = side
        sender = roles[1] if receiver == roles[0] else roles[0]
        direction = ir.Direction(sender, receiver)
    else:
        direction = ir.Direction(roles[0], roles[1], both_ways=True)
    docs = found.docs
    if docs is None and params is not None and params in decls:
        docs = decls[params].lifecycle
    return ir.Method(
        wire_name=found.wire,
        kind=kind,
        direction=direction,
        params=ir.Ref(params, found.span) if params is not None else None,
        result=ir.Ref(result, found.span) if result is not None else None,
        lifecycle=docs or ir.NO_LIFECYCLE,
        span=found.span,
    )


def resolve_all(
    methods: list[ir.Method],
    evidence: list[Evidence],
    roles: tuple[str, str],
    diags: Diagnostics,
    provenance: dict[str, dict[str, str]] | None = None,
) -> list[ir.Method]:
    """The methods the tables above built, with the evidence of trait impls and
    ``macro_rules!`` tables (``method_impls``), through the shared resolver: a name
    both declare must agree on every fact (MTH006 names both places)."""
    if not evidence:
        return methods
    return resolve_with(
        methods, evidence, roles, diags, "the crate's method tables", provenance
    )
