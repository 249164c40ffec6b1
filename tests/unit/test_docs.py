"""Docs: every method and type of the IR is documented; the site builds with --strict."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from codegen.backends.docs.diagrams import MAX_CLASSES, class_diagrams
from codegen.backends.docs.markdown import slug
from codegen.ir.index import Index
from codegen.pipeline import discover_specs, load_protocol
from codegen.tools import docs_site

REPO = Path(__file__).resolve().parent.parent.parent
SPECS = [
    p.name
    for p in discover_specs(REPO / "specs")
    if (REPO / "generated" / p.name / "docs").is_dir()
]


def _headings(text: str) -> list[str]:
    # Headings are Markdown: `list\\_changed` is the text `list_changed`.
    headings = re.findall(r"^## (.+)$", text, re.MULTILINE)
    return [re.sub(r"\\(.)", r"\1", heading) for heading in headings]


@pytest.mark.parametrize("spec", SPECS)
def test_every_method_and_type_has_a_section(spec: str) -> None:
    protocol = load_protocol(REPO / "specs" / spec, REPO).protocol
    assert protocol is not None
    docs = REPO / "generated" / spec / "docs"
    methods = _headings((docs / "methods.md").read_text(encoding="utf-8"))
    types = _headings((docs / "types.md").read_text(encoding="utf-8"))
    assert methods == [m.wire_name for m in protocol.methods]
    assert sorted(types) == sorted(d.name for d in protocol.decls)
    index = (docs / "index.md").read_text(encoding="utf-8")
    for method in protocol.methods:
        assert f"(methods.md#{slug(method.wire_name)})" in index
    assert "```mermaid\nsequenceDiagram" in index
    diagram = (docs / "diagram.md").read_text(encoding="utf-8")
    assert "classDiagram" in diagram
    for decl in protocol.decls:
        assert f"class {decl.name}" in diagram


@pytest.mark.parametrize("spec", SPECS)
def test_every_section_names_its_source_line(spec: str) -> None:
    text = (REPO / "generated" / spec / "docs" / "types.md").read_text(encoding="utf-8")
    sections = text.split("\n## ")[1:]
    assert sections and all(
        re.search(r"Source: `(specs/[^`]+:\d+|synthesized)`", s) for s in sections
    )


@pytest.mark.parametrize("spec", SPECS)
def test_class_diagrams_are_capped_and_cover_every_declaration(spec: str) -> None:
    protocol = load_protocol(REPO / "specs" / spec, REPO).protocol
    assert protocol is not None
    shown: set[str] = set()
    for _, text in class_diagrams(Index(protocol)):
        classes = set(re.findall(r"^  class (\S+) \{$", text, re.MULTILINE))
        assert 0 < len(classes) <= MAX_CLASSES
        shown |= classes
        # The rejecting side: an edge never points at a class this diagram leaves out.
        for left, right in re.findall(
            r"^  (\S+) (?:-->|<\|--|<\|\.\.) (\S+)", text, re.MULTILINE
        ):
            assert {left, right} <= classes, (left, right)
    assert {d.name for d in protocol.decls} <= shown


def test_slug_matches_python_markdown() -> None:
    assert slug("notify/sessionAdded") == "notifysessionadded"
    assert slug("host/config.get") == "hostconfigget"
    assert slug("SessionState") == "sessionstate"


def test_site_builds_strictly_and_a_broken_anchor_fails(tmp_path: Path) -> None:
    ok = docs_site.build(REPO, tmp_path / "good", offline_mermaid=False)
    assert ok.returncode == 0, ok.stderr
    assert (tmp_path / "good/site/search/search_index.json").is_file()
    for spec in SPECS:
        assert (tmp_path / f"good/site/{spec}/types/index.html").is_file()
    # The rejecting twin: one broken anchor must fail the strict build.
    broken_repo = tmp_path / "repo"
    shutil.copytree(REPO / "generated", broken_repo / "generated")
    page = broken_repo / "generated" / SPECS[0] / "docs" / "index.md"
    page.write_text(page.read_text(encoding="utf-8") + "\n[x](types.md#no-such-type)\n")
    bad = docs_site.build(broken_repo, tmp_path / "bad", offline_mermaid=False)
    assert bad.returncode != 0 and "no-such-type" in bad.stderr
