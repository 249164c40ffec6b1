"""The one Jinja environment of the project.

Phase: used by the text-emitting backends (Python bindings, stub server, docs).
Inputs: a template name under ``templates/`` at the repository root and a context of
plain values (view-models computed by a backend; templates only lay them out).
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
from pathlib import Path

import jinja2

from codegen.backends import escape

__all__ = ["TEMPLATES_DIR", "environment", "render_template"]

TEMPLATES_DIR = Path(__file__).resolve().parent.parent.parent / "templates"


@functools.cache
def environment() -> jinja2.Environment:
    """The shared environment (created once; templates are cached by Jinja)."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES_DIR)),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=False,
        newline_sequence="\n",
        auto_reload=False,
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


def render_template(name: str, **context: object) -> str:
    """Render ``templates/<name>`` with ``context``."""
    return environment().get_template(name).render(**context)
