"""Run the ``codegen`` command line as a user would: a subprocess, output captured."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def run_codegen(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "codegen", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
    )
