"""Rust serde frontend: ``.rs`` sources (structs and enums with serde attributes, the
method-table macros) → IR.

Public entry: ``read_spec(sources, config, diags) -> FrontendResult``.  The modules behind
it: ``reader`` (items and serde semantics), ``crate`` and ``paths`` (modules and names as
rustc resolves them), ``attrs`` (``#[serde(...)]`` and friends),
``type_exprs`` (Rust types to IR type expressions) and ``macros`` (``acp_peer!``).
"""

from codegen.frontends.rust.reader import read_spec

__all__ = ["read_spec"]
