"""A spec written to break the generator (tests/golden/hostile/names_and_docs): every name,
value and doc that reaches an output is hostile to that output's language.

The generated package must import, pass mypy --strict, ruff and black, and hold the hostile
text exactly as data (docstrings, wire names, enum values, error names) and nowhere as code;
the pyproject must be valid TOML; the built docs site must show the hostile text as text and
carry no live HTML from it (no element, attribute or link a doc comment put there).
Goldens (refreshed with ``pytest --update-goldens``): the diagnostics, ``models.py`` and the
docs' type pages (``types/*.md``, one after the other).
"""

from __future__ import annotations

import ast
import html.parser
import io
import json
import os
import shutil
import subprocess
import sys
import tokenize
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

from codegen.diagnostics import render_all
from codegen.pipeline import load_protocol, render_protocol
from codegen.tools import docs_site
from codegen.writer import apply_plan
from tests.golden_support import check_golden

REPO = Path(__file__).resolve().parent.parent.parent
CASE = REPO / "tests/golden/hostile/names_and_docs"
BIN = Path(sys.executable).parent
PACKAGE = "hostile_protocol"


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The case generated into a scratch root (as ``codegen generate`` would)."""
    root = tmp_path_factory.mktemp("hostile")
    shutil.copytree(CASE, root / "specs/hostile")
    (root / "pyproject.toml").write_text("", encoding="utf-8")
    outcome = load_protocol(root / "specs/hostile", root)
    assert outcome.ok(), render_all(outcome.diags, root)
    assert outcome.protocol is not None and outcome.config is not None
    plan = render_protocol(outcome.protocol, outcome.config)
    apply_plan(root, plan, ["generated/hostile"])
    yield root


def _package(root: Path) -> Path:
    return root / "generated/hostile/python" / PACKAGE


def test_goldens(generated: Path, update_goldens: bool) -> None:
    outcome = load_protocol(CASE, CASE)
    codes = sorted({d.code for d in outcome.diags.items})
    assert "ENU001" in codes  # Hostile.D repeats Hostile.A
    check_golden(
        CASE / "expected.diagnostics.txt",
        render_all(outcome.diags, CASE) + "\n",
        update_goldens,
    )
    for name, path in (("expected.models.py", _package(generated) / "models.py"),):
        check_golden(CASE / name, path.read_text(encoding="utf-8"), update_goldens)
    pages = sorted((generated / "generated/hostile/docs/types").glob("*.md"))
    check_golden(
        CASE / "expected.types.md",
        "".join(f"<!-- {p.name} -->\n{p.read_text(encoding='utf-8')}" for p in pages),
        update_goldens,
    )


def test_the_package_passes_the_checkers(generated: Path) -> None:
    package = _package(generated)
    for command in (
        [BIN / "mypy", "--strict", "--no-incremental", package],
        [BIN / "ruff", "check", "--isolated", package],
        [BIN / "black", "--check", "--quiet", package],
    ):
        done = subprocess.run(
            [str(part) for part in command],
            cwd=package.parent,
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 0, (command[0], done.stdout, done.stderr)


_IMPORT_CHECK = r'''
import json, sys
from hostile_protocol import models, methods, server, client, stub_data
evil = 'evil/"""<script>alert(1)</script>'
assert set(methods.METHODS) == {evil, "getFoo"}, sorted(methods.METHODS)
assert methods.METHODS[evil].sender == 'cli"""ent'
assert methods.METHODS[evil].receiver == "ser<b>ver"
assert "__import__(\"os\")" in stub_data.ERRORS[-32001]
fields = {f.serialization_alias or n for n, f in models.Foo.model_fields.items()}
assert {'a"b', "with space", "class", "__init__", "<script>"} <= fields, fields
assert models.Foo.__doc__ and 'Ends early? """ then __import__("os")' in models.Foo.__doc__
assert "<script>alert('doc')</script>" in models.Foo.__doc__
assert models.Hostile.D is models.Hostile.A  # the duplicate value is an alias
assert client.__doc__ and 'Hostile """; __import__("os")' in client.__doc__
print("ok")
'''


def test_hostile_text_is_data_in_the_package(generated: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(_package(generated).parent)}
    done = subprocess.run(
        [sys.executable, "-c", _IMPORT_CHECK],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr
    assert "pwned" not in done.stdout + done.stderr


def test_hostile_text_is_never_code(generated: Path) -> None:
    for path in sorted(_package(generated).glob("*.py")):
        source = path.read_text(encoding="utf-8")
        tree = ast.parse(source)
        for node in ast.walk(tree):
            assert not (isinstance(node, ast.Name) and node.id == "__import__"), path
            assert not (isinstance(node, ast.Attribute) and node.attr == "system"), path
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if "pwned" in token.string or "<script>" in token.string:
                assert token.type in (tokenize.STRING, tokenize.COMMENT), (path, token)
                if token.type == tokenize.COMMENT:
                    assert "\n" not in token.string and "\r" not in token.string


def test_pyproject_is_valid_toml(generated: Path) -> None:
    text = (generated / "generated/hostile/python/pyproject.toml").read_text()
    project = tomllib.loads(text)["project"]
    assert project["name"] == "hostile-protocol"
    assert project["description"].startswith('Typed bindings for Hostile """;')
    assert "\\N{x}" in project["description"] and "\n" not in project["description"]


def test_schema_keeps_the_docs_as_data(generated: Path) -> None:
    schema = json.loads(
        (generated / "generated/hostile/schema/hostile.schema.json").read_text()
    )
    assert "<script>alert('doc')</script>" in schema["$defs"]["Foo"]["description"]


class _Live(html.parser.HTMLParser):
    """Collects, inside the page's article (the generated content), every element and
    attribute a spec could have made live."""

    ALLOWED_SCHEMES = ("http://", "https://", "mailto:", "#", "../", "./")

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.depth = 0  # > 0 inside <article>
        self.problems: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "article":
            self.depth += 1
        if not self.depth:
            return
        if tag in ("script", "iframe", "img", "object", "embed", "style", "form"):
            self.problems.append(f"<{tag}> {attrs}")
        for name, value in attrs:
            if name.startswith("on"):
                self.problems.append(f"<{tag} {name}={value!r}>")
            if name in ("href", "src", "action") and value:
                plain = "".join(value.split()).lower()
                if ":" in plain.split("/")[0] and not plain.startswith(
                    self.ALLOWED_SCHEMES
                ):
                    self.problems.append(f"<{tag} {name}={value!r}>")

    def handle_endtag(self, tag: str) -> None:
        if tag == "article":
            self.depth -= 1

    def handle_data(self, data: str) -> None:
        if self.depth:
            self.text.append(data)


def test_docs_site_has_no_live_html_from_the_spec(
    generated: Path, tmp_path: Path
) -> None:
    built = docs_site.build(generated, tmp_path / "docs", offline_mermaid=False)
    assert (
        built.returncode == 0
    ), built.stderr  # --strict: every link and anchor resolves
    site = tmp_path / "docs/site/hostile"
    pages = sorted(site.rglob("*.html"))
    # The overview, methods, the types index, a page per declaration, the source.
    declarations = {"foo", "foo_1", "getfooparams", "getfooresult", "hostile", "unused"}
    assert {p.relative_to(site).as_posix() for p in pages} == {
        "index.html",
        "methods/index.html",
        "types/index.html",
        "source/input.ts.html",
        *(f"types/{d}/index.html" for d in declarations),
    }
    shown = []
    for page in pages:
        parser = _Live()
        parser.feed(page.read_text(encoding="utf-8"))
        assert not parser.problems, (page.name, parser.problems)
        shown.append(" ".join("".join(parser.text).split()))
    text = " ".join(shown)
    for visible in (
        "<script>alert('doc')</script>",
        "<img src=x onerror=alert('img')>",
        "<iframe src=\"javascript:alert('iframe')\"></iframe>",
        "code with <b>tags</b> and ``ticks`` inside",
        "<script>alert('in fence')</script>",
        "[ref]: javascript:alert('ref')",
        "{: onclick=\"alert('attr')\" }",
        "{: onclick=\"alert('block-attr')\" }",
    ):
        assert visible in text, visible
    # Foo and foo each have their own section and anchor.
    types_page = (site / "types/index.html").read_text(encoding="utf-8")
    assert 'href="foo/"' in types_page and 'href="foo_1/"' in types_page
