"""Tests for codegen.tools.seed_restore: scraped seed text back to clean sources."""

from __future__ import annotations

from pathlib import Path

import pytest
import tree_sitter_rust
import tree_sitter_typescript
from hypothesis import given
from hypothesis import strategies as st
from tree_sitter import Language, Node, Parser

from codegen.tools.seed_restore import (
    SeedFormatError,
    ambiguous_line_numbers,
    main,
    reindent_ts,
    restore_rust_scraped,
    restore_ts_scraped,
    split_end_numbered,
)

REPO = Path(__file__).resolve().parents[2]
SEEDS = REPO.parent / "shared" / "seeds"
SPECS = REPO / "specs"
TS_JUNK = "Path: blob/main/src/x.ts\n13405 views\n"
RUST_JUNK = "agentic_coding_protocol/\nschema.rs\n\n"


def glue_end(lines: list[str]) -> str:
    """The TS scrape layout: each line followed by its number, all on one line."""
    return "".join(f"{line}{number}" for number, line in enumerate(lines, start=1))


def glue_start(lines: list[str]) -> str:
    """The Rust scrape layout: each line preceded by its number."""
    return "\n".join(f"{number}{line}" for number, line in enumerate(lines, start=1))


# --- TypeScript: end-glued numbers ------------------------------------------


def test_end_glued_numbers_split_into_lines() -> None:
    assert split_end_numbered("alpha1beta2gamma3") == ["alpha", "beta", "gamma"]


def test_bare_numbers_are_empty_lines() -> None:
    assert split_end_numbered("a123b4") == ["a", "", "", "b"]


def test_numbers_inside_text_are_not_split_points() -> None:
    # "3" and "7" are not the expected numbers where they occur.
    lines = ["call(3, 7);", "x[0] = 9;", "done"]
    assert split_end_numbered(glue_end(lines)) == lines


def test_next_line_number_inside_text() -> None:
    # Line 1 mentions "2" before ending; the search for 2 starts after "1".
    lines = ["see 2 items", "next"]
    assert split_end_numbered(glue_end(lines)) == lines


def test_trailing_digits_take_the_earliest_consistent_split() -> None:
    # "* @version 1" on line 24 scrapes as "* @version 124".
    lines = ["x"] * 23 + ["* @version 1", "* @see docs"]
    assert split_end_numbered(glue_end(lines))[23] == "* @version 1"


def test_backtracks_when_earliest_occurrence_dead_ends() -> None:
    # Taking the first "1" leaves "2b1", which cannot reach the end.
    assert split_end_numbered("a12b1") == ["a12b"]


def test_ambiguous_lines_are_reported() -> None:
    # Line 1 "v1 ok" contains its own number: "v" + " ok1b" parses too.
    assert ambiguous_line_numbers("v1 ok1b2") == [1]
    assert ambiguous_line_numbers(glue_end(["a", "b", "c"])) == []


@given(st.lists(st.text(alphabet="ab{}();* /", max_size=6), min_size=1, max_size=40))
def test_digit_free_lines_round_trip(lines: list[str]) -> None:
    assert split_end_numbered(glue_end(lines)) == lines


def test_restore_ts_final_empty_line_is_the_final_newline() -> None:
    text = TS_JUNK + glue_end(["export type A = string;", ""])
    assert restore_ts_scraped(text) == "export type A = string;\n"


def test_restore_ts_accepts_seed_file_final_newline() -> None:
    text = TS_JUNK + glue_end(["let a = b;", ""]) + "\n"
    assert restore_ts_scraped(text) == "let a = b;\n"


# --- TypeScript: rejecting twins --------------------------------------------


def test_skipped_number_without_later_occurrence_raises() -> None:
    with pytest.raises(SeedFormatError, match="no consecutive line numbering"):
        split_end_numbered("a1b3")


def test_text_after_last_number_raises() -> None:
    with pytest.raises(SeedFormatError):
        split_end_numbered(glue_end(["a", "b"]) + "x")


def test_dropped_number_that_swallows_lines_raises() -> None:
    # Number 12 dropped: line 12 would run on to the "12" inside "112",
    # swallowing lines 13..111 together with their numbers.
    broken = glue_end(["x"] * 130).replace("x12x", "xx", 1)
    with pytest.raises(SeedFormatError, match="missing or wrong") as info:
        split_end_numbered(broken)
    assert info.value.line == 12


def test_dropped_number_never_seen_again_raises() -> None:
    broken = glue_end(["x"] * 30).replace("x5x", "xx", 1)
    with pytest.raises(SeedFormatError, match="no consecutive line numbering"):
        split_end_numbered(broken)


def test_missing_page_junk_raises() -> None:
    with pytest.raises(SeedFormatError, match="page junk"):
        restore_ts_scraped(glue_end(["a", ""]))


# --- TypeScript: indentation ------------------------------------------------


def test_indent_one_tab_per_bracket_level() -> None:
    lines = [
        "export interface A {",
        "nested: {",
        "items: [",
        "string,",
        "];",
        "};",
        "}",
    ]
    assert reindent_ts(lines) == [
        "export interface A {",
        "\tnested: {",
        "\t\titems: [",
        "\t\t\tstring,",
        "\t\t];",
        "\t};",
        "}",
    ]


def test_leading_closers_dedent_before_the_line() -> None:
    assert reindent_ts(["f({", "a: 1,", "});", "g();"]) == [
        "f({",
        "\t\ta: 1,",
        "});",
        "g();",
    ]
    assert reindent_ts(["x = [{", "a,", "}, {", "b,", "}];"])[2] == "\t}, {"


def test_jsdoc_star_lines_get_one_space() -> None:
    lines = [
        "/**",
        "* Doc {",
        "*/",
        "interface A {",
        "/**",
        "* Field.",
        "*/",
        "a: 1;",
        "}",
    ]
    assert reindent_ts(lines) == [
        "/**",
        " * Doc {",
        " */",
        "interface A {",
        "\t/**",
        "\t * Field.",
        "\t */",
        "\ta: 1;",
        "}",
    ]


def test_brackets_in_strings_and_comments_are_ignored() -> None:
    lines = [
        "const a = '{(';",
        'const b = "[";',
        "// {",
        "/* ( */ const c = `{${'}'}`;",
        "x;",
    ]
    assert reindent_ts(lines) == lines


def test_template_text_lines_keep_no_indent() -> None:
    lines = ["const s = {", "t: `first", "second ${1}`,", "};"]
    assert reindent_ts(lines) == ["const s = {", "\tt: `first", "second ${1}`,", "};"]


def test_empty_lines_stay_empty() -> None:
    assert reindent_ts(["a {", "", "b;", "}"]) == ["a {", "", "\tb;", "}"]


# --- Rust: start-glued numbers ----------------------------------------------


def test_rust_numbers_stripped_and_bare_numbers_are_empty_lines() -> None:
    text = RUST_JUNK + glue_start(["use a;", "", "pub struct S {", "    x: u8,", "}"])
    assert restore_rust_scraped(text) == "use a;\n\npub struct S {\n    x: u8,\n}\n"


def test_rust_strips_exactly_the_expected_number() -> None:
    lines = ["x"] * 11 + ["345"]
    assert restore_rust_scraped(RUST_JUNK + glue_start(lines)).splitlines()[11] == "345"


def test_rust_wrong_number_raises_with_line() -> None:
    text = RUST_JUNK + "1use a;\n2\n4fn f() {}\n"
    with pytest.raises(SeedFormatError, match="line 3") as info:
        restore_rust_scraped(text)
    assert info.value.line == 3


def test_rust_without_numbered_lines_raises() -> None:
    with pytest.raises(SeedFormatError):
        restore_rust_scraped("junk\nmore junk\n")


# --- The real seeds ---------------------------------------------------------

REAL = [
    ("ahp-commands.ts.scraped.txt", "ahp/commands.ts", "ts", 855),
    ("ahp-state.ts.scraped.txt", "ahp/state.ts", "ts", 1687),
    ("acp-schema.rs.scraped.txt", "acp/schema.rs", "rust", 759),
]


def seed_text(name: str) -> str:
    if not SEEDS.is_dir():
        pytest.fail(f"seed directory {SEEDS} is missing; cannot check specs/")
    return (SEEDS / name).read_text(encoding="utf-8")


def restore(name: str, kind: str) -> str:
    text = seed_text(name)
    return restore_ts_scraped(text) if kind == "ts" else restore_rust_scraped(text)


def error_nodes(node: Node) -> list[Node]:
    """ERROR and MISSING nodes, iteratively (trees are deep)."""
    found, stack = [], [node]
    while stack:
        current = stack.pop()
        if current.is_error or current.is_missing:
            found.append(current)
        stack.extend(current.children)
    return found


@pytest.mark.parametrize(("seed", "target", "kind", "lines"), REAL)
def test_real_seed_reproduces_committed_spec(
    seed: str, target: str, kind: str, lines: int
) -> None:
    restored = restore(seed, kind)
    assert restored.encode("utf-8") == (SPECS / target).read_bytes()
    assert restored.count("\n") == lines and restored.endswith("\n")


@pytest.mark.parametrize(("seed", "target", "kind", "lines"), REAL)
def test_real_seed_parses_with_tree_sitter(
    seed: str, target: str, kind: str, lines: int
) -> None:
    raw = (
        tree_sitter_typescript.language_typescript()
        if kind == "ts"
        else tree_sitter_rust.language()
    )
    tree = Parser(Language(raw)).parse(restore(seed, kind).encode("utf-8"))
    bad = [(n.type, n.start_point) for n in error_nodes(tree.root_node)]
    assert not tree.root_node.has_error and bad == []


def test_commands_ts_known_lines() -> None:
    lines = restore("ahp-commands.ts.scraped.txt", "ts").split("\n")
    assert lines[23] == " * @version 1"
    assert lines[25] == " */"
    assert lines[26] == "export interface InitializeParams {"
    last_open = max(i for i, line in enumerate(lines) if line.startswith("export "))
    assert lines[last_open] == "export interface SessionConfigCompletionsResult {"
    assert lines[last_open + 1 :] == [
        "\t/** Matching value items */",
        "\titems: SessionConfigValueItem[];",
        "}",
        "",
        "",
    ]


def test_main_writes_then_checks(tmp_path: Path) -> None:
    seed_text(REAL[0][0])  # fail loudly if the seeds are missing
    out = tmp_path / "specs"
    assert main(["--seeds", str(SEEDS), "--out", str(out)]) == 0
    assert main(["--seeds", str(SEEDS), "--out", str(out), "--check"]) == 0
    assert (out / "acp/schema.rs").read_bytes() == (
        SPECS / "acp/schema.rs"
    ).read_bytes()
    (out / "ahp/state.ts").write_text("stale\n", encoding="utf-8")
    assert main(["--seeds", str(SEEDS), "--out", str(out), "--check"]) == 1
    assert (out / "ahp/state.ts").read_text(encoding="utf-8") == "stale\n"


def test_main_missing_seeds_exits_2(tmp_path: Path) -> None:
    assert main(["--seeds", str(tmp_path / "none"), "--out", str(tmp_path)]) == 2
