"""``codegen validate`` on hostile input (issue 33, item 5): numbers that are not JSON,
FIFOs and devices, big inputs read as a stream.

Reproductions: "``codegen validate`` accepts ``NaN``, ``Infinity`` and ``1e400`` lines the
stub rejects, reads whole files into memory, and hangs on a FIFO".
"""

from __future__ import annotations

import os
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
