"""What made generation linear in spec size gives exactly what the slower code gave.

- The docs' "used by" line: the methods using each type, found in one walk of the
  methods, against the scan of every method per declaration it replaced.
- The stub results: each method's examples grouped once, against the scan of all
  examples per method.
- The escapes: ``_visible`` (a printable fast path, then only non-ASCII runs looked up)
  and ``md_heading`` (one translate) against the per-character code they replaced, on
  every code point.
- The collector pause of the pipeline: off inside, the caller's state after.
"""

from __future__ import annotations

import gc
import html
import unicodedata
from pathlib import Path

import pytest

from codegen import ir
from codegen.backends import escape
from codegen.backends.docs import markdown
from codegen.backends.escape import md_code
from codegen.backends.server import stub_values
from codegen.ir.index import Index
from codegen.pipeline import collector_paused, discover_specs, load_protocol

REPO = Path(__file__).resolve().parent.parent.parent


@pytest.fixture(scope="module")
def protocols() -> list[ir.Protocol]:
    out = []
    for spec_dir in discover_specs(REPO / "specs"):
        outcome = load_protocol(spec_dir, REPO)
        assert outcome.protocol is not None
        out.append(outcome.protocol)
    return out


def _reference_used_by(docs: markdown._Docs, decl: ir.Decl) -> str:
    """The per-declaration scan of every method the docs used before."""
    places = [
        f"[{md_code(m.wire_name)}](../methods.md#{docs.method_anchors[m.wire_name]})"
        for m in docs.protocol.methods
        if decl.name in docs.index.references(m.params)
        or decl.name in docs.index.references(m.result)
    ]
    places += [
        docs._type_ref(name, "")
        for name in dict.fromkeys(u for u, _, _ in docs.users.get(decl.name, []))
        if name != decl.name
    ]
    return ", ".join(places)


def test_used_by_equals_the_scan_of_every_method(
    protocols: list[ir.Protocol],
) -> None:
    linked = 0
    for protocol in protocols:
        docs = markdown._Docs(protocol)
        for decl in protocol.decls:
            shown = docs._used_by(decl)
            assert shown == _reference_used_by(docs, decl), (protocol.id, decl.name)
            linked += "../methods.md#" in shown
    # the twin: the comparison is not of empty lines (types do name their methods)
    assert linked > 20


def test_stub_candidates_from_grouped_examples_equal_the_scan(
    protocols: list[ir.Protocol],
) -> None:
    from_examples = 0
    for protocol in protocols:
        index = Index(protocol)
        grouped = stub_values.examples_by_method(protocol)
        for method in protocol.methods:
            if method.kind is not ir.MethodKind.REQUEST:
                continue
            mine = grouped.get(method.wire_name, [])
            found = stub_values.candidates(index, method, mine)
            assert found == stub_values.candidates(index, method), method.wire_name
            if any(origin.startswith("example ") for origin, _ in found):
                from_examples += 1
                # the twin: the examples handed in are the ones used
                assert stub_values.candidates(index, method, []) != found
    assert from_examples > 5


def _reference_visible(text: str, keep: str = "") -> str:
    return "".join(
        ch if ch in keep or unicodedata.category(ch) not in escape._UNSHOWN else " "
        for ch in text
    )


def _reference_heading(text: str) -> str:
    out = []
    for ch in " ".join(_reference_visible(text).split()):
        if ch in "\\`*_[]{}#":
            out.append("\\" + ch)
        elif ch in "<>&":
            out.append(html.escape(ch))
        else:
            out.append(ch)
    return "".join(out) or "\\_"


EVERY_CHARACTER = [chr(code) for code in range(0x110000)]


def test_visible_equals_the_per_character_lookup_on_every_code_point() -> None:
    for ch in EVERY_CHARACTER:
        assert escape._visible(ch) == _reference_visible(ch), hex(ord(ch))
    for start in range(0, len(EVERY_CHARACTER), 1000):
        run = "a\n" + "".join(EVERY_CHARACTER[start : start + 1000]) + "\tz"
        for keep in ("", "\n", "\n\t"):
            assert escape._visible(run, keep) == _reference_visible(run, keep)


def test_visible_blanks_what_must_not_show() -> None:
    """The twin: the fast path is no identity; unshown characters become spaces."""
    text = "a\u202eb\x00c\u2028d\ud800e\U000e0001f\ng"
    assert escape._visible(text) == "a b c d e f g"
    assert escape._visible(text, keep="\n") == "a b c d e f\ng"
    assert escape._visible("élan 😀 ok") == "élan 😀 ok"


def test_md_heading_equals_the_per_character_escapes() -> None:
    for start in range(0, len(EVERY_CHARACTER), 1000):
        run = "".join(EVERY_CHARACTER[start : start + 1000])
        assert escape.md_heading(run) == _reference_heading(run)
    assert escape.md_heading("a_b<c>&#") == "a\\_b&lt;c&gt;&amp;\\#"
    assert escape.md_heading("\x00") == "\\_"


def test_collector_paused_inside_and_restored_after() -> None:
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(RuntimeError), collector_paused():
        raise RuntimeError("a failing render")
    assert gc.isenabled()
    # the twin: a caller that had paused it keeps it paused
    gc.disable()
    try:
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    finally:
        gc.enable()


@pytest.mark.parametrize(
    "snippet",
    [
        "x = 1  # Field",  # a comment at the very end: its words are no names
        "x = 1  # Field\n\n",
        "# only Field\n",
        "x = (1 +  # Any\n     y)\n",
        "a.b  # c.d\ne = f\n",
        "",
    ],
)
def test_names_in_skips_comments_and_space_wherever_they_end(snippet: str) -> None:
    from codegen.backends.python.imports import names_in
    from tests.unit.test_speed_paths import reference_names

    assert names_in(snippet) == reference_names(snippet)
    # the twin: a name outside the comment is seen
    assert "Field" in names_in(snippet.replace("# ", "Field + 1 # ", 1)) or (
        "#" not in snippet
    )
