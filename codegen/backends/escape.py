"""Encoders from spec text to each output language, so spec text never becomes code, markup
or syntax there: one function per target context.

Phase: backend helper (Python bindings, stub server, docs, package metadata).
Inputs: any text from a spec (titles, names, wire names, doc comments): hostile included.
Outputs: text that is inert in its target:
- ``py_str``: a Python string literal;
- ``doc_inline``: a run of text inside a Python docstring (or any ``"``-quoted literal);
- ``py_comment``: one line of a Python comment;
- ``toml_str``: a TOML basic string, quotes included;
- ``md_block`` / ``md_inline`` / ``md_heading`` / ``md_code``: Markdown for the docs site
  (Python-Markdown): doc comments keep their Markdown (emphasis, lists, code, links to
  http/https/mailto), but no raw HTML, no ``javascript:`` (or other) links, no headings of
  their own, and code spans and fences that cannot be broken out of;
- ``mermaid_label``: a name or label inside a Mermaid diagram;
- ``anchors``: the ids Python-Markdown's ``toc`` gives a page's headings (unique even for
  names that differ only in case).
Guarantees: pure and total (any ``str``, lone surrogates included, gives valid output).
"""

from __future__ import annotations

import html
import re
import unicodedata

__all__ = [
    "anchors",
    "doc_inline",
    "html_comment",
    "md_block",
    "md_code",
    "md_heading",
    "md_inline",
    "mermaid_label",
    "py_comment",
    "py_str",
    "slug",
    "toml_str",
]

# Characters that must not reach a terminal, a source line or a page as themselves:
# controls (NUL, ESC, CR, form feed), line and paragraph separators, format characters
# (bidi overrides), surrogates, private-use and unassigned code points.
_UNSHOWN = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}


# Runs that may hold an unshown character: printable ASCII never does, so only the other
# characters are looked up (the per-character lookup was a large share of the docs' time).
_SUSPECT = re.compile(r"[^\x20-\x7e]+")


def _visible(text: str, keep: str = "") -> str:
    if text.isprintable():  # every unshown category is unprintable
        return text

    def blank(match: re.Match[str]) -> str:
        return "".join(
            ch if ch in keep or unicodedata.category(ch) not in _UNSHOWN else " "
            for ch in match.group()
        )

    return _SUSPECT.sub(blank, text)


# ---------------------------------------------------------------------------- Python


def py_str(text: str) -> str:
    """A double-quoted Python string literal of exactly ``text``: printable characters
    as themselves, the rest (controls, line separators, lone surrogates) as escapes.
    (JSON's escapes are not Python's: JSON writes 😀 as a surrogate pair, which Python
    reads as two lone surrogates.)"""
    out = ['"']
    for ch in text:
        if ch in ('"', "\\"):
            out.append("\\" + ch)
        elif ch.isprintable():
            out.append(ch)
        else:
            out.append(repr(ch)[1:-1])  # \n, \x00, \u2028, \ud800, \U000e0001
    out.append('"')
    return "".join(out)


def doc_inline(text: str) -> str:
    """``text`` on one line, safe between the quotes of a Python docstring or string:
    line breaks and controls are spaces, backslashes and double quotes escaped."""
    flat = " ".join(_visible(text).split())
    return flat.replace("\\", "\\\\").replace('"', '\\"')


def py_comment(text: str) -> str:
    """``text`` on one comment line: nothing Python reads as the end of the line (``\\r``,
    ``\\n``), no NUL (a SyntaxError anywhere in a source file)."""
    return " ".join(_visible(text).split())


# ------------------------------------------------------------------------------ TOML


def toml_str(text: str) -> str:
    """A TOML basic string (``"..."``) holding ``text``; a lone surrogate, which no TOML
    string can hold, becomes U+FFFD."""
    out = ['"']
    for ch in text:
        code = ord(ch)
        if ch in ('"', "\\"):
            out.append("\\" + ch)
        elif 0xD800 <= code <= 0xDFFF:
            out.append("\\uFFFD")
        elif code < 0x20 or code == 0x7F:
            out.append(f"\\u{code:04X}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


# -------------------------------------------------------------------------- Markdown

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})[ \t]*([^`\s]*)[^`]*$")
_BACKTICKS = re.compile(r"`+")
_LINK_DEST = re.compile(r"\]\(([^)\n]*)")
_REF_DEF = re.compile(r"^( {0,3})\[([^\]\n]*)\]:[ \t]*(<[^>\n]*>|\S*)")
_HEADING = re.compile(r"^( {0,3})(#{1,6})(?=[ \t]|$)")
_UNDERLINE = re.compile(r"^( {0,3})([=-])(?=[=\- \t]*$)")
_SAFE_SCHEMES = ("http:", "https:", "mailto:")


def _safe_url(url: str) -> bool:
    """A link target the docs may keep: http(s), mailto, or relative (no scheme at all),
    judged as a browser reads it (entities decoded, controls and spaces removed)."""
    plain = html.unescape(url.strip("<>"))
    plain = "".join(ch for ch in plain if ord(ch) > 0x20 and ord(ch) != 0x7F).lower()
    head = re.split(r"[/?#]", plain, maxsplit=1)[0]
    return ":" not in head or plain.startswith(_SAFE_SCHEMES)


def _code_html(text: str) -> str:
    """A code span as HTML, its text inert for both HTML and Markdown (and table cells)."""
    escaped = html.escape(text, quote=True)
    for ch in "\\`*_[]{}|#~<>!":
        escaped = escaped.replace(ch, f"&#{ord(ch)};")
    return f"<code>{escaped}</code>"


def _code_span(text: str) -> str:
    """A Markdown code span of ``text`` that nothing in ``text`` can close: delimited by
    one backtick more than its longest run of backticks (padded when it starts or ends
    with one).  Markdown shows a code span's content literally, HTML escaped.  A pipe
    (which would split a table row on a code host) or blank text takes the HTML form."""
    if "|" in text or not text.strip():
        return _code_html(text)
    runs = [len(run) for run in _BACKTICKS.findall(text)]
    ticks = "`" * (max(runs, default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{ticks}{pad}{text}{pad}{ticks}"


def _text(text: str) -> str:
    """Markdown text outside code: ``<`` and ``&`` as entities (no raw HTML, autolinks
    or entity tricks) and links to unsafe targets broken (all of ``](...)`` is judged,
    spaces removed, as a browser would read it)."""

    def link(match: re.Match[str]) -> str:
        target = match.group(1)
        return match.group(0) if _safe_url(target) else "]\\(" + match.group(0)[2:]

    text = _LINK_DEST.sub(link, text)  # judged on the text as written, entities and all
    return text.replace("&", "&amp;").replace("<", "&lt;")


def _inline_line(line: str) -> str:
    """One line: code spans (a run of n backticks up to the next run of exactly n) are
    re-emitted with delimiters their content cannot close; the rest is ``_text``; stray
    backticks become entities, so no backtick is left to pair up differently."""
    out: list[str] = []
    position = 0
    while True:
        opening = _BACKTICKS.search(line, position)
        if opening is None:
            out.append(_text(line[position:]))
            break
        size = len(opening.group(0))
        closing = None
        for candidate in _BACKTICKS.finditer(line, opening.end()):
            if len(candidate.group(0)) == size:
                closing = candidate
                break
        out.append(_text(line[position : opening.start()]))
        if closing is None:
            out.append("&#96;" * size)
            position = opening.end()
            continue
        content = line[opening.end() : closing.start()]
        if content.strip(" ") and content.startswith(" ") and content.endswith(" "):
            content = content[1:-1]  # CommonMark: one space each side is padding
        out.append(_code_span(content))
        position = closing.end()
    return "".join(out)


def _block_line(line: str) -> str:
    definition = _REF_DEF.match(line)
    if definition and not _safe_url(definition.group(3)):
        line = f"{definition.group(1)}\\[{line[len(definition.group(1)) + 1 :]}"
    heading = _HEADING.match(line)
    if heading:  # a doc comment's own heading would break the page's outline
        line = f"{heading.group(1)}\\{line[len(heading.group(1)) :]}"
    underline = _UNDERLINE.match(line)
    if underline:  # a setext underline (or a rule): shown as text
        mark = "&#61;" if underline.group(2) == "=" else "\\-"
        line = f"{underline.group(1)}{mark}{line[len(underline.group(1)) + 1 :]}"
    return _inline_line(line)


def html_comment(text: str) -> str:
    """Text inside an HTML comment (``<!-- ... -->``) that cannot end it."""
    flat = " ".join(_visible(text).split())
    flat = flat.replace("<", "&lt;").replace(">", "&gt;")
    while "--" in flat:
        flat = flat.replace("--", "- -")
    return flat


def md_block(text: str) -> str:
    """Doc text as Markdown blocks (paragraphs, lists, fenced code) for a docs page."""
    lines = _visible(text, keep="\n\t").split("\n")
    out: list[str] = []
    index = 0
    while index < len(lines):
        fence = _FENCE.match(lines[index])
        if fence:
            mark = fence.group(1)
            end = next(
                (
                    j
                    for j in range(index + 1, len(lines))
                    if lines[j].strip().startswith(mark[0] * len(mark))
                    and not lines[j].strip().strip(mark[0])
                ),
                None,
            )
            if end is not None:  # a closed fence: re-emitted so nothing breaks out
                body = lines[index + 1 : end]
                longest = max(
                    (len(run) for line in body for run in _BACKTICKS.findall(line)),
                    default=0,
                )
                ticks = "`" * max(3, longest + 1)
                language = re.sub(r"[^A-Za-z0-9_+-]", "", fence.group(2))
                if language.lower() == "mermaid":  # a diagram would run Mermaid on it
                    language = "text"
                out.extend(["", ticks + language, *body, ticks, ""])
                index = end + 1
                continue
        out.append(_block_line(lines[index]))
        index += 1
    return "\n".join(out).strip("\n")


def md_inline(text: str) -> str:
    """Doc text on one line (a table cell, a sentence): ``md_block`` without blocks;
    paragraph breaks are kept as ``<br><br>``, pipes escaped."""
    paragraphs = [
        " ".join(part.split()) for part in re.split(r"\n\s*\n", _visible(text, "\n"))
    ]
    return "<br><br>".join(
        _inline_line(part).replace("|", "\\|") for part in paragraphs if part
    )


def md_heading(text: str) -> str:
    """A name as heading text: shown exactly as written, so its anchor is
    ``slug(text)``; no HTML, no emphasis, no closing ``#``."""
    flat = " ".join(_visible(text).split())
    return flat.translate(_HEADING_ESCAPES) or "\\_"


_HEADING_ESCAPES = str.maketrans(
    {**{ch: "\\" + ch for ch in "\\`*_[]{}#"}, **{ch: html.escape(ch) for ch in "<>&"}}
)


def md_code(text: str) -> str:
    """Text as an inline code span (wire names, field names, JSON values)."""
    return _code_span(" ".join(_visible(text).split()))


# ---------------------------------------------------------------------------- anchors


def slug(text: str) -> str:
    """The anchor Python-Markdown's ``toc`` (and GitHub) derive from a heading's text."""
    value = (
        unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    )
    value = re.sub(r"[^\w\s-]", "", value).strip().lower()
    return re.sub(r"[-\s]+", "-", value)


_IDCOUNT = re.compile(r"^(.*)_([0-9]+)$")


def anchors(headings: list[str]) -> list[str]:
    """The id of each heading of a page, in order, as ``toc`` makes them unique:
    ``foo``, then ``foo_1``, ``foo_2`` (names that differ only in case, or only in
    characters a slug drops, each get their own)."""
    used: set[str] = set()
    out: list[str] = []
    for heading in headings:
        anchor = slug(" ".join(_visible(heading).split()) or "_")  # as md_heading
        if anchor in used or not anchor:
            match = _IDCOUNT.match(anchor)
            base, count = (
                (match.group(1), int(match.group(2))) if match else (anchor, 0)
            )
            count += 1
            while f"{base}_{count}" in used:
                count += 1
            anchor = f"{base}_{count}"
        used.add(anchor)
        out.append(anchor)
    return out


# --------------------------------------------------------------------------- Mermaid


def mermaid_label(text: str) -> str:
    """A name or label in a Mermaid diagram: letters, digits and ``_$./-`` only (Mermaid
    reads the rest as syntax, or as HTML in labels)."""
    return re.sub(r"[^0-9A-Za-z_$./-]", "_", text) or "_"
