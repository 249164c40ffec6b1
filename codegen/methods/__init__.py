"""One method model for every frontend: evidence → resolver → ``[methods]`` table → report.

Phase: between the frontends and the IR passes.
Inputs: ``Evidence`` records each frontend reads in its language's idioms (``evidence``).
Outputs: ``ir.Method``s with the provenance of each fact (``resolver``), corrected or
declared by spec.toml's ``[methods]`` table (``table``), printable with their evidence
(``report``, ``codegen check ID --methods``).
Guarantees: one resolver for all four languages, so a fact means the same wherever it is
read; every inference is a note naming its evidence, every missing fact an error naming the
table line that would give it.
"""
