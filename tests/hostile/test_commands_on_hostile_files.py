"""``codegen validate`` on hostile input (issue 33, item 5): numbers that are not JSON,
FIFOs and devices, big inputs read as a stream.

Reproductions: "``codegen validate`` accepts ``NaN``, ``Infinity`` and ``1e400`` lines the
stub rejects, reads whole files into memory, and hangs on a FIFO".
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from codegen.cli.validate import ValidateError, read_records

REPO = Path(__file__).resolve().parents[2]
WITHIN = 60.0


@pytest.mark.parametrize(
    "line", [b"NaN", b"[Infinity]", b'{"x": -Infinity}', b"1e400", b'{"n": -1E+400}']
)
def test_numbers_the_runtime_refuses_are_not_json_to_validate(
    tmp_path: Path, line: bytes
) -> None:
    path = tmp_path / "in.jsonl"
    path.write_bytes(line + b"\n")
    (record,) = read_records(path)
    assert record.error is not None and record.error.startswith("not JSON"), record


@pytest.mark.parametrize("line", [b"1e300", b"[1.5, -2]", b'{"n": 123456789e-5}'])
def test_numbers_a_double_holds_are_read(tmp_path: Path, line: bytes) -> None:
    # The twins: finite numbers, exponents included, are JSON.
    path = tmp_path / "in.jsonl"
    path.write_bytes(line + b"\n")
    (record,) = read_records(path)
    assert record.error is None


def test_a_fifo_is_refused_not_waited_on(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(ValidateError, match="not a regular file"):
        list(read_records(fifo))
    done = subprocess.run(
        [sys.executable, "-m", "codegen", "validate", "ahp", str(fifo)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=WITHIN,
        check=False,
    )
    assert done.returncode == 2 and "not a regular file" in done.stderr


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/null"])
def test_devices_are_refused(tmp_path: Path, device: str) -> None:
    if not Path(device).exists():
        pytest.skip(f"no {device}")
    link = tmp_path / "looks-like-a-file.jsonl"
    link.symlink_to(device)
    with pytest.raises(ValidateError, match="not a regular file"):
        list(read_records(link))


def test_json_lines_are_streamed(tmp_path: Path) -> None:
    # The first record comes before the last line is read: JSON Lines are a stream.
    path = tmp_path / "many.jsonl"
    path.write_bytes(b'{"a": 1}\n' * 1000 + b"{broken\n")
    records = read_records(path)
    first = next(iter(records))
    assert first.value == {"a": 1}
    rest = list(records)
    assert len(rest) == 1000 and rest[-1].error is not None


def test_a_multi_line_document_is_still_one_record(tmp_path: Path) -> None:
    path = tmp_path / "doc.json"
    path.write_bytes(b'\n{\n  "jsonrpc": "2.0",\n  "method": "x"\n}\n')
    (record,) = read_records(path)
    assert record.line == 2 and record.value == {"jsonrpc": "2.0", "method": "x"}


# --------------------------------------------------------------------------- diff


def _diff(*args: str, cwd: Path = REPO) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "codegen", "diff", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=WITHIN,
        check=False,
    )


def test_diff_refuses_a_file_that_is_no_spec_source(tmp_path: Path) -> None:
    # Was: read as an empty protocol, 20 invented changes, exit 0.
    notes = tmp_path / "notes.txt"
    notes.write_text("hello world\n")
    # (run outside any repository: inside one, a path outside it is refused first)
    done = _diff("notes.txt", str(REPO / "specs" / "acp"), cwd=tmp_path)
    assert done.returncode == 2 and "not a spec source" in done.stderr
    assert done.stdout == "" and "Traceback" not in done.stderr


def test_diff_refuses_a_path_outside_the_repository(tmp_path: Path) -> None:
    # Was: any file anywhere was read as a side (only REV:../x was refused).
    copy = tmp_path / "schema.rs"
    copy.write_bytes((REPO / "specs" / "acp" / "schema.rs").read_bytes())
    done = _diff(str(copy), "specs/acp")
    assert done.returncode == 2, done.stderr
    assert "is outside the repository" in done.stderr and done.stdout == ""
    assert "Traceback" not in done.stderr
    # and a path that leaves the repository through ../ is refused the same way
    done = _diff("../" + REPO.name + "/../outside.rs", "specs/acp")
    assert done.returncode == 2
    assert "--outside" in _diff(str(copy), "specs/acp").stderr  # the message says how


def test_diff_reads_a_path_outside_the_repository_when_asked(tmp_path: Path) -> None:
    # The twin: --outside admits it, and the report names it relative, not absolute.
    copy = tmp_path / "schema.rs"
    copy.write_bytes((REPO / "specs" / "acp" / "schema.rs").read_bytes())
    copy.write_text(
        copy.read_text() + "\n#[derive(Serialize, Deserialize)]\n"
        "pub struct Extra { pub x: u8 }\n"
    )
    done = _diff(str(copy), "specs/acp", "--outside", "--level", "python")
    assert done.returncode in (0, 1), done.stderr
    absolute = re.compile(r'(^|[\s`"(])' + re.escape(str(tmp_path)), re.MULTILINE)
    assert not absolute.search(done.stdout), done.stdout
    assert "Extra" in done.stdout and "schema.rs:" in done.stdout


def test_diff_reads_sources_where_there_is_no_repository(tmp_path: Path) -> None:
    # The twin: run from outside any repository, files anywhere are sides.
    copy = tmp_path / "schema.rs"
    copy.write_bytes((REPO / "specs" / "acp" / "schema.rs").read_bytes())
    done = _diff("schema.rs", "schema.rs", cwd=tmp_path)
    assert done.returncode == 0, done.stderr


def test_diff_refuses_a_revision_path_outside_the_repository() -> None:
    # Was: a traceback (ValueError from Path.relative_to).
    done = _diff("HEAD:../outside", "specs/acp")
    assert done.returncode == 2 and "outside the repository" in done.stderr
    assert "Traceback" not in done.stderr


def test_diff_refuses_a_fifo_instead_of_waiting(tmp_path: Path) -> None:
    fifo = tmp_path / "schema.ts"
    os.mkfifo(fifo)
    done = _diff("schema.ts", str(REPO / "specs" / "acp"), cwd=tmp_path)
    assert done.returncode == 2 and "not a regular file" in done.stderr


def test_diff_refuses_a_device(tmp_path: Path) -> None:
    if not Path("/dev/zero").exists():
        pytest.skip("no /dev/zero")
    link = tmp_path / "schema.ts"
    link.symlink_to("/dev/zero")
    done = _diff("schema.ts", str(REPO / "specs" / "acp"), cwd=tmp_path)
    assert done.returncode == 2 and "not a regular file" in done.stderr


# ----------------------------------------------------------------------- generate


def _project_with(tmp_path: Path) -> Path:
    import shutil

    root = tmp_path / "project"
    shutil.copytree(REPO / "specs" / "openctx", root / "specs" / "openctx")
    (root / "pyproject.toml").write_text(
        '[tool.codegen]\nspecs = ["specs"]\noutput = "generated"\n'
    )
    return root


def _codegen(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "codegen", *args],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=WITHIN * 2,
        check=False,
    )


def test_generate_is_not_stalled_by_a_fifo_or_a_device_in_a_spec_folder(
    tmp_path: Path,
) -> None:
    # Was: generate hashed every file of the folder: a FIFO hung it, a symlink to
    # /dev/zero exhausted memory (check was fine).
    root = _project_with(tmp_path)
    spec = root / "specs" / "openctx"
    os.mkfifo(spec / "notes.fifo")
    if Path("/dev/zero").exists():
        (spec / "zero.bin").symlink_to("/dev/zero")
    (spec / "loop.txt").symlink_to(spec / "loop.txt")  # a symlink loop
    done = _codegen(root, "generate", "-q")
    assert done.returncode == 0, done.stdout + done.stderr
    assert (root / "generated" / "openctx" / "python").is_dir()
    again = _codegen(root, "generate", "--check", "-q")
    assert again.returncode == 0, again.stdout + again.stderr


@pytest.mark.parametrize(
    "sources",
    ['sources = ["proto\\u0000col.ts"]', "sources = " + "[" * 5000 + "]" * 5000],
)
def test_generate_rejects_what_check_rejects_without_a_traceback(
    tmp_path: Path, sources: str
) -> None:
    # Was: a NUL in a source name or a deep TOML array crashed cache.spec_key.
    root = _project_with(tmp_path)
    toml = root / "specs" / "openctx" / "spec.toml"
    lines = toml.read_text().splitlines()
    (at,) = [n for n, line in enumerate(lines) if line.startswith("sources")]
    lines[at] = sources
    toml.write_text("\n".join(lines) + "\n")
    checked = _codegen(root, "check")
    generated = _codegen(root, "generate")
    assert "Traceback" not in generated.stderr + generated.stdout
    assert checked.returncode != 0 and generated.returncode == checked.returncode
