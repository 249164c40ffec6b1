"""The ``codegen`` command line (typer): options, exit codes, and the glue of each command.

Phase: entry point.
Inputs: command-line arguments; the project's ``[tool.codegen]`` settings
(``codegen.project``, found from the current directory upward), which flags override.
Outputs: generated files through the writer, IR dumps, reports on stdout; diagnostics and
messages on stderr (``output``: coloured on a terminal, plain when piped or ``NO_COLOR``).
Guarantees: exit 0 when done and nothing was found, 1 on findings (spec errors, stale
output, invalid messages, breaking changes, a server that cannot start), 2 on usage errors
(unknown option or value, unknown spec, unusable settings); no input given on the command
line produces a traceback; nothing is written unless every spec converted cleanly.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from typing import Annotated, Final, Literal

import typer

from codegen.cli import generate as generating
from codegen.cli.options import (
    Command,
    ConfigOpt,
    FormatterOpt,
    Group,
    OutputOpt,
    QuietOpt,
    SpecArgs,
    StrictOpt,
    TemplatesOpt,
    VerboseOpt,
)
from codegen.cli.output import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, Output
from codegen.project import Project, ProjectError, load_project

EXIT_CODES = (
    "Exit status: 0 done (nothing found), 1 findings (spec errors, stale output, invalid "
    "messages, breaking changes), 2 usage errors (unknown option, value or spec)."
)

app = typer.Typer(
    cls=Group,
    help="Protocol specs (TypeScript, Rust serde, Go, prose) → one IR → typed Python, "
    "JSON Schema, stub servers and clients, and docs.",
    epilog="Settings: [tool.codegen] in the nearest pyproject.toml (spec folders, output "
    "folder, templates, formatter, per-spec package names); flags override them. "
    "Typical use: `codegen init ID --language LANG`, `codegen generate` after a spec "
    "change, `codegen generate --check` in CI, `codegen diff main:ID ID` before shipping a "
    "spec revision, `codegen serve ID` to talk to a stub. " + EXIT_CODES,
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
    pretty_exceptions_show_locals=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)
ir_app = typer.Typer(
    cls=Group,
    help="Inspect the intermediate representation.",
    no_args_is_help=True,
    rich_markup_mode=None,
)
app.add_typer(ir_app, name="ir")

# The diff's FAIL_ON, spelled out so that only `codegen diff` imports the diff package;
# tests/unit/test_cli.py checks that they agree.
DIFF_FAIL_ON = ("breaking", "dangerous", "compatible", "none")
FailOn = Literal["breaking", "dangerous", "compatible", "none"]


def _version(value: bool) -> None:
    if value:
        from importlib import metadata

        try:
            version = metadata.version("codegen")
        except metadata.PackageNotFoundError:
            version = "(source checkout)"
        sys.stdout.write(f"codegen {version}\n")
        raise typer.Exit()


@app.callback()
def main_options(
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            callback=_version,
            is_eager=True,
            help="Print the version and exit.",
        ),
    ] = False,
) -> None:
    """Protocol specs (TypeScript, Rust serde, Go, prose) → one IR → typed Python, JSON
    Schema, stub servers and clients, and docs."""


def _project(out: Output, config: Path | None) -> Project:
    try:
        return load_project(Path.cwd(), config)
    except ProjectError as exc:
        out.problem(exc)
        raise out.exit(EXIT_USAGE) from None


def _one_spec(out: Output, project: Project, spec: str) -> Path:
    try:
        dirs = project.resolve(Path.cwd(), [spec])
    except ProjectError as exc:
        out.problem(exc)
        raise out.exit(EXIT_USAGE) from None
    if len(dirs) != 1:
        raise out.exit(EXIT_USAGE, f"{spec!r} names {len(dirs)} specs; name one")
    return dirs[0]


# --------------------------------------------------------------------- generate


@app.command(cls=Command, epilog=EXIT_CODES)
def generate(
    specs: SpecArgs = None,
    check: Annotated[
        bool,
        typer.Option(
            "--check", help="Write nothing; show a diff and exit 1 if output is stale."
        ),
    ] = False,
    watch: Annotated[
        bool,
        typer.Option(
            "--watch",
            help="Regenerate whenever a spec, the settings or a template changes "
            "(Ctrl-C stops).",
        ),
    ] = False,
    output: OutputOpt = None,
    templates: TemplatesOpt = None,
    formatter: FormatterOpt = None,
    strict: StrictOpt = False,
    no_cache: Annotated[
        bool,
        typer.Option(
            "--no-cache",
            help="Read and render every spec, even those whose inputs and output match "
            "the record of an earlier run (.codegen_cache/ keeps the records).",
        ),
    ] = False,
    config: ConfigOpt = None,
    quiet: QuietOpt = False,
    verbose: VerboseOpt = False,
) -> None:
    """Generate <output>/<id>/ for each spec (every spec of the project by default)."""
    out = Output(quiet, verbose)
    if check and watch:
        raise out.exit(EXIT_USAGE, "--check and --watch exclude each other")
    request = generating.Request(
        Path.cwd(),
        config,
        tuple(specs or ()),
        check,
        strict,
        output,
        templates,
        formatter,
        cache=not no_cache,
    )
    code = generating.watch(request, out) if watch else generating.run(request, out)
    raise typer.Exit(code)


_PLAIN_GENERATE: Final = (["generate"], ["generate", "--check"])
"""The two commands run most (``make generate``, CI's check): run without typer's
parsing, whose type coercion imports pydantic (about a third of a no-op run)."""


def _plain_generate(args: list[str]) -> int | None:
    """The exit code of ``codegen generate [--check]`` given exactly so, else None."""
    if args not in _PLAIN_GENERATE:
        return None
    try:
        generate(check=len(args) == 2)
    except typer.Exit as exc:
        return exc.exit_code
    except KeyboardInterrupt:  # as typer's path does: a newline, then exit 1
        print(file=sys.stderr)
        return EXIT_FINDINGS
    return 0


@app.command(cls=Command, epilog=EXIT_CODES)
def check(
    specs: SpecArgs = None,
    strict: StrictOpt = False,
    config: ConfigOpt = None,
    quiet: QuietOpt = False,
    verbose: VerboseOpt = False,
    methods: Annotated[
        bool,
        typer.Option(
            "--methods",
            help="Also print each spec's method table with the evidence of each fact.",
        ),
    ] = False,
) -> None:
    """Read the specs and report every diagnostic (notes too) without generating."""
    out = Output(quiet, verbose)
    request = generating.Request(Path.cwd(), config, tuple(specs or ()), strict=strict)
    raise typer.Exit(generating.check(request, out, methods))


@app.command(cls=Command, epilog=EXIT_CODES)
def docs(
    specs: SpecArgs = None,
    site: Annotated[
        Path | None,
        typer.Option(
            "--site",
            metavar="<dir>",
            help="Where the site goes; default: build/docs-site in the project.",
        ),
    ] = None,
    serve_it: Annotated[
        bool, typer.Option("--serve", help="Serve the site on localhost afterwards.")
    ] = False,
    port: Annotated[
        int,
        typer.Option("--port", metavar="<n>", help="--serve's port; 0: a free one."),
    ] = 8000,
    diagrams: Annotated[
        bool,
        typer.Option(
            "--diagrams/--no-diagrams",
            help="Render Mermaid diagrams (fetches Mermaid with npm once).",
        ),
    ] = True,
    config: ConfigOpt = None,
    quiet: QuietOpt = False,
    verbose: VerboseOpt = False,
) -> None:
    """Build the HTML reference site (search, diagrams) of the project's specs."""
    from codegen.cli import docs as docs_site

    out = Output(quiet, verbose)
    project = _project(out, config)
    status, built = docs_site.build_site(
        project, Path.cwd(), list(specs or ()), site, out, diagrams
    )
    if status != EXIT_OK or built is None:
        raise typer.Exit(status)
    if serve_it:
        docs_site.serve_site(built, "127.0.0.1", port, out)


@ir_app.command("dump", cls=Command)
def dump(
    spec: Annotated[
        str, typer.Argument(help="Spec id or spec folder.", metavar="SPEC")
    ],
    config: ConfigOpt = None,
    quiet: QuietOpt = False,
    verbose: VerboseOpt = False,
) -> None:
    """Print the normalized IR of one spec as deterministic JSON."""
    from codegen.ir import dump as ir_dump

    out = Output(quiet, verbose)
    project = _project(out, config)
    outcome = project.load(_one_spec(out, project, spec))
    generating.report([outcome], project, out, notes=verbose)
    if outcome.protocol is None:
        raise typer.Exit(EXIT_FINDINGS)
    sys.stdout.write(ir_dump.dump(outcome.protocol))
    if not outcome.ok():
        raise typer.Exit(EXIT_FINDINGS)


# ------------------------------------------------------------------------- init


@app.command(cls=Command, epilog=EXIT_CODES)
def init(
    spec: Annotated[
        str, typer.Argument(help="The new spec's id (its folder name).", metavar="ID")
    ],
    language: Annotated[
        Literal["typescript", "rust", "go", "prose"],
        typer.Option("--language", "-l", help="The language of the spec's sources."),
    ],
    folder: Annotated[
        Path | None,
        typer.Option(
            "--folder",
            help="Create the spec in this folder (default: the project's first spec "
            "folder, [tool.codegen] specs).",
            file_okay=False,
        ),
    ] = None,
    config: ConfigOpt = None,
    quiet: QuietOpt = False,
    verbose: VerboseOpt = False,
) -> None:
    """Create a spec folder: a commented spec.toml, a starter source, sample messages."""
    from codegen.cli import scaffold

    out = Output(quiet, verbose)
    project = _project(out, config)
    target = (Path.cwd() / folder).resolve() if folder else project.spec_folders[0]
    try:
        written = scaffold.create(target, spec, language)
    except scaffold.ScaffoldError as exc:
        raise out.exit(EXIT_USAGE, str(exc)) from None
    for path in written:
        out.info(f"created {project.show(path)}")
    if project.pyproject is None and target.parent == project.root:
        out.info(
            "no [tool.codegen] in a pyproject.toml here: the defaults apply (specs/, "
            "generated/). To choose, add to pyproject.toml:\n"
            "  [tool.codegen]\n"
            f'  specs = ["{project.show(target)}"]\n'
            '  output = "generated"'
        )
    elif project.pyproject is not None and not any(
        target == f for f in project.spec_folders
    ):
        out.warning(
            f"{project.show(target)} is not a spec folder of {project.show(project.pyproject)}"
            f" ([tool.codegen] specs); add it there, or name the spec by its folder"
        )
    out.info(f"next: codegen generate {spec}")


# ----------------------------------------------------------------------- vendor


@app.command("vendor", cls=Command, epilog=EXIT_CODES)
def vendor_command(
    target: Annotated[
        str,
        typer.Argument(
            help="Spec id to vendor, or with --check the vendored package folder.",
            metavar="SPEC|PACKAGE_DIR",
        ),
    ],
    dest: Annotated[
        Path | None,
        typer.Argument(help="Folder to put the package in.", metavar="[DEST]"),
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
    formatter: FormatterOpt = None,
    config: ConfigOpt = None,
    quiet: QuietOpt = False,
    verbose: VerboseOpt = False,
) -> None:
    """Copy a generated package into another project, or check a vendored copy."""
    from codegen.cli import vendor as vendoring

    out = Output(quiet, verbose)
    project = _project(out, config).with_flags(Path.cwd(), formatter=formatter)
    try:
        if check_copy:
            report = vendoring.check(project, Path(target))
            sys.stdout.write("\n".join(report.lines()) + "\n")
            if not (report.intact() and report.current()):
                raise typer.Exit(EXIT_FINDINGS)
            return
        if dest is None:
            raise out.exit(EXIT_USAGE, "vendor needs DEST (or --check PACKAGE_DIR)")
        spec_dir = _one_spec(out, project, target)
        written = vendoring.vendor(project, spec_dir, dest, package)
    except vendoring.VendorError as exc:
        raise out.exit(EXIT_USAGE, str(exc)) from None
    except ProjectError as exc:
        out.problem(exc)
        raise out.exit(EXIT_USAGE) from None
    out.info(f"vendored spec '{target}' as {written}")


# --------------------------------------------------------------------- validate


@app.command("validate", cls=Command, epilog=EXIT_CODES)
def validate_command(
    spec: Annotated[
        str, typer.Argument(help="Spec id or spec folder.", metavar="SPEC")
    ],
    files: Annotated[
        list[Path],
        typer.Argument(
            help="JSON messages: one JSON document, JSON Lines (messages or batches), "
            "or a stub server's --transcript file; - reads stdin.",
            metavar="FILE",
        ),
    ],
    method: Annotated[
        str | None,
        typer.Option("--method", help="Method of a bare params/result value."),
    ] = None,
    part: Annotated[
        Literal["params", "result"] | None,
        typer.Option("--part", help="Which part of --method the values are."),
    ] = None,
    output: OutputOpt = None,
    config: ConfigOpt = None,
    quiet: QuietOpt = False,
    verbose: VerboseOpt = False,
) -> None:
    """Validate wire messages; every problem names its line, JSON pointer and the
    declaring source line."""
    from codegen.cli import validate as validating

    out = Output(quiet, verbose)
    if (method is None) != (part is None):
        raise out.exit(EXIT_USAGE, "--method and --part go together")
    project = _project(out, config).with_flags(Path.cwd(), output=output)
    spec_dir = _one_spec(out, project, spec)
    try:
        validator = validating.Validator(project, spec_dir)
    except validating.ValidateError as exc:
        raise out.exit(EXIT_USAGE, str(exc)) from None
    if method is not None and method not in validator.package.METHODS:
        raise out.exit(EXIT_USAGE, validating.unknown_method(method, validator.package))
    total = bad = 0
    for file in files:
        try:
            records = validating.read_records(file)
            findings, count = validator.validate(records, method, part)
        except validating.ValidateError as exc:
            raise out.exit(EXIT_USAGE, str(exc)) from None
        for finding in findings:
            sys.stdout.write(finding.render(str(file)) + "\n")
        total += count
        bad += len({(f.line, f.item) for f in findings})
    out.info(f"{total} message(s), {bad} invalid")
    if bad:
        raise typer.Exit(EXIT_FINDINGS)


# ------------------------------------------------------------------------- diff


@app.command("diff", cls=Command, epilog=EXIT_CODES)
def diff(
    old: Annotated[
        str,
        typer.Argument(
            help="Old side: spec folder, spec id, source file or REV:path "
            "(REV:ID for a spec of the project).",
            metavar="OLD",
        ),
    ],
    new: Annotated[
        str,
        typer.Argument(
            help="New side: spec folder, spec id, source file or REV:path.",
            metavar="NEW",
        ),
    ],
    level: Annotated[
        Literal["wire", "python"],
        typer.Option(help="wire, or python (the generated API; includes wire)."),
    ] = "wire",
    fail_on: Annotated[
        FailOn,
        typer.Option(help="Exit 1 at this severity or above."),
    ] = "breaking",
    fmt: Annotated[
        Literal["text", "markdown", "json"],
        typer.Option("--format", help="Report format."),
    ] = "text",
    role: Annotated[
        str | None,
        typer.Option(help="Rate only the scenarios where this role runs NEW."),
    ] = None,
    outside: Annotated[
        bool,
        typer.Option(
            "--outside",
            help="Also read paths outside this repository (refused by default, so a "
            "mistyped ../ never compares a file you did not mean).",
        ),
    ] = False,
    config: ConfigOpt = None,
    quiet: QuietOpt = False,
    verbose: VerboseOpt = False,
) -> None:
    """Compare two spec revisions by their IR; classify every change by wire impact.
    With --quiet only the exit status says whether a change at --fail-on was found."""
    from codegen.diff import Level, SideError, diff_sides

    out = Output(quiet, verbose)
    project = _project(out, config)
    try:
        known = project.discover()
    except ProjectError as exc:
        out.problem(exc)
        raise out.exit(EXIT_USAGE) from None
    sides = [_diff_side(arg, known) for arg in (old, new)]
    out.detail(f"comparing {sides[0]} with {sides[1]}")
    try:
        report = diff_sides(
            sides[0], sides[1], level=Level(level), role=role, outside=outside
        )
    except SideError as exc:
        raise out.exit(EXIT_USAGE, str(exc) + _closest_side(old, new, known)) from None
    if not quiet:
        sys.stdout.write(report.render(fmt))
    raise typer.Exit(report.exit_code(fail_on))


def _closest_side(old: str, new: str, known: dict[str, Path]) -> str:
    """ "; did you mean 'x'?" for a side naming no spec of the project (``REV:ID`` too)."""
    from codegen.diagnostics import closest

    for arg in (old, new):
        rev, colon, name = arg.rpartition(":")
        if name in known or (Path.cwd() / name).exists():
            continue
        close = closest(name, known)
        if close is not None:
            return f"; did you mean {rev + colon + close!r}?"
    return ""


def _diff_side(arg: str, known: dict[str, Path]) -> str:
    """A spec id of the project → its folder (``REV:ID`` → ``REV:./folder``), so sides
    find specs in any spec folder the project configures."""
    cwd = Path.cwd()
    if (cwd / arg).exists():
        return arg
    rev, colon, path = arg.partition(":")
    if colon and path in known and rev:
        return f"{rev}:./{Path(os.path.relpath(known[path], cwd)).as_posix()}"
    if arg in known:
        return Path(os.path.relpath(known[arg], cwd)).as_posix()
    return arg


# ------------------------------------------------------------------------ serve


@app.command(cls=Command, epilog=EXIT_CODES)
def serve(
    spec: Annotated[
        str, typer.Argument(help="Spec id or spec folder.", metavar="SPEC")
    ],
    transport: Annotated[
        Literal[
            "stdio",
            "websocket",
            "http",
            "content-length-stdio",
            "ndjson-stdio",
            "http-post",
        ]
        | None,
        typer.Option(
            help="Default: the spec's first framing; a framing name says its transport."
        ),
    ] = None,
    host: Annotated[str, typer.Option(help="Interface to bind.")] = "127.0.0.1",
    port: Annotated[
        int, typer.Option(min=0, max=65535, help="TCP port; 0 picks a free one.")
    ] = 0,
    transcript: Annotated[
        Path | None,
        typer.Option(
            help="Append every message to this JSON Lines file (codegen validate reads "
            "it).",
            dir_okay=False,
        ),
    ] = None,
    max_message_bytes: Annotated[
        int | None,
        typer.Option(
            min=64, help="Refuse messages over this size (default 16 MiB; at least 64)."
        ),
    ] = None,
    max_queued_bytes: Annotated[
        int | None,
        typer.Option(
            min=64,
            help="Close a peer's connection when this many bytes of answers wait for "
            "it to read (default 64 MiB; it is read no more from a quarter of this, "
            "or 1 MiB).",
        ),
    ] = None,
    max_partial_bytes: Annotated[
        int | None,
        typer.Option(
            min=64,
            help="Bytes of unfinished messages (WebSocket messages, HTTP bodies) held "
            "across all connections (default 256 MiB); a peer whose message would "
            "take more is disconnected (WebSocket 1009, HTTP 503).",
        ),
    ] = None,
    fail: Annotated[
        list[str] | None,
        typer.Option(
            "--fail",
            help="Answer METHOD with error CODE (repeatable; the spec's [errors] "
            "name their codes).",
            metavar="METHOD=CODE",
        ),
    ] = None,
    header_timeout: Annotated[
        float | None,
        typer.Option(
            min=0.01,
            help="WebSocket, HTTP: seconds a peer has to send a request's headers "
            "(default 10; slow peers are cut off).",
            metavar="SECONDS",
        ),
    ] = None,
    body_timeout: Annotated[
        float | None,
        typer.Option(
            min=0.01,
            help="HTTP: seconds a peer has to send a request's body (default 30).",
            metavar="SECONDS",
        ),
    ] = None,
    loop: Annotated[
        Literal["auto", "uvloop", "asyncio"],
        typer.Option(
            help="Event loop: uvloop (a C loop, less CPU per message) or asyncio's "
            "own; auto: uvloop when installed."
        ),
    ] = "auto",
    allow_origin: Annotated[
        list[str] | None,
        typer.Option(
            help="WebSocket/HTTP: also answer browser pages of this origin "
            "(scheme://host[:port], * for any; default: loopback only). Repeatable.",
            metavar="ORIGIN",
        ),
    ] = None,
    allow_host: Annotated[
        list[str] | None,
        typer.Option(
            help="WebSocket/HTTP: also answer requests naming this Host (* for any; "
            "default: loopback names and --host). Repeatable.",
            metavar="HOST",
        ),
    ] = None,
    output: OutputOpt = None,
    config: ConfigOpt = None,
    quiet: Annotated[
        bool,
        typer.Option(
            "--quiet",
            "-q",
            help="Print problems only; with --port 0 (the default) on WebSocket/HTTP, "
            "still the one 'listening on URL' line (stderr): the port the OS chose.",
        ),
    ] = False,
    verbose: VerboseOpt = False,
) -> None:
    """Start the generated stub server of a spec (`python -m <package>.server`)."""
    from codegen.cli import serve as serving

    out = Output(
        verbose=verbose
    )  # --quiet goes to the server (codegen prints errors only)
    project = _project(out, config).with_flags(Path.cwd(), output=output)
    spec_dir = _one_spec(out, project, spec)
    options = serving.Options(
        transport,
        host,
        port,
        transcript,
        max_message_bytes,
        tuple(fail or ()),
        quiet,
        header_timeout,
        body_timeout,
        loop,
        tuple(allow_origin or ()),
        tuple(allow_host or ()),
        max_queued_bytes,
        max_partial_bytes,
    )
    try:
        argv, env = serving.server_command(project, spec_dir, options)
    except serving.ServeError as exc:
        raise out.exit(EXIT_USAGE, str(exc)) from None
    out.detail(" ".join(argv))
    serving.run(argv, env)


def main() -> None:
    """Run the app; usage errors print like every other error (``error: ...``, after
    the usage line) and exit 2."""
    plain = _plain_generate(sys.argv[1:])
    if plain is not None:
        sys.exit(plain)
    try:
        code = app(standalone_mode=False)
    except typer.TyperException as exc:  # typer's (click's) usage errors
        _usage_error(exc)
        sys.exit(exc.exit_code)
    except typer.Abort:
        sys.exit(EXIT_FINDINGS)
    sys.exit(code if isinstance(code, int) else 0)


def _usage_error(exc: typer.TyperException) -> None:
    if type(exc).__name__ == "NoArgsIsHelpError":  # `codegen` alone: the help, exit 2
        exc.show()  # type: ignore[attr-defined]
        return
    out = Output()
    ctx = getattr(exc, "ctx", None)
    if ctx is not None:
        option = ctx.help_option_names[0] if ctx.help_option_names else "--help"
        out.console.print(
            f"{ctx.get_usage()}\nTry '{ctx.command_path} {option}' for help.",
            markup=False,
        )
    out.error(_choice_message(exc.format_message()))


_CHOICE = re.compile(
    r"Value error, '(?P<given>[^']*)' is not one of (?P<known>'.*')\.?$"
)


def _choice_message(message: str) -> str:
    """A choice option's error without pydantic's "Value error," and with the closest
    choice: ``'pyhton' is not one of ...; did you mean 'python'?``."""
    from codegen.diagnostics import did_you_mean

    found = _CHOICE.search(message)
    if found is None:
        return message.replace("Value error, ", "")
    known = re.findall(r"'([^']*)'", found["known"])
    hint = did_you_mean(found["given"], known)
    text = f"{found['given']!r} is not one of {found['known']}{hint}"
    return message[: found.start()] + text


if __name__ == "__main__":
    main()
