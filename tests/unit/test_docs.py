"""Docs: every method and type of the IR is documented (a section per method, a page per
type with its own diagram and source link); the site builds with --strict and its link
check fails on a dead link; search hits name their protocol and item."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from codegen.backends.docs import text
from codegen.backends.docs.diagrams import MAX_NEIGHBOURS
from codegen.backends.docs.markdown import render, slug
from codegen.pipeline import discover_specs, load_protocol
from codegen.tools import docs_links, docs_search, docs_site

REPO = Path(__file__).resolve().parent.parent.parent
SPECS = [
    p.name
    for p in discover_specs(REPO / "specs")
    if (REPO / "generated" / p.name / "docs").is_dir()
]
_SOURCE = re.compile(
    r"source (?:\[`[^`]+:(\d+)`\]\(((?:\.\./)+)([^)#]+)#L(\d+)\)|synthesized)"
)


def _headings(page: str) -> list[str]:
    # Headings are Markdown: `list\\_changed` is the text `list_changed`.
    headings = re.findall(r"^## (.+)$", page, re.MULTILINE)
    return [re.sub(r"\\(.)", r"\1", heading) for heading in headings]


def _site(spec: str) -> dict[str, object]:
    data: dict[str, object] = json.loads(
        (REPO / "generated" / spec / "docs" / "site.json").read_text(encoding="utf-8")
    )
    return data


@pytest.mark.parametrize("spec", SPECS)
def test_every_method_has_a_section_and_every_type_a_page(spec: str) -> None:
    protocol = load_protocol(REPO / "specs" / spec, REPO).protocol
    assert protocol is not None
    docs = REPO / "generated" / spec / "docs"
    methods = _headings((docs / "methods.md").read_text(encoding="utf-8"))
    assert methods == [m.wire_name for m in protocol.methods]
    pages = dict(_site(spec)["types"])  # type: ignore[call-overload]
    assert sorted(pages) == sorted(d.name for d in protocol.decls)
    on_disk = {p.relative_to(docs).as_posix() for p in (docs / "types").glob("*.md")}
    assert on_disk == set(pages.values()) | {"types/index.md"}
    for name, page in pages.items():
        first = (docs / page).read_text(encoding="utf-8").split("\n")[1]
        assert re.sub(r"\\(.)", r"\1", first) == f"# {name}"
    index = (docs / "index.md").read_text(encoding="utf-8")
    for method in protocol.methods:
        assert f"(methods.md#{slug(method.wire_name)})" in index
    if protocol.methods:
        assert "```mermaid\nsequenceDiagram" in index


@pytest.mark.parametrize("spec", SPECS)
def test_every_type_page_links_its_source_line(spec: str) -> None:
    docs = REPO / "generated" / spec / "docs"
    for _, page in _site(spec)["types"]:  # type: ignore[attr-defined]
        found = _SOURCE.search((docs / page).read_text(encoding="utf-8"))
        assert found, page
        if found.group(1) is None:
            continue  # synthesized: no place in a source
        label_line, up, path, line = found.groups()
        assert label_line == line
        # The link climbs from the page's folder to the repository, then names the file.
        assert len(up) // 3 == len(Path(page).parent.parts) + 3
        source = REPO / path
        assert source.is_file(), path
        assert int(line) <= len(source.read_text(encoding="utf-8").split("\n"))


@pytest.mark.parametrize("spec", SPECS)
def test_each_type_has_its_own_small_diagram(spec: str) -> None:
    docs = REPO / "generated" / spec / "docs"
    with_diagram = 0
    for name, page in _site(spec)["types"]:  # type: ignore[attr-defined]
        body = (docs / page).read_text(encoding="utf-8")
        diagrams = re.findall(r"```mermaid\n(.*?)```", body, re.DOTALL)
        assert len(diagrams) <= 1, page
        if not diagrams:
            continue
        with_diagram += 1
        classes = re.findall(r"^  class (\S+)(?: \{)?$", diagrams[0], re.MULTILINE)
        assert classes[0] == re.sub(r"[^A-Za-z0-9_$./-]", "_", name), page
        assert len(classes) <= 1 + 2 * MAX_NEIGHBOURS
        # The rejecting side: an edge never points at a class the diagram leaves out.
        for left, right in re.findall(
            r"^  (\S+) (?:-->|<\|--|<\|\.\.) (\S+)", diagrams[0], re.MULTILINE
        ):
            assert {left, right} <= set(classes), (page, left, right)
    assert with_diagram > 0


def test_slug_matches_python_markdown() -> None:
    assert slug("notify/sessionAdded") == "notifysessionadded"
    assert slug("host/config.get") == "hostconfigget"
    assert slug("SessionState") == "sessionstate"


def test_doc_links_resolve_or_become_text() -> None:
    pages = {"Foo": "foo.md"}

    def resolve(name: str) -> str | None:
        return pages.get(name)

    assert text.inline("See {@link Foo}.", resolve) == "See [Foo](foo.md)."
    assert (
        text.inline("See {@link Foo.bar | the bar}.", resolve)
        == "See [the bar](foo.md)."
    )
    assert text.inline("See {@link Missing}.", resolve) == "See Missing."
    # A page of the spec's own site (absolute, relative): its text, no link.
    assert (
        text.inline(
            "See [General fields: `_meta`](/spec/basic#meta) for more.", resolve
        )
        == "See General fields: `_meta` for more."
    )
    assert text.inline("Read [this](other.md).", resolve) == "Read this."
    # An external link stays; a link written inside code stays code.
    assert "(https://example.com/x)" in text.inline(
        "[x](https://example.com/x)", resolve
    )
    assert text.inline("`[a](/b)` and [c](/d)", resolve) == "`[a](/b)` and c"
    # Rustdoc's intra-doc links: to a declaration a link, to anything else as written.
    assert text.inline("a [`Foo`] id", resolve) == "a [`Foo`](foo.md) id"
    assert text.inline("a [`Bar`] id", resolve) == "a [`Bar`] id"


def test_search_hits_are_titled_by_protocol_and_item() -> None:
    docs = [
        {"location": "", "title": "Protocol reference", "text": "home"},
        {"location": "p/", "title": "Overview", "text": ""},
        {"location": "p/#p", "title": "P", "text": "what p is"},
        {"location": "p/#methods", "title": "Methods", "text": "table"},
        {"location": "p/methods/", "title": "Methods", "text": ""},
        {"location": "p/methods/#p-methods", "title": "P: methods", "text": "back"},
        {"location": "p/methods/#initialize", "title": "initialize", "text": "request"},
        {"location": "p/types/foo/", "title": "Foo", "text": ""},
        {"location": "p/types/foo/#foo", "title": "Foo", "text": "a foo"},
    ]
    out = docs_search.retitled(docs, {"p": "Proto"})
    titles = {d["location"]: d["title"] for d in out}
    assert titles == {
        "": "Protocol reference",
        "p/": "Proto: overview",
        "p/#methods": "Methods · Proto",
        "p/methods/": "Proto: methods",
        "p/methods/?method=initialize": "initialize · Proto method",
        "p/types/foo/": "Foo · Proto type",
    }
    foo = next(d for d in out if d["location"] == "p/types/foo/")
    assert foo["text"] == "a foo"  # the h1 section folded into its page
    method = next(d for d in out if d["location"] == "p/methods/?method=initialize")
    assert method["boost"] == docs_search.METHOD_BOOST
    # The rejecting twin: a protocol not named keeps its titles.
    assert docs_search.retitled(docs, {}) == docs


def test_link_check_finds_dead_files_anchors_and_schemes(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "a/index.html").write_text(
        '<h1 id="top">A</h1><a href="#top">ok</a><a href="../b.html#x">ok</a>'
        '<a href="https://example.com/">ext</a>',
        encoding="utf-8",
    )
    (tmp_path / "b.html").write_text(
        '<p id="x">b</p><a href="a/">ok</a>', encoding="utf-8"
    )
    good = docs_links.check(tmp_path)
    assert good.problems == [] and good.external == 1
    (tmp_path / "c.html").write_text(
        '<a href="a/#nowhere">1</a><a href="gone.html">2</a>'
        '<a href="javascript:alert(1)">3</a><img src="/missing.png">',
        encoding="utf-8",
    )
    bad = docs_links.check(tmp_path)
    assert len(bad.problems) == 4, bad.problems


# The site of two small protocols: the build is as strict as the whole site's, in a fraction
# of make test's time; make docs and make docs-check (CI) build every spec's.
SITE_SPECS = ["openctx", "acp"]


def test_site_builds_strictly_and_a_broken_anchor_fails(tmp_path: Path) -> None:
    two = tmp_path / "two"
    for spec in SITE_SPECS:
        shutil.copytree(REPO / "generated" / spec, two / "generated" / spec)
        shutil.copytree(REPO / "specs" / spec, two / "specs" / spec)
    ok = docs_site.build(two, tmp_path / "good", offline_mermaid=False)
    assert ok.returncode == 0, ok.stderr
    site = tmp_path / "good/site"
    index = json.loads((site / "search/search_index.json").read_text(encoding="utf-8"))
    titles = {d["title"] for d in index["docs"]}
    for spec in SITE_SPECS:
        assert (site / f"{spec}/types/index.html").is_file()
        title = str(_site(spec)["title"])
        assert f"{title}: methods" in titles
        home = (site / "index.html").read_text(encoding="utf-8")
        assert f'href="{spec}/"' in home
    # No hit repeats another: the old layout listed "initialize" three times.
    locations = [d["location"] for d in index["docs"]]
    assert len(locations) == len(set(locations))
    # The rejecting twin: one broken anchor in the same copy must fail the strict build.
    page = two / "generated" / "openctx" / "docs" / "index.md"
    page.write_text(
        page.read_text(encoding="utf-8") + "\n[x](types/index.md#no-such-type)\n"
    )
    bad = docs_site.build(two, tmp_path / "bad", offline_mermaid=False)
    assert bad.returncode != 0 and "no-such-type" in bad.stderr


def _field_rows(page: str) -> dict[str, str]:
    rows = [line.split(" | ") for line in page.splitlines() if line.startswith("| `")]
    return {row[0].strip("| `"): row[-1] for row in rows}


def test_a_field_read_otherwise_than_written_says_how_each_side_sees_it() -> None:
    outcome = load_protocol(REPO / "tests" / "golden" / "rust" / "asymmetric_fields")
    assert outcome.protocol is not None
    pages = render(outcome.protocol)
    opened = _field_rows(pages["docs/types/open.md"])
    assert "Read from `de_renamed`." in opened["ser_renamed"]
    assert "Never written." in opened["WRITE-ONLY"]
    assert "Read from `aliased` or `other` or `third`." in opened["ALIASED"]
    assert "a reader requires it" in opened["FLAG"]
    assert "Ignored on read" in opened["READ-ONLY"]
    # Twin: the same skip_deserializing in a struct that refuses unknown keys.
    closed = _field_rows(pages["docs/types/closed.md"])
    assert "A reader rejects the key." in closed["read_only"]
    assert "Ignored on read" not in closed["read_only"]


def test_a_symmetric_field_gets_no_direction_note() -> None:
    outcome = load_protocol(REPO / "specs" / "acp1")
    assert outcome.protocol is not None
    for name, page in render(outcome.protocol).items():
        if name.startswith("docs/types/"):
            for row in _field_rows(page).values():
                assert "Read from" not in row and "Never written" not in row, name
