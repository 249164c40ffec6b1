"""The one Jinja environment of the project.

Phase: used by the text-emitting backends (Python bindings, stub server, docs).
Inputs: a template name under the built-in templates folder (``templates/`` at the top of a
checkout; ``codegen/templates/`` inside an installed wheel, where the build puts it) and a
context of plain values (view-models computed by a backend; templates only lay them out).
Optionally a user's template folder (``codegen generate --templates DIR``): a file there
replaces the built-in template of the same relative name, every other template stays.
Outputs: the rendered text.
Guarantees: ``StrictUndefined`` (a missing variable is an error, never ""),
``trim_blocks`` / ``lstrip_blocks`` / ``keep_trailing_newline``, no autoescaping (the
output is code and Markdown, each with its own encoding), ``\\n`` line endings;
deterministic: no dates, no environment data.  Spec text reaches a template only through
an encoder of ``escape`` for its context, as a filter: ``pystr`` (a Python string literal),
``doc`` (inside a docstring), ``pycomment``, ``md`` (Markdown blocks), ``mdinline``,
``mdheading``, ``mdcode``.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

import jinja2

from codegen.backends import escape

__all__ = [
    "TEMPLATES_DIR",
    "builtin_templates",
    "environment",
    "environment_now",
    "overriding",
    "render_template",
]


def _templates_dir() -> Path:
    package = Path(__file__).resolve().parent.parent
    packaged = package / "templates"  # an installed wheel (pyproject's force-include)
    return packaged if packaged.is_dir() else package.parent / "templates"


TEMPLATES_DIR = _templates_dir()

# The user's template folder for the current run (see ``overriding``).
_OVERRIDE: ContextVar[Path | None] = ContextVar("codegen_templates", default=None)
# Where compiled templates are kept between runs (see ``cache_compiled``); None: nowhere.
_BYTECODE: list[Path] = []


def cache_compiled(folder: Path) -> None:
    """Keep compiled templates in ``folder`` (Jinja's bytecode cache: keyed by template
    file, checked against the template's source hash), so a run does not compile the
    templates again; the folder should be specific to this generator's code (the caller
    names it by ``codegen.cache.fingerprint``)."""
    _BYTECODE[:] = [folder]
    environment.cache_clear()


@functools.cache
def environment(override: Path | None = None) -> jinja2.Environment:
    """The shared environment (one per template folder; templates are cached by Jinja)."""
    search = [str(override)] if override is not None else []
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader([*search, str(TEMPLATES_DIR)]),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=False,
        newline_sequence="\n",
        auto_reload=False,
        bytecode_cache=(
            jinja2.FileSystemBytecodeCache(str(_BYTECODE[0])) if _BYTECODE else None
        ),
    )
    env.filters.update(
        pystr=lambda value: escape.py_str(str(value)),
        doc=lambda value: escape.doc_inline(str(value)),
        pycomment=lambda value: escape.py_comment(str(value)),
        md=lambda value: escape.md_block(str(value)),
        mdinline=lambda value: escape.md_inline(str(value)),
        mdheading=lambda value: escape.md_heading(str(value)),
        mdcode=lambda value: escape.md_code(str(value)),
    )
    return env


def builtin_templates() -> list[str]:
    """The relative names of the built-in templates (what a user's folder may replace)."""
    return sorted(
        path.relative_to(TEMPLATES_DIR).as_posix()
        for path in TEMPLATES_DIR.rglob("*.j2")
    )


@contextmanager
def overriding(folder: Path | None) -> Iterator[None]:
    """Within this block, templates in ``folder`` replace the built-in ones by name."""
    token = _OVERRIDE.set(folder.resolve() if folder is not None else None)
    try:
        yield
    finally:
        _OVERRIDE.reset(token)


def environment_now() -> jinja2.Environment:
    """The environment ``render_template`` uses here (with the current override)."""
    return environment(_OVERRIDE.get())


def render_template(name: str, **context: object) -> str:
    """Render the template ``name`` with ``context``."""
    return environment_now().get_template(name).render(**context)
