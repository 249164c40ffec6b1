"""A writer killed at every filesystem step leaves the old tree or the new one, never a mix.

Each run applies one plan (three owned directories: one updated, one whose package was
renamed, one new; plus two loose files beside specs) in a child process that SIGKILLs itself
at step N (tests/hostile/kill_writer.py), for every N.  Right after the kill: no temporary
file outside the writer's ``.codegen-tx/``, and every owned directory wholly old or wholly new.
Every step with ``CODEGEN_KILL_STEPS=all`` (``make fuzz``), a sample of them otherwise.
After ``recover`` (what the next run does first): the whole tree is old or new, nothing of
the transaction is left; and the next ``apply_plan`` lands the new tree.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from codegen.writer import TX_DIR, apply_plan, can_exchange, recover
from tests.hostile.tree_support import restore, snapshot, within

REPO = Path(__file__).resolve().parent.parent.parent
SCRIPT = Path(__file__).with_name("kill_writer.py")
OWNED = ["generated/a", "generated/b", "generated/c"]
OLD = {
    "generated/a/python/pkg/models.py": "old models\n",
    "generated/a/python/pkg/same.py": "unchanged\n",
    "generated/a/docs/index.md": "old docs\n",
    "generated/b/python/old_name/__init__.py": "old package\n",
    "generated/b/python/old_name/models.py": "old b models\n",
    "generated/b/schema/b.schema.json": "{}\n",
    "specs/a/examples/extracted.json": "[1]\n",
    "specs/a/spec.toml": "untouched\n",
}
PLAN = {
    "generated/a/python/pkg/models.py": "new models\n",
    "generated/a/python/pkg/same.py": "unchanged\n",
    "generated/a/python/pkg/extra.py": "new file\n",
    "generated/b/python/new_name/__init__.py": "new package\n",
    "generated/b/python/new_name/models.py": "new b models\n",
    "generated/b/schema/b.schema.json": "{}\n",
    "generated/c/python/c/__init__.py": "brand new\n",
    "specs/a/examples/extracted.json": "[2]\n",
    "specs/b/examples/extracted.json": "[3]\n",
}
TOP = ["generated", "specs"]


def _bytes(files: dict[str, str]) -> dict[str, bytes]:
    return {k: v.encode() for k, v in files.items()}


NEW = {**_bytes(PLAN), "specs/a/spec.toml": b"untouched\n"}


def _kill_points(steps: int) -> list[int]:
    """Every step with ``CODEGEN_KILL_STEPS=all`` (``make fuzz``); otherwise a fixed
    sample that always holds the first and last steps and those around the journal's
    commit point (the middle third of a run is where the swaps are)."""
    if os.environ.get("CODEGEN_KILL_STEPS", "") == "all":
        return list(range(steps))
    count = int(os.environ.get("CODEGEN_KILL_STEPS", "24"))
    rng = random.Random(steps)
    chosen = {0, 1, steps - 2, steps - 1}
    chosen |= set(rng.sample(range(steps), min(count, steps)))
    return sorted(chosen)


def _run(
    root: Path, plan_file: Path, kill_at: int, exchange: bool
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    if not exchange:
        env["CODEGEN_NO_EXCHANGE"] = "1"
    return subprocess.run(
        [sys.executable, str(SCRIPT), str(root), str(plan_file), str(kill_at)],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )


def _assert_consistent_after_kill(root: Path, exchange: bool) -> None:
    tree = snapshot(root)
    stray = set(tree) - set(NEW) - set(_bytes(OLD))
    assert not stray, f"temporary files outside {TX_DIR}: {sorted(stray)}"
    for owned in OWNED:
        unit = within(tree, owned)
        if not unit and not exchange and within(_bytes(OLD), owned):
            continue  # between two renames: the journal finishes it (checked below)
        assert unit in (within(_bytes(OLD), owned), within(NEW, owned)), owned
    for loose in ("specs/a/examples/extracted.json", "specs/b/examples/extracted.json"):
        assert tree.get(loose) in (_bytes(OLD).get(loose), NEW.get(loose)), loose


@pytest.mark.parametrize("exchange", [True, False], ids=["exchange", "two-renames"])
def test_every_kill_point_leaves_old_or_new(tmp_path: Path, exchange: bool) -> None:
    if exchange and not can_exchange(tmp_path):
        pytest.fail("this filesystem has no renameat2(RENAME_EXCHANGE); run elsewhere")
    root = tmp_path / "repo"
    plan_file = tmp_path / "plan.json"
    plan_file.write_text(json.dumps({"plan": PLAN, "owned": OWNED}))
    restore(root, _bytes(OLD), TOP)
    clean = _run(root, plan_file, -1, exchange)
    assert clean.returncode == 0, clean.stderr
    steps = int(clean.stdout)
    assert snapshot(root) == NEW and not (root / TX_DIR).exists()
    assert steps > 20  # the plan really exercises staging, journal and swaps

    outcomes = {"old": 0, "new": 0}
    for kill_at in _kill_points(steps):
        restore(root, _bytes(OLD), TOP)
        killed = _run(root, plan_file, kill_at, exchange)
        assert killed.returncode == -signal.SIGKILL, (kill_at, killed.stderr)
        _assert_consistent_after_kill(root, exchange)
        recover(root)
        after = snapshot(root)
        assert after in (_bytes(OLD), NEW), f"mixed tree after a kill at step {kill_at}"
        assert not (root / TX_DIR).exists()
        outcomes["old" if after == _bytes(OLD) else "new"] += 1
        apply_plan(root, PLAN, OWNED)  # the next run
        assert snapshot(root) == NEW and not (root / TX_DIR).exists()
    # Kills before the journal's commit point roll back, later ones roll forward.
    assert outcomes["old"] > 0 and outcomes["new"] > 0, outcomes


@pytest.mark.parametrize("exchange", [True, False], ids=["exchange", "two-renames"])
def test_a_failed_swap_is_undone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, exchange: bool
) -> None:
    """The second directory cannot be replaced (a read-only parent, say): the first one,
    already swapped, is swapped back."""
    from codegen import writer

    restore(tmp_path, _bytes(OLD), TOP)
    real_exchange = writer._exchange
    real_rename = os.rename
    seen: list[str] = []

    def refuse_b(path: object) -> None:
        if "generated/b" in str(path):
            raise PermissionError(13, "Permission denied", str(path))

    def exchange_or_fail(first: Path, second: Path) -> bool:
        refuse_b(second)
        seen.append(str(second))
        return real_exchange(first, second) if exchange else False

    def rename_or_fail(src: object, dst: object) -> None:
        refuse_b(src)
        real_rename(src, dst)  # type: ignore[arg-type]

    monkeypatch.setattr(writer, "_exchange", exchange_or_fail)
    monkeypatch.setattr(os, "rename", rename_or_fail)
    with pytest.raises(
        writer.WriteError, match="Permission denied.*nothing was changed"
    ):
        apply_plan(tmp_path, PLAN, OWNED)
    monkeypatch.undo()
    assert any(s.endswith("generated/a") for s in seen)  # a was swapped, then undone
    assert snapshot(tmp_path) == _bytes(OLD)
    assert not (tmp_path / TX_DIR).exists()
    apply_plan(tmp_path, PLAN, OWNED)
    assert snapshot(tmp_path) == NEW


def test_a_failed_staging_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from codegen import writer

    restore(tmp_path, _bytes(OLD), TOP)
    real_open = os.open
    calls = {"n": 0}

    def full_disk(path: object, flags: int, mode: int = 0o777, **kwargs: object) -> int:
        if flags & os.O_CREAT:
            calls["n"] += 1
            if calls["n"] == 4:
                raise OSError(28, "No space left on device", str(path))
        return real_open(path, flags, mode, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "open", full_disk)
    with pytest.raises(writer.WriteError, match="No space left"):
        apply_plan(tmp_path, PLAN, OWNED)
    monkeypatch.undo()
    assert snapshot(tmp_path) == _bytes(OLD)
    assert not (tmp_path / TX_DIR).exists()
