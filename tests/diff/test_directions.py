"""Fields a reader and a writer see differently (serde's alias, rename per direction,
skip_serializing / skip_deserializing, skip_serializing_if without a default), compared per
direction on hand-built IR: each scenario pairs one revision's writer with the other's
reader. The rule fixtures (``fixtures/field.read-mismatch`` …) show the same from Rust.
"""

from __future__ import annotations

from codegen import ir
from codegen.diff import Severity, compare
from tests.diff.support import S, field, protocol, struct


def _rules(old: ir.Field, new: ir.Field) -> dict[str, Severity]:
    changes = compare(protocol(struct(old)), protocol(struct(new)))
    return {
        c.rule.id: (
            c.rule.writer if c.rule.reader is Severity.COMPATIBLE else c.rule.reader
        )
        for c in changes
    }


def test_new_readers_of_another_key_lose_old_writes() -> None:
    assert _rules(field("uri"), field("uri", read_names=("url",))) == {
        "field.read-mismatch": Severity.BREAKING
    }


def test_the_same_edit_undone_breaks_the_other_scenario() -> None:
    # Old readers take 'url' while new writers write 'uri': the writer scenario breaks.
    assert _rules(field("uri", read_names=("url",)), field("uri")) == {
        "field.write-mismatch": Severity.BREAKING
    }


def test_an_alias_added_or_removed_breaks_nothing_this_revision_writes() -> None:
    aliased = field("uri", read_names=("uri", "url"))
    assert _rules(field("uri"), aliased) == {
        "field.direction-relaxed": Severity.COMPATIBLE
    }
    assert _rules(aliased, field("uri")) == {
        "field.direction-relaxed": Severity.COMPATIBLE
    }


def test_a_writer_that_stops_writing_a_required_key_breaks_old_readers() -> None:
    assert _rules(field("n"), field("n", written=False)) == {
        "field.write-mismatch": Severity.BREAKING
    }
    # Twin: an optional key old readers can do without.
    optional = ir.Presence.OPTIONAL
    assert _rules(
        field("n", presence=optional), field("n", presence=optional, written=False)
    ) == {"field.direction-relaxed": Severity.COMPATIBLE}


def test_a_reader_that_ignores_the_key_now_is_like_a_removed_field() -> None:
    assert _rules(field("n"), field("n", read=False, default_json="0")) == {
        "field.direction-relaxed": Severity.COMPATIBLE
    }


def test_a_presence_change_is_reported_once_by_the_presence_rule() -> None:
    # skip_serializing_if without a default: writers may leave it out, readers require it.
    new = field("n", presence=ir.Presence.OPTIONAL, read_required=True)
    assert _rules(field("n"), new) == {"field.required-to-optional": Severity.BREAKING}


def test_symmetric_fields_are_left_to_the_other_rules() -> None:
    assert _rules(field("n"), field("n")) == {}
    assert _rules(field("n", read_names=("m",)), field("n", read_names=("m",))) == {}


def _union_rules(old: ir.Variant, new: ir.Variant) -> dict[str, Severity]:
    def proto(variant: ir.Variant) -> ir.Protocol:
        union = ir.UnionDecl(
            "U",
            (variant, ir.Variant("Other", None, tag_values=("other",), span=S)),
            ir.UnionRepr.INTERNALLY_TAGGED,
            tag_key="type",
            span=S,
        )
        return protocol(struct(field("u", ir.Ref("U"))), union)

    changes = compare(proto(old), proto(new))
    return {
        c.rule.id: max(c.rule.reader, c.rule.writer, key=lambda s: s.rank)
        for c in changes
    }


def _variant(**kw: object) -> ir.Variant:
    return ir.Variant("A", None, tag_values=("a",), span=S, **kw)  # type: ignore[arg-type]


def test_a_variant_read_under_another_tag_breaks_old_writers() -> None:
    assert _union_rules(_variant(), _variant(read_tags=("b",))) == {
        "union.variant-read-mismatch": Severity.BREAKING
    }
    # The edit undone: old readers take "b", new writers write "a".
    assert _union_rules(_variant(read_tags=("b",)), _variant()) == {
        "union.variant-write-mismatch": Severity.BREAKING
    }


def test_a_variant_alias_is_compatible_and_a_skipped_writer_breaks_nothing_read() -> (
    None
):
    assert _union_rules(_variant(), _variant(read_tags=("a", "legacy"))) == {
        "union.variant-direction-relaxed": Severity.COMPATIBLE
    }
    # skip_serializing: new writers cannot write it; nothing they write is refused.
    assert _union_rules(_variant(), _variant(written=False)) == {
        "union.variant-direction-relaxed": Severity.COMPATIBLE
    }
    # skip_deserializing: new readers refuse the tag old writers write.
    assert _union_rules(_variant(), _variant(read=False)) == {
        "union.variant-read-mismatch": Severity.BREAKING
    }


def test_a_symmetric_variant_is_left_to_the_tag_rules() -> None:
    assert _union_rules(_variant(), _variant()) == {}
