"""The writer: whole-run apply, stale-file removal, the --check diff, lock, umask, journal."""

from __future__ import annotations

import fcntl
import json
import os
import stat
import threading
from pathlib import Path

import pytest

from codegen.writer import (
    TX_DIR,
    LockedError,
    WriteError,
    apply_plan,
    diff_plan,
    recover,
)


def test_apply_creates_updates_and_removes_stale(tmp_path: Path) -> None:
    (tmp_path / "generated/x").mkdir(parents=True)
    (tmp_path / "generated/x/old.py").write_text("stale\n")
    (tmp_path / "generated/x/keep.py").write_text("v1\n")
    plan = {"generated/x/keep.py": "v2\n", "generated/x/sub/new.py": "new\n"}
    changes = apply_plan(tmp_path, plan, ["generated/x"])
    assert changes.created == ["generated/x/sub/new.py"]
    assert changes.updated == ["generated/x/keep.py"]
    assert changes.removed == ["generated/x/old.py"]
    assert not (tmp_path / "generated/x/old.py").exists()
    assert (tmp_path / "generated/x/keep.py").read_text() == "v2\n"
    assert sorted(p.name for p in (tmp_path / "generated/x").rglob("*")) == [
        "keep.py",
        "new.py",
        "sub",
    ]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["generated"]  # no TX_DIR


def test_unchanged_files_are_not_rewritten(tmp_path: Path) -> None:
    target = tmp_path / "generated/x/a.py"
    target.parent.mkdir(parents=True)
    target.write_text("same\n")
    before = target.stat()
    changes = apply_plan(tmp_path, {"generated/x/a.py": "same\n"}, ["generated/x"])
    assert not changes.any() and target.stat().st_mtime_ns == before.st_mtime_ns
    # A sibling changes: the directory is swapped, yet the unchanged file keeps its inode.
    plan = {"generated/x/a.py": "same\n", "generated/x/b.py": "new\n"}
    assert apply_plan(tmp_path, plan, ["generated/x"]).created == ["generated/x/b.py"]
    after = target.stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)


def test_check_diff_names_each_change(tmp_path: Path) -> None:
    (tmp_path / "generated/x").mkdir(parents=True)
    (tmp_path / "generated/x/a.py").write_text("one\n")
    (tmp_path / "generated/x/gone.py").write_text("bye\n")
    changes, diff = diff_plan(tmp_path, {"generated/x/a.py": "two\n"}, ["generated/x"])
    assert changes.updated == ["generated/x/a.py"] and changes.removed == [
        "generated/x/gone.py"
    ]
    assert "-one" in diff and "+two" in diff and "a/generated/x/gone.py" in diff
    assert (
        tmp_path / "generated/x/a.py"
    ).read_text() == "one\n"  # check writes nothing


def test_check_refuses_a_tree_with_an_unfinished_write(tmp_path: Path) -> None:
    (tmp_path / "generated/x").mkdir(parents=True)
    (tmp_path / "generated/x/a.py").write_text("one\n")
    (tmp_path / TX_DIR).mkdir()
    (tmp_path / TX_DIR / "journal.json").write_text(
        json.dumps({"state": "staging", "units": []})
    )
    with pytest.raises(WriteError, match="interrupted"):
        diff_plan(tmp_path, {"generated/x/a.py": "one\n"}, ["generated/x"])
    assert recover(tmp_path) and not (tmp_path / TX_DIR).exists()
    changes, _ = diff_plan(tmp_path, {"generated/x/a.py": "one\n"}, ["generated/x"])
    assert not changes.any()


def test_failed_write_leaves_the_old_file_and_no_temp(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "generated/x/a.py"
    target.parent.mkdir(parents=True)
    target.write_text("old\n")

    def boom(src: str, dst: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", boom)
    monkeypatch.setattr(os, "rename", boom)
    with pytest.raises(WriteError, match="disk full.*nothing was changed"):
        apply_plan(tmp_path, {"generated/x/a.py": "new\n"}, ["generated/x"])
    monkeypatch.undo()
    assert target.read_text() == "old\n"
    assert [p.name for p in target.parent.iterdir()] == ["a.py"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["generated"]


@pytest.mark.parametrize("umask", [0o022, 0o002, 0o077])
def test_files_follow_the_umask(tmp_path: Path, umask: int) -> None:
    previous = os.umask(umask)
    try:
        apply_plan(
            tmp_path,
            {"generated/x/sub/a.py": "a\n", "specs/x/examples/extracted.json": "[]\n"},
            ["generated/x"],
        )
    finally:
        os.umask(previous)
    for rel in ("generated/x/sub/a.py", "specs/x/examples/extracted.json"):
        assert stat.S_IMODE((tmp_path / rel).stat().st_mode) == 0o666 & ~umask, rel
    for rel in ("generated/x", "generated/x/sub"):
        assert stat.S_IMODE((tmp_path / rel).stat().st_mode) == 0o777 & ~umask, rel


def test_paths_outside_the_root_are_refused(tmp_path: Path) -> None:
    with pytest.raises(WriteError, match="not a path inside"):
        apply_plan(tmp_path, {"generated/../../escape.py": "x\n"}, [])
    assert not (tmp_path.parent / "escape.py").exists()


def _hold_lock(root: Path, release: threading.Event, held: threading.Event) -> None:
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        held.set()
        release.wait(10)
    finally:
        os.close(fd)


def test_a_second_writer_waits_for_the_lock(tmp_path: Path) -> None:
    release, held = threading.Event(), threading.Event()
    holder = threading.Thread(target=_hold_lock, args=(tmp_path, release, held))
    holder.start()
    held.wait(10)
    notes: list[str] = []
    threading.Timer(0.3, release.set).start()
    changes = apply_plan(
        tmp_path, {"generated/x/a.py": "a\n"}, ["generated/x"], on_wait=notes.append
    )
    holder.join()
    assert changes.created == ["generated/x/a.py"]
    assert len(notes) == 1 and "waiting for another codegen run" in notes[0]


def test_a_lock_held_too_long_is_a_clear_error(tmp_path: Path) -> None:
    release, held = threading.Event(), threading.Event()
    holder = threading.Thread(target=_hold_lock, args=(tmp_path, release, held))
    holder.start()
    held.wait(10)
    try:
        with pytest.raises(LockedError, match="another codegen run .*gave up after"):
            apply_plan(tmp_path, {"generated/x/a.py": "a\n"}, ["generated/x"], wait=0.2)
    finally:
        release.set()
        holder.join()
    assert not (tmp_path / "generated").exists()
