"""The one place that writes generated files: compare, stage, swap under a lock, journal.

Phase: output.
Inputs: a plan ``{root-relative path: text}`` and the directories the generator owns.
Outputs: files on disk (``apply_plan``) or a unified diff of what would change (``diff_plan``).
Guarantees:
- A run applies whole or not at all.  Each owned directory with a change is built complete
  in a staging directory, then swapped in by two renames; each other file (an
  ``extracted.json`` beside a spec) is staged and renamed over its target.  A journal written
  before the first swap lets the next run finish an interrupted swap (roll forward); a run
  killed before that point leaves the tree untouched and its staging is discarded.  All
  temporary state lives in ``<root>/.codegen-tx/`` (self-ignored by git), never beside the
  generated files, unless an owned directory is on another filesystem (then beside it).
- One writer at a time: an exclusive ``flock`` on the root directory (released by the
  kernel when a process dies, so a killed run never leaves a stale lock).  A second run waits
  for it (bounded; ``LockedError`` after the wait), then applies its own plan to the result.
  ``diff_plan`` takes the lock shared, so ``generate --check`` never sees half a swap.
- A failure while swapping (a read-only directory, a full disk) undoes the swaps already done
  and raises ``WriteError`` naming the path; nothing is left half-applied.
- Files and directories are created with the user's umask (``0666``/``0777`` masked), like
  any editor would; unchanged files keep their inode and mtime (hard-linked into the staged
  directory), so tools watching them stay quiet; what an owned directory holds that the
  generator does not own (``__pycache__``, the ``build/`` of ``pip install``) is carried
  into the staged copy, so it survives.
"""

from __future__ import annotations

import contextlib
import ctypes
import dataclasses
import difflib
import errno
import fcntl
import json
import os
import shutil
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

_IGNORED_PARTS = {"__pycache__", ".mypy_cache", ".ruff_cache", ".pytest_cache"}
TX_DIR = ".codegen-tx"
_JOURNAL = "journal.json"
_OWNER = "owner"
DEFAULT_LOCK_WAIT = 300.0  # seconds a second run waits for the first one
_POLL = 0.05


class WriteError(Exception):
    """Generated output could not be written (or checked); the message says why and what
    state the tree is in."""


class LockedError(WriteError):
    """Another codegen run held the lock for longer than we were willing to wait."""


@dataclass
class Changes:
    created: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)

    def any(self) -> bool:
        return bool(self.created or self.updated or self.removed)


@dataclass(frozen=True)
class _Unit:
    """One thing swapped as a whole: an owned directory or a single file."""

    kind: str  # "dir" | "file"
    target: str  # root-relative
    stage: str  # root-relative
    backup: str  # root-relative
    ino: int = 0  # of the staged directory: tells a swapped target from an old one

    def to_json(self) -> dict[str, str | int]:
        return {
            "kind": self.kind,
            "target": self.target,
            "stage": self.stage,
            "backup": self.backup,
            "ino": self.ino,
        }


# ------------------------------------------------------------------------ comparing


# Build output of `pip install` run in a generated package's folder (the package's own
# .gitignore names them too): never the generator's files, never stale.
_BUILD_OUTPUT = {".build", "build", "dist", ".eggs"}


def _owned_files(
    root: Path, owned_dirs: list[str], planned: frozenset[str] = frozenset()
) -> set[str]:
    planned_dirs = {str(Path(rel).parent) for rel in planned}
    found: set[str] = set()
    for owned in owned_dirs:
        base = root / owned
        if not base.is_dir():
            continue
        for path in base.rglob("*"):
            if not path.is_file() or _IGNORED_PARTS & set(path.parts):
                continue
            rel = path.relative_to(root).as_posix()
            if rel not in planned and _is_build_output(path, base, root, planned_dirs):
                continue
            found.add(rel)
    return found


def owned_files(
    root: Path, owned_dirs: list[str], planned: frozenset[str] = frozenset()
) -> set[str]:
    """The files under ``owned_dirs`` the generator answers for (root-relative): what a
    run with the plan ``planned`` keeps or removes; caches and build output excluded."""
    return _owned_files(root, owned_dirs, planned)


def _is_build_output(
    path: Path, base: Path, root: Path, planned_dirs: set[str]
) -> bool:
    """Inside a ``build/``, ``dist/``, ``.eggs/`` or ``*.egg-info/`` folder of an owned
    directory that holds no generated file (a package named ``build`` stays owned)."""
    folder = path.parent
    while folder != base:
        name = folder.name
        if name in _BUILD_OUTPUT or name.endswith(".egg-info"):
            inside = folder.relative_to(root).as_posix()
            return not any(
                d == inside or d.startswith(inside + "/") for d in planned_dirs
            )
        folder = folder.parent
    return False


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except (FileNotFoundError, NotADirectoryError):  # not there (yet)
        return None
    except (UnicodeDecodeError, IsADirectoryError):
        return "\0not text\0"  # differs from any plan text: rewritten
    except OSError as exc:
        raise WriteError(f"cannot read {path}: {_why(exc)}") from None


def _changes(
    root: Path, plan: dict[str, str], owned_dirs: list[str]
) -> tuple[Changes, dict[str, str]]:
    """What applying the plan would change, and the current text of each updated file."""
    changes = Changes()
    old_texts: dict[str, str] = {}
    for rel in sorted(plan):
        _check_inside(root, rel)
        old = _read(root / rel)
        if old == plan[rel]:
            continue
        if old is None:
            changes.created.append(rel)
        else:
            changes.updated.append(rel)
            old_texts[rel] = old
    changes.removed = sorted(
        _owned_files(root, owned_dirs, frozenset(plan)) - set(plan)
    )
    return changes, old_texts


def _check_inside(root: Path, rel: str) -> None:
    parts = Path(rel).parts
    if Path(rel).is_absolute() or ".." in parts or not parts:
        raise WriteError(f"refusing to write {rel!r}: not a path inside {root}")


def diff_plan(
    root: Path, plan: dict[str, str], owned_dirs: list[str]
) -> tuple[Changes, str]:
    """What ``apply_plan`` would change, as ``Changes`` and a unified diff; writes nothing."""
    with _locked(root, shared=True):
        if (root / TX_DIR / _JOURNAL).is_file():
            raise WriteError(
                f"an interrupted `codegen generate` left {TX_DIR}/{_JOURNAL} in {root}; "
                "run `codegen generate` to finish it"
            )
        changes, old_texts = _changes(root, plan, owned_dirs)
        chunks: list[str] = []
        for rel in sorted(changes.created + changes.updated):
            old = old_texts.get(rel)
            chunks.extend(
                difflib.unified_diff(
                    (old or "").splitlines(keepends=True),
                    plan[rel].splitlines(keepends=True),
                    fromfile=f"a/{rel}" if old is not None else "/dev/null",
                    tofile=f"b/{rel}",
                )
            )
        for rel in changes.removed:
            old = (root / rel).read_text(encoding="utf-8", errors="replace")
            chunks.extend(
                difflib.unified_diff(
                    old.splitlines(keepends=True),
                    [],
                    fromfile=f"a/{rel}",
                    tofile="/dev/null",
                )
            )
    return changes, "".join(
        chunk if chunk.endswith("\n") else chunk + "\n" for chunk in chunks
    )


# -------------------------------------------------------------------------- locking


@contextlib.contextmanager
def _locked(
    root: Path,
    shared: bool = False,
    wait: float = DEFAULT_LOCK_WAIT,
    on_wait: Callable[[str], None] | None = None,
) -> Iterator[None]:
    """Hold ``flock`` on the root directory itself: no lock file to go stale or to clean up.

    A shared lock is best effort: a checkout we cannot open (it does not exist yet) is
    compared without one, since comparing writes nothing.
    """
    try:
        if not shared:
            root.mkdir(parents=True, exist_ok=True)
        fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
    except OSError as exc:
        if shared:
            yield
            return
        raise WriteError(f"cannot open {root}: {_why(exc)}") from None
    try:
        mode = fcntl.LOCK_SH if shared else fcntl.LOCK_EX
        deadline = time.monotonic() + wait
        told = False
        while True:
            try:
                fcntl.flock(fd, mode | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                pass
            holder = _lock_holder(root)
            if time.monotonic() >= deadline:
                raise LockedError(
                    f"another codegen run{holder} is writing {root}; "
                    f"gave up after {wait:g} s: try again when it has finished"
                )
            if not told and on_wait is not None:
                on_wait(f"waiting for another codegen run{holder} to finish writing…")
                told = True
            time.sleep(_POLL)
        yield
    finally:
        os.close(fd)  # releases the lock


def _lock_holder(root: Path) -> str:
    try:
        pid = (root / TX_DIR / _OWNER).read_text(encoding="ascii").strip()
    except (OSError, ValueError):
        return ""
    return f" (pid {pid})" if pid.isdigit() else ""


# ------------------------------------------------------------------------- applying


def apply_plan(
    root: Path,
    plan: dict[str, str],
    owned_dirs: list[str],
    *,
    wait: float = DEFAULT_LOCK_WAIT,
    on_wait: Callable[[str], None] | None = None,
) -> Changes:
    """Make the tree under ``root`` match ``plan``, all at once; see the module docstring.

    Raises ``WriteError`` (nothing changed) or ``LockedError`` (another run kept the lock).
    """
    with _locked(root, wait=wait, on_wait=on_wait):
        recover(root, locked=True)
        changes, _ = _changes(root, plan, owned_dirs)
        if not changes.any():
            return changes
        tx = _Transaction(root)
        try:
            units = tx.stage(plan, owned_dirs, changes)
            tx.commit(units)
        finally:
            tx.cleanup()
        return changes


def recover(root: Path, *, locked: bool = False) -> bool:
    """Finish (roll forward) a swap that a killed run left half done, and discard staging
    that never reached its journal; True when anything was left over.
    """
    if not locked:
        with _locked(root):
            return recover(root, locked=True)
    tx_root = root / TX_DIR
    if not tx_root.exists():
        return False
    journal = tx_root / _JOURNAL
    if journal.is_file():
        try:
            data = json.loads(journal.read_text(encoding="utf-8"))
            state = data["state"]
            units = [_Unit(**unit) for unit in data["units"]]
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise WriteError(
                f"{journal} is unreadable ({exc}); inspect {tx_root} and remove it"
            ) from None
        if state == "commit":
            for unit in units:
                _roll_forward(root, unit)
        else:  # staging never finished: the targets were never touched
            for unit in units:
                _remove(root / unit.stage)
                _remove(root / unit.backup)
        journal.unlink()
        _fsync_dir(tx_root)
    shutil.rmtree(tx_root, ignore_errors=True)
    return True


class _Transaction:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.tx_root = root / TX_DIR
        self.units: list[_Unit] = []
        self.keep = False  # an undo failed: the journal stays for the next run
        try:
            if self.tx_root.exists():  # left by an earlier run and not removable then
                shutil.rmtree(self.tx_root)
            self.tx_root.mkdir()
            (self.tx_root / ".gitignore").write_text("*\n", encoding="utf-8")
            (self.tx_root / _OWNER).write_text(f"{os.getpid()}\n", encoding="ascii")
            (self.tx_root / "stage").mkdir()
            (self.tx_root / "backup").mkdir()
        except OSError as exc:
            raise WriteError(
                f"cannot write in {root}: {_why(exc)} ({exc.filename}); "
                "nothing was changed"
            ) from None
        self.device = self.tx_root.stat().st_dev

    # -- staging: nothing visible changes
    def stage(
        self, plan: dict[str, str], owned_dirs: list[str], changes: Changes
    ) -> list[_Unit]:
        touched = set(changes.created + changes.updated + changes.removed)
        owned = sorted(set(owned_dirs))
        units: list[_Unit] = []
        for number, directory in enumerate(owned):
            prefix = directory.rstrip("/") + "/"
            if any(rel.startswith(prefix) for rel in touched):
                units.append(self._unit("dir", directory, number))
        loose = [
            rel
            for rel in sorted(changes.created + changes.updated)
            if not any(rel.startswith(d.rstrip("/") + "/") for d in owned)
        ]
        for number, rel in enumerate(loose, start=len(owned)):
            units.append(self._unit("file", rel, number))
        self._write_journal("staging", units)
        try:
            for unit in units:
                if unit.kind == "dir":
                    self._stage_dir(unit, plan)
                else:
                    self._stage_file(unit, plan[unit.target])
        except OSError as exc:
            raise WriteError(
                f"cannot stage {exc.filename or 'output'}: {_why(exc)}; "
                "nothing was changed"
            ) from None
        units = [
            dataclasses.replace(unit, ino=(self.root / unit.stage).stat().st_ino)
            for unit in units
        ]
        self._write_journal("commit", units)
        return units

    def _unit(self, kind: str, target: str, number: int) -> _Unit:
        parent = (self.root / target).parent
        existing = parent
        while not existing.exists() and existing != self.root:
            existing = existing.parent
        if existing.stat().st_dev == self.device:
            stage = f"{TX_DIR}/stage/{number}"
            backup = f"{TX_DIR}/backup/{number}"
        else:  # renames cannot cross filesystems: stage beside the target instead
            base = Path(target)
            stage = base.with_name(f".{base.name}.codegen-stage").as_posix()
            backup = base.with_name(f".{base.name}.codegen-backup").as_posix()
        return _Unit(kind, target, stage, backup)

    def _stage_dir(self, unit: _Unit, plan: dict[str, str]) -> None:
        stage = self.root / unit.stage
        _remove(stage)
        stage.mkdir(parents=True)
        prefix = unit.target.rstrip("/") + "/"
        for rel in sorted(plan):
            if not rel.startswith(prefix):
                continue
            inner = rel[len(prefix) :]
            destination = stage / inner
            destination.parent.mkdir(parents=True, exist_ok=True)
            old = self.root / rel
            if _read_quiet(old) == plan[rel] and not old.is_symlink():
                try:  # unchanged: the same inode, so its mtime stays
                    os.link(old, destination)
                    continue
                except OSError:
                    pass
            _write_new(destination, plan[rel])
        self._carry_over(unit, plan)

    def _carry_over(self, unit: _Unit, plan: dict[str, str]) -> None:
        """What the owned directory holds that the generator does not own (caches, the
        build output of ``pip install``) goes into the staged copy too, hard-linked, so
        it survives the swap."""
        base = self.root / unit.target
        if not base.is_dir():
            return
        owned = _owned_files(self.root, [unit.target], frozenset(plan))
        stage = self.root / unit.stage
        for path in sorted(base.rglob("*")):
            if path.is_dir() and not path.is_symlink():
                continue
            rel = path.relative_to(self.root).as_posix()
            destination = stage / path.relative_to(base)
            if rel in owned or rel in plan or destination.exists():
                continue
            destination.parent.mkdir(parents=True, exist_ok=True)
            try:
                os.link(path, destination, follow_symlinks=False)
            except OSError:
                shutil.copy2(path, destination, follow_symlinks=False)

    def _stage_file(self, unit: _Unit, text: str) -> None:
        stage = self.root / unit.stage
        _remove(stage)
        stage.parent.mkdir(parents=True, exist_ok=True)
        _write_new(stage, text)
        target = self.root / unit.target
        if target.is_file():  # kept for undoing a failed swap
            backup = self.root / unit.backup
            _remove(backup)
            backup.parent.mkdir(parents=True, exist_ok=True)
            try:
                os.link(target, backup)
            except OSError:
                shutil.copy2(target, backup)

    def _write_journal(self, state: str, units: list[_Unit]) -> None:
        self.units = units
        journal = self.tx_root / _JOURNAL
        temp = self.tx_root / (_JOURNAL + ".new")
        payload = {"state": state, "units": [unit.to_json() for unit in units]}
        try:
            with open(temp, "w", encoding="utf-8") as stream:
                json.dump(payload, stream, indent=1)
                stream.flush()
                os.fsync(stream.fileno())
            os.replace(temp, journal)
            _fsync_dir(self.tx_root)
        except OSError as exc:
            raise WriteError(
                f"cannot write the journal in {self.tx_root}: {_why(exc)}; "
                "nothing was changed"
            ) from None

    # -- the swap: the journal says "commit", so a kill from here on rolls forward
    def commit(self, units: list[_Unit]) -> None:
        done: list[_Unit] = []
        try:
            for unit in units:
                done.append(unit)
                _swap(self.root, unit)
        except OSError as exc:
            failure = f"cannot write {exc.filename or done[-1].target}: {_why(exc)}"
            try:
                for undone in reversed(done):
                    _undo(self.root, undone)
            except OSError as again:
                self.keep = True
                raise WriteError(
                    f"{failure}; undoing it failed too ({_why(again)}): the next "
                    "`codegen generate` finishes the interrupted write"
                ) from None
            (self.tx_root / _JOURNAL).unlink(missing_ok=True)
            raise WriteError(f"{failure}; nothing was changed") from None
        (self.tx_root / _JOURNAL).unlink()
        _fsync_dir(self.tx_root)

    def cleanup(self) -> None:
        if self.keep:
            return
        for unit in self.units:  # staging or backups placed beside their targets
            if not unit.stage.startswith(TX_DIR + "/"):
                _remove(self.root / unit.stage)
                _remove(self.root / unit.backup)
        shutil.rmtree(self.tx_root, ignore_errors=True)


def _swap(root: Path, unit: _Unit) -> None:
    target, stage, backup = root / unit.target, root / unit.stage, root / unit.backup
    if unit.kind == "file":
        target.parent.mkdir(parents=True, exist_ok=True)
        os.replace(stage, target)
    elif target.exists():
        if not _exchange(stage, target):  # no atomic exchange here: two renames
            os.rename(target, backup)
            os.rename(stage, target)
    else:
        target.parent.mkdir(parents=True, exist_ok=True)
        os.rename(stage, target)


def _undo(root: Path, unit: _Unit) -> None:
    """Put back what ``_swap`` replaced."""
    target, stage, backup = root / unit.target, root / unit.stage, root / unit.backup
    if unit.kind == "file":
        if backup.exists():
            os.replace(backup, target)
        elif not stage.exists():
            target.unlink(missing_ok=True)
        return
    if _holds_new(target, unit):
        if stage.exists():  # exchanged: the old directory waits at the stage path
            if not _exchange(stage, target):
                raise OSError(errno.EIO, "cannot exchange back", str(target))
            return
        os.rename(target, stage)
    if backup.exists() and not target.exists():
        os.rename(backup, target)


def _roll_forward(root: Path, unit: _Unit) -> None:
    """Finish one unit's swap; safe to repeat at any point of a previous attempt."""
    target, stage, backup = root / unit.target, root / unit.stage, root / unit.backup
    if unit.kind == "file":
        if stage.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            os.replace(stage, target)
        _remove(backup)
        return
    if not _holds_new(target, unit):
        if not stage.exists():
            raise WriteError(
                f"cannot finish the interrupted write of {unit.target}: its staged "
                f"copy {unit.stage} is gone; run `codegen generate` again after "
                f"removing {TX_DIR}"
            )
        if target.exists():
            _remove(backup)
            if not _exchange(stage, target):
                os.rename(target, backup)
                os.rename(stage, target)
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            os.rename(stage, target)
    _remove(stage)  # the old directory, after an exchange
    _remove(backup)


def _holds_new(target: Path, unit: _Unit) -> bool:
    try:
        return target.stat().st_ino == unit.ino
    except FileNotFoundError:
        return False


# renameat2(RENAME_EXCHANGE) swaps two directories in one step (Linux ≥ 3.15): a reader
# never finds the target missing.  Elsewhere the journal covers the gap between two renames.
_AT_FDCWD = -100
_RENAME_EXCHANGE = 2
_renameat2: Callable[..., int] | None
try:
    _renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
except (OSError, AttributeError):  # not glibc/Linux
    _renameat2 = None


def _exchange(first: Path, second: Path) -> bool:
    """Atomically swap two paths; False when this system or filesystem cannot."""
    if _renameat2 is None:
        return False
    result = _renameat2(
        _AT_FDCWD, os.fsencode(first), _AT_FDCWD, os.fsencode(second), _RENAME_EXCHANGE
    )
    if result == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP, errno.EOPNOTSUPP):
        return False
    raise OSError(code, os.strerror(code), str(second))


def can_exchange(directory: Path) -> bool:
    """Whether directory swaps under ``directory`` are single atomic steps."""
    probe = directory / TX_DIR / "probe"
    first, second = probe / "a", probe / "b"
    try:
        first.mkdir(parents=True)
        second.mkdir()
        return _exchange(first, second)
    except OSError:
        return False
    finally:
        shutil.rmtree(probe, ignore_errors=True)
        with contextlib.suppress(OSError):
            (directory / TX_DIR).rmdir()


def _why(error: OSError) -> str:
    return error.strerror or str(error)


def _read_quiet(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def _write_new(path: Path, text: str) -> None:
    # O_EXCL in a directory only this run writes; mode 0o666 is masked by the umask.
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as stream:
        stream.write(text)


def _remove(path: Path) -> None:
    if path.is_symlink() or path.is_file():
        path.unlink()
    elif path.is_dir():
        shutil.rmtree(path)


def _fsync_dir(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError as exc:  # some filesystems cannot sync a directory
        if exc.errno not in (errno.EINVAL, errno.EBADF):
            raise
    finally:
        os.close(fd)
