"""``codegen generate`` killed at random points, raced, and denied write access.

- Kills: SIGKILL lands at a random moment of the write phase (anchored on the writer's
  ``.codegen-tx/`` appearing); right after each kill there is no temporary file outside it
  and every generated directory is wholly old or wholly new; after the journal is replayed
  (what the next run does first) the whole tree is old or new.  ``CODEGEN_KILL_RUNS`` kills
  (4 in ``make test``, 60 in ``make fuzz``); the counts are printed and written to
  ``build/fuzz/kills.json``.
- Concurrent runs all succeed (a later one waits for the lock), never a traceback: three at
  once, ``CODEGEN_CONCURRENT_ROUNDS`` times (1 in ``make test``, 5 in ``make fuzz``).
- A read-only ``generated/`` is a one-line error and nothing is half-applied.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from codegen.writer import TX_DIR, can_exchange, recover
from tests.hostile.repo_support import (
    REPO,
    SPECS,
    change_specs,
    codegen_argv,
    run_codegen,
    scratch_repo,
)
from tests.hostile.tree_support import restore, snapshot, within

KILL_RUNS = int(os.environ.get("CODEGEN_KILL_RUNS", "4"))
ROUNDS = int(os.environ.get("CODEGEN_CONCURRENT_ROUNDS", "1"))
TOP = ["generated", "specs"]
UNITS = [f"generated/{spec}" for spec in SPECS]


@pytest.fixture
def repos() -> Iterator[tuple[Path, dict[str, bytes], dict[str, bytes]]]:
    """A scratch repo with changed specs; its old tree, and the tree generate makes."""
    root = scratch_repo()
    change_specs(root)
    old = snapshot(root)
    done = run_codegen(root, "generate", *SPECS)
    assert done.returncode == 0, done.stderr
    new = snapshot(root)
    assert set(new) - set(old) and set(old) - set(new)  # a package really was renamed
    restore(root, old, TOP)
    yield root, old, new
    shutil.rmtree(root, ignore_errors=True)


def _write_window(root: Path) -> float:
    """How long the write phase of one run lasts (seconds), measured once."""
    process = subprocess.Popen(
        codegen_argv("generate", *SPECS),
        cwd=root,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    tx = root / TX_DIR
    while not tx.exists() and process.poll() is None:
        time.sleep(0.0002)
    start = time.monotonic()
    while tx.exists() and process.poll() is None:
        time.sleep(0.0002)
    window = time.monotonic() - start
    assert process.wait(60) == 0
    return max(window, 0.002)


def test_kills_at_random_points_leave_old_or_new(
    repos: tuple[Path, dict[str, bytes], dict[str, bytes]],
) -> None:
    root, old, new = repos
    exchange = can_exchange(root)
    window = _write_window(root)
    rng = random.Random(17)
    counts = {"runs": 0, "killed_while_writing": 0, "finished_first": 0}
    counts |= {"mixed_trees": 0, "leftover_temp_files": 0, "rolled_back": 0}
    counts["rolled_forward"] = 0
    for _ in range(KILL_RUNS):
        restore(root, old, TOP)
        process = subprocess.Popen(
            codegen_argv("generate", *SPECS),
            cwd=root,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        while not (root / TX_DIR).exists() and process.poll() is None:
            time.sleep(0.0002)
        time.sleep(rng.uniform(0, window * 1.2))
        process.send_signal(signal.SIGKILL)
        code = process.wait(60)
        counts["runs"] += 1
        counts["killed_while_writing" if code == -9 else "finished_first"] += 1
        after = snapshot(root)
        stray = set(after) - set(old) - set(new)
        counts["leftover_temp_files"] += len(stray)
        for unit in UNITS:
            files = within(after, unit)
            # (absent only between two plain renames, where exchange is missing)
            if files not in (within(old, unit), within(new, unit)) and (
                files or exchange
            ):
                counts["mixed_trees"] += 1
        recover(root)
        replayed = snapshot(root)
        if replayed not in (old, new):
            counts["mixed_trees"] += 1
        counts["rolled_back" if replayed == old else "rolled_forward"] += 1
        leftovers = [p.name for p in root.iterdir() if p.name == TX_DIR]
        counts["leftover_temp_files"] += len(leftovers)
    report = REPO / "build/fuzz/kills.json"
    report.parent.mkdir(parents=True, exist_ok=True)
    report.write_text(json.dumps(counts, indent=1) + "\n", encoding="utf-8")
    print(f"\nkills of `codegen generate`: {counts}")
    assert counts["mixed_trees"] == 0 and counts["leftover_temp_files"] == 0, counts
    assert counts["killed_while_writing"] >= KILL_RUNS // 2, counts  # kills did land
    done = run_codegen(root, "generate", *SPECS)
    assert done.returncode == 0, done.stderr
    assert snapshot(root) == new
    assert run_codegen(root, "generate", "--check", *SPECS).returncode == 0


def test_concurrent_runs_never_fail(
    repos: tuple[Path, dict[str, bytes], dict[str, bytes]],
) -> None:
    root, old, new = repos
    for _ in range(ROUNDS):
        restore(root, old, TOP)
        processes = [
            subprocess.Popen(
                codegen_argv("generate", *SPECS),
                cwd=root,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for _ in range(3)
        ]
        outcomes = [(p.wait(120), p.communicate()[1]) for p in processes]
        for code, stderr in outcomes:
            assert code == 0 and "Traceback" not in stderr, stderr
        assert snapshot(root) == new and not (root / TX_DIR).exists()
    assert run_codegen(root, "generate", "--check", *SPECS).returncode == 0


@pytest.mark.parametrize("read_only", ["generated", "generated/openctx", "."])
def test_a_read_only_directory_is_a_clear_error(
    repos: tuple[Path, dict[str, bytes], dict[str, bytes]], read_only: str
) -> None:
    root, old, _ = repos
    (root / read_only).chmod(0o555)
    try:
        done = run_codegen(root, "generate", *SPECS, obey_permissions=True)
    finally:
        (root / read_only).chmod(0o755)
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("error: cannot write") and "Permission denied" in last
    assert last.endswith("nothing was changed"), last
    assert snapshot(root) == old and not (root / TX_DIR).exists()
