"""Apply a write plan and SIGKILL ourselves at the Nth filesystem step: a crash at an exact
point of the writer, for tests/hostile/test_writer_crashes.py.

Usage: ``python kill_writer.py ROOT PLAN.json N`` (N < 0: never; prints the steps taken).
With ``CODEGEN_NO_EXCHANGE=1`` the writer runs as on a system without an atomic directory
exchange (two renames per directory).  Every rename, replace, link, mkdir, unlink, rmdir, open and fsync of the ``os`` module is a
step, so each point between two of them is a place a real ``kill -9`` could land.
"""

from __future__ import annotations

import json
import os
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from codegen import writer

STEPS = ("rename", "replace", "link", "mkdir", "unlink", "rmdir", "open", "fsync")


def main() -> None:
    root, plan_file, kill_at = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
    spec = json.loads(plan_file.read_text(encoding="utf-8"))
    count = 0

    def wrap(function: Callable[..., Any]) -> Callable[..., Any]:
        def step(*args: Any, **kwargs: Any) -> Any:
            nonlocal count
            if count == kill_at:
                os.kill(os.getpid(), signal.SIGKILL)
            count += 1
            return function(*args, **kwargs)

        return step

    if os.environ.get("CODEGEN_NO_EXCHANGE"):
        writer._renameat2 = None
    for name in STEPS:
        setattr(os, name, wrap(getattr(os, name)))
    writer.apply_plan(root, spec["plan"], spec["owned"])
    print(count)


if __name__ == "__main__":
    main()
