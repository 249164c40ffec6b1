"""Formatting of emitted Python with ``ruff format`` (a subprocess on stdin).

Phase: the last step of a Python-emitting backend, before the writer.
Inputs: Python text that is already close to formatted (the templates emit black-style
layout; the formatter is a safety net for long lines).  Imports and ``__all__`` are
first put in the order ``ruff check`` expects (``--fix --select I001,RUF022``).
Outputs: the formatted text, as ``black`` (line length 88) would leave it.
Guarantees: no repository or user configuration leaks in (``--isolated``, explicit line
length and target version); the same input gives the same output; a failure (a syntax
error in emitted code, a missing binary) raises ``FormattingError`` with ruff's message.
"""

from __future__ import annotations

import functools
import importlib
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

__all__ = ["FormattingError", "deferred", "format_many", "format_python", "ruff_binary"]

# Set inside ``deferred()``: backends' format_python calls pass text through untouched and
# the pipeline formats every file of a spec in one ruff run (two processes per spec instead
# of two per file: about 0.25 s of a 0.6 s render for the four seed specs).
_DEFERRED: ContextVar[bool] = ContextVar("codegen_format_deferred", default=False)

LINE_LENGTH = 88
TARGET_VERSION = "py311"
# Fixes applied before formatting: import order (isort) and the order of ``__all__``.
FIX_RULES = ("I001", "RUF022")


class FormattingError(RuntimeError):
    """The formatter could not be run or rejected the emitted code."""


@functools.cache
def ruff_binary() -> str:
    """The ruff executable: next to this interpreter, then the ``ruff`` package, then
    PATH.
    """
    name = "ruff.exe" if os.name == "nt" else "ruff"
    beside = Path(sys.executable).with_name(name)
    if beside.is_file():
        return str(beside)
    try:
        finder = vars(importlib.import_module("ruff"))["find_ruff_bin"]
        found = str(finder())
        if Path(found).is_file():
            return found
    except (ImportError, KeyError, FileNotFoundError):
        pass
    on_path = shutil.which(name)
    if on_path is None:
        raise FormattingError(
            "ruff is not installed: cannot format the generated Python"
        )
    return on_path


@contextmanager
def deferred() -> Iterator[None]:
    """Within this block ``format_python`` returns its input; use ``format_many`` after."""
    token = _DEFERRED.set(True)
    try:
        yield
    finally:
        _DEFERRED.reset(token)


def format_many(files: dict[str, str]) -> dict[str, str]:
    """Format every ``.py`` entry of ``{relative path: text}`` with one pair of ruff runs;
    other entries are returned unchanged.  Same result as ``format_python`` per file."""
    python = {path: text for path, text in files.items() if path.endswith(".py")}
    if not python:
        return dict(files)
    with tempfile.TemporaryDirectory(prefix="codegen-format-") as tmp:
        root = Path(tmp)
        for path, text in python.items():
            target = root / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
        _run([*_fix_arguments(), str(root)], None, "the generated files", root)
        _run([*_format_arguments(), str(root)], None, "the generated files", root)
        formatted = {path: (root / path).read_text(encoding="utf-8") for path in python}
    return {path: formatted.get(path, text) for path, text in files.items()}


def _fix_arguments() -> list[str]:
    return [
        "check",
        "--isolated",
        "--quiet",
        "--exit-zero",
        "--fix",
        "--select",
        ",".join(FIX_RULES),
        "--target-version",
        TARGET_VERSION,
    ]


def _format_arguments() -> list[str]:
    return [
        "format",
        "--isolated",
        "--quiet",
        "--line-length",
        str(LINE_LENGTH),
        "--target-version",
        TARGET_VERSION,
    ]


def format_python(source: str, *, filename: str = "generated.py") -> str:
    """Sort imports and ``__all__`` (``ruff check --fix``), then ``ruff format`` the
    text (or, inside ``deferred()``, return it for ``format_many``).
    """
    if _DEFERRED.get():
        return source
    stdin = ["--stdin-filename", filename, "-"]
    sorted_source = _run([*_fix_arguments(), *stdin], source, filename)
    return _run([*_format_arguments(), *stdin], sorted_source or source, filename)


def _run(
    arguments: list[str], source: str | None, where: str, cwd: Path | None = None
) -> str:
    """Run ruff on stdin (``source``) or on files under ``cwd``; raise on failure."""
    command = [ruff_binary(), *arguments]
    try:
        completed = subprocess.run(
            command,
            input=source.encode("utf-8") if source is not None else None,
            capture_output=True,
            check=False,
            cwd=cwd,
        )
    except OSError as error:
        raise FormattingError(f"could not run {command[0]}: {error}") from error
    if completed.returncode != 0:
        message = completed.stderr.decode("utf-8", "replace").strip()
        raise FormattingError(f"ruff {arguments[0]} failed on {where}: {message}")
    return completed.stdout.decode("utf-8")
