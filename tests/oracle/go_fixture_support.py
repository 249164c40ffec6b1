"""Run the encoding/json oracle on a Go fixture spec: copy it into a scratch repository,
generate its bindings there, and judge drawn instances (the campaign's own ``run_spec``).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from codegen.oracles.divergences import load_divergences, load_open_findings
from codegen.oracles.report import SpecReport
from codegen.oracles.run import Options, run_spec

REPO = Path(__file__).resolve().parent.parent.parent


SLICE = Options(per_type=40, draws=4)


def oracle_report(fixture: Path, scratch: Path, options: Options = SLICE) -> SpecReport:
    spec_id = fixture.name
    target = scratch / "specs" / spec_id
    shutil.copytree(fixture, target)
    codegen = Path(sys.executable).parent / "codegen"
    done = subprocess.run(
        [
            str(codegen),
            "generate",
            "--no-cache",
            "-q",
            str(target),
            "-o",
            str(scratch / "generated"),
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return run_spec(
        spec_id,
        scratch,
        load_divergences(REPO),
        options,
        load_open_findings(REPO),
    )
