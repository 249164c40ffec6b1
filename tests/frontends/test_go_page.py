"""The Go frontend on a documentation page: code found in the page, spans into the page."""

from __future__ import annotations

from pathlib import Path

from codegen import ir
from codegen.diagnostics import Diagnostics
from codegen.frontends.go.page import read_page
from codegen.frontends.go.reader import read_go
from codegen.spec.source import SourceText

REPO = Path(__file__).resolve().parent.parent.parent
SEED = REPO / "specs/piglet/external.godoc.txt"
PAGE = """mypkg

Types

type Ping added in v0.2.0

type Ping struct {
\tName string `json:"name"` // "a" or "b"
}

Ping is sent by the host.

It has two paragraphs.

func (*Host) Send added in v0.3.0

func (h *Host) Send(ctx context.Context) error

Send sends a ping request to the extension.

type Pong struct{}

Pong answers.

Jump to
"""


def _source(text: str, name: str = "page.godoc.txt") -> SourceText:
    return SourceText(name, text)


def test_seed_is_kept_byte_for_byte() -> None:
    # The seeds sit in ../shared beside the checkout (as in CI); missing seeds fail.
    seed = SEED.parents[3] / "shared" / "seeds" / "piglet-external.godoc.txt"
    assert seed.is_file(), f"seed not found at {seed}"
    assert SEED.read_bytes() == seed.read_bytes()


def test_code_text_keeps_every_line_in_place() -> None:
    page = read_page(_source(PAGE), Diagnostics())
    code_lines = page.code.decode().split("\n")
    source_lines = PAGE.split("\n")
    assert len(code_lines) == len(source_lines)
    for code, original in zip(code_lines, source_lines):
        assert code in ("", original)
    assert "type Ping struct {" in code_lines


def test_blocks_carry_prose_and_since() -> None:
    page = read_page(_source(PAGE), Diagnostics())
    by_name = {block.name: block for block in page.blocks}
    assert by_name["Ping"].since == "v0.2.0"
    assert by_name["Ping"].docs == "Ping is sent by the host.\n\nIt has two paragraphs."
    assert by_name["Host.Send"].kind == "func"
    assert by_name["Host.Send"].docs == "Send sends a ping request to the extension."
    assert by_name["Pong"].docs == "Pong answers."  # "Jump to" is page chrome
    assert by_name["Pong"].since is None


def test_spans_point_into_the_page() -> None:
    diags = Diagnostics()
    read = read_go([_source(PAGE)], diags)
    ping = next(d for d in read.decls if d.name == "Ping")
    assert isinstance(ping, ir.StructDecl)
    assert (ping.span.file, ping.span.line, ping.span.col) == ("page.godoc.txt", 7, 6)
    assert ping.fields[0].span.line == 8
    assert ping.fields[0].allowed_values_note == '"a" or "b"'


def test_unclosed_block_is_a_diagnostic() -> None:
    diags = Diagnostics()
    read_go([_source('x\n\ntype A struct {\n\tB int `json:"b"`\n')], diags)
    assert [d.code for d in diags.items if d.code == "SYN001"]
    assert all(d.span.file == "page.godoc.txt" for d in diags.items)


def test_closed_block_is_no_diagnostic() -> None:
    diags = Diagnostics()
    read = read_go([_source('x\n\ntype A struct {\n\tB int `json:"b"`\n}\n')], diags)
    assert not diags.items
    assert [d.name for d in read.decls] == ["A"]


def test_page_and_go_file_give_the_same_types() -> None:
    """The same declarations read from a page and from a .go file agree (spans aside)."""
    go_text = (
        "package mypkg\n\n// Ping is sent by the host.\n//\n// It has two paragraphs.\n"
        'type Ping struct {\n\tName string `json:"name"` // "a" or "b"\n}\n\n'
        "// Pong answers.\ntype Pong struct{}\n"
    )
    from_page = read_go([_source(PAGE)], Diagnostics()).decls
    from_go = read_go([_source(go_text, "x.go")], Diagnostics()).decls

    def strip(decl: ir.Decl) -> tuple[str, tuple[tuple[str, str, str | None], ...]]:
        assert isinstance(decl, ir.StructDecl)
        fields = tuple(
            (f.wire_name, f.presence.value, f.allowed_values_note) for f in decl.fields
        )
        return decl.name, fields

    assert [strip(d) for d in from_page] == [strip(d) for d in from_go]
    assert [d.lifecycle.docs for d in from_page] == [d.lifecycle.docs for d in from_go]


def test_seed_page_types_against_type_blocks() -> None:
    text = SEED.read_text(encoding="utf-8")
    blocks = [
        line
        for line in text.splitlines()
        if line.startswith("type ")
        and line.rstrip().endswith(("{", "{}", ")"))
        or (line.startswith("type ") and " func(" in line)
    ]
    diags = Diagnostics()
    read = read_go([SourceText("specs/piglet/external.godoc.txt", text)], diags)
    assert not diags.has_errors()
    assert len(blocks) == 128
    assert len(read.decls) + len(read.excluded) == len(blocks)
    assert sorted(read.excluded) == [
        "DefaultFile",
        "Host",
        "Manifest",
        "Supervisor",
        "UndoSnapshotsFn",
        "Watcher",
    ]
