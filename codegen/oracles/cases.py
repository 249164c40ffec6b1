"""The cases of one spec: samples, instances drawn from schemas, and their mutants.

Phase: verification (``make oracle``), case generation.
Inputs: a ``Subject``, the type names to test (those the oracle, the bindings and our
schema all know), and the budget per type.
Outputs: ``build_cases``: ``Case``s grouped by type, in a fixed order: the spec's wire
samples (``specs/<id>/examples/`` and the spec's own ``@example`` messages, split into
params and result), instances drawn from our JSON Schema, instances drawn from the official
schema when it defines the type, merges of two of these (the keys of two union variants in
one object), then mutants of all of these, interleaved by mutation kind so a capped type
still sees every kind.
Guarantees: deterministic (hypothesis derandomized, fixed orders); no two cases of a type
share a key; every base case is kept, mutants fill the budget.
"""

from __future__ import annotations

import hashlib
import itertools
import json
from collections.abc import Callable, Iterable
from typing import Any

from codegen import ir, naming
from codegen.oracles.case import Case
from codegen.oracles.draw import draw
from codegen.oracles.jsontext import dumps
from codegen.oracles.mutants import Knowledge, mutants
from codegen.oracles.subject import Subject

MERGES = 6  # merged pairs of instances per type


def knowledge(subject: Subject) -> Knowledge:
    tags: dict[str, list[str | int | float | bool]] = {}
    for decl in subject.protocol.decls:
        if isinstance(decl, ir.UnionDecl) and decl.tag_key is not None:
            bucket = tags.setdefault(decl.tag_key, [])
            for variant in decl.variants:
                bucket.extend(v for v in variant.tag_values if v not in bucket)
        if isinstance(decl, ir.StructDecl):
            for fld in decl.fields:
                if fld.synthesized and isinstance(fld.type, ir.Literal):
                    bucket = tags.setdefault(fld.wire_name, [])
                    if fld.type.value not in bucket:
                        bucket.append(fld.type.value)
    return Knowledge(
        tags={key: tuple(values) for key, values in sorted(tags.items())},
        attribute_name=naming.attribute_name,
        case_insensitive_keys=subject.language == "go",
    )


def sample_cases(subject: Subject, targets: set[str]) -> list[Case]:
    """The spec's own wire samples whose target is one of ``targets``."""
    methods = {m.wire_name: m for m in subject.protocol.methods}
    out: list[Case] = []
    for example in subject.protocol.examples:
        if example.skipped_reason is not None:
            continue
        origin = f"sample:{example.name}"
        if example.part is ir.ExamplePart.TYPE and example.type_name in targets:
            out.append(Case(subject.id, example.type_name, example.json_text, origin))
            continue
        method = methods.get(example.method or "")
        if method is None:
            continue
        for part, text in _parts(example):
            expr = method.params if part is ir.ExamplePart.PARAMS else method.result
            if isinstance(expr, ir.Ref) and expr.name in targets:
                out.append(Case(subject.id, expr.name, text, f"{origin}/{part.value}"))
    return out


def _parts(example: ir.Example) -> list[tuple[ir.ExamplePart, str]]:
    if example.part in (ir.ExamplePart.PARAMS, ir.ExamplePart.RESULT):
        return [(example.part, example.json_text)]
    if example.part is not ir.ExamplePart.MESSAGE:
        return []
    try:
        message = json.loads(example.json_text)
    except ValueError:
        return []
    if not isinstance(message, dict):
        return []
    found = []
    if "params" in message:
        found.append((ir.ExamplePart.PARAMS, dumps(message["params"])))
    if "result" in message:
        found.append((ir.ExamplePart.RESULT, dumps(message["result"])))
    return found


def build_cases(
    subject: Subject,
    targets: Iterable[str],
    *,
    per_type: int = 300,
    draws: int = 12,
    official_draws: int = 8,
) -> list[Case]:
    names = sorted(set(targets))
    samples = sample_cases(subject, set(names))
    know = knowledge(subject)
    official = subject.official[1] if subject.official else None
    official_defs: dict[str, Any] = (
        {**official.get("definitions", {}), **official.get("$defs", {})}
        if official
        else {}
    )
    out: list[Case] = []
    for name in names:
        bases = [c for c in samples if c.type_name == name]
        for index, value in enumerate(draw(subject.bundle, name, draws)):
            bases.append(Case(subject.id, name, dumps(value), f"ours:{index}"))
        if official is not None and name in official_defs:
            for index, value in enumerate(draw(official, name, official_draws)):
                bases.append(Case(subject.id, name, dumps(value), f"official:{index}"))
        out.extend(_capped(bases, know, per_type))
    return out


def _capped(bases: list[Case], know: Knowledge, per_type: int) -> list[Case]:
    seen: set[str] = set()
    kept: list[Case] = []
    for case in bases:
        if case.key not in seen:
            seen.add(case.key)
            kept.append(case)
    # Two instances in one object (the keys of two union variants at once): which one a
    # reader picks is the question.  These are bases too, so they get mutants.
    objects = [c for c in kept if c.text.startswith("{")]
    for first, second in list(itertools.pairwise(objects))[:MERGES]:
        merged = {**json.loads(first.text), **json.loads(second.text)}
        case = Case(
            first.spec,
            first.type_name,
            dumps(merged),
            f"{first.origin}+{second.origin}",
            "merge",
            f"keys of {second.origin} over {first.origin}",
        )
        if case.key not in seen:
            seen.add(case.key)
            kept.append(case)
    # Mutants are built (their text) only when the budget keeps them.
    by_kind: dict[str, list[tuple[str, Case, str, Callable[[], str]]]] = {}
    for case in kept:
        try:
            value = json.loads(case.text)
        except ValueError:
            continue
        for kind, what, make in mutants(value, know):
            order = hashlib.sha256(f"{case.key}\t{what}".encode()).hexdigest()
            by_kind.setdefault(kind, []).append((order, case, what, make))
    # Within a kind, a fixed pseudo-random order, so every base contributes.
    queues = [
        sorted(items, key=lambda item: item[0], reverse=True)
        for _, items in sorted(by_kind.items())
    ]
    kinds = sorted(by_kind)
    while len(kept) < per_type and any(queues):
        for kind, queue in zip(kinds, queues, strict=True):
            while queue:
                _, base, what, make = queue.pop()
                case = Case(base.spec, base.type_name, make(), base.origin, kind, what)
                if case.key not in seen:
                    seen.add(case.key)
                    kept.append(case)
                    break
            if len(kept) >= per_type:
                break
    return kept
