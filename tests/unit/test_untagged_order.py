"""A TypeScript union without a tag reads a value as the member that fits it best.

TypeScript accepts a value that any member accepts; which member is "the" one is up to the
reader. ``SessionState`` may carry ``agents`` too, so the first member that fits
(``RootState``, which keeps unknown keys) would read a session as a root: the bindings take
the best fit instead (the member matching the most fields), and accept the same values.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import TypeAdapter

from codegen import ir
from codegen.backends import python as backend
from tests.frontends.ts_support import load_ts
from tests.unit.test_python_backend import import_package, write_package

SOURCE = """export interface RootState { agents: string[] }
export interface SessionState { summary: string; agents?: string[] }
export interface TerminalState { title: string }
export interface Snapshot { state: RootState | SessionState | TerminalState }
"""


def test_a_session_is_read_as_a_session_not_as_the_first_fit(tmp_path: Path) -> None:
    outcome = (
        load_ts(tmp_path / "spec", SOURCE)
        if (tmp_path / "spec").mkdir() is None
        else None
    )
    assert outcome is not None and outcome.protocol is not None
    union = outcome.protocol.decl("SnapshotState")
    assert isinstance(union, ir.UnionDecl) and union.repr is ir.UnionRepr.UNTAGGED
    assert not union.first_fit
    package = import_package(
        write_package(backend.render(outcome.protocol, "order_bindings"), tmp_path),
        "order_bindings",
    )
    adapter = TypeAdapter(package.models.Snapshot)
    session = adapter.validate_json('{"state": {"summary": "s", "agents": ["a"]}}')
    assert type(session.state).__name__ == "SessionState"
    # The rejecting twin: a root state stays a root state.
    root = adapter.validate_json('{"state": {"agents": ["a"]}}')
    assert type(root.state).__name__ == "RootState"
    # Accepted exactly when some member fits: a bad summary still fits RootState.
    odd = adapter.validate_json('{"state": {"summary": 5, "agents": ["a"]}}')
    assert type(odd.state).__name__ == "RootState"
    for bad in ('{"state": {"summary": 5}}', '{"state": {}}', '{"state": []}'):
        try:
            adapter.validate_json(bad)
        except ValueError:
            continue
        raise AssertionError(f"{bad} was accepted")
