"""The pipeline: spec directory → frontend → IR → passes → backends → a write plan.

Phase: orchestration (used by the CLI, tests and benchmarks).
Inputs: ``specs/<id>/`` directories (spec.toml + sources + examples/).
Outputs: a normalized ``ir.Protocol`` per spec and a plan ``{repo-relative path: text}`` for
``generated/<id>/`` (and ``specs/<id>/examples/extracted.json``), plus all diagnostics.
Guarantees: nothing here writes files; the plan is complete or, when any spec has errors,
empty, so a failed run never leaves a mix of old and new output.
"""

from __future__ import annotations

import gc
import importlib
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from codegen import ir
from codegen.diagnostics import Diagnostics, did_you_mean
from codegen.frontends.common.result import FrontendResult
from codegen.internal_error import report_internal_error
from codegen.methods.report import no_methods_error
from codegen.methods.table import apply_method_table
from codegen.passes import run_passes
from codegen.spec.config import SpecConfig, load_config
from codegen.spec.samples import EXTRACTED_FILE, load_samples, render_extracted
from codegen.spec.source import SourceText

if TYPE_CHECKING:
    from codegen.backends.python.package import PackageFacts

Frontend = Callable[[list[SourceText], SpecConfig, Diagnostics], FrontendResult]

# language → module exposing ``read_spec(sources, config, diags) -> FrontendResult``; imported
# on use so a spec only loads the parser it needs.
FRONTENDS: dict[str, str] = {
    "typescript": "codegen.frontends.typescript",
    "rust": "codegen.frontends.rust",
    "go": "codegen.frontends.go",
    "prose": "codegen.frontends.prose",
}


def _frontend(language: str) -> Frontend | None:
    module_name = FRONTENDS.get(language)
    if module_name is None:
        return None
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name != module_name:
            raise
        return None
    reader: Frontend = module.read_spec
    return reader


@dataclass
class SpecOutcome:
    spec_dir: Path
    config: SpecConfig | None
    protocol: ir.Protocol | None
    diags: Diagnostics = field(default_factory=Diagnostics)
    # wire name → fact → where the method evidence stated it (``codegen check --methods``)
    provenance: dict[str, dict[str, str]] = field(default_factory=dict)

    def ok(self, strict: bool = False) -> bool:
        return self.protocol is not None and not self.diags.has_errors(strict)


@contextmanager
def collector_paused() -> Iterator[None]:
    """Reading and rendering a spec allocate millions of objects that live until the end
    and make almost no reference cycles; the cyclic collector's full passes over the
    growing heap cost a quarter of a large spec's time (100x AHP), and more the larger
    it gets.  Paused here (refcounting still frees everything else); the collector's
    state is restored after."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def discover_specs(specs_root: Path) -> list[Path]:
    return sorted(path.parent for path in specs_root.glob("*/spec.toml"))


def load_protocol(spec_dir: Path, repo_root: Path | None = None) -> SpecOutcome:
    """Run the frontend, the sample loader and the passes for one spec.

    Never raises on input: a crash anywhere in reading a spec (a frontend's
    RecursionError on deep nesting, say) becomes an INT001 diagnostic naming the file.
    """
    diags = Diagnostics("frontend")
    try:
        with collector_paused():
            return _load_protocol(spec_dir, repo_root, diags)
    except Exception as error:  # noqa: BLE001 - the net: a bug, shown as a diagnostic
        span = ir.Span(_rel(spec_dir / "spec.toml", repo_root), 1, 1)
        report_internal_error(diags, error, "reading the spec", span)
        return SpecOutcome(spec_dir, None, None, diags)


def _rel(path: Path, repo_root: Path | None) -> str:
    try:
        return (
            path.resolve().relative_to((repo_root or Path.cwd()).resolve()).as_posix()
        )
    except ValueError:
        return path.as_posix()


def _load_protocol(
    spec_dir: Path, repo_root: Path | None, diags: Diagnostics
) -> SpecOutcome:
    config = load_config(spec_dir, diags, repo_root)
    if config is None or diags.has_errors():
        return SpecOutcome(spec_dir, config, None, diags)
    frontend = _frontend(config.language)
    if frontend is None:
        diags.report(
            "CFG002",
            f"no frontend for language {config.language!r} yet",
            ir.Span(config.rel(spec_dir / "spec.toml"), 1, 1),
        )
        return SpecOutcome(spec_dir, config, None, diags)
    sources = [
        SourceText.read(path, config.rel(path), diags) for path in config.source_paths()
    ]
    try:
        result = frontend(sources, config, diags)
    except Exception as error:  # noqa: BLE001 - see load_protocol
        span = ir.Span(sources[0].rel_path if sources else "spec.toml", 1, 1)
        report_internal_error(diags, error, f"the {config.language} frontend", span)
        return SpecOutcome(spec_dir, config, None, diags)
    methods = list(result.methods)
    if not result.method_table_applied:
        methods = apply_method_table(
            methods,
            result.decls,
            config.methods,
            config.roles,
            diags,
            language=config.language,
            provenance=result.provenance,
        )
    reported = False
    if not methods and config.transport_kind == "jsonrpc-2.0":
        reported = no_methods_error(sources, config.roles, diags, result.uncompiled)
    if not methods and not reported:
        diags.report(
            "MTH008",
            "the spec declares no methods: the bindings have no METHODS and the stub "
            "server answers nothing; declare them in the source or in spec.toml's "
            "[methods] table",
            ir.Span(config.rel(spec_dir / "spec.toml"), 1, 1),
        )
    _check_requested_types(result.decls, config, diags)
    decls = _open_unions(result.decls, config, diags)
    samples = load_samples(config.spec_dir / "examples", config.repo_root, diags)
    spec_examples = _mark_contradictions(result.examples, config, diags)
    protocol = ir.Protocol(
        id=config.id,
        title=config.title,
        version=config.version,
        transport=ir.Transport(
            config.transport_kind, config.framings, config.envelope_fields
        ),
        roles=config.roles,
        decls=decls,
        methods=tuple(methods),
        constants=result.constants,
        examples=spec_examples + tuple(samples),
        errors=tuple(ir.ErrorCode(code, name) for code, name in config.error_codes),
        sources=tuple(
            ir.SourceFile(s.rel_path, s.sha256, config.language) for s in sources
        ),
        docs=config.docs,
    )
    pass_diags = Diagnostics("passes")
    try:
        protocol = run_passes(protocol, pass_diags)
    except Exception as error:  # noqa: BLE001 - see load_protocol
        span = ir.Span(sources[0].rel_path if sources else "spec.toml", 1, 1)
        report_internal_error(diags, error, "the IR passes", span)
        return SpecOutcome(spec_dir, config, None, diags)
    diags.extend(pass_diags)
    return SpecOutcome(spec_dir, config, protocol, diags, dict(result.provenance))


@dataclass(frozen=True)
class Draft:
    """One spec's output before formatting: what a worker process hands back (plain,
    picklable data); ``finish_drafts`` formats every draft of a run in one ruff run."""

    files: dict[str, str]  # relative to <output>/<id>/, Python not yet formatted
    package: str
    distribution: str
    facts: PackageFacts
    # The Python is already as ``formatting.format_many`` leaves it (formatted by the
    # forked child of ``render_draft(formatter="ruff")``, beside the docs rendering);
    # such a draft is finished with ``formatter="ruff"`` too.
    formatted: bool = False


# Declarations + methods from which the backends of one spec render on two cores
# (``forking``): 100x AHP has 15,100 and takes 10 s of CPU to render, 10x AHP 1,510 and
# 1 s; a smaller spec renders in a fraction of a second, where a fork (and its copied
# pages) would gain little and ``generate`` drafts several specs in parallel anyway.
PARALLEL_RENDER_SIZE = 1000


def render_draft(
    protocol: ir.Protocol,
    config: SpecConfig,
    package_only: bool = False,
    formatter: str = "none",
    parallel: bool | None = None,
    docs_root: str = "../../..",
) -> Draft:
    """The files of ``generated/<id>/`` as the templates lay them out (see
    ``render_outputs``), and what the package backend needs of the IR.

    ``parallel``: render the Python (bindings and server) in a forked child while this
    process renders the schema and docs; ``None``: when the spec is large and
    ``forking.fork_pays()``.  With ``formatter="ruff"`` (what ``finish_drafts`` will
    be given) the child formats that Python too, so ruff runs beside the docs; its
    draft is marked ``formatted``.  The same files either way.  ``docs_root``: from
    ``<output>/<id>/docs`` up to the spec's root (``docs_path_to_root``)."""
    # Imported here so reading specs (ir dump, check, diff) never loads Jinja or the backends.
    from codegen import forking
    from codegen.backends import docs as docs_backend
    from codegen.backends import formatting
    from codegen.backends import jsonschema as jsonschema_backend
    from codegen.backends import python as python_backend
    from codegen.backends import server as server_backend
    from codegen.backends.python import package as package_backend

    def python_side() -> dict[str, str]:
        return {
            **python_backend.render(protocol, config.python_package),
            **server_backend.render(protocol, config.python_package),
        }

    def formatted_python_side() -> tuple[dict[str, str], bool]:
        python = python_side()
        if formatter != "ruff":
            return python, False
        try:
            # Laid out as ``finish_drafts`` lays out a draft (under "<number>/").
            done = formatting.format_many({f"0/{rel}": t for rel, t in python.items()})
            return {rel: done[f"0/{rel}"] for rel in python}, True
        except formatting.FormattingError:
            return python, False  # finish_drafts formats it again and reports the error

    if parallel is None:
        size = len(protocol.decls) + len(protocol.methods)
        parallel = (
            not package_only and size >= PARALLEL_RENDER_SIZE and forking.fork_pays()
        )
    formatted = False
    with collector_paused(), formatting.deferred():  # one ruff run: finish_drafts
        child = forking.Forked(formatted_python_side) if parallel else None
        try:
            schema = {} if package_only else jsonschema_backend.render(protocol)
            if child is None:
                python = python_side()
            docs = {} if package_only else docs_backend.render(protocol, docs_root)
            facts = package_backend.facts(protocol)
        except BaseException:
            if child is not None:
                child.cancel()
            raise
        if child is not None:
            python, formatted = child.result()
    rendered = {**schema, **python, **docs}
    return Draft(
        rendered,
        config.python_package,
        config.python_distribution,
        facts,
        formatted,
    )


def docs_path_to_root(root: Path, output: Path, spec_id: str) -> str:
    """The relative way from ``<output>/<id>/docs`` up to ``root`` (POSIX), which the
    docs' links to spec sources start with, for an output folder at any depth."""
    return Path(
        os.path.relpath(root.resolve(), (output / spec_id / "docs").resolve())
    ).as_posix()


def finish_drafts(drafts: list[Draft], formatter: str = "ruff") -> list[dict[str, str]]:
    """Format the Python of every draft in one ruff run (``formatter="ruff"``), then add
    each package's provenance, which hashes the package's files as formatted."""
    from codegen.backends import formatting
    from codegen.backends.python import package as package_backend

    merged = {
        f"{number}/{rel}": text
        for number, draft in enumerate(drafts)
        for rel, text in draft.files.items()
    }
    if formatter == "ruff":
        todo = {
            f"{number}/{rel}": text
            for number, draft in enumerate(drafts)
            if not draft.formatted
            for rel, text in draft.files.items()
        }
        merged.update(formatting.format_many(todo))
    out: list[dict[str, str]] = []
    with collector_paused():
        for number, draft in enumerate(drafts):
            prefix = f"{number}/"
            files = {
                rel: merged[prefix + rel] for rel in draft.files  # the drafts' order
            }
            files.update(
                package_backend.render(
                    draft.facts, draft.package, draft.distribution, files
                )
            )
            out.append(files)
    return out


def render_outputs(
    protocol: ir.Protocol,
    config: SpecConfig,
    package_only: bool = False,
    formatter: str = "ruff",
) -> dict[str, str]:
    """The files of ``generated/<id>/``, keyed relative to it; ``package_only``: just the
    Python package (bindings, server, provenance) and its pyproject, not schema or docs;
    ``formatter``: ``ruff`` (default) or ``none`` (the Python as the templates lay it out).
    """
    draft = render_draft(protocol, config, package_only, formatter)
    return finish_drafts([draft], formatter)[0]


def render_protocol(
    protocol: ir.Protocol,
    config: SpecConfig,
    base: Path | None = None,
    output: Path | None = None,
    formatter: str = "ruff",
) -> dict[str, str]:
    """Every generated file of one spec: ``<output>/<id>/...`` (default: ``generated/``
    of the spec's root) and the spec's ``examples/extracted.json``, keyed by path
    relative to ``base`` (default: the spec's root).
    """
    return place_outputs(
        protocol,
        config,
        render_outputs(protocol, config, formatter=formatter),
        base,
        output,
    )


def place_outputs(
    protocol: ir.Protocol,
    config: SpecConfig,
    outputs: dict[str, str],
    base: Path | None = None,
    output: Path | None = None,
) -> dict[str, str]:
    """``outputs`` (relative to ``<output>/<id>/``) keyed relative to ``base``, with the
    spec's ``examples/extracted.json`` (see ``render_protocol``)."""
    base = base or config.repo_root
    output = output or config.repo_root / "generated"
    out_rel = _relative(output / protocol.id, base)
    files = {f"{out_rel}/{rel}": text for rel, text in outputs.items()}
    if any(e.part is ir.ExamplePart.MESSAGE for e in protocol.examples):
        extracted = _relative(config.spec_dir / "examples" / EXTRACTED_FILE, base)
        files[extracted] = render_extracted(
            protocol.examples, {source.path for source in protocol.sources}
        )
    return files


def _relative(path: Path, base: Path) -> str:
    return Path(os.path.relpath(path.resolve(), base.resolve())).as_posix()


@dataclass
class Plan:
    outcomes: list[SpecOutcome]
    files: dict[str, str]
    owned_dirs: list[str]

    def ok(self, strict: bool = False) -> bool:
        return all(outcome.ok(strict) for outcome in self.outcomes)


def build_plan(spec_dirs: list[Path], repo_root: Path, strict: bool = False) -> Plan:
    outcomes = [load_protocol(spec_dir, repo_root) for spec_dir in spec_dirs]
    if not all(outcome.ok(strict) for outcome in outcomes):
        return Plan(outcomes, {}, [])
    return plan_outcomes(outcomes, repo_root, repo_root / "generated")


def plan_outcomes(
    outcomes: list[SpecOutcome], base: Path, output: Path, formatter: str = "ruff"
) -> Plan:
    """The write plan of loaded specs (each must have loaded): ``<output>/<id>/`` per
    spec, keyed relative to ``base``; the caller decides whether the outcomes are good
    enough to write (``SpecOutcome.ok``).  One formatter run for all of them."""
    loaded: list[tuple[ir.Protocol, SpecConfig]] = []
    for outcome in outcomes:
        assert outcome.protocol is not None and outcome.config is not None
        loaded.append((outcome.protocol, outcome.config))
    finished = finish_drafts(
        [
            render_draft(protocol, config, formatter=formatter)
            for protocol, config in loaded
        ],
        formatter,
    )
    files: dict[str, str] = {}
    owned: list[str] = []
    for (protocol, config), outputs in zip(loaded, finished, strict=True):
        files.update(place_outputs(protocol, config, outputs, base, output))
        owned.append(_relative(output / protocol.id, base))
    return Plan(outcomes, files, owned)


def _check_requested_types(
    decls: tuple[ir.Decl, ...], config: SpecConfig, diags: Diagnostics
) -> None:
    """A ``[spec] types`` name the frontend gave no declaration of is REF005: a typo or a
    type left out (its own finding says why) must not pass as a silent no-op."""
    known = {decl.name for decl in decls}
    for index, name in enumerate(config.requested_types):
        if name in known:
            continue
        spans = config.requested_type_spans
        span = (
            spans[index]
            if index < len(spans)
            else ir.Span(config.rel(config.spec_dir / "spec.toml"), 1, 1)
        )
        diags.report(
            "REF005",
            f"[spec] types asks for {name!r}, but the sources give no wire type of that "
            f"name (not declared, or left out: see its own finding)"
            f"{did_you_mean(name, sorted(known))}",
            span,
        )


def _open_unions(
    decls: tuple[ir.Decl, ...], config: SpecConfig, diags: Diagnostics
) -> tuple[ir.Decl, ...]:
    """``[unions."<Name>"] open = true``: the union keeps values whose tag it does not know."""
    wanted = set(config.open_unions)
    out: list[ir.Decl] = []
    for decl in decls:
        if isinstance(decl, ir.UnionDecl) and decl.name in wanted:
            wanted.discard(decl.name)
            decl = replace(decl, open=True)
        out.append(decl)
    for name in sorted(wanted):
        diags.report(
            "CFG002",
            f"[unions.{name}] names no union of this spec",
            ir.Span(config.rel(config.spec_dir / "spec.toml"), 1, 1),
        )
    return tuple(out)


def _mark_contradictions(
    examples: tuple[ir.Example, ...], config: SpecConfig, diags: Diagnostics
) -> tuple[ir.Example, ...]:
    reasons = dict(config.contradicting_examples)
    out = []
    for example in examples:
        reason = reasons.pop(example.name, None)
        if reason is not None:
            diags.report(
                "EXM004",
                f"example {example.name} contradicts the spec's own types ({reason}); "
                "it is kept as a sample that must be rejected",
                example.span,
            )
            example = replace(example, expect=ir.Expectation.REJECT, note=reason)
        out.append(example)
    for name in sorted(reasons):
        diags.report(
            "CFG002",
            f"[examples.contradicts_spec] names {name!r}, which is not an example of this spec",
            ir.Span(config.rel(config.spec_dir / "spec.toml"), 1, 1),
        )
    return tuple(out)
