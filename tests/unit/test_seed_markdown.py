"""Tests for codegen.tools.seed_markdown and ts_unflatten: the scraped OpenCtx page back to Markdown."""

from __future__ import annotations

import re
from pathlib import Path

import tree_sitter_typescript
from hypothesis import given
from hypothesis import strategies as st
from tree_sitter import Language, Parser

from codegen.frontends.prose.markdown_blocks import CODE, HEADING, LIST_ITEM, raw_blocks
from codegen.frontends.typescript.unflatten import unflatten_ts
from codegen.tools.seed_markdown import (
    SEED,
    TARGET,
    main,
    restore_markdown,
    strip_markup,
)

REPO = Path(__file__).resolve().parents[2]
SEED_PATH = REPO.parent / "shared" / "seeds" / SEED
PROTOCOL_MD = REPO / "specs" / TARGET
TS = Language(tree_sitter_typescript.language_typescript())


def squeeze(text: str) -> str:
    return re.sub(r"\s+", "", text)


# --- unflattening one line of TypeScript ------------------------------------------


def test_flattened_jsdoc_gets_its_lines_back() -> None:
    line = "interface A { /** * The name. */ name: string }"
    assert unflatten_ts(line).text == (
        "interface A {\n  /**\n   * The name.\n   */\n  name: string\n}"
    )


def test_blank_comment_lines_are_paragraph_breaks() -> None:
    line = "/** * One. * * Two. */interface A { x: string }"
    assert unflatten_ts(line).text == (
        "/**\n * One.\n *\n * Two.\n */\ninterface A { x: string }"
    )


def test_single_line_jsdoc_stays_on_one_line() -> None:
    line = (
        "interface P { /** Line (0-indexed). */ line: number /** Col. **/ col: number}"
    )
    assert unflatten_ts(line).text == (
        "interface P {\n  /** Line (0-indexed). */\n  line: number\n"
        "  /** Col. **/\n  col: number\n}"
    )


def test_line_comment_ends_before_the_closing_brace() -> None:
    assert unflatten_ts("interface MetaParams { // empty for now}").text == (
        "interface MetaParams {\n  // empty for now\n}"
    )


def test_objects_without_comments_stay_inline() -> None:
    line = "interface A { /** * R. */ range?: { start: Position; end: Position } }"
    text = unflatten_ts(line).text
    assert "  range?: { start: Position; end: Position }\n" in text


def test_members_without_a_separator_are_split() -> None:
    line = "interface M { /** * U. */ uri: string data?: { [k: string]: unknown } }"
    assert unflatten_ts(line).text.splitlines()[-3:] == [
        "  uri: string",
        "  data?: { [k: string]: unknown }",
        "}",
    ]


def test_declarations_are_separated_by_a_blank_line() -> None:
    text = unflatten_ts(
        "type R = M[]/** * A mention. */export interface M { t: string }"
    ).text
    assert (
        text
        == "type R = M[]\n\n/**\n * A mention.\n */\nexport interface M { t: string }"
    )


def test_origins_point_at_the_input_characters() -> None:
    line = "interface A { /** * Doc. */ name: string }"
    restored = unflatten_ts(line)
    assert len(restored.origins) == len(restored.text)
    for char, origin in zip(restored.text, restored.origins):
        if not char.isspace():
            assert line[origin] == char


@given(
    st.lists(
        st.sampled_from(
            [
                "interface",
                "X",
                "{",
                "}",
                "/**",
                "*",
                "*/",
                "//",
                "a?:",
                "b:",
                "string",
                "|",
                ";",
                ",",
                "[",
                "]",
                "'q'",
                "type",
                "=",
                "export",
                " ",
                "  ",
                "x",
            ]
        ),
        max_size=40,
    )
)
def test_only_whitespace_is_ever_changed(tokens: list[str]) -> None:
    line = " ".join(tokens)
    restored = unflatten_ts(line)
    assert squeeze(restored.text) == squeeze(line)
    assert len(restored.origins) == len(restored.text)


# --- the whole page ----------------------------------------------------------------


def test_markdown_has_exactly_the_seed_content() -> None:
    seed = SEED_PATH.read_text(encoding="utf-8")
    markdown = restore_markdown(seed)
    assert squeeze(strip_markup(markdown)) == squeeze(seed)
    assert strip_markup(markdown).split() != []
    # word for word, too (markup and whitespace aside)
    assert re.findall(r"\w+", strip_markup(markdown)) == re.findall(r"\w+", seed)


def test_headings_list_items_and_blocks() -> None:
    seed = SEED_PATH.read_text(encoding="utf-8")
    blocks = raw_blocks(seed)
    headings = [(b.level, b.text) for b in blocks if b.kind == HEADING]
    assert headings == [
        (1, "Protocol specification"),
        (2, "Provider API"),
        (3, "Meta"),
        (3, "Mentions"),
        (3, "Items"),
        (3, "Annotations"),
    ]
    items = [b.text for b in blocks if b.kind == LIST_ITEM]
    assert (
        '- as a JavaScript file (with a default export). See "Creating a provider".'
        in items
    )
    assert len(items) == 8
    assert sum(b.kind == CODE for b in blocks) == 10


def test_every_restored_block_parses_without_errors() -> None:
    markdown = PROTOCOL_MD.read_text(encoding="utf-8")
    blocks = re.findall(r"```ts\n(.*?)\n```", markdown, re.DOTALL)
    assert len(blocks) == 10
    for block in blocks:
        tree = Parser(TS).parse(block.encode("utf-8"))
        assert not tree.root_node.has_error, block


def test_protocol_md_is_current() -> None:
    assert main(["--check"]) == 0


def test_check_reports_a_stale_file(tmp_path: Path) -> None:
    (tmp_path / "openctx").mkdir()
    (tmp_path / TARGET).write_text("stale\n", encoding="utf-8")
    assert main(["--check", "--out", str(tmp_path)]) == 1
    assert main(["--out", str(tmp_path)]) == 0
    assert (tmp_path / TARGET).read_text(encoding="utf-8") == PROTOCOL_MD.read_text(
        encoding="utf-8"
    )


def test_a_missing_seed_is_reported(tmp_path: Path) -> None:
    assert main(["--seeds", str(tmp_path), "--out", str(tmp_path)]) == 2
