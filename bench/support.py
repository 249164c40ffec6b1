"""Shared plumbing of the benchmarks: which checkout is measured, and results for the summary.

Phase: measurement (``make bench``), never a timed test.
Inputs: ``CODEGEN_BENCH_ROOT`` (a checkout to measure; default: this one), set by
``bench/summary.py --baseline REV`` to an extracted older revision so both sides of a
before/after table are measured by the same scripts in the same run.
Outputs: ``ROOT`` (put first on ``sys.path``), ``ENV`` for subprocesses that must import
that checkout's codegen, and ``result(name, data)``: one ``RESULT`` line on stdout that
``summary.py`` collects.
Guarantees: importing this module changes nothing but ``sys.path``.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

ROOT = Path(
    os.environ.get("CODEGEN_BENCH_ROOT") or Path(__file__).resolve().parent.parent
).resolve()
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def result(name: str, data: dict[str, float]) -> None:
    """A machine-readable line for ``summary.py`` (after the human-readable table)."""
    print(f"RESULT {name} {json.dumps(data, sort_keys=True)}", flush=True)
