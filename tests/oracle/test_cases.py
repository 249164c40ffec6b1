"""Case generation: drawn instances, mutants and the per-type budget are deterministic."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from codegen import naming
from codegen.oracles.cases import build_cases, sample_cases
from codegen.oracles.draw import draw
from codegen.oracles.mutants import INT_BOUNDS, Knowledge, mutants
from codegen.oracles.subject import load_subject

REPO = Path(__file__).resolve().parent.parent.parent

RECURSIVE = {
    "$defs": {
        "Tree": {
            "type": "object",
            "properties": {
                "name": {"type": "string"},
                "kids": {"type": "array", "items": {"$ref": "#/$defs/Tree"}},
            },
            "required": ["name"],
        }
    }
}


def test_draw_is_deterministic_and_handles_recursion() -> None:
    first = draw(RECURSIVE, "Tree", 8)
    assert first == draw(RECURSIVE, "Tree", 8)
    assert len(first) == 8 and all("name" in tree for tree in first)
    assert any(tree.get("kids") for tree in first)  # recursion is drawn, not refused


def test_draw_of_an_unsatisfiable_definition_is_empty() -> None:
    assert draw({"$defs": {"No": False}}, "No", 3) == []


def test_mutants_cover_every_kind() -> None:
    know = Knowledge(
        tags={"type": ("a", "b")},
        attribute_name=naming.attribute_name,
        case_insensitive_keys=True,
    )
    value = {"type": "a", "toolCallId": 3, "items": [True], "class": "x"}
    found = list(mutants(value, know))
    kinds = Counter(kind for kind, _, _ in found)
    assert set(kinds) == {
        "drop", "extra-key", "attr-name", "key-case", "tag-wrong", "tag-absent",
        "null", "wrong-type", "enum", "int-float", "int-bound",
    }  # fmt: skip
    texts = {what: make() for _, what, make in found}
    assert texts["/toolCallId as tool_call_id"] == (
        '{"type":"a","tool_call_id":3,"items":[true],"class":"x"}'
    )
    assert texts["/class as class_"] == (
        '{"type":"a","toolCallId":3,"items":[true],"class_":"x"}'
    )
    assert "/type as type_" not in texts  # ``type`` is its own attribute name
    assert texts["3.0 at /toolCallId"] == (
        '{"type":"a","toolCallId":3.0,"items":[true],"class":"x"}'
    )
    assert kinds["int-bound"] == len(INT_BOUNDS) - (3 in INT_BOUNDS)
    assert json.loads(texts["drop /items"]) == {
        "type": "a",
        "toolCallId": 3,
        "class": "x",
    }
    # Each mutant leaves the base untouched (they are built lazily from it).
    assert value == {"type": "a", "toolCallId": 3, "items": [True], "class": "x"}


def test_int_bounds_are_those_of_every_rust_and_go_integer() -> None:
    for bits in (8, 16, 32, 64):
        for bound in (-(2 ** (bits - 1)), 2 ** (bits - 1) - 1, 2**bits - 1, 2**bits):
            assert bound in INT_BOUNDS


def test_spec_cases_are_deterministic_and_capped() -> None:
    subject = load_subject("acp", REPO)
    targets = ["ToolCallContent", "ProtocolVersion"]
    first = build_cases(subject, targets, per_type=40, draws=4, official_draws=2)
    again = build_cases(subject, targets, per_type=40, draws=4, official_draws=2)
    assert [c.key for c in first] == [c.key for c in again]
    per_type = Counter(c.type_name for c in first)
    # A string has few mutants; an object reaches the budget.
    assert per_type["ToolCallContent"] == 40 and 10 < per_type["ProtocolVersion"] <= 40
    assert len({c.key for c in first}) == len(first)
    origins = {c.origin.split(":")[0] for c in first}
    assert {"sample", "ours", "official"} <= origins
    kinds = {c.kind for c in first if c.type_name == "ToolCallContent"}
    assert {"base", "drop", "tag-wrong", "merge"} <= kinds


def test_samples_of_methods_become_cases_of_their_types() -> None:
    subject = load_subject("acp", REPO)
    found = sample_cases(subject, {"ReadTextFileParams"})
    assert found and all(c.type_name == "ReadTextFileParams" for c in found)
    assert all(c.origin.endswith("/params") for c in found)
