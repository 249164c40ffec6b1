"""Read and render the specs of one generation run, in parallel on the machine's cores.

Phase: entry point helper (``codegen generate``: between the record lookup and the writer).
Inputs: the project, the spec folders that need a run, the folder the plan is relative to.
Outputs: per spec, in the order given, a ``Drafted``: its diagnostics, whether it loaded
cleanly, and its unformatted output (``pipeline.Draft``) placed under its output folder,
or the message of a failed user template.
Guarantees: the result does not depend on the number of workers or on which worker took
which spec (each spec is read and rendered by one process, from its own inputs; the
formatter runs once, in the caller, over every draft, or over a large spec's Python in the
child that rendered it: ``pipeline.render_draft``), so output stays byte-identical to a
serial run.  One spec, one core, or a platform without ``fork``: no pool, same code path.
A bug in a built-in template raises in the caller, as in a serial run.
"""

from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from codegen.diagnostics import Diagnostics
from codegen.pipeline import Draft
from codegen.project import Project

__all__ = ["Drafted", "draft_all", "draft_spec", "workers"]


@dataclass
class Drafted:
    spec_dir: Path
    diags: Diagnostics
    ok: bool  # loaded without errors (as strict as the project says for it)
    spec_id: str | None = None
    draft: Draft | None = None
    out_rel: str = ""  # <output>/<id>, relative to the plan's base
    extra: dict[str, str] = field(default_factory=dict)  # extracted.json, base-relative
    template_error: str | None = None


def draft_spec(project: Project, spec_dir: Path, base: Path) -> Drafted:
    """Read one spec and render its draft (see the module docstring)."""
    import jinja2

    from codegen.backends import render
    from codegen.pipeline import docs_path_to_root, place_outputs, render_draft

    outcome = project.load(spec_dir)
    ok = outcome.ok(project.strict_for(spec_dir))
    if not ok or outcome.protocol is None or outcome.config is None:
        return Drafted(spec_dir, outcome.diags, False)
    protocol, config = outcome.protocol, outcome.config
    drafted = Drafted(spec_dir, outcome.diags, True, protocol.id)
    drafted.out_rel = os.path.relpath(
        project.output_dir(protocol.id).resolve(), base.resolve()
    ).replace(os.sep, "/")
    drafted.extra = place_outputs(protocol, config, {}, base, project.output)
    try:
        with render.overriding(project.templates):
            drafted.draft = render_draft(
                protocol,
                config,
                formatter=project.formatter,
                docs_root=docs_path_to_root(
                    project.root_for(spec_dir), project.output, protocol.id
                ),
            )
    except jinja2.TemplateSyntaxError as exc:
        drafted.template_error = (
            f"template {exc.filename or exc.name}:{exc.lineno}: {exc.message}"
        )
    except jinja2.TemplateError as exc:
        drafted.template_error = f"a template failed: {exc}"
    except Exception as exc:  # user templates may raise anything
        if project.templates is None:
            raise  # the built-in templates failing is a bug: let it show
        where = project.show(project.templates)
        drafted.template_error = (
            f"a template in {where} failed: {type(exc).__name__}: {exc}"
        )
    return drafted


def workers(jobs: int) -> int:
    """How many processes: one per core (the ones this process may use), at most one
    per spec, and none beyond the caller without ``fork``."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cores = os.cpu_count() or 1
    if "fork" not in multiprocessing.get_all_start_methods():
        return 1
    return max(1, min(cores, jobs))


def draft_all(project: Project, spec_dirs: list[Path], base: Path) -> list[Drafted]:
    """``draft_spec`` of every spec folder, in order; in parallel where it pays."""
    count = workers(len(spec_dirs))
    if count <= 1:
        return [draft_spec(project, spec_dir, base) for spec_dir in spec_dirs]
    # Biggest first, so one large spec does not start last and run alone.
    order = sorted(spec_dirs, key=_size, reverse=True)
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=count, mp_context=context) as pool:
        futures = {
            spec_dir: pool.submit(draft_spec, project, spec_dir, base)
            for spec_dir in order
        }
        return [futures[spec_dir].result() for spec_dir in spec_dirs]


def _size(spec_dir: Path) -> int:
    total = 0
    for directory, _, names in os.walk(spec_dir):
        for name in names:
            try:
                total += os.stat(os.path.join(directory, name)).st_size
            except OSError:
                pass
    return total
