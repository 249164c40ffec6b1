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

import os
import re
import signal
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any

from codegen.cli.output import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, Output
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
    cache: bool = True  # skip specs whose record says their output is current

    def project(self) -> Project:
        return load_project(self.cwd, self.config).with_flags(
            self.cwd,
            output=self.output,
            templates=self.templates,
            formatter=self.formatter,
            strict=self.strict,
        )


def report(outcomes: list[Any], project: Project, out: Output, notes: bool) -> None:
    """Warnings and errors in full (quiet: errors only); notes too, or only their count
    (``generate`` runs often, and a spec can carry dozens of informational notes).
    ``outcomes``: anything with the ``spec_dir`` and ``diags`` of a ``SpecOutcome``."""
    hidden = 0
    for outcome in outcomes:
        text, count = _shown(outcome, project, out.quiet, notes)
        hidden += count
        out.diagnostics(text)
    if hidden and not out.quiet:
        out.info(f"{hidden} note(s) not shown; --verbose lists them")


def _shown(outcome: Any, project: Project, quiet: bool, notes: bool) -> tuple[str, int]:
    """One spec's diagnostics as shown, and how many notes were left out."""
    from codegen.diagnostics import Diagnostics, Severity, render_all

    strict = project.strict_for(outcome.spec_dir)
    failing = set(outcome.diags.errors(strict))
    shown = Diagnostics()
    hidden = 0
    for item in outcome.diags.items:
        if item in failing or (
            not quiet and (notes or item.severity is not Severity.NOTE)
        ):
            shown.items.append(item)
        elif item.severity is Severity.NOTE:
            hidden += 1
    root = project.root_for(outcome.spec_dir)
    return render_all(shown, root, strict), hidden


def check(request: Request, out: Output, methods: bool = False) -> int:
    """``codegen check``: diagnostics only; with ``methods``, each spec's method table
    and the evidence of each fact too (``codegen.methods.report``)."""
    try:
        project = request.project()
        dirs = project.resolve(request.cwd, list(request.specs))
    except ProjectError as exc:
        out.problem(exc)
        return EXIT_USAGE
    outcomes = [project.load(spec_dir) for spec_dir in dirs]
    report(outcomes, project, out, notes=not out.quiet)
    if methods:
        from codegen.methods.report import method_table_text

        for outcome in outcomes:
            if outcome.protocol is not None:
                sys.stdout.write(
                    method_table_text(outcome.protocol, outcome.provenance, True)
                )
    failed = [o for o in outcomes if not o.ok(project.strict_for(o.spec_dir))]
    if failed:
        return EXIT_FINDINGS
    out.info(f"{len(outcomes)} spec(s) read without errors")
    return EXIT_OK


def run(request: Request, out: Output) -> int:
    """One generation run (or, with ``request.check``, one comparison).

    A spec whose inputs have a record (``codegen.cache``) and whose output is as recorded
    is not read again: its recorded diagnostics are shown, its files left alone.  The
    others are read and rendered in parallel (``drafting``), formatted in one ruff run,
    then compared or written together.
    """
    try:
        project = request.project()
        dirs = project.resolve(request.cwd, list(request.specs))
        _check_templates(project, out)
    except ProjectError as exc:
        out.problem(exc)
        return EXIT_USAGE
    base = project.base(dirs)
    records = _Records(project, base, dirs)
    hits = records.hits() if request.cache else {}
    todo = [spec_dir for spec_dir in dirs if spec_dir not in hits]
    if hits:
        names = ", ".join(project.show(d) for d in dirs if d in hits)
        out.detail(f"unchanged since their recorded run, not read again: {names}")
    drafted: dict[Path, Any] = {}
    if todo:
        from codegen.cli.drafting import draft_all

        render = sys.modules.get("codegen.backends.render")
        if render is not None:
            render.environment.cache_clear()  # a watch picks up edited templates
        compiled = records.cache.templates_folder()
        if compiled is not None:
            from codegen.backends import render as rendering

            rendering.cache_compiled(compiled)
        with out.status(f"generating {len(todo)} spec(s)…"):
            drafted = dict(zip(todo, draft_all(project, todo, base), strict=True))
    hidden = 0
    for spec_dir in dirs:
        hit = hits.get(spec_dir)
        if hit is not None:
            if not out.quiet:
                out.diagnostics(hit.shown_verbose if out.verbose else hit.shown)
                hidden += 0 if out.verbose else hit.hidden_notes
        else:
            text, count = _shown(drafted[spec_dir], project, out.quiet, out.verbose)
            out.diagnostics(text)
            hidden += count
    if hidden and not out.quiet:
        out.info(f"{hidden} note(s) not shown; --verbose lists them")
    if not all(item.ok for item in drafted.values()):
        out.error("generation stopped; nothing was written")
        return EXIT_FINDINGS
    ids = [(hits[d].spec_id if d in hits else drafted[d].spec_id, d) for d in dirs]
    clash = _same_ids(ids, project)
    if clash:
        out.error(clash)
        return EXIT_USAGE
    for item in drafted.values():
        if item.template_error is not None:
            out.error(item.template_error)
            return EXIT_FINDINGS
    plan = _plan(project, [drafted[d] for d in todo], out)
    if plan is None:
        return EXIT_FINDINGS
    files, owned, per_spec = plan
    orphans = [] if request.specs else _orphans(project, base, {i for i, _ in ids})
    owned = owned + orphans  # every spec run: the output of a deleted one is stale
    kept = sum(len(hit.files) for hit in hits.values())
    code = (
        _compare(base, files, owned, kept, out)
        if request.check
        else _write(project, base, files, owned, kept, out)
    )
    records.store({d: drafted[d] for d in todo}, per_spec)
    if not request.check and code == EXIT_OK:
        _prune(base, orphans)
    return code


def _prune(base: Path, folders: list[str]) -> None:
    """Remove the folders the removed files of deleted specs left empty."""
    for folder in folders:
        top = base / folder
        for path in sorted(top.rglob("*"), key=lambda p: len(p.parts), reverse=True):
            if path.is_dir() and not any(path.iterdir()):
                path.rmdir()
        if top.is_dir() and not any(top.iterdir()):
            top.rmdir()


def _orphans(project: Project, base: Path, ids: set[str]) -> list[str]:
    """Output folders of specs the project no longer has (``<output>/<id>/`` holding a
    package codegen generated, whose spec was deleted or renamed), relative to ``base``:
    owned by this run, so their files are stale (``--check``) or removed."""
    if not project.output.is_dir():
        return []
    found = []
    for folder in sorted(project.output.iterdir()):
        if folder.name in ids or not folder.is_dir():
            continue
        if any(folder.glob("python/*/_provenance.py")):
            found.append(os.path.relpath(folder, base).replace(os.sep, "/"))
    return found


def _plan(
    project: Project, drafted: list[Any], out: Output
) -> tuple[dict[str, str], list[str], list[dict[str, str]]] | None:
    """The write plan of the drafted specs: all their Python formatted in one run."""
    if not drafted:
        return {}, [], []
    from codegen.backends.formatting import FormattingError
    from codegen.pipeline import finish_drafts

    try:
        finished = finish_drafts([item.draft for item in drafted], project.formatter)
    except FormattingError as exc:
        out.error(f"the emitted Python does not format: {exc}")
        return None
    files: dict[str, str] = {}
    owned: list[str] = []
    per_spec: list[dict[str, str]] = []
    for item, outputs in zip(drafted, finished, strict=True):
        mine = {f"{item.out_rel}/{rel}": text for rel, text in outputs.items()}
        mine.update(item.extra)
        per_spec.append(mine)
        files.update(mine)
        owned.append(item.out_rel)
    return files, owned, per_spec


def _compare(
    base: Path, files: dict[str, str], owned: list[str], kept: int, out: Output
) -> int:
    from codegen.writer import WriteError, diff_plan

    try:
        changes, diff = diff_plan(base, files, owned)
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
    out.info(f"generated output is current ({len(files) + kept} files)")
    return EXIT_OK


def _write(
    project: Project,
    base: Path,
    files: dict[str, str],
    owned: list[str],
    kept: int,
    out: Output,
) -> int:
    from codegen.writer import Changes, WriteError, apply_plan

    try:
        changes = (
            apply_plan(base, files, owned, on_wait=out.info)
            if files or owned
            else Changes()
        )
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
        f"{len(files) + kept} files in {project.show(project.output)}: "
        f"{len(changes.created)} created, {len(changes.updated)} updated, "
        f"{len(changes.removed)} removed"
    )
    return EXIT_OK


class _Records:
    """The run's use of ``codegen.cache``: keys before reading, records after rendering."""

    def __init__(self, project: Project, base: Path, dirs: list[Path]) -> None:
        from codegen import cache

        self.cache = cache.Cache(base)
        self.project = project
        self.base = base
        self.keys = {d: cache.spec_key(d, self._options(d)) for d in dirs}

    def _options(self, spec_dir: Path) -> Any:
        from codegen import cache

        settings = self.project.specs.get(self.project.spec_id_for(spec_dir))
        return cache.Options(
            root=self.base,
            output=self.project.output,
            formatter=self.project.formatter,
            strict=self.project.strict_for(spec_dir),
            package=settings.package if settings else None,
            distribution=settings.distribution if settings else None,
            templates=self.project.templates,
        )

    def hits(self) -> dict[Path, Any]:
        if not self.cache.usable():
            return {}
        found = {d: self.cache.lookup(key) for d, key in self.keys.items()}
        return {d: record for d, record in found.items() if record is not None}

    def store(self, drafted: dict[Path, Any], per_spec: list[dict[str, str]]) -> None:
        """Record what each drafted spec produced (``per_spec``: its plan's files)."""
        from codegen import cache

        project = self.project
        for (spec_dir, item), files in zip(drafted.items(), per_spec, strict=True):
            key = cache.spec_key(spec_dir, self._options(spec_dir))
            if key != self.keys[spec_dir]:
                continue  # edited while we read it: this output may not be its own
            shown, hidden = _shown(item, project, False, False)
            verbose, _ = _shown(item, project, False, True)
            self.cache.store(
                key,
                cache.Record(
                    item.spec_id,
                    {rel: cache.text_hash(text) for rel, text in files.items()},
                    (item.out_rel,),
                    shown,
                    verbose,
                    hidden,
                ),
            )


def _same_ids(ids: list[tuple[str, Path]], project: Project) -> str | None:
    seen: dict[str, Path] = {}
    for spec_id, spec_dir in ids:
        if spec_id in seen:
            return (
                f"{project.show(seen[spec_id])} and {project.show(spec_dir)} "
                f"both declare spec id {spec_id!r} (both would write "
                f"{project.show(project.output_dir(spec_id))})"
            )
        seen[spec_id] = spec_dir
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
                out.problem(exc)
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
        if file.name == EXTRACTED_FILE or editor_temporary(file.name):
            return False
        return not file.is_relative_to(self._output)


# Files editors write beside the one being edited, and remove: never a spec change.
_EDITOR_TEMPORARY = re.compile(
    r"""^(\..*                  # vim .swp/.swx, emacs .#lock, dot-files
        |\#.*\#                  # emacs auto-save
        |.*~                     # emacs and vim backups
        |4913                    # vim's can-I-write probe
        |.*\.(tmp|bak|orig|rej|swp|swx)
        |.*___jb_(tmp|old)___    # JetBrains safe write
        |.*\.sw[a-p]
        )$""",
    re.VERBOSE,
)


def editor_temporary(name: str) -> bool:
    """Whether ``name`` is an editor's temporary or backup file (``--watch`` ignores
    its changes)."""
    return _EDITOR_TEMPORARY.match(name) is not None
