"""One spec's backends on two cores give exactly what one core gives, and fail the same way.

- ``forking.Forked``: the work runs in another process and its result comes back; a
  child that raises, crashes or is killed leaves the caller to run the work itself, so
  the caller sees the sequential path's own result or exception.
- ``forking.fork_pays``: never with another thread alive, never inside a pool worker.
- ``pipeline.render_draft(parallel=True)``: on every built-in spec and on a synthetic
  spec above the size that forks by itself, the finished files equal the sequential
  ones byte for byte; a backend failing in the child raises what it raises sequentially;
  ruff failing in the child leaves the formatting (and its error) to ``finish_drafts``.
"""

from __future__ import annotations

import multiprocessing
import os
import re
import sys
import threading
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from codegen import forking, ir
from codegen.backends import formatting
from codegen.pipeline import (
    PARALLEL_RENDER_SIZE,
    SpecOutcome,
    discover_specs,
    finish_drafts,
    load_protocol,
    render_draft,
)

REPO = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(REPO / "bench"))

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")


@pytest.fixture(scope="module")
def outcomes() -> list[SpecOutcome]:
    out = []
    for spec_dir in discover_specs(REPO / "specs"):
        outcome = load_protocol(spec_dir, REPO)
        assert outcome.protocol is not None and outcome.config is not None
        out.append(outcome)
    return out


def _pid_and(value: int) -> tuple[int, int]:
    return os.getpid(), value * 2


def test_forked_work_runs_in_another_process_and_returns() -> None:
    child = forking.Forked(lambda: _pid_and(21))
    pid, value = child.result()
    assert value == 42
    assert pid != os.getpid()  # the twin: it did not just run here


def test_a_child_that_raises_leaves_the_work_to_the_caller() -> None:
    parent = os.getpid()

    def work() -> int:
        if os.getpid() != parent:
            raise RuntimeError("only in the child")
        return 7

    assert forking.Forked(work).result() == 7


def test_a_failure_of_the_work_is_the_callers_own_exception() -> None:
    def work() -> int:
        raise ValueError(f"bad spec in {os.getpid() > 0}")

    with pytest.raises(ValueError, match="bad spec in True"):
        forking.Forked(work).result()


def test_a_crashed_or_killed_child_is_run_again_here() -> None:
    parent = os.getpid()

    def crash() -> str:
        if os.getpid() != parent:
            os._exit(3)
        return "here"

    def killed() -> str:
        if os.getpid() != parent:
            os.kill(os.getpid(), 9)
        return "here too"

    assert forking.Forked(crash).result() == "here"
    assert forking.Forked(killed).result() == "here too"


def test_cancel_stops_the_child_and_reaps_it() -> None:
    started = threading.Event()  # not shared: only to have something that blocks

    def forever() -> None:
        started.wait()

    child = forking.Forked(forever)
    pid = child._pid
    child.cancel()
    assert not child.forked
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, 0)  # already reaped: no zombie left


def test_fork_never_pays_with_another_thread_alive() -> None:
    release = threading.Event()
    thread = threading.Thread(target=release.wait)
    thread.start()
    try:
        assert not forking.fork_pays()
    finally:
        release.set()
        thread.join()


def test_fork_never_pays_inside_a_pool_worker() -> None:
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=1, mp_context=context) as pool:
        assert pool.submit(forking.fork_pays).result() is False
    # the twin: the test itself is no pool worker (so the verdict above is the pool's)
    assert multiprocessing.parent_process() is None


def _finished(outcome: SpecOutcome, parallel: bool) -> tuple[bool, dict[str, str]]:
    assert outcome.protocol is not None and outcome.config is not None
    draft = render_draft(
        outcome.protocol, outcome.config, formatter="ruff", parallel=parallel
    )
    return draft.formatted, finish_drafts([draft], "ruff")[0]


def test_parallel_render_equals_sequential_on_every_built_in_spec(
    outcomes: list[SpecOutcome],
) -> None:
    for outcome in outcomes:
        formatted, parallel = _finished(outcome, True)
        unformatted, sequential = _finished(outcome, False)
        assert formatted and not unformatted  # the child did format its Python
        assert list(parallel) == list(sequential)
        assert parallel == sequential, outcome.spec_dir.name


def test_parallel_render_equals_sequential_on_a_large_spec(tmp_path: Path) -> None:
    from bench_scale import _spec

    spec = _spec(tmp_path, 7)
    outcome = load_protocol(spec, tmp_path)
    assert outcome.protocol is not None
    assert len(outcome.protocol.decls) >= PARALLEL_RENDER_SIZE  # forks by itself
    assert _finished(outcome, True) == (True, _finished(outcome, False)[1])


def test_a_backend_failing_in_the_child_raises_as_sequentially(
    outcomes: list[SpecOutcome], monkeypatch: pytest.MonkeyPatch
) -> None:
    from codegen.backends import python as python_backend

    def broken(protocol: ir.Protocol, package: str) -> dict[str, str]:
        raise KeyError(f"no view for {protocol.id}")

    monkeypatch.setattr(python_backend, "render", broken)
    outcome = outcomes[0]
    assert outcome.protocol is not None and outcome.config is not None
    errors = []
    for parallel in (False, True):
        with pytest.raises(KeyError) as caught:
            render_draft(outcome.protocol, outcome.config, parallel=parallel)
        errors.append(repr(caught.value))
    assert (
        errors[0] == errors[1] == repr(KeyError(f"no view for {outcome.protocol.id}"))
    )


def test_a_backend_failing_only_in_the_child_still_renders(
    outcomes: list[SpecOutcome], monkeypatch: pytest.MonkeyPatch
) -> None:
    from codegen.backends import python as python_backend

    parent, real = os.getpid(), python_backend.render
    here: list[str] = []  # calls in this process (a child's are not seen here)

    def flaky(protocol: ir.Protocol, package: str) -> dict[str, str]:
        if os.getpid() != parent:
            raise MemoryError("the child ran out")
        here.append(protocol.id)
        return real(protocol, package)

    monkeypatch.setattr(python_backend, "render", flaky)
    outcome = outcomes[0]
    formatted, files = _finished(outcome, True)
    assert here == [outcome.spec_dir.name]  # the child failed: rendered here instead
    assert formatted
    assert files == _finished(outcome, False)[1]

    # the twin: a child that succeeds leaves nothing to do here
    def counted(protocol: ir.Protocol, package: str) -> dict[str, str]:
        if os.getpid() == parent:
            here.append(protocol.id)
        return real(protocol, package)

    monkeypatch.setattr(python_backend, "render", counted)
    here.clear()
    assert _finished(outcome, True)[1] == files and here == []


def test_ruff_failing_in_the_child_fails_in_finish_drafts_as_sequentially(
    outcomes: list[SpecOutcome], monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(files: dict[str, str]) -> dict[str, str]:
        raise formatting.FormattingError("ruff format failed on x.py: invalid syntax")

    monkeypatch.setattr(formatting, "format_many", broken)
    outcome = outcomes[0]
    assert outcome.protocol is not None and outcome.config is not None
    for parallel in (True, False):
        draft = render_draft(
            outcome.protocol, outcome.config, formatter="ruff", parallel=parallel
        )
        assert not draft.formatted
        with pytest.raises(formatting.FormattingError, match=re.escape("x.py")):
            finish_drafts([draft], "ruff")


def test_no_formatter_no_formatting_in_the_child(outcomes: list[SpecOutcome]) -> None:
    outcome = outcomes[0]
    assert outcome.protocol is not None and outcome.config is not None
    draft = render_draft(outcome.protocol, outcome.config, parallel=True)
    assert not draft.formatted
    assert draft == render_draft(outcome.protocol, outcome.config, parallel=False)
    # the twin: with ruff the child hands back the Python as format_many leaves it
    ruffed = render_draft(
        outcome.protocol, outcome.config, formatter="ruff", parallel=True
    )
    assert ruffed.formatted
    assert ruffed.files == formatting.format_many(draft.files)


def test_an_interrupted_wait_stops_the_child(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C while waiting for the child: it is killed and reaped, not left running."""
    started = threading.Event()

    def forever() -> None:
        started.wait()

    child = forking.Forked(forever)
    pid = child._pid

    def interrupted(fd: int, mode: str) -> object:
        raise KeyboardInterrupt

    monkeypatch.setattr(forking.os, "fdopen", interrupted)
    with pytest.raises(KeyboardInterrupt):
        child.result()
    monkeypatch.undo()
    assert not child.forked
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, 0)
