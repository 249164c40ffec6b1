"""An untagged union is read by checking one key per variant in the order the pass chose.

``SessionState`` may carry ``agents`` too, so ``RootState``'s key must be checked after
``SessionState``'s; checking in declaration order would read a session as a root.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import TypeAdapter

from codegen.backends import python as backend
from tests.frontends.ts_support import load_ts
from tests.unit.test_python_backend import import_package, write_package

SOURCE = """export interface RootState { agents: string[] }
export interface SessionState { summary: string; agents?: string[] }
export interface TerminalState { title: string }
export interface Snapshot { state: RootState | SessionState | TerminalState }
"""


def test_keys_are_checked_in_the_order_the_pass_chose(tmp_path: Path) -> None:
    outcome = (
        load_ts(tmp_path / "spec", SOURCE)
        if (tmp_path / "spec").mkdir() is None
        else None
    )
    assert outcome is not None and outcome.protocol is not None
    union = outcome.protocol.decl("SnapshotState")
    assert union is not None and union.discriminator is not None
    assert [name for name, _ in union.discriminator.required_keys][:2] == [
        "SessionState",
        "RootState",
    ]
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
