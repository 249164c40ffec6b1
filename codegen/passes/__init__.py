"""Passes: pure ``(Protocol, Diagnostics) -> Protocol`` functions, run in ``PIPELINE`` order.

Each pass reads a Protocol and returns a new one (the IR is frozen); problems are reported, not
raised.  The order matters: references are checked before anything follows them.
"""

from __future__ import annotations

from collections.abc import Callable

from codegen import ir
from codegen.diagnostics import Diagnostics
from codegen.passes.check_enum_values import check_enum_values
from codegen.passes.check_patterns import check_patterns
from codegen.passes.check_references import check_references
from codegen.passes.check_wire_names import check_wire_names
from codegen.passes.infer_discriminators import infer_discriminators

Pass = Callable[[ir.Protocol, Diagnostics], ir.Protocol]

PIPELINE: tuple[tuple[str, Pass], ...] = (
    ("check-references", check_references),
    ("check-enum-values", check_enum_values),
    ("check-patterns", check_patterns),
    ("check-wire-names", check_wire_names),
    ("infer-discriminators", infer_discriminators),
)


def run_passes(protocol: ir.Protocol, diags: Diagnostics) -> ir.Protocol:
    for _, apply in PIPELINE:
        protocol = apply(protocol, diags)
        if diags.has_errors():
            # Later passes assume earlier ones succeeded (e.g. every Ref resolves).
            break
    return protocol
