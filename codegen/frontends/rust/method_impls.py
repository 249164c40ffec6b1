"""Rust method evidence from trait impls and from ``macro_rules!`` tables the crate invokes.

Phase: frontend (``rust.reader`` feeds items in; ``rust.methods`` resolves the evidence).
Inputs:
- trait impls carrying a method name and its types (the ``lsp-types`` idiom)::

      impl Request for Lookup {
          type Params = LookupParams;
          type Result = Option<Entry>;
          const METHOD: &'static str = "doc/lookup";
      }

  the kind from the trait's name (``...Notification`` → notification, else a request when
  it has a ``Result``/``Response``/``Output`` type), the sender from a role the trait or
  the type names (``ClientRequest``), the types read in Rust syntax (``type_syntax``);
- ``macro_rules!`` definitions and their invocations: each invocation entry (separated by
  ``;``) is matched with the macro's matcher fragments in order (``$method:literal``,
  ``$params:ty``, ``$result:ty``: a fragment whose name says method/name/wire is the wire
  name, one that says param the params, result/response/output/ret the result).
Outputs: ``RawMethod`` records (the texts as written, the span); ``evidence()`` turns them
into ``Evidence`` with the declared names known.
Guarantees: never raises on user input; an invocation whose entries do not match the
matcher is not read (the reader's SYN002 says the macro is not understood); a type text the
syntax reader rejects is an MTH010 error naming it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from tree_sitter import Node

from codegen import ir
from codegen.diagnostics import Diagnostics
from codegen.frontends.common.syntax import node_text, span_of
from codegen.frontends.rust.literals import string_literal_value
from codegen.methods.evidence import Evidence
from codegen.methods.type_syntax import SyntaxProblem, read_type
from codegen.spec.source import SourceText

_FRAGMENT = re.compile(r"\$(\w+)\s*:\s*(\w+)")
_RESULT_WORDS = ("result", "response", "output", "ret")


@dataclass
class RawMethod:
    wire: str
    where: str
    span: ir.Span
    kind_hint: str  # the trait or macro name
    params: str | None  # type text; None: not given
    result: str | None
    has_result_slot: bool  # the impl/macro has a place for a result


@dataclass
class MethodImpls:
    macros: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    raw: list[RawMethod] = field(default_factory=list)

    def read_trait_impl(self, node: Node, source: SourceText) -> None:
        trait = node_text(node.child_by_field_name("trait")).split("<", 1)[0]
        owner = node_text(node.child_by_field_name("type"))
        body = node.child_by_field_name("body")
        wire: str | None = None
        span = span_of(source, node)
        types: dict[str, str] = {}
        for item in body.named_children if body is not None else []:
            name = node_text(item.child_by_field_name("name"))
            if item.type == "const_item" and name.upper().startswith("METHOD"):
                value = item.child_by_field_name("value")
                literal = string_literal_value(value) if value is not None else None
                if literal is not None:
                    wire, span = literal, span_of(source, item)
            elif item.type == "type_item":
                value = item.child_by_field_name("type")
                if value is not None:
                    types[name.lower()] = node_text(value)
        if wire is None:
            return
        result = next((types[w] for w in _RESULT_WORDS if w in types), None)
        self.raw.append(
            RawMethod(
                wire,
                f"impl {trait} for {owner}",
                span,
                trait.rsplit("::", 1)[-1] + " " + owner,
                types.get("params"),
                result,
                result is not None,
            )
        )

    def define(self, node: Node) -> None:
        """``macro_rules! name { (matcher) => { ... } }``: its fragments in order."""
        name = node_text(node.child_by_field_name("name"))
        rule = next((c for c in node.named_children if c.type == "macro_rule"), None)
        left = rule.child_by_field_name("left") if rule is not None else None
        if left is not None:
            self.macros[name] = _FRAGMENT.findall(node_text(left))

    def invoke(self, macro: Node, source: SourceText) -> bool:
        """Read an invocation of a macro the crate defined; True when it gave methods."""
        name = node_text(macro.child_by_field_name("macro")).rsplit("::", 1)[-1]
        fragments = self.macros.get(name)
        if not fragments:
            return False
        roles_of = [_role_of_fragment(f) for f, _ in fragments]
        if "wire" not in roles_of:
            return False
        tree = next((c for c in macro.named_children if c.type == "token_tree"), None)
        if tree is None:
            return False
        text = node_text(tree)[1:-1]
        start = tree.start_byte + 1
        found = False
        for entry, offset in _split(text, ";"):
            pieces = [p for p, _ in _split(entry, ",", "=>")]
            pieces = [p.strip() for p in pieces if p.strip()]
            if len(pieces) != len(fragments):
                continue
            values = dict(zip(roles_of, pieces, strict=True))
            wire = values.get("wire", "").strip()
            if not (wire.startswith('"') and wire.endswith('"')):
                continue
            span = _span_at(source, start + len(text[:offset].encode()))
            self.raw.append(
                RawMethod(
                    wire[1:-1],
                    f"{name}! entry",
                    span,
                    name,
                    values.get("params"),
                    values.get("result"),
                    "result" in values,
                )
            )
            found = True
        return found

    def evidence(
        self, declared: set[str], roles: tuple[str, str], diags: Diagnostics
    ) -> list[Evidence]:
        out: list[Evidence] = []
        for raw in self.raw:
            found = Evidence(raw.wire, raw.where, raw.span, exclusive=True)
            hint = raw.kind_hint.lower()
            if "notification" in hint or "notify" in hint:
                found.kind = ir.MethodKind.NOTIFICATION
            elif raw.has_result_slot or "request" in hint:
                found.kind = ir.MethodKind.REQUEST
            senders = [r for r in roles if r.lower() in hint]
            if len(senders) == 1:
                other = roles[1] if senders[0] == roles[0] else roles[0]
                found.direction = ir.Direction(senders[0], other)
            else:
                found.direction = ir.Direction(roles[0], roles[1])
                found.weak.add("direction")
                found.inferred["direction"] = (
                    f"{roles[0]} → {roles[1]}: {raw.where} names no role, so the "
                    f"first role, {roles[0]}, is taken as its sender"
                )
            for part, text in (("params", raw.params), ("result", raw.result)):
                if text is None:
                    continue
                read = read_type(text, "rust", declared)
                if isinstance(read, SyntaxProblem):
                    diags.report(
                        "MTH010",
                        f"{raw.wire}: the {part} type {text!r} of {raw.where}: "
                        f"{read.message}",
                        raw.span,
                    )
                    continue
                setattr(found, part, read)
                found.how[part] = f"{part} = {text} in {raw.where}"
                if part == "result" and read is None:
                    found.answers_nothing = True
            if (
                raw.params is None
                and raw.has_result_slot is False
                and found.kind is None
            ):
                continue
            out.append(found)
        return out


def _role_of_fragment(name: str) -> str:
    lowered = name.lower()
    if "param" in lowered:
        return "params"
    if any(word in lowered for word in _RESULT_WORDS):
        return "result"
    if any(word in lowered for word in ("method", "wire", "name")):
        return "wire"
    return name


def _split(text: str, *separators: str) -> list[tuple[str, int]]:
    """Top-level pieces of a token text (not inside brackets or strings), with offsets."""
    out: list[tuple[str, int]] = []
    depth, start, index, quoted = 0, 0, 0, False
    while index < len(text):
        char = text[index]
        if char == '"' and (index == 0 or text[index - 1] != "\\"):
            quoted = not quoted
        elif not quoted and char in "([{<":
            depth += 1
        elif not quoted and char in ")]}>" and not text[:index].endswith("="):
            depth -= 1
        elif not quoted and depth == 0:
            sep = next((s for s in separators if text.startswith(s, index)), None)
            if sep is not None:
                out.append((text[start:index], start))
                index += len(sep)
                start = index
                continue
        index += 1
    if text[start:].strip():
        out.append((text[start:], start))
    return out


def _span_at(source: SourceText, byte: int) -> ir.Span:
    prefix = source.data[:byte]
    line = prefix.count(b"\n") + 1
    col = byte - (prefix.rfind(b"\n") + 1) + 1
    return ir.Span(source.rel_path, line, col)
