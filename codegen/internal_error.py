"""Internal errors: a crash of the toolchain on some input, reported as a diagnostic.

Phase: cross-cutting (used by the pipeline's safety net around frontends and passes).
Inputs: the exception a phase raised, and what the phase was doing.
Outputs: an INT001 diagnostic at the innermost source position the crashed code was at.
Guarantees: never raises; it is a net, not a fix: each crash it catches is a bug to be
fixed where it happens (a depth guard in a frontend, say).
"""

from __future__ import annotations

import traceback
from typing import Any

from codegen.diagnostics import Diagnostics
from codegen.ir import Span
from codegen.spec.source import SourceText


def report_internal_error(
    diags: Diagnostics, error: Exception, doing: str, fallback: Span
) -> None:
    """An INT001 for a crash of the toolchain on some input, instead of a traceback.

    The span is the innermost source position the crashed code
    was looking at (a ``SourceText`` and a parser node among the locals of its frames),
    so the user sees which file, and where, set it off.
    """
    if isinstance(error, RecursionError):
        what = "the input is nested too deeply for it (RecursionError)"
    else:
        detail = str(error).splitlines()[0] if str(error) else ""
        what = (
            f"{type(error).__name__}: {detail[:200]}"
            if detail
            else type(error).__name__
        )
    diags.report("INT001", f"{doing} crashed: {what}", _crash_span(error) or fallback)


def _crash_span(error: BaseException) -> Span | None:
    node: Any = None
    for frame, _ in reversed(list(traceback.walk_tb(error.__traceback__))):
        values = list(frame.f_locals.values())
        if node is None:
            node = next((v for v in values if _is_node(v)), None)
        source = next((v for v in values if isinstance(v, SourceText)), None)
        if source is not None:
            if node is None:
                return Span(source.rel_path, 1, 1)
            row, column = node.start_point
            return source.span_at_point(int(row), int(column))
    return None


def _is_node(value: object) -> bool:
    # A tree-sitter node, without importing tree-sitter here.
    point = getattr(value, "start_point", None)
    return isinstance(point, tuple) and len(point) == 2 and hasattr(value, "type")
