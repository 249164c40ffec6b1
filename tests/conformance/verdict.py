"""One conformance case's verdict, shared by the TypeScript and Rust harnesses.

Phase: verification (``tests/conformance/{typescript,rust}``).
Inputs: what a harness found for one peer case. Outputs: ``Verdict`` (pass or not, why, the
root types read, the disagreements, and for Rust the serde divergence that excused them).
Guarantees: plain data; the reports count it the same way in both languages.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Verdict:
    case: str
    ok: bool
    why: str = ""
    roots: list[str] = field(default_factory=list)
    disagreements: list[str] = field(default_factory=list)
    divergence: str = ""  # Rust: set when serde decided every difference our way
