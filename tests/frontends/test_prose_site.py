"""Prose specs as documentation sites write them: includes, example fences, named integer
aliases, constant namespaces, names the prose only uses; the fixture site generates with
zero edits and its bindings keep an integer an integer."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from codegen import ir
from codegen.diagnostics import Diagnostics
from codegen.frontends.prose.fences import declaration_blocks
from codegen.frontends.prose.markdown_blocks import read_blocks
from codegen.frontends.prose.methods import DocText
from codegen.frontends.prose.numbers import integer_aliases
from codegen.pipeline import load_protocol

SITE = Path(__file__).parent / "prose_fixtures" / "site"
REPO = Path(__file__).resolve().parent.parent.parent


def _decls(outcome: object) -> dict[str, ir.Decl]:
    protocol = outcome.protocol
    assert protocol is not None
    return {d.name: d for d in protocol.decls}


def test_the_site_reads_with_zero_errors_through_its_includes() -> None:
    outcome = load_protocol(SITE, REPO)
    assert not outcome.diags.has_errors(), outcome.diags.items
    decls = _decls(outcome)
    # From the page's folder, from _includes/, and include_relative from a subfolder.
    assert {"Position", "ItemsParams", "ItemKind"} <= set(decls)
    assert [m.wire_name for m in outcome.protocol.methods] == ["items"]  # type: ignore[union-attr]
    files = {d.span.file.rsplit("/", 2)[-2] for d in decls.values()}
    assert {"pages", "sections"} <= files  # spans point into the included pages
    skipped = [d for d in outcome.diags.items if d.code == "PRS001"]
    assert len(skipped) == 3


def _copy(tmp_path: Path) -> Path:
    import shutil

    site = tmp_path / "site"
    shutil.copytree(SITE, site)
    return site


def test_a_missing_include_is_reported_at_its_directive(tmp_path: Path) -> None:
    site = _copy(tmp_path)
    index = site / "pages" / "index.md"
    index.write_text(
        index.read_text(encoding="utf-8") + "\n{% include nowhere.md %}\n",
        encoding="utf-8",
    )
    outcome = load_protocol(site, tmp_path)
    errors = [d for d in outcome.diags.items if d.code == "SYN002"]
    assert len(errors) == 1 and "nowhere.md" in errors[0].message
    assert errors[0].span.file == "site/pages/index.md" and errors[0].span.line == 11


def test_include_relative_does_not_look_in_the_include_folder(tmp_path: Path) -> None:
    site = _copy(tmp_path)
    index = site / "pages" / "index.md"
    text = index.read_text(encoding="utf-8").replace(
        '{% include "methods.md" %}', "{% include_relative methods.md %}"
    )
    index.write_text(text, encoding="utf-8")
    outcome = load_protocol(site, tmp_path)
    assert any(
        d.code == "SYN002" and "methods.md" in d.message for d in outcome.diags.items
    )


def test_an_include_cycle_reads_each_page_once(tmp_path: Path) -> None:
    site = _copy(tmp_path)
    items = site / "pages" / "sections" / "items.md"
    items.write_text(
        items.read_text(encoding="utf-8") + "\n{% include_relative ../index.md %}\n",
        encoding="utf-8",
    )
    outcome = load_protocol(site, tmp_path)
    assert not outcome.diags.has_errors(), outcome.diags.items  # no REF003 twice


def _fences(text: str) -> tuple[list[str], Diagnostics]:
    diags = Diagnostics()
    blocks = declaration_blocks(read_blocks(text), DocText("a.md", text), diags)
    return [b.text for b in blocks], diags


def test_fences_that_declare_are_read_and_examples_are_not() -> None:
    kept, diags = _fences(
        "# T\n\n```ts\ninterface A { a: string }\n```\n\n"
        "For example:\n\n```ts\nconst a: A = { a: 'x' }\n```\n\n"
        "```ts\nclient.request('x', {})\n```\n\n"
        '```json\n{"a": "x"}\n```\n\n'
        "```ts\n  a: 'x',\n  b: 2\n```\n"
    )
    assert kept == ["interface A { a: string }"]
    reasons = [d.message for d in diags.items]
    assert len(reasons) == 3
    assert "example" in reasons[0] and "illustration" in reasons[1]
    assert "fragment" in reasons[2]


def test_a_broken_declaration_is_still_read_so_its_error_shows() -> None:
    kept, diags = _fences("```ts\ninterface A { a: string\n```\n")
    assert kept == ["interface A { a: string"] and not diags.items
    # ...and a declaration after an ordinary paragraph is a declaration.
    kept, _ = _fences("The type:\n\n```ts\ntype B = 'x' | 'y'\n```\n")
    assert kept == ["type B = 'x' | 'y'"]


def test_named_number_aliases_by_name_and_by_docs() -> None:
    def alias(name: str, docs: str = "") -> ir.AliasDecl:
        return ir.AliasDecl(
            name,
            ir.Primitive(ir.PrimitiveKind.NUMBER),
            lifecycle=ir.Lifecycle(docs=docs),
        )

    out = {
        d.name: d.target  # type: ignore[union-attr]
        for d in integer_aliases(
            (
                alias("integer"),
                alias("uinteger"),
                alias("Count", "An unsigned 32-bit integer."),
                alias("Line", "A signed integer in the range -2^31 to 2^31 - 1."),
                alias("decimal", "Defines a decimal number."),
                alias("Amount", "How much, in any unit."),
            )
        )
    }
    integer = ir.PrimitiveKind.INTEGER
    assert out["integer"] == ir.Primitive(integer)
    assert out["uinteger"] == ir.Primitive(integer, ir.Constraints(minimum=0))
    assert out["Count"] == ir.Primitive(integer, ir.Constraints(0, 2**32 - 1))
    assert out["Line"] == ir.Primitive(integer, ir.Constraints(-(2**31), 2**31 - 1))
    assert out["decimal"] == ir.Primitive(ir.PrimitiveKind.NUMBER)
    assert out["Amount"] == ir.Primitive(ir.PrimitiveKind.NUMBER)


def test_constant_namespaces_are_enums() -> None:
    decls = _decls(load_protocol(SITE, REPO))
    kind = decls["ItemKind"]
    assert isinstance(kind, ir.EnumDecl) and not kind.open
    assert [(m.name, m.value) for m in kind.members] == [
        ("Text", "text"),
        ("Link", "link"),
    ]
    assert kind.members[0].lifecycle.docs == "A plain text item."


def test_a_namespace_of_code_is_not_an_enum(tmp_path: Path) -> None:
    site = _copy(tmp_path)
    page = site / "pages" / "base-types.md"
    page.write_text(
        page.read_text(encoding="utf-8")
        .replace(
            "export const Link = 'link';",
            "export const Link = 'link';\n\texport function is(x: any) { return true; }",
        )
        .replace("export type ItemKind = 'text' | 'link';", ""),
        encoding="utf-8",
    )
    decls = _decls(load_protocol(site, tmp_path))
    assert "ItemKind" not in decls  # code: the TypeScript frontend's note says so


def test_a_name_only_the_prose_uses_can_be_declared_external(tmp_path: Path) -> None:
    decls = _decls(load_protocol(SITE, REPO))
    array = decls["array"]
    assert isinstance(array, ir.AliasDecl) and array.kind is ir.AliasKind.EXTERNAL
    site = _copy(tmp_path)
    toml = site / "spec.toml"
    text = toml.read_text(encoding="utf-8")
    toml.write_text(
        text[: text.index("[external.array]")] + text[text.index("[transport]") :]
    )
    outcome = load_protocol(site, tmp_path)
    assert any(d.code == "REF001" and "array" in d.message for d in outcome.diags.items)


@pytest.fixture(scope="module")
def bindings(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site-out")
    codegen = Path(sys.executable).parent / "codegen"
    done = subprocess.run(
        [str(codegen), "generate", "--no-cache", "-q", str(SITE), "-o", str(out)],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return out / "site" / "python"


def test_the_site_generates_and_an_integer_stays_an_integer(bindings: Path) -> None:
    check = (
        "import json, sys\n"
        "from pydantic import ValidationError\n"
        "from site_protocol.models import ItemsParams\n"
        "ok = ItemsParams.model_validate_json(sys.argv[1])\n"
        "print(ok.model_dump_json(by_alias=True, exclude_unset=True))\n"
        "try:\n"
        "    ItemsParams.model_validate_json(sys.argv[2])\n"
        "except ValidationError:\n"
        "    print('rejected')\n"
    )
    good = {"position": {"line": 1, "character": 2}, "limit": 3, "weight": 0.5}
    bad = {"position": {"line": 1.5, "character": 2}}
    done = subprocess.run(
        [sys.executable, "-c", check, json.dumps(good), json.dumps(bad)],
        cwd=bindings,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    first, second = done.stdout.splitlines()
    assert json.loads(first)["position"] == {"line": 1, "character": 2}
    assert second == "rejected"


def test_a_constant_namespace_without_an_alias_is_an_enum(tmp_path: Path) -> None:
    site = _copy(tmp_path)
    page = site / "pages" / "base-types.md"
    page.write_text(
        page.read_text(encoding="utf-8").replace(
            "export type ItemKind = 'text' | 'link';", ""
        ),
        encoding="utf-8",
    )
    kind = _decls(load_protocol(site, tmp_path))["ItemKind"]
    assert isinstance(kind, ir.EnumDecl)
    assert [m.value for m in kind.members] == ["text", "link"]
    assert kind.members[1].lifecycle.docs == "A link to somewhere."
