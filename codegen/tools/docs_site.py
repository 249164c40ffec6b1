"""Build one static HTML site from every protocol's generated Markdown docs (mkdocs-material).

Phase: output (``make docs``), after ``generate``.
Inputs: ``generated/<id>/docs/`` for each protocol (its pages and ``site.json``), the spec
sources those pages link to, Mermaid from the npm registry (pinned, checked against its
published integrity, cached in ``<build>/npm``).
Outputs: a staging tree (``<build>/src``: the pages, a home page saying what each protocol
is, a page per spec source with line anchors, the site's own CSS and JS, ``mkdocs.yml``)
and the site in ``<build>/site``.
Guarantees: nothing is fetched by the site at run time (Mermaid is served from the site;
no CDN, no web font); search hits are titled by protocol and item (``docs_search``);
the build fails on a broken link: ``mkdocs build --strict`` with every link
validation at warning level, then ``docs_links`` checks every ``href`` and ``src`` of the
built HTML (files and anchors, absolute paths included), so a dead link fails ``make docs``;
navigation labels are HTML-escaped here (Material writes them unescaped); spec text in the
Markdown went through ``escape`` in the docs backend and source pages escape every
character of the source; nothing is written outside ``build``.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import os
import posixpath
import re
import shutil
import subprocess
import sys
import tarfile
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote

from codegen.backends.escape import md_heading
from codegen.tools import docs_links, docs_search

# Pinned: the site renders the same diagrams every build; the tarball must match the
# registry's published integrity for this version.
MERMAID = "mermaid@11.12.0"
MERMAID_INTEGRITY = (
    "sha512-ZudVx73BwrMJfCFmSSJT84y6u5brEoV8DOItdHomNLz32uBjNrelm7mg95X7g+C6UoQH/"
    "W6mBLGDEDv73JdxBg=="
)
ASSETS = Path(__file__).resolve().parent / "docs_assets"


class MermaidUnavailable(RuntimeError):
    pass


def fetch_mermaid(build: Path) -> Path:
    """mermaid.min.js from the npm registry (cached in ``build``), so diagrams render with
    no network at run time."""
    cache = build / "npm" / "mermaid.min.js"
    if cache.is_file():
        return cache
    cache.parent.mkdir(parents=True, exist_ok=True)
    npm = shutil.which("npm")
    if npm is None:
        raise MermaidUnavailable(
            "npm is not installed: it fetches Mermaid for the site"
        )
    packed = subprocess.run(
        [npm, "pack", MERMAID, "--silent"],
        cwd=cache.parent,
        capture_output=True,
        text=True,
        check=False,
    )
    lines = packed.stdout.strip().splitlines()
    tarball = cache.parent / lines[-1] if lines else None
    if packed.returncode != 0 or tarball is None or not tarball.is_file():
        raise MermaidUnavailable(f"npm pack {MERMAID} failed: {packed.stderr.strip()}")
    digest = base64.b64encode(hashlib.sha512(tarball.read_bytes()).digest()).decode()
    if f"sha512-{digest}" != MERMAID_INTEGRITY:
        tarball.unlink()
        raise MermaidUnavailable(f"{MERMAID}: the tarball does not match its integrity")
    with tarfile.open(tarball) as archive:
        member = archive.extractfile("package/dist/mermaid.min.js")
        if member is None:
            raise MermaidUnavailable(f"{MERMAID} has no dist/mermaid.min.js")
        cache.write_bytes(member.read())
    tarball.unlink()
    return cache


@dataclass
class Protocol:
    """One protocol's entry in the site (from its ``site.json``)."""

    id: str
    title: str
    summary: str
    version: str
    transport: str
    methods: int
    types: list[tuple[str, str]]
    sources: dict[str, str] = field(default_factory=dict)  # repo path → page in docs/
    spec_dir: str = ""  # the spec's folder, relative to the project root


@dataclass(frozen=True)
class SpecDocs:
    """One spec's generated docs and where its sources are (both absolute)."""

    id: str
    docs: Path  # <output>/<id>/docs
    spec_dir: Path


# A link the docs backend writes to a spec source: up the tree to the repository, then the
# file, then an optional line.
_SOURCE_LINK = re.compile(r"\]\((?P<path>(?:\.\./)+[^)#\s]+)(?:#L(?P<line>\d+))?\)")


def _source_links(
    page: Path, text: str, repo: Path, origin: str, entry: Protocol
) -> str:
    """Links to spec sources rewritten to the site's source pages (``origin``: the page's
    folder as a path relative to the project ``repo``; pages are staged under
    ``docs/<id>``)."""

    def rewrite(match: re.Match[str]) -> str:
        target = posixpath.normpath(posixpath.join(origin, unquote(match["path"])))
        inside = target.startswith(f"{entry.spec_dir}/") if entry.spec_dir else False
        if not inside or not (repo / target).is_file():
            # Not a spec source (``../index.md`` is a page of the site): left for mkdocs
            # and the link check to judge.
            return match.group(0)
        name = entry.sources.setdefault(target, _source_page_name(target, entry))
        relative = posixpath.relpath(
            f"{entry.id}/{name}", posixpath.dirname(page.as_posix())
        )
        return f"]({relative}" + (f"#L{match['line']}" if match["line"] else "") + ")"

    return _SOURCE_LINK.sub(rewrite, text)


def _source_page_name(path: str, entry: Protocol) -> str:
    stem = path.removeprefix(f"{entry.spec_dir}/")
    safe = re.sub(r"[^A-Za-z0-9._-]", "_", stem.replace("/", "__"))
    return f"source/{safe}.html"


def repository_specs(repo: Path) -> list[SpecDocs]:
    """The specs of a checkout laid out as this repository is: ``specs/<id>`` and
    ``generated/<id>/docs``."""
    return [
        SpecDocs(folder.parent.name, folder, repo / "specs" / folder.parent.name)
        for folder in sorted((repo / "generated").glob("*/docs"))
    ]


def _relative(path: Path, root: Path) -> str:
    return Path(os.path.relpath(path.resolve(), root.resolve())).as_posix()


def stage(
    repo: Path,
    build: Path,
    mermaid_js: Path | None = None,
    specs: list[SpecDocs] | None = None,
) -> Path:
    """Copy every protocol's docs into ``build/src`` and write the site around them
    (``specs``: default, the repository's; ``repo``: the project root the docs' source
    links lead to)."""
    src = build / "src"
    if src.exists():
        shutil.rmtree(src)
    docs = src / "docs"
    docs.mkdir(parents=True)
    protocols: list[Protocol] = []
    for spec in repository_specs(repo) if specs is None else specs:
        folder = spec.docs
        meta = folder / "site.json"
        if not meta.is_file():
            continue
        data = json.loads(meta.read_text(encoding="utf-8"))
        entry = Protocol(
            id=spec.id,
            spec_dir=_relative(spec.spec_dir, repo),
            title=data["title"],
            summary=data["summary"],
            version=data["version"],
            transport=data["transport"],
            methods=data["methods"],
            types=[(name, path) for name, path in data["types"]],
        )
        for page in sorted(folder.rglob("*.md")):
            relative = page.relative_to(folder)
            staged = Path(entry.id) / relative
            origin = posixpath.dirname(
                f"{_relative(folder, repo)}/{relative.as_posix()}"
            )
            text = page.read_text(encoding="utf-8")
            text = _source_links(staged, text, repo, origin, entry)
            if relative.as_posix() == "index.md" or (
                relative.parent.name == "types" and relative.name != "index.md"
            ):
                # A type page is one section, an overview three or four: no outline, and
                # its width goes to the tables (the overview's methods table is wide).
                text = "---\nhide:\n  - toc\n---\n" + text
            (docs / staged).parent.mkdir(parents=True, exist_ok=True)
            (docs / staged).write_text(text, encoding="utf-8")
        for path, name in entry.sources.items():
            _write_source_page(repo / path, path, docs / entry.id / name, entry)
        protocols.append(entry)
    (docs / "index.md").write_text(_home(protocols), encoding="utf-8")
    assets = docs / "assets" / "codegen"
    assets.mkdir(parents=True)
    for asset in ("codegen.css", "diagrams.js", "anchor.js", "tables.js"):
        shutil.copyfile(ASSETS / asset, assets / asset)
    if mermaid_js is not None:
        shutil.copyfile(mermaid_js, assets / "mermaid.min.js")
    (src / "mkdocs.yml").write_text(
        _config(protocols, mermaid_js is not None), encoding="utf-8"
    )
    return src


def _home(protocols: list[Protocol]) -> str:
    lines = [
        "# Protocol reference",
        "",
        (
            "The reference of each protocol below: its methods, its types (a page each, "
            "with a diagram, the fields and examples), and a typical exchange. Generated "
            "by codegen from the specs in `specs/`."
        ),
    ]
    for entry in protocols:
        lines += [
            "",
            f"## {md_heading(entry.title)}",
            "",
            entry.summary,
            "",
            (
                f"Version {entry.version} · {entry.transport} · "
                f"{entry.methods} methods · {len(entry.types)} types — "
                f"[overview]({entry.id}/index.md) · [methods]({entry.id}/methods.md) · "
                f"[types]({entry.id}/types/index.md)"
            ),
        ]
    return "\n".join(lines) + "\n"


def _write_source_page(source: Path, path: str, target: Path, entry: Protocol) -> None:
    """A spec source as a static page: every line numbered and anchored (``#L12``)."""
    lines = source.read_text(encoding="utf-8", errors="replace").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    body = "".join(
        f'<span class="l" id="L{n}"><a href="#L{n}">{n}</a>{html.escape(line)}\n</span>'
        for n, line in enumerate(lines, start=1)
    )
    page = f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(path)} — {html.escape(entry.title)}</title>
<style>
body{{margin:0;font:14px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;color:#1f2328}}
header{{position:sticky;top:0;background:#f6f8fa;border-bottom:1px solid #d0d7de;padding:.6em 1em;font-family:system-ui,sans-serif}}
pre{{margin:0;padding:.5em 0;white-space:pre-wrap;overflow-wrap:anywhere}}
.l{{display:block;padding-left:5.5em;text-indent:-5.5em}}
.l a{{display:inline-block;width:4.5em;margin-right:1em;text-align:right;text-indent:0;color:#6e7781;text-decoration:none}}
.l:target{{background:#fff8c5}}
</style></head><body>
<header><a href="../">{html.escape(entry.title)}</a> · {html.escape(path)}</header>
<pre>{body}</pre>
</body></html>
"""
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(page, encoding="utf-8")


def _config(protocols: list[Protocol], local_mermaid: bool) -> str:
    def label(text: str) -> str:
        return html.escape(" ".join(text.split()) or "_")

    nav: list[object] = [{"Home": "index.md"}]
    for entry in protocols:
        types: list[object] = [f"{entry.id}/types/index.md"]
        types += [{label(name): f"{entry.id}/{path}"} for name, path in entry.types]
        nav.append(
            {
                label(entry.title): [
                    {"Overview": f"{entry.id}/index.md"},
                    {"Methods": f"{entry.id}/methods.md"},
                    {"Types": types},
                ]
            }
        )
    config: dict[str, object] = {
        "site_name": "Protocol reference",
        "docs_dir": "docs",
        "theme": {
            "name": "material",
            # The theme's default fetches Roboto from Google Fonts: the site stays offline.
            "font": False,
            "features": [
                "navigation.sections",
                "navigation.indexes",
                "navigation.top",
                "search.highlight",
            ],
        },
        "plugins": ["search"],
        # No attr_list (nor md_in_html): with it, `{: onclick=...}` in a spec's doc
        # comment would become an attribute of the page (tests/hostile/test_hostile_spec).
        "markdown_extensions": [
            "tables",
            "admonition",
            "pymdownx.details",
            {"toc": {"permalink": True}},
            {
                "pymdownx.superfences": {
                    "custom_fences": [
                        {
                            "name": "mermaid",
                            "class": "diagram",
                            "format": "!!python/name:codegen.tools.docs_fences.diagram",
                        }
                    ]
                }
            },
        ],
        "extra_css": ["assets/codegen/codegen.css"],
        "extra_javascript": (["assets/codegen/mermaid.min.js"] if local_mermaid else [])
        + [
            "assets/codegen/diagrams.js",
            "assets/codegen/anchor.js",
            "assets/codegen/tables.js",
        ],
        "validation": {
            "omitted_files": "warn",
            "absolute_links": "warn",
            "unrecognized_links": "warn",
            "anchors": "warn",
        },
        "nav": nav,
    }
    # YAML is a superset of JSON, except for the !!python/name tag, which must stay bare.
    text = json.dumps(config, indent=2)
    return (
        text.replace(
            '"!!python/name:codegen.tools.docs_fences.diagram"',
            "!!python/name:codegen.tools.docs_fences.diagram",
        )
        + "\n"
    )


@dataclass
class Built:
    """The outcome of a build: mkdocs' and the link check's, as one process result."""

    returncode: int
    stderr: str
    site: Path
    links: docs_links.Report | None = None


def build(
    repo: Path,
    build_dir: Path,
    offline_mermaid: bool = True,
    specs: list[SpecDocs] | None = None,
    site: Path | None = None,
) -> Built:
    """Stage, build with mkdocs (strict), then check every link of the built site.
    ``offline_mermaid=False`` leaves Mermaid out (diagrams stay as their source text):
    for tests of the pages that need no npm.  ``specs``: the docs to build (default:
    the repository's); ``site``: where the site goes (default ``build_dir/site``)."""
    specs = repository_specs(repo) if specs is None else specs
    mermaid_js = fetch_mermaid(build_dir) if offline_mermaid else None
    src = stage(repo, build_dir, mermaid_js, specs)
    site = site or build_dir / "site"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "mkdocs",
            "build",
            "--strict",
            "-f",
            str(src / "mkdocs.yml"),
            "-d",
            str(site),
        ],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    if result.returncode != 0:
        return Built(result.returncode, result.stderr, site)
    docs_search.retitle(site, _titles(specs))
    report = docs_links.check(site)
    stderr = result.stderr + "".join(f"{problem}\n" for problem in report.problems)
    return Built(1 if report.problems else 0, stderr, site, report)


def _titles(specs: list[SpecDocs]) -> dict[str, str]:
    """Each protocol's title by id (its folder in the site), from its ``site.json``."""
    titles = {}
    for spec in specs:
        meta = spec.docs / "site.json"
        if meta.is_file():
            titles[spec.id] = json.loads(meta.read_text(encoding="utf-8"))["title"]
    return titles


def main(argv: list[str] | None = None) -> int:
    """``python -m codegen.tools.docs_site [ARGS]``: the same as ``codegen docs [ARGS]``
    (the project of the current directory, never the installed package's folder)."""
    from codegen.cli import main as cli_main

    sys.argv = ["codegen", "docs", *(sys.argv[1:] if argv is None else argv)]
    try:
        cli_main()
    except SystemExit as done:
        return done.code if isinstance(done.code, int) else 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
