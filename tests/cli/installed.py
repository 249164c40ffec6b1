"""codegen as a user installs it: the sdist built from this checkout, the wheel built from
that sdist (so the sdist is complete), installed into a fresh virtualenv outside the repo.

The wheel is built once per test session (a file lock shared by the xdist workers); each
worker makes its own virtualenv.  The fresh virtualenv holds only the wheel; its
dependencies are those already installed for the test suite (a ``.pth`` line naming this
interpreter's site-packages, whose own ``.pth`` files, such as the editable install of the
checkout, are not processed there), so the tests need no network and stay fast; ``pip
check`` proves the wheel's declared dependencies are all present.
"""

from __future__ import annotations

import fcntl
import os
import queue
import subprocess
import sys
import sysconfig
import tarfile
import threading
import time
import venv
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent.parent
TIMEOUT = 60.0


@dataclass(frozen=True)
class Installed:
    env: Path
    wheel: Path
    sdist: Path

    @property
    def python(self) -> Path:
        return self.env / "bin" / "python"

    @property
    def codegen(self) -> Path:
        return self.env / "bin" / "codegen"

    def environ(self, **extra: str) -> dict[str, str]:
        env = {
            key: value
            for key, value in os.environ.items()
            if key not in ("PYTHONPATH", "VIRTUAL_ENV", "NO_COLOR", "FORCE_COLOR")
        }
        env["PATH"] = f"{self.env / 'bin'}{os.pathsep}{env.get('PATH', '')}"
        return {**env, **extra}

    def run(
        self, cwd: Path, *args: str, stdin: str | None = None, **env: str
    ) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(self.codegen), *args],
            cwd=cwd,
            input=stdin,
            capture_output=True,
            text=True,
            env=self.environ(**env),
            timeout=TIMEOUT,
            check=False,
        )


def _hook(hook: str, source: Path, out: Path) -> Path:
    """Run a PEP 517 hook of the project's backend (hatchling) in ``source``."""
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            f"import sys, hatchling.build as b; print(b.{hook}(sys.argv[1]))",
            str(out),
        ],
        cwd=source,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return out / done.stdout.strip().splitlines()[-1]


def build_distributions(shared: Path) -> tuple[Path, Path]:
    """(sdist, wheel built from the sdist), once for all workers of the session."""
    shared.mkdir(parents=True, exist_ok=True)
    with open(shared / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        dist = shared / "dist"
        done = shared / "built"
        if not done.is_file():
            dist.mkdir(exist_ok=True)
            sdist = _hook("build_sdist", REPO, dist)
            unpacked = shared / "unpacked"
            with tarfile.open(sdist) as archive:
                archive.extractall(unpacked, filter="data")
            (top,) = list(unpacked.iterdir())
            wheel = _hook("build_wheel", top, dist)
            done.write_text(f"{sdist}\n{wheel}\n")
        sdist_path, wheel_path = done.read_text().split()
    return Path(sdist_path), Path(wheel_path)


def install(shared: Path, env_dir: Path) -> Installed:
    sdist, wheel = build_distributions(shared)
    venv.create(env_dir, with_pip=False, clear=True)
    purelib = Path(sysconfig.get_paths(vars={"base": str(env_dir)})["purelib"])
    (purelib / "_codegen_test_deps.pth").write_text(
        sysconfig.get_paths()["purelib"] + "\n"
    )
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(env_dir / "bin" / "python"),
            "install",
            "--quiet",
            "--no-deps",
            "--no-index",
            str(wheel),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return Installed(env_dir, wheel, sdist)


class Lines:
    """A process's stderr read line by line by a thread, waited on with a timeout."""

    def __init__(self, process: subprocess.Popen[str]) -> None:
        assert process.stderr is not None
        self.seen: list[str] = []
        self._queue: queue.Queue[str] = queue.Queue()
        stream = process.stderr

        def pump() -> None:
            for line in stream:
                self._queue.put(line)

        threading.Thread(target=pump, daemon=True).start()

    def wait_for(self, needle: str, timeout: float = TIMEOUT) -> str:
        found = self.poll_for(needle, timeout)
        if found is None:
            raise AssertionError(
                f"no line with {needle!r} in {timeout}s; seen:\n{''.join(self.seen)}"
            )
        return found

    def poll_for(self, needle: str, timeout: float) -> str | None:
        """The next line containing ``needle``, or None after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            try:
                line = self._queue.get(timeout=left)
            except queue.Empty:
                return None
            self.seen.append(line)
            if needle in line:
                return line
        return None
