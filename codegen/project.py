"""A project's codegen settings: ``[tool.codegen]`` in ``pyproject.toml``, found upward.

Phase: before the pipeline (used by the command line).
Inputs: the current directory (the nearest ``pyproject.toml`` holding a ``[tool.codegen]``
table, from there upward, as ruff finds ``[tool.ruff]``), or an explicit ``--config`` file;
then the command-line flags, which override the file.  The table::

    [tool.codegen]
    specs = ["specs"]            # folders holding <id>/spec.toml (or a spec folder itself)
    output = "generated"         # <output>/<id>/ is written for each spec
    templates = "my-templates"   # optional (must exist): its files replace built-ins by name
    formatter = "ruff"           # "ruff" (default) or "none"
    strict = false               # true: warnings are errors too

    [tool.codegen.spec.ahp]      # per spec (its folder name): Python names and options
    package = "ahp_v1"
    distribution = "ahp-v1"
    strict = true

Paths in the file are relative to the file; paths given as flags, to the current directory.
Without any ``[tool.codegen]`` the current directory is the project, with the defaults above.
Outputs: a ``Project``: the project root, spec folders, output folder and options; spec ids
resolved to spec folders; specs loaded with the project's per-spec settings applied.
Guarantees: every problem with the settings or with a spec named on the command line is a
``ProjectError`` with a message for the user (an unknown key, a wrong type, an unknown spec
id with the known ids and the closest one), never a traceback; nothing here writes files.
"""

from __future__ import annotations

import dataclasses
import os
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the pipeline (IR, passes) loads on first use: a no-op run never
    from codegen.pipeline import SpecOutcome
    from codegen.spec.schema import Problem

__all__ = [
    "FORMATTERS",
    "Project",
    "ProjectError",
    "SpecSettings",
    "find_pyproject",
    "load_project",
]

FORMATTERS = ("ruff", "none")
_DISTRIBUTION = re.compile(r"^[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?$")


class ProjectError(Exception):
    """The project's settings or a spec named on the command line cannot be used.

    ``rendered``: the problems as diagnostics (``file:line:col``, the line, a caret) when
    they are at a place in a settings file."""

    def __init__(self, message: str, rendered: str | None = None) -> None:
        super().__init__(message)
        self.rendered = rendered


@dataclass(frozen=True)
class SpecSettings:
    """``[tool.codegen.spec.<id>]``: what this project changes for one spec."""

    package: str | None = None
    distribution: str | None = None
    strict: bool | None = None


@dataclass(frozen=True)
class Project:
    root: Path  # absolute: where the settings live (or the current directory)
    pyproject: Path | None  # the file the settings came from, if any
    spec_folders: tuple[Path, ...]
    output: Path
    templates: Path | None = None
    formatter: str = "ruff"
    strict: bool = False
    specs: Mapping[str, SpecSettings] = field(default_factory=dict)
    strict_flag: bool = False  # --strict on the command line: wins over every setting

    # ------------------------------------------------------------------ flags

    def with_flags(
        self,
        cwd: Path,
        *,
        output: Path | None = None,
        templates: Path | None = None,
        formatter: str | None = None,
        strict: bool | None = None,
    ) -> Project:
        """The project as the command line changes it (flag paths are cwd-relative)."""
        changed = self
        if output is not None:
            changed = dataclasses.replace(changed, output=_absolute(cwd, output))
        if templates is not None:
            changed = dataclasses.replace(changed, templates=_absolute(cwd, templates))
        if formatter is not None:
            changed = dataclasses.replace(changed, formatter=formatter)
        if strict:
            changed = dataclasses.replace(changed, strict_flag=True)
        return changed

    # ------------------------------------------------------------------ specs

    def discover(self) -> dict[str, Path]:
        """Every spec of the project: id (its folder name) → spec folder."""
        found: dict[str, Path] = {}
        for folder in self.spec_folders:
            candidates = (
                [folder]
                if (folder / "spec.toml").is_file()
                else sorted(p.parent for p in folder.glob("*/spec.toml"))
            )
            for spec_dir in candidates:
                earlier = found.get(spec_dir.name)
                if earlier is not None and earlier != spec_dir:
                    raise ProjectError(
                        f"two specs are called {spec_dir.name!r}: "
                        f"{self.show(earlier)} and {self.show(spec_dir)}"
                    )
                found[spec_dir.name] = spec_dir
        return dict(sorted(found.items()))

    def resolve(self, cwd: Path, names: list[str] | None) -> list[Path]:
        """Spec folders for command-line arguments: ids, spec folders, or folders of
        specs; no arguments: every spec of the project."""
        known = self.discover()
        stale = sorted(set(self.specs) - set(known))
        if stale:
            raise ProjectError(
                f"[tool.codegen.spec.{stale[0]}] in {self.show(self.pyproject or self.root)}: "
                + unknown_spec_message(stale[0], list(known))
            )
        if not names:
            if not known:
                folders = ", ".join(self.show(f) for f in self.spec_folders)
                raise ProjectError(
                    f"no specs found (looked in {folders}); "
                    "`codegen init ID --language LANG` creates one"
                )
            return list(known.values())
        out: list[Path] = []
        for name in names:
            out.extend(self._resolve_one(cwd, name, known))
        return list(dict.fromkeys(out))

    def _resolve_one(self, cwd: Path, name: str, known: dict[str, Path]) -> list[Path]:
        if name in known and not (cwd / name).is_dir():
            return [known[name]]
        path = cwd / name
        if (path / "spec.toml").is_file():
            return [path.resolve()]
        if path.is_dir():
            inner = sorted(p.parent.resolve() for p in path.glob("*/spec.toml"))
            if inner:
                return inner
            raise ProjectError(f"{name!r} is a folder without a spec.toml")
        if name in known:
            return [known[name]]
        raise ProjectError(unknown_spec_message(name, list(known)))

    def spec_id_for(self, spec_dir: Path) -> str:
        return spec_dir.name

    def root_for(self, spec_dir: Path) -> Path:
        """The folder spans and provenance of a spec are relative to: the project, or
        for a spec outside it, the folder holding the spec."""
        spec_dir = spec_dir.resolve()
        return self.root if spec_dir.is_relative_to(self.root) else spec_dir.parent

    def load(self, spec_dir: Path) -> SpecOutcome:
        """Read one spec (frontend and passes) with this project's settings for it."""
        from codegen.pipeline import load_protocol

        outcome = load_protocol(spec_dir, self.root_for(spec_dir))
        settings = self.specs.get(self.spec_id_for(spec_dir))
        if outcome.config is not None and settings is not None:
            config = outcome.config
            if settings.package is not None:
                config = dataclasses.replace(
                    config,
                    python_package=settings.package,
                    python_distribution=settings.package.replace("_", "-"),
                )
            if settings.distribution is not None:
                config = dataclasses.replace(
                    config, python_distribution=settings.distribution
                )
            outcome.config = config
        return outcome

    def strict_for(self, spec_dir: Path) -> bool:
        """--strict, else the spec's own setting, else the project's."""
        settings = self.specs.get(self.spec_id_for(spec_dir))
        if self.strict_flag:
            return True
        if settings is not None and settings.strict is not None:
            return settings.strict
        return self.strict

    # ------------------------------------------------------------------ output

    def output_dir(self, spec_id: str) -> Path:
        return self.output / spec_id

    def base(self, spec_dirs: list[Path]) -> Path:
        """The folder the write plan is relative to: the project root, unless the output
        or a spec lies outside it."""
        paths = [
            str(self.root),
            str(self.output),
            *(str(d.resolve()) for d in spec_dirs),
        ]
        return Path(os.path.commonpath(paths))

    def show(self, path: Path) -> str:
        """A path for messages: relative to the project root when inside it."""
        try:
            return path.resolve().relative_to(self.root).as_posix() or "."
        except ValueError:
            return str(path)


def unknown_spec_message(name: str, known: list[str]) -> str:
    if not known:
        return f"unknown spec {name!r}: this project has no specs yet"
    from codegen.diagnostics import did_you_mean

    hint = did_you_mean(name, known)
    return f"unknown spec {name!r} (known: {', '.join(known)}){hint}"


# ---------------------------------------------------------------------- loading


def find_pyproject(start: Path) -> Path | None:
    """The nearest ``pyproject.toml`` with a ``[tool.codegen]`` table, from ``start`` up."""
    start = start.resolve()
    for folder in [start, *start.parents]:
        candidate = folder / "pyproject.toml"
        if candidate.is_file() and "codegen" in _read_toml(candidate).get("tool", {}):
            return candidate
    return None


def load_project(cwd: Path, config: Path | None = None) -> Project:
    """The project seen from ``cwd`` (or the settings in ``config``)."""
    cwd = cwd.resolve()
    if config is not None:
        path = _absolute(cwd, config)
        if not path.is_file():
            raise ProjectError(f"{config}: no such file")
        table = _read_toml(path).get("tool", {}).get("codegen")
        if table is None:
            raise ProjectError(f"{config} has no [tool.codegen] table")
        return _from_table(table, path, cwd)
    found = find_pyproject(cwd)
    if found is None:
        return Project(cwd, None, (cwd / "specs",), cwd / "generated")
    return _from_table(_read_toml(found)["tool"]["codegen"], found, cwd)


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ProjectError(f"cannot read {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise ProjectError(f"{path} is not UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        raise ProjectError(f"{path} is not valid TOML: {exc}") from None


def _from_table(table: Any, path: Path, cwd: Path) -> Project:
    if not isinstance(table, dict):
        raise ProjectError(f"{path.name} [tool.codegen] must be a table")
    from codegen.spec.schema import check_tool

    problems = check_tool(table) or _name_problems(table)
    if problems:
        raise _located(problems, path, cwd)
    root = path.parent.resolve()
    specs = table.get("specs", ["specs"])
    if isinstance(specs, str):
        specs = [specs]
    templates = table.get("templates")
    return Project(
        root=root,
        pyproject=path,
        spec_folders=tuple((root / s).resolve() for s in specs),
        output=(root / table.get("output", "generated")).resolve(),
        templates=(root / templates).resolve() if templates is not None else None,
        formatter=table.get("formatter", "ruff"),
        strict=table.get("strict", False),
        specs={
            spec_id: SpecSettings(
                entry.get("package"), entry.get("distribution"), entry.get("strict")
            )
            for spec_id, entry in sorted(table.get("spec", {}).items())
        },
    )


def _name_problems(table: dict[str, Any]) -> list[Problem]:
    """Per-spec names that become code and metadata: a package must be an identifier,
    a distribution a valid project name."""
    from codegen.spec.schema import Problem

    out: list[Problem] = []
    for spec_id, entry in sorted(table.get("spec", {}).items()):
        here = f"tool.codegen.spec.{spec_id}"
        package = entry.get("package")
        if package is not None and not package.isidentifier():
            out.append(
                Problem(
                    ("spec", spec_id, "package"),
                    f"{here}.package {package!r} is not a Python identifier",
                )
            )
        distribution = entry.get("distribution")
        if distribution is not None and not _DISTRIBUTION.match(distribution):
            out.append(
                Problem(
                    ("spec", spec_id, "distribution"),
                    f"{here}.distribution {distribution!r} is not a valid project name",
                )
            )
    return out


def _located(problems: list[Problem], path: Path, cwd: Path) -> ProjectError:
    """The problems as diagnostics at their keys or values in the settings file."""
    from codegen.diagnostics import Diagnostics, render_all
    from codegen.ir import Span
    from codegen.spec.toml_locations import locate

    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        text = ""
    locations = locate(text)
    shown = Path(os.path.relpath(path, cwd)).as_posix()
    diags = Diagnostics()
    for problem in problems:
        full = ("tool", "codegen", *problem.path)
        found = locations.key(full) if problem.at_key else locations.value(full)
        diags.report("CFG002", problem.message, Span(shown, found.line, found.col))
    return ProjectError(
        f"{shown}: {problems[0].message}", rendered=render_all(diags, cwd)
    )


def _absolute(cwd: Path, path: Path) -> Path:
    return (cwd / path).resolve()
