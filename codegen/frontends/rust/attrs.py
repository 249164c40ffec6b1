"""Rust attributes and doc comments for the serde frontend: ``#[serde(...)]``, ``#[derive]``,
``///`` docs, ``#[deprecated]``, and serde's ``rename_all`` rules.

Phase: frontend helper (used by ``rust.reader``).
Inputs: the ``attribute_item`` and ``line_comment``/``block_comment`` nodes that precede an
item, a field or a variant (tree-sitter-rust).
Outputs: an ``Attrs`` record: doc text, derived traits, serde arguments with spans, deprecation;
``apply_rename_rule`` reproduces serde's ``RenameRule::apply_to_field`` / ``apply_to_variant``.
Guarantees: never raises on user input; malformed serde arguments and unknown rename rules are
reported (SER001) with spans, and the offending argument is dropped.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from tree_sitter import Node

from codegen import ir
from codegen.diagnostics import Diagnostics
from codegen.frontends.common.syntax import node_text, span_of
from codegen.spec.source import SourceText

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
RENAME_RULES = (
    "lowercase",
    "UPPERCASE",
    "PascalCase",
    "camelCase",
    "snake_case",
    "SCREAMING_SNAKE_CASE",
    "kebab-case",
    "SCREAMING-KEBAB-CASE",
)


@dataclass(frozen=True, slots=True)
class SerdeArg:
    """One argument of ``#[serde(...)]``: ``flatten``, ``rename = "x"``, ``rename(serialize
    = "x")``."""

    key: str
    value: str | None
    span: ir.Span
    nested: tuple[SerdeArg, ...] = ()


@dataclass
class Attrs:
    docs: list[str] = field(default_factory=list)
    derives: set[str] = field(default_factory=set)
    serde: list[SerdeArg] = field(default_factory=list)
    deprecated: str | None = None

    def get(self, key: str) -> SerdeArg | None:
        return next((arg for arg in self.serde if arg.key == key), None)

    def has(self, key: str) -> bool:
        return self.get(key) is not None

    def lifecycle(self) -> ir.Lifecycle:
        return ir.Lifecycle(docs=doc_text(self.docs), deprecated=self.deprecated)


def doc_text(lines: list[str]) -> str:
    stripped = [line.removeprefix(" ") for line in lines]
    return "\n".join(stripped).strip()


def is_doc_comment(node: Node) -> bool:
    return node.type in ("line_comment", "block_comment") and any(
        child.type == "outer_doc_comment_marker" for child in node.children
    )


def attributed(children: list[Node]) -> Iterator[tuple[Node, list[Node]]]:
    """Each child that is not an attribute or a comment, with the attribute and doc-comment
    nodes right before it (for ``collect_attrs``)."""
    pending: list[Node] = []
    for node in children:
        if node.type == "attribute_item" or is_doc_comment(node):
            pending.append(node)
        elif node.type not in ("line_comment", "block_comment"):
            yield node, pending
            pending = []


def collect_attrs(nodes: list[Node], source: SourceText, diags: Diagnostics) -> Attrs:
    """Fold the attribute and doc-comment nodes in front of a declaration into ``Attrs``."""
    attrs = Attrs()
    for node in nodes:
        if node.type in ("line_comment", "block_comment"):
            if is_doc_comment(node):
                doc = next((c for c in node.children if c.type == "doc_comment"), None)
                attrs.docs.extend(_doc_lines(node_text(doc), node.type))
            continue
        attribute = next(
            (c for c in node.named_children if c.type == "attribute"), None
        )
        if attribute is None:
            continue
        _read_attribute(attribute, attrs, source, diags)
    return attrs


def _doc_lines(text: str, kind: str) -> list[str]:
    if kind == "line_comment":
        return [text.rstrip("\n").rstrip("\r")]
    lines = text.splitlines()
    return [line.strip().removeprefix("* ").removeprefix("*") for line in lines]


def _read_attribute(
    attribute: Node, attrs: Attrs, source: SourceText, diags: Diagnostics
) -> None:
    path = attribute.named_children[0] if attribute.named_children else None
    name = node_text(path).rsplit("::", 1)[-1]
    args = next((c for c in attribute.named_children if c.type == "token_tree"), None)
    value = attribute.child_by_field_name("value")
    if name == "derive" and args is not None:
        for child in args.named_children:
            attrs.derives.add(node_text(child).rsplit("::", 1)[-1])
    elif name == "serde" and args is not None:
        attrs.serde.extend(parse_args(args, source, diags))
    elif name == "doc" and value is not None:
        attrs.docs.append(_string_value(value) or "")
    elif name == "deprecated":
        note = None
        if value is not None:
            note = _string_value(value)
        elif args is not None:
            note = next(
                (a.value for a in parse_args(args, source, diags) if a.key == "note"),
                None,
            )
        attrs.deprecated = note or ""


def _string_value(node: Node) -> str | None:
    if node.type != "string_literal":
        return None
    content = "".join(
        node_text(c) for c in node.named_children if c.type == "string_content"
    )
    return content.replace('\\"', '"').replace("\\\\", "\\")


def parse_args(tree: Node, source: SourceText, diags: Diagnostics) -> list[SerdeArg]:
    """Split a token tree ``(a, b = "x", c(d = "y"))`` into arguments."""
    out: list[SerdeArg] = []
    groups: list[list[Node]] = [[]]
    for child in tree.children[1:-1]:
        if child.type == ",":
            groups.append([])
        else:
            groups[-1].append(child)
    for group in groups:
        if not group:
            continue
        head = group[0]
        span = span_of(source, head)
        if not _IDENT.fullmatch(node_text(head)):  # ``default`` is a keyword token
            diags.report(
                "SER001",
                f"cannot read serde argument {node_text(head)[:40]!r}; ignored",
                span,
            )
            continue
        key = node_text(head)
        if len(group) == 1:
            out.append(SerdeArg(key, None, span))
        elif len(group) == 3 and group[1].type == "=":
            text = _string_value(group[2])
            if text is None:
                diags.report(
                    "SER001",
                    f"serde argument {key} expects a string literal; ignored",
                    span_of(source, group[2]),
                )
                continue
            out.append(SerdeArg(key, text, span))
        elif len(group) == 2 and group[1].type == "token_tree":
            nested = tuple(parse_args(group[1], source, diags))
            out.append(SerdeArg(key, None, span, nested))
        else:
            diags.report("SER001", f"cannot read serde argument {key!r}; ignored", span)
    return out


def check_rule(arg: SerdeArg, diags: Diagnostics) -> str | None:
    """The rename rule named by a ``rename_all``-like argument, or None (reported)."""
    value = arg.value
    if arg.nested:
        serialize = next((a.value for a in arg.nested if a.key == "serialize"), None)
        deserialize = next(
            (a.value for a in arg.nested if a.key == "deserialize"), None
        )
        if serialize != deserialize:
            diags.report(
                "SER001",
                f"{arg.key} with different serialize and deserialize rules is not "
                "modelled; the serialize rule is used",
                arg.span,
            )
        value = serialize or deserialize
    if value not in RENAME_RULES:
        diags.report(
            "SER001",
            f"unknown {arg.key} rule {value!r} (serde knows {', '.join(RENAME_RULES)})",
            arg.span,
        )
        return None
    return value


def rename_value(arg: SerdeArg, diags: Diagnostics) -> str | None:
    """The wire name of ``rename = "x"`` or ``rename(serialize = "x", ...)``."""
    if not arg.nested:
        return arg.value
    serialize = next((a.value for a in arg.nested if a.key == "serialize"), None)
    deserialize = next((a.value for a in arg.nested if a.key == "deserialize"), None)
    if deserialize is not None and serialize != deserialize:
        diags.report(
            "SER001",
            "rename with different serialize and deserialize names is not modelled; "
            "the serialize name is used",
            arg.span,
        )
    return serialize or deserialize


def apply_rename_rule(rule: str | None, name: str, *, variant: bool) -> str:
    """serde's ``RenameRule::apply_to_variant`` (PascalCase input) and ``apply_to_field``
    (snake_case input)."""
    if rule is None:
        return name
    if variant:
        return _variant_rule(rule, name)
    return _field_rule(rule, name)


def _variant_rule(rule: str, name: str) -> str:
    if rule == "PascalCase":
        return name
    if rule == "lowercase":
        return name.lower()
    if rule == "UPPERCASE":
        return name.upper()
    if rule == "camelCase":
        return name[:1].lower() + name[1:]
    snake = "".join(
        ("_" if index > 0 and char.isupper() else "") + char.lower()
        for index, char in enumerate(name)
    )
    if rule == "snake_case":
        return snake
    if rule == "SCREAMING_SNAKE_CASE":
        return snake.upper()
    if rule == "kebab-case":
        return snake.replace("_", "-")
    return snake.upper().replace("_", "-")  # SCREAMING-KEBAB-CASE


def _field_rule(rule: str, name: str) -> str:
    if rule in ("lowercase", "snake_case"):
        return name
    if rule in ("UPPERCASE", "SCREAMING_SNAKE_CASE"):
        return name.upper()
    if rule in ("PascalCase", "camelCase"):
        pascal = []
        capitalize = True
        for char in name:
            if char == "_":
                capitalize = True
            elif capitalize:
                pascal.append(char.upper())
                capitalize = False
            else:
                pascal.append(char)
        text = "".join(pascal)
        return text if rule == "PascalCase" else text[:1].lower() + text[1:]
    if rule == "kebab-case":
        return name.replace("_", "-")
    return name.upper().replace("_", "-")  # SCREAMING-KEBAB-CASE
