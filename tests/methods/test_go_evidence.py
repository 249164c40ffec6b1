"""Go method evidence in code, each form with its rejecting twin (issue 29): ``switch``
dispatch on the method (params decoded per case, the answer returned), ``Call`` /
``Notify`` sends (params and result pointer), the receiver's role as the direction."""

from __future__ import annotations

from pathlib import Path

from tests.methods.support import codes, load, messages, table

SOURCE = (Path(__file__).parent / "fixtures" / "dispatch.go").read_text()


def test_dispatch_and_sends_are_methods(tmp_path: Path) -> None:
    out = load(tmp_path, "go", SOURCE)
    assert table(out) == {
        "doc/lookup": "request client → server LookupParams Entry[]",
        "doc/close": "request client → server none none",
        "ui/ask": "request server → client AskParams AskResult",
        "ui/changed": "notification server → client ChangedParams -",
    }
    assert "MTH010" not in codes(out) and "MTH006" not in codes(out)


def test_a_switch_on_something_else_is_no_dispatch(tmp_path: Path) -> None:
    source = SOURCE.replace("switch r.Method {", "switch r.Kind {")
    out = load(tmp_path, "go", source)
    assert "doc/close" not in table(out)
    # The constant still names doc/lookup, but nothing says it is a request now.
    assert "doc/lookup" in table(out)


def test_a_case_returning_an_undeclared_type_leaves_the_result_unknown(
    tmp_path: Path,
) -> None:
    source = SOURCE.replace("return []Entry{}, nil", "return []Other{}, nil")
    out = load(tmp_path, "go", source)
    assert any("doc/lookup" in m for m in messages(out, "MTH010"))


def test_a_method_both_roles_dispatch_goes_both_ways(tmp_path: Path) -> None:
    source = SOURCE + (
        "\ntype Client struct{}\n\nfunc (c *Client) handleRequest(r *Request) "
        '(any, error) {\n\tswitch r.Method {\n\tcase "doc/close":\n'
        "\t\treturn nil, nil\n\t}\n\treturn nil, nil\n}\n"
    )
    out = load(tmp_path, "go", source)
    assert table(out)["doc/close"] == "request client ↔ server none none"


def test_a_send_and_a_dispatch_disagreeing_on_the_kind_is_an_error(
    tmp_path: Path,
) -> None:
    source = SOURCE.replace(
        's.sender.Notify(ctx, "ui/changed"', 's.sender.Notify(ctx, "doc/lookup"'
    )
    out = load(tmp_path, "go", source)
    conflicts = messages(out, "MTH006")
    assert any("doc/lookup" in m and "kind" in m for m in conflicts), conflicts
