"""Doc comments as Markdown for the docs site: JSDoc links resolved, links that lead nowhere
on the site turned into text, then encoded by ``escape``.

Phase: backend helper (docs).
Inputs: doc text from the spec (hostile included) and a resolver from a declaration name
to its page (relative to the page being written).
Outputs: Markdown blocks (``block``), one line (``inline``), or a first sentence
(``summary``).
Guarantees: ``{@link Name}`` / ``{@link Name.member | label}`` to a declaration of the spec
becomes a link to its page, ``{@link https://... | label}`` an external link, any other
``{@link target | label}`` its label as text; rustdoc's ``[`Name`]`` to a declaration a
link to its page; a Markdown link whose target is neither
http(s) nor mailto (``/guide/state-model.html``, ``#anchor``, ``other.md``: pages of the
spec's own site, which ours does not have) keeps its text and loses the link, so no doc
comment can put a dead link on the site.  Everything then goes through ``escape.md_block``
/ ``escape.md_inline``, so the safety guarantees of those encoders hold unchanged (a
resolved link is a relative path this module built; the encoders keep only http(s),
mailto and relative targets).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from codegen.backends.escape import md_block, md_inline

Resolver = Callable[[str], str | None]

_JSDOC_LINK = re.compile(
    r"\{@(?:link|linkcode|linkplain)\s+([^}|\s]+)\s*(?:\|\s*([^}]*))?\}"
)
_MD_LINK = re.compile(r"(!?)\[([^\]\n]*)\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"\n]*\")?\s*\)")
_REF_DEF = re.compile(r"^( {0,3})\[([^\]\n]*)\]:[ \t]*<?([^>\s]*)>?.*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_BACKTICKS = re.compile(r"`+")
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
_EXTERNAL = re.compile(r"^(https?:|mailto:)", re.IGNORECASE)


def _external(target: str) -> bool:
    return bool(_EXTERNAL.match(target.strip()))


def _label(text: str) -> str:
    """Link text shown as written (no emphasis, no nested brackets); the encoder that
    runs after this escapes the HTML."""
    return re.sub(r"([\\`*_\[\]{}])", r"\\\1", " ".join(text.split()))


def _outside_code(line: str, rewrite: Callable[[str], str]) -> str:
    """``rewrite`` applied to one line with its inline code held out: each code span is
    replaced by a placeholder first, so a link whose label holds code (``[see `x`](/a)``)
    is still seen whole, and a link written inside code is never touched."""
    if _HOLD_OPEN in line or _HOLD_CLOSE in line:  # spec text using our placeholders
        return "".join(_code_parts(line, rewrite))
    held: list[str] = []

    def hold(code: str) -> str:
        held.append(code)
        return f"{_HOLD_OPEN}{len(held) - 1}{_HOLD_CLOSE}"

    masked = "".join(_code_parts(line, lambda part: part, hold))
    return _HELD.sub(lambda m: held[int(m.group(1))], rewrite(masked))


_HOLD_OPEN, _HOLD_CLOSE = "\ue000", "\ue001"
_HELD = re.compile(f"{_HOLD_OPEN}(\\d+){_HOLD_CLOSE}")


def _code_parts(
    line: str,
    text: Callable[[str], str],
    code: Callable[[str], str] = lambda part: part,
) -> list[str]:
    """``line`` cut into text and inline code, each passed through its function."""
    out: list[str] = []
    position = 0
    while True:
        opening = _BACKTICKS.search(line, position)
        if opening is None:
            out.append(text(line[position:]))
            return out
        closing = next(
            (
                c
                for c in _BACKTICKS.finditer(line, opening.end())
                if len(c.group(0)) == len(opening.group(0))
            ),
            None,
        )
        if closing is None:  # a stray run: text, as the encoder will show it
            out.append(text(line[position : opening.end()]))
            position = opening.end()
            continue
        out.append(text(line[position : opening.start()]))
        out.append(code(line[opening.start() : closing.end()]))
        position = closing.end()


def _links(text: str, resolve: Resolver) -> str:
    if "[" not in text and "{" not in text and "`" not in text:
        return text  # no link of any kind and no code: every step below keeps it as is

    def jsdoc(match: re.Match[str]) -> str:
        target, label = match.group(1), (match.group(2) or "").strip()
        if _external(target):
            return f"[{label or target}]({target})"
        page = resolve(target.split(".", 1)[0].split("#", 1)[0])
        shown = label or target
        if page is not None:
            return f"[{_label(shown)}]({page})"
        return shown

    def markdown(match: re.Match[str]) -> str:
        image, label, target = match.group(1), match.group(2), match.group(3)
        if _external(target) and not image:
            return match.group(0)
        return label  # a page of the spec's own site (or an image): its text only

    def rewrite(part: str) -> str:
        # Links the spec wrote first, so the links resolved here are not taken for them.
        return _JSDOC_LINK.sub(jsdoc, _MD_LINK.sub(markdown, part))

    lines: list[str] = []
    fence: str | None = None
    for line in text.split("\n"):
        opening = _FENCE.match(line)
        if fence is not None:
            if (
                opening
                and opening.group(1)[0] == fence[0]
                and len(opening.group(1)) >= len(fence)
            ):
                fence = None
            lines.append(line)
            continue
        if opening:
            fence = opening.group(1)
            lines.append(line)
            continue
        definition = _REF_DEF.match(line)
        # A definition to a page of the spec's site would make ``[text][label]`` a dead
        # link: its text only.  One with a scheme (``javascript:``) is left for the encoder,
        # which shows it as text, brackets included.
        if definition and not _SCHEME.match(definition.group(3)):
            lines.append(
                f"{definition.group(1)}{definition.group(2)}: {definition.group(3)}"
            )
            continue
        lines.append(_rustdoc(_outside_code(line, rewrite), resolve))
    return "\n".join(lines)


_RUSTDOC_LINK = re.compile(r"\[`([A-Za-z_][A-Za-z0-9_]*)`\](?![(\[:])")


def _rustdoc(line: str, resolve: Resolver) -> str:
    """Rustdoc's intra-doc links (``[`ToolCallId`]``) to a declaration of the spec: a link
    to its page; any other stays as written.  Not in a line with a longer code span (one
    could hold the brackets as code)."""
    if "``" in line:
        return line

    def link(match: re.Match[str]) -> str:
        page = resolve(match.group(1))
        return f"[`{match.group(1)}`]({page})" if page is not None else match.group(0)

    return _RUSTDOC_LINK.sub(link, line)


def block(text: str, resolve: Resolver) -> str:
    """Doc text as Markdown blocks."""
    return md_block(_links(text, resolve))


def inline(text: str, resolve: Resolver) -> str:
    """Doc text on one line (a table cell)."""
    return md_inline(_links(text, resolve))


_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z(`\"'])")


def summary(text: str, resolve: Resolver, limit: int = 160) -> str:
    """The first sentence of the first paragraph, on one line (an index's description)."""
    paragraph = re.split(r"\n\s*\n", text.strip(), maxsplit=1)[0]
    first = " ".join(_SENTENCE.split(" ".join(paragraph.split()), maxsplit=1)[:1])
    if len(first) > limit:
        cut = first[:limit].rsplit(" ", 1)[0]
        first = cut + " …"
    return inline(first, resolve)
