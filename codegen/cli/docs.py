"""``codegen docs``: the HTML reference site of a project's own specs.

Phase: output (after ``generate``, which writes each spec's Markdown pages).
Inputs: the project (``[tool.codegen]``), the specs named (default: all), each spec's
``<output>/<id>/docs``; the site folder chosen with ``--site`` (default
``<project>/build/docs-site``).
Outputs: the site (mkdocs-material: search, Mermaid diagrams served from the site, a page
per spec source with line anchors), built by ``codegen.tools.docs_site`` exactly as
``make docs`` builds this repository's; with ``--serve``, a local HTTP server on it.
Guarantees: every link of the built site resolves (mkdocs --strict, then a check of
every ``href``/``src``), else exit 1; nothing is written outside the site folder and
its staging folder beside it; a missing tool (mkdocs-material, npm) is an error naming
the command that installs it, never a traceback.
"""

from __future__ import annotations

import http.server
import importlib.util
import shutil
from pathlib import Path
from typing import Any

from codegen.cli.output import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, Output
from codegen.project import Project, ProjectError

__all__ = ["build_site", "serve_site"]


def build_site(
    project: Project,
    cwd: Path,
    names: list[str],
    site: Path | None,
    out: Output,
    diagrams: bool = True,
) -> tuple[int, Path | None]:
    """Build the site; (exit status, the site folder when built)."""
    from codegen.tools import docs_site

    try:
        spec_dirs = project.resolve(cwd, names)
    except ProjectError as exc:
        out.problem(exc)
        return EXIT_USAGE, None
    if importlib.util.find_spec("material") is None:
        out.error(
            "codegen docs builds the site with mkdocs-material, which is not installed: "
            "pip install mkdocs-material"
        )
        return EXIT_USAGE, None
    specs: list[docs_site.SpecDocs] = []
    for spec_dir in spec_dirs:
        spec_id = project.spec_id_for(spec_dir)
        folder = project.output_dir(spec_id) / "docs"
        if not (folder / "site.json").is_file():
            out.error(
                f"{project.show(folder)} does not exist: "
                f"run `codegen generate {spec_id}` first"
            )
            return EXIT_USAGE, None
        specs.append(docs_site.SpecDocs(spec_id, folder, spec_dir.resolve()))
    target = (cwd / site).resolve() if site else project.root / "build" / "docs-site"
    staging = target.parent / f".{target.name}.staging"
    if diagrams and shutil.which("npm") is None:
        out.warning("npm is not installed: diagrams stay as their Mermaid text")
        diagrams = False
    with out.status("building the docs site"):
        try:
            built = docs_site.build(
                project.root, staging, diagrams, specs=specs, site=target
            )
        except docs_site.MermaidUnavailable as exc:
            out.error(str(exc))
            return EXIT_FINDINGS, None
    if built.returncode != 0:
        out.error(f"the docs site did not build:\n{built.stderr.rstrip()}")
        return EXIT_FINDINGS, None
    pages = built.links.pages if built.links is not None else 0
    links = built.links.links if built.links is not None else 0
    out.info(
        f"docs site of {len(specs)} spec(s) written to {project.show(target)}: "
        f"{pages} pages, {links} links checked"
    )
    return EXIT_OK, target


def serve_site(site: Path, host: str, port: int, out: Output) -> None:
    """Serve the built site until interrupted (the standard library's server); the
    address goes to stdout, the request log to stderr only with ``--verbose``."""
    verbose = out.verbose

    class Handler(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, directory=str(site), **kwargs)

        def log_message(self, format: str, *args: Any) -> None:
            if verbose:
                super().log_message(format, *args)

    with http.server.ThreadingHTTPServer((host, port), Handler) as server:
        bound = server.server_address[1]
        print(f"serving the docs site on http://{host}:{bound}/", flush=True)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
