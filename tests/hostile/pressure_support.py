"""Measuring a server under pressure: its resident memory, read from /proc (Linux).

Phase: tests (the hostile suites of issue 33).
Inputs: a process id.
Outputs: ``rss_mb`` (the process's resident set, in MB, from /proc/<pid>/status).
Guarantees: no third-party library; fails the test when /proc has no such line.
"""

from __future__ import annotations

from pathlib import Path


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError(f"no VmRSS for pid {pid}")
