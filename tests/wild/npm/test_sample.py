"""The wild-ts oracle sample (``sample.py``) on a tiny local package: the checker and our
bindings agree on its types, and a disagreement planted in the checker's view of one type
is counted as a failure (as is a type the checker cannot name).

One judging run (one tsc program) serves every test here, so the file stays fast.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.conformance.typescript.decide import typescript_package
from tests.wild.npm import sample

INDEX = """\
export interface Point { x: number; y: number; label?: string }
export type Shape =
  | { kind: "circle"; r: number }
  | { kind: "square"; side: number };
export declare namespace Geo {
  interface Box { min: Point; max: Point; tags: string[] }
}
export enum Level { Low = 1, High = 2 }
"""
GLOBALS = """\
declare namespace Legacy {
  interface Tag { name: string; weight: number | null }
}
"""
NAMES = ["Box", "Level", "Missing", "Point", "Shape", "Tag"]


@pytest.fixture(scope="module")
def judged(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    if shutil.which("node") is None or typescript_package() is None:
        pytest.fail(
            "node and the typescript package are needed: run `make oracle-deps`"
        )
    root = tmp_path_factory.mktemp("30-fake-pkg")
    (root / "index.d.ts").write_text(INDEX, encoding="utf-8")
    (root / "types").mkdir()
    (root / "types" / "globals.d.ts").write_text(GLOBALS, encoding="utf-8")
    rels = ["index.d.ts", "types/globals.d.ts"]
    planted = pytest.MonkeyPatch()

    def tsc_view(spec: Path, files: list[str]) -> dict[str, str]:
        # The checker sees Tag.weight as a string (our bindings read a number: drawn
        # tags differ), and no ``Missing`` at all (its alias cannot resolve).
        view = original(spec, files)
        view["types/globals.d.ts"] = view["types/globals.d.ts"].replace(
            "weight: number", "weight: string"
        )
        del view["extra.d.ts"]
        return view

    original = sample.tsc_sources
    planted.setattr(sample, "tsc_sources", tsc_view)
    (root / "extra.d.ts").write_text(
        "export interface Missing { m: boolean }\n", encoding="utf-8"
    )
    # An error no sampled type meets (a syntax error in another file) is not theirs.
    (root / "broken.d.ts").write_text(
        "export interface Broken { x: }\n", encoding="utf-8"
    )
    try:
        scratch = tmp_path_factory.mktemp("30-fake-scratch")
        return sample.judge_package(
            "fake-pkg",
            root,
            [*rels, "extra.d.ts", "broken.d.ts"],
            NAMES,
            scratch,
            per_type=12,
        )
    finally:
        planted.undo()


def test_choose_is_seeded_and_bounded() -> None:
    names = [f"T{i}" for i in range(20)]
    first = sample.choose(names, "pkg-a", 3)
    assert first == sample.choose(list(reversed(names)), "pkg-a", 3)
    assert len(first) == 3 and set(first) <= set(names)
    assert (
        sample.choose(names, "pkg-b", 3) != first
        or sample.choose(names, "pkg-c", 3) != first
    )  # the seed is per package: not one pick for all
    assert sample.choose(["A"], "pkg-a", 3) == ["A"]


def test_the_checker_and_the_bindings_agree_on_the_fake_package(
    judged: dict[str, Any],
) -> None:
    assert "error" not in judged, judged.get("error")
    assert judged["judged"] == ["Box", "Level", "Point", "Shape", "Tag"]
    assert judged["cases"] >= 5 * 6
    honest = [d for d in judged["disagreements"] if d["type"] != "Tag"]
    assert honest == []
    assert judged["agree"] >= 4 * 6  # the four types the checker sees as we do


def test_a_planted_disagreement_is_a_failure(judged: dict[str, Any]) -> None:
    planted = [d for d in judged["disagreements"] if d["type"] == "Tag"]
    assert planted, "the checker's Tag.weight is a string: drawn tags must disagree"
    first = planted[0]
    assert first["tsc"].startswith("rejects") and first["bindings"] == "accept"
    summary = sample.summarize({"fake-pkg": judged}, [])
    assert summary["figures"]["disagreements_unlisted"] == len(planted)
    rule = {"id": "r", "reason": "a reason", "type": "Tag", "tsc": "not assignable"}
    listed = sample.summarize({"fake-pkg": judged}, [rule])
    assert listed["figures"]["disagreements_unlisted"] == 0
    assert listed["figures"]["disagreements_listed"] == len(planted)
    # a rule whose condition does not hold explains nothing
    other = sample.summarize({"fake-pkg": judged}, [{**rule, "tsc": "type 'Date'"}])
    assert other["figures"]["disagreements_unlisted"] == len(planted)


def test_a_type_the_checker_cannot_name_is_not_judged(judged: dict[str, Any]) -> None:
    # ``Missing`` is in our reading (extra.d.ts) but the alias to it names a module the
    # checker's view lacks: judged, it would be ``any`` and accept everything.
    assert "Missing" not in judged["judged"]
    assert "tsc cannot name it" in judged["not_judged"]["Missing"]


def test_the_sample_is_a_spec_of_what_it_reaches() -> None:
    from codegen import ir

    point = ir.StructDecl("Point", (ir.Field("x", "x", ir.Ref("Unit")),))
    unit = ir.AliasDecl("Unit", ir.Primitive(ir.PrimitiveKind.NUMBER))
    broken = ir.StructDecl("Broken", (ir.Field("y", "y", ir.Ref("Nowhere")),))
    protocol = ir.Protocol(
        id="p",
        title="p",
        version="0",
        transport=ir.Transport("jsonrpc-2.0", ()),
        roles=("client", "server"),
        decls=(point, unit, broken),
        methods=(),
    )
    kept = sample.sample_protocol(protocol, ["Point"])
    assert [d.name for d in kept.decls] == ["Point", "Unit"]
    assert [d.name for d in sample.sample_protocol(protocol, ["Broken"]).decls] == [
        "Broken"
    ]


def test_a_rule_without_conditions_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "d.toml"
    bad.write_text('[[rule]]\nid = "x"\nreason = "everything"\n', encoding="utf-8")
    with pytest.raises(ValueError):
        sample.listed(bad)
    bad.write_text(
        '[[rule]]\nid = "x"\nreason = "r"\ntsc_typo = "."\n', encoding="utf-8"
    )
    with pytest.raises(ValueError):
        sample.listed(bad)
    assert sample.listed(tmp_path / "none.toml") == []
