"""The encoders of spec text per output language (codegen/backends/escape.py), each checked
by the target's own reader: Python's compiler, tomllib, Python-Markdown (as the docs site
runs it), and accepting twins that show ordinary text passes unchanged."""

from __future__ import annotations

import ast
import html.parser
import re
import tomllib

import markdown
import pytest

from codegen.backends import escape

HOSTILE = [
    '"""; __import__("os").system("x") #',
    "back\\slash \\N{BULLET} \\x41 \\",
    "line\nbreak\rreturn\r\nboth\x0cform\x0bvt\u2028ls\u2029ps\x85nel",
    "nul\x00esc\x1b[2Jbidi\u202eevil",
    "lone \ud800 surrogate \udfff",
    "quote \" and ' and ''' and \"\"",
    "<script>alert(1)</script> <img src=x onerror=alert(1)>",
    "",
    " ",
    "名前 ünï → 😀",
]
PLAIN = ["notify/sessionAdded", "Typed bindings for ahp 1.0", "a_b-c.d"]


@pytest.mark.parametrize("text", HOSTILE + PLAIN)
def test_py_str_is_a_literal_of_the_text(text: str) -> None:
    literal = escape.py_str(text)
    tree = ast.parse(f"x = {literal}")
    assert len(tree.body) == 1 and ast.literal_eval(literal) == text


@pytest.mark.parametrize("text", HOSTILE + PLAIN)
def test_doc_inline_stays_inside_any_docstring(text: str) -> None:
    inline = escape.doc_inline(text)
    for source in (f'"""{inline}"""', f'"""a {inline} b"""', f'"{inline}"'):
        tree = ast.parse(source)
        assert len(tree.body) == 1
        value = ast.literal_eval(source)
        assert "\n" not in value and "\r" not in value and "\x00" not in value
    if text in PLAIN:
        assert inline == text


@pytest.mark.parametrize("text", HOSTILE + PLAIN)
def test_py_comment_is_one_comment_line(text: str) -> None:
    source = f"# {escape.py_comment(text)}\nx = 1\n"
    tree = ast.parse(source)
    assert [type(node) for node in tree.body] == [ast.Assign]
    assert source.count("\n") == 2 and "\r" not in source


@pytest.mark.parametrize("text", HOSTILE + PLAIN)
def test_toml_str_reads_back(text: str) -> None:
    value = tomllib.loads(f"a = {escape.toml_str(text)}\n")["a"]
    expected = re.sub(r"[\ud800-\udfff]", "\ufffd", text)
    assert value == expected
    assert escape.toml_str("plain") == '"plain"'


class _Page(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.live: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        if tag in ("script", "iframe", "img", "object", "embed", "style"):
            self.live.append(tag)
        for name, value in attrs:
            if name.startswith("on") or (
                name in ("href", "src")
                and value
                and re.match(r"[a-z][a-z0-9+.-]*:", "".join(value.split()).lower())
                and not value.startswith(("http://", "https://", "mailto:"))
            ):
                self.live.append(f"{tag} {name}={value}")

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def _render(text: str) -> _Page:
    page = _Page()
    page.feed(
        markdown.markdown(text, extensions=["tables", "toc", "pymdownx.superfences"])
    )
    return page


MARKDOWN_ATTACKS = [
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    '<iframe src="javascript:alert(1)"></iframe>',
    "<a href='javascript:alert(1)'>x</a>",
    "[x](javascript:alert(1))",
    "[x](JaVaScRiPt:alert(1))",
    "[x](java\tscript:alert(1))",
    "[x]( javascript:alert(1) )",
    "[x](&#106;avascript:alert(1))",
    "[x](&#x6A;avascript:alert(1))",
    "[x](<javascript:alert(1)>)",
    "[x](data:text/html;base64,PHNjcmlwdD4=)",
    "[x](vbscript:msgbox(1))",
    "![x](javascript:alert(1))",
    "[x][r]\n\n[r]: javascript:alert(1)",
    "<javascript:alert(1)>",
    "`` ` ``<script>alert(1)</script>",
    "`unclosed <script>alert(1)</script>",
    "```\n<script>alert(1)</script>",  # an unclosed fence is not code
    "~~~\n<script>alert(1)</script>\n~~~",
    "    <script>alert(1)</script>",
    "<!-- x --><script>alert(1)</script>",
    "a\u2028<script>alert(1)</script>",
    "&lt;script&gt;alert(1)&lt;/script&gt;",
]


@pytest.mark.parametrize("attack", MARKDOWN_ATTACKS)
def test_md_block_renders_no_live_html(attack: str) -> None:
    for text in (attack, f"before\n\n{attack}\n\nafter", f"- item\n  {attack}"):
        page = _render(escape.md_block(text))
        assert not page.live, (text, page.live)


@pytest.mark.parametrize("attack", MARKDOWN_ATTACKS)
def test_md_inline_renders_no_live_html_even_in_a_table(attack: str) -> None:
    table = f"| a | b |\n|---|---|\n| {escape.md_inline(attack)} | x |\n"
    page = _render(table)
    assert not page.live, page.live
    assert page.tags.count("td") == 2  # the cell did not split or swallow the row


def test_doc_markdown_that_is_safe_still_renders() -> None:
    text = (
        "Use `Record<string, unknown>` for *maps*; see [spec](https://x.org/a_b).\n"
        '\n- one\n- two\n\n```json\n{"a": "<b>"}\n```\n'
    )
    page = _render(escape.md_block(text))
    assert {"code", "em", "a", "ul", "li", "pre"} <= set(page.tags)
    shown = "".join(page.text)
    assert "Record<string, unknown>" in shown and '{"a": "<b>"}' in shown


def test_doc_headings_and_setext_lines_stay_text() -> None:
    page = _render(escape.md_block("# Title\nText\n===\nmore\n---"))
    assert not {"h1", "h2", "hr"} & set(page.tags)
    assert "# Title" in "".join(page.text)


@pytest.mark.parametrize("text", HOSTILE + PLAIN + ["a_b*c*", "[x]", "x # y #", "`"])
def test_md_heading_shows_the_name_exactly(text: str) -> None:
    rendered = markdown.markdown(f"## {escape.md_heading(text)}", extensions=["toc"])
    page = _Page()
    page.feed(rendered)
    flat = " ".join(
        re.sub(
            r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u202e\ud800-\udfff]", " ", text
        ).split()
    )
    assert page.tags == ["h2"] and not page.live
    assert "".join(page.text) == (flat or "_")


@pytest.mark.parametrize("text", HOSTILE + PLAIN + ["a|b", "`x`", "``"])
def test_md_code_is_one_code_element(text: str) -> None:
    page = _render(f"| {escape.md_code(text)} | x |\n|---|---|\n| a | b |\n")
    assert page.tags.count("code") == 1
    assert not page.live and page.tags.count("th") == 2


def test_anchors_match_python_markdown_toc() -> None:
    names = [
        "Title: types",
        "Foo",
        "foo",
        "foo_1",
        "FOO",
        "",
        "名前",
        "a b",
        "a-b",
        "x",
    ]
    source = "\n\n".join(f"## {escape.md_heading(name)}" for name in names)
    rendered = markdown.markdown(source, extensions=["toc"])
    ids = re.findall(r'<h2 id="([^"]*)"', rendered)
    assert escape.anchors(names) == ids
    assert len(set(ids)) == len(ids)


def test_mermaid_label_keeps_only_plain_characters() -> None:
    assert (
        escape.mermaid_label("notify/session.added$1-x") == "notify/session.added$1-x"
    )
    assert escape.mermaid_label('a"b;\n<br>click') == "a_b___br_click"
    assert escape.mermaid_label("") == "_"


def test_html_comment_cannot_be_closed() -> None:
    text = escape.html_comment("a --> <script> --!> b---c")
    assert "-->" not in f"<!-- {text}"[4:] and "--" not in text and "<" not in text
