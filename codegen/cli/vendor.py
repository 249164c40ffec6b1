"""Vendoring: copy a generated package into another project, and check such a copy later.

Phase: output and audit (``codegen vendor``).
Inputs: a spec (for ``vendor``), or a vendored package directory (for ``--check``).
Outputs: ``vendor`` writes ``DEST/<name>/`` — the package rendered under the chosen import
name, so two protocols or two versions live side by side; ``check`` returns a report: files
edited, removed or added by hand (against the sha256s in ``_provenance.py``), and whether
the spec or generator moved on since (the package the generator would write now differs),
with the sources whose hashes changed and, when git history holds the old sources, the
semantic spec diff.
Guarantees: the check never imports the vendored code (it reads ``_provenance.py`` as data);
writes go through the atomic writer.
"""

from __future__ import annotations

import ast
import dataclasses
import hashlib
import os
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from codegen.backends.python.package import PROVENANCE
from codegen.pipeline import render_outputs
from codegen.project import Project, ProjectError
from codegen.writer import apply_plan


class VendorError(Exception):
    """A user-facing problem (unknown spec, spec with errors, not a vendored package)."""


def render_package(
    project: Project, spec_dir: Path, package: str | None
) -> tuple[str, dict[str, str]]:
    """The package's files as the generator writes them now: (import name, {file: text})."""
    outcome = project.load(spec_dir)
    name = spec_dir.name
    if outcome.protocol is None or outcome.config is None or not outcome.ok():
        raise VendorError(
            f"spec {name!r} does not load cleanly; `codegen check {name}` says why"
        )
    config = outcome.config
    if package is not None:
        if not package.isidentifier():
            raise VendorError(f"{package!r} is not a valid Python package name")
        config = dataclasses.replace(config, python_package=package)
    # Only the package: schema and docs are not vendored, so they are not rendered.
    files = render_outputs(
        outcome.protocol, config, package_only=True, formatter=project.formatter
    )
    prefix = f"python/{config.python_package}/"
    return config.python_package, {
        path[len(prefix) :]: text
        for path, text in files.items()
        if path.startswith(prefix)
    }


def vendor(project: Project, spec_dir: Path, dest: Path, package: str | None) -> Path:
    name, files = render_package(project, spec_dir, package)
    target = dest / name
    plan = {f"{name}/{rel}": text for rel, text in files.items()}
    try:
        apply_plan(dest, plan, [name])
    except OSError as exc:
        raise VendorError(
            f"cannot write {exc.filename or dest}: {exc.strerror}"
        ) from None
    return target


@dataclass
class CheckReport:
    package: str
    spec: str
    edited: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    added: list[str] = field(default_factory=list)
    stale_files: list[str] = field(default_factory=list)
    changed_sources: list[str] = field(default_factory=list)
    spec_diff: str = ""
    # False in a project without the spec (the consuming project): only the files were
    # checked against their recorded hashes.
    spec_checked: bool = True

    def intact(self) -> bool:
        return not (self.edited or self.missing or self.added)

    def current(self) -> bool:
        return not self.stale_files

    def lines(self) -> list[str]:
        out = [f"{self.package}: vendored from spec '{self.spec}'"]
        out += [f"  edited by hand: {name}" for name in self.edited]
        out += [f"  missing: {name}" for name in self.missing]
        out += [f"  added by hand: {name}" for name in self.added]
        if self.stale_files:
            out.append("  stale: the generator would now write different files:")
            out += [f"    {name}" for name in self.stale_files]
            out += [
                f"  source changed since vendoring: {s}" for s in self.changed_sources
            ]
            if self.spec_diff:
                out.append("  what changed in the spec:")
                out += ["    " + line for line in self.spec_diff.splitlines()]
        if not self.spec_checked:
            out.append(
                f"  not compared with spec '{self.spec}' (not in this project; "
                "`codegen vendor --check` where the spec lives says whether it moved on)"
            )
            if self.intact():
                out.append("  intact")
        elif self.intact() and self.current():
            out.append("  intact and current")
        return out


def read_provenance(package_dir: Path) -> dict[str, Any]:
    path = package_dir / PROVENANCE
    if not path.is_file():
        raise VendorError(
            f"{package_dir} has no {PROVENANCE}: not a package vendored by codegen"
        )
    values: dict[str, Any] = {}
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        target = (
            node.targets[0]
            if isinstance(node, ast.Assign)
            else getattr(node, "target", None)
        )
        value = getattr(node, "value", None)
        if isinstance(target, ast.Name) and value is not None:
            try:
                values[target.id] = ast.literal_eval(value)
            except ValueError:
                continue
    for key in ("SPEC_ID", "PACKAGE", "FILES", "SOURCES"):
        if key not in values:
            raise VendorError(f"{path} lacks {key}")
    return values


def check(project: Project, package_dir: Path) -> CheckReport:
    provenance = read_provenance(package_dir)
    spec, package = str(provenance["SPEC_ID"]), str(provenance["PACKAGE"])
    report = CheckReport(package, spec)
    recorded: dict[str, str] = dict(provenance["FILES"])
    on_disk = {
        p.relative_to(package_dir).as_posix()
        for p in package_dir.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    }
    for name in sorted(recorded):
        path = package_dir / name
        if not path.is_file():
            report.missing.append(name)
        elif hashlib.sha256(path.read_bytes()).hexdigest() != recorded[name]:
            report.edited.append(name)
    report.added = sorted(on_disk - set(recorded) - {PROVENANCE})
    try:
        spec_dir = project.discover().get(spec)
    except ProjectError:
        spec_dir = None
    if spec_dir is None:
        # The consuming project: the hashes in _provenance.py still tell hand edits.
        report.spec_checked = False
        return report
    _, fresh = render_package(project, spec_dir, package)
    for name in sorted(set(fresh) | set(recorded)):
        if name == PROVENANCE:
            continue
        text = fresh.get(name)
        digest = (
            hashlib.sha256(text.encode("utf-8")).hexdigest()
            if text is not None
            else None
        )
        if digest != recorded.get(name):
            report.stale_files.append(name)
    if report.stale_files:
        root = project.root_for(spec_dir)
        report.changed_sources = _changed_sources(root, provenance["SOURCES"])
        report.spec_diff = _spec_diff(root, spec_dir, provenance["SOURCES"])
    return report


def _changed_sources(repo: Path, sources: tuple[tuple[str, str], ...]) -> list[str]:
    changed: list[str] = []
    for path, digest in sources:
        current = repo / path
        now = (
            hashlib.sha256(current.read_bytes()).hexdigest()
            if current.is_file()
            else "gone"
        )
        if now != digest:
            changed.append(f"{path} (sha256 {digest[:12]} → {now[:12]})")
    return changed


def _spec_diff(repo: Path, spec_dir: Path, sources: tuple[tuple[str, str], ...]) -> str:
    """The semantic diff from the vendored spec revision, found in git history by hash."""
    from codegen.diff import SideError, diff_sides

    revision = _revision_with_sources(repo, sources)
    if revision is None:
        return ""
    rel = Path(os.path.relpath(spec_dir, repo)).as_posix()
    try:
        report = diff_sides(f"{revision}:./{rel}", rel, cwd=repo)
    except SideError:
        return ""
    return report.text()


def _revision_with_sources(
    repo: Path, sources: tuple[tuple[str, str], ...]
) -> str | None:
    paths = [path for path, _ in sources]
    try:
        log = subprocess.run(
            ["git", "log", "--format=%H", "--", *paths],
            cwd=repo,
            capture_output=True,
            text=True,
            check=False,
        )
    except OSError:  # no git: no history to diff against
        return None
    for commit in log.stdout.split():
        if all(_blob_sha256(repo, commit, path) == digest for path, digest in sources):
            return commit
    return None


def _blob_sha256(repo: Path, commit: str, path: str) -> str | None:
    shown = subprocess.run(
        ["git", "show", f"{commit}:./{path}"],
        cwd=repo,
        capture_output=True,
        check=False,
    )
    return hashlib.sha256(shown.stdout).hexdigest() if shown.returncode == 0 else None
