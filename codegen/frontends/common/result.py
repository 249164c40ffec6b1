"""What every frontend returns, before the pipeline adds the spec's own metadata.

Phase: frontend output.
Inputs: built by a frontend.
Outputs: read by ``pipeline.py``, which assembles the ``ir.Protocol``.
Guarantees: plain frozen data; tuples keep source order.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from codegen import ir


@dataclass(frozen=True, slots=True)
class FrontendResult:
    decls: tuple[ir.Decl, ...]
    methods: tuple[ir.Method, ...]
    examples: tuple[ir.Example, ...] = ()
    constants: tuple[ir.ConstDecl, ...] = ()
    # The frontend applied spec.toml's [methods] table itself (it needed the table's facts
    # to decide direction, kind or reachability); otherwise the pipeline applies it.
    method_table_applied: bool = False
    # wire name → fact → where the method evidence stated it (``codegen.methods``).
    provenance: dict[str, dict[str, str]] = field(default_factory=dict, compare=False)
    # Source lines the language never compiles (Rust's ``#[cfg]``'d-out items, test
    # modules among them), as (file, first line, last line): strings there are no
    # evidence that a method was missed (MTH011).
    uncompiled: tuple[tuple[str, int, int], ...] = ()
