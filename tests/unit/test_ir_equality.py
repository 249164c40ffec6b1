"""IR equality means "same wire meaning": spans and docs take no part in it.

The same declaration written in two places is the same declaration; a field redeclared
with the same type in a sub-interface, or ``_meta`` inherited from two bases, is no clash.
Each accepting case has a rejecting twin (a real difference still counts).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from codegen import ir
from codegen.ir.dump import dump
from tests.frontends.ts_support import load_ts

STRING = ir.Primitive(ir.PrimitiveKind.STRING)


def _struct(line: int, docs: str = "") -> ir.StructDecl:
    span = ir.Span("a.ts", line, 1)
    meta = ir.Field(
        "meta", "_meta", ir.Ref("Meta", span), ir.Presence.OPTIONAL, span=span
    )
    return ir.StructDecl(
        "Params", (meta,), lifecycle=ir.Lifecycle(docs=docs), span=span
    )


def test_same_declaration_at_two_spans_is_equal_and_hashes_alike() -> None:
    first, second = _struct(3, "one comment"), _struct(90, "another comment")
    assert first == second
    assert hash(first) == hash(second)
    assert len({first, second}) == 1


def test_a_different_wire_fact_is_still_a_difference() -> None:
    first = _struct(3)
    renamed = replace(first, fields=(replace(first.fields[0], wire_name="meta"),))
    required = replace(
        first, fields=(replace(first.fields[0], presence=ir.Presence.REQUIRED),)
    )
    other_ref = replace(first, fields=(replace(first.fields[0], type=ir.Ref("M")),))
    assert first != renamed and first != required and first != other_ref


def test_since_and_deprecation_still_count() -> None:
    plain = ir.Lifecycle(docs="x")
    assert plain != ir.Lifecycle(docs="x", deprecated="")
    assert plain != ir.Lifecycle(docs="x", since="1.2")


def test_dump_keeps_what_equality_ignores() -> None:
    # ``ir dump`` is for people: docs and spans stay in it.
    text = dump(_struct(7, "kept in the dump"))
    assert "kept in the dump" in text and '"line": 7' in text


_TWO_BASES = """
export interface Meta { [key: string]: unknown }
export interface A { _meta?: Meta; a: string }
export interface B { _meta?: Meta; b: string }
export interface C extends A, B { c: string }
"""


def test_meta_inherited_from_two_bases_is_no_clash(tmp_path: Path) -> None:
    outcome = load_ts(tmp_path, _TWO_BASES)
    assert not [d for d in outcome.diags.items if d.code == "STR001"]


def test_inherited_key_with_another_type_is_a_clash(tmp_path: Path) -> None:
    outcome = load_ts(tmp_path, _TWO_BASES.replace("B { _meta?: Meta", "B { _meta?: A"))
    assert [d.code for d in outcome.diags.items if d.code == "STR001"] == ["STR001"]


_REDECLARED = """
export interface Cursor { value: string }
export interface Base { cursor?: Cursor; id: string }
export interface Sub extends Base {
  /** Redeclared with the same type, only to document it again. */
  cursor?: Cursor;
}
"""


def test_field_redeclared_with_same_type_is_no_clash(tmp_path: Path) -> None:
    outcome = load_ts(tmp_path, _REDECLARED)
    assert not [d for d in outcome.diags.items if d.code == "STR001"]


def test_field_redeclared_with_another_type_is_a_clash(tmp_path: Path) -> None:
    outcome = load_ts(
        tmp_path, _REDECLARED.replace("  cursor?: Cursor;", "  cursor?: Base;")
    )
    assert [d.code for d in outcome.diags.items if d.code == "STR001"] == ["STR001"]
