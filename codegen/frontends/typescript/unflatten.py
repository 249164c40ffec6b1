"""Re-break TypeScript that a web scrape flattened onto one line, keeping every character.

Phase: frontend helper (the prose frontend reading a raw seed) and seed restoration
(``codegen.tools.seed_markdown`` writing ``specs/openctx/protocol.md``).
Inputs: one line of flattened TypeScript, e.g.
``interface A { /** * The name. */ name: string /** * Other. */ b?: { c: C; d: D }}``.
Outputs: ``Unflattened(text, origins)``: the code with its line breaks, indentation and
multi-line JSDoc (``/**`` / `` * text`` / `` */``) restored, and for every output character
the index of the input character it came from (an inserted character maps to the next
input character), so spans found in the output can be mapped back into the input.
Guarantees: pure and total (never raises); only whitespace is inserted or dropped, so the
output without whitespace equals the input without whitespace.

Layout rules: an object type whose braces enclose no comment stays on one line as written
(``{ start: Position; end: Position }``); any other object body puts each member, each comment
and the closing brace on its own line, indented two spaces per level; top-level declarations
are separated by a blank line.  A ``//`` comment in flattened text cannot end at a line break,
so it ends before the next ``}`` or ``/*`` (``{ // empty for now}``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from codegen.frontends.typescript.jsdoc import is_jsdoc

_INDENT = "  "
_DECL_WORDS = frozenset({"export", "declare", "interface", "type", "enum"})
_DECL_PREFIXES = ("export", "declare", "=")
_TYPE_END = re.compile(r"[\w$\]\)\}>'\"`]$")
_STAR = re.compile(r"(?:(?<=\s)|^)\*(?=\s|$)")


@dataclass(frozen=True, slots=True)
class Unflattened:
    text: str
    origins: tuple[int, ...]  # len(text) entries: input index of each output character


@dataclass(frozen=True, slots=True)
class _Tok:
    kind: str  # ws, block_comment, line_comment, string, word, punct
    start: int
    end: int


def unflatten_ts(line: str) -> Unflattened:
    """Restore the line breaks of one flattened line of TypeScript."""
    tokens = _lex(line)
    matches = _match_braces(line, tokens)
    writer = _Writer(line)
    _Layout(line, tokens, matches, writer).run()
    return writer.result()


# ----------------------------------------------------------------------------- lexing


def _lex(src: str) -> list[_Tok]:
    tokens: list[_Tok] = []
    i, n = 0, len(src)
    while i < n:
        c = src[i]
        if c.isspace():
            j = i
            while j < n and src[j].isspace():
                j += 1
            kind = "ws"
        elif src.startswith("/*", i):
            close = src.find("*/", i + 2)
            j = n if close < 0 else close + 2
            kind = "block_comment"
        elif src.startswith("//", i):
            j = _line_comment_end(src, i)
            kind = "line_comment"
        elif c in "\"'`":
            j = _string_end(src, i)
            kind = "string"
        elif c.isalnum() or c in "_$":
            j = i
            while j < n and (src[j].isalnum() or src[j] in "_$"):
                j += 1
            kind = "word"
        else:
            j = i + 2 if src.startswith("=>", i) else i + 1
            kind = "punct"
        tokens.append(_Tok(kind, i, j))
        i = j
    return tokens


def _line_comment_end(src: str, start: int) -> int:
    ends = [p for p in (src.find("}", start), src.find("/*", start + 2)) if p >= 0]
    end = min(ends) if ends else len(src)
    while end > start + 2 and src[end - 1].isspace():
        end -= 1
    return end


def _string_end(src: str, start: int) -> int:
    quote, i = src[start], start + 1
    while i < len(src):
        if src[i] == "\\":
            i += 2
            continue
        if src[i] == quote:
            return i + 1
        i += 1
    return len(src)


def _match_braces(src: str, tokens: list[_Tok]) -> dict[int, int]:
    """Token index of each ``{`` → index of its ``}`` (unmatched braces are left out)."""
    matches: dict[int, int] = {}
    stack: list[int] = []
    for index, tok in enumerate(tokens):
        char = src[tok.start : tok.end] if tok.kind == "punct" else ""
        if char == "{":
            stack.append(index)
        elif char == "}" and stack:
            matches[stack.pop()] = index
    return matches


# ----------------------------------------------------------------------------- writing


@dataclass
class _Writer:
    src: str
    chars: list[str] = field(default_factory=list)
    origins: list[int] = field(default_factory=list)
    depth: int = 0
    content: bool = False  # the current output line has text beyond its indent
    pending_ws: tuple[int, int] | None = None

    def result(self) -> Unflattened:
        end = len(self.chars)
        while end and self.chars[end - 1] == "\n":
            end -= 1
        return Unflattened("".join(self.chars[:end]), tuple(self.origins[:end]))

    def _insert(self, text: str, at: int) -> None:
        self.chars.extend(text)
        self.origins.extend([at] * len(text))

    def space(self, start: int, end: int) -> None:
        if self.content:
            self.pending_ws = (start, end)

    def put(self, start: int, end: int, depth: int | None = None) -> None:
        if start >= end:
            return
        if not self.content:
            self._insert(_INDENT * (self.depth if depth is None else depth), start)
        elif self.pending_ws is not None:
            ws_start, ws_end = self.pending_ws
            self.chars.extend(self.src[ws_start:ws_end])
            self.origins.extend(range(ws_start, ws_end))
        self.pending_ws = None
        self.chars.extend(self.src[start:end])
        self.origins.extend(range(start, end))
        self.content = True

    def newline(self, at: int) -> None:
        self.pending_ws = None
        if self.content:
            self._insert("\n", at)
            self.content = False

    def blank_line(self, at: int) -> None:
        if not self.chars:
            return
        self.newline(at)
        if len(self.chars) >= 2 and self.chars[-2] == "\n":
            return
        self._insert("\n", at)


@dataclass
class _Layout:
    src: str
    tokens: list[_Tok]
    matches: dict[int, int]
    out: _Writer
    nest: int = 0  # ( [ < nesting inside the current broken body
    last_comment: bool = False
    prev: str = ""  # the previous significant token's text

    def text(self, tok: _Tok) -> str:
        return self.src[tok.start : tok.end]

    def run(self) -> None:
        index = 0
        while index < len(self.tokens):
            index = self.step(index)

    def step(self, index: int) -> int:
        tok = self.tokens[index]
        text = self.text(tok)
        if tok.kind == "ws":
            self.out.space(tok.start, tok.end)
            return index + 1
        if tok.kind in ("block_comment", "line_comment"):
            self.comment(tok)
            return index + 1
        if text == "{":
            close = self.matches.get(index)
            if close is not None and not self._has_comment(index, close):
                self.start_item(tok, text)
                for inner in self.tokens[index : close + 1]:
                    if inner.kind == "ws":
                        self.out.space(inner.start, inner.end)
                    else:
                        self.out.put(inner.start, inner.end)
                self.prev = "}"
                return close + 1
            self.start_item(tok, text)
            self.out.put(tok.start, tok.end)
            self.out.newline(tok.end)
            self.out.depth += 1
            self.prev, self.nest = "{", 0
            return index + 1
        if text == "}":
            self.out.newline(tok.start)
            self.out.depth = max(self.out.depth - 1, 0)
            self.out.put(tok.start, tok.end)
            if self.out.depth == 0:
                self.out.newline(tok.end)
            self.prev, self.last_comment = "}", False
            return index + 1
        self.start_item(tok, text, self._next_text(index))
        self.out.put(tok.start, tok.end)
        self._track_nesting(text)
        self.prev, self.last_comment = text, False
        return index + 1

    def start_item(self, tok: _Tok, text: str, following: str = "") -> None:
        """Break the line before ``tok`` when it starts a member or a declaration."""
        if self.out.depth == 0:
            starts_decl = text in _DECL_WORDS and self.prev not in _DECL_PREFIXES
            if starts_decl and (self.out.content or not self.last_comment):
                self.out.blank_line(tok.start)
            return
        if self.nest:
            return
        if self.prev in (",", ";") and tok.kind in ("word", "string", "punct"):
            if text not in ("}", ")", "]"):
                self.out.newline(tok.start)
            return
        starts_member = tok.kind in ("word", "string") and following in ("?", ":")
        if starts_member and _TYPE_END.search(self.prev or ""):
            self.out.newline(tok.start)

    def comment(self, tok: _Tok) -> None:
        if self.out.depth == 0 and not self.last_comment:
            self.out.blank_line(tok.start)
        else:
            self.out.newline(tok.start)
        text = self.text(tok)
        if tok.kind == "block_comment" and _is_flattened_jsdoc(text):
            self._jsdoc(tok)
        else:
            self.out.put(tok.start, tok.end)
        self.out.newline(tok.end)
        self.last_comment = True
        self.prev = ""

    def _jsdoc(self, tok: _Tok) -> None:
        """``/** * a * * b */`` → ``/**`` · `` * a`` · `` *`` · `` * b`` · `` */``."""
        out = self.out
        body_start = tok.start + 3
        body_end = tok.end - 2 if self.text(tok).endswith("*/") else tok.end
        out.put(tok.start, body_start)
        stars = [m.start() for m in _STAR.finditer(self.src, body_start, body_end)]
        for number, star in enumerate(stars):
            out.newline(star)
            out._insert(_INDENT * out.depth + " ", star)
            out.content = True
            out.put(star, star + 1)
            seg_end = stars[number + 1] if number + 1 < len(stars) else body_end
            seg = self.src[star + 1 : seg_end]
            lead = len(seg) - len(seg.lstrip())
            stripped = seg.strip()
            if stripped:
                out._insert(" ", star + 1 + lead)
                out.put(star + 1 + lead, star + 1 + lead + len(stripped))
        if body_end < tok.end:
            out.newline(body_end)
            out._insert(_INDENT * out.depth + " ", body_end)
            out.content = True
            out.put(body_end, tok.end)

    def _has_comment(self, open_index: int, close_index: int) -> bool:
        return any(
            t.kind in ("block_comment", "line_comment")
            for t in self.tokens[open_index:close_index]
        )

    def _next_text(self, index: int) -> str:
        for tok in self.tokens[index + 1 :]:
            if tok.kind != "ws":
                return self.text(tok)
        return ""

    def _track_nesting(self, text: str) -> None:
        if text in ("(", "[", "<"):
            self.nest += 1
        elif text in (")", "]", ">") and self.nest:
            self.nest -= 1


def _is_flattened_jsdoc(comment: str) -> bool:
    """``/** * text */``: a JSDoc whose body starts with a lone ``*`` (a lost line break)."""
    return is_jsdoc(comment) and bool(re.match(r"\s+\*(\s|$)", comment[3:]))
