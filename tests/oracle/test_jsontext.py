"""Comparisons of the oracle campaign: token for token unless a listed normalization relaxes."""

from __future__ import annotations

import math

import pytest

from codegen.oracles.jsontext import PARSE_ULPS, Relax, difference, parse


def test_same_value_with_other_whitespace_and_escapes_agrees() -> None:
    # Go escapes < as \u003c, serde does not: the same string.
    assert difference('{"a":"<b>","n":1}', '{ "a" : "\\u003cb>", "n" : 1 }') is None


@pytest.mark.parametrize(
    ("left", "right", "where"),
    [
        ('{"a":1,"b":2}', '{"b":2,"a":1}', "keys"),  # key order counts
        ('{"n":1}', '{"n":1.0}', "/n"),  # number spelling counts
        ('{"n":1e16}', '{"n":1e+16}', "/n"),
        ('{"a":[1,2]}', '{"a":[1]}', "/a"),
        ('{"a":true}', '{"a":1}', "/a"),
        ('{"a":null}', "{}", "keys"),
    ],
)
def test_tokens_differ(left: str, right: str, where: str) -> None:
    found = difference(left, right)
    assert found is not None and where in found


def test_number_spelling_relaxes_floats_only() -> None:
    relax = Relax(numbers="value")
    assert difference('{"n":1e16}', '{"n":1e+16}', relax) is None
    assert difference('{"n":10000000000000000}', '{"n":1e16}', relax) is None
    assert difference('{"n":-0.00001}', '{"n":-1e-05}', relax) is None
    # Integers stay exact: 1 is 1, never 2, and never the float 1.5.
    assert difference('{"n":1}', '{"n":2}', relax) is not None
    assert difference('{"n":1.5}', '{"n":1.25}', relax) is not None


def test_unordered_compares_sets_of_keys() -> None:
    relax = Relax(ordered=False)
    assert difference('{"a":1,"b":2}', '{"b":2,"a":1}', relax) is None
    assert difference('{"a":1,"b":2}', '{"b":2,"a":3}', relax) is not None
    assert difference('{"a":1}', '{"a":1,"b":2}', relax) is not None


def test_maps_unordered_keeps_struct_order() -> None:
    relax = Relax(structs=frozenset({""}), maps_unordered=True)
    # /m is a map (not a struct): its keys may come in another order.
    assert (
        difference('{"x":1,"m":{"b":1,"a":2}}', '{"x":1,"m":{"a":2,"b":1}}', relax)
        is None
    )
    # The root is a struct: its keys must stay in order.
    assert difference('{"x":1,"m":{}}', '{"m":{},"x":1}', relax) is not None


def test_float64_relaxes_only_the_marked_fields() -> None:
    relax = Relax(floats=frozenset({"/f"}))
    big, rounded = "39057758024399024", "39057758024399020"
    assert difference(f'{{"f":{big}}}', f'{{"f":{rounded}}}', relax) is None
    assert difference(f'{{"f":[{big}]}}', f'{{"f":[{rounded}]}}', relax) is None
    assert difference(f'{{"i":{big}}}', f'{{"i":{rounded}}}', relax) is not None


def test_parse_ulps_relax_only_near_floats_of_marked_fields() -> None:
    # serde_json's best-effort parse: 1.712854054672354e+204 reads as the next float, and
    # -1.0000967511033257e+65 as the float two below it (both seen in make oracle).
    read, correct = "1.7128540546723542e204", "1.712854054672354e+204"
    exact = Relax(floats=frozenset({"/f"}))
    relax = Relax(floats=frozenset({"/f"}), one_ulp=True)
    assert difference(f'{{"f":{read}}}', f'{{"f":{correct}}}', exact) is not None
    assert difference(f'{{"f":{read}}}', f'{{"f":{correct}}}', relax) is None
    two_below = '{"f":-1.0000967511033255e65}'
    assert difference(two_below, '{"f":-1.0000967511033257e+65}', relax) is None
    # The twins: a float PARSE_ULPS + 1 away is a difference, and so is an unmarked field.
    far = float(correct)
    for _ in range(PARSE_ULPS + 1):
        far = math.nextafter(far, math.inf)
    assert difference(f'{{"f":{far!r}}}', f'{{"f":{correct}}}', relax) is not None
    assert difference(f'{{"g":{read}}}', f'{{"g":{correct}}}', relax) is not None


def test_parse_keeps_spelling_and_order() -> None:
    parsed = parse('{"b":1.0,"a":[1e2]}')
    assert [k for k, _ in parsed.pairs] == ["b", "a"]
    assert parsed.pairs[0][1].token == "1.0" and parsed.pairs[1][1][0].token == "1e2"
