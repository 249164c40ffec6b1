"""Sides as a user passes them: a source file of a spec takes that spec's settings, a file no
spec owns gets settings from its own source, and either compared with its spec reports
nothing."""

from __future__ import annotations

import shutil
import tomllib
from pathlib import Path

import pytest

from codegen.diff import Level, SideError, diff_sides
from codegen.diff.infer import infer_roles, language_of
from tests.diff.support import REPO


def _spec_sources() -> list[str]:
    out = []
    for spec_toml in sorted((REPO / "specs").glob("*/spec.toml")):
        data = tomllib.loads(spec_toml.read_text(encoding="utf-8"))
        for source in data["spec"]["sources"]:
            out.append((spec_toml.parent / source).relative_to(REPO).as_posix())
    return out


SPEC_SOURCES = _spec_sources()


def test_every_built_in_spec_is_covered() -> None:
    assert {p.split("/")[1] for p in SPEC_SOURCES} >= {
        "acp",
        "ahp",
        "openctx",
        "piglet",
    }


@pytest.mark.parametrize("path", SPEC_SOURCES)
def test_a_spec_source_against_its_spec_reports_nothing(path: str) -> None:
    spec = path.split("/")[1]
    report = diff_sides(path, spec, level=Level.PYTHON, cwd=REPO)
    assert [f"{r.change.rule.id} {r.change.where}" for r in report.rated] == []


@pytest.mark.parametrize(
    ("path", "spec"),
    [("specs/acp/schema.rs", "acp"), ("specs/openctx/protocol.md", "openctx")],
)
def test_a_copy_no_spec_owns_infers_its_settings(
    path: str, spec: str, tmp_path: Path
) -> None:
    """acp's roles come from its acp_peer! tables (Client, Agent); openctx names no roles
    (client/server) and its spec says client/provider: the same peers, by position."""
    copy = tmp_path / Path(path).name
    shutil.copy(REPO / path, copy)
    report = diff_sides(str(copy), spec, cwd=REPO, outside=True)
    assert [f"{r.change.rule.id} {r.change.where}" for r in report.rated] == []


def test_a_copy_without_what_only_its_spec_says_fails_with_the_reason(
    tmp_path: Path,
) -> None:
    """piglet's listing does not say who sends which method; its spec.toml does."""
    copy = tmp_path / "external.godoc.txt"
    shutil.copy(REPO / "specs/piglet/external.godoc.txt", copy)
    with pytest.raises(SideError, match="MTH006"):
        diff_sides(str(copy), "piglet", cwd=REPO, outside=True)


def test_a_file_beside_a_spec_that_does_not_list_it_stands_alone(
    tmp_path: Path,
) -> None:
    spec = tmp_path / "spec"
    shutil.copytree(REPO / "specs/acp", spec)
    stray = spec / "stray.rs"
    stray.write_text(
        "#[derive(Serialize, Deserialize)]\npub struct Lone { pub x: u8 }\n"
    )
    report = diff_sides(
        str(stray), str(stray), level=Level.PYTHON, cwd=REPO, outside=True
    )
    assert report.rated == []
    versus_spec = diff_sides(str(stray), "acp", cwd=REPO, outside=True)
    assert {r.change.rule.id for r in versus_spec.rated} == {"method.added"}


@pytest.mark.parametrize(
    ("text", "roles"),
    [
        (
            "acp_peer!(\n    Client,\n    X,\n)\nacp_peer!(Agent, Y,)",
            ("client", "agent"),
        ),
        ("acp_peer!(Agent, Y,)\nacp_peer!(Client, X,)", ("client", "agent")),
        ("acp_peer!(Server, Y,)", ("client", "server")),
        ("acp_peer!(Host, Y,)\nacp_peer!(Extension, X,)", ("extension", "host")),
        ("pub struct A;", None),
        ("acp_peer!(A, x,) acp_peer!(B, x,) acp_peer!(C, x,)", None),
    ],
)
def test_roles_come_from_the_handler_traits(
    text: str, roles: tuple[str, str] | None
) -> None:
    assert infer_roles("rust", text) == roles
    assert infer_roles("typescript", text) is None


@pytest.mark.parametrize(
    ("name", "language"),
    [
        ("schema.ts", "typescript"),
        ("schema.rs", "rust"),
        ("external.godoc.txt", "go"),
        ("EXTERNAL.GODOC.TXT", "go"),
        ("notes.txt", "prose"),
        ("protocol.md", "prose"),
        ("types.go", "go"),
        ("schema.json", None),
    ],
)
def test_language_from_the_file_name(name: str, language: str | None) -> None:
    assert language_of(name) == language
