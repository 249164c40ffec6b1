"""The diagnostic renderer: the right line under the caret, nothing that drives a terminal,
each file read once, and a flood of one code capped to a count."""

from __future__ import annotations

from pathlib import Path

import pytest

from codegen.diagnostics import (
    PER_CODE_LIMIT,
    Diagnostics,
    SourceLines,
    render,
    render_all,
)
from codegen.ir import Span


def _one(tmp_path: Path, text: str, line: int, col: int) -> str:
    (tmp_path / "f.ts").write_text(text, encoding="utf-8")
    diags = Diagnostics()
    diags.report("SYN002", "here", Span("f.ts", line, col))
    return render(diags.items[0], tmp_path)


@pytest.mark.parametrize("breaker", ["\f", "\u2028", "\u2029", "\x85", "\x0b", "\x1c"])
def test_a_line_break_that_is_not_newline_keeps_the_caret_on_its_line(
    tmp_path: Path, breaker: str
) -> None:
    text = f"first{breaker}same line\nsecond line\nthird\n"
    out = _one(tmp_path, text, 2, 8).splitlines()
    assert out[2] == "2 | second line"
    assert out[3] == "  |        ^"  # under the 'l' of "line"
    out = _one(tmp_path, text, 1, 7).splitlines()
    assert out[2] == "1 | first\ufffdsame line" and out[3].index("^") == 4 + 6


def test_control_characters_never_reach_the_terminal(tmp_path: Path) -> None:
    text = "name\x1b[2J\x1b]0;pwned\x07 \u202eevil\n"
    (tmp_path / "f.ts").write_text(text, encoding="utf-8")
    diags = Diagnostics()
    diags.report("SYN002", "bad \x1b[31mred\x1b[0m name", Span("f.ts", 1, 5))
    out = render(diags.items[0], tmp_path)
    assert "\x1b" not in out and "\x07" not in out and "\u202e" not in out
    assert "bad \ufffd[31mred\ufffd[0m name" in out


def test_tabs_and_wide_characters_keep_the_caret_under_its_column(
    tmp_path: Path,
) -> None:
    out = _one(tmp_path, "\tx = 全角; y\n", 1, 10).splitlines()  # column 10: y
    assert out[2] == "1 |     x = 全角; y"
    assert out[3] == "  | " + " " * (4 + 4 + 2 * 2 + 2) + "^"  # tab, "x = ", 全角, "; "


def test_a_long_line_is_cut_around_the_caret(tmp_path: Path) -> None:
    text = "a" * 5000 + "X" + "b" * 5000 + "\n"
    out = _one(tmp_path, text, 1, 5001).splitlines()
    assert len(out[2]) < 200 and out[2].startswith("1 | …") and out[2].endswith("…")
    assert out[2][out[3].index("^")] == "X"
    short = _one(tmp_path, "x" * 100 + "Y\n", 1, 101).splitlines()
    assert "…" not in short[2] and short[2][short[3].index("^")] == "Y"


def test_a_span_past_the_file_renders_the_headline_only(tmp_path: Path) -> None:
    assert _one(tmp_path, "one\n", 9, 1) == "f.ts:9:1: warning[SYN002]: here"
    assert _one(tmp_path, "one\n", 0, 1) == "f.ts:0:1: warning[SYN002]: here"


def _flood(tmp_path: Path) -> Diagnostics:
    (tmp_path / "f.ts").write_text("x;\n" * 10_000, encoding="utf-8")
    diags = Diagnostics()
    for line in range(1, 10_001):
        diags.report("SYN002", f"skipped {line}", Span("f.ts", line, 1))
    for line in range(1, 4):
        diags.report("REF001", f"undefined {line}", Span("f.ts", line, 2))
    return diags


def test_ten_thousand_diagnostics_read_the_file_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    diags = _flood(tmp_path)
    reads: list[Path] = []
    original = Path.read_bytes

    def counting(self: Path) -> bytes:
        reads.append(self)
        return original(self)

    monkeypatch.setattr(Path, "read_bytes", counting)
    everything = render_all(diags, tmp_path, per_code=None)
    assert len(reads) == 1
    assert everything.count("\n") + 1 == 4 * 10_003


def test_a_flood_of_one_code_is_capped_to_a_count(tmp_path: Path) -> None:
    out = render_all(_flood(tmp_path), tmp_path).splitlines()
    assert len(out) == 4 * (PER_CODE_LIMIT + 3) + 1
    assert out[-1] == "… and 9,950 more not shown: 9,950 warning[SYN002]"
    assert sum("error[REF001]" in line for line in out) == 3  # not crowded out
    strict = render_all(_flood(tmp_path), tmp_path, strict=True).splitlines()
    assert strict[-1] == "… and 9,950 more not shown: 9,950 error[SYN002]"


def test_source_lines_decode_like_the_frontends(tmp_path: Path) -> None:
    (tmp_path / "a.ts").write_bytes(b"\xef\xbb\xbfone\r\ntwo\xff\n")
    lines = SourceLines(tmp_path)
    assert lines.line("a.ts", 1) == "one" and lines.line("a.ts", 2) == "two\ufffd"
    assert lines.line("missing.ts", 1) is None
