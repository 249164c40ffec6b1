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

from codegen.diagnostics import Diagnostics, Severity, render_all
from codegen.ir import dump as ir_dump
from codegen.pipeline import SpecOutcome, build_plan, discover_specs, load_protocol
from codegen.spec.config import find_repo_root
from codegen.writer import WriteError, apply_plan, diff_plan

app = typer.Typer(
    help="Protocol specs (TypeScript, Rust serde, Go, prose) → one IR → typed Python, "
    "JSON Schema, stubs and docs.",
    epilog="Specs live in specs/<id>/ (spec.toml + sources); output goes to generated/<id>/. "
    "Typical use: `codegen generate` after a spec change, `codegen generate --check` in CI, "
    "`codegen diff main:specs/<id> <id>` before shipping a spec revision, "
    "`codegen serve <id>` to talk to a stub.",
    no_args_is_help=True,
    add_completion=False,
)
ir_app = typer.Typer(
    help="Inspect the intermediate representation.", no_args_is_help=True
)
app.add_typer(ir_app, name="ir")
# soft_wrap: diagnostics and paths must not be broken at the terminal width.
err = Console(stderr=True, highlight=False, soft_wrap=True)

SpecArgs = Annotated[
    list[str] | None,
    typer.Argument(
        help="Spec ids (directories under specs/) or spec directories; default: all."
    ),
]
# The diff's FAIL_ON, spelled out so that only `codegen diff` imports the diff package;
# tests/unit/test_cli.py checks that they agree.
DIFF_FAIL_ON = ("breaking", "dangerous", "compatible", "none")

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


def _report(
    outcomes: list[SpecOutcome], root: Path, strict: bool, notes: bool = True
) -> None:
    """Print warnings and errors in full; notes too, or only their count (``generate``
    runs often, and a spec can carry dozens of informational notes)."""
    merged = Diagnostics()
    hidden = 0
    for outcome in outcomes:
        for item in outcome.diags.items:
            if notes or item.severity is not Severity.NOTE:
                merged.items.append(item)
            else:
                hidden += 1
    if merged.items:
        err.print(render_all(merged, root, strict), markup=False, highlight=False)
    if hidden:
        err.print(
            f"{hidden} note(s) not shown; `codegen check` or `--verbose` lists them"
        )


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
    verbose: Annotated[
        bool,
        typer.Option("--verbose", "-v", help="Also print notes, not only their count."),
    ] = False,
) -> None:
    """Regenerate generated/<id>/ for each spec (all specs by default)."""
    root = _root()
    dirs = _spec_dirs(root, specs)
    with err.status(f"generating {len(dirs)} spec(s)…"):
        plan = build_plan(dirs, root, strict)
    _report(plan.outcomes, root, strict, notes=verbose)
    if not plan.ok(strict):
        err.print("error: generation stopped; nothing was written")
        raise typer.Exit(1)
    if check:
        try:
            changes, diff = diff_plan(root, plan.files, plan.owned_dirs)
        except WriteError as exc:
            err.print(f"error: {exc}", markup=False)
            raise typer.Exit(1) from None
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
    try:
        changes = apply_plan(
            root,
            plan.files,
            plan.owned_dirs,
            on_wait=lambda note: err.print(note, markup=False),
        )
    except WriteError as exc:
        err.print(f"error: {exc}", markup=False)
        raise typer.Exit(1) from None
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


@app.command("vendor")
def vendor_command(
    target: Annotated[
        str,
        typer.Argument(
            help="Spec id to vendor, or with --check the vendored package dir."
        ),
    ],
    dest: Annotated[
        Path | None, typer.Argument(help="Directory to put the package in.")
    ] = None,
    package: Annotated[
        str | None, typer.Option("--package", help="Import name to vendor under.")
    ] = None,
    check_copy: Annotated[
        bool,
        typer.Option(
            "--check", help="Check a vendored copy: intact, and current for the spec."
        ),
    ] = False,
) -> None:
    """Copy a generated package into another project, or check a vendored copy."""
    from codegen.cli import vendor as vendoring

    root = _root()
    try:
        if check_copy:
            report = vendoring.check(root, Path(target))
            sys.stdout.write("\n".join(report.lines()) + "\n")
            if not (report.intact() and report.current()):
                raise typer.Exit(1)
            return
        if dest is None:
            err.print("error: vendor needs DEST (or --check PACKAGE_DIR)")
            raise typer.Exit(2)
        written = vendoring.vendor(root, target, dest, package)
    except vendoring.VendorError as exc:
        err.print(f"error: {exc}")
        raise typer.Exit(2) from exc
    err.print(f"vendored spec '{target}' as {written}")


@app.command("validate")
def validate_command(
    spec: Annotated[str, typer.Argument(help="Spec id.")],
    file: Annotated[
        Path, typer.Argument(help="A JSON message, or a JSON Lines transcript.")
    ],
    method: Annotated[
        str | None,
        typer.Option("--method", help="Method of a bare params/result value."),
    ] = None,
    part: Annotated[
        str | None, typer.Option("--part", help="params or result (with --method).")
    ] = None,
) -> None:
    """Validate wire messages; errors name the JSON pointer and the declaring source line."""
    from codegen.cli.validate import Validator, read_messages

    if (method is None) != (part is None) or part not in (None, "params", "result"):
        err.print("error: --method and --part go together; --part is params or result")
        raise typer.Exit(2)
    if not file.is_file():
        err.print(f"error: {file} does not exist")
        raise typer.Exit(2)
    messages = read_messages(file)
    if isinstance(messages, str):
        err.print(f"{file}: {messages}")
        raise typer.Exit(1)
    try:
        validator = Validator(_root(), spec)
    except ValueError as exc:
        err.print(f"error: {exc}")
        raise typer.Exit(2) from exc
    findings = validator.validate(messages, method, part)
    for finding in findings:
        sys.stdout.write(finding.render(str(file)) + "\n")
    bad = len({f.message for f in findings})
    err.print(f"{len(messages)} message(s), {bad} invalid")
    if findings:
        raise typer.Exit(1)


@app.command("diff")
def diff(
    old: Annotated[
        str, typer.Argument(help="Old side: spec dir, spec id, file or REV:path.")
    ],
    new: Annotated[
        str, typer.Argument(help="New side: spec dir, spec id, file or REV:path.")
    ],
    level: Annotated[
        str, typer.Option(help="wire, or python (the generated API; includes wire).")
    ] = "wire",
    fail_on: Annotated[
        str,
        typer.Option(
            help="Exit 1 at this severity or above: " + "|".join(DIFF_FAIL_ON) + "."
        ),
    ] = "breaking",
    fmt: Annotated[
        str, typer.Option("--format", help="text, markdown or json.")
    ] = "text",
    role: Annotated[
        str | None,
        typer.Option(help="Rate only the scenarios where this role runs NEW."),
    ] = None,
) -> None:
    """Compare two spec revisions by their IR; classify every change by wire impact."""
    from codegen.diff import FAIL_ON, Level, SideError, diff_sides

    for value, allowed, name in (
        (level, ("wire", "python"), "--level"),
        (fail_on, FAIL_ON, "--fail-on"),
        (fmt, ("text", "markdown", "json"), "--format"),
    ):
        if value not in allowed:
            err.print(f"error: {name} must be one of {', '.join(allowed)}")
            raise typer.Exit(2)
    try:
        report = diff_sides(old, new, level=Level(level), role=role)
    except SideError as exc:
        err.print(f"error: {exc}", markup=False, highlight=False)
        raise typer.Exit(2) from None
    sys.stdout.write(report.render(fmt))
    raise typer.Exit(report.exit_code(fail_on))


@app.command("serve")
def serve(
    spec: Annotated[str, typer.Argument(help="Spec id or spec directory.")],
    transport: Annotated[
        str | None,
        typer.Option(help="stdio, websocket or http; default: the spec's first."),
    ] = None,
    host: Annotated[str, typer.Option(help="Interface to bind.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="TCP port; 0 picks a free one.")] = 0,
    transcript: Annotated[
        Path | None, typer.Option(help="Append every message to this JSONL file.")
    ] = None,
    max_message_bytes: Annotated[
        int | None, typer.Option(help="Refuse messages over this size (16 MiB).")
    ] = None,
    quiet: Annotated[bool, typer.Option(help="No per-message log.")] = False,
) -> None:
    """Start the generated stub server of a spec (`python -m <pkg>.server`)."""
    from codegen.cli import serve as serving

    root = _root()
    (spec_dir,) = _spec_dirs(root, [spec])
    options = ["--host", host, "--port", str(port)]
    options += ["--transport", transport] if transport else []
    options += ["--transcript", str(transcript)] if transcript else []
    options += ["--quiet"] if quiet else []
    if max_message_bytes is not None:
        options += ["--max-message-bytes", str(max_message_bytes)]
    try:
        argv, env = serving.server_command(spec_dir, root, options)
    except serving.ServeError as exc:
        err.print(f"error: {exc}", markup=False, highlight=False)
        raise typer.Exit(2) from None
    serving.run(argv, env)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
