"""The writer: atomic writes, stale-file removal, and the --check diff."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from codegen.writer import apply_plan, diff_plan


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


def test_unchanged_files_are_not_rewritten(tmp_path: Path) -> None:
    target = tmp_path / "generated/x/a.py"
    target.parent.mkdir(parents=True)
    target.write_text("same\n")
    before = target.stat().st_mtime_ns
    changes = apply_plan(tmp_path, {"generated/x/a.py": "same\n"}, ["generated/x"])
    assert not changes.any() and target.stat().st_mtime_ns == before


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


def test_failed_write_leaves_the_old_file_and_no_temp(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "generated/x/a.py"
    target.parent.mkdir(parents=True)
    target.write_text("old\n")

    def boom(src: str, dst: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError):
        apply_plan(tmp_path, {"generated/x/a.py": "new\n"}, ["generated/x"])
    monkeypatch.undo()
    assert target.read_text() == "old\n"
    assert [p.name for p in target.parent.iterdir()] == ["a.py"]
