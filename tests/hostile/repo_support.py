"""Scratch copies of this repository for tests that run ``codegen generate`` as a user would
and then kill it, race it or take its permissions away.
"""

from __future__ import annotations

import ctypes
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent.parent
# Two specs with a Python package each and a loose file (ahp's extracted.json): every kind
# of unit the writer swaps.
SPECS = ("ahp", "openctx")


def scratch_repo(specs: tuple[str, ...] = SPECS) -> Path:
    """A world-traversable copy (an unprivileged user may have to run in it)."""
    root = Path(tempfile.mkdtemp(prefix="codegen-hostile-"))
    root.chmod(0o755)
    shutil.copy2(REPO / "pyproject.toml", root / "pyproject.toml")
    for spec in specs:
        shutil.copytree(REPO / "specs" / spec, root / "specs" / spec)
        shutil.copytree(REPO / "generated" / spec, root / "generated" / spec)
    return root


def change_specs(root: Path) -> None:
    """Edits that change every output: ahp's title, and openctx's package renamed (the old
    package directory must go, the new one appear)."""
    toml = root / "specs/ahp/spec.toml"
    text = toml.read_text(encoding="utf-8")
    toml.write_text(text.replace('title = "', 'title = "Renamed ', 1), encoding="utf-8")
    toml = root / "specs/openctx/spec.toml"
    text = toml.read_text(encoding="utf-8")
    toml.write_text(
        text.replace('package = "openctx_protocol"', 'package = "openctx_renamed"'),
        encoding="utf-8",
    )


def codegen_argv(*args: str) -> list[str]:
    return [sys.executable, "-m", "codegen", *args]


def _drop_file_capabilities() -> None:
    """In the child, before exec: root loses the capabilities that bypass file
    permissions (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER), for good."""
    libc = ctypes.CDLL(None, use_errno=True)
    for capability in (1, 2, 3):
        if libc.prctl(24, capability, 0, 0, 0) != 0:  # PR_CAPBSET_DROP
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP) failed")


def run_codegen(
    root: Path, *args: str, obey_permissions: bool = False, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """``codegen ARGS`` in ``root``; ``obey_permissions``: even when the tests run as
    root, the run is denied what a file's mode denies (as for any other user)."""
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    as_root = obey_permissions and os.geteuid() == 0
    return subprocess.run(
        codegen_argv(*args),
        cwd=root,
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
        check=False,
        preexec_fn=_drop_file_capabilities if as_root else None,
    )
