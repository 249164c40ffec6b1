"""The one Jinja environment of the project.

Phase: used by the text-emitting backends (Python bindings, stub server, docs).
Inputs: a template name under ``templates/`` at the repository root and a context of
plain values (view-models computed by a backend; templates only lay them out).
Outputs: the rendered text.
Guarantees: ``StrictUndefined`` (a missing variable is an error, never ""),
``trim_blocks`` / ``lstrip_blocks`` / ``keep_trailing_newline``, no autoescaping (the
output is code, not HTML), ``\\n`` line endings; deterministic: no dates, no
environment data.
"""

from __future__ import annotations

import functools
from pathlib import Path

import jinja2

__all__ = ["TEMPLATES_DIR", "environment", "render_template"]

TEMPLATES_DIR = Path(__file__).resolve().parent.parent.parent / "templates"


@functools.cache
def environment() -> jinja2.Environment:
    """The shared environment (created once; templates are cached by Jinja)."""
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES_DIR)),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=False,
        newline_sequence="\n",
        auto_reload=False,
    )


def render_template(name: str, **context: object) -> str:
    """Render ``templates/<name>`` with ``context``."""
    return environment().get_template(name).render(**context)
