"""Oracles: every binding checked against the source language's own (de)serializer.

Phase: verification (``make oracle``), after ``codegen generate``; never part of generation.
Inputs: a built-in spec (``specs/<id>/``), its generated bindings and JSON Schema
(``generated/<id>/``), its wire samples, and an official schema from ``../shared/corpus``
when one exists.
Outputs: per spec, a verdict for every case (a JSON text for one named type): the source
language's accept/reject and re-serialization, the bindings' accept/reject and output, the
JSON Schema's accept/reject; a summary table, ``build/oracle/<spec>-findings.json`` and
``build/oracle/<spec>-failures.jsonl`` (the failing cases, re-run with ``--failed``).
Guarantees: the oracle is picked by the spec's ``language`` alone (``ORACLES``), so a new
spec needs no change here; a missing toolchain is an error with the command that installs
it, never a skip; deliberate divergences come from one file
(``tests/oracle/divergences.toml``), each with its reason, and anything else is a failure.

Modules: ``case`` (the case and answer records), ``jsontext`` (order- and spelling-preserving
JSON comparison), ``draw`` (instances drawn with hypothesis from a JSON Schema),
``mutants`` (mutations of each instance), ``cases`` (the cases of one spec), ``ours`` (the
bindings' and the schema's verdicts), ``rust_source`` / ``rust`` (serde_json), ``go``
(encoding/json), ``typescript`` (tsc), ``divergences``, ``verdict``, ``report``, ``run``.
"""

from __future__ import annotations

# language of spec.toml → module with ``make_oracle(subject, build_dir)``
ORACLES: dict[str, str] = {
    "rust": "codegen.oracles.rust",
    "go": "codegen.oracles.go",
    "typescript": "codegen.oracles.typescript",
    "prose": "codegen.oracles.typescript",  # the prose specs' types are TypeScript
}
