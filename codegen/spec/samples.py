"""Hand-written wire samples in ``specs/<id>/examples/``: loading, and writing extracted ones.

Phase: after the frontend (samples join the IR's examples).
Inputs: ``examples/methods/*.json`` and ``examples/types/*.json`` files, each::

    {"target": {"method": "initialize"}  or  {"type": "ToolCallState"},
     "samples": [{"name": "minimal", "part": "params" | "result" | "message" | "type",
                  "expect": "accept" | "reject", "why": "...", "value": <the wire JSON>}]}

Outputs: ``ir.Example``s (json_text keeps key order and number spelling of ``value``);
``extracted.json``, the spec's own ``@example`` messages written out for people and tools.
Guarantees: a malformed sample file is an EXM003 diagnostic with its path, never a crash;
output of ``render_extracted`` is deterministic.
"""

from __future__ import annotations

import json
from collections.abc import Collection
from pathlib import Path
from typing import Any

from codegen import ir
from codegen.diagnostics import Diagnostics
from codegen.spec.source import decode

EXTRACTED_FILE = "extracted.json"
_PARTS = {
    "params": ir.ExamplePart.PARAMS,
    "result": ir.ExamplePart.RESULT,
    "message": ir.ExamplePart.MESSAGE,
    "error": ir.ExamplePart.ERROR,
    "type": ir.ExamplePart.TYPE,
}
_EXPECT = {"accept": ir.Expectation.ACCEPT, "reject": ir.Expectation.REJECT}


def load_samples(
    examples_dir: Path, repo_root: Path, diags: Diagnostics
) -> list[ir.Example]:
    out: list[ir.Example] = []
    for sub in ("methods", "types"):
        folder = examples_dir / sub
        if folder.is_dir():
            for path in sorted(folder.glob("*.json")):
                out.extend(
                    _load_file(path, path.relative_to(repo_root).as_posix(), diags)
                )
    return out


def _load_file(path: Path, rel: str, diags: Diagnostics) -> list[ir.Example]:
    try:
        decoded = decode(path.read_bytes())
    except OSError as error:
        reason = error.strerror or str(error)
        diags.report("SRC003", f"cannot read {rel}: {reason}", ir.Span(rel, 1, 1))
        return []
    if decoded.code:
        span = ir.Span(rel, decoded.line, decoded.col)
        diags.report(decoded.code, decoded.message, span)
        return []
    text = decoded.text
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        diags.report(
            "EXM003", f"not valid JSON: {exc.msg}", ir.Span(rel, exc.lineno, exc.colno)
        )
        return []
    except RecursionError:
        diags.report("EXM003", "not readable: nested too deeply", ir.Span(rel, 1, 1))
        return []
    target = data.get("target") if isinstance(data, dict) else None
    samples = data.get("samples") if isinstance(data, dict) else None
    if not isinstance(target, dict) or not isinstance(samples, list):
        diags.report(
            "EXM003",
            "a sample file needs 'target' and a 'samples' list",
            ir.Span(rel, 1, 1),
        )
        return []
    out: list[ir.Example] = []
    for sample in samples:
        example = _example(sample, target, text, rel, diags)
        if example is not None:
            out.append(example)
    return out


def _example(
    sample: Any, target: dict[str, Any], text: str, rel: str, diags: Diagnostics
) -> ir.Example | None:
    if not isinstance(sample, dict) or "value" not in sample:
        diags.report("EXM003", "each sample needs a 'value'", ir.Span(rel, 1, 1))
        return None
    name = str(sample.get("name", ""))
    span = _span_of_name(text, rel, name)
    part = _PARTS.get(str(sample.get("part", "type" if "type" in target else "params")))
    expect = _EXPECT.get(str(sample.get("expect", "accept")))
    if part is None or expect is None or not name:
        diags.report(
            "EXM003", f"sample {name!r}: needs a name, a known part and expect", span
        )
        return None
    method = target.get("method")
    type_name = target.get("type")
    prefix = method if method is not None else type_name
    return ir.Example(
        name=f"{prefix}.{expect.value}.{name}",
        json_text=json.dumps(sample["value"], ensure_ascii=False),
        part=part,
        expect=expect,
        method=str(method) if method is not None else None,
        type_name=str(type_name) if type_name is not None else None,
        span=span,
        note=str(sample.get("why", "")),
    )


def _span_of_name(text: str, rel: str, name: str) -> ir.Span:
    needle = f'"name": "{name}"'
    position = text.find(needle)
    if position < 0:
        return ir.Span(rel, 1, 1)
    line = text.count("\n", 0, position) + 1
    column = position - (text.rfind("\n", 0, position) + 1) + 1
    return ir.Span(rel, line, column)


def render_extracted(examples: tuple[ir.Example, ...], sources: Collection[str]) -> str:
    """The spec's own ``@example`` messages (those found in ``sources``, the spec's
    source files by span path) as one reviewable JSON document."""
    entries: list[dict[str, Any]] = []
    for example in examples:
        if (
            example.part is not ir.ExamplePart.MESSAGE
            or example.span.file not in sources
        ):
            continue
        entry: dict[str, Any] = {
            "name": example.name,
            "method": example.method,
            "source": f"{example.span.file}:{example.span.line}",
            "note": example.note,
        }
        if example.skipped_reason is None:
            entry["message"] = json.loads(example.json_text)
        else:
            entry["skipped"] = example.skipped_reason
            entry["text"] = example.json_text
        entries.append(entry)
    document = {
        "comment": "generated by `codegen examples extract` from the spec's @example blocks; "
        "do not edit",
        "examples": entries,
        "extracted": sum(1 for e in entries if "message" in e),
        "skipped": sum(1 for e in entries if "skipped" in e),
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"
