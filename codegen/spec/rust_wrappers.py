"""The vocabulary of ``[rust.wrappers]`` in spec.toml: the forms a spec may declare for a
type, and what else a value may be (a Rust type).

Phase: spec reading (``spec.schema`` checks each value); the Rust frontend implements
the forms (``frontends.rust.type_exprs``) and imports them from here.
Guarantees: pure data and one predicate; no imports of the frontends.
"""

from __future__ import annotations

# The generic forms (``W<T>`` read as ``T``, ``T | null``, absent/null/``T``) and the wire
# forms of types whose serde impls are hand-written: any JSON, a string, an integer
# (``integer-enum``: an integer enum whose values are the enum's discriminants;
# ``bitflags``: the flags' integer, of the ``bitflags!`` declaration's width).  Any other
# text is a Rust type (``"Vec<String>"``).
WRAPPER_FORMS = (
    "transparent",
    "option",
    "tri-state",
    "any",
    "string",
    "integer",
    "integer-enum",
    "bitflags",
)

# Rust's lowercase primitive types: a value spelt as one is a Rust type, not a misspelt form.
LOWERCASE_PRIMITIVES = frozenset(
    {"bool", "str", "char", "f32", "f64", "usize", "isize"}
    | {f"{sign}{bits}" for sign in "ui" for bits in (8, 16, 32, 64, 128)}
)


def is_wrapper_form(form: str) -> bool:
    """A form, or a Rust type (a lowercase word that is neither is a misspelt form)."""
    return form in WRAPPER_FORMS or not (
        form.isidentifier() and form.islower() and form not in LOWERCASE_PRIMITIVES
    )
