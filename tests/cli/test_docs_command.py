"""``codegen docs`` on a user's project whose output folder is nested
(``output = "src/myapp/wire"``, the README's own example): every relative link of the
generated Markdown resolves (file and line), and the HTML site builds into a folder of
the user's choice with every link checked; its source pages are reached from the type
pages.  The rejecting twins: the old fixed depth would break the links (checked by
rendering with it), and a project not yet generated is told what to run."""

from __future__ import annotations

import re
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from urllib.parse import unquote

import pytest

from tests.cli_support import run_codegen

LINK = re.compile(r"\]\((?P<target>[^)\s]+)\)")


def _project(root: Path, output: str) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "pyproject.toml").write_text(
        f'[project]\nname = "myapp"\nversion = "0"\n\n[tool.codegen]\noutput = "{output}"\n',
        encoding="utf-8",
    )
    done = run_codegen(root, "init", "chat", "--language", "typescript")
    assert done.returncode == 0, done.stderr
    done = run_codegen(root, "generate")
    assert done.returncode == 0, done.stderr
    return root / output / "chat" / "docs"


def _broken_links(docs: Path) -> tuple[int, list[str]]:
    """(links checked, broken ones) of every relative link of every page."""
    checked, broken = 0, []
    for page in sorted(docs.rglob("*.md")):
        for match in LINK.finditer(page.read_text(encoding="utf-8")):
            target = match["target"]
            if "://" in target or target.startswith("#"):
                continue
            path, _, anchor = target.partition("#")
            checked += 1
            file = (page.parent / unquote(path)).resolve()
            if not file.is_file():
                broken.append(f"{page.relative_to(docs)}: {target}")
            elif anchor.startswith("L") and anchor[1:].isdigit():
                lines = file.read_text(encoding="utf-8").count("\n") + 1
                if int(anchor[1:]) > lines:
                    broken.append(f"{page.relative_to(docs)}: {target} (no such line)")
    return checked, broken


@pytest.mark.parametrize("output", ["src/myapp/wire", "gen", "a/b/c/d/e"])
def test_every_markdown_link_resolves_at_any_output_depth(
    tmp_path: Path, output: str
) -> None:
    docs = _project(tmp_path / "p", output)
    checked, broken = _broken_links(docs)
    assert checked > 20 and not broken, broken
    sources = [
        m["target"]
        for m in LINK.finditer((docs / "index.md").read_text(encoding="utf-8"))
        if "protocol.ts" in m["target"]
    ]
    assert sources, "the overview links to the spec source"


def test_the_old_fixed_depth_would_break_them(tmp_path: Path) -> None:
    """The twin: the same pages with the one-level depth the backend used to assume."""
    docs = _project(tmp_path / "p", "src/myapp/wire")
    for page in docs.rglob("*.md"):
        text = page.read_text(encoding="utf-8")
        page.write_text(text.replace("../../../../../", "../../../"), encoding="utf-8")
    _checked, broken = _broken_links(docs)
    assert broken


def test_codegen_docs_builds_the_site_into_a_chosen_folder(tmp_path: Path) -> None:
    root = tmp_path / "p"
    _project(root, "src/myapp/wire")
    done = run_codegen(root, "docs", "--site", "out/deep/site", "--no-diagrams")
    assert done.returncode == 0, done.stderr
    assert "written to out/deep/site" in done.stderr
    site = root / "out/deep/site"
    assert (site / "search/search_index.json").is_file()
    assert (site / "chat/methods/index.html").is_file()
    sources = sorted((site / "chat/source").glob("*.html"))
    assert [p.name for p in sources] == ["protocol.ts.html"]
    type_pages = list((site / "chat/types").glob("*/index.html"))
    assert any(
        "source/protocol.ts.html#L" in p.read_text(encoding="utf-8") for p in type_pages
    )
    # nothing written anywhere else in the project but the site and its staging
    assert sorted(p.name for p in (root / "out/deep").iterdir()) == [
        ".site.staging",
        "site",
    ]


def test_codegen_docs_before_generate_names_the_command(tmp_path: Path) -> None:
    root = tmp_path / "p"
    root.mkdir()
    (root / "pyproject.toml").write_text('[tool.codegen]\noutput = "gen"\n')
    assert run_codegen(root, "init", "chat", "--language", "go").returncode == 0
    done = run_codegen(root, "docs", "--no-diagrams")
    assert done.returncode == 2
    assert "run `codegen generate chat` first" in done.stderr
    assert "Traceback" not in done.stderr


def test_codegen_docs_serve_answers_over_http(tmp_path: Path) -> None:
    root = tmp_path / "p"
    _project(root, "gen")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    child = subprocess.Popen(
        [sys.executable, "-m", "codegen", "docs", "--no-diagrams", "--serve"]
        + ["--port", str(port), "--site", "site"],
        cwd=root,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout is not None
        line = child.stdout.readline()
        assert line.startswith(f"serving the docs site on http://127.0.0.1:{port}/")
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/chat/") as page:
                    assert b"chat" in page.read()
                break
            except OSError:
                assert time.monotonic() < deadline
                time.sleep(0.2)
    finally:
        child.terminate()
        child.wait(timeout=30)
