"""ECMA-262 patterns spelled for the Rust engine pydantic-core runs and for Python's re
(codegen/ecma_regex.py), judged by node's own RegExp (the language the patterns are written
in) on the same strings: every spelling matches exactly what ECMA-262 matches.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from typing import Annotated

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import Field, TypeAdapter, ValidationError

from codegen.ecma_regex import PYTHON, RUST, Unspellable, for_pydantic, spell

PATTERNS = [
    r"^\d+$",
    r"^\D+$",
    r"^\w+$",
    r"^[\w.-]+$",
    r"^[\d.]+$",
    r"^[^\d]+$",
    r"^[\D]+$",
    r"^\s*x\s*$",
    r"^\S+$",
    r"^a.b$",
    r"\bword\b",
    r"^\cJ$",
    r"^[^]$",
    r"^a{,3}$",
    r"^a{2,3}$",
    r"^x}$",
    r"^(?<year>\d{4})-\k<year>$",
    r"^(a)\1$",
    r"^(?=.*\d)[a-z\d]+$",
    r"^(?!x)\w+$",
    r"^\u00e9\x41$",
    r"^[a&&b]+$",
    r"^[~~]+$",
    r"^\/\-$",
    r"^a$",
    r"^[\b]$",
    r"^\v\f$",
    r"^[[]+$",
]
STRINGS = [
    "123",
    "\u0663",
    "abc",
    "\u00e9",
    "a.b",
    "a\nb",
    "a\u2028b",
    "x",
    " x ",
    "\u00a0x",
    "\u0085x",
    "word",
    "\u00e9word",
    "\n",
    "aaa",
    "aaaa",
    "a{,3}",
    "aa",
    "x}",
    "2024-2024",
    "aa",
    "ab",
    "a1",
    "abc1",
    "\u00e9A",
    "&&",
    "a&b",
    "~",
    "/-",
    "a\n",
    "\b",
    "\v\f",
    "[[",
    "_",
    "",
]


@pytest.fixture(scope="module")
def ecma() -> dict[str, list[bool]]:
    node = shutil.which("node")
    assert node, "node is installed by make test-deps"
    script = (
        "const [ps, ss] = JSON.parse(require('fs').readFileSync(0, 'utf8'));"
        "const out = {}; for (const p of ps) { const r = new RegExp(p, 'u');"
        " out[p] = ss.map((s) => r.test(s)); }"
        "process.stdout.write(JSON.stringify(out));"
    )
    # Node refuses some Annex B forms under the u flag (as JSON Schema validators do);
    # those are judged without it.
    script = script.replace(
        "const r = new RegExp(p, 'u');",
        "let r; try { r = new RegExp(p, 'u'); } catch { r = new RegExp(p); }",
    )
    run = subprocess.run(
        [node, "-e", script],
        input=json.dumps([PATTERNS, STRINGS]),
        capture_output=True,
        text=True,
        check=True,
    )
    verdicts: dict[str, list[bool]] = json.loads(run.stdout)
    return verdicts


def _rust(pattern: str) -> TypeAdapter[str]:
    return TypeAdapter(Annotated[str, Field(pattern=pattern)])


def _python(pattern: str) -> TypeAdapter[str]:
    return TypeAdapter(Annotated[str, Field(pattern=re.compile(pattern))])


def _verdicts(adapter: TypeAdapter[str]) -> list[bool]:
    out = []
    for text in STRINGS:
        try:
            adapter.validate_python(text)
            out.append(True)
        except ValidationError:
            out.append(False)
    return out


@pytest.mark.parametrize("pattern", PATTERNS)
def test_each_spelling_matches_what_ecma_matches(
    pattern: str, ecma: dict[str, list[bool]]
) -> None:
    spelled = 0
    for dialect, adapter in ((RUST, _rust), (PYTHON, _python)):
        try:
            text = spell(pattern, dialect)
        except Unspellable:
            continue
        got = _verdicts(adapter(text))
        wrong = [s for s, a, b in zip(STRINGS, got, ecma[pattern]) if a != b]
        assert not wrong, (dialect, text, wrong)
        spelled += 1
    assert spelled, f"{pattern} has no spelling"


def test_the_engines_own_reading_differs_from_ecma(ecma: dict[str, list[bool]]) -> None:
    # The twin: the patterns as written, given to either engine, disagree with ECMA.
    assert _verdicts(_rust(r"^\d+$")) != ecma[r"^\d+$"]  # "٣"
    assert _verdicts(_python(r"^a$")) != ecma[r"^a$"]  # "a\n"
    assert _verdicts(_rust(r"^\w+$")) != ecma[r"^\w+$"]  # "é"


def test_what_a_dialect_cannot_say_is_refused_with_a_reason() -> None:
    with pytest.raises(Unspellable, match="look-around"):
        spell(r"^(?=a)a$", RUST)
    with pytest.raises(Unspellable, match="back-reference"):
        spell(r"^(a)\1$", RUST)
    with pytest.raises(Unspellable, match="never closed"):
        spell(r"^[a-z", PYTHON)
    with pytest.raises(Unspellable, match="lone backslash"):
        spell("a\\", PYTHON)
    assert spell(r"^(?=a)a$", PYTHON) == r"^(?=a)a\Z"


@settings(max_examples=300, deadline=None)
@given(
    st.text(
        alphabet=st.sampled_from(list("\\[]^$.(){}?*+|-:=!<>kcuxdDwWsSbB0123aZ,&~é\n")),
        max_size=24,
    )
)
def test_any_text_is_spelled_or_refused_never_a_crash(pattern: str) -> None:
    for dialect in (RUST, PYTHON):
        try:
            spell(pattern, dialect)
        except Unspellable:
            pass
    try:
        for_pydantic(pattern)
    except Unspellable:
        pass


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=32))
def test_any_bytes_decoded_are_spelled_or_refused(data: bytes) -> None:
    try:
        for_pydantic(data.decode("utf-8", errors="surrogateescape"))
    except Unspellable:
        pass
