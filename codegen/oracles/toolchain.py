"""Building and running an oracle program: toolchains, cached builds, the line protocol.

Phase: verification (``make oracle``).
Inputs: a build folder, the generated program's files, the build command.
Outputs: ``require(tool, install)`` (the tool's path, or ``OracleUnavailable`` naming how
to install it); ``cached_build`` (build once per content hash: the files are rewritten and
the command re-run only when their hash changes); ``run_lines`` (feed ``Type<TAB>JSON``
lines to a program, read one ``ok<TAB>output`` / ``err<TAB>message`` line back per case).
Guarantees: a failed build raises ``OracleUnavailable`` with the tool's own error output;
a program that answers a different number of lines than it was given is an error, never a
silent truncation.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path

from codegen.oracles.case import Answer, Case, OracleUnavailable


def require(tool: str, install: str) -> str:
    found = shutil.which(tool)
    if found is None:
        raise OracleUnavailable(f"`{tool}` is not installed: {install}")
    return found


def content_hash(files: dict[str, str]) -> str:
    digest = hashlib.sha256()
    for name in sorted(files):
        digest.update(name.encode() + b"\0" + files[name].encode() + b"\0")
    return digest.hexdigest()[:16]


def cached_build(
    folder: Path,
    files: dict[str, str],
    command: Sequence[str],
    product: str,
    env: dict[str, str] | None = None,
    what: str = "oracle",
) -> Path:
    """Write ``files`` under ``folder`` and run ``command`` there, unless the same files
    were built before; returns the path of ``product``."""
    stamp = folder / ".built"
    key = content_hash(files) + "\0" + " ".join(command)
    target = folder / product
    if stamp.is_file() and stamp.read_text() == key and target.exists():
        return target
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    result = subprocess.run(
        list(command),
        cwd=folder,
        env={**os.environ, **(env or {})},
        check=False,
        capture_output=True,
        text=True,
    )
    if result.returncode != 0 or not target.exists():
        tail = (result.stderr or result.stdout)[-6000:]
        raise OracleUnavailable(f"building the {what} in {folder} failed:\n{tail}")
    stamp.write_text(key)
    return target


def run_lines(program: Sequence[str], cases: Sequence[Case], cwd: Path) -> list[Answer]:
    """Run a line-protocol oracle over ``cases``."""
    if not cases:
        return []
    # JSON whitespace may be a line break; inside strings it is always escaped.
    payload = "".join(
        f"{c.type_name}\t{c.text.replace(chr(10), ' ').replace(chr(13), ' ')}\n"
        for c in cases
    )
    result = subprocess.run(
        list(program),
        cwd=cwd,
        input=payload,
        check=False,
        capture_output=True,
        text=True,
    )
    if result.returncode != 0:
        raise OracleUnavailable(
            f"oracle {program[0]} exited with {result.returncode}:\n{result.stderr[-3000:]}"
        )
    lines = result.stdout.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if len(lines) != len(cases):
        raise OracleUnavailable(
            f"oracle {program[0]} answered {len(lines)} lines for {len(cases)} cases"
        )
    answers: list[Answer] = []
    for line in lines:
        status, _, rest = line.partition("\t")
        if status == "ok":
            answers.append(Answer(True, rest, ""))
        elif status == "read":  # a type the source only reads: no writer at all
            answers.append(Answer(True, None, "read only: the type has no writer"))
        elif status == "werr":  # read, but the writer failed: no output to compare
            answers.append(Answer(True, None, f"write failed: {rest}"))
        else:
            answers.append(Answer(False, None, rest))
    return answers
