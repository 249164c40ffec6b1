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
            scanned = [e for e in protocol.examples if e.method == method.wire_name]
            assert found == stub_values.candidates(index, method, scanned), method

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


def _reference_nodes(value: object) -> list[object]:
    """The recursive walk of every node ``union_nodes`` replaced."""
    import dataclasses

    out = [value]
    if isinstance(value, (tuple, list)):
        for item in value:
            out += _reference_nodes(item)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for fld in dataclasses.fields(value):
            out += _reference_nodes(getattr(value, fld.name))
    return out


def test_union_nodes_equal_the_walk_of_every_node(
    protocols: list[ir.Protocol],
) -> None:
    from codegen.backends.python.unions import union_nodes

    inline = 0
    for protocol in protocols:
        root = (protocol.decls, protocol.methods)
        wanted = [
            node
            for node in _reference_nodes(root)
            if isinstance(node, (ir.UnionDecl, ir.InlineUnion))
        ]
        found = list(union_nodes(root))
        assert len(found) == len(wanted), protocol.id
        assert all(a is b for a, b in zip(found, wanted, strict=True)), protocol.id
        inline += sum(isinstance(node, ir.InlineUnion) for node in found)
    # the twin: both kinds are there to find, nested in fields and tuples
    assert inline > 10
    assert list(union_nodes(("a", 1, None, ir.Primitive(ir.PrimitiveKind.NULL)))) == []


def _reference_with_imports(
    template: str, context: dict[str, object], local: set[str] | tuple[()]
) -> str:
    """The two renderings ``render_with_imports`` replaced: one to see the names used,
    one with their imports."""
    from codegen.backends.python import imports
    from codegen.backends.render import render_template

    draft = render_template(template, import_groups=[], local_imports=[], **context)
    used = set(imports.names_in(draft))
    groups: list[list[str]] = [[], []]
    for module, names in imports._IMPORT_SOURCES:
        wanted = [name for name in names if name in used]
        if wanted:
            line = imports._import_line(module, imports.import_order(wanted))
            groups[0 if module in imports._STDLIB else 1].append(line)
    return render_template(
        template,
        import_groups=[group for group in groups if group],
        local_imports=imports.import_order([n for n in local if n in used]),
        **context,
    )


def test_imports_put_in_equal_a_second_rendering(
    protocols: list[ir.Protocol], monkeypatch: pytest.MonkeyPatch
) -> None:
    from codegen.backends import python as python_backend
    from codegen.backends import render
    from codegen.backends import server as server_backend
    from codegen.backends.python import imports

    renders: list[str] = []
    real_render = render.render_template

    def counting(name: str, **context: object) -> str:
        renders.append(name)
        return real_render(name, **context)

    monkeypatch.setattr(imports, "render_template", counting)
    fast = [
        {
            **python_backend.render(protocol, "pkg"),
            **server_backend.render(protocol, "pkg"),
        }
        for protocol in protocols
    ]
    # one rendering per module: models, methods, server, client of every spec
    assert len(renders) == 4 * len(protocols)
    from codegen.backends.python import bindings
    from codegen.backends.server import modules

    monkeypatch.setattr(bindings, "render_with_imports", _reference_with_imports)
    monkeypatch.setattr(modules, "render_with_imports", _reference_with_imports)
    monkeypatch.setattr(render, "render_template", counting)
    slow = [
        {
            **python_backend.render(protocol, "pkg"),
            **server_backend.render(protocol, "pkg"),
        }
        for protocol in protocols
    ]
    assert len(renders) == 4 * len(protocols) * 3  # the reference did render twice
    assert fast == slow


def test_imports_of_a_template_without_the_macro_render_twice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The twin: a template that lays imports out its own way is rendered again."""
    from codegen.backends import render
    from codegen.backends.python import imports

    (tmp_path / "own.py.j2").write_text(
        "{% for group in import_groups %}{% for line in group %}{{ line }}\n"
        "{% endfor %}{% endfor %}\nx: Any = Field()\n{{ local_imports }}\n",
        encoding="utf-8",
    )
    (tmp_path / "macro.py.j2").write_text(
        '{% import "_macros.j2" as m %}\n'
        '{{ m.imports(import_groups, ".models", local_imports) | trim }}\n\n'
        "x: Any = Field(Mine)\n",
        encoding="utf-8",
    )
    renders: list[str] = []
    real_render = render.render_template

    def counting(name: str, **context: object) -> str:
        renders.append(name)
        return real_render(name, **context)

    monkeypatch.setattr(imports, "render_template", counting)
    with render.overriding(tmp_path):
        own = imports.render_with_imports("own.py.j2", {}, {"Mine"})
        assert renders == ["own.py.j2", "own.py.j2"]
        assert own == _reference_with_imports("own.py.j2", {}, {"Mine"})
        assert "from typing import Any\nfrom pydantic import Field\n" in own
        assert "codegen" not in own  # no mark left behind
        renders.clear()
        macro = imports.render_with_imports("macro.py.j2", {}, {"Mine", "Unused"})
        assert renders == ["macro.py.j2"]
        assert macro == _reference_with_imports("macro.py.j2", {}, {"Mine", "Unused"})
        assert "from .models import (\n    Mine,\n)" in macro


def test_used_names_equal_the_names_of_the_token_loop() -> None:
    from codegen.backends.python.imports import names_in, used_names
    from tests.unit.test_speed_paths import MODULES, SNIPPETS

    extra = [
        "a if'x'else b\n",  # a keyword glued to a string
        "x = ...\ny = ...z\n",
        "x = a. b + a .\\\n c + a.# c\\\n d\n",
        "v = 1if x else 2\n",
        "q = 'open\n",  # an unterminated string: no token, the rest is code
    ]
    for text in [*SNIPPETS, *extra]:
        assert used_names(text) == set(names_in(text)), text
    assert len(MODULES) >= 20
    for module in MODULES:
        text = module.read_text(encoding="utf-8")
        assert used_names(text) == set(names_in(text)), module
    # the twins: strings, comments and attributes hide names; alias values show them
    assert used_names('x = "Field"  # Any\ny = t.Self\n') == {"x", "y", "t"}
    alias = 'T = TypeAliasType("T", "list[Annotated[int, Strict()]]")\n'
    assert {"Annotated", "Strict"} <= used_names(alias)


def _reference_json(value: object, ensure_ascii: bool = True) -> str:
    import json

    return json.dumps(value, indent=2, sort_keys=True, ensure_ascii=ensure_ascii)


def test_indented_json_equals_json_dumps_on_every_schema_bundle(
    protocols: list[ir.Protocol],
) -> None:
    from codegen.backends.json_text import dumps_indented
    from codegen.backends.jsonschema import build_schema

    for protocol in protocols:
        bundle = build_schema(protocol)
        for ascii_only in (True, False):
            assert dumps_indented(bundle, ascii_only) == _reference_json(
                bundle, ascii_only
            ), protocol.id


@pytest.mark.parametrize(
    "value",
    [
        {},
        [],
        {"a": {}, "b": [], "c": [[]], "d": [{}]},
        {"z": 1, "a": -2.5, "m": [True, False, None, 0, 1e300, 1e-7, 10**30]},
        {'é\u2028\x00"\\': ["😀", "\ud800", "tab\tnew\nline"]},
        ("tuple", ("nested",)),
        "just a string",
        3,
        None,
    ],
)
def test_indented_json_equals_json_dumps(value: object) -> None:
    from codegen.backends.json_text import dumps_indented

    for ascii_only in (True, False):
        assert dumps_indented(value, ascii_only) == _reference_json(value, ascii_only)


def test_indented_json_leaves_what_is_not_plain_to_json_dumps() -> None:
    """The twins: values the fast path does not write come out as json.dumps writes
    them, or fail as it fails."""
    import enum
    import math

    from codegen.backends.json_text import dumps_indented

    class Kind(str, enum.Enum):
        A = "a"

    odd = [
        {"x": math.nan, "y": [math.inf, -math.inf]},
        {1: "int key", 2: "another"},
        {"k": Kind.A, "n": True},
        [1, (2, [3.0])],
    ]
    for value in odd:
        assert dumps_indented(value) == _reference_json(value)
    loop: list[object] = []
    loop.append(loop)
    with pytest.raises(ValueError, match="Circular"):
        dumps_indented(loop)
    with pytest.raises(TypeError):
        dumps_indented({"a": object()})
    with pytest.raises(TypeError):
        dumps_indented({"a": 1, 2: "mixed keys"})
