"""The ``codegen`` command line (typer).

Phase: entry point.
Inputs: command-line arguments; spec directories under ``specs/``.
Outputs: generated files through the writer, IR dumps, diagnostics on stderr.
Guarantees: exit 0 on success, 1 on drift (``--check``) or spec errors, 2 on usage errors;
diagnostics are rendered ``path:line:col: severity[CODE]: message`` with a caret; nothing is
written unless every spec converted cleanly.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from codegen import ir_dump
from codegen.config import find_repo_root
from codegen.diagnostics import Diagnostics, render_all
from codegen.pipeline import SpecOutcome, build_plan, discover_specs, load_protocol
from codegen.writer import apply_plan, diff_plan

app = typer.Typer(
    help="Protocol specs (TypeScript, Rust serde, Go, prose) → one IR → typed Python, "
    "JSON Schema, stubs and docs.",
    no_args_is_help=True,
    add_completion=False,
)
ir_app = typer.Typer(
    help="Inspect the intermediate representation.", no_args_is_help=True
)
app.add_typer(ir_app, name="ir")
err = Console(stderr=True, highlight=False)

SpecArgs = Annotated[
    list[str] | None,
    typer.Argument(
        help="Spec ids (directories under specs/) or spec directories; default: all."
    ),
]
StrictOpt = Annotated[
    bool,
    typer.Option("--strict", help="Treat warnings (e.g. external types) as errors."),
]


def _root() -> Path:
    return find_repo_root(Path.cwd())


def _spec_dirs(root: Path, specs: list[str] | None) -> list[Path]:
    if not specs:
        found = discover_specs(root / "specs")
        if not found:
            err.print(f"no specs found under {root / 'specs'}")
            raise typer.Exit(2)
        return found
    out: list[Path] = []
    for spec in specs:
        candidate = Path(spec) if Path(spec).is_dir() else root / "specs" / spec
        if not (candidate / "spec.toml").is_file():
            err.print(
                f"error: {spec!r} is neither a spec id under specs/ nor a spec directory"
            )
            raise typer.Exit(2)
        out.append(candidate)
    return out


def _report(outcomes: list[SpecOutcome], root: Path, strict: bool) -> None:
    merged = Diagnostics()
    for outcome in outcomes:
        merged.extend(outcome.diags)
    if merged.items:
        err.print(render_all(merged, root, strict), markup=False, highlight=False)


@app.command()
def generate(
    specs: SpecArgs = None,
    check: Annotated[
        bool,
        typer.Option(
            "--check", help="Write nothing; show a diff and exit 1 if output is stale."
        ),
    ] = False,
    strict: StrictOpt = False,
) -> None:
    """Regenerate generated/<id>/ for each spec (all specs by default)."""
    root = _root()
    dirs = _spec_dirs(root, specs)
    with err.status(f"generating {len(dirs)} spec(s)…"):
        plan = build_plan(dirs, root, strict)
    _report(plan.outcomes, root, strict)
    if not plan.ok(strict):
        err.print("error: generation stopped; nothing was written")
        raise typer.Exit(1)
    if check:
        changes, diff = diff_plan(root, plan.files, plan.owned_dirs)
        if changes.any():
            sys.stdout.write(diff)
            err.print(
                f"generated output is stale: {len(changes.created)} new, "
                f"{len(changes.updated)} changed, {len(changes.removed)} stale file(s); "
                "run `make generate`"
            )
            raise typer.Exit(1)
        err.print(f"generated output is current ({len(plan.files)} files)")
        return
    changes = apply_plan(root, plan.files, plan.owned_dirs)
    err.print(
        f"{len(plan.files)} files: {len(changes.created)} created, {len(changes.updated)} updated, "
        f"{len(changes.removed)} removed"
    )


@app.command()
def check(specs: SpecArgs = None, strict: StrictOpt = False) -> None:
    """Read the specs and report diagnostics without generating anything."""
    root = _root()
    outcomes = [load_protocol(spec_dir, root) for spec_dir in _spec_dirs(root, specs)]
    _report(outcomes, root, strict)
    if not all(outcome.ok(strict) for outcome in outcomes):
        raise typer.Exit(1)


@ir_app.command("dump")
def dump(
    spec: Annotated[str, typer.Argument(help="Spec id or spec directory.")],
) -> None:
    """Print the normalized IR of one spec as deterministic JSON."""
    root = _root()
    (spec_dir,) = _spec_dirs(root, [spec])
    outcome = load_protocol(spec_dir, root)
    _report([outcome], root, strict=False)
    if outcome.protocol is None:
        raise typer.Exit(1)
    sys.stdout.write(ir_dump.dump(outcome.protocol))
    if not outcome.ok():
        raise typer.Exit(1)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
