"""Spec source bytes: decoded with a diagnostic (never a traceback), lines numbered as spans are."""

from __future__ import annotations

import codecs
import hashlib
import shutil
from pathlib import Path

import pytest

from codegen.diagnostics import Diagnostics
from codegen.pipeline import load_protocol
from codegen.spec.source import SourceText, decode, split_lines

REPO = Path(__file__).resolve().parent.parent.parent
SOURCES = {
    "ahp": "commands.ts",
    "acp": "schema.rs",
    "piglet": "external.godoc.txt",
    "openctx": "protocol.md",
}


def _read(tmp_path: Path, raw: bytes) -> tuple[SourceText, Diagnostics]:
    path = tmp_path / "x.ts"
    path.write_bytes(raw)
    diags = Diagnostics()
    return SourceText.read(path, "x.ts", diags), diags


def test_valid_utf8_reads_without_diagnostics(tmp_path: Path) -> None:
    source, diags = _read(tmp_path, "type A = 'é';\n".encode())
    assert source.text == "type A = 'é';\n" and not diags.items
    assert source.sha256 == hashlib.sha256("type A = 'é';\n".encode()).hexdigest()


def test_a_utf8_byte_order_mark_is_dropped(tmp_path: Path) -> None:
    raw = codecs.BOM_UTF8 + b"type A = 1;\n"
    source, diags = _read(tmp_path, raw)
    assert source.text == "type A = 1;\n" and not diags.items
    assert source.sha256 == hashlib.sha256(raw).hexdigest()  # provenance: bytes read


@pytest.mark.parametrize(
    ("raw", "line", "col"),
    [
        (b"type A = 1;\n\xff", 2, 1),  # a trailing \xff
        (b"ab\ncd \xc3(", 2, 4),  # a broken two-byte sequence
        ("é→".encode() + b"\xed\xa0\x80", 1, 3),  # an encoded surrogate
        (b"\x80", 1, 1),
    ],
)
def test_invalid_utf8_is_src001_at_the_first_bad_byte(
    tmp_path: Path, raw: bytes, line: int, col: int
) -> None:
    source, diags = _read(tmp_path, raw)
    [item] = diags.items
    assert (item.code, item.span.line, item.span.col) == ("SRC001", line, col)
    assert "\ufffd" in source.text  # reads on, so later problems are reported too
    assert item.message.startswith("not valid UTF-8: byte 0x")


@pytest.mark.parametrize(
    "encoding", ["utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be"]
)
def test_utf16_and_utf32_are_src002(tmp_path: Path, encoding: str) -> None:
    bom = {
        "utf-16-le": codecs.BOM_UTF16_LE,
        "utf-16-be": codecs.BOM_UTF16_BE,
        "utf-32-le": codecs.BOM_UTF32_LE,
        "utf-32-be": codecs.BOM_UTF32_BE,
    }[encoding]
    source, diags = _read(tmp_path, bom + "type A = 1;\n".encode(encoding))
    [item] = diags.items
    assert item.code == "SRC002" and encoding[:6].upper() in item.message
    assert source.text == "type A = 1;\n"


def test_a_source_that_cannot_be_read_is_src003(tmp_path: Path) -> None:
    (tmp_path / "x.ts").mkdir()
    diags = Diagnostics()
    source = SourceText.read(tmp_path / "x.ts", "x.ts", diags)
    assert source.text == "" and [d.code for d in diags.items] == ["SRC003"]


def test_decode_never_raises_on_any_byte() -> None:
    for byte in range(256):
        for raw in (bytes([byte]), b"a" + bytes([byte]) * 3, bytes([byte]) + b"\n\xff"):
            assert isinstance(decode(raw).text, str)


def test_lines_split_at_newlines_only() -> None:
    text = "a\fb\u2028c\x85d\r\ne\x1cf\nlast"
    assert split_lines(text) == ["a\fb\u2028c\x85d", "e\x1cf", "last"]
    assert split_lines("x\n") == ["x"] and split_lines("") == []
    source = SourceText("f", text)
    assert source.line_text(2) == "e\x1cf" and source.line_text(3) == "last"
    assert source.span_at_point(2, 2).line == 3  # tree-sitter rows count \n alone


@pytest.mark.parametrize("spec", sorted(SOURCES))
@pytest.mark.parametrize(
    "damage",
    [
        lambda raw: raw + b"\xff",
        lambda raw: codecs.BOM_UTF16_LE + raw.decode().encode("utf-16-le"),
        lambda raw: raw[: len(raw) // 2] + b"\xc3" + raw[len(raw) // 2 :],
    ],
    ids=["trailing-ff", "utf16-bom", "cut-sequence"],
)
def test_every_spec_reports_bad_bytes_as_a_diagnostic(
    tmp_path: Path, spec: str, damage: object
) -> None:
    shutil.copy2(REPO / "pyproject.toml", tmp_path)
    shutil.copytree(REPO / "specs" / spec, tmp_path / "specs" / spec)
    path = tmp_path / "specs" / spec / SOURCES[spec]
    path.write_bytes(damage(path.read_bytes()))  # type: ignore[operator]
    outcome = load_protocol(tmp_path / "specs" / spec, tmp_path)
    codes = [d.code for d in outcome.diags.items]
    assert codes.count("SRC001") + codes.count("SRC002") == 1, codes
    assert not outcome.ok() and "INT001" not in codes
    bad = next(d for d in outcome.diags.items if d.code.startswith("SRC"))
    assert bad.span.file == f"specs/{spec}/{SOURCES[spec]}"


def test_a_file_that_is_mostly_not_utf8_is_not_read(tmp_path: Path) -> None:
    raw = b"type A = 1;\n" + b"\xff\xfe" * 40
    source, diags = _read(tmp_path, raw)
    [item] = diags.items
    assert item.code == "SRC001" and "80 invalid bytes: not read" in item.message
    assert (item.span.line, item.span.col) == (2, 1) and source.text == ""
    few, diags = _read(tmp_path, b"a\xff" * 16)
    assert "read on" in diags.items[0].message and few.text.count("\ufffd") == 16


def test_utf16_without_a_byte_order_mark_is_not_read(tmp_path: Path) -> None:
    source, diags = _read(
        tmp_path, "export interface A { x: string }\n".encode("utf-16-le")
    )
    [item] = diags.items
    assert item.code == "SRC002" and "NUL bytes" in item.message and source.text == ""
    source, diags = _read(tmp_path, b"a\x00b\n")  # one stray NUL is only a character
    assert not diags.items and source.text == "a\x00b\n"


def test_a_byte_order_mark_on_what_is_not_that_encoding_is_not_read(
    tmp_path: Path,
) -> None:
    inner = codecs.BOM_UTF16_LE + "export interface A { x: string }\n".encode(
        "utf-16-le"
    )
    twice = codecs.BOM_UTF16_LE + inner.decode("utf-8", "replace").encode("utf-16-le")
    source, diags = _read(tmp_path, twice)
    [item] = diags.items
    assert item.code == "SRC002" and item.message.endswith("not read)")
    assert source.text == ""
