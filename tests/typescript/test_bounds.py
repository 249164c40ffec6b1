"""Depth and size bounds of the TypeScript frontend (issue 30, item 3): every nesting it
accepts renders to importable Python, the first level it cannot render is an error at its
line, and wide declarations (long unions, many members) read without a depth error."""

from __future__ import annotations

from pathlib import Path

from codegen.frontends.common.syntax import MAX_TYPE_NESTING
from tests.typescript.support import accepts, build, codes, load


def _deep(depth: int) -> str:
    expr = "string"
    for _ in range(depth):
        expr = f"Array<{expr}>"
    return f"export interface Holder {{\n  ok: boolean;\n  deep: {expr};\n}}\n"


def _nested(depth: int) -> object:
    value: object = "x"
    for _ in range(depth):
        value = [value]
    return value


def test_the_deepest_accepted_nesting_renders_importable_python(
    tmp_path: Path,
) -> None:
    depth = MAX_TYPE_NESTING - 1
    models = build(tmp_path, {"input.ts": _deep(depth)}, 'types = ["Holder"]\n').models
    assert accepts(models.Holder, {"ok": True, "deep": _nested(depth)})
    assert not accepts(models.Holder, {"ok": True, "deep": _nested(depth - 1)})
    assert not accepts(models.Holder, {"ok": True, "deep": _nested(depth + 1)})


def test_one_level_more_is_an_error_at_its_line(tmp_path: Path) -> None:
    for depth in (MAX_TYPE_NESTING, 250, 400):
        outcome = load(
            tmp_path, {"input.ts": _deep(depth)}, 'types = ["Holder"]\n', f"d{depth}"
        )
        errors = outcome.diags.errors()
        assert [e.code for e in errors] == ["SYN003"], depth
        assert errors[0].span.line == 3 and "levels deep" in errors[0].message


def test_an_unused_too_deep_type_is_left_out_with_a_warning(tmp_path: Path) -> None:
    source = _deep(300) + "export interface Other { a: string }\n"
    outcome = load(tmp_path, {"input.ts": source}, 'types = ["Other"]\n')
    assert codes(outcome) == []
    assert any(d.code == "SYN006" for d in outcome.diags.items)


def test_long_unions_and_wide_interfaces_read(tmp_path: Path) -> None:
    size = 3000
    fields = "\n".join(f"  f{i}: string;" for i in range(size))
    tags = " | ".join(f"'v{i}'" for i in range(size))
    source = (
        f"export interface Wide {{\n{fields}\n  f0: number;\n}}\n"
        f"export type Tags = {tags};\nexport interface Holder {{ w: Wide; t: Tags }}\n"
    )
    outcome = load(tmp_path, {"input.ts": source}, 'types = ["Holder"]\n')
    assert codes(outcome) == []
    assert outcome.protocol is not None
    wide = next(d for d in outcome.protocol.decls if d.name == "Wide")
    assert len(wide.fields) == size
    # a member declared again replaces the earlier one, in place of the last
    assert wide.fields[-1].name == "f0"
    tags_decl = next(d for d in outcome.protocol.decls if d.name == "Tags")
    assert tags_decl is not None


def _objects(depth: int) -> str:
    expr = "string"
    for _ in range(depth):
        expr = f"{{ a: {expr} }}"
    return f"export interface Holder {{\n  deep: {expr};\n}}\n"


def test_inline_objects_nest_beyond_the_expression_bound(tmp_path: Path) -> None:
    depth = MAX_TYPE_NESTING + 20  # lifted into named classes, one per level
    models = build(tmp_path, {"input.ts": _objects(depth)}, 'types = ["Holder"]\n')
    value: object = "x"
    for _ in range(depth):
        value = {"a": value}
    assert accepts(models.models.Holder, {"deep": value})
    assert not accepts(models.models.Holder, {"deep": {"a": {"a": 1}}})


def test_inline_objects_past_the_syntax_bound_are_an_error(tmp_path: Path) -> None:
    outcome = load(tmp_path, {"input.ts": _objects(600)}, 'types = ["Holder"]\n')
    errors = outcome.diags.errors()
    assert [e.code for e in errors] == ["SYN003"]
    assert "levels deep" in errors[0].message and errors[0].span.line == 2
