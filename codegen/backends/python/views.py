"""The view-model of the Python bindings: what ``templates/python`` lays out.

Phase: backend (Python bindings), between the builders and the templates.
Inputs: none; the builders (``decls``, ``unions``, ``methods``) fill these in.
Outputs: frozen dataclasses holding ready-made Python text (names, annotations,
literals, indented docstring blocks).
Guarantees: plain immutable data; every string is already valid Python in its place,
so the templates only arrange it.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "CheckView",
    "DeclView",
    "DiscriminatorView",
    "FieldView",
    "MemberView",
    "MethodView",
]


@dataclass(frozen=True)
class FieldView:
    attr: str
    annotation: str
    value: str  # the right-hand side, "" for a required field without alias
    statement: str  # ``attr: annotation = value``
    doc: str  # a ready docstring block (indented) or ""


@dataclass(frozen=True)
class MemberView:
    name: str
    value: str
    doc: str


@dataclass(frozen=True)
class CheckView:
    condition: str
    tag: str  # a Python string literal


@dataclass(frozen=True)
class DiscriminatorView:
    function: str
    doc: str
    instance_checks: tuple[CheckView, ...]
    dict_prelude: tuple[str, ...]
    dict_checks: tuple[CheckView, ...]
    dict_fallback: str
    other_fallback: str


@dataclass(frozen=True)
class DeclView:
    kind: str  # "model" | "enum" | "alias" | "newtype" | "union"
    name: str
    doc: str = ""
    comment: tuple[str, ...] = ()
    base: str = ""
    fields: tuple[FieldView, ...] = ()
    extra: str = ""
    members: tuple[MemberView, ...] = ()
    value: str = ""
    discriminator: DiscriminatorView | None = None
    exported: bool = True
    runtime: str = ""  # the text evaluated at import time (ordering constraints)
    body: tuple[str, ...] = ()  # extra class-body lines (indented), after the members
    # An alias or union that refers to itself (a JSON value type): rendered as
    # ``TypeAliasType`` with a lazily evaluated value, so the module imports cleanly.
    recursive: bool = False


@dataclass(frozen=True)
class MethodView:
    wire: str
    name: str  # the wire name as written (templates encode it per context)
    kind: str
    is_request: bool
    sender: str
    receiver: str
    both_ways: str
    function: str
    params: str | None  # annotation (``X | None`` when the params key may be absent)
    result: str | None
    params_adapter: str | None
    result_adapter: str | None
    params_config: bool
    result_config: bool
    doc: str
    jsonrpc: bool
    params_optional: bool = False
    # What the adapters read and write: ``params``/``result`` with the schema markers
    # that signatures leave out (``_ANY_JSON``).
    params_type: str | None = None
    result_type: str | None = None
