"""What the TypeScript evaluator keeps while it converts one spec: groups, names, problems.

Phase: frontend helper (shared by ``typeops``, ``materialize`` and ``evaluator``).
Inputs: the ``SymbolTable`` of the spec.
Outputs: ``Group``s: each top-level declaration with the declarations lifted out of it
(inline objects, unions, generic instantiations) and the problems met while converting it
(constructs with no JSON form, names not defined).  Whether a problem is an error or the
group is left out with a warning is decided later, by what reaches the group.
Guarantees: lifted names are unique and deterministic (source order, then a number).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from codegen import ir
from codegen.frontends.typescript.symbols import Symbol, SymbolTable
from codegen.frontends.typescript.tstypes import Obj, TsType


@dataclass(frozen=True, slots=True)
class Problem:
    code: str  # SYN003 (no JSON form / cannot evaluate) or REF001 (not defined)
    message: str
    span: ir.Span


@dataclass
class Group:
    """A top-level declaration and what was lifted out of it, in output order."""

    name: str
    symbol: Symbol | None
    decls: list[ir.Decl] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


class State:
    """The shared state of one conversion (see the module docstring)."""

    def __init__(self, table: SymbolTable) -> None:
        self.table = table
        self.groups: list[Group] = []
        self.stack: list[Group] = []
        # Every object type that got a name (interfaces, lifted objects): its members, so
        # ``keyof``, ``T["k"]``, ``Partial<T>`` can look inside a reference.
        self.objects: dict[str, Obj] = {}
        self.taken: set[str] = set(table.types)
        self.lifted: dict[str, ir.Decl] = {}
        self.in_progress: set[str] = set()
        self.alias_values: dict[tuple[int, tuple[TsType, ...]], TsType] = {}
        # the problems met while evaluating each alias value (see ``alias_value``)
        self.alias_problems: dict[
            tuple[int, tuple[TsType, ...]], tuple[Problem, ...]
        ] = {}
        self.instances: dict[tuple[int, tuple[TsType, ...]], str] = {}

    @property
    def group(self) -> Group:
        return self.stack[-1]

    def problem(self, span: ir.Span, message: str, code: str = "SYN003") -> None:
        if self.stack:
            self.group.problems.append(Problem(code, message, span))

    def fresh_name(self, base: str) -> str:
        """``base``, or ``base2``, ``base3`` … if the name is taken."""
        name = base or "Anonymous"
        number = 1
        while name in self.taken:
            number += 1
            name = f"{base}{number}"
        self.taken.add(name)
        return name

    def add_lifted(self, decl: ir.Decl) -> None:
        self.lifted[decl.name] = decl
        self.group.decls.append(decl)
