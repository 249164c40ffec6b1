"""Pass: two members of one enum with the same value are reported, not merged silently.

Phase: pass (after the reference check).
Inputs: a Protocol.
Outputs: the same Protocol; an ENU001 warning per member whose value an earlier member of the
same enum already has.
Guarantees: pure.  Every source language allows it (TypeScript and Go constants may share a
value, serde reads the first of two equal renames), so it stays legal: on the wire the value is
one value, in Python the later member is an alias of the earlier one (``enum`` aliasing), and
the JSON Schema lists it once.  But it is almost always a copy-paste slip, so it is said.
"""

from __future__ import annotations

from codegen import ir
from codegen.diagnostics import Diagnostics


def check_enum_values(protocol: ir.Protocol, diags: Diagnostics) -> ir.Protocol:
    for decl in protocol.decls:
        if not isinstance(decl, ir.EnumDecl):
            continue
        first: dict[str | int, ir.EnumMember] = {}
        for member in decl.members:
            key: str | int = member.value
            earlier = first.setdefault(key, member)
            if earlier is not member:
                diags.report(
                    "ENU001",
                    f"{decl.name}.{member.name} has the value {member.value!r} of "
                    f"{decl.name}.{earlier.name}: readers cannot tell them apart (in "
                    f"Python {member.name} is an alias of {earlier.name})",
                    member.span if member.span != ir.NO_SPAN else decl.span,
                )
    return protocol
