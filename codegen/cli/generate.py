"""``codegen generate`` and ``codegen check``: load specs, report, write or compare.

Phase: entry point helper (the commands' logic; ``commands`` holds the options).
Inputs: a ``Request``: the current directory, the project's settings file, spec names and
the flags that override the settings (output folder, template folder, formatter, strict).
Outputs: diagnostics and a summary on stderr (through ``Output``); with ``check``, a
unified diff of what would change on stdout; otherwise the files through the writer.
``watch`` repeats a run whenever a spec, the settings or a template changes.
Guarantees: nothing is written unless every spec loaded cleanly (``--strict``: without
warnings); a run returns an exit code (0 done or current, 1 spec errors, stale output or a
template/formatter failure, 2 unusable settings or spec names) and never raises for user
input; a watch ends cleanly on Ctrl-C or SIGTERM.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import FrameType

from codegen.cli.output import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, Output
from codegen.diagnostics import Diagnostics, Severity, render_all
from codegen.pipeline import Plan, SpecOutcome
from codegen.project import Project, ProjectError, load_project

__all__ = ["Request", "check", "report", "run", "watch"]


@dataclass(frozen=True)
class Request:
    cwd: Path
    config: Path | None = None
    specs: tuple[str, ...] = ()
    check: bool = False
    strict: bool = False
    output: Path | None = None
    templates: Path | None = None
    formatter: str | None = None

    def project(self) -> Project:
        return load_project(self.cwd, self.config).with_flags(
            self.cwd,
            output=self.output,
            templates=self.templates,
            formatter=self.formatter,
            strict=self.strict,
        )


def report(
    outcomes: list[SpecOutcome], project: Project, out: Output, notes: bool
) -> None:
    """Warnings and errors in full (quiet: errors only); notes too, or only their count
    (``generate`` runs often, and a spec can carry dozens of informational notes)."""
    hidden = 0
    for outcome in outcomes:
        strict = project.strict_for(outcome.spec_dir)
        failing = set(outcome.diags.errors(strict))
        shown = Diagnostics()
        for item in outcome.diags.items:
            if item in failing or (
                not out.quiet and (notes or item.severity is not Severity.NOTE)
            ):
                shown.items.append(item)
            elif item.severity is Severity.NOTE:
                hidden += 1
        root = project.root_for(outcome.spec_dir)
        out.diagnostics(render_all(shown, root, strict))
    if hidden and not out.quiet:
        out.info(f"{hidden} note(s) not shown; --verbose lists them")


def check(request: Request, out: Output) -> int:
    """``codegen check``: diagnostics only."""
    try:
        project = request.project()
        dirs = project.resolve(request.cwd, list(request.specs))
    except ProjectError as exc:
        out.error(str(exc))
        return EXIT_USAGE
    outcomes = [project.load(spec_dir) for spec_dir in dirs]
    report(outcomes, project, out, notes=not out.quiet)
    failed = [o for o in outcomes if not o.ok(project.strict_for(o.spec_dir))]
    if failed:
        return EXIT_FINDINGS
    out.info(f"{len(outcomes)} spec(s) read without errors")
    return EXIT_OK


def run(request: Request, out: Output) -> int:
    """One generation run (or, with ``request.check``, one comparison)."""
    try:
        project = request.project()
        dirs = project.resolve(request.cwd, list(request.specs))
        _check_templates(project, out)
    except ProjectError as exc:
        out.error(str(exc))
        return EXIT_USAGE
    with out.status(f"generating {len(dirs)} spec(s)…"):
        outcomes = [project.load(spec_dir) for spec_dir in dirs]
    report(outcomes, project, out, notes=out.verbose)
    if not all(o.ok(project.strict_for(o.spec_dir)) for o in outcomes):
        out.error("generation stopped; nothing was written")
        return EXIT_FINDINGS
    clash = _same_ids(outcomes, project)
    if clash:
        out.error(clash)
        return EXIT_USAGE
    plan = _plan(project, dirs, outcomes, out)
    if plan is None:
        return EXIT_FINDINGS
    return (
        _compare(project, dirs, plan, out)
        if request.check
        else _write(project, dirs, plan, out)
    )


def _plan(
    project: Project, dirs: list[Path], outcomes: list[SpecOutcome], out: Output
) -> Plan | None:
    import jinja2

    from codegen.backends import render
    from codegen.backends.formatting import FormattingError
    from codegen.pipeline import plan_outcomes

    render.environment.cache_clear()  # a watch picks up edited templates
    try:
        with render.overriding(project.templates):
            plan = plan_outcomes(
                outcomes, project.base(dirs), project.output, project.formatter
            )
    except jinja2.TemplateSyntaxError as exc:
        out.error(f"template {exc.filename or exc.name}:{exc.lineno}: {exc.message}")
        return None
    except jinja2.TemplateError as exc:
        out.error(f"a template failed: {exc}")
        return None
    except FormattingError as exc:
        out.error(f"the emitted Python does not format: {exc}")
        return None
    except Exception as exc:  # user templates may raise anything
        if project.templates is None:
            raise  # the built-in templates failing is a bug: let it show
        where = project.show(project.templates)
        out.error(f"a template in {where} failed: {type(exc).__name__}: {exc}")
        return None
    return plan


def _compare(project: Project, dirs: list[Path], plan: Plan, out: Output) -> int:
    import sys

    from codegen.writer import WriteError, diff_plan

    try:
        changes, diff = diff_plan(project.base(dirs), plan.files, plan.owned_dirs)
    except WriteError as exc:  # an interrupted generate left its journal
        out.error(str(exc))
        return EXIT_FINDINGS
    if changes.any():
        sys.stdout.write(diff)
        out.error(
            f"generated output is stale: {len(changes.created)} new, "
            f"{len(changes.updated)} changed, {len(changes.removed)} stale file(s); "
            "run `codegen generate`"
        )
        return EXIT_FINDINGS
    out.info(f"generated output is current ({len(plan.files)} files)")
    return EXIT_OK


def _write(project: Project, dirs: list[Path], plan: Plan, out: Output) -> int:
    from codegen.writer import WriteError, apply_plan

    base = project.base(dirs)
    try:
        changes = apply_plan(base, plan.files, plan.owned_dirs, on_wait=out.info)
    except WriteError as exc:  # says what failed, and that nothing was changed
        out.error(str(exc))
        return EXIT_FINDINGS
    except OSError as exc:
        out.error(
            f"cannot write {exc.filename or project.show(project.output)}: "
            f"{exc.strerror or exc}"
        )
        return EXIT_FINDINGS
    for rel in changes.created + changes.updated + changes.removed:
        out.detail(f"  {project.show(base / rel)}")
    out.info(
        f"{len(plan.files)} files in {project.show(project.output)}: "
        f"{len(changes.created)} created, {len(changes.updated)} updated, "
        f"{len(changes.removed)} removed"
    )
    return EXIT_OK


def _same_ids(outcomes: list[SpecOutcome], project: Project) -> str | None:
    seen: dict[str, Path] = {}
    for outcome in outcomes:
        assert outcome.protocol is not None
        spec_id = outcome.protocol.id
        if spec_id in seen:
            return (
                f"{project.show(seen[spec_id])} and {project.show(outcome.spec_dir)} "
                f"both declare spec id {spec_id!r} (both would write "
                f"{project.show(project.output_dir(spec_id))})"
            )
        seen[spec_id] = outcome.spec_dir
    return None


def _check_templates(project: Project, out: Output) -> None:
    if project.templates is None:
        return
    from codegen.backends.render import builtin_templates

    if not project.templates.is_dir():
        raise ProjectError(
            f"template folder {project.show(project.templates)} does not exist"
        )
    builtin = set(builtin_templates())
    mine = sorted(
        p.relative_to(project.templates).as_posix()
        for p in project.templates.rglob("*.j2")
    )
    replaced = [name for name in mine if name in builtin]
    for name in mine:
        if name not in builtin:
            out.warning(
                f"template {name} in {project.show(project.templates)} replaces no "
                f"built-in template (they are: {', '.join(sorted(builtin))})"
            )
    out.detail(f"templates replaced: {', '.join(replaced) or 'none'}")


# ------------------------------------------------------------------------ watch


def watch(request: Request, out: Output) -> int:
    """Run, then run again after every change to a spec, the settings or a template,
    until Ctrl-C or SIGTERM (exit 0), or until the settings become unusable (exit 2)."""
    import watchfiles

    stop = threading.Event()

    def on_term(_number: int, _frame: FrameType | None) -> None:
        stop.set()

    previous = signal.signal(signal.SIGTERM, on_term)
    try:
        run(request, out)
        while not stop.is_set():
            try:
                project = request.project()
            except ProjectError as exc:
                out.error(str(exc))
                return EXIT_USAGE
            paths = list(_watched(project, request))
            out.info(
                "watching "
                + ", ".join(project.show(p) for p in paths)
                + " for changes (Ctrl-C stops)"
            )
            ignored = _Ignore(project)
            for changes in watchfiles.watch(
                *paths,
                watch_filter=ignored,
                stop_event=stop,
                raise_interrupt=False,
                rust_timeout=500,
                yield_on_timeout=False,
            ):
                names = sorted({project.show(Path(p)) for _, p in changes})
                out.info(f"changed: {', '.join(names)}")
                run(request, out)
                break  # the settings may have changed what to watch
            else:
                break
    finally:
        signal.signal(signal.SIGTERM, previous)
    out.info("stopped watching")
    return EXIT_OK


def _watched(project: Project, request: Request) -> Iterator[Path]:
    seen: set[Path] = set()
    candidates: list[Path] = []
    if request.specs:
        try:
            candidates += project.resolve(request.cwd, list(request.specs))
        except ProjectError:
            candidates += list(project.spec_folders)
    else:
        candidates += list(project.spec_folders)
    if project.templates is not None:
        candidates.append(project.templates)
    if project.pyproject is not None:
        candidates.append(project.pyproject)
    for path in candidates:
        if path.exists() and path not in seen:
            seen.add(path)
            yield path
    if not seen:  # nothing to watch yet (no spec folder): wait for one to appear
        yield project.root


class _Ignore:
    """watchfiles' default filter, plus what generation itself writes."""

    def __init__(self, project: Project) -> None:
        import watchfiles

        self._default = watchfiles.DefaultFilter()
        self._output = project.output

    def __call__(self, change: object, path: str) -> bool:
        from codegen.spec.samples import EXTRACTED_FILE

        if not self._default(change, path):  # type: ignore[arg-type]
            return False
        file = Path(path)
        if file.name == EXTRACTED_FILE or file.name.startswith("."):
            return False
        return not file.is_relative_to(self._output)
