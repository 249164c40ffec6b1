"""``codegen serve <id>``: start the generated stub server of one spec.

Phase: entry point helper (used by the CLI).
Inputs: a spec directory (its ``spec.toml`` names the Python package) and the server
options (transport, host, port, transcript, size limit).
Outputs: the command line of ``python -m <pkg>.server`` with ``generated/<id>/python``
on ``PYTHONPATH``; ``run`` replaces the current process with it.
Guarantees: nothing is generated or written here; a spec whose package has not been
generated yet is reported, not started.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path

from codegen.diagnostics import Diagnostics
from codegen.spec.config import load_config

__all__ = ["ServeError", "run", "server_command"]


class ServeError(RuntimeError):
    """The stub server of a spec cannot be started (no config, not generated)."""


def server_command(
    spec_dir: Path, repo_root: Path, options: Sequence[str]
) -> tuple[list[str], dict[str, str]]:
    """The argv and environment that start the stub server of ``spec_dir``."""
    config = load_config(spec_dir, Diagnostics("serve"), repo_root)
    if config is None:
        raise ServeError(f"cannot read {spec_dir / 'spec.toml'}")
    python_dir = repo_root / "generated" / config.id / "python"
    if not (python_dir / config.python_package / "server.py").is_file():
        raise ServeError(
            f"{python_dir / config.python_package / 'server.py'} does not exist; "
            "run `codegen generate` first"
        )
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        filter(None, [str(python_dir), env.get("PYTHONPATH", "")])
    )
    argv = [sys.executable, "-m", f"{config.python_package}.server", *options]
    return argv, env


def run(argv: list[str], env: dict[str, str]) -> None:
    """Replace this process with the server (signals and exit code go straight to
    it).
    """
    sys.stdout.flush()
    sys.stderr.flush()
    os.execve(argv[0], argv, env)
