"""``bitflags!`` types whose serde form the code makes certain (issue 31, item 4).

Phase: frontend helper (used by ``rust.reader`` and ``rust.crate``).
Inputs: the text of a ``bitflags! { ... }`` invocation, the flags type's name and width,
and the crate's ``Cargo.toml`` (which bitflags major version it depends on).
Outputs: ``derived_form`` → a ``DerivedFlags`` when serde's derive is written inside the
macro, else None; ``flags_decl`` → its IR declaration; ``dependency_major`` → the major
version a Cargo.toml asks for.
Guarantees: only bitflags 1 (Debian packages 1.3.2; also the assumption when no Cargo.toml
says otherwise) is given a form: its macro copies the attributes onto
``struct Flags { bits: u32 }``, so serde's derive writes ``{"bits": n}`` and reads that
object (or the one-element array serde reads any struct from); with
``#[serde(transparent)]`` the integer itself.  bitflags 2 writes the flag names as text,
which is not modelled: such a type keeps the "declare its wire form" diagnostic, as does
a flags type with no derive inside the macro (its form is hand-written, or there is none).
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass

from codegen import ir

_ATTRIBUTE = re.compile(r"#\[((?:[^\[\]]|\[[^\]]*\])*)\]")


@dataclass(frozen=True)
class DerivedFlags:
    transparent: bool  # #[serde(transparent)]: the bits integer itself
    closed: bool  # #[serde(deny_unknown_fields)]


def dependency_major(cargo_toml: str, crate: str) -> int | None:
    """The major version ``[dependencies]`` asks of ``crate`` (None if absent or unread)."""
    try:
        data = tomllib.loads(cargo_toml)
    except tomllib.TOMLDecodeError:
        return None
    entry = data.get("dependencies", {}).get(crate)
    version = entry.get("version") if isinstance(entry, dict) else entry
    if not isinstance(version, str):
        return None
    found = re.search(r"\d+", version)
    return int(found.group(0)) if found else None


def derived_form(macro_text: str, name: str) -> DerivedFlags | None:
    """The attributes written before ``struct <name>`` inside the macro, when they derive
    ``Serialize`` or ``Deserialize``."""
    head = re.search(rf"\bstruct\s+{re.escape(name)}\s*:", macro_text)
    if head is None:
        return None
    body_start = macro_text.find("{")
    attributes = [
        a.group(1)
        for a in _ATTRIBUTE.finditer(macro_text, body_start + 1, head.start())
    ]
    derives = " ".join(a for a in attributes if a.lstrip().startswith("derive"))
    if not re.search(r"\b(Serialize|Deserialize)\b", derives):
        return None
    serde = " ".join(a for a in attributes if a.lstrip().startswith("serde"))
    return DerivedFlags(
        transparent=re.search(r"\btransparent\b", serde) is not None,
        closed=re.search(r"\bdeny_unknown_fields\b", serde) is not None,
    )


def flags_decl(
    name: str, form: DerivedFlags, bits: ir.TypeExpr, span: ir.Span, forbid: bool
) -> ir.Decl:
    """``forbid``: the spec closes every object (``extra_keys = "forbid"``)."""
    if form.transparent:
        return ir.AliasDecl(name, bits, span=span)
    closed = form.closed or forbid
    return ir.StructDecl(
        name,
        (ir.Field("bits", "bits", bits, span=span),),
        extra_keys=ir.ExtraKeys.FORBID if closed else ir.ExtraKeys.ALLOW,
        span=span,
        array_form=(("bits", False),),
    )
