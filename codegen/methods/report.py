"""The method table as a user reads it, and the "no methods" error.

Phase: after the pipeline (``codegen check ID --methods``) and at its end (``pipeline``
calls ``no_methods_error`` when a JSON-RPC spec resolves to no methods).
Inputs: a loaded ``ir.Protocol`` and the provenance the resolver recorded (fact → where it
was read); for the error, the spec's sources and roles.
Outputs: ``method_table_text``: one line per method (wire name, kind, direction, params,
result; ``?`` after optional params, ``-`` for a notification's result), then with
``evidence`` the source of each fact indented below it; ``no_methods_error`` reports
MTH011 listing the strings shaped like method names (file:line:col) and the
``[methods]`` lines that would declare them.
Guarantees: deterministic text (the goldens of tests/methods compare it).
"""

from __future__ import annotations

from codegen import ir
from codegen.diagnostics import Diagnostics
from codegen.methods.evidence import method_like_strings
from codegen.methods.resolver import toml_key, type_text
from codegen.spec.source import SourceText

_SHOWN = 12


def method_row(method: ir.Method) -> str:
    params = type_text(method.params) + ("?" if method.params_optional else "")
    result = type_text(method.result) if method.kind is ir.MethodKind.REQUEST else "-"
    return (
        f"{method.wire_name:38} {method.kind.value:12} "
        f"{method.direction.arrow():22} {params:38} {result}"
    ).rstrip()


def method_table_text(
    protocol: ir.Protocol,
    provenance: dict[str, dict[str, str]] | None = None,
    evidence: bool = False,
) -> str:
    lines = [f"# {protocol.id}: {len(protocol.methods)} methods"]
    for method in protocol.methods:
        lines.append(method_row(method))
        if evidence:
            facts = (provenance or {}).get(method.wire_name, {})
            where = f"{method.span}" if method.span.file else "spec.toml [methods]"
            lines.append(f"    declared: {where}")
            for fact in ("kind", "direction", "params", "result", "errors"):
                if fact in facts:
                    lines.append(f"    {fact}: {facts[fact]}")
    return "\n".join(lines) + "\n"


def no_methods_error(
    sources: list[SourceText],
    roles: tuple[str, str],
    diags: Diagnostics,
    uncompiled: tuple[tuple[str, int, int], ...] = (),
) -> bool:
    """MTH011 when the sources show method-like strings but no method was read; False
    (nothing reported) for a spec of types alone.  Strings on ``uncompiled`` lines (code
    the language leaves out, such as Rust's ``#[cfg(test)]`` modules) are not evidence.
    """
    found = []
    seen: set[str] = set()
    for source in sources:
        text = source.data.decode("utf-8", errors="replace")
        for item in method_like_strings(source.rel_path, text):
            if _uncompiled(item.span, uncompiled):
                continue
            if item.text not in seen:
                seen.add(item.text)
                found.append(item)
    if not found:
        return False
    listed = "\n".join(f"  {item.span}: {item.text!r}" for item in found[:_SHOWN])
    more = f"\n  … and {len(found) - _SHOWN} more" if len(found) > _SHOWN else ""
    example = found[0].text
    diags.report(
        "MTH011",
        "this JSON-RPC spec resolves to no methods, yet its sources hold strings shaped "
        f"like method names:\n{listed}{more}\nNo rule read them as methods; declare each "
        f'in spec.toml, e.g.\n  [methods.{toml_key(example)}]\n  kind = "request"\n'
        f'  direction = "{roles[0]} → {roles[1]}"\n  params = "<type or empty>"\n'
        '  result = "<type or null>"\n'
        f"or say a string is none: [methods.{toml_key(example)}] method = false",
        found[0].span,
    )
    return True


def _uncompiled(span: ir.Span, ranges: tuple[tuple[str, int, int], ...]) -> bool:
    return any(
        span.file == file and first <= span.line <= last for file, first, last in ranges
    )
