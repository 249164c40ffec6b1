"""``codegen serve <id>``: start the generated stub server of one spec.

Phase: entry point helper (used by the CLI).
Inputs: the project (where generated packages live), a spec folder (its ``spec.toml``
names the Python package and the transports) and the server options: every option of
``python -m <package>.server`` (transport, host, port, transcript, size limit, ``--fail``,
quiet, header and body timeouts, the event loop), passed through.
Outputs: the command line of ``python -m <package>.server`` with
``<output>/<id>/python`` on ``PYTHONPATH``; ``run`` replaces the current process with it.
Guarantees: options are checked here, against this spec, before the server starts, so a
mistake is reported by ``codegen serve`` (never with another program's usage text): a
transport the spec does not declare, a spec without transports, an unknown ``--fail``
method or a code that is not an integer, a transcript in a folder that does not exist, a
package not generated yet.  Nothing is generated or written here.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from codegen.diagnostics import Diagnostics
from codegen.project import Project
from codegen.spec.config import SpecConfig, load_config

__all__ = ["TRANSPORTS", "Options", "ServeError", "run", "server_command"]

# spec.toml framing → the server's --transport (the runtime's TRANSPORTS).
TRANSPORTS = {
    "ndjson-stdio": "stdio",
    "websocket": "websocket",
    "http-post": "http",
    "content-length-stdio": "content-length-stdio",
}
_STDIO = ("stdio", "content-length-stdio")


class ServeError(RuntimeError):
    """The stub server of a spec cannot be started as asked."""


@dataclass(frozen=True)
class Options:
    transport: str | None = None
    host: str = "127.0.0.1"
    port: int = 0
    transcript: Path | None = None
    max_message_bytes: int | None = None
    fail: tuple[str, ...] = ()
    quiet: bool = False
    header_timeout: float | None = None
    body_timeout: float | None = None
    loop: str = "auto"
    allow_origin: tuple[str, ...] = ()
    allow_host: tuple[str, ...] = ()
    max_queued_bytes: int | None = None
    max_partial_bytes: int | None = None


def server_command(
    project: Project, spec_dir: Path, options: Options
) -> tuple[list[str], dict[str, str]]:
    """The argv and environment that start the stub server of ``spec_dir``."""
    diags = Diagnostics("serve")
    config = load_config(spec_dir, diags, project.root_for(spec_dir))
    if config is None or diags.has_errors():
        problems = "; ".join(d.message for d in diags.errors()) or "unreadable"
        raise ServeError(f"{project.show(spec_dir / 'spec.toml')}: {problems}")
    settings = project.specs.get(spec_dir.name)
    package = settings.package if settings and settings.package else None
    package = package or config.python_package
    python_dir = project.output_dir(config.id) / "python"
    server = python_dir / package / "server.py"
    if not server.is_file():
        raise ServeError(
            f"{project.show(server)} does not exist; run `codegen generate {spec_dir.name}`"
            " first"
        )
    argv = [sys.executable, "-m", f"{package}.server"]
    argv += _checked(options, config, python_dir / package)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        filter(None, [str(python_dir), env.get("PYTHONPATH", "")])
    )
    return argv, env


def _checked(options: Options, config: SpecConfig, package_dir: Path) -> list[str]:
    offered = [TRANSPORTS[f] for f in config.framings if f in TRANSPORTS]
    if not offered:
        raise ServeError(
            f"spec {config.id!r} declares no transport a stub can serve "
            f"([transport] framings in spec.toml: {', '.join(TRANSPORTS)})"
        )
    transport = options.transport or offered[0]
    transport = TRANSPORTS.get(transport, transport)  # a framing name says which
    if transport not in offered:
        raise ServeError(
            f"spec {config.id!r} is served over {' or '.join(offered)}, not {transport}"
        )
    argv = ["--transport", transport]
    if transport not in _STDIO:
        argv += ["--host", options.host, "--port", str(options.port)]
        if options.header_timeout is not None:
            argv += ["--header-timeout", str(options.header_timeout)]
        if options.body_timeout is not None:
            argv += ["--body-timeout", str(options.body_timeout)]
        for origin in options.allow_origin:
            argv += ["--allow-origin", origin]
        for host in options.allow_host:
            argv += ["--allow-host", host]
    if options.transcript is not None:
        folder = options.transcript.resolve().parent
        if not folder.is_dir():
            raise ServeError(f"--transcript: folder {folder} does not exist")
        argv += ["--transcript", str(options.transcript)]
    if options.max_message_bytes is not None:
        argv += ["--max-message-bytes", str(options.max_message_bytes)]
    if options.max_queued_bytes is not None:
        argv += ["--max-queued-bytes", str(options.max_queued_bytes)]
    if options.max_partial_bytes is not None:
        argv += ["--max-partial-bytes", str(options.max_partial_bytes)]
    if options.quiet:
        argv.append("--quiet")
    if options.loop != "auto":
        argv += ["--loop", options.loop]
    methods = _method_names(package_dir) if options.fail else set()
    for item in options.fail:
        method, equals, code = item.rpartition("=")
        if not equals or not method:
            raise ServeError(f"--fail {item!r}: expected METHOD=CODE")
        if method not in methods:
            raise ServeError(
                f"--fail {item!r}: {config.id} has no method {method!r} "
                f"(methods: {', '.join(sorted(methods))})"
            )
        try:
            int(code)
        except ValueError:
            raise ServeError(f"--fail {item!r}: {code!r} is not an integer") from None
        argv += ["--fail", item]
    return argv


def _method_names(package_dir: Path) -> set[str]:
    """The wire names of the generated package's method registry (imported: the server
    is about to run it anyway)."""
    import importlib

    sys.path.insert(0, str(package_dir.parent))
    try:
        module = importlib.import_module(package_dir.name)
    except Exception as exc:  # noqa: BLE001 - a broken package fails the server too
        raise ServeError(f"cannot import {package_dir.name}: {exc}") from None
    finally:
        sys.path.remove(str(package_dir.parent))
    return set(getattr(module, "METHODS", {}))


def run(argv: Sequence[str], env: dict[str, str]) -> None:
    """Replace this process with the server (signals and exit code go straight to
    it).
    """
    sys.stdout.flush()
    sys.stderr.flush()
    os.execve(argv[0], list(argv), env)
